"""§6.3 retreats: the loser of a battle takes all its units there to one adjacent area.

Rulings: S-NOWHERE (no area to go to: the units are eliminated).
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from tests.testgame.skirmish.board import Board, enemy
from tests.testgame.skirmish.state import RetreatFrame, Side


def push_retreat(board: Board, side: Side, origin: str, why: str) -> None:
    """The loser's retreat from `origin`: every unit of `side` there goes (§6.3)."""
    units = board.units_in(origin, side)
    if units:
        board.push(new_frame(board.data, "retreat", side=side, origin=origin, units=units, why=why))


def retreat_areas(board: Board, side: str, origin: str) -> list[str]:
    """§6.3: adjacent areas holding no enemy unit that `side` controls or that are empty, in map order."""
    return [area for area in board.neighbours(origin)
            if enemy(side) not in board.sides_in(area) and (board.controller(area) == side or board.is_empty(area))]


def auto_retreat_area(board: Board, side: str, origin: str) -> str:
    """RETREAT AUTO: the first legal area in map order, areas the side controls before empty ones."""
    areas = retreat_areas(board, side, origin)
    return min(areas, key=lambda area: (board.controller(area) != side, areas.index(area)))


class Retreat:
    def decisions(self, board: Board, frame: RetreatFrame) -> list[Decision]:
        areas = retreat_areas(board, frame["side"], frame["origin"])
        if not areas:
            return []
        # Public words only: when the deadline default is applied, every player is told this prompt.
        prompt = (f"The {frame['side']} units in {frame['origin']} lost the battle and must retreat to one "
                  f"adjacent area their side controls or that is empty (§6.3): RETREAT TO <area> or RETREAT AUTO.")
        active = board.active_side()
        return [ask(frame, frame["side"], "retreat", prompt, [f"RETREAT TO {a}" for a in areas] + ["RETREAT AUTO"],
                    "RETREAT AUTO", deadline="reaction", interrupts=active if active != frame["side"] else None,
                    context={"area": frame["origin"]})]

    def legal(self, board: Board, frame: RetreatFrame, decision: Decision) -> list[Order]:
        return [Order.make("retreat", "to", area=a) for a in retreat_areas(board, frame["side"], frame["origin"])] \
            + [Order.make("retreat", "auto")]

    def apply(self, board: Board, frame: RetreatFrame, decision: Decision, order: Order) -> None:
        side, origin = frame["side"], frame["origin"]
        if order.form == "auto":
            area = auto_retreat_area(board, side, origin)
        else:
            area = str(order.get("area"))
            legal = retreat_areas(board, side, origin)
            if area not in legal:
                board.fail(f"a retreat from {origin} goes to an adjacent area you control or that is empty, "
                           f"holding no enemy unit (§6.3): not {area}", [f"RETREAT TO {a}" for a in legal])
        answered(frame)
        retreat_to(board, frame, area)

    def step(self, board: Board, frame: RetreatFrame) -> bool:
        if retreat_areas(board, frame["side"], frame["origin"]):
            return False  # the loser decides where
        # Ruling S-NOWHERE: with no area to retreat to, the retreating units are eliminated.
        board.pop()
        for unit in frame["units"]:
            board.eliminate(unit, f"no area to retreat to from {frame['origin']} (ruling S-NOWHERE)")
        return True


def retreat_to(board: Board, frame: RetreatFrame, area: str) -> None:
    """Every retreating unit goes to `area`; the owner learns which units, the other side how many."""
    board.pop()
    side, origin, units = frame["side"], frame["origin"], frame["units"]
    board.emit("retreated", visible_to=[side], side=side, units=units, origin=origin, area=area)
    board.emit("retreated", hidden_from=[side], side=side, count=len(units), origin=origin, area=area)
    for unit in units:
        board.move(unit, area)
