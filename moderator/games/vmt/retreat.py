"""Step 7, retreat (reconstructed: ruling R-RETREAT), with the extra losses the text keeps:
enemy field of fire (L190, L206, L298), ferry arrows (L382), Soviet demoralization (L396-404),
and Interdiction (L457).  The losses of a group are assigned by its owner (L404)."""

from __future__ import annotations

from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.games.vmt.board import Board, enemy
from moderator.games.vmt.entering import interdiction_rolls, open_entry_window
from moderator.games.vmt.state import COMBAT_PROCEDURE, CombatFrame

AFTER_RETREAT = COMBAT_PROCEDURE.after("retreat")


def legal_destinations(board: Board, area: str, side: str) -> list[str]:
    """Adjacent or ferry-linked, not enemy-occupied, friendly-controlled (option: or empty), with room;
    never into an empty undestroyed battery area for the Axis (L332)."""
    allow_empty_enemy = board.options.get("retreat_into") == "friendly_or_empty"
    out = []
    for nxt in board.geo.neighbours(area, include_ferry=True):
        if board.is_enemy_occupied(nxt, side):
            continue
        if board.controller(nxt) != side and not allow_empty_enemy:
            continue
        if side == "axis" and board.has_battery(nxt):
            continue
        out.append(nxt)
    return out


def why_not_destination(board: Board, area: str, destination: str, side: str) -> str:
    """Why `legal_destinations` leaves `destination` out, with the rule, as a player is told it."""
    if destination not in board.geo.neighbours(area, include_ferry=True):
        return f"it is neither adjacent to {area} nor linked to it by a ferry arrow (ruling R-RETREAT)"
    reasons = []
    if board.is_enemy_occupied(destination, side):
        reasons.append("it holds enemy blocks (ruling R-RETREAT)")
    if board.controller(destination) != side and board.options.get("retreat_into") != "friendly_or_empty":
        reasons.append("your side does not control it (L392, ruling R-RETREAT)")
    if side == "axis" and board.has_battery(destination):
        reasons.append("Axis blocks never retreat into an empty area with an undestroyed battery (L332)")
    return "; ".join(reasons) or "ruling R-RETREAT"


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
    if board.controller(destination) != side:
        reasons.append("retreat into enemy-controlled area")  # only with option retreat_into
    return reasons


def field_of_fire(board: Board, origin: str, destination: str, side: str) -> bool:
    """Ruling R-FIRE: a destination next to (ferries not counting) an area with enemy blocks other
    than the combat area is under enemy fire; option field_of_fire=enemy_controlled reads it as
    entering an enemy-controlled area instead."""
    if board.options.get("field_of_fire") == "enemy_controlled":
        return board.controller(destination) != side
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


def retreat_options(board: Board, frame: CombatFrame) -> list[tuple[str, list[str]]]:
    """RETREAT TO each legal destination with room, labelled with its extra losses (shown after two spaces)."""
    side = losing_side(frame)
    area = frame["area"]
    out = []
    for destination in legal_destinations(board, area, side):
        if board.room_in(destination, side) < len(frame["retreating"]):
            continue
        reasons = penalties(board, area, destination, side)
        label = f"RETREAT TO {destination}" + (f"  ({len(reasons)}: {', '.join(reasons)})" if reasons else "  (0)")
        out.append((label, reasons))
    return out


def best_destination(board: Board, area: str, side: str, count: int) -> str | None:
    """RETREAT AUTO: fewest extra losses, then most room, then the lowest area id."""
    choices = []
    for destination in legal_destinations(board, area, side):
        room = board.room_in(destination, side)
        if room < count:
            continue
        choices.append((len(penalties(board, area, destination, side)), -room, destination))
    return min(choices)[2] if choices else None


def apply_retreat(board: Board, frame: CombatFrame, order: Order) -> None:
    """Retreat a group of the loser's blocks (all of them with RETREAT AUTO); raises IllegalOrder."""
    side = losing_side(frame)
    area = frame["area"]
    remaining = [b for b in frame["retreating"] if board.is_in(b, area)]
    if order.form == "auto":
        destination = best_destination(board, area, side, len(remaining))
        if destination is None:
            eliminate_unable(board, frame, remaining)
            return
        group, losses = remaining, []
    else:
        destination = str(order.get("to"))
        named = [str(b) for b in order.values("blocks")]
        group = named or remaining
        losses = [str(b) for b in order.values("losses")]
        for block in group:
            if block not in remaining:
                raise IllegalOrder(f"{block} is not one of your blocks retreating from {area}")
        if destination not in legal_destinations(board, area, side):
            legal = ", ".join(legal_destinations(board, area, side)) or "none"
            raise IllegalOrder(f"{destination} is not a legal retreat from {area}: "
                               f"{why_not_destination(board, area, destination, side)} (legal: {legal})")
        if board.room_in(destination, side) < len(group):
            raise IllegalOrder(f"{destination} has room for only {board.room_in(destination, side)} of your blocks")
    move_group(board, frame, group, area, destination, losses, assets_choice=None)
    frame["retreating"] = [b for b in remaining if b not in group]
    if not [b for b in frame["retreating"] if board.is_on_map(b)]:
        frame["stage"] = AFTER_RETREAT


def move_group(board: Board, frame: CombatFrame, group: list[str], origin: str, destination: str,
               losses: list[str], assets_choice: list[str] | None) -> None:
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
            board.emit("asset_eliminated", asset=asset_id, area=origin, cause="armor retreating across a ferry (L254)")
            continue
        board.asset(asset_id)["area"] = destination
    resolve_duplicate_assets(board, destination, side)
    if board.controller(destination) != side and not board.blocks_in(destination, enemy(side)):
        board.take_control(destination, side)  # present where the other side has no block (L390)
    board.remember("retreat", side=side, path=[origin, destination])
    board.emit("retreat", side=side, origin=origin, destination=destination, count=len(group), penalties=reasons)
    board.emit("retreat_blocks", visible_to=(side,), side=side, blocks=group, destination=destination)
    # Extra losses, per group, assigned by the owner (L382, L400-404): named or the strongest first.
    for n, reason in enumerate(reasons):
        alive = [b for b in group if board.is_on_map(b)]
        if not alive:
            break
        chosen = losses[n] if n < len(losses) and losses[n] in alive else max(alive, key=lambda b: (board.sp(b), b))
        board.lose_step(chosen, cause=f"retreat: {reason}")
        board.emit("retreat_loss", side=side, destination=destination, reason=reason,
                   eliminated=not board.is_on_map(chosen))
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
                board.emit("asset_eliminated", asset=asset_id, area=area, cause="two of one type in an area (L234)")


def eliminate_unable(board: Board, frame: CombatFrame, blocks: list[str]) -> None:
    """Blocks with no legal retreat are eliminated, their assets with them for good (L236)."""
    for block in blocks:
        if board.is_on_map(block):
            board.eliminate(block, "no retreat")
    frame["retreating"] = []
    frame["stage"] = AFTER_RETREAT


def retreat_attackers_if_needed(board: Board, frame: CombatFrame) -> bool:
    """A beaten attacker goes back the way it came: each block to its own origin (L270)."""
    if frame["loser"] != frame["attacker"]:
        if frame["stage"] == "retreat" and not [b for b in frame["retreating"] if board.is_on_map(b)]:
            frame["stage"] = AFTER_RETREAT
            return True
        if frame["stage"] == "retreat" and not legal_destinations(board, frame["area"], losing_side(frame)):
            eliminate_unable(board, frame, frame["retreating"])
            return True
        return False
    area = frame["area"]
    side = frame["attacker"]
    by_origin: dict[str, list[str]] = {}
    for entry in frame["attackers"]:
        if board.is_in(entry["block"], area):
            by_origin.setdefault(entry["origin"], []).append(entry["block"])
    assets_left = board.assets_in(area, side)
    for origin, group in sorted(by_origin.items()):
        if origin == area or board.is_enemy_occupied(origin, side) or board.room_in(origin, side) < len(group) \
                or (side == "axis" and board.has_battery(origin) and not board.blocks_in(origin, side)):
            for block in group:
                board.eliminate(block, "no retreat")
            continue
        move_group(board, frame, group, area, origin, [], assets_choice=assets_left)
        assets_left = []
    frame["stage"] = AFTER_RETREAT
    return True
