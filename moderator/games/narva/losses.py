"""Step losses (9.4): the first from the strongest participant, the rest as the owner likes.

A ``losses`` frame takes a batch of steps from a group of units.  It asks the owner only when
there is a real choice (a tie for strongest, or several units to share further losses); the
game's standing ``LOSS AUTO`` answers at once for players who never wrote a loss policy.
"""

from __future__ import annotations

import itertools

from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import Board
from moderator.games.narva.hq import displace_if_alone
from moderator.games.narva.state import LossesFrame, Side, StrengthUsed


def push_losses(board: Board, side: Side, units: list[str], count: int, why: str, *,
                strongest_first: bool = True, by: StrengthUsed = "defense", hex_id: str | None = None,
                interrupts: Side | None = None) -> None:
    """Queue `count` step losses among `units` (combat units only; HQs have no steps, 9.4C)."""
    if count <= 0:
        return
    board.push(new_frame(board.data, "losses", side=side, units=list(units), count=count, why=why,
                         strongest_first=strongest_first, by=by, hex=hex_id, interrupts=interrupts))


def candidates(board: Board, frame: LossesFrame) -> list[str]:
    return [u for u in frame["units"] if board.is_on_map(u) and board.is_combat(u)]


def printed(board: Board, uid: str, by: StrengthUsed) -> int:
    """9.4.1B: printed attack (attacker) or defense (defender) strength of the side showing."""
    return board.attack(uid) if by == "attack" else board.defense(uid)


def strongest(board: Board, units: list[str], by: StrengthUsed) -> list[str]:
    if not units:
        return []
    top = max(printed(board, u, by) for u in units)
    return [u for u in units if printed(board, u, by) == top]


def auto_choice(board: Board, frame: LossesFrame) -> list[str]:
    """The deadline answer (ruling N-68): each loss to the strongest unit on its current face, ties to
    the unit with more steps left, then the lowest unit id."""
    units = candidates(board, frame)
    steps = {u: (1 if board.is_reduced(u) or board.unit(u).steps < 2 else 2) for u in units}
    face = {u: printed(board, u, frame["by"]) for u in units}
    chosen: list[str] = []
    for _ in range(min(frame["count"], sum(steps.values()))):
        alive = [u for u in units if steps[u] > 0]
        pick = min(alive, key=lambda u: (-face[u], -steps[u], u))
        chosen.append(pick)
        steps[pick] -= 1
        if steps[pick]:
            unit = board.unit(pick)
            reduced = unit.strength(True)
            face[pick] = reduced.attack if frame["by"] == "attack" else reduced.defense
    return chosen


def check_choice(board: Board, frame: LossesFrame, chosen: list[str]) -> None:
    units = candidates(board, frame)
    need = min(frame["count"], sum(1 if board.is_reduced(u) or board.unit(u).steps < 2 else 2 for u in units))
    if len(chosen) != need:
        board.fail(f"name exactly {need} step loss{'es' if need != 1 else ''} (one unit per step), "
                   f"from: {', '.join(board.unit(u).name for u in units)}")
    steps = {u: (1 if board.is_reduced(u) or board.unit(u).steps < 2 else 2) for u in units}
    for u in chosen:
        if u not in steps:
            board.fail(f"{board.unit(u).name} is not among the units that must take these losses")
        steps[u] -= 1
        if steps[u] < 0:
            board.fail(f"{board.unit(u).name} has no step left to lose")
    if frame["strongest_first"]:
        pool = strongest(board, units, frame["by"])
        if chosen[0] not in pool:
            board.fail("the first step must come from the strongest unit (9.4.1): "
                       + " or ".join(board.unit(u).name for u in pool), [f"LOSS {pool[0]}"])


def has_choice(board: Board, frame: LossesFrame) -> bool:
    units = candidates(board, frame)
    if len(units) <= 1:
        return False
    if frame["count"] == 1 and frame["strongest_first"]:
        return len(strongest(board, units, frame["by"])) > 1
    return True


def take(board: Board, frame: LossesFrame, chosen: list[str]) -> None:
    for uid in chosen:
        hex_id = board.hex_of(uid)
        board.lose_step(uid, frame["why"])
        if hex_id is not None:
            displace_if_alone(board, hex_id)


#: Loss allocations are listed as options while there are no more candidate orders than this to check.
MOST_LOSS_ORDERS = 729


def loss_options(board: Board, frame: LossesFrame) -> list[str]:
    """Every legal allocation of the steps due (9.4.1: the first from a strongest unit), as LOSS orders,
    when there are few enough to list; else none (LOSS AUTO stays)."""
    units = candidates(board, frame)
    need = min(frame["count"], sum(1 if board.is_reduced(u) or board.unit(u).steps < 2 else 2 for u in units))
    if not need or len(units) ** need > MOST_LOSS_ORDERS:
        return []
    legal = []
    for chosen in itertools.product(units, repeat=need):
        try:
            check_choice(board, frame, list(chosen))
        except IllegalOrder:
            continue
        legal.append("LOSS " + " ".join(chosen))
    return list(dict.fromkeys(legal))


class Losses:
    def decisions(self, board: Board, frame: LossesFrame) -> list[Decision]:
        units = candidates(board, frame)
        names = ", ".join(f"{board.unit(u).name} ({printed(board, u, frame['by'])}"
                          f"{', reduced' if board.is_reduced(u) else ''})" for u in units)
        rule = "the first from the strongest, 9.4.1" if frame["strongest_first"] else "as you choose"
        prompt = (f"{frame['why']}: take {frame['count']} step loss{'es' if frame['count'] != 1 else ''} "
                  f"({rule}) among {names}.")
        default = "LOSS " + " ".join(board.unit(u).name for u in auto_choice(board, frame))
        return [ask(frame, frame["side"], "loss", prompt, ["LOSS AUTO", *loss_options(board, frame)], "LOSS AUTO",
                    deadline="reaction", interrupts=frame.get("interrupts"),
                    context={"hex": frame.get("hex"), "why": frame["why"], "count": frame["count"],
                             "suggested": default})]

    def legal(self, board: Board, frame: LossesFrame, decision: Decision) -> list[Order]:
        return [Order.make("loss", "auto")]

    def apply(self, board: Board, frame: LossesFrame, decision: Decision, order: Order) -> None:
        if order.form == "auto":
            chosen = auto_choice(board, frame)
        else:
            chosen = [str(u) for u in order.values("units")]
            check_choice(board, frame, chosen)
        answered(frame)
        board.pop()
        take(board, frame, chosen)

    def step(self, board: Board, frame: LossesFrame) -> bool:
        units = candidates(board, frame)
        if not units:
            board.pop()
            return True
        if has_choice(board, frame):
            return False
        board.pop()
        take(board, frame, auto_choice(board, frame))
        return True
