"""§6.1-6.2 battles: each side rolls 1d6 plus its strength in the area; the lower total loses a step.

Rulings: S-EQUAL (which of two equally strong units loses the step), S-TIE (what a tie does).
"""

from __future__ import annotations

from typing import Any

from moderator.core.frames import Automatic, new_frame
from tests.testgame.skirmish.board import Board
from tests.testgame.skirmish.retreat import push_retreat
from tests.testgame.skirmish.state import BattleFrame, Side


def push_battle(board: Board, area: str, attacker: Side, defender: Side) -> None:
    board.push(new_frame(board.data, "battle", area=area, attacker=attacker, defender=defender))


def battle_loser(totals: dict[str, int], attacker: Side, defender: Side) -> Side | None:
    """§6.2: the lower total loses; equal totals: the defender holds and nobody loses."""
    if totals[attacker] == totals[defender]:
        return None
    return attacker if totals[attacker] < totals[defender] else defender


class Battle(Automatic[Board, BattleFrame]):
    """A battle never asks: it rolls, takes the step and hands the loser's retreat to a retreat frame."""

    def step(self, board: Board, frame: BattleFrame) -> bool:
        board.pop()
        area, attacker, defender = frame["area"], frame["attacker"], frame["defender"]
        rolls: dict[str, Any] = {}
        totals: dict[str, int] = {}
        for side in (attacker, defender):
            die = board.d6(f"battle in {area}, {side}")
            totals[side] = die.value + board.strength_in(area, side)  # §6.1
            rolls[side] = {"die": die.to_json(), "total": totals[side]}
        loser = battle_loser(totals, attacker, defender)
        board.emit("battle", area=area, attacker=attacker, defender=defender, rolls=rolls, loser=loser)
        if loser is not None:
            board.lose_step(board.strongest_in(area, loser), f"lost the battle in {area} (§6.2)")
            push_retreat(board, loser, area, f"lost the battle in {area}")
        elif board.options["tie"] == "fall_back":
            # Ruling S-TIE: the defender holds the area, so the attacker falls back, losing nothing.
            push_retreat(board, attacker, area, f"held by the defender in {area} (ruling S-TIE)")
        return True
