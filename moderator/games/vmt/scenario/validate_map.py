"""VMT scenario validation of the map: areas, borders, the rulebook's map features and the drawn cells."""

from __future__ import annotations

from typing import Any

from moderator.core.scenario_check import Problems, cut_off
from moderator.games.vmt.scenario.index import Scenario

#: Raster scale at which the validator compares the drawn cells with the declared borders.
GEOMETRY_CHECK_SCALE = 0.5


def check_map(s: Scenario) -> list[str]:
    """Problems of map.yaml's areas and borders, and of the map features the rulebook fixes."""
    problems = Problems()
    ids = [a.id for a in s.map.areas]
    problems.duplicates(ids, "map: area id {} is used twice")
    problems.unique_names(s.map.areas, "map: area name or alias '{}' is not unique")
    _check_borders(s, problems)
    cut = cut_off(ids, [(b.a, b.b) for b in s.map.borders if b.kind != "ferry"])
    if cut:
        problems.append(f"map: areas not connected to {ids[0]} over land borders: {', '.join(cut)}")
    cut = cut_off(ids, [(b.a, b.b) for b in s.map.borders])
    if cut:
        problems.append(f"map: areas not connected to {ids[0]} even with ferries: {', '.join(cut)}")
    _check_features(s, problems)
    _check_initial_control(s, problems)
    return problems


def _check_borders(s: Scenario, problems: Problems) -> None:
    known = {a.id for a in s.map.areas}
    seen: set[frozenset[str]] = set()
    for b in s.map.borders:
        label = f"map: border {b.a}-{b.b}"
        problems.unknown((b.a, b.b), known, f"{label} refers to unknown area {{}}")
        problems.require(b.a != b.b, f"{label} joins an area to itself")
        problems.require(b.pair not in seen, f"{label} is declared twice")
        seen.add(b.pair)
        if b.kind == "ditch":
            problems.require(b.teeth_from in (b.a, b.b),
                             f"{label}: teeth_from must be {b.a} or {b.b}, not {b.teeth_from}")
        else:
            problems.require(b.teeth_from is None, f"{label}: only a ditch has teeth_from")
        problems.require(not b.river or b.kind == "ditch",
                         f"{label}: 'river: true' is only for ditch borders (use kind: river)")


def _check_features(s: Scenario, problems: Problems) -> None:
    areas = s.map.areas

    def count(flag: str) -> int:
        return sum(1 for a in areas if getattr(a, flag))

    problems.require(count("battery") == 4, f"map: {count('battery')} battery areas, the rulebook has 4 (L346)")
    ditches = sum(1 for b in s.map.borders if b.kind == "ditch")
    problems.require(ditches == 2, f"map: {ditches} AT-ditch borders, the rulebook has 2 (L352)")
    ferries = sum(1 for b in s.map.borders if b.kind == "ferry")
    problems.require(ferries == 2, f"map: {ferries} ferry arrows, expected the 2 sets of rulebook L376")
    problems.require(count("sevastopol") == 2,
                     f"map: {count('sevastopol')} 'Sevastopol proper' areas, the rulebook has 2 (L400)")
    total_vp = sum(a.vp for a in areas)
    problems.require(total_vp == 12, f"map: VP banners total {total_vp}, the Soviet starts with all 12 (L102, L112)")
    problems.require(count("airbase") >= 2,
                     f"map: {count('airbase')} airbase areas, the rulebook speaks of airbases (L71, L394)")
    problems.require(count("anchor") >= 2,
                     f"map: {count('anchor')} anchor areas, the rulebook speaks of areas with anchors (L414)")
    problems.require(count("axis_edge") >= 1, "map: no Axis edge area for Axis reinforcements (L423)")


def _check_initial_control(s: Scenario, problems: Problems) -> None:
    for a in s.map.areas:
        soviet, axis = a.initial_control == "soviet", a.initial_control == "axis"
        problems.require(not a.battery or soviet, f"map: battery area {a.id} must start Soviet-controlled (L332)")
        problems.require(not a.vp or soviet, f"map: VP area {a.id} must start Soviet-controlled (L112)")
        problems.require(not a.axis_edge or axis, f"map: Axis edge area {a.id} must start Axis-controlled (L388)")
        problems.require(not a.anchor or soviet, f"map: anchor area {a.id} should start Soviet-controlled (L414)")


def check_geometry(s: Scenario) -> list[str]:
    """Problems of the drawn map: every centre in its own one-piece cell, and the cells that touch
    exactly the declared land, river and ditch borders (a ferry must cross water)."""
    from moderator.maps.cells import area_cells

    g = s.map.geometry
    areas = s.map.areas
    if len({a.id for a in areas}) != len(areas):
        return ["geometry: skipped, area ids are not unique"]
    problems = Problems()
    for a in areas:
        x, y = a.at
        problems.require(0 <= x < g.width and 0 <= y < g.height,
                         f"geometry: centre of {a.id} {list(a.at)} lies outside the {g.width}x{g.height} map")
    if problems:
        return problems
    labels, ids = area_cells(
        {a.id: a.at for a in areas}, list(g.land), g.width, g.height, GEOMETRY_CHECK_SCALE,
        {a.id: a.weight for a in areas}, water=list(g.water),
    )
    _check_cells(s, labels, ids, problems)
    return problems


def _check_cells(s: Scenario, labels: Any, ids: Any, problems: Problems) -> None:
    from moderator.maps.cells import WATER, cell_adjacency, cell_components, label_at

    for a in s.map.areas:
        problems.require(label_at(labels, ids, a.at, GEOMETRY_CHECK_SCALE) == a.id,
                         f"geometry: the centre of {a.id} is not inside its own cell (water or another area)")
    for area_id, pieces in cell_components(labels, ids).items():
        problems.require(pieces == 1, f"geometry: the cell of {area_id} has {pieces} separate pieces, it must have 1")
    touching = cell_adjacency(labels, ids)
    declared = {b.pair for b in s.map.borders if b.kind != "ferry"}
    for one, other in (sorted(pair) for pair in sorted(touching - declared, key=sorted)):
        problems.append(f"geometry: cells of {one} and {other} touch but no land/river/ditch border joins them")
    for one, other in (sorted(pair) for pair in sorted(declared - touching, key=sorted)):
        problems.append(f"geometry: border {one}-{other} is declared but their cells do not touch")
    for border in s.map.borders:
        problems.require(border.kind != "ferry" or border.pair not in touching,
                         f"geometry: ferry {border.a}-{border.b} joins areas whose cells touch; "
                         f"a ferry must cross water")
    frame = set(labels[0, :]) | set(labels[-1, :]) | set(labels[:, 0]) | set(labels[:, -1])
    on_frame = {ids[i] for i in frame if i != WATER}
    for a in s.map.areas:
        problems.require(not a.axis_edge or a.id in on_frame,
                         f"geometry: Axis edge area {a.id} does not reach the map edge (L423)")
