"""Driving combats, barrages, retreats and advances for the rule tests of chapters 2.1-2.5, 9-13.

`board(units, ...)` is `helpers.position` on Turn 2 by default (frozen, and free of the Soviet
Turn 1 die bonus of 14.10B).  `fight(board, side, target, attackers)` pushes a combat the way an
ATTACK order does, runs it to its first question and returns the combat event (None if the
attack was cancelled).  `attack_order(board, side, fighters, text)` gives a real ATTACK order
inside an activation whose `fighters` may attack.  `auto(board)` answers every open question
with its deadline answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from moderator.core.errors import IllegalOrder
from moderator.core.frames import new_frame
from moderator.games.narva import combat
from moderator.games.narva.activation import start_activation
from moderator.games.narva.board import Board
from tests.games.narva.helpers import FixedDice, answer, decisions, emitted, position, settle
from tests.refusals import refusal

AUTO = {"loss": "LOSS AUTO", "retreat": "RETREAT AUTO", "advance": "ADVANCE NONE", "displace": "DISPLACE AUTO",
        "barrage": "BARRAGE NONE", "move": "MOVE DONE", "attack": "ATTACK DONE", "stavka": "STAVKA AUTO",
        "rebuild": "REBUILD DONE", "improve": "IMPROVE NONE"}


def board(units: Mapping[str, str], *, turn: int = 2, **kw: Any) -> Board:
    return position(units, turn=turn, **kw)


def odds(b: Board, side: str, attackers: Iterable[str], target: str, air: Mapping[str, str] | None = None,
         stavka: bool = False) -> combat.Odds:
    return combat.compute_odds(b, side, list(attackers), target, dict(air or {}), stavka)


def fight(b: Board, side: str, target: str, attackers: Iterable[str], air: Mapping[str, str] | None = None,
          stavka: bool = False) -> dict[str, Any] | None:
    before = len(emitted(b, "combat"))
    combat.start_combat(b, side, target, list(attackers), dict(air or {}), stavka=stavka)
    settle(b)
    found = emitted(b, "combat")
    return found[-1] if len(found) > before else None


def asked(b: Board) -> list[str]:
    return [d.kind for d in decisions(b)]


def auto(b: Board, until: str | None = None) -> None:
    """Answer every question with its deadline answer (no advance) until none is left, or until a
    question of kind `until` comes up."""
    for _ in range(100):
        kinds = asked(b)
        if not kinds or until in kinds:
            return
        answer(b, AUTO[kinds[0]])
    raise AssertionError("the engine kept asking")


def ready_to_attack(b: Board, side: str, fighters: Iterable[str]) -> None:
    """An activation whose `fighters` may move and attack, run to its Combat Segment (no moves)."""
    fighters = list(fighters)
    start_activation(b, side, "command", movers=fighters, fighters=fighters)
    settle(b)
    answer(b, "MOVE DONE")
    assert asked(b) == ["attack"]


def attack_order(b: Board, side: str, fighters: Iterable[str], text: str) -> None:
    """`ready_to_attack`, then the ATTACK order `text`."""
    ready_to_attack(b, side, fighters)
    answer(b, text)


def refused(b: Board, text: str, *, because: str) -> IllegalOrder:
    """Answer with `text` and expect it to be refused for the rule `because` names (see tests/refusals.py)."""
    return refusal(lambda: answer(b, text), because)


def steps_lost(b: Board) -> list[tuple[str, str]]:
    """(unit, "reduced"/"eliminated") in the order the steps were lost."""
    return [(e["unit"], e["result"]) for e in emitted(b, "step_lost")]


def where(b: Board, *units: str) -> list[str | None]:
    return [b.hex_of(u) for u in units]


class Cup(FixedDice):
    """Fixed d6 results, and chits drawn from the cup in a given order."""

    def __init__(self, data: dict, order: Iterable[str], rolls: Iterable[int] = ()):
        super().__init__(rolls)
        self.data = data
        self.order = list(order)

    def below(self, bound: int, stream: str = "dice", purpose: str = ""):
        if stream == "cup" and self.order:
            draw = super().below(bound, stream, purpose)
            return type(draw)(draw.stream, draw.counter, draw.first, bound, self.data["cup"].index(self.order.pop(0)),
                              purpose)
        return super().below(bound, stream, purpose)


def draw_chits(b: Board, order: Iterable[str]) -> None:
    """A Command Phase whose cup holds exactly these chits, drawn in this order (the d6 results
    still to come stay as they were); runs to the first question."""
    order = list(order)
    b.data["cup"] = list(order)
    b.rng = Cup(b.data, order, b.rng.rolls if isinstance(b.rng, FixedDice) else [])
    b.push(new_frame(b.data, "cup", draws=0))
    settle(b)
