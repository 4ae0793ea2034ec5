"""The mail and referee commands, written down once (issue 11).

Everything else is derived from this table: the envelope's recognition of command lines
(mail/envelope.py), the COMMANDS section of the player's HELP mail (templates/mail/help.txt.j2),
the referee's help in receipts and in `moderator referee --help`, the CLI's check of a referee
command and its argument, and the dispatch tables of the mailroom and of the referee controls
(each must name a handler for exactly the commands listed here for its audience; tests check it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Audience = Literal["player", "referee", "member", "organiser"]
PLAYER: Audience = "player"
REFEREE: Audience = "referee"
#: A league's members and its referee (the organiser), writing about the league (league/mail.py).
MEMBER: Audience = "member"
ORGANISER: Audience = "organiser"


@dataclass(frozen=True)
class Command:
    """One command: its name, who may send it, its argument syntax, a one-line help and an example.

    `min_words`/`max_words` bound the number of words of the argument (`max_words` None: free text);
    `referee_help` is the help the referee reads when a command means something else to a player.
    """

    name: str
    audiences: tuple[Audience, ...]
    syntax: str
    help: str
    example: str
    min_words: int = 0
    max_words: int | None = 0
    referee_help: str = ""

    def help_for(self, audience: Audience) -> str:
        return self.referee_help if audience == REFEREE and self.referee_help else self.help

    @property
    def usage(self) -> str:
        """The command with its argument syntax: `EXTEND [<hours>]`."""
        return f"{self.name} {self.syntax}".rstrip()

    def argument_problem(self, argument: str) -> str | None:
        """What is wrong with `argument` for this command, or None when its number of words fits."""
        words = len(argument.split())
        if words < self.min_words or (self.max_words is not None and words > self.max_words):
            return f"{self.name} is written: {self.usage}  (e.g. {self.example})"
        return None


COMMANDS: tuple[Command, ...] = (
    Command("HELP", (PLAYER,), "", "this text", "HELP"),
    Command("STATUS", (PLAYER, REFEREE), "", "who owes which decision by when, your scripts and standing orders",
            "STATUS", referee_help="who owes which decision by when, the phase and the newest log entry"),
    Command("CHECK", (PLAYER,), "", "with orders: a dry run; nothing is applied", "CHECK"),
    Command("RESEND", (PLAYER,), "", "your last report again", "RESEND"),
    Command("CONTINUE", (PLAYER,), "", "inside a script: resume your previously queued script here", "CONTINUE"),
    Command("SCRIPT", (PLAYER,), "CLEAR",
            "drop your queued script (with orders: they replace it; without CLEAR, a message that only "
            "answers what you are asked keeps the queued script after the answer)", "SCRIPT CLEAR",
            min_words=1, max_words=1),
    Command("OPTIONS", (PLAYER,), "", "every legal answer of each question you are asked now, in full", "OPTIONS"),
    Command("NOTIFY", (PLAYER,), "EVERY|TURN|ASKED",
            "how often you get mail: TURN (the default) when asked and at the end of each game turn, EVERY "
            "whenever something happens while you owe no answer, ASKED only when something is asked of you",
            "NOTIFY ASKED",
            min_words=1, max_words=1),
    Command("VACATION", (PLAYER,), "<from YYYY-MM-DD> <to YYYY-MM-DD>",
            "you are away: deadlines falling then move past your absence", "VACATION 2026-07-01 2026-07-14",
            min_words=2, max_words=2),
    Command("ENTROPY-COMMIT", (PLAYER,), "<SHA-256 of your secret text>",
            "games with entropy=commit-reveal: your commitment (64 hex digits), with JOIN or until every seat "
            "is taken", "ENTROPY-COMMIT 559d93fe55ca0f02c26e40deae650e615393874e7d71c25afdfc209d8b28428e",
            min_words=1, max_words=1),
    Command("ENTROPY-REVEAL", (PLAYER,), "<your secret text>",
            "games with entropy=commit-reveal: your secret text, once every commitment is in",
            "ENTROPY-REVEAL seven quiet herons cross the Belbek at dawn", min_words=1, max_words=None),
    Command("PAUSE", (REFEREE,), "", "stop running the game; orders are still accepted", "PAUSE"),
    Command("RESUME", (REFEREE,), "", "run the game again after PAUSE", "RESUME"),
    Command("FORCE", (REFEREE,), "", "apply every open default now", "FORCE"),
    Command("EXTEND", (REFEREE,), "[<hours>]", "move every open deadline later, by 24 hours if no number is given",
            "EXTEND 12", max_words=1),
    Command("ANNOUNCE", (REFEREE,), "<text>", "mail the text to every seat and observer",
            "ANNOUNCE Turn 3 runs on Sunday", min_words=1, max_words=None),
    Command("PREVIEW", (REFEREE,), "", "what the orders at hand would do, with throwaway dice", "PREVIEW"),
    Command("ROLLBACK", (REFEREE,), "<log number>",
            "take the game back to that log entry; later entries are voided but kept", "ROLLBACK 42",
            min_words=1, max_words=1),
    Command("REPLACE", (REFEREE,), "<role> <address>", "hand a seat to another player, with a new secret",
            "REPLACE north new.player@example.org", min_words=2, max_words=2),
    Command("ABSENT", (REFEREE,), "<role> <from YYYY-MM-DD> <to YYYY-MM-DD>",
            "a player is away: that seat's deadlines falling then move past the absence",
            "ABSENT north 2026-07-01 2026-07-14", min_words=3, max_words=3),
    Command("RELEASE", (REFEREE,), "<kept mail number>",
            "read a message kept in quarantine (numbered in the digest and STATUS) as if it had just arrived",
            "RELEASE 17", min_words=1, max_words=1),
    Command("DISMISS", (REFEREE,), "<kept mail number>",
            "drop a message kept in quarantine unprocessed (it is no longer listed)", "DISMISS 17",
            min_words=1, max_words=1),
    Command("TIMEZONE", (REFEREE,), "<zone>", "the time zone your digests and STATUS give times in",
            "TIMEZONE Europe/Madrid", min_words=1, max_words=1),
    # League mail (issue 15): a sign-up is 'JOIN LEAGUE <token>'; later mail names the league.
    Command("LEAGUE", (MEMBER, ORGANISER), "<league id>", "which league the message is for (with SECRET)",
            "LEAGUE spring-cup", min_words=1, max_words=1),
    Command("AVAILABILITY", (MEMBER,), "<games at once>",
            "how many league games you can play at once (reserves are offered seats while they have room)",
            "AVAILABILITY 2", min_words=1, max_words=1),
    Command("SIDES", (MEMBER,), "<side> [<side>]", "the sides you prefer, best first (Swiss evens them out)",
            "SIDES axis", min_words=1, max_words=4),
    Command("RESERVE", (MEMBER,), "[OFF]", "volunteer to take over a seat when a player drops out (OFF: no more)",
            "RESERVE", max_words=1),
    Command("ACCEPT", (MEMBER,), "<offer number>", "take the seat a reserve offer names (the first to accept)",
            "ACCEPT 3", min_words=1, max_words=1),
    Command("WITHDRAW", (MEMBER,), "", "leave the league; a seat you hold in a running game goes to a reserve",
            "WITHDRAW"),
    Command("STANDINGS", (MEMBER, ORGANISER), "", "the league's standings and this round's pairings", "STANDINGS"),
    Command("ADD", (ORGANISER,), "<address> [<name>]", "sign a member up", "ADD ann@example.org Ann Smith",
            min_words=1, max_words=None),
    Command("REMOVE", (ORGANISER,), "<address>", "take a member out; their running seat goes to a reserve",
            "REMOVE ann@example.org", min_words=1, max_words=1),
    Command("SEED", (ORGANISER,), "<address> <seed>", "set a member's seed (1 is the top)",
            "SEED ann@example.org 1", min_words=2, max_words=2),
    Command("START", (ORGANISER,), "", "close the sign-up and start round 1 now", "START"),
    Command("RESULT", (ORGANISER,), "<game id> <side>|DRAW", "adjudicate a league game: its winning side, or DRAW",
            "RESULT vmt-0003 axis", min_words=2, max_words=2),
)

BY_NAME = {command.name: command for command in COMMANDS}


def commands_for(audience: Audience) -> tuple[Command, ...]:
    return tuple(command for command in COMMANDS if audience in command.audiences)


def names_for(audience: Audience) -> frozenset[str]:
    return frozenset(command.name for command in commands_for(audience))


def help_lines(commands: Iterable[Command], column: int = 10, audience: Audience = PLAYER) -> list[str]:
    """The commands as a help section: the usage, then the help from `column` on (on a line of its
    own, indented to `column`, when the usage is too long to leave room for it)."""
    lines = []
    for command in commands:
        text = command.help_for(audience)
        if len(command.usage) < column - 1:
            lines.append(f"{command.usage.ljust(column)}{text}")
        else:
            lines += [command.usage, " " * column + text]
    return lines


def referee_summary() -> str:
    """The referee's commands on one line, for a receipt that found none and for an unknown one."""
    listed = " ".join(f"{command.usage}: {command.help_for(REFEREE)}." for command in commands_for(REFEREE))
    return f"Referee commands: {listed}"
