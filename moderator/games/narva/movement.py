"""Movement (6.0-6.5), with the ZOC costs of 5.1 and the stacking of 7.0.

Players order a destination ("MOVE 381 TO 2223"); the engine finds the path when the order runs,
so orders written before the turn survive what the enemy did meanwhile.  The path chosen is the
cheapest in MP, then the one entering fewest enemy zones of control, then the lowest hex numbers;
a player who wants another route names the hexes on the way (``MOVE 381 TO 2422 VIA 2323``, ruling N-61).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator.games.narva.board import Board, enemy
from moderator.games.narva.hq import overrun_lone_hqs
from moderator.games.narva.scenario import MoveClass

NORMAL, STRATEGIC, RAIL = "normal", "strategic", "rail"
ROAD_KINDS = ("rollbahn", "road", "track", "trail", "winter_trail", "railway_major", "railway_minor")
STRATEGIC_KINDS = ("rollbahn", "road", "track", "railway_major", "railway_minor")  # no trails (6.4.1B, N-36)


@dataclass
class MoveRules:
    """What kind of move this is; the callers (activation, reinforcement, free move...) fill it."""

    mode: str = NORMAL
    reinforcement: bool = False  # rail movement is for reinforcements only (6.5D)
    avoid_ezoc: bool = False  # Free Move: may not start in or enter an EZOC (2.5.4B)
    ferries_used: set[str] = field(default_factory=set)  # one unit per ferry per activation (6.2.2.2B)


@dataclass(frozen=True)
class Path:
    hexes: tuple[str, ...]  # from the start hex to the destination, inclusive
    cost: float
    ezoc_entered: int
    ferry: str | None = None  # hexside key when the move crosses a ferry
    minimum_move: bool = False


def usable_roads(board: Board, a: str, b: str, strategic: bool = False) -> tuple[str, ...]:
    """Road kinds leading from a to b (railways serve as tracks, 6.2.1A; winter trail only frozen)."""
    routes = board.hexside(a, b).routes
    kinds = STRATEGIC_KINDS if strategic else ROAD_KINDS
    return tuple(k for k in kinds if k in routes and (k != "winter_trail" or board.frozen))


def road_hex(board: Board, hex_id: str, strategic: bool = False) -> bool:
    routes = board.scenario.hex(hex_id).routes
    kinds = STRATEGIC_KINDS if strategic else ROAD_KINDS
    return any(k in routes and (k != "winter_trail" or board.frozen) for k in kinds)


def may_enter(board: Board, uid: str, a: str, b: str) -> tuple[bool, str]:
    """Can the unit enter b from a at all (ignoring MP)?  Returns (ok, reason)."""
    side = board.side_of(uid)
    if b not in board.neighbours(a):
        return False, f"{b} is not next to {a}"
    if board.scenario.hex(b).water:
        return False, f"{b} is water (6.3A)"
    if board.enemy_in(b, side) and not (board.lone_hq(b) and board.is_combat(uid)):
        return False, f"{b} holds enemy units (6.3B)"
    if not board.may_stand(uid, b):
        return False, f"{board.unit(uid).name} may not enter {b}: {_standing_rule(board, uid, b)}"
    crossing = river_crossing(board, uid, a, b)
    if crossing == "prohibited":
        return False, (f"{board.unit(uid).name} cannot cross the river between {a} and {b}: "
                       f"{_crossing_rule(board, uid, a, b)}")
    return True, ""


def _standing_rule(board: Board, uid: str, hex_id: str) -> str:
    """The rule that makes `board.may_stand` false for this unit on a land hex, as a player is told it."""
    info = board.scenario.hex(hex_id)
    unit = board.unit(uid)
    if unit.side == "german" and info.pd_division is not None and unit.formation not in ("4SS", "11SS"):
        return "only the 4th and 11th SS may enter Prepared Defence hexes (6.3C, 11.3.1)"
    if unit.side == "german" and ("narva" in info.areas or "enclave" in info.areas) and not unit.ss:
        return "only SS units may enter Narva and the enclave behind the Prepared Defences (6.3D)"
    kind = "mechanized" if board.is_mechanized(uid) else "infantry"
    thawed = "; its winter trail exists only while frozen (6.2.1C)" if "winter_trail" in info.routes \
        and not board.frozen else ""
    return f"its terrain ({info.terrain}) is prohibited to {kind} units off road (6.1B, TEC){thawed}"


def _crossing_rule(board: Board, uid: str, a: str, b: str) -> str:
    """The rule behind a 'prohibited' `river_crossing`, as a player is told it."""
    side = board.hexside(a, b)
    frozen = board.frozen and not side.never_frozen
    if board.is_mechanized(uid):
        if frozen:
            return "mechanized units may not cross a frozen major river (6.2.2.1C)"
        if side.ferry:
            return "mechanized units may not use a ferry (6.2.2.2D)"
    thawed = "this stretch never freezes (6.2.2C)" if side.never_frozen else "the river is not frozen now (6.2.2B)"
    return f"{thawed}, and an unfrozen major river is crossed only at a bridge or ferry (6.2.2.2A)"


def river_crossing(board: Board, uid: str, a: str, b: str) -> str | None:
    """None (no river or bridged), 'minor', 'frozen', 'ferry' or 'prohibited'."""
    side = board.hexside(a, b)
    if side.river is None or board.bridged(a, b):
        return None
    mech = board.is_mechanized(uid)
    if side.ferry:
        if board.frozen and not side.never_frozen:
            # ruling N-39: while frozen, infantry crosses the ferry hexside as a frozen river (+1 MP)
            return "prohibited" if mech else "frozen"
        return "prohibited" if mech else "ferry"  # 6.2.2.2B, D
    if side.river_kind == "minor":
        return "minor"  # 6.2.3: the same frozen or thawed
    if board.frozen and not side.never_frozen:
        return "prohibited" if mech else "frozen"  # 6.2.2.1A, C
    return "prohibited"  # 6.2.2.2A


def _static_memo(_scenario: object) -> dict[tuple, dict[tuple[str, str], float | None]]:
    """Profile -> {(a, b): terrain cost of the step}, kept on the scenario (the map never changes)."""
    return {}


def _profile(board: Board, uid: str, strategic: bool) -> tuple:
    """Everything but the enemy's positions that decides a step's cost for this unit."""
    found = board.step_profiles.get((uid, strategic))
    if found is None:
        unit = board.unit(uid)
        german = unit.side == "german"
        found = board.step_profiles[(uid, strategic)] = (
            board.is_mechanized(uid), german and unit.formation not in ("4SS", "11SS"),
            german and not unit.ss, board.frozen, strategic)
    return found


def step_cost(board: Board, uid: str, a: str, b: str, strategic: bool = False) -> float | None:
    """MP to enter b from a before EZOC costs; None when this step is impossible this way.

    The terrain part depends only on the unit's kind, the season and the map, so it is computed
    once per kind of unit and remembered; enemy units are checked every time."""
    if board.enemy_in(b, board.side_of(uid)) and not (board.lone_hq(b) and board.is_combat(uid)):
        return None  # 6.3B
    memo = board.scenario.memo("step_costs", _static_memo).setdefault(_profile(board, uid, strategic), {})
    key = (a, b)
    if key not in memo:
        memo[key] = _terrain_step(board, uid, a, b, strategic)
    return memo[key]


def _terrain_step(board: Board, uid: str, a: str, b: str, strategic: bool) -> float | None:
    if b not in board.neighbours(a) or board.scenario.hex(b).water or not board.may_stand(uid, b):
        return None
    crossing = river_crossing(board, uid, a, b)
    if crossing == "prohibited":
        return None
    roads = usable_roads(board, a, b, strategic)
    if roads:
        # 6.2.1B: following the road, pay the road cost and ignore hex and hexside costs
        effects = [board.scenario.road_effect(k) for k in roads]
        costs = [effect.strategic if strategic else effect.move for effect in effects]
        return min(c for c in costs if c is not None)
    if strategic:
        return None  # 6.4.1A: only along roads
    if crossing == "ferry":
        return None  # ferries are handled as a whole move (see `ferry_path`)
    move_class: MoveClass = "mechanized" if board.is_mechanized(uid) else "infantry"
    terrain = board.scenario.move_cost(b, move_class)
    if terrain is None:
        return None
    extra = 0.0
    if crossing in ("minor", "frozen"):
        feature = "minor_river" if crossing == "minor" else "major_river_frozen"
        text = board.scenario.hexside_effect(feature).move[move_class]
        extra = float(text.lstrip("+")) if text not in ("P", "all") else 0.0
    return terrain + extra


def find_path(board: Board, uid: str, dest: str, rules: MoveRules, allowance: float | None = None,
              via: Sequence[str] = ()) -> Path:
    """The path the unit takes to `dest` (through the hexes of `via` in order, when given), or
    IllegalOrder saying why there is none."""
    start = board.hex_of(uid)
    if start is None:
        board.fail(f"{board.unit(uid).name} is not on the map")
    if dest == start:
        board.fail(f"{board.unit(uid).name} is already in {dest}")
    if not board.scenario.on_map(dest):
        board.fail(f"there is no hex {dest} on the map")
    side = board.side_of(uid)
    ma = board.movement_allowance(uid) if allowance is None else allowance
    if rules.avoid_ezoc and board.in_enemy_zoc(start, side):
        board.fail(f"{board.unit(uid).name} starts in an enemy zone of control and may not move (2.5.4B)")
    if rules.mode == RAIL:
        if via:
            board.fail("a rail move follows the railway (6.5): it takes no VIA; move by rail TO a hex, or "
                       "move by road or across country VIA hexes")
        return rail_path(board, uid, dest, rules)
    if rules.mode == STRATEGIC:
        if not road_hex(board, start, strategic=True):
            board.fail(f"strategic movement must start on a road hex; {start} has none usable (6.4.1)")
        if board.in_enemy_zoc(start, side):
            board.fail(f"{board.unit(uid).name} starts in an enemy zone of control: no strategic move (6.4.2A)")
    if via:
        return path_via(board, uid, dest, tuple(via), rules, ma)
    best = _dijkstra(board, uid, start, dest, ma, rules)
    if best is not None:
        return best
    # 6.1C: one hex is always possible unless prohibited or EZOC to EZOC; it is the whole move (ruling N-10)
    if dest in board.neighbours(start) and rules.mode == NORMAL:
        ferry = ferry_path(board, uid, start, dest, rules, ma)
        if ferry is not None:
            return ferry
        ok, reason = may_enter(board, uid, start, dest)
        if not ok:
            board.fail(reason)
        if board.in_enemy_zoc(start, side) and board.in_enemy_zoc(dest, side):
            board.fail(f"{start} to {dest} is enemy ZOC to enemy ZOC: not a minimum move (6.1C)")
        if board.enemy_in(dest, side):
            # 11.1.4B, ruling N-61: an overrun needs the MP to enter the hex; adjacency is not enough
            board.fail(f"{board.unit(uid).name} lacks the MP to enter {dest} and overrun the HQ there (11.1.4B)")
        if rules.avoid_ezoc and board.in_enemy_zoc(dest, side):
            board.fail(f"{dest} is in an enemy zone of control (2.5.4B)")
        if step_cost(board, uid, start, dest) is None:
            board.fail(f"{board.unit(uid).name} cannot enter {dest} (prohibited terrain)")
        if not _stack_ok_at_end(board, uid, dest):
            board.fail(f"{dest} would be overstacked (7.1)")
        return Path((start, dest), float(ma), int(board.in_enemy_zoc(dest, side)), minimum_move=True)
    if board.scenario.hex(dest).water:
        board.fail(f"{dest} is water (6.3A)")
    if not board.may_stand(uid, dest):
        board.fail(f"{board.unit(uid).name} may not enter {dest}: {_standing_rule(board, uid, dest)}")
    if not _stack_ok_at_end(board, uid, dest) and _dijkstra(board, uid, start, dest, ma, rules, stacking=False):
        board.fail(f"{dest} would be overstacked (7.1)")
    board.fail(f"{board.unit(uid).name} cannot reach {dest} from {start} with {ma:g} MP"
               + (STRATEGIC_LIMITS if rules.mode == STRATEGIC else _ferry_note(board, uid, start, dest, ma, rules)))
    raise AssertionError  # unreachable


def path_via(board: Board, uid: str, dest: str, via: tuple[str, ...], rules: MoveRules, ma: float) -> Path:
    """The cheapest path from the unit's hex through the hexes of `via` in order to `dest` within `ma`
    MP (each leg the cheapest; the MP spent on one leg are gone for the next), or IllegalOrder naming
    the hex it cannot get to.  Where the way matters: VP hexes change hands as units pass (13.2,
    ruling N-48) and lone enemy HQs on the way are overrun (6.3B, 11.1.4, ruling N-61)."""
    name = board.unit(uid).name
    side = board.side_of(uid)
    hexes: tuple[str, ...] = (board.hex_on_map(uid),)
    cost, entered = 0.0, 0
    for index, target in enumerate((*via, dest)):
        last = index == len(via)
        if target == hexes[-1] or (not last and target == dest):
            board.fail(f"the hexes of a move are each entered once: {target} is named twice in a row, or is the "
                       f"start or the destination (VIA names the hexes on the way)")
        if not board.scenario.on_map(target):
            board.fail(f"there is no hex {target} on the map")
        if board.enemy_in(target, side) and not (board.lone_hq(target) and board.is_combat(uid)):
            board.fail(f"{name} cannot pass through {target}: it holds enemy units (6.3B)")
        leg = _dijkstra(board, uid, hexes[-1], target, ma - cost, rules, stacking=last)
        if leg is None:
            if last and not _stack_ok_at_end(board, uid, dest) and \
                    _dijkstra(board, uid, hexes[-1], dest, ma - cost, rules, stacking=False):
                board.fail(f"{dest} would be overstacked (7.1)")
            after = f" left after {'-'.join(hexes)}" if len(hexes) > 1 else ""
            board.fail(f"{name} cannot reach {target} from {hexes[-1]} with {ma - cost:g} MP{after}"
                       + (STRATEGIC_LIMITS if rules.mode == STRATEGIC else ""))
        hexes += leg.hexes[1:]
        cost += leg.cost
        entered += leg.ezoc_entered
    return Path(hexes, cost, entered)


#: What a strategic move may not do, told with its refusal (6.4.1-6.4.2).
STRATEGIC_LIMITS = (" by road (strategic movement, 6.4: along roads other than trails, never into an enemy zone of "
                    "control nor through a full hex)")


def _ferry_note(board: Board, uid: str, start: str, dest: str, ma: float, rules: MoveRules) -> str:
    """When the unit stands at a ferry and could reach `dest` from the far bank, say that the crossing
    is its whole move (6.2.2.2B): that, not its MP, is why it cannot go on."""
    for far in board.neighbours(start):
        if river_crossing(board, uid, start, far) == "ferry" and _dijkstra(board, uid, far, dest, ma, rules):
            return (f"; crossing the ferry {board.hexside(start, far).key} takes all its MP and ends its move "
                    f"in {far} (6.2.2.2B)")
    return ""


def ferry_path(board: Board, uid: str, start: str, dest: str, rules: MoveRules, ma: float) -> Path | None:
    """One infantry unit per ferry per activation, starting next to it, with all its MP (6.2.2.2B, N-39)."""
    side = board.hexside(start, dest)
    if not side.ferry or board.is_mechanized(uid) or board.bridged(start, dest):
        return None
    if board.frozen and not side.never_frozen:
        return None  # frozen: an ordinary (or minimum) move across a frozen river (ruling N-39)
    if side.key in rules.ferries_used:
        board.fail(f"the ferry {side.key} has already carried a unit this activation (6.2.2.2B)")
    ok, reason = may_enter(board, uid, start, dest)
    if not ok:
        board.fail(reason)
    if rules.avoid_ezoc and board.in_enemy_zoc(dest, board.side_of(uid)):
        board.fail(f"{dest} is in an enemy zone of control (2.5.4B)")
    if not _stack_ok_at_end(board, uid, dest):
        board.fail(f"{dest} would be overstacked (7.1)")
    return Path((start, dest), float(ma), int(board.in_enemy_zoc(dest, board.side_of(uid))), ferry=side.key)


def _stack_ok_at_end(board: Board, uid: str, dest: str) -> bool:
    """Stacking holds at the instant a unit finishes its move (7.1C)."""
    if board.lone_hq(dest) and board.enemy_in(dest, board.side_of(uid)):
        return True  # the HQ is overrun and leaves
    return _stack_with(board, [u for u in board.units_at(dest) if u != uid], uid)


def _stack_with(board: Board, here: list[str], uid: str) -> bool:
    limits = board.scenario.meta.stacking
    units = here + [uid]
    guns = [u for u in units if board.unit(u).type == "assault_gun" and board.side_of(u) == "soviet"]
    hqs = [u for u in units if board.is_hq(u)]
    combat = [u for u in units if not board.is_hq(u) and u not in guns]
    return len(combat) <= limits.combat and len(hqs) <= limits.hq and len(guns) <= limits.soviet_assault_gun


def _passing_ok(board: Board, uid: str, hex_id: str) -> bool:
    """Strategic movement never exceeds stacking, even in passing (6.4.2B)."""
    here = [u for u in board.units_at(hex_id) if u != uid]
    return _stack_with(board, here, uid)


def _dijkstra(board: Board, uid: str, start: str, dest: str | None, ma: float, rules: MoveRules,
              found: dict[str, Path] | None = None, stacking: bool = True) -> Path | None:
    """Cheapest path to `dest`; with dest None, fill `found` with the cheapest path to every hex.
    With `stacking` False, a full `dest` is reached anyway (to tell stacking from reach, 7.1)."""
    side = board.side_of(uid)
    strategic = rules.mode == STRATEGIC
    zoc = board.zoc_of(enemy(side))
    ezoc = board.scenario.tables.ezoc
    queue: list[tuple[float, int, tuple[str, ...]]] = [(0.0, 0, (start,))]
    best: dict[str, tuple[float, int]] = {start: (0.0, 0)}
    while queue:
        cost, entered, path = heapq.heappop(queue)
        here = path[-1]
        if here == dest:
            if stacking and not _stack_ok_at_end(board, uid, dest):
                continue
            return Path(path, cost, entered)
        if found is not None and here != start and here not in found and _stack_ok_at_end(board, uid, here) \
                and not board.enemy_in(here, side):
            found[here] = Path(path, cost, entered)
        if best.get(here, (1e9, 0)) < (cost, entered):
            continue
        # A lone enemy HQ on the way is overrun and displaced; the unit may move on (ruling N-61).
        for n in board.neighbours(here):
            if n in path:
                continue
            step = step_cost(board, uid, here, n, strategic)
            if step is None:
                continue
            in_zoc = n in zoc
            if strategic and (in_zoc or not _passing_ok(board, uid, n)):
                continue
            if rules.avoid_ezoc and in_zoc:
                continue
            total = cost + step + (ezoc.enter if in_zoc else 0) + (ezoc.leave if here in zoc else 0)
            if total > ma + 1e-9:
                continue
            key = (total, entered + int(in_zoc))
            if best.get(n, (1e9, 0)) <= key:
                continue
            best[n] = key
            heapq.heappush(queue, (total, entered + int(in_zoc), path + (n,)))
    return None


def rail_path(board: Board, uid: str, dest: str, rules: MoveRules) -> Path:
    """Reinforcements only; from a major railway hex, not in EZOC, any distance along major railway;
    stop on entering an EZOC or at an enemy-held hex (6.5)."""
    start = board.hex_on_map(uid)
    side = board.side_of(uid)
    if not rules.reinforcement:
        board.fail("only reinforcements may move by rail, on the turn they arrive (6.5D)")
    if "railway_major" not in board.scenario.hex(start).routes:
        board.fail(f"{start} is not on a major railway (6.5A)")
    if board.in_enemy_zoc(start, side):
        board.fail(f"{board.unit(uid).name} is in an enemy zone of control: no rail move (6.5A)")
    zoc = board.zoc_of(enemy(side))
    frontier: list[tuple[str, ...]] = [(start,)]
    seen = {start}
    while frontier:
        nxt: list[tuple[str, ...]] = []
        for path in frontier:
            here = path[-1]
            if here == dest:
                if not _stack_ok_at_end(board, uid, dest):
                    board.fail(f"{dest} would be overstacked (7.1)")
                return Path(path, 0.0, int(dest in zoc))
            if here != start and here in zoc:
                continue  # 6.5B: must stop on entering an EZOC
            for n in board.neighbours(here):
                if n in seen or "railway_major" not in board.hexside(here, n).routes:
                    continue
                if board.owner_of(n) is not None and board.enemy_in(n, side):
                    continue  # physically blocked (6.5B)
                if not board.may_stand(uid, n):
                    continue
                seen.add(n)
                nxt.append(path + (n,))
        frontier = nxt
    board.fail(f"{dest} cannot be reached by rail from {start} (6.5)")


def follow(board: Board, uid: str, path: Path) -> list[str]:
    """Move the unit along the path: control of VP hexes passes, lone enemy HQs are overrun
    (11.1.4) and displaced (their displacement frames are pushed).  Returns the overrun HQs."""
    overrun: list[str] = []
    side = board.side_of(uid)
    for hex_id in path.hexes[1:]:
        if board.enemy_in(hex_id, side) and board.lone_hq(hex_id):
            overrun += overrun_lone_hqs(board, hex_id, by=uid)
        board.pass_through(uid, hex_id)
    board.place(uid, path.hexes[-1])
    return overrun


def describe(path: Path) -> str:
    way = "-".join(path.hexes)
    if path.ferry:
        return f"{way} (ferry, all MP)"
    if path.minimum_move:
        return f"{way} (minimum move)"
    return f"{way} ({path.cost:g} MP)"


def reachable(board: Board, uid: str, rules: MoveRules | None = None) -> dict[str, Path]:
    """Every hex the unit could end a normal move in now, with its path (for hints and playouts)."""
    start = board.hex_of(uid)
    if start is None:
        return {}
    rules = rules or MoveRules()
    if rules.avoid_ezoc and board.in_enemy_zoc(start, board.side_of(uid)):
        return {}
    found: dict[str, Path] = {}
    _dijkstra(board, uid, start, None, board.movement_allowance(uid), rules, found)
    return found
