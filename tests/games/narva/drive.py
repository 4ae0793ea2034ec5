"""Driving the Across the Narva engine through its real frames, for the rule tests of chapters 2-8.

`command_phase(board, ["26-1", "2SH-1"])` runs a Command Phase (the engine's own "cup" frame) whose cup
holds exactly those chits, drawn in that order; it stops at the first question.  `activate(board,
chit, hq)` draws one command chit and answers ACTIVATE.  `reinforcement_phase(board)` runs the Turn
frame from its Reinforcement Phase on.  `arrive(board, unit, turn, entry)` schedules a reinforcement.
`moving(board, side, *units)` pushes an activation in which those units may move.  `cannot(board,
order, because=...)` expects the order to be refused for the rule `because` names.
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.core.errors import IllegalOrder
from moderator.core.frames import new_frame
from moderator.core.rng import Draw
from moderator.games.narva.activation import start_activation
from moderator.games.narva.board import Board
from moderator.games.narva.movement import MoveRules, Path, find_path
from tests.games.narva.helpers import FixedDice, answer, decisions, settle
from tests.refusals import refusal


class CupOrder(FixedDice):
    """Fixed d6 results, and chits drawn from the cup in a chosen order (then at random)."""

    def __init__(self, data: dict, order: Iterable[str] = (), rolls: Iterable[int] = ()):
        super().__init__(rolls)
        self.data = data
        self.order = list(order)

    def below(self, bound: int, stream: str = "dice", purpose: str = "") -> Draw:
        if stream == "cup" and self.order:
            chit = self.order.pop(0)
            draw = super().below(bound, stream, purpose)
            return Draw(draw.stream, draw.counter, draw.first, bound, self.data["cup"].index(chit), purpose)
        return super().below(bound, stream, purpose)


def order_cup(board: Board, order: Iterable[str], also: Iterable[str] = ()) -> None:
    """The cup holds the chits of `order` (drawn in that order) and `also` (drawn after, at random)."""
    order = list(order)
    board.data["cup"] = order + list(also)
    rolls = board.rng.rolls if isinstance(board.rng, FixedDice) else []
    board.rng = CupOrder(board.data, order, rolls)


def command_phase(board: Board, order: Iterable[str], also: Iterable[str] = ()) -> None:
    """Start a Command Phase with this cup and run it to the first question."""
    order_cup(board, order, also)
    board.push(new_frame(board.data, "cup", draws=0))
    settle(board)


def activate(board: Board, chit: str, hq: str) -> None:
    """Draw the command chit `chit` (alone in the cup) and activate `hq` with it."""
    command_phase(board, [chit])
    answer(board, f"ACTIVATE {hq}")


def asked(board: Board) -> list[str]:
    """The kinds of decision asked now ("hq", "move", "barrage"...)."""
    return [d.kind for d in decisions(board)]


DONE = {"move": "MOVE DONE", "attack": "ATTACK DONE", "attach": "ATTACH NONE", "hq": "PASS",
        "barrage": "BARRAGE NONE", "freemove": "FREEMOVE NONE", "regroup": "REGROUP NONE",
        "reroute": "REROUTE NONE", "place": "PLACE AUTO", "land": "LAND NONE", "coastal": "COASTAL NONE",
        "improve": "IMPROVE NONE", "stavka": "STAVKA AUTO", "loss": "LOSS AUTO", "retreat": "RETREAT AUTO",
        "advance": "ADVANCE NONE", "displace": "DISPLACE AUTO", "rebuild": "REBUILD DONE", "ready": "READY"}


def finish(board: Board, until: str | None = None) -> None:
    """Answer every question with its 'nothing more' choice until the stack is empty (or until a
    decision of kind `until` is asked)."""
    for _ in range(300):
        kinds = asked(board)
        if not kinds or until in kinds:
            return
        answer(board, DONE[kinds[0]])
    raise AssertionError("the engine kept asking")


def reinforcement_phase(board: Board) -> None:
    """Run the Turn frame from the Reinforcement Phase (8.0) to its first question."""
    board.push(new_frame(board.data, "turn", stage="reinforce", ready=["german", "soviet"]))
    settle(board)


def arrive(board: Board, unit: str, turn: int, entry: str) -> None:
    board.data["arrivals"].append({"unit": unit, "turn": turn, "entry": entry, "rerouted": False})


def path(board: Board, unit: str, dest: str, **rules) -> Path:
    """The path (and MP cost) of a normal move, or IllegalOrder."""
    return find_path(board, unit, dest, MoveRules(**rules))


def cannot(board: Board, text: str, *, because: str) -> IllegalOrder:
    """Answer with `text` and expect it to be refused for the rule `because` names (a regex the
    message must match, see tests/refusals.py); returns the error."""
    return refusal(lambda: answer(board, text), because)


def moving(board: Board, side: str, *units: str, fighters: Iterable[str] = (), mode: str = "command") -> None:
    """Push an activation in which these units may move (and `fighters` attack), as an HQ's
    activation does after its HQ and attachments are chosen, and run it to its first question."""
    start_activation(board, side, mode, movers=list(units), fighters=list(fighters))
    settle(board)
