"""Activation and movement: Assault (L166-180, L435), Coordinated Assault (L182-200), Counterattack
(L437-441), Redeployment (L459-461), assets (L224-236), ferries (L374-384), batteries (L332)."""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass

from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.games.vmt.board import Board, enemy
from moderator.games.vmt.combat import open_combat
from moderator.games.vmt.entering import interdiction_rolls, open_entry_window
from moderator.games.vmt.frames import answered, ask, new_frame, options_as_orders
from moderator.games.vmt.state import ACTIVATION_STEPS, ActivationFrame, AttackEntry

REDEPLOY_RANGE = 4  # L461


# ---------------------------------------------------------------- who can be activated


def group_areas(board: Board, side: str) -> list[str]:
    """The areas a side could activate a group in: those with its blocks (L172)."""
    return sorted({board.area_on_map(b) for b in board.blocks_of(side)})


def divisions_on_map(board: Board, side: str) -> list[str]:
    divisions = {board.division_of(b) for b in board.blocks_of(side)}
    return sorted(d for d in divisions if d)


def division_activation(board: Board, side: str, division: str) -> list[str]:
    """All blocks of one division plus the non-divisional blocks stacked with any of them (L176)."""
    members = [b for b in board.blocks_of(side) if board.division_of(b) == division]
    if not members:
        raise IllegalOrder(f"division {division} has no block on the map")
    areas = {board.area_of(b) for b in members}
    extra = [b for b in board.blocks_of(side) if board.division_of(b) is None and board.area_of(b) in areas]
    return sorted(members + extra)


# ---------------------------------------------------------------- starting an activation


def start(board: Board, side: str, card: str, order: Order, reaction: bool) -> ActivationFrame:
    """Play an Assault, Counterattack or Redeployment card and open its activation; raises IllegalOrder."""
    card_id = board.take_from_hand(side, card)
    board.discard(side, card_id)
    group = order.form.endswith("group") or order.form == "group"
    if group:
        area = str(order.get("area"))
        blocks = sorted(board.blocks_in(area, side))
        if not blocks:
            raise IllegalOrder(f"you have no block in {area}")
        divisions: list[str] = []
    else:
        area = None
        division = str(order.get("division"))
        if board.scenario.division(division).side != side:
            raise IllegalOrder(f"division {division} is not yours")
        blocks = division_activation(board, side, division)
        divisions = [division]
    kind = "redeploy" if card == "redeployment" else "assault"
    # Counterattack as a Reaction places no assets (L228, L439); as an Assault it does (ruling R-CA).
    assets_left = 1 if kind == "assault" and not reaction else 0
    # Only a division's Assault may coordinate more divisions (L186-190).
    first = ACTIVATION_STEPS.first if (kind == "assault" and not group) else ACTIVATION_STEPS.after("coordinate")
    frame: ActivationFrame = new_frame(
        board, "activation", side=side, card=card, mode="group" if group else "division", area=area,
        divisions=divisions, blocks=blocks, moved=[], reaction=reaction, move_kind=kind, stage=first,
        assets_left=assets_left, pending={}, order_of_pending=[], fight=None, closing=False,
        target=str(order.get("target")) if order.get("target") else None, asset_start={}, assets_moved=[],
        auto_moved=False)
    board.emit("card_played", side=side, card=card, mode=frame["mode"], area=area, divisions=divisions,
               reaction=reaction, blocks=len(blocks))
    board.emit("activated", visible_to=(side,), side=side, blocks=blocks)
    if frame["target"]:
        _check_target(board, frame)
    board.push(frame)
    return frame


def _check_target(board: Board, frame: ActivationFrame) -> None:
    """ASSAULT GROUP a TO b names an area next to a (ferries count for moving, L384); raises IllegalOrder."""
    target, origin = _target_move(frame)
    if target not in board.geo.neighbours(origin, include_ferry=True):
        raise IllegalOrder(f"{target} is not next to {origin}")


def _target_move(frame: ActivationFrame) -> tuple[str, str]:
    """The (target, group area) of ASSAULT GROUP a TO b; raises ValueError for an activation without TO."""
    if frame["target"] is None or frame["area"] is None:
        raise ValueError("this activation names no group moving TO an area")
    return frame["target"], frame["area"]


def coordinate_options(board: Board, frame: ActivationFrame) -> list[str]:
    side = frame["side"]
    if len(frame["divisions"]) >= 3:  # three divisions at most (L190)
        return []
    cards = ["counterattack"] if frame["reaction"] else ["assault", "counterattack"]
    held = [c for c in cards if board.holds(side, c)]
    if not held:
        return []
    options = []
    for division in divisions_on_map(board, side):
        if division in frame["divisions"] or not _stacked_together(board, side, frame["divisions"] + [division]):
            continue
        for card in held:
            options.append(f"COORDINATE {division}" + (" USING COUNTERATTACK" if card == "counterattack" else ""))
    return options


def _stacked_together(board: Board, side: str, divisions: list[str]) -> bool:
    """Blocks of every activated division stacked together in one area (L190; ruling R-COORD)."""
    for area in group_areas(board, side):
        present = {board.division_of(b) for b in board.blocks_in(area, side)}
        if all(d in present for d in divisions):
            return True
    return False


def asset_options(board: Board, frame: ActivationFrame) -> list[str]:
    side = frame["side"]
    options = []
    areas = group_areas(board, side)
    seen_types = set()
    for asset_id in sorted(board.pool(side)):
        asset_type = board.asset(asset_id)["type"]
        if asset_type in seen_types:
            continue
        seen_types.add(asset_type)
        kind = board.asset_kind(asset_id)
        word = "ARMOR" if kind == "armor" else "PIONEER"
        for area in areas:
            if board.asset_of_kind_in(area, side, kind) is None:
                options.append(f"ASSETS {word} {asset_id} {area}")
    return options


# ---------------------------------------------------------------- the frame


class Activation:
    """The handler of an activation frame: coordinate, place assets, then move and fight."""

    def decisions(self, board: Board, frame: ActivationFrame) -> list[Decision]:
        side = frame["side"]
        interrupts = enemy(side) if frame["reaction"] else None
        deadline = "reaction" if frame["reaction"] else "phase"
        if frame["stage"] == "coordinate":
            options = coordinate_options(board, frame)
            return [ask(frame, side, "coordinate",
                        f"Coordinated Assault: add a division stacked with division(s) "
                        f"{', '.join(frame['divisions'])} by playing another card, or NONE.",
                        ["COORDINATE NONE"] + options, "COORDINATE NONE", deadline=deadline, interrupts=interrupts)]
        if frame["stage"] == "assets":
            options = asset_options(board, frame)
            return [ask(frame, side, "assets",
                        "Place up to one Armor and one Pioneer from your pool with your blocks, before moving "
                        "(rulebook: Counters and Markers).", ["ASSETS NONE"] + options, "ASSETS NONE",
                        deadline=deadline, interrupts=interrupts)]
        if frame["stage"] == "moves" and frame["fight"] is None:
            options = move_options(board, frame)
            what = "Redeployment" if frame["move_kind"] == "redeploy" else "Activation"
            return [ask(frame, side, "move",
                        f"{what}: move your activated blocks (each once), RESOLVE a waiting combat, or DONE.",
                        options, "DONE", deadline=deadline, interrupts=interrupts)]
        return []

    def legal(self, board: Board, frame: ActivationFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: ActivationFrame, decision: Decision, order: Order) -> None:
        if decision.kind == "coordinate":
            if order.form == "none":
                next_step(frame)
            else:
                coordinate(board, frame, order)
        elif decision.kind == "assets":
            if order.form == "none":
                frame["assets_left"] = 0
            else:
                place_assets(board, frame, order)
        elif decision.kind == "move":
            if order.form == "done":
                frame["closing"] = True
            elif order.form == "resolve":
                area = str(order.get("area"))
                if area not in frame["pending"]:
                    raise IllegalOrder(f"no combat waits in {area}")
                frame["fight"] = area
            elif order.form == "storm":
                storm(board, frame, str(order.get("area")))
            else:
                move(board, frame, order)
        answered(frame)

    def step(self, board: Board, frame: ActivationFrame) -> bool:
        if board.top() is not frame:
            return False
        if frame["stage"] == "coordinate" and not coordinate_options(board, frame):
            next_step(frame)
            return True
        if frame["stage"] == "assets" and (frame["assets_left"] <= 0 or not asset_options(board, frame)):
            next_step(frame)
            frame["asset_start"] = {a: board.asset(a)["area"] for a in board.data["assets"]
                                    if board.asset(a)["status"] == "map" and board.asset(a)["side"] == frame["side"]}
            return True
        if frame["stage"] != "moves":
            return False
        if frame["target"] and not frame["auto_moved"]:
            frame["auto_moved"] = True
            auto_move_to_target(board, frame)
            return True
        if frame["fight"] is not None:
            area = frame["fight"]
            frame["fight"] = None
            entries = frame["pending"].pop(area, [])
            if area in frame["order_of_pending"]:
                frame["order_of_pending"].remove(area)
            survivors = [e for e in entries if board.is_in(e["block"], area)]
            if survivors:
                open_combat(board, frame, area, survivors)
            return True
        if frame["closing"]:
            if frame["order_of_pending"]:
                frame["fight"] = frame["order_of_pending"][0]
                return True
            board.pop()
            board.emit("activation_done", side=frame["side"], card=frame["card"])
            return True
        if frame["target"] and frame["auto_moved"]:
            frame["closing"] = True
            return True
        return False


def coordinate(board: Board, frame: ActivationFrame, order: Order) -> None:
    side = frame["side"]
    division = str(order.get("division"))
    if f"COORDINATE {division}" not in [o.split(" USING")[0] for o in coordinate_options(board, frame)]:
        raise IllegalOrder(f"division {division} cannot join this Coordinated Assault: it needs blocks stacked "
                           f"with every activated division, another card, and at most 3 divisions "
                           f"(rulebook: Coordinated Assault)")
    card = "counterattack" if (order.get("using") or frame["reaction"]) else "assault"
    if frame["reaction"] and card != "counterattack":
        raise IllegalOrder("a reactive Counterattack coordinates only with another Counterattack")
    card_id = board.take_from_hand(side, card)
    board.discard(side, card_id)
    added = [b for b in division_activation(board, side, division) if b not in frame["blocks"]]
    frame["blocks"] = sorted(frame["blocks"] + added)
    frame["divisions"].append(division)
    if not frame["reaction"]:
        frame["assets_left"] += 1  # each Assault card allows its own placement (L200)
    board.emit("coordinated", side=side, division=division, card=card, blocks=len(added))
    board.emit("activated", visible_to=(side,), side=side, blocks=added)


def place_assets(board: Board, frame: ActivationFrame, order: Order) -> None:
    side = frame["side"]
    placed = []
    for word, slot, area_slot in (("armor", "armor", "armor_area"), ("pioneer", "pioneer", "pioneer_area")):
        asset_id = order.get(slot)
        if asset_id is None:
            continue
        asset_id = str(asset_id)
        area = str(order.get(area_slot))
        asset = board.data["assets"].get(asset_id)
        if asset is None or asset["side"] != side or asset["status"] != "pool":
            raise IllegalOrder(f"{asset_id} is not in your pool of assets")
        if board.asset_kind(asset_id) != word:
            raise IllegalOrder(f"{asset_id} is not a{'n armor' if word == 'armor' else ' pioneer'} counter")
        if not board.blocks_in(area, side):
            raise IllegalOrder(f"an asset goes with your blocks, and you have none in {area}")
        if board.asset_of_kind_in(area, side, word) is not None:
            raise IllegalOrder(f"{area} already has your {word} counter: one of each type per area")
        asset.update({"status": "map", "area": area})
        placed.append((asset_id, area))
    if not placed:
        raise IllegalOrder("name an ARMOR and/or a PIONEER to place, or ASSETS NONE")
    frame["assets_left"] -= 1
    board.emit("assets_placed", side=side, assets=[{"asset": a, "type": board.asset(a)["type"], "area": ar}
                                                   for a, ar in placed])


def next_step(frame: ActivationFrame) -> None:
    """Move the activation on to its next stage (L186-200, L435, L172-180)."""
    frame["stage"] = ACTIVATION_STEPS.after(frame["stage"])


# ---------------------------------------------------------------- movement


def crossing(board: Board, a: str, b: str) -> str:
    border = board.geo.border(a, b)
    if border is None:
        raise IllegalOrder(f"{b} is not next to {a}")
    if border.kind == "ditch" and border.river:
        return "river"
    return border.kind


def _can_enter_empty(board: Board, side: str, area: str, redeploy: bool) -> bool:
    """Axis blocks cannot enter an empty undestroyed battery area by Redeployment (L332, L461)."""
    return not (redeploy and _unguarded_battery(board, side, area))


def move_options(board: Board, frame: ActivationFrame) -> list[str]:
    side = frame["side"]
    options = ["DONE"] + [f"RESOLVE {a}" for a in frame["order_of_pending"]]
    for block in frame["blocks"]:
        if block in frame["moved"] or not board.is_on_map(block):
            continue
        origin = board.area_on_map(block)
        for destination, via in destinations(board, frame, block):
            text = f"MOVE {block} TO {destination}" + (f" VIA {' '.join(via)}" if via else "")
            try:
                _plan_move(board, frame, [block], destination, via, [])
            except IllegalOrder:
                continue
            options.append(text)
        if frame["move_kind"] == "assault" and _unguarded_battery(board, side, origin) \
                and not board.is_exhausted(block):
            options.append(f"STORM {origin}")
    return list(dict.fromkeys(options))


def destinations(board: Board, frame: ActivationFrame, block: str) -> list[tuple[str, list[str]]]:
    """Where a block could go this activation, with the intermediate areas of the path."""
    side = frame["side"]
    origin = board.area_on_map(block)
    redeploy = frame["move_kind"] == "redeploy"
    reach = REDEPLOY_RANGE if redeploy else (2 if board.is_two_area_mover(block) else 1)
    results: list[tuple[str, list[str]]] = []
    seen = {origin}
    queue: deque[tuple[str, list[str]]] = deque([(origin, [])])
    while queue:
        area, path = queue.popleft()
        if len(path) >= reach:
            continue
        for nxt in board.geo.neighbours(area, include_ferry=True):
            if nxt in seen:
                continue
            seen.add(nxt)
            occupied = board.is_enemy_occupied(nxt, side)
            if redeploy and (occupied or not _can_enter_empty(board, side, nxt, True)):
                continue
            results.append((nxt, path))
            stops = occupied or (side == "axis" and board.has_battery(nxt) and not redeploy)
            if not stops:
                queue.append((nxt, path + [nxt]))
    return results


@dataclass(frozen=True)
class MovePlan:
    """A checked move: where it starts, each border it crosses, whether it attacks, the assets going along."""

    origin: str
    steps: list[tuple[str, str, str]]  # (from, to, crossing kind) per area entered
    attack: bool  # into enemy blocks
    battery: bool  # into an empty area with an undestroyed battery (L338)
    assets: list[str]

    @property
    def destination(self) -> str:
        return self.steps[-1][1]


def _plan_move(board: Board, frame: ActivationFrame, blocks: list[str], to: str, via: list[str],
               with_assets: list[str]) -> MovePlan:
    """Check a move and return what it does; raise IllegalOrder saying why it cannot be made."""
    origin = _common_origin(board, frame, blocks)
    steps = _crossings(board, frame, blocks, [origin] + list(via) + [to])
    attack, battery_attack = _attacks(board, frame, blocks, to)
    assets = _assets_going(board, frame, blocks, origin, with_assets)
    _check_assets_may_enter(board, frame["side"], assets, steps, to)
    if not attack and not battery_attack and \
            len(board.blocks_in(to, frame["side"])) + len(blocks) > board.scenario.meta.stacking:
        raise IllegalOrder(f"{to} would hold more than {board.scenario.meta.stacking} of your blocks (stacking limit)")
    if attack and frame["mode"] == "group" and frame["pending"]:
        raise IllegalOrder("finish the combat already started first")
    return MovePlan(origin, steps, attack, battery_attack, assets)


def _common_origin(board: Board, frame: ActivationFrame, blocks: list[str]) -> str:
    """The one area the moving blocks leave: each activated, not moved yet, on the map (L166-180)."""
    if not blocks:
        raise IllegalOrder("name the blocks to move")
    for block in blocks:
        if block not in frame["blocks"]:
            raise IllegalOrder(f"{block} is not activated by this card")
        if block in frame["moved"]:
            raise IllegalOrder(f"{block} has already moved with this card")
        if not board.is_on_map(block):
            raise IllegalOrder(f"{block} is no longer on the map")
    origins = {board.area_on_map(b) for b in blocks}
    if len(origins) != 1:
        raise IllegalOrder("blocks that move together must start in the same area")
    origin = origins.pop()
    if origin in frame["pending"]:
        raise IllegalOrder(f"{origin} is a combat waiting to be fought; its blocks stay")
    return origin


def _crossings(board: Board, frame: ActivationFrame, blocks: list[str], path: list[str]) -> list[tuple[str, str, str]]:
    """The borders the path crosses, checked: within reach (L194, L461), stopping where enemies or an
    undestroyed battery are (L332), a ferry attack Axis only (L380), a river attack too by option (ruling R-RIVER)."""
    side = frame["side"]
    redeploy = frame["move_kind"] == "redeploy"
    reach = REDEPLOY_RANGE if redeploy else (2 if all(board.is_two_area_mover(b) for b in blocks) else 1)
    if len(path) - 1 > reach:
        if not redeploy and len(path) - 1 == 2:
            raise IllegalOrder("only two-area movers may move two areas with an Assault")
        raise IllegalOrder(f"too far: {len(path) - 1} areas, at most {reach}")
    steps = [(a, b, crossing(board, a, b)) for a, b in itertools.pairwise(path)]
    for index, (_a, b, kind) in enumerate(steps):
        last = index == len(steps) - 1
        occupied = board.is_enemy_occupied(b, side)
        if not last and occupied:
            raise IllegalOrder(f"{b} holds enemy blocks: movement stops there")
        if not last and _unguarded_battery(board, side, b) and not redeploy:
            raise IllegalOrder(f"entering {b} attacks its battery: movement stops there")
        if redeploy and occupied:
            raise IllegalOrder(f"a Redeployment never enters an enemy-occupied area ({b})")
        if not _can_enter_empty(board, side, b, redeploy):
            raise IllegalOrder(f"Axis blocks cannot enter {b}, an empty area with an undestroyed battery, "
                               f"by Redeployment (rulebook: Battery)")
        if kind == "ferry" and last and occupied and side == "soviet":
            raise IllegalOrder("only Axis blocks may attack across a ferry arrow (rulebook: Ferry)")
        if kind == "river" and last and occupied and side == "soviet" \
                and board.options.get("soviet_river_attack") == "forbidden":
            raise IllegalOrder("Soviet blocks may not attack across a river (game option "
                               "soviet_river_attack=forbidden)")
    return steps


def _attacks(board: Board, frame: ActivationFrame, blocks: list[str], to: str) -> tuple[bool, bool]:
    """Whether the move attacks enemy blocks, or an undestroyed battery; only fresh blocks of an
    Assault or Counterattack may (L322, L338)."""
    attack = board.is_enemy_occupied(to, frame["side"])
    battery_attack = _unguarded_battery(board, frame["side"], to) and frame["move_kind"] != "redeploy"
    if (attack or battery_attack) and frame["move_kind"] != "assault":
        raise IllegalOrder("only an Assault or Counterattack can attack")
    if attack or battery_attack:
        tired = [b for b in blocks if board.is_exhausted(b)]
        if tired:
            raise IllegalOrder(f"{', '.join(tired)} is exhausted and cannot attack (rulebook: Exhaustion)")
    return attack, battery_attack


def _assets_going(board: Board, frame: ActivationFrame, blocks: list[str], origin: str,
                  with_assets: list[str]) -> list[str]:
    """The assets named, which began this activation with the blocks (L230), and any the last blocks
    leaving would leave alone (L232)."""
    side = frame["side"]
    assets = list(with_assets)
    for asset_id in assets:
        asset = board.data["assets"].get(asset_id)
        if asset is None or asset["side"] != side or asset["status"] != "map" or asset["area"] != origin:
            raise IllegalOrder(f"{asset_id} is not with your blocks in {origin}")
        if frame["asset_start"].get(asset_id) != origin or asset_id in frame["assets_moved"]:
            raise IllegalOrder(f"{asset_id} did not begin this activation in {origin}: an asset moves only with "
                               f"the blocks it began with")
    staying = [b for b in board.blocks_in(origin, side) if b not in blocks]
    if not staying:
        for asset_id in board.assets_in(origin, side):
            if asset_id not in assets:
                assets.append(asset_id)  # an asset is never left alone (L232): it goes with the last blocks
    return assets


def _check_assets_may_enter(board: Board, side: str, assets: list[str], steps: list[tuple[str, str, str]],
                            to: str) -> None:
    """No armor across a ferry (L254); one Armor and one Pioneer per area (L234)."""
    for asset_id in assets:
        if board.asset_kind(asset_id) == "armor" and any(k == "ferry" for _, _, k in steps):
            raise IllegalOrder(f"{asset_id} is armor and cannot use a ferry arrow (rulebook: Armor)")
        kind = board.asset_kind(asset_id)
        if sum(1 for a in assets if board.asset_kind(a) == kind) > 1:
            raise IllegalOrder(f"only one {kind} counter may go to one area")
        already = board.asset_of_kind_in(to, side, kind)
        if already is not None:
            raise IllegalOrder(f"{to} already has your {kind} counter {already}: one of each type per area")


def _unguarded_battery(board: Board, side: str, area: str) -> bool:
    """An Axis move into an area with an undestroyed battery and no Soviet block attacks the battery (L338)."""
    return side == "axis" and board.has_battery(area) and not board.blocks_in(area, "soviet")


def move(board: Board, frame: ActivationFrame, order: Order) -> None:
    blocks = [str(b) for b in order.values("blocks")]
    to = str(order.get("to"))
    via = [str(v) for v in order.values("via")]
    assets = [str(a) for a in order.values("with_assets")]
    if not via and frame["move_kind"] == "redeploy" and to not in board.geo.neighbours(
            board.area_on_map(blocks[0]) if blocks and board.is_on_map(blocks[0]) else to, include_ferry=True):
        via = redeploy_path(board, frame, blocks, to)
    elif not via and blocks and board.is_on_map(blocks[0]):
        origin = board.area_on_map(blocks[0])
        if to not in board.geo.neighbours(origin, include_ferry=True):
            via = two_step_via(board, frame, origin, to)
    plan = _plan_move(board, frame, blocks, to, via, assets)
    carry_out(board, frame, blocks, plan)


def two_step_via(board: Board, frame: ActivationFrame, origin: str, to: str) -> list[str]:
    side = frame["side"]
    middles = [m for m in board.geo.neighbours(origin, include_ferry=True)
               if to in board.geo.neighbours(m, include_ferry=True)
               and not board.is_enemy_occupied(m, side)
               and not _unguarded_battery(board, side, m)]
    if not middles:
        raise IllegalOrder(f"{to} is not within reach of {origin}")
    middles.sort(key=lambda m: (board.controller(m) != side, m))
    return [middles[0]]


def redeploy_path(board: Board, frame: ActivationFrame, blocks: list[str], to: str) -> list[str]:
    """Shortest path through friendly or empty areas, preferring areas already yours (ruling R-REDEPLOY)."""
    side = frame["side"]
    if not blocks or not board.is_on_map(blocks[0]):
        raise IllegalOrder("name blocks on the map")
    origin = board.area_on_map(blocks[0])
    best: dict[str, tuple[int, int, list[str]]] = {origin: (0, 0, [])}
    queue = deque([origin])
    while queue:
        area = queue.popleft()
        steps, foreign, path = best[area]
        if steps >= REDEPLOY_RANGE:
            continue
        for nxt in board.geo.neighbours(area, include_ferry=True):
            if board.is_enemy_occupied(nxt, side) or not _can_enter_empty(board, side, nxt, True):
                continue
            cost = (steps + 1, foreign + (board.controller(nxt) != side), path + [nxt])
            if nxt not in best or cost[:2] < best[nxt][:2]:
                best[nxt] = cost
                queue.append(nxt)
    if to not in best:
        raise IllegalOrder(f"no path of at most {REDEPLOY_RANGE} areas from {origin} to {to} avoids the enemy")
    return best[to][2][:-1]


def carry_out(board: Board, frame: ActivationFrame, blocks: list[str], plan: MovePlan) -> None:
    side = frame["side"]
    origin = plan.origin
    steps = plan.steps
    for _a, b, _kind in steps:
        for block in blocks:
            board.relocate(block, b)
        for asset_id in plan.assets:
            board.asset(asset_id)["area"] = b
        entered(board, side, b, blocks, final=(b == steps[-1][1]))
        blocks = [x for x in blocks if board.is_on_map(x)]
        if not blocks:
            break
    frame["moved"] += [b for b in blocks]
    frame["assets_moved"] += plan.assets
    to = plan.destination
    board.remember("move", side=side, path=[origin] + [s[1] for s in steps])
    board.emit("moved", side=side, count=len(blocks), origin=origin, to=to, via=[s[1] for s in steps[:-1]],
               assets=plan.assets, attack=plan.attack or plan.battery)
    board.emit("moved_blocks", visible_to=(side,), side=side, blocks=blocks, origin=origin, to=to)
    if not blocks:
        return
    if plan.attack or plan.battery:
        entries: list[AttackEntry] = [{"block": b, "origin": origin, "crossed": steps[-1][2], "via": steps[-1][0]}
                                      for b in blocks]
        for asset_id in plan.assets:
            frame.setdefault("asset_via", {}).setdefault(to, {})[asset_id] = steps[-1][0]
            # a beaten attacker's counters go back with the blocks they came with (L230, L270)
            frame.setdefault("asset_origin", {}).setdefault(to, {})[asset_id] = origin
        pending = frame["pending"].setdefault(to, [])
        pending.extend(entries)
        if to not in frame["order_of_pending"]:
            frame["order_of_pending"].append(to)
        if frame["mode"] == "group":
            frame["fight"] = to  # a group's combat is resolved at once (L266)
    if side == "soviet":
        open_entry_window(board, to, blocks, attack=plan.attack)


def entered(board: Board, side: str, area: str, blocks: list[str], final: bool) -> None:
    """Entering an area: markers withdrawn, control, trenches, interdiction (L238, L370, L390, L457)."""
    other = enemy(side)
    if not board.blocks_in(area, other):
        # AT and Bunker markers left alone are withdrawn when enemy blocks enter (L238, L246).
        if side == "axis":
            for kind in ("at", "bunker"):
                if board.marker(area, kind):
                    board.set_marker(area, kind, False)
                    board.emit("marker_withdrawn", area=area, marker=kind)
        if not (side == "axis" and board.has_battery(area)):
            board.take_control(area, side)
        # An Axis block entering with no Soviet block puts the Soviet trench out of order (L370),
        # even where an undestroyed battery keeps the area Soviet (L332).
        if side == "axis" and board.has_intact_trench(area, "soviet"):
            board.disable_trench(area)
    if side == "soviet" and board.marker(area, "interdiction"):
        interdiction_rolls(board, area, blocks)


def auto_move_to_target(board: Board, frame: ActivationFrame) -> None:
    """ASSAULT GROUP a TO b: every activated block that can, into b, then the card ends."""
    target, origin = _target_move(frame)
    attack = board.is_enemy_occupied(target, frame["side"]) or _unguarded_battery(board, frame["side"], target)
    movers = [b for b in frame["blocks"] if board.is_in(b, origin)
              and not (attack and board.is_exhausted(b))]
    if not movers:
        return
    try:
        plan = _plan_move(board, frame, movers, target, [], [])
    except IllegalOrder as error:
        board.emit("move_refused", visible_to=(frame["side"],), side=frame["side"], reason=error.explain())
        return
    carry_out(board, frame, movers, plan)


def storm(board: Board, frame: ActivationFrame, area: str) -> None:
    """Attack an empty battery area with activated blocks already there (L338)."""
    side = frame["side"]
    if not _unguarded_battery(board, side, area):
        raise IllegalOrder(f"{area} has no undestroyed battery without Soviet blocks")
    if frame["move_kind"] != "assault":
        raise IllegalOrder("only an Assault attacks a battery")
    attackers = [b for b in frame["blocks"] if board.is_in(b, area)
                 and b not in frame["moved"] and not board.is_exhausted(b)]
    if not attackers:
        raise IllegalOrder(f"none of your activated, fresh blocks is in {area}")
    frame["moved"] += attackers
    entries: list[AttackEntry] = [{"block": b, "origin": area, "crossed": "none", "via": area} for b in attackers]
    frame["pending"].setdefault(area, []).extend(entries)
    if area not in frame["order_of_pending"]:
        frame["order_of_pending"].append(area)
    frame["fight"] = area
