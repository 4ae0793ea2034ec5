"""Typed errors.  Every message is written for the player or operator who will read it."""

from __future__ import annotations


class ModeratorError(Exception):
    """Base of every error the moderator raises on purpose."""


class OrderError(ModeratorError):
    """An order a player wrote cannot be used; the message says why and how to fix it."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = (), hint: str = ""):
        super().__init__(message)
        self.suggestions = suggestions
        self.hint = hint

    def explain(self) -> str:
        text = str(self)
        if self.suggestions:
            text += "; did you mean " + " or ".join(f"'{s}'" for s in self.suggestions) + "?"
        if self.hint:
            text += f" ({self.hint})"
        return text


class ParseError(OrderError):
    """The line does not match any order of the game's grammar."""


class IllegalOrder(OrderError):
    """The order is well formed but not legal in the current situation."""


class WrongDecision(IllegalOrder):
    """The order answers a question the engine is not asking this role now."""


class EnvelopeError(ModeratorError):
    """The message does not say which game, seat or secret it is for, or says it wrongly."""


class UnknownGame(ModeratorError):
    """No game with that id or engine name exists."""


class ScenarioError(ModeratorError):
    """Scenario data is missing or fails validation."""


class VerificationFailed(ModeratorError):
    """An archive's rolls or commitment do not recompute."""


class MailServerUnavailable(ModeratorError):
    """The outgoing mail server could not be reached, dropped us, or refused our login: nothing
    is wrong with the message, so the outbox waits for the server without giving the message up."""


class MailMaybeDelivered(ModeratorError):
    """The connection broke or timed out while the server was taking a message: it may have been
    accepted.  The outbox lets the sent copy decide before it sends the message again."""
