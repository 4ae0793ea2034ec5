"""Scenario data of Von Manstein's Triumph (VMT): models, loader and validator.

The data lives in YAML files under ``scenarios/vmt/`` (see ``PROVENANCE.md`` there).  The rulebook
gives almost no component data, so most values are reconstructions; every record therefore carries
a ``src`` mapping that gives, for each of its fields, either ``rulebook L<line>`` / ``rulebook
§<section>`` or ``reconstructed: <why>``.  A club that owns the physical game corrects a value by
editing the YAML only; `validate_scenario` then tells it whether the data still hangs together.

Files (all in the scenario root):

* ``scenario.yaml`` - metadata (turn track, hand sizes, VP start, reinforcement timing) and the
  names of the other files;
* ``map.yaml`` - geometry, areas and borders;
* ``blocks.yaml`` - divisions, the 62 blocks and the reinforcement groups;
* ``cards.yaml`` - the 63 Command Cards by type and deck;
* ``counters.yaml`` - the 113 counters and markers;
* ``setup-historical.yaml`` - the historical set-up.
"""

from __future__ import annotations

from functools import lru_cache

from collections import defaultdict, deque
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from moderator.core.errors import ScenarioError
from moderator.core.provenance import PROVENANCE_PREFIXES, Record  # noqa: F401  (re-exported)
from moderator.core.scenario_files import (Ident, IndexedScenario, describe, duplicates, read_meta,
                                           read_yaml, scenario_root)

Side = Literal["axis", "soviet"]
SIDES: tuple[Side, ...] = ("axis", "soviet")
Nationality = Literal["german", "romanian", "soviet"]
Label = Literal["assault", "order", "combat_support", "reaction"]
BorderKind = Literal["land", "river", "ditch", "ferry"]

#: Raster scale at which the validator compares the drawn cells with the declared borders.
GEOMETRY_CHECK_SCALE = 0.5



Point = tuple[float, float]
Polygon = tuple[Point, ...]


# --------------------------------------------------------------------------------------------
# map.yaml


class Geometry(Record):
    EXEMPT = frozenset({"note"})

    width: int = Field(gt=0)
    height: int = Field(gt=0)
    land: tuple[Polygon, ...] = Field(min_length=1)
    water: tuple[Polygon, ...] = ()
    projection: str | None = None


class Area(Record):
    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    terrain: Literal["clear", "rough"]
    urban: bool
    trench: Side | None
    battery: bool
    airbase: bool
    anchor: bool
    vp: int = Field(ge=0)
    axis_edge: bool
    sevastopol: bool
    at: Point
    initial_control: Side
    weight: float = Field(default=1.0, gt=0)


class Border(Record):
    EXEMPT = frozenset({"a", "b", "note"})

    a: Ident
    b: Ident
    kind: BorderKind
    teeth_from: Ident | None = None
    river: bool = False

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.a, self.b))

    def other(self, area_id: str) -> str:
        return self.b if area_id == self.a else self.a


class MapData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    geometry: Geometry
    areas: tuple[Area, ...]
    borders: tuple[Border, ...]


# --------------------------------------------------------------------------------------------
# blocks.yaml


class Division(Record):
    id: Ident
    side: Side
    nationality: Nationality
    name: str
    activation_marker: bool


class Block(Record):
    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    side: Side
    nationality: Nationality
    division: Ident | None
    sp: Literal[2, 3, 4]
    moves2: bool
    special: tuple[Literal["nkvd_extra_die"], ...] = ()
    reinforcement: Ident | None
    note: str | None = None


class ReinforcementGroup(Record):
    id: Ident
    side: Side
    order: int = Field(ge=1)
    name: str
    blocks: tuple[Ident, ...] = Field(min_length=1)
    vp_cost: int = Field(ge=0)
    note: str | None = None


# --------------------------------------------------------------------------------------------
# cards.yaml and counters.yaml


class CardType(Record):
    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    sides: tuple[Side, ...] = Field(min_length=1)
    labels: tuple[Label, ...] = Field(min_length=1)
    count: dict[Side, int]
    summary: str


class CounterType(Record):
    id: Ident
    name: str
    side: Literal["axis", "soviet", "both"]
    count: int = Field(ge=0)
    steps: int | None = None
    note: str | None = None


# --------------------------------------------------------------------------------------------
# setup-historical.yaml and scenario.yaml


class Placement(Record):
    EXEMPT = frozenset({"block", "note"})

    block: Ident
    area: Ident


class AssetPlacement(Record):
    EXEMPT = frozenset({"counter", "note"})

    counter: Ident
    area: Ident


class Setup(Record):
    EXEMPT = frozenset({"id", "placements", "note"})

    id: Ident
    name: str
    placements: tuple[Placement, ...]
    assets: tuple[AssetPlacement, ...] = ()


class Turn(Record):
    EXEMPT = frozenset({"n", "note"})

    n: int = Field(ge=1)
    dates: str


class ScenarioMeta(Record):
    EXEMPT = frozenset({"name", "files", "turns", "note"})

    name: Ident
    title: str
    files: dict[str, str]
    turns: tuple[Turn, ...] = Field(min_length=1)
    first_player: Side
    hand_size: dict[Side, int]
    vp_start: dict[Side, int]
    stacking: int = Field(ge=1)
    initial_bombardment: bool
    soviet_reinforcement_first_turn: int = Field(ge=1)
    soviet_reinforcement_roll: tuple[int, ...] = Field(min_length=1)
    axis_reinforcement_first_turn: int = Field(ge=1)
    axis_groups_per_turn: int = Field(ge=1)


# --------------------------------------------------------------------------------------------
# the scenario


class Scenario(IndexedScenario):
    """Everything the VMT engine needs to start a game, with lookups."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    meta: ScenarioMeta
    map: MapData
    divisions: tuple[Division, ...]
    blocks: tuple[Block, ...]
    reinforcements: tuple[ReinforcementGroup, ...]
    card_types: tuple[CardType, ...]
    counters: tuple[CounterType, ...]
    setup: Setup

    # -- indexes (rebuilt whenever a copy swaps one of the underlying collections) -----------

    def _index(self) -> dict[str, Any]:
        key = (self.map, self.divisions, self.blocks, self.card_types, self.counters, self.setup)
        cached = self._cache.get("key")
        if cached is not None and all(a is b for a, b in zip(cached, key)):
            return self._cache
        index: dict[str, Any] = {"key": key}
        index["areas"] = {a.id: a for a in self.map.areas}
        index["blocks"] = {b.id: b for b in self.blocks}
        index["divisions"] = {d.id: d for d in self.divisions}
        index["cards"] = {c.id: c for c in self.card_types}
        index["counters"] = {c.id: c for c in self.counters}
        borders: dict[frozenset[str], Border] = {}
        nbrs: dict[str, set[str]] = defaultdict(set)
        nbrs_ferry: dict[str, set[str]] = defaultdict(set)
        for border in self.map.borders:
            borders.setdefault(border.pair, border)
            nbrs_ferry[border.a].add(border.b)
            nbrs_ferry[border.b].add(border.a)
            if border.kind != "ferry":
                nbrs[border.a].add(border.b)
                nbrs[border.b].add(border.a)
        index["borders"] = borders
        index["nbrs"] = {k: tuple(sorted(v)) for k, v in nbrs.items()}
        index["nbrs_ferry"] = {k: tuple(sorted(v)) for k, v in nbrs_ferry.items()}
        names: dict[str, dict[str, str]] = {"area": {}, "block": {}, "card": {}}
        for kind, records in (("area", self.map.areas), ("block", self.blocks), ("card", self.card_types)):
            for record in records:
                for name in (record.id, *record.aliases):
                    names[kind].setdefault(name.casefold(), record.id)
        index["names"] = names
        self._cache.clear()
        self._cache.update(index)
        return self._cache

    # -- map ----------------------------------------------------------------------------------

    def area(self, area_id: str) -> Area:
        try:
            return self._index()["areas"][area_id]
        except KeyError:
            raise KeyError(f"no area {area_id!r}") from None

    def find_area(self, text: str) -> Area | None:
        """The area whose id or alias is `text` (case-insensitive), or None."""
        area_id = self._index()["names"]["area"].get(text.strip().casefold())
        return None if area_id is None else self.area(area_id)

    def area_ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.map.areas)

    def neighbours(self, area_id: str, include_ferry: bool = False) -> tuple[str, ...]:
        """Adjacent areas.  Ferry arrows connect only for movement and retreat (rulebook L384)."""
        self.area(area_id)
        key = "nbrs_ferry" if include_ferry else "nbrs"
        return self._index()[key].get(area_id, ())

    def border(self, a: str, b: str) -> Border | None:
        return self._index()["borders"].get(frozenset((a, b)))

    def areas_where(self, **flags: Any) -> tuple[Area, ...]:
        """Areas whose attributes equal the given values, e.g. ``areas_where(battery=True)``."""
        return tuple(a for a in self.map.areas if all(getattr(a, k) == v for k, v in flags.items()))

    def vp_total(self) -> int:
        return sum(a.vp for a in self.map.areas)

    # -- blocks ---------------------------------------------------------------------------------

    def block(self, block_id: str) -> Block:
        try:
            return self._index()["blocks"][block_id]
        except KeyError:
            raise KeyError(f"no block {block_id!r}") from None

    def find_block(self, text: str) -> Block | None:
        block_id = self._index()["names"]["block"].get(text.strip().casefold())
        return None if block_id is None else self.block(block_id)

    def blocks_of(self, side: Side) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.side == side)

    def division(self, division_id: str) -> Division:
        try:
            return self._index()["divisions"][division_id]
        except KeyError:
            raise KeyError(f"no division {division_id!r}") from None

    def division_blocks(self, division_id: str) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.division == division_id)

    def reinforcement_groups(self, side: Side) -> tuple[ReinforcementGroup, ...]:
        return tuple(sorted((g for g in self.reinforcements if g.side == side), key=lambda g: g.order))

    def setup_positions(self) -> dict[str, str]:
        """Block id -> area id of the set-up."""
        return {p.block: p.area for p in self.setup.placements}

    # -- cards and counters ---------------------------------------------------------------------

    def card_type(self, card_id: str) -> CardType:
        try:
            return self._index()["cards"][card_id]
        except KeyError:
            raise KeyError(f"no card type {card_id!r}") from None

    def find_card_type(self, text: str) -> CardType | None:
        card_id = self._index()["names"]["card"].get(text.strip().casefold())
        return None if card_id is None else self.card_type(card_id)

    def deck(self, side: Side) -> list[str]:
        """The card type ids of a side's deck, with repetition, in file order (unshuffled)."""
        return [c.id for c in self.card_types for _ in range(c.count.get(side, 0))]

    def counter(self, counter_id: str) -> CounterType:
        try:
            return self._index()["counters"][counter_id]
        except KeyError:
            raise KeyError(f"no counter type {counter_id!r}") from None


# --------------------------------------------------------------------------------------------
# loading


def default_root() -> Path:
    return scenario_root("vmt")


def read_scenario(name: str = "campaign", root: Path | None = None) -> Scenario:
    """Read and schema-check the YAML files, without the cross-file validation."""
    root = Path(root) if root is not None else default_root()
    meta_path, meta_raw = read_meta(root, name, "VMT")
    files = meta_raw.get("files") or {}
    wanted = {"map": "map.yaml", "blocks": "blocks.yaml", "cards": "cards.yaml",
              "counters": "counters.yaml", "setup": "setup-historical.yaml"}
    raw: dict[str, Any] = {}
    for key, default in wanted.items():
        filename = files.get(key, default) if isinstance(files, dict) else default
        data = read_yaml(root / filename)
        if not isinstance(data, dict):
            raise ScenarioError(f"{filename}: expected a mapping at the top level")
        raw[key] = (filename, data)
    problems: list[str] = []

    def build(model: Any, data: Any, filename: str, prefix: str | None = None) -> Any:
        try:
            return TypeAdapter(model).validate_python(data if data is not None else ())
        except ValidationError as exc:
            problems.extend(describe(exc, filename, prefix))
            return None

    meta = build(ScenarioMeta, meta_raw, meta_path.name)
    map_file, map_raw = raw["map"]
    map_data = build(MapData, {k: map_raw.get(k) for k in ("geometry", "areas", "borders")}, map_file)
    blocks_file, blocks_raw = raw["blocks"]
    divisions = build(tuple[Division, ...], blocks_raw.get("divisions"), blocks_file, "divisions")
    blocks = build(tuple[Block, ...], blocks_raw.get("blocks"), blocks_file, "blocks")
    groups = build(tuple[ReinforcementGroup, ...], blocks_raw.get("reinforcements"), blocks_file, "reinforcements")
    cards_file, cards_raw = raw["cards"]
    cards = build(tuple[CardType, ...], cards_raw.get("card_types"), cards_file, "card_types")
    counters_file, counters_raw = raw["counters"]
    counters = build(tuple[CounterType, ...], counters_raw.get("counters"), counters_file, "counters")
    setup_file, setup_raw = raw["setup"]
    setup = build(Setup, setup_raw, setup_file)
    for filename, data, allowed in (
        (map_file, map_raw, {"geometry", "areas", "borders"}),
        (blocks_file, blocks_raw, {"divisions", "blocks", "reinforcements"}),
        (cards_file, cards_raw, {"card_types"}),
        (counters_file, counters_raw, {"counters"}),
    ):
        for key in sorted(set(data) - allowed):
            problems.append(f"{filename}: unknown top-level key '{key}'")
    if problems:
        raise ScenarioError("VMT scenario data does not match the schema:\n  " + "\n  ".join(problems))
    return Scenario(
        meta=meta, map=map_data, divisions=divisions, blocks=blocks,
        reinforcements=groups, card_types=cards, counters=counters, setup=setup,
    )


def load_scenario(name: str = "campaign", root: Path | None = None) -> Scenario:
    """Load and validate a VMT scenario; raise ScenarioError listing every problem found."""
    scenario = read_scenario(name, root)
    problems = validate_scenario(scenario)
    if problems:
        raise ScenarioError("VMT scenario data is inconsistent:\n  " + "\n  ".join(problems))
    return scenario


# --------------------------------------------------------------------------------------------
# validation


def validate_scenario(s: Scenario, geometry: bool = True) -> list[str]:
    """Every problem found in the scenario data, as sentences; empty when the data is valid.

    `geometry=False` skips the raster comparison of cells and borders (the slowest check).
    """
    problems: list[str] = []
    problems += _check_provenance(s)
    problems += _check_map(s)
    if geometry:
        problems += _check_geometry(s)
    problems += _check_blocks(s)
    problems += _check_cards(s)
    problems += _check_counters(s)
    problems += _check_setup(s)
    problems += _check_meta(s)
    return problems


def _records(s: Scenario) -> Iterator[tuple[str, Record]]:
    yield "scenario.yaml", s.meta
    for turn in s.meta.turns:
        yield f"scenario.yaml turn {turn.n}", turn
    yield "map.yaml geometry", s.map.geometry
    for area in s.map.areas:
        yield f"map.yaml area {area.id}", area
    for border in s.map.borders:
        yield f"map.yaml border {border.a}-{border.b}", border
    for division in s.divisions:
        yield f"blocks.yaml division {division.id}", division
    for block in s.blocks:
        yield f"blocks.yaml block {block.id}", block
    for group in s.reinforcements:
        yield f"blocks.yaml reinforcement group {group.id}", group
    for card in s.card_types:
        yield f"cards.yaml card type {card.id}", card
    for counter in s.counters:
        yield f"counters.yaml counter {counter.id}", counter
    yield "setup file", s.setup
    for placement in s.setup.placements:
        yield f"set-up entry {placement.block}", placement
    for asset in s.setup.assets:
        yield f"set-up asset {asset.counter}", asset


def _check_provenance(s: Scenario) -> list[str]:
    problems: list[str] = []
    for where, record in _records(s):
        problems += record.provenance_problems(where)
    return problems


def _connected(nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> list[str]:
    """Nodes not reachable from the first node."""
    nodes = list(nodes)
    if not nodes:
        return []
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
        graph[b].add(a)
    seen = {nodes[0]}
    queue = deque([nodes[0]])
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return [n for n in nodes if n not in seen]


def _check_map(s: Scenario) -> list[str]:
    problems: list[str] = []
    areas = s.map.areas
    ids = [a.id for a in areas]
    known = set(ids)
    for dup in duplicates(ids):
        problems.append(f"map: area id {dup} is used twice")
    names = [n.casefold() for a in areas for n in (a.id, *a.aliases)]
    for dup in duplicates(names):
        problems.append(f"map: area name or alias '{dup}' is not unique")

    seen: set[frozenset[str]] = set()
    for b in s.map.borders:
        label = f"map: border {b.a}-{b.b}"
        for end in (b.a, b.b):
            if end not in known:
                problems.append(f"{label} refers to unknown area {end}")
        if b.a == b.b:
            problems.append(f"{label} joins an area to itself")
        if b.pair in seen:
            problems.append(f"{label} is declared twice")
        seen.add(b.pair)
        if b.kind == "ditch":
            if b.teeth_from not in (b.a, b.b):
                problems.append(f"{label}: teeth_from must be {b.a} or {b.b}, not {b.teeth_from}")
        elif b.teeth_from is not None:
            problems.append(f"{label}: only a ditch has teeth_from")
        if b.river and b.kind != "ditch":
            problems.append(f"{label}: 'river: true' is only for ditch borders (use kind: river)")

    land_edges = [(b.a, b.b) for b in s.map.borders if b.kind != "ferry"]
    all_edges = [(b.a, b.b) for b in s.map.borders]
    cut_off = _connected(ids, land_edges)
    if cut_off:
        problems.append(f"map: areas not connected to {ids[0]} over land borders: {', '.join(cut_off)}")
    cut_off = _connected(ids, all_edges)
    if cut_off:
        problems.append(f"map: areas not connected to {ids[0]} even with ferries: {', '.join(cut_off)}")

    def count(flag: str) -> int:
        return sum(1 for a in areas if getattr(a, flag))

    if count("battery") != 4:
        problems.append(f"map: {count('battery')} battery areas, the rulebook has 4 (L346)")
    ditches = [b for b in s.map.borders if b.kind == "ditch"]
    if len(ditches) != 2:
        problems.append(f"map: {len(ditches)} AT-ditch borders, the rulebook has 2 (L352)")
    ferries = [b for b in s.map.borders if b.kind == "ferry"]
    if len(ferries) != 2:
        problems.append(f"map: {len(ferries)} ferry arrows, expected the 2 sets of rulebook L376")
    if count("sevastopol") != 2:
        problems.append(f"map: {count('sevastopol')} 'Sevastopol proper' areas, the rulebook has 2 (L400)")
    total_vp = sum(a.vp for a in areas)
    if total_vp != 12:
        problems.append(f"map: VP banners total {total_vp}, the Soviet starts with all 12 (L102, L112)")
    if count("airbase") < 2:
        problems.append(f"map: {count('airbase')} airbase areas, the rulebook speaks of airbases (L71, L394)")
    if count("anchor") < 2:
        problems.append(f"map: {count('anchor')} anchor areas, the rulebook speaks of areas with anchors (L414)")
    if count("axis_edge") < 1:
        problems.append("map: no Axis edge area for Axis reinforcements (L423)")
    for a in areas:
        if a.battery and a.initial_control != "soviet":
            problems.append(f"map: battery area {a.id} must start Soviet-controlled (L332)")
        if a.vp and a.initial_control != "soviet":
            problems.append(f"map: VP area {a.id} must start Soviet-controlled (L112)")
        if a.axis_edge and a.initial_control != "axis":
            problems.append(f"map: Axis edge area {a.id} must start Axis-controlled (L388)")
        if a.anchor and a.initial_control != "soviet":
            problems.append(f"map: anchor area {a.id} should start Soviet-controlled (L414)")
    return problems


def _check_geometry(s: Scenario) -> list[str]:
    from moderator.maps.cells import WATER, area_cells, cell_adjacency, cell_components, label_at

    problems: list[str] = []
    g = s.map.geometry
    scale = GEOMETRY_CHECK_SCALE
    areas = s.map.areas
    if len({a.id for a in areas}) != len(areas):
        return ["geometry: skipped, area ids are not unique"]
    for a in areas:
        x, y = a.at
        if not (0 <= x < g.width and 0 <= y < g.height):
            problems.append(f"geometry: centre of {a.id} {list(a.at)} lies outside the {g.width}x{g.height} map")
    if problems:
        return problems
    labels, ids = area_cells(
        {a.id: a.at for a in areas}, list(g.land), g.width, g.height, scale,
        {a.id: a.weight for a in areas}, water=list(g.water),
    )
    for a in areas:
        if label_at(labels, ids, a.at, scale) != a.id:
            problems.append(f"geometry: the centre of {a.id} is not inside its own cell (water or another area)")
    for area_id, pieces in cell_components(labels, ids).items():
        if pieces != 1:
            problems.append(f"geometry: the cell of {area_id} has {pieces} separate pieces, it must have 1")
    touching = cell_adjacency(labels, ids)
    declared = {b.pair for b in s.map.borders if b.kind != "ferry"}
    for pair in sorted(touching - declared, key=sorted):
        a, b = sorted(pair)
        problems.append(f"geometry: cells of {a} and {b} touch but no land/river/ditch border joins them")
    for pair in sorted(declared - touching, key=sorted):
        a, b = sorted(pair)
        problems.append(f"geometry: border {a}-{b} is declared but their cells do not touch")
    for b in s.map.borders:
        if b.kind == "ferry" and b.pair in touching:
            problems.append(f"geometry: ferry {b.a}-{b.b} joins areas whose cells touch; a ferry must cross water")
    frame = set(labels[0, :]) | set(labels[-1, :]) | set(labels[:, 0]) | set(labels[:, -1])
    on_frame = {ids[i] for i in frame if i != WATER}
    for a in areas:
        if a.axis_edge and a.id not in on_frame:
            problems.append(f"geometry: Axis edge area {a.id} does not reach the map edge (L423)")
    return problems


def _check_blocks(s: Scenario) -> list[str]:
    problems: list[str] = []
    blocks = s.blocks
    if len(blocks) != 62:
        problems.append(f"blocks: {len(blocks)} blocks, the game has 62 (L65)")
    for dup in duplicates(b.id for b in blocks):
        problems.append(f"blocks: block id {dup} is used twice")
    for dup in duplicates(n.casefold() for b in blocks for n in (b.id, *b.aliases)):
        problems.append(f"blocks: block name or alias '{dup}' is not unique")
    for dup in duplicates(d.id for d in s.divisions):
        problems.append(f"blocks: division id {dup} is used twice")
    divisions = {d.id: d for d in s.divisions}
    members: dict[str, list[Block]] = defaultdict(list)
    for b in blocks:
        where = f"blocks: {b.id}"
        if (b.nationality == "soviet") != (b.side == "soviet"):
            problems.append(f"{where}: nationality {b.nationality} does not fit side {b.side}")
        if b.division is not None:
            division = divisions.get(b.division)
            if division is None:
                problems.append(f"{where}: unknown division {b.division}")
                continue
            members[b.division].append(b)
            if division.side != b.side:
                problems.append(f"{where}: side {b.side} differs from its division's ({division.side})")
            if division.nationality != b.nationality:
                problems.append(f"{where}: nationality differs from its division's ({division.nationality})")
    for d in s.divisions:
        if not members.get(d.id):
            problems.append(f"blocks: division {d.id} has no block")
        if not d.activation_marker:
            problems.append(f"blocks: division {d.id} must have an activation marker (L105, L176)")

    # rulebook hints
    pair = members.get("24", []) + members.get("50", [])
    if len(pair) != 6 or sum(b.sp for b in pair) != 21:
        problems.append(
            f"blocks: the 24th and 50th divisions must have 6 blocks of 21 SP together (L198, L308), "
            f"not {len(pair)} blocks of {sum(b.sp for b in pair)} SP"
        )
    if sum(1 for b in pair if b.sp == 4) < 2:
        problems.append("blocks: the 24th and 50th need at least two 4-SP blocks (L312)")
    if len(members.get("170", [])) != 2:
        problems.append(f"blocks: the 170th division must have 2 blocks (L196), not {len(members.get('170', []))}")
    for regiment in ("121", "122"):
        if not any(regiment in (b.id.split("/")[-1], *b.aliases) for b in members.get("50", [])):
            problems.append(f"blocks: the 50th division must include the {regiment}th regiment (L204)")
    by_name = {n.casefold(): b for b in blocks for n in (b.id, *b.aliases)}
    perekop, r54 = by_name.get("perekop"), by_name.get("54")
    if perekop is None or r54 is None:
        problems.append("blocks: the Soviet Perekop and 54th regiments must exist (L200, L308)")
    elif perekop.sp + r54.sp != 7:
        problems.append(f"blocks: Perekop and 54th must total 7 SP (L308), not {perekop.sp + r54.sp}")
    if "361" not in by_name or by_name["361"].side != "soviet":
        problems.append("blocks: the Soviet 361st regiment of the rulebook example must exist (L196)")
    nkvd = [b for b in blocks if "nkvd_extra_die" in b.special]
    if len(nkvd) != 1 or nkvd[0].side != "soviet":
        problems.append("blocks: exactly one Soviet block (the 456th NKVD) must have nkvd_extra_die (L276)")
    if not any(b.nationality == "romanian" and b.reinforcement is None for b in blocks):
        problems.append("blocks: the Axis starts with Romanian as well as German blocks (L65, L93)")

    # reinforcements (L414-423)
    groups = {g.id: g for g in s.reinforcements}
    for dup in duplicates(g.id for g in s.reinforcements):
        problems.append(f"blocks: reinforcement group {dup} is declared twice")
    in_groups: dict[str, str] = {}
    for g in s.reinforcements:
        for block_id in g.blocks:
            if block_id in in_groups:
                problems.append(f"blocks: block {block_id} is in two reinforcement groups")
            in_groups[block_id] = g.id
            b = next((x for x in blocks if x.id == block_id), None)
            if b is None:
                problems.append(f"blocks: reinforcement group {g.id} names unknown block {block_id}")
            elif b.side != g.side:
                problems.append(f"blocks: reinforcement group {g.id} ({g.side}) holds {b.side} block {block_id}")
            elif b.reinforcement != g.id:
                problems.append(f"blocks: block {block_id} is in group {g.id} but says reinforcement {b.reinforcement}")
    for b in blocks:
        if b.reinforcement is not None and in_groups.get(b.id) != b.reinforcement:
            problems.append(f"blocks: block {b.id} names reinforcement group {b.reinforcement}, which does not list it")
    expected = {
        "axis": [(2, 1), (3, 2), (1, 1)],  # (blocks, VP cost) of 4th Rom Mtn, 46th, 420th (L418-421)
        "soviet": [(1, 0), (1, 0)],  # 138th then 142nd brigade (L414)
    }
    for side, shape in expected.items():
        found = s.reinforcement_groups(side)
        if [(len(g.blocks), g.vp_cost) for g in found] != shape:
            problems.append(
                f"blocks: {side} reinforcement groups in order must have (blocks, VP cost) {shape} "
                f"(L414-421), not {[(len(g.blocks), g.vp_cost) for g in found]}"
            )
        orders = [g.order for g in found]
        if orders != list(range(1, len(found) + 1)):
            problems.append(f"blocks: {side} reinforcement orders must be 1..{len(found)}, not {orders}")
    soviet = s.reinforcement_groups("soviet")
    if [g.blocks for g in soviet] != [("138",), ("142",)]:
        problems.append("blocks: the Soviet reinforcements are the 138th then the 142nd brigade (L414)")
    axis_ids = [g.id for g in s.reinforcement_groups("axis")]
    if axis_ids != ["4RM", "46", "420"]:
        problems.append(f"blocks: Axis reinforcement groups must be 4RM, 46, 420 in that order (L418-421), not {axis_ids}")
    for gid in groups:
        if gid not in {"4RM", "46", "420", "138", "142"}:
            problems.append(f"blocks: unexpected reinforcement group {gid}")
    return problems


CARD_TYPES = {
    "assault": ({"axis", "soviet"}, {"assault"}),
    "counterattack": ({"axis", "soviet"}, {"assault", "reaction"}),
    "fighter_escort": ({"axis"}, {"reaction"}),
    "fighter_cover": ({"soviet"}, {"reaction", "order"}),
    "air_strike": ({"axis"}, {"order", "reaction"}),
    "redeployment": ({"axis", "soviet"}, {"order"}),
    "heavy_artillery": ({"axis"}, {"order"}),
    "superheavy_artillery": ({"axis"}, {"order"}),
    "soviet_coastal_artillery": ({"soviet"}, {"order"}),
    "soviet_field_artillery": ({"soviet"}, {"order"}),
    "axis_field_artillery": ({"axis"}, {"combat_support"}),
    "goliath": ({"axis"}, {"combat_support"}),
    "88mm": ({"axis"}, {"combat_support"}),
    "mortars": ({"soviet"}, {"combat_support"}),
    "minefield": ({"soviet"}, {"combat_support"}),
    "bunker": ({"soviet"}, {"combat_support"}),
}
"""Card type id -> (sides, labels) as fixed by the rulebook's Cards section (L431-517)."""


def _check_cards(s: Scenario) -> list[str]:
    problems: list[str] = []
    cards = {c.id: c for c in s.card_types}
    for dup in duplicates(c.id for c in s.card_types):
        problems.append(f"cards: card type {dup} is listed twice")
    for dup in duplicates(n.casefold() for c in s.card_types for n in (c.id, *c.aliases)):
        problems.append(f"cards: card name or alias '{dup}' is not unique")
    for card_id in sorted(set(CARD_TYPES) - set(cards)):
        problems.append(f"cards: card type {card_id} of the rulebook (L41-56) is missing")
    for card_id in sorted(set(cards) - set(CARD_TYPES)):
        problems.append(f"cards: unknown card type {card_id}")
    for card in s.card_types:
        where = f"cards: {card.id}"
        if card.id in CARD_TYPES:
            sides, labels = CARD_TYPES[card.id]
            if set(card.sides) != sides:
                problems.append(f"{where}: sides {sorted(card.sides)} differ from the rulebook's {sorted(sides)}")
            if set(card.labels) != labels:
                problems.append(f"{where}: labels {sorted(card.labels)} differ from the rulebook's {sorted(labels)}")
        for side in SIDES:
            n = card.count.get(side, 0)
            if n < 0:
                problems.append(f"{where}: negative count for {side}")
            if side in card.sides and n == 0:
                problems.append(f"{where}: belongs to the {side} deck but has count 0 there")
            if side not in card.sides and n:
                problems.append(f"{where}: has {n} cards in the {side} deck but is not a {side} card")
    total = sum(sum(c.count.values()) for c in s.card_types)
    if total != 63:
        problems.append(f"cards: {total} Command Cards, the game has 63 (L61)")
    fc = cards.get("fighter_cover")
    if fc is None or fc.count.get("soviet", 0) != 2:
        problems.append("cards: the Soviet deck must hold exactly 2 Fighter Cover cards (L445)")
    ca = cards.get("counterattack")
    if ca is None or not ca.count.get("axis", 0) > ca.count.get("soviet", 0):
        problems.append("cards: the Axis deck must hold more Counterattack cards than the Soviet deck (L441)")
    for side in SIDES:
        counts = {c.id: c.count.get(side, 0) for c in s.card_types}
        top = max(counts.values(), default=0)
        if counts.get("assault", 0) != top or sum(1 for v in counts.values() if v == top) > 1:
            problems.append(f"cards: Assault must be the most common card of the {side} deck (L168)")
    return problems


def _check_counters(s: Scenario) -> list[str]:
    problems: list[str] = []
    counters = {c.id: c for c in s.counters}
    for dup in duplicates(c.id for c in s.counters):
        problems.append(f"counters: counter type {dup} is listed twice")
    total = sum(c.count for c in s.counters)
    if total != 113:
        problems.append(f"counters: {total} counters and markers, the countersheet has 113 (L67)")
    fixed = {
        "pz3": (1, "L252"), "stug": (3, "L252"), "t26": (2, "L252"), "interdiction": (2, "L457"),
        "destroyed_battery": (4, "L346"), "turn": (1, "L104"), "vp": (2, "L102"),
    }
    for counter_id, (n, line) in fixed.items():
        got = counters[counter_id].count if counter_id in counters else 0
        if got != n:
            problems.append(f"counters: {counter_id} count is {got}, the rulebook implies {n} ({line})")
    for counter_id in ("axis_pioneer", "soviet_pioneer", "at", "minefield", "bunker", "no_trench",
                       "control", "current_combat", "division_activation"):
        if counter_id not in counters or counters[counter_id].count < 1:
            problems.append(f"counters: at least one {counter_id} counter is needed (L105, L224-262)")
    marker = counters.get("division_activation")
    if marker is not None and marker.count != len(s.divisions):
        problems.append(
            f"counters: {marker.count} divisional activation markers for {len(s.divisions)} divisions (L105)"
        )
    for counter_id in ("pz3", "stug", "t26", "axis_pioneer", "soviet_pioneer"):
        c = counters.get(counter_id)
        if c is not None and c.steps != 2:
            problems.append(f"counters: {counter_id} must have 2 steps (L236)")
    return problems


def _check_setup(s: Scenario) -> list[str]:
    problems: list[str] = []
    areas = {a.id: a for a in s.map.areas}
    blocks = {b.id: b for b in s.blocks}
    placed = [p.block for p in s.setup.placements]
    for dup in duplicates(placed):
        problems.append(f"set-up: block {dup} is placed more than once")
    stacks: dict[tuple[str, str], list[str]] = defaultdict(list)
    occupied: dict[str, set[str]] = defaultdict(set)
    for p in s.setup.placements:
        b = blocks.get(p.block)
        if b is None:
            problems.append(f"set-up: unknown block {p.block}")
            continue
        if b.reinforcement is not None:
            problems.append(f"set-up: reinforcement block {b.id} must wait off-map (L414, L423)")
        area = areas.get(p.area)
        if area is None:
            problems.append(f"set-up: block {b.id} is placed in unknown area {p.area}")
            continue
        stacks[(p.area, b.side)].append(b.id)
        occupied[p.area].add(b.side)
        if area.initial_control != b.side:
            problems.append(f"set-up: {b.side} block {b.id} starts in {p.area}, which the {area.initial_control} controls (L388)")
    for b in s.blocks:
        if b.reinforcement is None and b.id not in placed:
            problems.append(f"set-up: block {b.id} is not placed")
    for (area_id, side), ids in sorted(stacks.items()):
        if len(ids) > s.meta.stacking:
            problems.append(f"set-up: {len(ids)} {side} blocks in {area_id} ({', '.join(ids)}), the limit is {s.meta.stacking} (L95)")
    for area_id, sides in occupied.items():
        if len(sides) > 1:
            problems.append(f"set-up: both sides have blocks in {area_id}")
    # Axis rear: every Axis area must connect to the Axis map edge through Axis areas (L388).
    axis_areas = [a.id for a in s.map.areas if a.initial_control == "axis"]
    edges = [(b.a, b.b) for b in s.map.borders if b.kind != "ferry"
             and areas.get(b.a) is not None and areas.get(b.b) is not None
             and areas[b.a].initial_control == areas[b.b].initial_control == "axis"]
    edge_areas = {a.id for a in s.map.areas if a.axis_edge}
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
        graph[b].add(a)
    reach = set(edge_areas & set(axis_areas))
    queue = deque(reach)
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in reach:
                reach.add(nxt)
                queue.append(nxt)
    for area_id in axis_areas:
        if area_id not in reach:
            problems.append(f"set-up: Axis-controlled {area_id} is cut off from the Axis map edge (L388)")
    for asset in s.setup.assets:
        if asset.area not in areas:
            problems.append(f"set-up: asset {asset.counter} placed in unknown area {asset.area}")
        if asset.counter not in {c.id for c in s.counters}:
            problems.append(f"set-up: unknown asset counter {asset.counter}")
    return problems


def _check_meta(s: Scenario) -> list[str]:
    problems: list[str] = []
    m = s.meta
    numbers = [t.n for t in m.turns]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"scenario: turns must be numbered 1..{len(numbers)}, not {numbers}")
    for side in SIDES:
        if m.hand_size.get(side, 0) < 1:
            problems.append(f"scenario: hand size of {side} missing (L106)")
        if side not in m.vp_start:
            problems.append(f"scenario: VP start of {side} missing (L102)")
    if m.vp_start.get("soviet") != s.vp_total():
        problems.append(f"scenario: the Soviet starts with {m.vp_start.get('soviet')} VP but the banners total {s.vp_total()} (L112)")
    for key in ("soviet_reinforcement_first_turn", "axis_reinforcement_first_turn"):
        if getattr(m, key) > len(m.turns):
            problems.append(f"scenario: {key} is after the last turn")
    if not all(1 <= r <= 6 for r in m.soviet_reinforcement_roll):
        problems.append("scenario: soviet_reinforcement_roll must list die faces 1-6")
    return problems


@lru_cache(maxsize=4)
def scenario_named(name: str) -> Scenario:
    """The named scenario of the repository's data, loaded once per process (keyed by name)."""
    return load_scenario(name)


def check_scenario(name: str) -> None:
    """Load the named scenario afresh and validate it in full; raises ScenarioError listing the problems."""
    load_scenario(name)
