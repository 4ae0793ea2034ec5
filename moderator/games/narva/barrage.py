"""Barrage (2.5.1): from a Barrage chit, the Strachwitz HQ (4.2.3C), a random event (2.5.1.4) or the
German coastal artillery against the 260th MS landing (8.6C).

Each barrage targets an enemy-occupied hex (not a lone HQ, ruling N-29) next to a friendly combat
unit (next to any German unit for Strachwitz), never the same hex twice for one chit (2.5.1.1C-D),
and rolls on the Barrage CRT.  Barrage losses and retreats are never negated by cities, villages
or prepared defences (2.5.1.2), but German units in a PD hex take them on the PD track first
(11.3.4A); P pins the hex's units for the rest of the turn (2.5.1.3).  There is no advance.
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import Board, enemy
from moderator.games.narva.combat import defender_result
from moderator.games.narva.losses import push_losses
from moderator.games.narva.retreat import push_retreat
from moderator.games.narva.state import BarrageFrame, BarrageSource, Side


def start_barrages(board: Board, side: Side, count: int, source: BarrageSource, *, anywhere_next_to_any: bool = False,
                   fixed_target: str | None = None) -> BarrageFrame:
    """Push `count` barrage attacks for `side`; the owner chooses each target (or `fixed_target` is hit)."""
    frame: BarrageFrame = board.push(new_frame(
        board.data, "barrage", side=side, count=count, source=source, targeted=[], next_to_any=anywhere_next_to_any,
        fixed=fixed_target, pending=None))
    return frame


def targets(board: Board, frame: BarrageFrame) -> list[str]:
    side = frame["side"]
    fixed = frame.get("fixed")
    if fixed:
        return [fixed] if board.combat_units_at(fixed) and board.enemy_in(fixed, side) else []
    out = []
    for hex_id, units in board.occupied_hexes().items():
        if hex_id in frame["targeted"] or board.side_of(units[0]) == side:
            continue
        if not any(board.is_combat(u) for u in units):
            continue  # a lone HQ cannot be barraged (ruling N-29, as 9.0B for attacks)
        for n in board.neighbours(hex_id):
            mine = [u for u in board.units_at(n) if board.side_of(u) == side]
            if mine and (frame["next_to_any"] or any(board.is_combat(u) for u in mine)):
                out.append(hex_id)
                break
    return sorted(out)


def auto_target(board: Board, frame: BarrageFrame, legal: list[str]) -> str:
    """The deadline choice (ruling N-68), from what the player can see only: PD hexes first for the
    Soviets, then the stack with most counters when heights are visible, then the lowest hex."""
    heights = not board.fog or board.options["fog_stack_height"] == "shown"

    def score(h: str) -> tuple:
        pd = board.scenario.hex(h).pd_division is not None and frame["side"] == "soviet"
        return (-int(pd), -len(board.units_at(h)) if heights else 0, h)

    return min(legal, key=score)


def resolve(board: Board, frame: BarrageFrame, hex_id: str) -> None:
    side = frame["side"]
    frame["targeted"].append(hex_id)
    frame["count"] -= 1
    die = board.d6(f"barrage {hex_id}")
    cell = board.scenario.barrage_result(die.value)
    defenders = board.units_at(hex_id)
    target_side = enemy(side)
    outcome = defender_result(board, hex_id, cell.defender_steps, cell.defender_retreat, barrage=True)
    board.emit("barrage", side=side, hex=hex_id, source=frame["source"], die=die.to_json(), result=cell.code,
               after=outcome, units=defenders if not board.fog else None)
    board.remember("barrage", side=side, hex=hex_id, result=cell.code)
    if cell.pinned and not outcome.get("retreat"):
        board.data["pinned"][hex_id] = sorted(set(board.data["pinned"].get(hex_id, [])) |
                                              {u for u in defenders if board.is_combat(u)})
    if frame["source"] == "coastal" and cell.defender_retreat:
        # 8.6C: a retreat result (Dr1) destroys the landing brigade (ruling N-30)
        for uid in board.combat_units_at(hex_id):
            board.eliminate(uid, "coastal barrage on the landing (8.6C)")
        return
    # pushed in reverse: losses run first, then the retreat (rulings N-35, N-46: losses, then retreat)
    push_retreat(board, target_side, defenders, hex_id, outcome["retreat"], f"barrage on {hex_id}",
                 by="defense", interrupts=side)
    push_losses(board, target_side, [u for u in defenders if board.is_combat(u)], outcome["losses"],
                f"barrage on {hex_id}", by="defense", hex_id=hex_id, interrupts=side)


class Barrage:
    def decisions(self, board: Board, frame: BarrageFrame) -> list[Decision]:
        legal = targets(board, frame)
        prompt = (f"{frame['source'].title()} barrage: {frame['count']} barrage attack(s) left. Choose a target "
                  f"(BARRAGE <hex>), or BARRAGE AUTO, or BARRAGE NONE to forgo the rest. Targets: {', '.join(legal)}.")
        return [ask(frame, frame["side"], "barrage", prompt, ["BARRAGE AUTO", "BARRAGE NONE",
                                                               *(f"BARRAGE {h}" for h in legal)], "BARRAGE AUTO",
                    context={"source": frame["source"], "left": frame["count"]})]

    def legal(self, board: Board, frame: BarrageFrame, decision: Decision) -> list[Order]:
        out = [Order.make("barrage", "auto"), Order.make("barrage", "none")]
        return out + [Order.make("barrage", "hex", hex=h) for h in targets(board, frame)[:4]]

    def apply(self, board: Board, frame: BarrageFrame, decision: Decision, order: Order) -> None:
        legal = targets(board, frame)
        answered(frame)
        if order.form == "none":
            board.pop()
            board.emit("barrage_forgone", side=frame["side"], left=frame["count"], source=frame["source"])
            return
        if order.form == "auto":
            target = auto_target(board, frame, legal)
        else:
            target = str(order.get("hex"))
            if target not in legal:
                board.fail(f"{target} is not a barrage target: an enemy-occupied hex next to a friendly combat "
                           f"unit, not already barraged by this chit (2.5.1.1C-D)",
                           [f"BARRAGE {h}" for h in legal[:3]])
        resolve(board, frame, target)

    def step(self, board: Board, frame: BarrageFrame) -> bool:
        if frame["count"] <= 0 or not targets(board, frame):
            board.pop()
            if frame["count"] > 0:
                board.emit("barrage_forgone", side=frame["side"], left=frame["count"], source=frame["source"],
                           reason="no legal target")
            return True
        fixed = frame.get("fixed")
        if fixed:
            resolve(board, frame, fixed)
            return True
        return False
