"""Across the Narva scenario validation of map.yaml: the grid and its terrain, places and named areas,
rivers, bridges and ferries, roads and railways, entry areas, supply sources and prepared defences."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from itertools import pairwise

from moderator.core.scenario_check import Problems
from moderator.games.narva.scenario.index import Scenario
from moderator.games.narva.scenario.index_map import grid_of, route_steps, terrain_map
from moderator.games.narva.scenario.schema import ENTRY_LETTERS, GERMAN_ENTRIES, SIDES, WATER
from moderator.maps.hexes import format_hex, hexside_key

#: The map areas the rules name and the validator requires.
REQUIRED_AREAS = ("narva", "ivangorod", "enclave", "vp_hills", "narva_joesuu", "krivasoo", "merekula",
                  "merekula_landing")


def check_grid(s: Scenario) -> list[str]:
    """Problems of the grid and its terrain rows: a CCRR extent, one row of legend characters per grid row."""
    problems = Problems()
    g = s.map.grid
    (c0, c1), (r0, r1) = g.columns, g.rows
    if not (0 <= c0 <= c1 <= 99 and 0 <= r0 <= r1 <= 99):
        return [f"map: grid columns {g.columns} / rows {g.rows} are not a valid CCRR extent"]
    width = c1 - c0 + 1
    legend = s.map.terrain.legend
    for ch in legend:
        problems.require(len(ch) == 1, f"map: terrain legend key {ch!r} must be a single character")
    rows = [r.row for r in s.map.terrain.rows]
    problems.duplicates((str(r) for r in rows), "map: terrain row {} is given twice")
    for r in range(r0, r1 + 1):
        problems.require(r in rows, f"map: terrain row {r:02d} is missing: every hex of the grid needs a terrain")
    for row in s.map.terrain.rows:
        if not r0 <= row.row <= r1:
            problems.append(f"map: terrain row {row.row} is outside the grid rows {r0}-{r1}")
            continue
        problems.require(len(row.hexes) == width,
                         f"map: terrain row {row.row:02d} has {len(row.hexes)} hexes, the grid has {width} columns")
        for i, ch in enumerate(row.hexes):
            if ch not in legend:
                problems.append(f"map: hex {format_hex((c0 + i, row.row)) if c0 + i <= 99 else '?'} has terrain "
                                f"character {ch!r}, which is not in the legend")
    used = set(terrain_map(s).values())
    for t in ("clear", "city", "sea"):
        problems.require(t in used, f"map: no {t} hex at all")
    return problems


def check_places_and_areas(s: Scenario) -> list[str]:
    """Problems of places and named areas: on the map, on land, and where the rules put them."""
    problems = Problems()
    terrain = terrain_map(s)
    for p in s.map.places:
        problems.require(s.on_map(p.hex), f"map: place {p.name} is in hex {p.hex}, which is not on the map")
    problems.duplicates((a.id for a in s.map.areas), "map: area {} is defined twice")
    areas = {a.id: a for a in s.map.areas}
    problems.unknown(REQUIRED_AREAS, areas, "map: the area '{}' that the rules name is missing")
    for a in s.map.areas:
        for h in a.hexes:
            if not s.on_map(h):
                problems.append(f"map: area {a.id} names hex {h}, which is not on the map")
            elif terrain.get(h) in WATER:
                problems.append(f"map: area {a.id} names water hex {h}")
        problems.duplicates(a.hexes, f"map: area {a.id} lists hex {{}} twice")
    _check_victory_areas(s, problems)
    _check_merekula(s, problems)
    pd_hexes = {h for pd in s.map.prepared_defences for h in pd.hexes}
    if areas.get("enclave"):
        for h in sorted(pd_hexes - set(areas["enclave"].hexes)):
            problems.append(f"map: PD hex {h} must be part of the enclave (rule 6.3D: 'inclusive')")
    return problems


def _area_hexes(s: Scenario) -> dict[str, tuple[str, ...]]:
    """Area id -> the hexes map.yaml lists for it (an area defined twice: its last definition)."""
    return {a.id: a.hexes for a in s.map.areas}


def _check_victory_areas(s: Scenario, problems: Problems) -> None:
    """Narva, Ivangorod, the VP hills, Narva-Joesuu and Krivasoo are where rules 13.1 and 13.3 put them."""
    terrain = terrain_map(s)
    areas = _area_hexes(s)
    narva, hills = areas.get("narva", ()), areas.get("vp_hills", ())
    if "narva" in areas and sorted(narva) != ["2930", "3028", "3029", "3030"]:
        problems.append(f"map: Narva must be hexes 3030, 3029, 3028 and 2930 (rulebook 13.1A), not {list(narva)}")
    for h in narva:
        problems.require(terrain.get(h) == "city", f"map: Narva hex {h} must be city terrain (rulebook 6.3D, 13.1)")
    problems.require("ivangorod" not in areas or sorted(areas["ivangorod"]) == ["3129", "3130", "3131"],
                     "map: Ivangorod must be hexes 3129, 3130, 3131 (rulebook 13.3)")
    problems.require("vp_hills" not in areas or sorted(hills) == ["1429", "1530", "1629"],
                     "map: the VP hills must be 1429, 1530, 1629 (rulebook 13.3)")
    for h in hills:
        problems.require(terrain.get(h) == "hill", f"map: VP hill {h} must be hill terrain (rulebook 13.3)")
    problems.require("narva_joesuu" not in areas or list(areas["narva_joesuu"]) == ["2337"],
                     "map: Narva-Joesuu must be hex 2337 (rulebook 13.3)")
    problems.require("krivasoo" not in areas or list(areas["krivasoo"]) == ["1820"],
                     "map: Krivasoo must be hex 1820 (rulebook 13.3)")


def _check_merekula(s: Scenario, problems: Problems) -> None:
    """Merekula is two adjacent coastal hexes, and the 260th lands on the two coastal hexes next to it (8.6A)."""
    terrain = terrain_map(s)
    grid = grid_of(s)

    def coastal(h: str) -> bool:
        return terrain.get(h) not in (None, *WATER) and any(terrain.get(n) == "sea" for n in grid.neighbours(h))

    areas = _area_hexes(s)
    mer, landing = areas.get("merekula", ()), areas.get("merekula_landing", ())
    if "merekula" in areas:
        problems.require(len(mer) == 2, f"map: Merekula must be two hexes (rulebook 8.6A), not {len(mer)}")
        for h in mer:
            problems.require(coastal(h), f"map: Merekula hex {h} must be coastal (rulebook 8.6)")
        problems.require(len(mer) != 2 or grid.adjacent(*mer), "map: the two Merekula hexes must be adjacent")
    if "merekula_landing" in areas:
        problems.require(len(landing) == 2, f"map: merekula_landing must be the two coastal hexes next to the "
                                            f"village (8.6A), not {len(landing)}")
        for h in landing:
            problems.require(h not in mer, f"map: landing hex {h} is itself a Merekula hex")
            problems.require(coastal(h), f"map: landing hex {h} must be coastal (rulebook 8.6A)")
            problems.require(not mer or any(grid.adjacent(h, m) for m in mer),
                             f"map: landing hex {h} must be adjacent to Merekula (rulebook 8.6A)")


SideCheck = Callable[[str, str], "str | None"]


def check_hexsides(s: Scenario) -> list[str]:
    """Rivers, ferries and bridges: well formed, adjacent, on land; bridges exactly where routes cross rivers."""
    problems = Problems()
    side_ok = _hexside_check(s, problems)
    owner, kind = _check_rivers(s, side_ok, problems)
    bridged = _check_bridges(s, side_ok, owner, problems)
    seen_ferries: set[str] = set()
    for ferry in s.map.ferries:
        key = side_ok("ferry", ferry.hexside)
        if key is None:
            continue
        problems.require(key not in seen_ferries, f"map: ferry {key} is listed twice")
        seen_ferries.add(key)
        problems.require(kind.get(key) == "major",
                         f"map: ferry {key} ({ferry.name}) is not on a major river (rule 6.2.2.2)")
        problems.require(key not in bridged, f"map: ferry {key} ({ferry.name}) is on a bridged hexside")
    return problems


def _hexside_check(s: Scenario, problems: Problems) -> SideCheck:
    """A check of one hexside written 'AAAA-BBBB': its key if both hexes are on the map and adjacent
    (noting a water hex), else None with the problem noted."""
    grid = grid_of(s)
    terrain = terrain_map(s)

    def side_ok(label: str, side: str) -> str | None:
        a, b = side.split("-")
        for h in (a, b):
            if not s.on_map(h):
                problems.append(f"map: {label} {side} names hex {h}, which is not on the map")
                return None
        if not grid.adjacent(a, b):
            problems.append(f"map: {label} {side} does not join two adjacent hexes")
            return None
        problems.require(terrain.get(a) not in WATER and terrain.get(b) not in WATER,
                         f"map: {label} {side} touches a water hex")
        return hexside_key(a, b)

    return side_ok


def _check_rivers(s: Scenario, side_ok: SideCheck, problems: Problems) -> tuple[dict[str, str], dict[str, str]]:
    """Each river hexside belongs to one river; the Narva is there, major, partly never frozen.
    Returns the river id and the river kind of each river hexside."""
    problems.duplicates((r.id for r in s.map.rivers), "map: river id {} is used twice")
    owner: dict[str, str] = {}
    kind: dict[str, str] = {}
    for river in s.map.rivers:
        problems.require(not river.never_frozen or river.kind == "major",
                         f"map: river {river.id}: only major rivers can be never-frozen (rule 6.2.2C)")
        for side in river.hexsides:
            key = side_ok(f"river {river.id} hexside", side)
            if key is None:
                continue
            if key in owner:
                problems.append(f"map: hexside {key} belongs to river {owner[key]} and river {river.id}")
                continue
            owner[key] = river.id
            kind[key] = river.kind
    problems.require(any(r.name == "Narva" and r.kind == "major" for r in s.map.rivers),
                     "map: the major river Narva is missing")
    problems.require(any(r.name == "Narva" and r.never_frozen for r in s.map.rivers),
                     "map: no never-frozen stretch of the Narva (rule 6.2.2C)")
    return owner, kind


def _check_bridges(s: Scenario, side_ok: SideCheck, owner: dict[str, str], problems: Problems) -> set[str]:
    """A bridge wherever a road or railway crosses a river, and nowhere else (rule 2.2.8A).
    Returns the bridged hexsides."""
    grid = grid_of(s)
    crossed: dict[str, str] = {}
    for _kind, rid, a, b in route_steps(s):
        if s.on_map(a) and s.on_map(b) and grid.adjacent(a, b):
            key = hexside_key(a, b)
            if key in owner:
                crossed.setdefault(key, rid)
    listed: set[str] = set()
    for bridge in s.map.bridges:
        hexside = side_ok("bridge", bridge.hexside)
        if hexside is None:
            continue
        problems.require(hexside not in listed, f"map: bridge {hexside} is listed twice")
        listed.add(hexside)
        if hexside not in owner:
            problems.append(f"map: bridge {hexside} is not on a river")
        elif hexside not in crossed:
            problems.append(f"map: bridge {hexside} has no road or railway crossing the river there (rule 2.2.8A)")
    for key, rid in sorted(crossed.items()):
        problems.require(key in listed, f"map: {rid} crosses river {owner[key]} at {key} but no bridge is listed "
                                        f"there (rule 2.2.8A)")
    return listed


def check_routes(s: Scenario) -> list[str]:
    """Problems of roads and railways: on land, hex to adjacent hex, cuts on the line, the winter
    trail over swamp, a rollbahn and the cut German railway."""
    problems = Problems()
    grid = grid_of(s)
    terrain = terrain_map(s)
    problems.duplicates([r.id for r in s.map.roads] + [r.id for r in s.map.railways],
                        "map: road/railway id {} is used twice")
    for label, route in [(f"road {r.id}", r) for r in s.map.roads] + [(f"railway {r.id}", r) for r in s.map.railways]:
        for h in route.hexes:
            if not s.on_map(h):
                problems.append(f"map: {label} passes hex {h}, which is not on the map")
            elif terrain.get(h) in WATER:
                problems.append(f"map: {label} passes water hex {h}")
        for a, b in pairwise(route.hexes):
            problems.require(not (s.on_map(a) and s.on_map(b)) or grid.adjacent(a, b),
                             f"map: {label} jumps from {a} to {b}, which are not adjacent")
    for rail in s.map.railways:
        steps = {hexside_key(a, b) for a, b in pairwise(rail.hexes) if s.on_map(a) and s.on_map(b)}
        for cut in rail.cut:
            problems.require(hexside_key(*cut.split("-")) in steps,
                             f"map: railway {rail.id} is cut at {cut}, which is not a hexside of the line")
    _check_winter_trails(s, problems)
    problems.require(any(r.kind == "rollbahn" for r in s.map.roads), "map: there is no rollbahn (rules 10.2.2, 13.3)")
    problems.require(any(r.kind == "major" and r.cut for r in s.map.railways),
                     "map: the German railway from entry area A must be shown cut (rule 6.5B)")
    return problems


def _check_winter_trails(s: Scenario, problems: Problems) -> None:
    """After the thaw a winter trail's hexes are swamp (6.2.1C): where no other route runs, it crosses swamp."""
    terrain = terrain_map(s)
    other_routes: dict[str, set[str]] = defaultdict(set)
    for road in s.map.roads:
        for h in road.hexes:
            other_routes[h].add(road.kind)
    for rail in s.map.railways:
        for h in rail.hexes:
            other_routes[h].add("railway")
    for road in s.map.roads:
        if road.kind != "winter_trail":
            continue
        for h in road.hexes:
            problems.require(terrain.get(h) == "swamp" or other_routes[h] != {"winter_trail"},
                             f"map: winter trail {road.id} crosses {h}, which is {terrain.get(h)}, not swamp "
                             f"(rule 6.2.1C: after the thaw its hexes are swamp)")


def check_map_features(s: Scenario) -> list[str]:
    """Problems of entry areas, supply sources, prepared defences and the banks of the Narva."""
    problems = Problems()
    letters = [e.id for e in s.map.entry_areas]
    problems.duplicates(letters, "map: entry area {} is defined twice")
    problems.unknown(ENTRY_LETTERS, letters, "map: entry area {} is missing (rulebook 13.3, 14.11)")
    _check_entries_and_sources(s, problems)
    _check_prepared_defences(s, problems)
    _check_banks(s, problems)
    return problems


def _check_edge(s: Scenario, side: str, what: str, h: str, problems: Problems) -> None:
    """German entries and sources are on the west edge (10.2.1B), Soviet ones on the east or south (10.2.1A)."""
    edges = s.hex(h).edges
    if side == "german" and "west" not in edges:
        problems.append(f"map: German {what} {h} must be on the west map edge (rule 10.2.1B)")
    if side == "soviet" and not ({"east", "south"} & edges):
        problems.append(f"map: Soviet {what} {h} must be on the east or south map edge (rule 10.2.1A)")


def _check_entries_and_sources(s: Scenario, problems: Problems) -> None:
    terrain = terrain_map(s)
    for e in s.map.entry_areas:
        want = "german" if e.id in GERMAN_ENTRIES else "soviet"
        problems.require(e.side == want, f"map: entry area {e.id} must be {want} (rulebook 8.4, 14.11)")
        for h in e.hexes:
            if not s.on_map(h):
                problems.append(f"map: entry area {e.id} hex {h} is not on the map")
                continue
            problems.require(terrain.get(h) not in WATER, f"map: entry area {e.id} hex {h} is water")
            _check_edge(s, e.side, f"entry area {e.id} hex", h, problems)
    for src in s.map.supply_sources:
        for h in src.hexes:
            if not s.on_map(h):
                problems.append(f"map: {src.side} supply source {h} is not on the map")
                continue
            _check_edge(s, src.side, "supply source", h, problems)
            problems.require(terrain.get(h) not in WATER, f"map: supply source {h} is water")
    for side in SIDES:
        problems.require(bool(s.supply_sources(side)), f"map: no {side} supply source")


def _check_prepared_defences(s: Scenario, problems: Problems) -> None:
    """PD hexes belong to the Nordland and Nederland divisions, east of the Narva (11.3A)."""
    formations = {f.id: f for f in s.formations}
    problems.duplicates((pd.division for pd in s.map.prepared_defences),
                        "map: prepared defences of {} are listed twice")
    for pd in s.map.prepared_defences:
        f = formations.get(pd.division)
        problems.require(f is not None and f.pd, f"map: PD hexes belong to {pd.division}, which is not a division "
                                                 f"allowed in PD hexes (11.3)")
        for h in pd.hexes:
            if not s.on_map(h):
                problems.append(f"map: PD hex {h} is not on the map")
            elif s.hex(h).west_of_narva:
                problems.append(f"map: PD hex {h} must be east of the Narva River (rule 11.3A)")
    problems.require(len(s.map.prepared_defences) == 2,
                     "map: prepared defences for exactly the Nordland and Nederland divisions (11.3A)")


def _check_banks(s: Scenario, problems: Problems) -> None:
    """The Narva separates a west bank (Narva, the VP hills) from an east bank (Ivangorod); the rollbahn
    runs from entry area A to Narva at 2930 (10.2.2, 13.3)."""
    idx = s.lookups()
    hexes = idx["hexes"]
    west_edge_land = [h for h in idx["hex_ids"] if "west" in hexes[h].edges and not hexes[h].water]
    east_land = [h for h in idx["hex_ids"] if not hexes[h].water and not hexes[h].west_of_narva]
    problems.require(not west_edge_land or bool(east_land),
                     "map: the Narva does not separate a west bank from an east bank")
    for name, want in (("narva", True), ("vp_hills", True), ("ivangorod", False)):
        for h in idx["areas"].get(name, ()):
            problems.require(h not in hexes or hexes[h].west_of_narva == want,
                             f"map: {name} hex {h} must be {'west' if want else 'east'} of the Narva")
    rollbahn = idx["areas"]["rollbahn_a_to_narva"]
    if not rollbahn:
        problems.append("map: the rollbahn must run from entry area A to Narva (rule 10.2.2, 13.3)")
    elif rollbahn[-1] != "2930":
        problems.append(f"map: the rollbahn must reach Narva at 2930 (rulebook 13.3), not {rollbahn[-1]}")
