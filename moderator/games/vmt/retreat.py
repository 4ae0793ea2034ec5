"""Step 7, retreat (reconstructed: ruling R-RETREAT), with the extra losses the text keeps:
enemy field of fire (L190, L206, L298), ferry arrows (L382), Soviet demoralization (L396-404),
and Interdiction (L457).  The losses of a group are assigned by its owner (L404)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.games.vmt.board import Board, enemy
from moderator.games.vmt.entering import interdiction_rolls, open_entry_window
from moderator.games.vmt.state import COMBAT_PROCEDURE, CombatFrame, RetreatGroup

AFTER_RETREAT = COMBAT_PROCEDURE.after("retreat")
#: The cause of a block's elimination when RETREAT AUTO found no room for it (a kind of "no retreat": its
#: assets are lost for good too, Board.eliminate).
NO_ROOM = "no retreat: no room"

#: Split retreats listed among a decision's options beyond the single areas (the best first); any
#: other split may still be written (ruling R-RETREAT).
LISTED_SPLITS = 12


def legal_destinations(board: Board, area: str, side: str) -> list[str]:
    """Adjacent or ferry-linked, not enemy-occupied, friendly-controlled (option: or empty), with room;
    for the Axis never an empty undestroyed battery area (L332)."""
    allow_empty_enemy = board.options.get("retreat_into") == "friendly_or_empty"
    out = []
    for nxt in board.geo.neighbours(area, include_ferry=True):
        if board.is_enemy_occupied(nxt, side):
            continue
        if side == "axis" and board.has_battery(nxt) and not open_battery_area(board, nxt, side):
            continue
        if not held_for_retreat(board, nxt, side) and not allow_empty_enemy:
            continue
        out.append(nxt)
    return out


def open_battery_area(board: Board, area: str, side: str) -> bool:
    """L332 closes to an Axis retreat only an *empty* area with an undestroyed battery: one that holds Axis
    blocks (and no Soviet block) is open, though the battery keeps it Soviet-controlled (ruling R-RETREAT;
    option battery_retreat=never closes every undestroyed battery area)."""
    return (side == "axis" and board.has_battery(area) and board.options.get("battery_retreat") != "never"
            and bool(board.blocks_in(area, "axis")) and not board.blocks_in(area, "soviet"))


def held_for_retreat(board: Board, area: str, side: str) -> bool:
    """The side controls the area (L392), or holds it in spite of an undestroyed battery (L332, ruling R-RETREAT)."""
    return board.controller(area) == side or open_battery_area(board, area, side)


def why_not_destination(board: Board, area: str, destination: str, side: str) -> str:
    """Why `legal_destinations` leaves `destination` out, with the rule, as a player is told it."""
    if destination not in board.geo.neighbours(area, include_ferry=True):
        return f"it is neither adjacent to {area} nor linked to it by a ferry arrow"
    reasons = []
    if board.is_enemy_occupied(destination, side):
        reasons.append("it holds enemy blocks")
    battery = side == "axis" and board.has_battery(destination)
    if not held_for_retreat(board, destination, side) and board.options.get("retreat_into") != "friendly_or_empty" \
            and not battery:
        reasons.append("your side does not control it")
    if battery and not board.blocks_in(destination, side):
        reasons.append("Axis blocks never retreat into an empty area with an undestroyed battery")
    elif battery and board.options.get("battery_retreat") == "never":
        reasons.append("Axis blocks never retreat into an area with an undestroyed battery (game option "
                       "battery_retreat=never)")
    return "; ".join(reasons) or "it is not open to this retreat"


def penalties(board: Board, origin: str, destination: str, side: str) -> list[str]:
    """The extra step losses for one group retreating from `origin` to `destination` (cumulative)."""
    reasons = []
    if field_of_fire(board, origin, destination, side):
        reasons.append("enemy field of fire")
    border = board.geo.border(origin, destination)
    if border is not None and border.kind == "ferry":
        reasons.append("ferry crossing")
    if side == "soviet" and near_sevastopol(board, destination):
        reasons.append("demoralization near Sevastopol")
    if not held_for_retreat(board, destination, side):
        reasons.append("retreat into enemy-controlled area")  # only with option retreat_into
    return reasons


def field_of_fire(board: Board, origin: str, destination: str, side: str) -> bool:
    """Ruling R-FIRE: a destination next to (ferries not counting) an area with enemy blocks other
    than the combat area is under enemy fire; option field_of_fire=enemy_controlled reads it as
    entering an enemy-controlled area instead."""
    if board.options.get("field_of_fire") == "enemy_controlled":
        return not held_for_retreat(board, destination, side)
    return any(board.is_enemy_occupied(n, side) for n in board.geo.neighbours(destination) if n != origin)


def near_sevastopol(board: Board, area: str) -> bool:
    """One of the two Sevastopol areas or next to one, ferry crossings not counting (L400)."""
    if board.geo.areas[area].sevastopol:
        return True
    return any(board.geo.areas[n].sevastopol for n in board.geo.neighbours(area))


def losing_side(frame: CombatFrame) -> str:
    """The side that lost the combat; raises ValueError when nobody did (both wiped out)."""
    loser = frame.get("loser")
    if loser is None:
        raise ValueError(f"nobody lost the combat in {frame['area']}")
    return loser


def still_retreating(board: Board, frame: CombatFrame) -> list[str]:
    """The loser's blocks still in the combat area, waiting to retreat."""
    return [b for b in frame["retreating"] if board.is_in(b, frame["area"])]


# ---------------------------------------------------------------- choosing a retreat (ruling R-RETREAT)


@dataclass(frozen=True)
class Plan:
    """A whole retreat: the groups in the order they go (the first takes the counters) and the blocks
    left behind for want of room, with what it costs as a careful player counts it."""

    groups: tuple[tuple[str, tuple[str, ...]], ...]  # (destination, blocks)
    left: tuple[str, ...]
    key: tuple[object, ...]


class Retreats:
    """Every way the retreating blocks can go, each group to one legal area with room, ranked as a careful
    player would (ruling R-RETREAT): as many blocks retreat as can, then the fewest blocks and steps
    lost, those left behind and the extra losses (each group's taken by its strongest block, L404), the
    fewest Armor and Pioneer counters lost (L234, L254), the fewest blocks entering an Interdiction
    (L457), the fewest groups, the most room, the lowest area ids."""

    def __init__(self, board: Board, area: str, side: str, blocks: list[str]):
        self.board, self.area, self.side = board, area, side
        self.blocks = sorted(blocks)
        self.room = {d: board.room_in(d, side) for d in legal_destinations(board, area, side)
                     if board.room_in(d, side) > 0}
        self.extra = {d: len(penalties(board, area, d, side)) for d in self.room}

    def plans(self) -> list[Plan]:
        """Every plan retreating as many blocks as can retreat, the best first."""
        found = [self.plan(choice) for choice in self._choices(0, {})]
        if not found:
            return []
        most = max(len(self.blocks) - len(p.left) for p in found)
        return sorted((p for p in found if len(self.blocks) - len(p.left) == most), key=lambda p: p.key)

    def best(self) -> Plan | None:
        """RETREAT AUTO's plan, or None when no block can retreat."""
        plans = self.plans()
        return plans[0] if plans else None

    def _choices(self, index: int, chosen: dict[str, str | None]) -> Iterator[dict[str, str | None]]:
        """Each block to an area with room left, or left behind (None); at least one block retreats."""
        if index == len(self.blocks):
            if any(d is not None for d in chosen.values()):
                yield dict(chosen)
            return
        block = self.blocks[index]
        for destination in [*self.room, None]:
            if destination is not None and sum(1 for d in chosen.values() if d == destination) >= \
                    self.room[destination]:
                continue
            chosen[block] = destination
            yield from self._choices(index + 1, chosen)
            del chosen[block]

    def plan(self, choice: dict[str, str | None]) -> Plan:
        """The blocks going to one area make one group; the group that keeps the counters goes first."""
        by_area: dict[str, list[str]] = {}
        for block, destination in choice.items():
            if destination is not None:
                by_area.setdefault(destination, []).append(block)
        left = tuple(b for b, d in choice.items() if d is None)
        lost, steps, interdicted = len(left), sum(self.board.sp(b) for b in left), 0
        for destination, group in by_area.items():
            group_lost, group_steps = self._losses(group, self.extra[destination])
            lost += group_lost
            steps += group_steps
            if self.side == "soviet" and self.board.marker(destination, "interdiction"):
                interdicted += len(group)
        groups = sorted(by_area.items(), key=lambda item: (self._counters_lost(item[0]), -len(item[1]),
                                                            -sum(self.board.sp(b) for b in item[1]), item[0]))
        counters = self._counters_lost(groups[0][0])
        key = (len(left), lost, steps, counters, interdicted, len(groups), -sum(self.room[d] for d, _ in groups),
               tuple(sorted(by_area)), tuple(sorted((d, tuple(g)) for d, g in groups)))
        return Plan(tuple((d, tuple(g)) for d, g in groups), left, key)

    def _losses(self, group: list[str], extra: int) -> tuple[int, int]:
        """Blocks eliminated and steps lost when each extra loss goes to the group's strongest block."""
        strengths = [self.board.sp(b) for b in group]
        steps = 0
        for _ in range(extra):
            alive = [i for i, sp in enumerate(strengths) if sp > 0]
            if not alive:
                break
            strengths[max(alive, key=lambda i: strengths[i])] -= 1
            steps += 1
        return sum(1 for sp in strengths if sp == 0), steps

    def _counters_lost(self, destination: str) -> int:
        """Counters the first group would lose by taking them along: Armor across a ferry arrow (L254), a
        second counter of one type in the destination (L234)."""
        border = self.board.geo.border(self.area, destination)
        ferry = border is not None and border.kind == "ferry"
        lost = 0
        for asset_id in self.board.assets_in(self.area, self.side):
            kind = self.board.asset_kind(asset_id)
            if (ferry and kind == "armor") or self.board.asset_of_kind_in(destination, self.side, kind):
                lost += 1
        return lost

    def label(self, plan: Plan) -> str:
        """The plan as an order, with its extra losses after two spaces."""
        if len(plan.groups) == 1 and not plan.left:
            text = f"RETREAT TO {plan.groups[0][0]}"
        else:
            text = "RETREAT " + " AND ".join(f"{' '.join(blocks)} TO {d}" for d, blocks in plan.groups)
        notes = []
        total = 0
        for destination, _ in plan.groups:
            reasons = penalties(self.board, self.area, destination, self.side)
            total += len(reasons)
            if reasons:
                notes.append(", ".join(reasons) if len(plan.groups) == 1 else f"{destination} {', '.join(reasons)}")
        notes += [f"{b} eliminated, no room" for b in plan.left]
        return text + (f"  ({total}: {'; '.join(notes)})" if notes else "  (0)")


def retreat_options(board: Board, frame: CombatFrame) -> list[str]:
    """RETREAT TO each legal area with room for every block, then the best split retreats (L206), each
    labelled with its extra losses after two spaces."""
    side = losing_side(frame)
    blocks = still_retreating(board, frame)
    retreats = Retreats(board, frame["area"], side, blocks)
    plans = retreats.plans()
    whole = sorted((p for p in plans if len(p.groups) == 1 and not p.left), key=lambda p: p.groups[0][0])
    split = [p for p in plans if p not in whole][:LISTED_SPLITS]
    return [retreats.label(p) for p in whole + split]


def apply_retreat(board: Board, frame: CombatFrame, order: Order) -> None:
    """Retreat the loser's blocks as ordered: one group, a split over several areas (L206), or RETREAT AUTO's
    careful choice (ruling R-RETREAT); raises IllegalOrder."""
    side = losing_side(frame)
    area = frame["area"]
    remaining = still_retreating(board, frame)
    if order.form == "auto":
        best = Retreats(board, area, side, remaining).best()
        if best is None:
            eliminate_unable(board, frame, remaining)
            return
        plan: list[RetreatGroup] = [{"blocks": list(blocks), "to": d, "losses": []} for d, blocks in best.groups]
        if best.left:
            plan[-1]["left"] = list(best.left)
    else:
        plan = groups_ordered(order, remaining)
        check_plan(board, area, side, remaining, plan)
        unnamed = [b for b in remaining if not any(b in g["blocks"] for g in plan)]
        if unnamed and not _room_after(board, area, side, plan):
            plan[-1]["left"] = unnamed  # as its option says: "<block> eliminated, no room"
    frame["retreat_plan"] = plan
    retreat_next_group(board, frame)


def _room_after(board: Board, area: str, side: str, plan: list[RetreatGroup]) -> bool:
    """Whether any legal area still has room once the plan's groups have gone (counted before any of them
    loses a block on the way): if not, the blocks it does not name have no room and are eliminated."""
    going = {d: sum(len(g["blocks"]) for g in plan if g["to"] == d) for d in {g["to"] for g in plan}}
    return any(board.room_in(d, side) - going.get(d, 0) > 0 for d in legal_destinations(board, area, side))


def groups_ordered(order: Order, remaining: list[str]) -> list[RetreatGroup]:
    """The groups a RETREAT order names, in its order, each with the LOSSES named among its blocks;
    raises IllegalOrder when a split leaves a group's blocks unnamed or LOSSES names a block not retreating."""
    groups: list[RetreatGroup] = []
    for suffix in ("", "2", "3"):
        destination = order.get("to" + suffix)
        if destination is not None:
            groups.append({"blocks": [str(b) for b in order.values("blocks" + suffix)], "to": str(destination),
                           "losses": []})
    if len(groups) > 1 and not all(g["blocks"] for g in groups):
        raise IllegalOrder("a split retreat names the blocks of every group: RETREAT <blocks> TO <area> AND "
                           "<blocks> TO <area>")
    if not groups[0]["blocks"]:
        groups[0]["blocks"] = list(remaining)
    losses = [str(b) for b in order.values("losses")]
    for block in losses:
        if not any(block in g["blocks"] for g in groups):
            raise IllegalOrder(f"LOSSES names {block}, which does not retreat with this order")
    for group in groups:
        group["losses"] = [b for b in losses if b in group["blocks"]]
    return groups


def check_plan(board: Board, area: str, side: str, remaining: list[str], plan: list[RetreatGroup]) -> None:
    """Every block named retreats from the area once, each group to a legal area with room for it (ruling
    R-RETREAT, R-STACK); raises IllegalOrder."""
    named: list[str] = []
    room: dict[str, int] = {}
    for group in plan:
        for block in group["blocks"]:
            if block not in remaining:
                raise IllegalOrder(f"{block} is not one of your blocks retreating from {area}")
            if block in named:
                raise IllegalOrder(f"{block} is named in two groups of the retreat")
            named.append(block)
        destination = group["to"]
        legal = legal_destinations(board, area, side)
        if destination not in legal:
            raise IllegalOrder(f"{destination} is not a legal retreat from {area}: "
                               f"{why_not_destination(board, area, destination, side)} "
                               f"(legal: {', '.join(legal) or 'none'})")
        room[destination] = room.get(destination, board.room_in(destination, side)) - len(group["blocks"])
        if room[destination] < 0:
            raise IllegalOrder(f"{destination} has room for only {board.room_in(destination, side)} of your blocks")


def retreat_next_group(board: Board, frame: CombatFrame) -> None:
    """The next group of the retreat goes (the rest wait while the Axis may react to it, ruling R-AIR);
    a group that can no longer go as ordered drops the plan and the question is asked again."""
    plan = frame.get("retreat_plan") or []
    group = plan.pop(0)
    if not plan:
        frame.pop("retreat_plan", None)
    side = losing_side(frame)
    area = frame["area"]
    remaining = still_retreating(board, frame)
    blocks = [b for b in group["blocks"] if b in remaining]
    left = [b for b in group.get("left", []) if b in remaining and b not in blocks]
    if blocks:
        try:
            check_plan(board, area, side, remaining, [{"blocks": blocks, "to": group["to"], "losses": group["losses"]}])
        except IllegalOrder:
            frame.pop("retreat_plan", None)
            return
        move_group(board, frame, blocks, area, group["to"], group["losses"], assets_choice=None,
                   of=len(remaining), left=len(left))
    for block in left:
        board.eliminate(block, NO_ROOM)  # no room for it where the others went (L236)
    frame["retreating"] = [b for b in remaining if b not in blocks and b not in left]
    if not [b for b in frame["retreating"] if board.is_on_map(b)]:
        frame.pop("retreat_plan", None)
        frame["stage"] = AFTER_RETREAT


def move_group(board: Board, frame: CombatFrame, group: list[str], origin: str, destination: str,
               losses: list[str], assets_choice: list[str] | None, of: int = 0, left: int = 0) -> None:
    """One group retreats (L298): it moves, takes its extra losses (L382, L400-404), and its assets go
    with it.  `of` is how many blocks were retreating before it went, `left` how many it leaves behind
    for want of room, for the narration of the whole retreat in one line."""
    side = board.side_of(group[0])
    reasons = penalties(board, origin, destination, side)
    border = board.geo.border(origin, destination)
    ferry = border is not None and border.kind == "ferry"
    # Assets go with the retreating blocks (the first group takes them unless told otherwise).
    moving_assets = [a for a in board.assets_in(origin, side)] if assets_choice is None else assets_choice
    for block in group:
        board.relocate(block, destination)
    for asset_id in moving_assets:
        if ferry and board.asset_kind(asset_id) == "armor":
            board.asset(asset_id)["area"] = None
            board.asset(asset_id)["status"] = "eliminated"
            board.emit("asset_eliminated", asset=asset_id, area=origin, cause="armor retreating across a ferry")
            continue
        board.asset(asset_id)["area"] = destination
    resolve_duplicate_assets(board, destination, side)
    if board.controller(destination) != side and not board.blocks_in(destination, enemy(side)):
        board.take_control(destination, side)  # present where the other side has no block (L390)
    board.remember("retreat", side=side, path=[origin, destination])
    # "of" and "left" only when they say something, so that the events of an ordinary retreat stay as they were
    shares: dict[str, Any] = {"of": of} if of > len(group) else {}
    if left:
        shares["left"] = left
    board.emit("retreat", side=side, origin=origin, destination=destination, count=len(group), penalties=reasons,
               **shares)
    board.emit("retreat_blocks", visible_to=(side,), side=side, blocks=group, destination=destination)
    # Extra losses, per group, assigned by the owner (L382, L400-404): named or the strongest first.
    for n, reason in enumerate(reasons):
        alive = [b for b in group if board.is_on_map(b)]
        if not alive:
            break
        chosen = losses[n] if n < len(losses) and losses[n] in alive else max(alive, key=lambda b: (board.sp(b), b))
        board.lose_step(chosen, cause=f"retreat: {reason}")
        if not board.is_on_map(chosen):
            continue  # its "eliminated" line names the block and the loss: said once (hand play D10)
        board.emit("retreat_loss", side=side, destination=destination, reason=reason, eliminated=False)
        board.emit("retreat_loss_block", visible_to=(side,), block=chosen, sp=board.sp(chosen))
    alive = [b for b in group if board.is_on_map(b)]
    if side == "soviet" and alive:
        if board.marker(destination, "interdiction"):
            interdiction_rolls(board, destination, alive)
        open_entry_window(board, destination, [b for b in alive if board.is_on_map(b)], attack=False)


def resolve_duplicate_assets(board: Board, area: str, side: str) -> None:
    """Two counters of one type forced into one area: the owner eliminates one for good (L234);
    the moderator keeps the one with more steps (ruling R-DUP)."""
    for kind in ("armor", "pioneer"):
        mine = [a for a in board.assets_in(area, side) if board.asset_kind(a) == kind]
        if len(mine) > 1:
            mine.sort(key=lambda a: (-board.asset(a)["steps"], a))
            for asset_id in mine[1:]:
                board.asset(asset_id).update({"status": "eliminated", "area": None})
                board.emit("asset_eliminated", asset=asset_id, area=area, cause="two of one type in an area")


def eliminate_unable(board: Board, frame: CombatFrame, blocks: list[str]) -> None:
    """Blocks with no legal retreat are eliminated, their assets with them for good (L236)."""
    for block in blocks:
        if board.is_on_map(block):
            board.eliminate(block, "no retreat")
    frame["retreating"] = []
    frame["stage"] = AFTER_RETREAT


def step_retreat(board: Board, frame: CombatFrame) -> bool:
    """Step 7 without a question: the next group of a split or AUTO retreat goes; blocks with nowhere to go
    are eliminated (L236); a beaten attacker goes back the way it came, each block to its own origin (L270).
    False when the loser must be asked where to retreat."""
    if frame["loser"] != frame["attacker"]:
        if frame.get("retreat_plan"):
            retreat_next_group(board, frame)
            return True
        remaining = still_retreating(board, frame)
        if not remaining:
            frame["stage"] = AFTER_RETREAT
            return True
        side = losing_side(frame)
        if not any(board.room_in(d, side) > 0 for d in legal_destinations(board, frame["area"], side)):
            eliminate_unable(board, frame, remaining)
            return True
        return False
    area = frame["area"]
    side = frame["attacker"]
    by_origin: dict[str, list[str]] = {}
    for entry in frame["attackers"]:
        if board.is_in(entry["block"], area):
            by_origin.setdefault(entry["origin"], []).append(entry["block"])
    going = {origin: group for origin, group in sorted(by_origin.items()) if can_go_home(board, area, origin, side,
                                                                                        len(group))}
    for origin, group in by_origin.items():
        if origin not in going:
            for block in group:
                board.eliminate(block, "no retreat")
    # Each counter goes back with the blocks it attacked with (L230: it stays with blocks; L270: they go back
    # where they came from); one whose blocks cannot go home, or placed in the combat area, goes with the first.
    came_from = frame.get("asset_origins", {})
    assets = board.assets_in(area, side)
    for index, (origin, group) in enumerate(going.items()):
        taking = [a for a in assets if came_from.get(a) == origin or (index == 0 and came_from.get(a) not in going)]
        move_group(board, frame, group, area, origin, [], assets_choice=taking)
    frame["stage"] = AFTER_RETREAT
    return True


def can_go_home(board: Board, area: str, origin: str, side: str, count: int) -> bool:
    """A beaten attacker's blocks go back to their origin unless it is now enemy-occupied, full, or (for the
    Axis) a closed battery area (L270, L332; ruling R-RETREAT)."""
    return not (origin == area or board.is_enemy_occupied(origin, side) or board.room_in(origin, side) < count
                or (side == "axis" and board.has_battery(origin) and not open_battery_area(board, origin, side)))
