"""§5 movement: the active side moves its units one at a time to adjacent areas, then says DONE.

Rulings: S-ONCE (a unit moves at most once a phase).
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask
from moderator.core.grammar import Order
from tests.testgame.skirmish.board import Board
from tests.testgame.skirmish.state import PhaseFrame


def movers(board: Board, frame: PhaseFrame) -> list[str]:
    """The active side's units that may still move this phase (ruling S-ONCE: each moves once)."""
    return [u for u in board.units_of(frame["side"]) if u not in frame["moved"]]


def legal_moves(board: Board, frame: PhaseFrame) -> list[tuple[str, str]]:
    """(unit, area) for every unit that may move and every area adjacent to it (§5.1)."""
    return [(unit, area) for unit in movers(board, frame) for area in board.neighbours(str(board.area_of(unit)))]


def move_decision(board: Board, frame: PhaseFrame) -> Decision:
    moves = legal_moves(board, frame)
    prompt = (f"Turn {board.turn}, {frame['side']} movement (§5): move a unit to an adjacent area "
              f"(MOVE <unit> TO <area>), or DONE to end your movement and fight the battles.")
    return ask(frame, frame["side"], "move", prompt, [f"MOVE {u} TO {a}" for u, a in moves] + ["DONE"], "DONE",
               context={"turn": board.turn})


def legal_orders(board: Board, frame: PhaseFrame) -> list[Order]:
    return [Order.make("move", "to", unit=u, area=a) for u, a in legal_moves(board, frame)] \
        + [Order.make("move", "done")]


def move_unit(board: Board, frame: PhaseFrame, order: Order) -> None:
    """One MOVE order; raises IllegalOrder naming the rule it breaks (the state is then unchanged)."""
    unit, area = str(order.get("unit")), str(order.get("area"))
    if board.side_of(unit) != frame["side"]:
        board.fail(f"{unit} is not yours to move (§5)")
    if not board.is_on_map(unit):
        board.fail(f"{unit} has been eliminated (§6.2)")
    if unit in frame["moved"]:
        board.fail(f"{unit} has already moved this phase: a unit moves once a phase (ruling S-ONCE)",
                   [f"MOVE {u} TO {board.neighbours(str(board.area_of(u)))[0]}" for u in movers(board, frame)])
    origin = str(board.area_of(unit))
    if not board.is_adjacent(origin, area):
        board.fail(f"{unit} in {origin} moves only to an adjacent area (§5.1): not {area}",
                   [f"MOVE {unit} TO {a}" for a in board.neighbours(origin)])
    answered(frame)
    frame["moved"].append(unit)
    side = frame["side"]
    board.emit("moved", visible_to=[side], side=side, unit=unit, origin=origin, area=area)
    board.emit("enemy_moved", hidden_from=[side], side=side, origin=origin, area=area)
    board.move(unit, area)
