"""The map lookups of an Across the Narva scenario: every hex and hexside precomputed from map.yaml
(terrain, edges, places, routes, rivers, areas) and the tables the engine's hot loops read.

The readers here are robust to malformed data (they skip what they cannot read), because the
validator uses them on data it is about to reject.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from moderator.core.scenario_check import reachable
from moderator.games.narva.scenario.schema import (
    SIDES,
    WATER,
    MoveClass,
    River,
    ScenarioData,
    Side,
    TerrainEffect,
)
from moderator.maps.hexes import HexGrid, format_hex, hexside_key, parse_hex


@dataclass(frozen=True, slots=True)
class HexInfo:
    """Everything the map says about one hex (precomputed)."""

    id: str
    col: int
    row: int
    terrain: str
    water: bool
    coastal: bool
    west_of_narva: bool
    edges: frozenset[str]
    places: tuple[str, ...]
    routes: frozenset[str]  # road kinds and "railway_major"/"railway_minor" through the hex
    supply_source: str | None
    entry_area: str | None
    pd_division: str | None
    areas: frozenset[str]

    @property
    def has_road(self) -> bool:
        return bool(self.routes)


@dataclass(frozen=True, slots=True)
class HexsideInfo:
    """Everything the map says about the side between two adjacent on-map hexes."""

    key: str
    river: str | None  # river id
    river_name: str | None
    river_kind: str | None  # "major" / "minor"
    never_frozen: bool
    ferry: bool
    bridge: bool
    routes: frozenset[str]  # road kinds / railway kinds crossing this hexside
    rail_cut: bool

    def feature(self, frozen: bool) -> str | None:
        """The TEC hexside feature (tables.yaml hexsides) in force, or None."""
        if self.river is None:
            return None
        if self.bridge:
            return "bridge"
        if self.ferry:
            return "ferry"
        if self.river_kind == "minor":
            return "minor_river"
        return "major_river_frozen" if frozen and not self.never_frozen else "major_river"


# --------------------------------------------------------------------------------------------
# readers of map.yaml (used by the index and the validator alike)


def grid_of(s: ScenarioData) -> HexGrid:
    g = s.map.grid
    return HexGrid(g.parity, g.rows_increase)


def grid_hex_ids(s: ScenarioData) -> tuple[str, ...]:
    """Every hex of the grid, column by column (none outside the CCRR range 00-99)."""
    g = s.map.grid
    return tuple(format_hex((c, r)) for c in range(g.columns[0], g.columns[1] + 1)
                 for r in range(g.rows[0], g.rows[1] + 1) if 0 <= c <= 99 and 0 <= r <= 99)


def terrain_map(s: ScenarioData) -> dict[str, str]:
    """Hex id -> terrain name from the row strings (robust to malformed data: skips what it can't read)."""
    g = s.map.grid
    out: dict[str, str] = {}
    legend = s.map.terrain.legend
    for row in s.map.terrain.rows:
        for i, ch in enumerate(row.hexes):
            col = g.columns[0] + i
            if col > g.columns[1] or not 0 <= row.row <= 99 or not 0 <= col <= 99:
                continue
            if ch in legend:
                out[format_hex((col, row.row))] = legend[ch]
    return out


def river_sides(s: ScenarioData) -> dict[str, River]:
    """Hexside key -> the river along it (the first river listing it)."""
    out: dict[str, River] = {}
    for river in s.map.rivers:
        for side in river.hexsides:
            a, b = side.split("-")
            out.setdefault(hexside_key(a, b), river)
    return out


def route_steps(s: ScenarioData) -> Iterator[tuple[str, str, str, str]]:
    """(kind, route id, hex, next hex) for every step of every road and railway."""
    for road in s.map.roads:
        for a, b in pairwise(road.hexes):
            yield road.kind, road.id, a, b
    for rail in s.map.railways:
        kind = f"railway_{rail.kind}"
        for a, b in pairwise(rail.hexes):
            yield kind, rail.id, a, b


def west_bank(s: ScenarioData, terrain: dict[str, str], grid: HexGrid) -> set[str]:
    """Land hexes reachable from the west map edge without crossing the Narva."""
    narva = {hexside_key(*side.split("-")) for r in s.map.rivers if r.name == "Narva" for side in r.hexsides}
    col0 = s.map.grid.columns[0]
    start = [h for h, t in terrain.items() if t not in WATER and parse_hex(h)[0] == col0]

    def land_steps(h: str) -> Iterator[str]:
        for n in grid.neighbours(h):
            if terrain.get(n) not in (None, *WATER) and hexside_key(h, n) not in narva:
                yield n

    return reachable(start, land_steps)


def rollbahn_a_to_narva(s: ScenarioData, narva: set[str]) -> tuple[str, ...]:
    """Hexes of the rollbahn from entry area A to the first Narva hex, inclusive (rule 13.3)."""
    a_hexes = {h for e in s.map.entry_areas if e.id == "A" for h in e.hexes}
    for road in s.map.roads:
        if road.kind != "rollbahn":
            continue
        path = list(road.hexes)
        if path and path[-1] in a_hexes and path[0] not in a_hexes:
            path.reverse()
        if not path or path[0] not in a_hexes:
            continue
        for i, h in enumerate(path):
            if h in narva:
                return tuple(path[: i + 1])
    return ()


# --------------------------------------------------------------------------------------------
# the map's lookup tables


def map_index(s: ScenarioData) -> dict[str, Any]:
    """Hexes, neighbours, hexsides, named areas, supply sources and off-road costs, keyed as the
    scenario's lookups read them."""
    grid = grid_of(s)
    terrain = terrain_map(s)
    hex_ids = grid_hex_ids(s)
    west = west_bank(s, terrain, grid)
    on_map = set(hex_ids)
    nbrs = {h: tuple(n for n in grid.neighbours(h) if n in on_map) for h in hex_ids}
    areas = _areas(s, hex_ids, terrain, west)
    supply = {side: frozenset(h for src in s.map.supply_sources if src.side == side for h in src.hexes)
              for side in SIDES}
    routes = _routes(s)
    hexes = _hex_infos(s, hex_ids, terrain, west, nbrs, areas, supply, routes[0])
    return {
        "grid": grid,
        "axial": {h: grid.to_axial(h) for h in hex_ids},
        "hex_ids": hex_ids,
        "hexes": hexes,
        "nbrs": nbrs,
        "land_nbrs": {h: tuple(n for n in ns if terrain.get(n) not in WATER) for h, ns in nbrs.items()},
        "sides": _hexside_infos(s, hex_ids, nbrs, routes[1], routes[2]),
        "areas": areas,
        "supply": supply,
        "move_cost": _move_costs(s, hex_ids, hexes),
    }


def _areas(s: ScenarioData, hex_ids: tuple[str, ...], terrain: dict[str, str],
           west: set[str]) -> dict[str, tuple[str, ...]]:
    """Named hex sets: map.yaml's areas, ``entry:X``, ``pd:<division>`` and the derived ones."""
    areas: dict[str, tuple[str, ...]] = {a.id: tuple(a.hexes) for a in s.map.areas}
    for e in s.map.entry_areas:
        areas[f"entry:{e.id}"] = tuple(e.hexes)
    for pd in s.map.prepared_defences:
        areas[f"pd:{pd.division}"] = tuple(pd.hexes)
    areas["west_bank_villages"] = tuple(h for h in hex_ids if terrain.get(h) == "village" and h in west)
    areas["rollbahn_a_to_narva"] = rollbahn_a_to_narva(s, set(areas.get("narva", ())))
    areas["pd_track"] = ()
    return areas


def _routes(s: ScenarioData) -> tuple[dict[str, set[str]], dict[str, set[str]], set[str]]:
    """Route kinds through each hex, across each hexside, and the railway's cut hexsides."""
    routes: dict[str, set[str]] = defaultdict(set)
    side_routes: dict[str, set[str]] = defaultdict(set)
    for kind, _rid, a, b in route_steps(s):
        routes[a].add(kind)
        routes[b].add(kind)
        side_routes[hexside_key(a, b)].add(kind)
    cuts = {hexside_key(*c.split("-")) for r in s.map.railways for c in r.cut}
    for key in cuts:  # the railway does not exist across its cut (rule 6.5B)
        side_routes[key] -= {"railway_major", "railway_minor"}
    return routes, side_routes, cuts


def _edges(s: ScenarioData, c: int, r: int) -> frozenset[str]:
    """The map edges a hex at column `c`, row `r` lies on."""
    g = s.map.grid
    low_row, high_row = ("south", "north") if g.rows_increase == "north" else ("north", "south")
    edges = set()
    if c == g.columns[0]:
        edges.add("west")
    if c == g.columns[1]:
        edges.add("east")
    if r == g.rows[0]:
        edges.add(low_row)
    if r == g.rows[1]:
        edges.add(high_row)
    return frozenset(edges)


def _hex_infos(s: ScenarioData, hex_ids: tuple[str, ...], terrain: dict[str, str], west: set[str],
               nbrs: dict[str, tuple[str, ...]], areas: dict[str, tuple[str, ...]],
               supply: dict[Side, frozenset[str]], routes: dict[str, set[str]]) -> dict[str, HexInfo]:
    places: dict[str, list[str]] = defaultdict(list)
    for p in s.map.places:
        places[p.hex].append(p.name)
    entry_of = {h: e.id for e in s.map.entry_areas for h in e.hexes}
    pd_of = {h: pd.division for pd in s.map.prepared_defences for h in pd.hexes}
    area_of: dict[str, set[str]] = defaultdict(set)
    for name, hs in areas.items():
        for h in hs:
            area_of[h].add(name)
    hexes: dict[str, HexInfo] = {}
    for h in hex_ids:
        c, r = parse_hex(h)
        t = terrain.get(h, "clear")
        hexes[h] = HexInfo(
            id=h, col=c, row=r, terrain=t, water=t in WATER,
            coastal=t not in WATER and any(terrain.get(n) == "sea" for n in nbrs[h]),
            west_of_narva=h in west, edges=_edges(s, c, r), places=tuple(places.get(h, ())),
            routes=frozenset(routes.get(h, ())),
            supply_source=next((side for side in SIDES if h in supply[side]), None),
            entry_area=entry_of.get(h), pd_division=pd_of.get(h), areas=frozenset(area_of.get(h, ())),
        )
    return hexes


def _hexside_infos(s: ScenarioData, hex_ids: tuple[str, ...], nbrs: dict[str, tuple[str, ...]],
                   side_routes: dict[str, set[str]], cuts: set[str]) -> dict[tuple[str, str], HexsideInfo]:
    """Every side between adjacent on-map hexes, under both (a, b) and (b, a)."""
    rivers = river_sides(s)
    ferries = {hexside_key(*f.hexside.split("-")) for f in s.map.ferries}
    bridges = {hexside_key(*b.hexside.split("-")) for b in s.map.bridges}
    sides: dict[tuple[str, str], HexsideInfo] = {}
    for h in hex_ids:
        for n in nbrs[h]:
            if (h, n) in sides:
                continue
            key = hexside_key(h, n)
            river = rivers.get(key)
            info = HexsideInfo(
                key=key, river=river.id if river else None, river_name=river.name if river else None,
                river_kind=river.kind if river else None, never_frozen=bool(river and river.never_frozen),
                ferry=key in ferries, bridge=key in bridges, routes=frozenset(side_routes.get(key, ())),
                rail_cut=key in cuts,
            )
            sides[(h, n)] = sides[(n, h)] = info
    return sides


def _move_costs(s: ScenarioData, hex_ids: tuple[str, ...],
                hexes: dict[str, HexInfo]) -> dict[str, dict[str, float | None]]:
    """Movement class -> hex -> MP to enter it off-road (None: prohibited), from the TEC."""
    tec_terrain: dict[str, TerrainEffect] = {t.terrain: t for t in s.tables.terrain}
    move_cost: dict[str, dict[str, float | None]] = {"infantry": {}, "mechanized": {}}
    classes: tuple[MoveClass, ...] = ("infantry", "mechanized")
    for h in hex_ids:
        effect = tec_terrain.get(hexes[h].terrain)
        for mc in classes:
            cost = None if effect is None else effect.move.get(mc)
            move_cost[mc][h] = None if cost is None or cost == "P" else float(cost)
    return move_cost
