"""VMT scenario validation: every problem of the data as a sentence, the set-up's and the turn track's
here, the map's in `validate_map` and the pieces' in `validate_pieces`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from moderator.core.provenance import Record
from moderator.core.scenario_check import Problems, adjacency, consecutive, reachable
from moderator.games.vmt.scenario.index import Scenario
from moderator.games.vmt.scenario.schema import SIDES
from moderator.games.vmt.scenario.validate_map import check_geometry, check_map
from moderator.games.vmt.scenario.validate_pieces import check_blocks, check_cards, check_counters


def validate_scenario(s: Scenario, geometry: bool = True) -> list[str]:
    """Every problem found in the scenario data, as sentences; empty when the data is valid.

    `geometry=False` skips the raster comparison of cells and borders (the slowest check).
    """
    problems = Problems()
    problems.provenance(_records(s))
    problems += check_map(s)
    if geometry:
        problems += check_geometry(s)
    problems += check_blocks(s)
    problems += check_cards(s)
    problems += check_counters(s)
    problems += _check_setup(s)
    problems += _check_meta(s)
    return list(problems)


def _records(s: Scenario) -> Iterator[tuple[str, Record]]:
    """Every record of the data with where it is, for the provenance check."""
    yield "scenario.yaml", s.meta
    yield from ((f"scenario.yaml turn {t.n}", t) for t in s.meta.turns)
    yield "map.yaml geometry", s.map.geometry
    yield from ((f"map.yaml area {a.id}", a) for a in s.map.areas)
    yield from ((f"map.yaml border {b.a}-{b.b}", b) for b in s.map.borders)
    yield from ((f"blocks.yaml division {d.id}", d) for d in s.divisions)
    yield from ((f"blocks.yaml block {b.id}", b) for b in s.blocks)
    yield from ((f"blocks.yaml reinforcement group {g.id}", g) for g in s.reinforcements)
    yield from ((f"cards.yaml card type {c.id}", c) for c in s.card_types)
    yield from ((f"counters.yaml counter {c.id}", c) for c in s.counters)
    yield "setup file", s.setup
    yield from ((f"set-up entry {p.block}", p) for p in s.setup.placements)
    yield from ((f"set-up asset {a.counter}", a) for a in s.setup.assets)


def _check_setup(s: Scenario) -> list[str]:
    """Problems of the set-up: every block placed once in an area its side controls, stacking, the
    Axis rear, and the assets."""
    problems = Problems()
    areas = {a.id: a for a in s.map.areas}
    placed = [p.block for p in s.setup.placements]
    problems.duplicates(placed, "set-up: block {} is placed more than once")
    _check_placements(s, problems)
    _check_axis_rear(s, problems)
    for asset in s.setup.assets:
        problems.require(asset.area in areas, f"set-up: asset {asset.counter} placed in unknown area {asset.area}")
        problems.require(asset.counter in {c.id for c in s.counters}, f"set-up: unknown asset counter {asset.counter}")
    return problems


def _check_placements(s: Scenario, problems: Problems) -> None:
    """Each placement a known block that is not a reinforcement, in a known area its side controls
    (L388); every other block placed; stacking (L95); no area held by both sides."""
    areas = {a.id: a for a in s.map.areas}
    blocks = {b.id: b for b in s.blocks}
    stacks: dict[tuple[str, str], list[str]] = defaultdict(list)
    occupied: dict[str, set[str]] = defaultdict(set)
    for p in s.setup.placements:
        b = blocks.get(p.block)
        if b is None:
            problems.append(f"set-up: unknown block {p.block}")
            continue
        problems.require(b.reinforcement is None, f"set-up: reinforcement block {b.id} must wait off-map (L414, L423)")
        area = areas.get(p.area)
        if area is None:
            problems.append(f"set-up: block {b.id} is placed in unknown area {p.area}")
            continue
        stacks[(p.area, b.side)].append(b.id)
        occupied[p.area].add(b.side)
        problems.require(area.initial_control == b.side, f"set-up: {b.side} block {b.id} starts in {p.area}, "
                                                         f"which the {area.initial_control} controls (L388)")
    placed = {p.block for p in s.setup.placements}
    for b in s.blocks:
        problems.require(b.reinforcement is not None or b.id in placed, f"set-up: block {b.id} is not placed")
    for (area_id, side), ids in sorted(stacks.items()):
        problems.require(len(ids) <= s.meta.stacking, f"set-up: {len(ids)} {side} blocks in {area_id} "
                                                      f"({', '.join(ids)}), the limit is {s.meta.stacking} (L95)")
    for area_id, sides in occupied.items():
        problems.require(len(sides) <= 1, f"set-up: both sides have blocks in {area_id}")


def _check_axis_rear(s: Scenario, problems: Problems) -> None:
    """Every Axis area must connect to the Axis map edge through Axis areas (L388)."""
    areas = {a.id: a for a in s.map.areas}
    axis_areas = [a.id for a in s.map.areas if a.initial_control == "axis"]
    edges = [(b.a, b.b) for b in s.map.borders if b.kind != "ferry"
             and areas.get(b.a) is not None and areas.get(b.b) is not None
             and areas[b.a].initial_control == areas[b.b].initial_control == "axis"]
    graph = adjacency(edges)
    reach = reachable({a.id for a in s.map.areas if a.axis_edge} & set(axis_areas), lambda a: graph.get(a, ()))
    for area_id in axis_areas:
        problems.require(area_id in reach,
                         f"set-up: Axis-controlled {area_id} is cut off from the Axis map edge (L388)")


def _check_meta(s: Scenario) -> list[str]:
    """Problems of scenario.yaml: the turn track, hands, VP and reinforcement timing."""
    problems = Problems()
    m = s.meta
    numbers = [t.n for t in m.turns]
    problems.require(consecutive(numbers), f"scenario: turns must be numbered 1..{len(numbers)}, not {numbers}")
    for side in SIDES:
        problems.require(m.hand_size.get(side, 0) >= 1, f"scenario: hand size of {side} missing (L106)")
        problems.require(side in m.vp_start, f"scenario: VP start of {side} missing (L102)")
    problems.require(m.vp_start.get("soviet") == s.vp_total(), f"scenario: the Soviet starts with "
                     f"{m.vp_start.get('soviet')} VP but the banners total {s.vp_total()} (L112)")
    for key in ("soviet_reinforcement_first_turn", "axis_reinforcement_first_turn"):
        problems.require(getattr(m, key) <= len(m.turns), f"scenario: {key} is after the last turn")
    problems.require(all(1 <= r <= 6 for r in m.soviet_reinforcement_roll),
                     "scenario: soviet_reinforcement_roll must list die faces 1-6")
    return problems
