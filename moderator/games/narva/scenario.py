"""Scenario data of Across the Narva: models, loader, validator and the lookups the engine uses.

The data lives in YAML files under ``scenarios/narva/`` (see ``PROVENANCE.md`` there).  The rulebook
gives the rules, the set-up and part of the reinforcement and chit schedules, but no map, no counter
values and none of the tables, so most values are reconstructions.  Every record carries a ``src``
mapping that gives, for each of its fields, either ``rulebook <section or line>`` or
``reconstructed: <why>``; `validate_scenario` rejects a missing or malformed provenance.  A club
that owns the physical game corrects a value by editing the YAML; the validator then says whether
the data still hangs together.

Files (all in the scenario root):

* ``scenario.yaml`` - metadata, turn record track, reinforcements, air arrivals, victory;
* ``map.yaml`` - grid, terrain of every hex, places, hex sets, entry areas, supply sources,
  rivers, ferries, bridges, roads and railways;
* ``units.yaml`` - formations, every counter, air units;
* ``setup.yaml`` - the historical set-up;
* ``tables.yaml`` - CRT, barrage tables, TEC, random events, PD track, replacements;
* ``chits.yaml`` - command groups and every command and action chit.

Lookups (`Scenario.hex`, `hexside`, `neighbours`, `unit`, `crt` ...) read plain dicts built once per
scenario object; they never re-validate.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Iterator, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from moderator.core.errors import ScenarioError
from moderator.core.provenance import PROVENANCE_PREFIXES, Record  # noqa: F401  (re-exported)
from moderator.core.scenario_files import (Ident, IndexedScenario, describe, duplicates, read_meta,
                                           read_yaml, scenario_root)
from moderator.maps.hexes import HexGrid, format_hex, hexside_key, is_hex_id, parse_hex

Side = Literal["german", "soviet"]
SIDES: tuple[Side, ...] = ("german", "soviet")
TerrainName = Literal["clear", "woods", "swamp", "hill", "village", "city", "lake", "sea"]
TERRAINS: tuple[str, ...] = ("clear", "woods", "swamp", "hill", "village", "city", "lake", "sea")
WATER = frozenset({"lake", "sea"})
RoadKind = Literal["rollbahn", "road", "track", "trail", "winter_trail"]
ROAD_KINDS: tuple[str, ...] = ("rollbahn", "road", "track", "trail", "winter_trail")
RailKind = Literal["major", "minor"]
ROUTE_KINDS: tuple[str, ...] = ROAD_KINDS + ("railway_major", "railway_minor")
UnitType = Literal["infantry", "mechanized", "armour", "assault_gun", "hq"]
MECHANIZED_TYPES = frozenset({"mechanized", "armour", "assault_gun"})
MoveClass = Literal["infantry", "mechanized"]
HexsideFeature = Literal["major_river_frozen", "major_river", "minor_river", "ferry", "bridge"]
HEXSIDE_FEATURES: tuple[str, ...] = ("major_river_frozen", "major_river", "minor_river", "ferry", "bridge")
ActionKind = Literal["barrage", "random_event", "stavka", "free_move", "withdraw_59", "shock_out_of_supply", "withdraw_214"]
EventEffect = Literal["barrage", "replacements", "move_formation", "none", "prolong_freeze", "air_recovery"]
Special = Literal["strachwitz", "merekula_landing", "first_2sh_activation"]
ENTRY_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H")
GERMAN_ENTRIES = frozenset({"A", "B", "C"})


#: The map areas the rules name and the validator requires.
REQUIRED_AREAS = ("narva", "ivangorod", "enclave", "vp_hills", "narva_joesuu", "krivasoo", "merekula", "merekula_landing")


# --------------------------------------------------------------------------------------------
# field types


def _hex_id(value: Any) -> Any:
    if isinstance(value, bool) or isinstance(value, (int, float)):
        raise ValueError(f"hex id {value!r} must be a quoted four-digit string such as '0131' (YAML reads 0131 as a number)")
    if not is_hex_id(value):
        raise ValueError(f"hex id {value!r} must be four digits CCRR")
    return value


_HEXSIDE_RE = re.compile(r"^\d{4}-\d{4}$")


def _hexside(value: Any) -> Any:
    if not isinstance(value, str) or not _HEXSIDE_RE.match(value):
        raise ValueError(f"hexside {value!r} must be written 'AAAA-BBBB'")
    return value


HexId = Annotated[str, BeforeValidator(_hex_id)]
Hexside = Annotated[str, BeforeValidator(_hexside)]
Cost = float | Literal["P"]


# --------------------------------------------------------------------------------------------
# map.yaml


class GridSpec(Record):
    EXEMPT = frozenset({"note"})

    columns: tuple[int, int]
    rows: tuple[int, int]
    parity: Literal["even", "odd"]
    rows_increase: Literal["north", "south"]
    km_per_hex: float = Field(gt=0)
    projection: str | None = None


class TerrainRow(Record):
    EXEMPT = frozenset({"row", "note"})

    row: int
    hexes: str


class TerrainGrid(Record):
    EXEMPT = frozenset({"note"})

    legend: dict[str, TerrainName]
    rows: tuple[TerrainRow, ...]


class Place(Record):
    EXEMPT = frozenset({"hex", "note"})

    hex: HexId
    name: str
    kind: Literal["city", "town", "village", "hill", "station", "manor", "label", "poi"]


class HexSet(Record):
    id: Ident
    hexes: tuple[HexId, ...] = Field(min_length=1)


class PreparedDefence(Record):
    EXEMPT = frozenset({"division", "note"})

    division: Ident
    hexes: tuple[HexId, ...] = Field(min_length=1)


class EntryArea(Record):
    id: Literal["A", "B", "C", "D", "E", "F", "G", "H"]
    side: Side
    hexes: tuple[HexId, ...] = Field(min_length=1)


class SupplySource(Record):
    EXEMPT = frozenset({"note"})

    side: Side
    hexes: tuple[HexId, ...] = Field(min_length=1)


class River(Record):
    id: Ident
    name: str
    kind: Literal["major", "minor"]
    never_frozen: bool = False
    hexsides: tuple[Hexside, ...] = Field(min_length=1)


class Ferry(Record):
    EXEMPT = frozenset({"note"})

    hexside: Hexside
    name: str


class Bridge(Record):
    EXEMPT = frozenset({"note"})

    hexside: Hexside
    name: str


class Road(Record):
    id: Ident
    kind: RoadKind
    hexes: tuple[HexId, ...] = Field(min_length=2)


class Railway(Record):
    id: Ident
    kind: RailKind
    hexes: tuple[HexId, ...] = Field(min_length=2)
    cut: tuple[Hexside, ...] = ()


class MapData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    grid: GridSpec
    terrain: TerrainGrid
    places: tuple[Place, ...]
    areas: tuple[HexSet, ...]
    prepared_defences: tuple[PreparedDefence, ...]
    entry_areas: tuple[EntryArea, ...]
    supply_sources: tuple[SupplySource, ...]
    rivers: tuple[River, ...]
    ferries: tuple[Ferry, ...]
    bridges: tuple[Bridge, ...]
    roads: tuple[Road, ...]
    railways: tuple[Railway, ...]


# --------------------------------------------------------------------------------------------
# units.yaml


class Strength(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    attack: int = Field(ge=0)
    defense: int = Field(ge=0)
    movement: int = Field(ge=0)


class Formation(Record):
    id: Ident
    side: Side
    name: str
    kind: Literal["army", "corps", "division", "group"]
    parent: Ident | None
    band: str | None
    ss: bool
    pd: bool
    hq: Ident | None


class Unit(Record):
    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    side: Side
    formation: Ident | None
    type: UnitType
    size: Literal["company", "battalion", "regiment", "brigade", "division", "corps", "army"]
    steps: int = Field(ge=0, le=2)
    full: Strength
    reduced: Strength | None
    zoc: bool
    ss: bool
    command_range: int | None = Field(default=None, ge=0)
    special: tuple[Special, ...] = ()
    needs_supply: bool = True
    note: str | None = None

    @property
    def is_hq(self) -> bool:
        return self.type == "hq"

    @property
    def is_combat(self) -> bool:
        return self.type != "hq"

    @property
    def movement_class(self) -> MoveClass:
        """HQs move as infantry (digest ruling 38); armour, mechanized and assault guns as mechanized."""
        return "mechanized" if self.type in MECHANIZED_TYPES else "infantry"

    def strength(self, reduced: bool = False) -> Strength:
        if reduced:
            if self.reduced is None:
                raise ValueError(f"{self.id} has no reduced side")
            return self.reduced
        return self.full


class AirUnit(Record):
    id: Ident
    name: str
    side: Side
    full: int = Field(ge=1)
    normal: int | None = Field(ge=1)


# --------------------------------------------------------------------------------------------
# setup.yaml


class Placement(Record):
    EXEMPT = frozenset({"unit", "note"})

    unit: Ident
    hex: HexId
    reduced: bool = False


class AirPlacement(Record):
    EXEMPT = frozenset({"unit", "note"})

    unit: Ident
    box: Literal["air_army_13", "luftwaffe"]


class Setup(Record):
    EXEMPT = frozenset({"id", "placements", "air", "note"})

    id: Ident
    name: str
    placements: tuple[Placement, ...]
    air: tuple[AirPlacement, ...]
    pd_markers: dict[Ident, int]


# --------------------------------------------------------------------------------------------
# scenario.yaml


class Turn(Record):
    EXEMPT = frozenset({"n", "note"})

    n: int = Field(ge=1)
    dates: str
    activations: dict[Side, int]
    weather: Literal["frozen", "thaw"]
    freeze_by_event: bool = False


class ReinforcementRow(Record):
    EXEMPT = frozenset({"note"})

    turn: int = Field(ge=1)
    side: Side
    entry: str
    parent: Ident
    units: tuple[Ident, ...] = Field(min_length=1)
    flexible: bool = False
    note: str | None = None


class AirReinforcement(Record):
    EXEMPT = frozenset({"note"})

    turn: int = Field(ge=1)
    side: Side
    units: tuple[Ident, ...] = Field(min_length=1)


class VictoryLevel(Record):
    EXEMPT = frozenset({"note"})

    min_vp: int = Field(ge=0)
    max_vp: int | None
    level: str
    historical: bool


class VPItem(Record):
    id: Ident
    vp: int = Field(ge=1)
    per: Literal["hex", "box"]
    basis: Literal["control", "occupation", "pd_track"]
    area: str


class Stacking(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    combat: int = Field(ge=1)
    hq: int = Field(ge=0)
    soviet_assault_gun: int = Field(ge=0)


class FirstTurn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    soviet_preplayed_chit: Ident
    soviet_combat_modifier: int


class ScenarioMeta(Record):
    EXEMPT = frozenset({"name", "files", "turns", "reinforcements", "air_reinforcements", "victory_levels",
                        "vp_items", "note"})

    name: Ident
    title: str
    files: dict[str, str]
    first_side: Side
    last_turn: int = Field(ge=1)
    stacking: Stacking
    first_turn: FirstTurn
    sudden_death_area: Ident
    turns: tuple[Turn, ...] = Field(min_length=1)
    reinforcements: tuple[ReinforcementRow, ...]
    air_reinforcements: tuple[AirReinforcement, ...]
    victory_levels: tuple[VictoryLevel, ...]
    vp_items: tuple[VPItem, ...]


# --------------------------------------------------------------------------------------------
# tables.yaml


class CrtColumn(Record):
    EXEMPT = frozenset({"index", "note"})

    index: int = Field(ge=1)
    german: str
    soviet: str


class CrtRow(Record):
    EXEMPT = frozenset({"die", "note"})

    die: int
    results: tuple[str, ...]
    barrage: str


class Crt(Record):
    EXEMPT = frozenset({"columns", "rows", "note"})

    die: Literal["1d6"]
    modified_rolls: Literal["clamp"]
    red_marker: Literal["*"]
    columns: tuple[CrtColumn, ...] = Field(min_length=1)
    rows: tuple[CrtRow, ...] = Field(min_length=1)


class BarrageRoll(Record):
    EXEMPT = frozenset({"side", "note"})

    side: Side
    results: dict[int, int]


class TerrainEffect(Record):
    EXEMPT = frozenset({"terrain", "note"})

    terrain: TerrainName
    move: dict[MoveClass, Cost]
    defense_multiplier: int = Field(ge=1)
    column_shift: int
    negate_first_loss: bool
    negate_first_retreat: bool
    stops_mech_advance: bool
    supply_trace: bool


class HexsideEffect(Record):
    EXEMPT = frozenset({"feature", "note"})

    feature: HexsideFeature
    move: dict[MoveClass, str]
    halves_attack: bool
    blocks_zoc: bool
    blocks_supply: bool


class RoadEffect(Record):
    EXEMPT = frozenset({"kind", "note"})

    kind: Literal["rollbahn", "road", "track", "trail", "winter_trail", "railway_major", "railway_minor"]
    move: float = Field(gt=0)
    strategic: float | None = Field(gt=0)
    exists: Literal["always", "frozen"]


class Ezoc(Record):
    EXEMPT = frozenset({"note"})

    enter: int = Field(ge=0)
    leave: int = Field(ge=0)


class RandomEvent(Record):
    EXEMPT = frozenset({"roll", "note"})

    roll: int
    name: str
    effect: EventEffect
    side: Side | None
    amount: int | None
    text: str


class PdTrack(Record):
    EXEMPT = frozenset({"note"})

    boxes: tuple[int, ...] = Field(min_length=2)
    start_box: int = Field(ge=0)
    end_of_turn_boxes: int = Field(ge=0)
    rp_boxes: int = Field(ge=0)


class Replacements(Record):
    EXEMPT = frozenset({"note"})

    rp_per_step: int = Field(ge=1)
    mechanized_rebuild: bool
    eliminated_one_step_return: bool
    eliminated_return_reduced: bool


class Tables(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    crt: Crt
    barrage_roll: tuple[BarrageRoll, ...]
    terrain: tuple[TerrainEffect, ...]
    hexsides: tuple[HexsideEffect, ...]
    roads: tuple[RoadEffect, ...]
    ezoc: Ezoc
    random_events: tuple[RandomEvent, ...]
    pd_track: PdTrack
    replacements: Replacements


# --------------------------------------------------------------------------------------------
# chits.yaml


class CommandGroup(Record):
    id: Ident
    side: Side
    name: str
    hqs: tuple[Ident, ...] = Field(min_length=1)
    extra_units: int = Field(ge=0)


class Chit(Record):
    id: Ident
    name: str
    kind: Literal["command", "action"]
    side: Literal["german", "soviet", "both"]
    group: Ident | None
    action: ActionKind | None
    enters: int = Field(ge=0)
    leaves: int | None
    note: str | None = None


# --------------------------------------------------------------------------------------------
# derived lookup records


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


@dataclass(frozen=True, slots=True)
class CombatResult:
    attacker_steps: int = 0
    attacker_retreat: int = 0
    defender_steps: int = 0
    defender_retreat: int = 0
    pinned: bool = False

    @property
    def code(self) -> str:
        parts = []
        if self.attacker_steps or self.attacker_retreat:
            parts.append("A" + (str(self.attacker_steps) if self.attacker_steps else "") +
                         (f"r{self.attacker_retreat}" if self.attacker_retreat else ""))
        if self.defender_steps or self.defender_retreat:
            parts.append("D" + (str(self.defender_steps) if self.defender_steps else "") +
                         (f"r{self.defender_retreat}" if self.defender_retreat else ""))
        if self.pinned:
            parts.append("P")
        return " ".join(parts) or "NR"


_PART_RE = re.compile(r"^(A|D)(\d*)(?:r(\d+))?(\*?)$")


def parse_result(code: str) -> tuple[CombatResult, CombatResult]:
    """A CRT cell -> (result as printed, result with the red attacker losses removed).

    Raises ValueError on malformed cells.
    """
    if not isinstance(code, str) or not code.strip():
        raise ValueError(f"empty CRT result {code!r}")
    text = code.strip()
    if text == "NR":
        nr = CombatResult()
        return nr, nr
    full = {"attacker_steps": 0, "attacker_retreat": 0, "defender_steps": 0, "defender_retreat": 0, "pinned": False}
    red = dict(full)
    seen: set[str] = set()
    for part in text.split():
        if part == "P":
            if "P" in seen:
                raise ValueError(f"CRT result {code!r} repeats P")
            seen.add("P")
            full["pinned"] = red["pinned"] = True
            continue
        m = _PART_RE.match(part)
        if not m:
            raise ValueError(f"CRT result {code!r}: cannot read {part!r}")
        who, steps, retreat, star = m.group(1), m.group(2), m.group(3), m.group(4)
        if who in seen:
            raise ValueError(f"CRT result {code!r} names {who} twice")
        seen.add(who)
        if not steps and not retreat:
            raise ValueError(f"CRT result {code!r}: {part!r} gives neither steps nor retreat")
        if star and (who != "A" or not steps):
            raise ValueError(f"CRT result {code!r}: only attacker step losses can be red (*)")
        n, r = int(steps or 0), int(retreat or 0)
        key = "attacker" if who == "A" else "defender"
        full[f"{key}_steps"], full[f"{key}_retreat"] = n, r
        red[f"{key}_steps"], red[f"{key}_retreat"] = (0 if star else n), r
    return CombatResult(**full), CombatResult(**red)


def _odds(text: str) -> Fraction:
    m = re.match(r"^(\d+)-(\d+)$", text.strip()) if isinstance(text, str) else None
    if not m or int(m.group(2)) == 0 or int(m.group(1)) == 0:
        raise ValueError(f"odds {text!r} must be written N-M")
    return Fraction(int(m.group(1)), int(m.group(2)))


# --------------------------------------------------------------------------------------------
# the scenario


class Scenario(IndexedScenario):
    """Everything the Across the Narva engine needs to start a game, with cached lookups."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    meta: ScenarioMeta
    map: MapData
    formations: tuple[Formation, ...]
    units: tuple[Unit, ...]
    air_units: tuple[AirUnit, ...]
    setup: Setup
    tables: Tables
    command_groups: tuple[CommandGroup, ...]
    chits: tuple[Chit, ...]

    # -- index (built once per object; frozen models only change through copies) ------------

    def _index(self) -> dict[str, Any]:
        # Read the private cache straight from pydantic's slot: going through the model's
        # __getattr__ on every lookup made the engine's hot loops several times slower.
        cache = self.__pydantic_private__["_cache"]
        if not cache:
            cache.update(_build_index(self))
        return cache

    @property
    def grid(self) -> HexGrid:
        return self._index()["grid"]

    # -- map ------------------------------------------------------------------------------------

    def hex_ids(self) -> tuple[str, ...]:
        """Every hex of the grid, column by column."""
        return self._index()["hex_ids"]

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self._index()["hexes"]

    def hex(self, hex_id: str) -> HexInfo:
        try:
            return self._index()["hexes"][hex_id]
        except KeyError:
            raise KeyError(f"no hex {hex_id!r} on the map") from None

    def terrain(self, hex_id: str) -> str:
        return self.hex(hex_id).terrain

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """On-map neighbours (water included), clockwise from north."""
        try:
            return self._index()["nbrs"][hex_id]
        except KeyError:
            raise KeyError(f"no hex {hex_id!r} on the map") from None

    def land_neighbours(self, hex_id: str) -> tuple[str, ...]:
        try:
            return self._index()["land_nbrs"][hex_id]
        except KeyError:
            raise KeyError(f"no hex {hex_id!r} on the map") from None

    def hexside(self, a: str, b: str) -> HexsideInfo:
        """Features of the side between adjacent on-map hexes `a` and `b` (either order)."""
        try:
            return self._index()["sides"][(a, b)]
        except KeyError:
            raise KeyError(f"{a} and {b} are not adjacent hexes of the map") from None

    def distance(self, a: str, b: str) -> int:
        axial = self._index()["axial"]
        try:
            q1, r1 = axial[a]
            q2, r2 = axial[b]
        except KeyError:
            return self._index()["grid"].distance(a, b)
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def west_of_narva(self, hex_id: str) -> bool:
        return self.hex(hex_id).west_of_narva

    def area_hexes(self, name: str) -> tuple[str, ...]:
        """Hexes of a named area: a map hex set id, ``entry:X``, ``west_bank_villages``,
        ``rollbahn_a_to_narva``, or a PD division id (``pd:11SS``)."""
        try:
            return self._index()["areas"][name]
        except KeyError:
            raise KeyError(f"no map area {name!r}") from None

    def entry_hexes(self, letter: str) -> tuple[str, ...]:
        return self.area_hexes(f"entry:{letter}")

    def supply_sources(self, side: Side) -> frozenset[str]:
        return self._index()["supply"][side]

    def pd_hexes(self, division: str) -> tuple[str, ...]:
        return self.area_hexes(f"pd:{division}")

    def rollbahn_vp_hexes(self) -> tuple[str, ...]:
        return self.area_hexes("rollbahn_a_to_narva")

    # -- TEC --------------------------------------------------------------------------------------

    def terrain_effect(self, terrain: str) -> TerrainEffect:
        return self._index()["tec_terrain"][terrain]

    def hexside_effect(self, feature: str) -> HexsideEffect:
        return self._index()["tec_sides"][feature]

    def road_effect(self, kind: str) -> RoadEffect:
        return self._index()["tec_roads"][kind]

    def move_cost(self, hex_id: str, movement_class: MoveClass) -> float | None:
        """MP to enter the hex off-road (None = prohibited)."""
        return self._index()["move_cost"][movement_class][hex_id]

    def legal_for(self, unit_id: str, hex_id: str) -> bool:
        """May this unit stand in this hex at all (terrain allows it, or a road/railway leads in)?"""
        info = self.hex(hex_id)
        if info.water:
            return False
        if self.move_cost(hex_id, self.unit(unit_id).movement_class) is not None:
            return True
        return bool(info.routes - {"winter_trail"})

    # -- units ------------------------------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        try:
            return self._index()["units"][unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r}") from None

    def find_unit(self, text: str, side: Side | None = None) -> Unit | None:
        """The unit whose id, name or alias is `text` (case-insensitive), if exactly one matches."""
        hits = self._index()["unit_names"].get(text.strip().casefold(), ())
        hits = tuple(u for u in hits if side is None or u.side == side)
        return hits[0] if len(hits) == 1 else None

    def units_of(self, side: Side) -> tuple[Unit, ...]:
        return self._index()["units_of"][side]

    def formation(self, formation_id: str) -> Formation:
        try:
            return self._index()["formations"][formation_id]
        except KeyError:
            raise KeyError(f"no formation {formation_id!r}") from None

    def formation_units(self, formation_id: str) -> tuple[Unit, ...]:
        return self._index()["formation_units"].get(formation_id, ())

    def air_unit(self, air_id: str) -> AirUnit:
        try:
            return self._index()["air"][air_id]
        except KeyError:
            raise KeyError(f"no air unit {air_id!r}") from None

    def setup_positions(self) -> dict[str, str]:
        """Unit id -> hex of the set-up (a fresh dict)."""
        return dict(self._index()["setup"])

    def setup_reduced(self) -> frozenset[str]:
        return self._index()["setup_reduced"]

    def reinforcements(self, turn: int, side: Side) -> tuple[ReinforcementRow, ...]:
        """Rows scheduled for this turn's Reinforcement Phase (flexible rows: their first turn)."""
        return self._index()["reinf"].get((turn, side), ())

    def air_reinforcements(self, turn: int, side: Side) -> tuple[str, ...]:
        return self._index()["air_reinf"].get((turn, side), ())

    # -- chits ------------------------------------------------------------------------------------

    def chit(self, chit_id: str) -> Chit:
        try:
            return self._index()["chits"][chit_id]
        except KeyError:
            raise KeyError(f"no chit {chit_id!r}") from None

    def command_group(self, group_id: str) -> CommandGroup:
        try:
            return self._index()["groups"][group_id]
        except KeyError:
            raise KeyError(f"no command group {group_id!r}") from None

    def chits_for(self, turn: int) -> tuple[Chit, ...]:
        """Chits in the cup by schedule during turn `turn`'s Command Phase.

        A chit entering on turn N is put in the cup in turn N's Reinforcement Phase and so is first
        drawable on turn N+1; start chits (enters 0) from turn 1; a chit that leaves on turn N is
        removed in turn N's Reinforcement Phase, after that turn's draws.  Event-driven removals
        (withdrawals, Stavka, 2SH out of supply) are the engine's business.
        """
        return self._index()["cup"].get(turn, ())

    def chits_entering(self, turn: int) -> tuple[Chit, ...]:
        """Chits added in turn `turn`'s Reinforcement Phase (0 = the start cup)."""
        return tuple(c for c in self.chits if c.enters == turn)

    def chits_leaving(self, turn: int) -> tuple[Chit, ...]:
        return tuple(c for c in self.chits if c.leaves == turn)

    # -- turn record track ---------------------------------------------------------------------

    def turn(self, n: int) -> Turn:
        try:
            return self._index()["turns"][n]
        except KeyError:
            raise KeyError(f"no turn {n}") from None

    def activation_limit(self, n: int, side: Side) -> int:
        return self.turn(n).activations[side]

    def frozen(self, n: int, freeze_extended: bool = False) -> bool:
        """Are major rivers (other than never-frozen ones) and the winter trail frozen on turn n?"""
        t = self.turn(n)
        return t.weather == "frozen" or (freeze_extended and t.freeze_by_event)

    # -- combat ------------------------------------------------------------------------------------

    def crt_columns(self) -> int:
        return self._index()["ncolumns"]

    def odds_column(self, side_attacking: Side, attack: int, defense: int) -> int | None:
        """The CRT column (1-based) for these totals on the attacker's odds line, before shifts.

        None if below the lowest column; the highest column if above it or if the defense is 0
        (rule 9.3.2).  Odds are rounded in the defender's favour (digest ruling 31).
        """
        columns = self._index()["odds"][side_attacking]
        if defense <= 0:
            return len(columns)
        ratio = Fraction(attack, defense)
        best = None
        for i, odds in enumerate(columns, start=1):
            if ratio >= odds:
                best = i
        return best

    def _cell(self, column: int, die: int) -> tuple[CombatResult, CombatResult]:
        idx = self._index()
        if not 1 <= column <= idx["ncolumns"]:
            raise ValueError(f"CRT column {column} out of range 1..{idx['ncolumns']}")
        die = min(max(die, idx["die_min"]), idx["die_max"])  # modified rolls: clamp (tables.yaml)
        return idx["crt_cells"][(column, die)]

    def crt_result(self, side_attacking: Side, column: int, die: int) -> CombatResult:
        """The CRT result for this column and (possibly modified) roll; red attacker losses apply
        only when the Soviets attack (9.1D)."""
        full, without_red = self._cell(column, die)
        return full if side_attacking == "soviet" else without_red

    def crt(self, side_attacking: Side, column: int, die: int) -> str:
        """Result code such as ``"A1 D1r1"`` or ``"NR"`` (see `crt_result`)."""
        return self.crt_result(side_attacking, column, die).code

    def barrage_result(self, die: int) -> CombatResult:
        idx = self._index()
        die = min(max(die, idx["die_min"]), idx["die_max"])
        return idx["barrage_cells"][die]

    def barrage_count(self, side: Side, die: int) -> int:
        return self._index()["barrage_roll"][side][die]

    def random_event(self, roll: int) -> RandomEvent:
        try:
            return self._index()["events"][roll]
        except KeyError:
            raise KeyError(f"no random event for roll {roll}") from None


# --------------------------------------------------------------------------------------------
# index


def _grid_of(s: Scenario) -> HexGrid:
    g = s.map.grid
    return HexGrid(g.parity, g.rows_increase)


def _terrain_map(s: Scenario) -> dict[str, str]:
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


def _river_sides(s: Scenario) -> dict[str, River]:
    out: dict[str, River] = {}
    for river in s.map.rivers:
        for side in river.hexsides:
            a, b = side.split("-")
            out.setdefault(hexside_key(a, b), river)
    return out


def _route_steps(s: Scenario) -> Iterator[tuple[str, str, str, str]]:
    """(kind, route id, hex, next hex) for every step of every road and railway."""
    for road in s.map.roads:
        for a, b in zip(road.hexes, road.hexes[1:]):
            yield road.kind, road.id, a, b
    for rail in s.map.railways:
        kind = f"railway_{rail.kind}"
        for a, b in zip(rail.hexes, rail.hexes[1:]):
            yield kind, rail.id, a, b


def _west_bank(s: Scenario, terrain: dict[str, str], grid: HexGrid) -> set[str]:
    """Land hexes reachable from the west map edge without crossing the Narva."""
    narva = {hexside_key(*side.split("-")) for r in s.map.rivers if r.name == "Narva" for side in r.hexsides}
    col0 = s.map.grid.columns[0]
    start = [h for h, t in terrain.items() if t not in WATER and parse_hex(h)[0] == col0]
    seen = set(start)
    queue = deque(start)
    while queue:
        h = queue.popleft()
        for n in grid.neighbours(h):
            if n in seen or terrain.get(n) in (None, *WATER):
                continue
            if hexside_key(h, n) in narva:
                continue
            seen.add(n)
            queue.append(n)
    return seen


def _rollbahn_a_to_narva(s: Scenario, narva: set[str]) -> tuple[str, ...]:
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


def _build_index(s: Scenario) -> dict[str, Any]:
    grid = _grid_of(s)
    g = s.map.grid
    terrain = _terrain_map(s)
    hex_ids = tuple(format_hex((c, r)) for c in range(g.columns[0], g.columns[1] + 1)
                    for r in range(g.rows[0], g.rows[1] + 1) if 0 <= c <= 99 and 0 <= r <= 99)
    on_map = set(hex_ids)
    west = _west_bank(s, terrain, grid)

    places: dict[str, list[str]] = defaultdict(list)
    for p in s.map.places:
        places[p.hex].append(p.name)
    routes: dict[str, set[str]] = defaultdict(set)
    side_routes: dict[str, set[str]] = defaultdict(set)
    for kind, _rid, a, b in _route_steps(s):
        routes[a].add(kind)
        routes[b].add(kind)
        side_routes[hexside_key(a, b)].add(kind)
    cuts = {hexside_key(*c.split("-")) for r in s.map.railways for c in r.cut}
    for key in cuts:  # the railway does not exist across its cut (rule 6.5B)
        side_routes[key] -= {"railway_major", "railway_minor"}
    supply = {side: frozenset(h for src in s.map.supply_sources if src.side == side for h in src.hexes) for side in SIDES}
    entry_of = {h: e.id for e in s.map.entry_areas for h in e.hexes}
    pd_of = {h: pd.division for pd in s.map.prepared_defences for h in pd.hexes}

    areas: dict[str, tuple[str, ...]] = {a.id: tuple(a.hexes) for a in s.map.areas}
    for e in s.map.entry_areas:
        areas[f"entry:{e.id}"] = tuple(e.hexes)
    for pd in s.map.prepared_defences:
        areas[f"pd:{pd.division}"] = tuple(pd.hexes)
    areas["west_bank_villages"] = tuple(h for h in hex_ids if terrain.get(h) == "village" and h in west)
    areas["rollbahn_a_to_narva"] = _rollbahn_a_to_narva(s, set(areas.get("narva", ())))
    areas["pd_track"] = ()
    area_of: dict[str, set[str]] = defaultdict(set)
    for name, hs in areas.items():
        for h in hs:
            area_of[h].add(name)

    col0, col1 = g.columns
    row0, row1 = g.rows
    low_row, high_row = ("south", "north") if g.rows_increase == "north" else ("north", "south")
    hexes: dict[str, HexInfo] = {}
    nbrs: dict[str, tuple[str, ...]] = {}
    land_nbrs: dict[str, tuple[str, ...]] = {}
    for h in hex_ids:
        c, r = parse_hex(h)
        t = terrain.get(h, "clear")
        ns = tuple(n for n in grid.neighbours(h) if n in on_map)
        nbrs[h] = ns
        land_nbrs[h] = tuple(n for n in ns if terrain.get(n) not in WATER)
        edges = set()
        if c == col0:
            edges.add("west")
        if c == col1:
            edges.add("east")
        if r == row0:
            edges.add(low_row)
        if r == row1:
            edges.add(high_row)
        src_side = next((side for side in SIDES if h in supply[side]), None)
        hexes[h] = HexInfo(
            id=h, col=c, row=r, terrain=t, water=t in WATER,
            coastal=t not in WATER and any(terrain.get(n) == "sea" for n in ns),
            west_of_narva=h in west, edges=frozenset(edges), places=tuple(places.get(h, ())),
            routes=frozenset(routes.get(h, ())), supply_source=src_side, entry_area=entry_of.get(h),
            pd_division=pd_of.get(h), areas=frozenset(area_of.get(h, ())),
        )

    rivers = _river_sides(s)
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

    tec_terrain = {t.terrain: t for t in s.tables.terrain}
    move_cost: dict[str, dict[str, float | None]] = {"infantry": {}, "mechanized": {}}
    for h in hex_ids:
        effect = tec_terrain.get(hexes[h].terrain)
        for mc in ("infantry", "mechanized"):
            cost = None if effect is None else effect.move.get(mc)  # type: ignore[call-overload]
            move_cost[mc][h] = None if cost in (None, "P") else float(cost)

    units = {u.id: u for u in s.units}
    unit_names: dict[str, list[Unit]] = defaultdict(list)
    for u in s.units:
        for name in {u.id, u.name, *u.aliases}:
            unit_names[name.casefold()].append(u)
    formation_units: dict[str, list[Unit]] = defaultdict(list)
    for u in s.units:
        if u.formation:
            formation_units[u.formation].append(u)
    reinf: dict[tuple[int, str], list[ReinforcementRow]] = defaultdict(list)
    for row in s.meta.reinforcements:
        reinf[(row.turn, row.side)].append(row)
    air_reinf: dict[tuple[int, str], list[str]] = defaultdict(list)
    for row in s.meta.air_reinforcements:
        air_reinf[(row.turn, row.side)].extend(row.units)
    cup = {n: tuple(c for c in s.chits if c.enters < n and (c.leaves is None or c.leaves >= n))
           for n in range(1, s.meta.last_turn + 1)}

    crt_cells: dict[tuple[int, int], tuple[CombatResult, CombatResult]] = {}
    barrage_cells: dict[int, CombatResult] = {}
    for row in s.tables.crt.rows:
        for i, code in enumerate(row.results, start=1):
            try:
                crt_cells[(i, row.die)] = parse_result(code)
            except ValueError:
                pass
        try:
            barrage_cells[row.die] = parse_result(row.barrage)[0]
        except ValueError:
            pass
    dice = [row.die for row in s.tables.crt.rows] or [1]
    odds: dict[str, list[Fraction]] = {"german": [], "soviet": []}
    for col in sorted(s.tables.crt.columns, key=lambda c: c.index):
        for side in SIDES:
            try:
                odds[side].append(_odds(getattr(col, side)))
            except ValueError:
                odds[side].append(Fraction(10**9))

    return {
        "grid": grid,
        "axial": {h: grid.to_axial(h) for h in hex_ids},
        "hex_ids": hex_ids,
        "hexes": hexes,
        "nbrs": nbrs,
        "land_nbrs": land_nbrs,
        "sides": sides,
        "areas": areas,
        "supply": supply,
        "tec_terrain": tec_terrain,
        "tec_sides": {h.feature: h for h in s.tables.hexsides},
        "tec_roads": {r.kind: r for r in s.tables.roads},
        "move_cost": move_cost,
        "units": units,
        "unit_names": {k: tuple(v) for k, v in unit_names.items()},
        "units_of": {side: tuple(u for u in s.units if u.side == side) for side in SIDES},
        "formations": {f.id: f for f in s.formations},
        "formation_units": {k: tuple(v) for k, v in formation_units.items()},
        "air": {a.id: a for a in s.air_units},
        "setup": {p.unit: p.hex for p in s.setup.placements},
        "setup_reduced": frozenset(p.unit for p in s.setup.placements if p.reduced),
        "reinf": {k: tuple(v) for k, v in reinf.items()},
        "air_reinf": {k: tuple(v) for k, v in air_reinf.items()},
        "chits": {c.id: c for c in s.chits},
        "groups": {g_.id: g_ for g_ in s.command_groups},
        "cup": cup,
        "turns": {t.n: t for t in s.meta.turns},
        "crt_cells": crt_cells,
        "ncolumns": len(s.tables.crt.columns),
        "barrage_cells": barrage_cells,
        "die_min": min(dice),
        "die_max": max(dice),
        "odds": odds,
        "barrage_roll": {b.side: dict(b.results) for b in s.tables.barrage_roll},
        "events": {e.roll: e for e in s.tables.random_events},
    }


# --------------------------------------------------------------------------------------------
# loading


def default_root() -> Path:
    return scenario_root("narva")


FILE_KEYS = {
    "map": ("map.yaml", {"grid", "terrain", "places", "areas", "prepared_defences", "entry_areas", "supply_sources",
                         "rivers", "ferries", "bridges", "roads", "railways"}),
    "units": ("units.yaml", {"formations", "units", "air_units"}),
    "setup": ("setup.yaml", None),
    "tables": ("tables.yaml", {"crt", "barrage_roll", "terrain", "hexsides", "roads", "ezoc", "random_events",
                               "pd_track", "replacements"}),
    "chits": ("chits.yaml", {"command_groups", "chits"}),
}


def read_scenario(name: str = "campaign", root: Path | None = None) -> Scenario:
    """Read and schema-check the YAML files, without the cross-file validation."""
    root = Path(root) if root is not None else default_root()
    meta_path, meta_raw = read_meta(root, name, "Across the Narva")
    files = meta_raw.get("files") or {}
    raw: dict[str, tuple[str, dict]] = {}
    problems: list[str] = []
    for key, (default, allowed) in FILE_KEYS.items():
        filename = files.get(key, default) if isinstance(files, dict) else default
        data = read_yaml(root / filename)
        if not isinstance(data, dict):
            raise ScenarioError(f"{filename}: expected a mapping at the top level")
        raw[key] = (filename, data)
        if allowed is not None:
            for k in sorted(set(data) - allowed):
                problems.append(f"{filename}: unknown top-level key '{k}'")

    def build(model: Any, data: Any, filename: str, prefix: str | None = None) -> Any:
        try:
            return TypeAdapter(model).validate_python(data if data is not None else ())
        except ValidationError as exc:
            problems.extend(describe(exc, filename, prefix))
            return None

    meta = build(ScenarioMeta, meta_raw, meta_path.name)
    map_file, map_raw = raw["map"]
    map_data = build(MapData, {k: map_raw.get(k) for k in FILE_KEYS["map"][1]}, map_file)
    units_file, units_raw = raw["units"]
    formations = build(tuple[Formation, ...], units_raw.get("formations"), units_file, "formations")
    units = build(tuple[Unit, ...], units_raw.get("units"), units_file, "units")
    air_units = build(tuple[AirUnit, ...], units_raw.get("air_units"), units_file, "air_units")
    setup_file, setup_raw = raw["setup"]
    setup = build(Setup, setup_raw, setup_file)
    tables_file, tables_raw = raw["tables"]
    tables = build(Tables, {k: tables_raw.get(k) for k in FILE_KEYS["tables"][1]}, tables_file)
    chits_file, chits_raw = raw["chits"]
    groups = build(tuple[CommandGroup, ...], chits_raw.get("command_groups"), chits_file, "command_groups")
    chits = build(tuple[Chit, ...], chits_raw.get("chits"), chits_file, "chits")
    if problems:
        raise ScenarioError("Across the Narva scenario data does not match the schema:\n  " + "\n  ".join(problems))
    return Scenario(meta=meta, map=map_data, formations=formations, units=units, air_units=air_units, setup=setup,
                    tables=tables, command_groups=groups, chits=chits)


def load_scenario(name: str = "campaign", root: Path | None = None) -> Scenario:
    """Load and validate an Across the Narva scenario; raise ScenarioError listing every problem."""
    scenario = read_scenario(name, root)
    problems = validate_scenario(scenario)
    if problems:
        raise ScenarioError("Across the Narva scenario data is inconsistent:\n  " + "\n  ".join(problems))
    return scenario


# --------------------------------------------------------------------------------------------
# validation


def validate_scenario(s: Scenario) -> list[str]:
    """Every problem found in the scenario data, as sentences; empty when the data is valid."""
    problems: list[str] = []
    problems += _check_provenance(s)
    grid_problems = _check_grid(s)
    problems += grid_problems
    problems += _check_places_and_areas(s)
    problems += _check_hexsides(s)
    problems += _check_routes(s)
    problems += _check_map_features(s)
    problems += _check_units(s)
    problems += _check_setup(s)
    problems += _check_reinforcements(s)
    problems += _check_chits(s)
    problems += _check_tables(s)
    problems += _check_turns(s)
    problems += _check_victory(s)
    return problems


def _records(s: Scenario) -> Iterator[tuple[str, Record]]:
    m = s.meta
    yield "scenario.yaml", m
    for t in m.turns:
        yield f"scenario.yaml turn {t.n}", t
    for i, r in enumerate(m.reinforcements):
        yield f"scenario.yaml reinforcement row {i + 1} (turn {r.turn} {r.side} {r.entry})", r
    for i, r in enumerate(m.air_reinforcements):
        yield f"scenario.yaml air reinforcement row {i + 1}", r
    for v in m.victory_levels:
        yield f"scenario.yaml victory level {v.level}", v
    for v in m.vp_items:
        yield f"scenario.yaml vp item {v.id}", v
    mp = s.map
    yield "map.yaml grid", mp.grid
    yield "map.yaml terrain", mp.terrain
    for r in mp.terrain.rows:
        yield f"map.yaml terrain row {r.row}", r
    for p in mp.places:
        yield f"map.yaml place {p.name} {p.hex}", p
    for a in mp.areas:
        yield f"map.yaml area {a.id}", a
    for pd in mp.prepared_defences:
        yield f"map.yaml prepared defences {pd.division}", pd
    for e in mp.entry_areas:
        yield f"map.yaml entry area {e.id}", e
    for src in mp.supply_sources:
        yield f"map.yaml supply sources {src.side}", src
    for r in mp.rivers:
        yield f"map.yaml river {r.id}", r
    for f in mp.ferries:
        yield f"map.yaml ferry {f.hexside}", f
    for b in mp.bridges:
        yield f"map.yaml bridge {b.hexside}", b
    for r in mp.roads:
        yield f"map.yaml road {r.id}", r
    for r in mp.railways:
        yield f"map.yaml railway {r.id}", r
    for f in s.formations:
        yield f"units.yaml formation {f.id}", f
    for u in s.units:
        yield f"units.yaml unit {u.id}", u
    for a in s.air_units:
        yield f"units.yaml air unit {a.id}", a
    yield "setup.yaml", s.setup
    for p in s.setup.placements:
        yield f"setup.yaml placement {p.unit}", p
    for p in s.setup.air:
        yield f"setup.yaml air {p.unit}", p
    t = s.tables
    yield "tables.yaml crt", t.crt
    for c in t.crt.columns:
        yield f"tables.yaml crt column {c.index}", c
    for r in t.crt.rows:
        yield f"tables.yaml crt row {r.die}", r
    for b in t.barrage_roll:
        yield f"tables.yaml barrage roll {b.side}", b
    for e in t.terrain:
        yield f"tables.yaml terrain {e.terrain}", e
    for e in t.hexsides:
        yield f"tables.yaml hexside {e.feature}", e
    for e in t.roads:
        yield f"tables.yaml road {e.kind}", e
    yield "tables.yaml ezoc", t.ezoc
    for e in t.random_events:
        yield f"tables.yaml random event {e.roll}", e
    yield "tables.yaml pd_track", t.pd_track
    yield "tables.yaml replacements", t.replacements
    for g in s.command_groups:
        yield f"chits.yaml command group {g.id}", g
    for c in s.chits:
        yield f"chits.yaml chit {c.id}", c


def _check_provenance(s: Scenario) -> list[str]:
    problems: list[str] = []
    for where, record in _records(s):
        problems += record.provenance_problems(where)
    return problems


def _check_grid(s: Scenario) -> list[str]:
    problems: list[str] = []
    g = s.map.grid
    (c0, c1), (r0, r1) = g.columns, g.rows
    if not (0 <= c0 <= c1 <= 99 and 0 <= r0 <= r1 <= 99):
        return [f"map: grid columns {g.columns} / rows {g.rows} are not a valid CCRR extent"]
    width = c1 - c0 + 1
    legend = s.map.terrain.legend
    for ch in legend:
        if len(ch) != 1:
            problems.append(f"map: terrain legend key {ch!r} must be a single character")
    rows = [r.row for r in s.map.terrain.rows]
    for dup in duplicates(str(r) for r in rows):
        problems.append(f"map: terrain row {dup} is given twice")
    for r in range(r0, r1 + 1):
        if r not in rows:
            problems.append(f"map: terrain row {r:02d} is missing: every hex of the grid needs a terrain")
    for row in s.map.terrain.rows:
        if not r0 <= row.row <= r1:
            problems.append(f"map: terrain row {row.row} is outside the grid rows {r0}-{r1}")
            continue
        if len(row.hexes) != width:
            problems.append(f"map: terrain row {row.row:02d} has {len(row.hexes)} hexes, the grid has {width} columns")
        for i, ch in enumerate(row.hexes):
            if ch not in legend:
                problems.append(f"map: hex {format_hex((c0 + i, row.row)) if c0 + i <= 99 else '?'} has terrain "
                                f"character {ch!r}, which is not in the legend")
    used = set(_terrain_map(s).values())
    for t in ("clear", "city", "sea"):
        if t not in used:
            problems.append(f"map: no {t} hex at all")
    return problems


def _check_places_and_areas(s: Scenario) -> list[str]:
    problems: list[str] = []
    terrain = _terrain_map(s)
    for p in s.map.places:
        if not s.on_map(p.hex):
            problems.append(f"map: place {p.name} is in hex {p.hex}, which is not on the map")
    for dup in duplicates(a.id for a in s.map.areas):
        problems.append(f"map: area {dup} is defined twice")
    areas = {a.id: a for a in s.map.areas}
    for name in REQUIRED_AREAS:
        if name not in areas:
            problems.append(f"map: the area '{name}' that the rules name is missing")
    for a in s.map.areas:
        for h in a.hexes:
            if not s.on_map(h):
                problems.append(f"map: area {a.id} names hex {h}, which is not on the map")
            elif terrain.get(h) in WATER:
                problems.append(f"map: area {a.id} names water hex {h}")
        for dup in duplicates(a.hexes):
            problems.append(f"map: area {a.id} lists hex {dup} twice")

    def area(name: str) -> tuple[str, ...]:
        return areas[name].hexes if name in areas else ()

    if areas.get("narva") and sorted(area("narva")) != ["2930", "3028", "3029", "3030"]:
        problems.append(f"map: Narva must be hexes 3030, 3029, 3028 and 2930 (rulebook 13.1A), not {list(area('narva'))}")
    for h in area("narva"):
        if terrain.get(h) != "city":
            problems.append(f"map: Narva hex {h} must be city terrain (rulebook 6.3D, 13.1)")
    if areas.get("ivangorod") and sorted(area("ivangorod")) != ["3129", "3130", "3131"]:
        problems.append(f"map: Ivangorod must be hexes 3129, 3130, 3131 (rulebook 13.3)")
    if areas.get("vp_hills") and sorted(area("vp_hills")) != ["1429", "1530", "1629"]:
        problems.append("map: the VP hills must be 1429, 1530, 1629 (rulebook 13.3)")
    for h in area("vp_hills"):
        if terrain.get(h) != "hill":
            problems.append(f"map: VP hill {h} must be hill terrain (rulebook 13.3)")
    if areas.get("narva_joesuu") and list(area("narva_joesuu")) != ["2337"]:
        problems.append("map: Narva-Joesuu must be hex 2337 (rulebook 13.3)")
    if areas.get("krivasoo") and list(area("krivasoo")) != ["1820"]:
        problems.append("map: Krivasoo must be hex 1820 (rulebook 13.3)")
    grid = _grid_of(s)

    def coastal(h: str) -> bool:
        return terrain.get(h) not in (None, *WATER) and any(terrain.get(n) == "sea" for n in grid.neighbours(h))

    mer = area("merekula")
    if areas.get("merekula"):
        if len(mer) != 2:
            problems.append(f"map: Merekula must be two hexes (rulebook 8.6A), not {len(mer)}")
        for h in mer:
            if not coastal(h):
                problems.append(f"map: Merekula hex {h} must be coastal (rulebook 8.6)")
        if len(mer) == 2 and not grid.adjacent(*mer):
            problems.append("map: the two Merekula hexes must be adjacent")
    landing = area("merekula_landing")
    if areas.get("merekula_landing"):
        if len(landing) != 2:
            problems.append(f"map: merekula_landing must be the two coastal hexes next to the village (8.6A), not {len(landing)}")
        for h in landing:
            if h in mer:
                problems.append(f"map: landing hex {h} is itself a Merekula hex")
            if not coastal(h):
                problems.append(f"map: landing hex {h} must be coastal (rulebook 8.6A)")
            if mer and not any(grid.adjacent(h, m) for m in mer):
                problems.append(f"map: landing hex {h} must be adjacent to Merekula (rulebook 8.6A)")
    pd_hexes = {h for pd in s.map.prepared_defences for h in pd.hexes}
    enclave = set(area("enclave"))
    if areas.get("enclave"):
        for h in sorted(pd_hexes - enclave):
            problems.append(f"map: PD hex {h} must be part of the enclave (rule 6.3D: 'inclusive')")
    return problems


def _check_hexsides(s: Scenario) -> list[str]:
    """Rivers, ferries and bridges: well formed, adjacent, on land; bridges exactly where routes cross rivers."""
    problems: list[str] = []
    grid = _grid_of(s)
    terrain = _terrain_map(s)

    def side_ok(label: str, side: str) -> str | None:
        a, b = side.split("-")
        for h in (a, b):
            if not s.on_map(h):
                problems.append(f"map: {label} {side} names hex {h}, which is not on the map")
                return None
        if not grid.adjacent(a, b):
            problems.append(f"map: {label} {side} does not join two adjacent hexes")
            return None
        if terrain.get(a) in WATER or terrain.get(b) in WATER:
            problems.append(f"map: {label} {side} touches a water hex")
        return hexside_key(a, b)

    for dup in duplicates(r.id for r in s.map.rivers):
        problems.append(f"map: river id {dup} is used twice")
    owner: dict[str, str] = {}
    kind: dict[str, str] = {}
    for river in s.map.rivers:
        if river.never_frozen and river.kind != "major":
            problems.append(f"map: river {river.id}: only major rivers can be never-frozen (rule 6.2.2C)")
        for side in river.hexsides:
            key = side_ok(f"river {river.id} hexside", side)
            if key is None:
                continue
            if key in owner:
                problems.append(f"map: hexside {key} belongs to river {owner[key]} and river {river.id}")
                continue
            owner[key] = river.id
            kind[key] = river.kind
    if not any(r.name == "Narva" and r.kind == "major" for r in s.map.rivers):
        problems.append("map: the major river Narva is missing")
    if not any(r.name == "Narva" and r.never_frozen for r in s.map.rivers):
        problems.append("map: no never-frozen stretch of the Narva (rule 6.2.2C)")

    crossed: dict[str, str] = {}
    for route_kind, rid, a, b in _route_steps(s):
        if s.on_map(a) and s.on_map(b) and grid.adjacent(a, b):
            key = hexside_key(a, b)
            if key in owner:
                crossed.setdefault(key, rid)
    listed: set[str] = set()
    for bridge in s.map.bridges:
        key = side_ok("bridge", bridge.hexside)
        if key is None:
            continue
        if key in listed:
            problems.append(f"map: bridge {key} is listed twice")
        listed.add(key)
        if key not in owner:
            problems.append(f"map: bridge {key} is not on a river")
        elif key not in crossed:
            problems.append(f"map: bridge {key} has no road or railway crossing the river there (rule 2.2.8A)")
    for key, rid in sorted(crossed.items()):
        if key not in listed:
            problems.append(f"map: {rid} crosses river {owner[key]} at {key} but no bridge is listed there (rule 2.2.8A)")
    seen_ferries: set[str] = set()
    for ferry in s.map.ferries:
        key = side_ok("ferry", ferry.hexside)
        if key is None:
            continue
        if key in seen_ferries:
            problems.append(f"map: ferry {key} is listed twice")
        seen_ferries.add(key)
        if kind.get(key) != "major":
            problems.append(f"map: ferry {key} ({ferry.name}) is not on a major river (rule 6.2.2.2)")
        if key in listed:
            problems.append(f"map: ferry {key} ({ferry.name}) is on a bridged hexside")
    return problems


def _check_routes(s: Scenario) -> list[str]:
    problems: list[str] = []
    grid = _grid_of(s)
    terrain = _terrain_map(s)
    ids = [r.id for r in s.map.roads] + [r.id for r in s.map.railways]
    for dup in duplicates(ids):
        problems.append(f"map: road/railway id {dup} is used twice")
    other_routes: dict[str, set[str]] = defaultdict(set)
    for road in s.map.roads:
        for h in road.hexes:
            other_routes[h].add(road.kind)
    for rail in s.map.railways:
        for h in rail.hexes:
            other_routes[h].add("railway")
    for label, route in [(f"road {r.id}", r) for r in s.map.roads] + [(f"railway {r.id}", r) for r in s.map.railways]:
        for h in route.hexes:
            if not s.on_map(h):
                problems.append(f"map: {label} passes hex {h}, which is not on the map")
            elif terrain.get(h) in WATER:
                problems.append(f"map: {label} passes water hex {h}")
        for a, b in zip(route.hexes, route.hexes[1:]):
            if s.on_map(a) and s.on_map(b) and not grid.adjacent(a, b):
                problems.append(f"map: {label} jumps from {a} to {b}, which are not adjacent")
    for rail in s.map.railways:
        steps = {hexside_key(a, b) for a, b in zip(rail.hexes, rail.hexes[1:]) if s.on_map(a) and s.on_map(b)}
        for cut in rail.cut:
            a, b = cut.split("-")
            if hexside_key(a, b) not in steps:
                problems.append(f"map: railway {rail.id} is cut at {cut}, which is not a hexside of the line")
    for road in s.map.roads:
        if road.kind != "winter_trail":
            continue
        for h in road.hexes:
            if terrain.get(h) != "swamp" and other_routes[h] == {"winter_trail"}:
                problems.append(f"map: winter trail {road.id} crosses {h}, which is {terrain.get(h)}, not swamp "
                                f"(rule 6.2.1C: after the thaw its hexes are swamp)")
    if not any(r.kind == "rollbahn" for r in s.map.roads):
        problems.append("map: there is no rollbahn (rules 10.2.2, 13.3)")
    if not any(r.kind == "major" and r.cut for r in s.map.railways):
        problems.append("map: the German railway from entry area A must be shown cut (rule 6.5B)")
    return problems


def _check_map_features(s: Scenario) -> list[str]:
    problems: list[str] = []
    g = s.map.grid
    terrain = _terrain_map(s)
    idx = s._index()
    letters = [e.id for e in s.map.entry_areas]
    for dup in duplicates(letters):
        problems.append(f"map: entry area {dup} is defined twice")
    for letter in ENTRY_LETTERS:
        if letter not in letters:
            problems.append(f"map: entry area {letter} is missing (rulebook 13.3, 14.11)")
    for e in s.map.entry_areas:
        want = "german" if e.id in GERMAN_ENTRIES else "soviet"
        if e.side != want:
            problems.append(f"map: entry area {e.id} must be {want} (rulebook 8.4, 14.11)")
        for h in e.hexes:
            if not s.on_map(h):
                problems.append(f"map: entry area {e.id} hex {h} is not on the map")
                continue
            if terrain.get(h) in WATER:
                problems.append(f"map: entry area {e.id} hex {h} is water")
            edges = idx["hexes"][h].edges
            if e.side == "german" and "west" not in edges:
                problems.append(f"map: German entry area {e.id} hex {h} must be on the west map edge (rule 10.2.1B)")
            if e.side == "soviet" and not ({"east", "south"} & edges):
                problems.append(f"map: Soviet entry area {e.id} hex {h} must be on the east or south map edge (rule 10.2.1A)")
    for src in s.map.supply_sources:
        for h in src.hexes:
            if not s.on_map(h):
                problems.append(f"map: {src.side} supply source {h} is not on the map")
                continue
            edges = idx["hexes"][h].edges
            if src.side == "german" and "west" not in edges:
                problems.append(f"map: German supply source {h} must be on the west map edge (rule 10.2.1B)")
            if src.side == "soviet" and not ({"east", "south"} & edges):
                problems.append(f"map: Soviet supply source {h} must be on the east or south map edge (rule 10.2.1A)")
            if terrain.get(h) in WATER:
                problems.append(f"map: supply source {h} is water")
    for side in SIDES:
        if not idx["supply"][side]:
            problems.append(f"map: no {side} supply source")
    formations = {f.id: f for f in s.formations}
    for dup in duplicates(pd.division for pd in s.map.prepared_defences):
        problems.append(f"map: prepared defences of {dup} are listed twice")
    for pd in s.map.prepared_defences:
        f = formations.get(pd.division)
        if f is None or not f.pd:
            problems.append(f"map: PD hexes belong to {pd.division}, which is not a division allowed in PD hexes (11.3)")
        for h in pd.hexes:
            if not s.on_map(h):
                problems.append(f"map: PD hex {h} is not on the map")
            elif idx["hexes"][h].west_of_narva:
                problems.append(f"map: PD hex {h} must be east of the Narva River (rule 11.3A)")
    if len(s.map.prepared_defences) != 2:
        problems.append("map: prepared defences for exactly the Nordland and Nederland divisions (11.3A)")
    west_edge_land = [h for h in idx["hex_ids"] if "west" in idx["hexes"][h].edges and not idx["hexes"][h].water]
    east_land = [h for h in idx["hex_ids"] if not idx["hexes"][h].water and not idx["hexes"][h].west_of_narva]
    if west_edge_land and not east_land:
        problems.append("map: the Narva does not separate a west bank from an east bank")
    for name, want in (("narva", True), ("vp_hills", True), ("ivangorod", False)):
        for h in idx["areas"].get(name, ()):
            if h in idx["hexes"] and idx["hexes"][h].west_of_narva != want:
                problems.append(f"map: {name} hex {h} must be {'west' if want else 'east'} of the Narva")
    if not idx["areas"]["rollbahn_a_to_narva"]:
        problems.append("map: the rollbahn must run from entry area A to Narva (rule 10.2.2, 13.3)")
    elif idx["areas"]["rollbahn_a_to_narva"][-1] != "2930":
        problems.append(f"map: the rollbahn must reach Narva at 2930 (rulebook 13.3), not {idx['areas']['rollbahn_a_to_narva'][-1]}")
    return problems


def _check_units(s: Scenario) -> list[str]:
    problems: list[str] = []
    all_ids = [u.id for u in s.units] + [a.id for a in s.air_units]
    for dup in duplicates(all_ids):
        problems.append(f"units: id {dup} is used twice")
    for side in SIDES:
        names: list[str] = []
        for u in s.units:
            if u.side == side:
                names.extend({u.id.casefold(), *(a.casefold() for a in u.aliases)})
        for dup in duplicates(names):
            problems.append(f"units: {side} name or alias '{dup}' is not unique")
    for dup in duplicates(f.id for f in s.formations):
        problems.append(f"units: formation id {dup} is used twice")
    formations = {f.id: f for f in s.formations}
    units = {u.id: u for u in s.units}
    for f in s.formations:
        if f.hq is not None:
            hq = units.get(f.hq)
            if hq is None:
                problems.append(f"units: formation {f.id} names HQ {f.hq}, which does not exist")
            elif not hq.is_hq or hq.formation != f.id:
                problems.append(f"units: formation {f.id} names {f.hq} as HQ, but it is not an HQ of {f.id}")
        if f.parent is not None:
            if f.side == "soviet" and (f.parent not in formations or formations[f.parent].kind != "army"):
                problems.append(f"units: Soviet formation {f.id} must belong to an army formation, not {f.parent}")
            if f.side == "german" and f.parent not in ("26", "43", "3SS"):
                problems.append(f"units: German formation {f.id} must belong to corps 26, 43 or 3SS, not {f.parent}")
    for u in s.units:
        where = f"units: {u.id}"
        if u.formation is not None:
            f = formations.get(u.formation)
            if f is None:
                problems.append(f"{where}: unknown formation {u.formation}")
            elif f.side != u.side:
                problems.append(f"{where}: side {u.side} differs from its formation's ({f.side})")
            elif f.ss and not u.ss:
                problems.append(f"{where}: a unit of the SS formation {f.id} must be SS")
        if u.is_hq:
            if u.steps != 0 or u.reduced is not None:
                problems.append(f"{where}: HQs have no steps (rule 9.4C)")
            if u.command_range is None:
                problems.append(f"{where}: an HQ needs a command range (rule 4.2.4)")
            if u.zoc:
                problems.append(f"{where}: HQs exert no ZOC (rule 5.2A)")
            if u.formation is None:
                problems.append(f"{where}: an HQ must head a formation")
        else:
            if u.steps not in (1, 2):
                problems.append(f"{where}: a combat unit has one or two steps, not {u.steps}")
            if (u.steps == 2) != (u.reduced is not None):
                problems.append(f"{where}: two-step units need a reduced side, one-step units none (rule 9.4.3)")
            if u.command_range is not None:
                problems.append(f"{where}: only HQs have a command range")
            want_zoc = u.type != "assault_gun" and u.full.attack >= 1
            if u.zoc != want_zoc:
                problems.append(f"{where}: zoc must be {want_zoc} (rule 5.2: HQs and Soviet assault guns have none, "
                                f"attack 1+ has one)")
            if u.full.movement < 1:
                problems.append(f"{where}: a combat unit needs a movement allowance")
            if u.reduced is not None and (u.reduced.attack > u.full.attack or u.reduced.defense > u.full.defense):
                problems.append(f"{where}: the reduced side is stronger than the full side")
        if u.type == "assault_gun" and u.side != "soviet":
            problems.append(f"{where}: assault guns are a Soviet unit type here (rule 7.1B)")
        if "strachwitz" in u.special and not u.is_hq:
            problems.append(f"{where}: only an HQ can be Strachwitz (rule 4.2.3)")
    if sum(1 for u in s.units if "strachwitz" in u.special) != 1:
        problems.append("units: exactly one HQ must be the Strachwitz HQ (rule 4.2.3)")
    if sum(1 for u in s.units if "merekula_landing" in u.special) != 1:
        problems.append("units: exactly one unit (the 260th MS) lands at Merekula (rule 8.6)")
    air = {a.id: a for a in s.air_units}
    if sum(1 for a in s.air_units if a.side == "german") != 1 or sum(1 for a in s.air_units if a.side == "soviet") != 6:
        problems.append("units: Germany has one air unit and the Soviets six (rule 12.0A)")
    bombers = [a for a in air.values() if a.normal is None]
    if len(bombers) != 1 or bombers[0].side != "soviet" or bombers[0].full != 3:
        problems.append("units: exactly one Soviet bomber is +3 full attack with no normal attack (rule 12.0C)")
    return problems


def _stack_problems(s: Scenario, where: str, stacks: dict[str, list[Unit]]) -> list[str]:
    problems: list[str] = []
    st = s.meta.stacking
    for h, us in sorted(stacks.items()):
        sides = {u.side for u in us}
        if len(sides) > 1:
            problems.append(f"{where}: units of both sides in {h}")
        combat = [u for u in us if u.is_combat and u.type != "assault_gun"]
        hqs = [u for u in us if u.is_hq]
        ags = [u for u in us if u.type == "assault_gun"]
        if len(combat) > st.combat:
            problems.append(f"{where}: {len(combat)} combat units in {h} ({', '.join(u.id for u in combat)}), "
                            f"the limit is {st.combat} (rule 7.1B)")
        if len(hqs) > st.hq:
            problems.append(f"{where}: {len(hqs)} HQs in {h}, the limit is {st.hq} (rule 7.1B)")
        if len(ags) > st.soviet_assault_gun:
            problems.append(f"{where}: {len(ags)} assault guns in {h}, the limit is {st.soviet_assault_gun} (rule 7.1B)")
    return problems


def _placement_problems(s: Scenario, where: str, u: Unit, h: str) -> list[str]:
    problems: list[str] = []
    if not s.on_map(h):
        return [f"{where}: {u.id} is placed in hex {h}, which is not on the map"]
    info = s.hex(h)
    if info.water:
        problems.append(f"{where}: {u.id} is placed in water hex {h} ({info.terrain}) (rule 6.3A)")
    elif not s.legal_for(u.id, h):
        problems.append(f"{where}: {u.id} ({u.movement_class}) may not stand in {h} ({info.terrain}, no road)")
    if u.side == "german":
        formation = s._index()["formations"].get(u.formation or "")
        if info.pd_division and not (formation and formation.pd):
            problems.append(f"{where}: {u.id} may not be in prepared-defence hex {h}: only Nordland and Nederland (6.3C)")
        if ("narva" in info.areas or "enclave" in info.areas) and not u.ss and not u.is_hq:
            problems.append(f"{where}: {u.id} is not SS and may not be in Narva or the enclave ({h}, rule 6.3D)")
    return problems


def _check_setup(s: Scenario) -> list[str]:
    problems: list[str] = []
    units = {u.id: u for u in s.units}
    placed = [p.unit for p in s.setup.placements]
    for dup in duplicates(placed):
        problems.append(f"set-up: {dup} is placed twice")
    reinforced = {uid for r in s.meta.reinforcements for uid in r.units}
    stacks: dict[str, list[Unit]] = defaultdict(list)
    for p in s.setup.placements:
        u = units.get(p.unit)
        if u is None:
            problems.append(f"set-up: unknown unit {p.unit}")
            continue
        if p.unit in reinforced:
            problems.append(f"set-up: {p.unit} is placed at the start and also arrives as a reinforcement")
        if p.reduced and u.steps != 2:
            problems.append(f"set-up: {p.unit} sets up reduced but has {u.steps} step(s)")
        problems += _placement_problems(s, "set-up", u, p.hex)
        if s.on_map(p.hex):
            stacks[p.hex].append(u)
    problems += _stack_problems(s, "set-up", stacks)
    for u in s.units:
        if u.id not in placed and u.id not in reinforced:
            problems.append(f"units: {u.id} is neither set up nor a reinforcement")
    air = {a.id: a for a in s.air_units}
    air_placed = [p.unit for p in s.setup.air]
    air_reinf = [uid for r in s.meta.air_reinforcements for uid in r.units]
    for dup in duplicates(air_placed + air_reinf):
        problems.append(f"set-up: air unit {dup} appears twice")
    for p in s.setup.air:
        a = air.get(p.unit)
        if a is None:
            problems.append(f"set-up: unknown air unit {p.unit}")
        elif (a.side == "german") != (p.box == "luftwaffe"):
            problems.append(f"set-up: air unit {p.unit} is in the wrong box {p.box} (rule 2.1.4D)")
    for r in s.meta.air_reinforcements:
        for uid in r.units:
            if uid not in air:
                problems.append(f"scenario: air reinforcement {uid} is unknown")
            elif air[uid].side != r.side:
                problems.append(f"scenario: air reinforcement {uid} is listed for the wrong side")
    for a in s.air_units:
        if a.id not in air_placed and a.id not in air_reinf:
            problems.append(f"units: air unit {a.id} is neither set up nor a reinforcement (14.8)")
    pd_divisions = {pd.division for pd in s.map.prepared_defences}
    if set(s.setup.pd_markers) != pd_divisions:
        problems.append(f"set-up: PD markers {sorted(s.setup.pd_markers)} must match the PD divisions {sorted(pd_divisions)}")
    for div, box in s.setup.pd_markers.items():
        if not 0 <= box < len(s.tables.pd_track.boxes):
            problems.append(f"set-up: PD marker of {div} is in box {box}, off the track")
    return problems


def _check_reinforcements(s: Scenario) -> list[str]:
    problems: list[str] = []
    units = {u.id: u for u in s.units}
    entries = {e.id: e for e in s.map.entry_areas}
    formations = {f.id for f in s.formations}
    seen: list[str] = []
    for i, r in enumerate(s.meta.reinforcements, start=1):
        where = f"reinforcements: row {i} (turn {r.turn} {r.side} {r.entry})"
        if r.turn > s.meta.last_turn:
            problems.append(f"{where}: after the last turn")
        if r.parent != "IND" and r.parent not in formations:
            problems.append(f"{where}: unknown parent formation {r.parent}")
        if r.entry in entries:
            if entries[r.entry].side != r.side:
                problems.append(f"{where}: entry area {r.entry} belongs to the other side")
        elif r.entry not in ("supplied_hex", "merekula"):
            problems.append(f"{where}: unknown entry {r.entry!r} (A-H, supplied_hex or merekula)")
        for uid in r.units:
            seen.append(uid)
            u = units.get(uid)
            if u is None:
                problems.append(f"{where}: unknown unit {uid}")
                continue
            if u.side != r.side:
                problems.append(f"{where}: {uid} is a {u.side} unit")
            if (u.formation or "IND") != r.parent:
                problems.append(f"{where}: {uid} belongs to {u.formation or 'IND'}, not to parent {r.parent}")
            if r.entry == "supplied_hex" and not (u.is_hq and u.size == "army"):
                problems.append(f"{where}: only Soviet Army HQs are placed in any supplied hex (rule 4.2.5B)")
            if r.entry == "merekula" and "merekula_landing" not in u.special:
                problems.append(f"{where}: only the 260th MS lands at Merekula (rule 8.6)")
            if r.entry in entries:
                for h in entries[r.entry].hexes:
                    if s.on_map(h):
                        problems += _placement_problems(s, where, u, h)
            if r.entry == "merekula":
                for h in s._index()["areas"].get("merekula", ()) + s._index()["areas"].get("merekula_landing", ()):
                    problems += _placement_problems(s, where, u, h)
    for dup in duplicates(seen):
        problems.append(f"reinforcements: {dup} arrives twice")
    return problems


def _check_chits(s: Scenario) -> list[str]:
    problems: list[str] = []
    units = {u.id: u for u in s.units}
    for dup in duplicates(g.id for g in s.command_groups):
        problems.append(f"chits: command group {dup} is defined twice")
    for dup in duplicates(c.id for c in s.chits):
        problems.append(f"chits: chit id {dup} is used twice")
    groups = {g.id: g for g in s.command_groups}
    for g in s.command_groups:
        for hq in g.hqs:
            u = units.get(hq)
            if u is None:
                problems.append(f"chits: command group {g.id} names unknown HQ {hq}")
            elif not u.is_hq or u.side != g.side:
                problems.append(f"chits: command group {g.id} names {hq}, which is not a {g.side} HQ")
        if g.side == "soviet" and any(units.get(h) is not None and units[h].size != "army" for h in g.hqs):
            problems.append(f"chits: Soviet command chits activate Army HQs only (rule 2.3A), group {g.id}")
    german_hqs = {u.id for u in s.units if u.side == "german" and u.is_hq}
    covered = {h for g in s.command_groups if g.side == "german" for h in g.hqs}
    for hq in sorted(german_hqs - covered):
        problems.append(f"chits: German HQ {hq} can be activated by no command chit")
    for c in s.chits:
        where = f"chits: {c.id}"
        if c.kind == "command":
            g = groups.get(c.group or "")
            if g is None:
                problems.append(f"{where}: command chit with unknown group {c.group}")
            elif g.side != c.side:
                problems.append(f"{where}: side {c.side} differs from its group's ({g.side})")
            if c.action is not None:
                problems.append(f"{where}: a command chit has no action")
        else:
            if c.action is None:
                problems.append(f"{where}: an action chit needs an action")
            if c.group is not None:
                problems.append(f"{where}: an action chit belongs to no command group")
        if c.enters > s.meta.last_turn:
            problems.append(f"{where}: enters after the last turn")
        if c.leaves is not None and c.leaves < max(c.enters, 1):
            problems.append(f"{where}: leaves (turn {c.leaves}) before it can be drawn")
    actions = Counter((c.action, c.side) for c in s.chits if c.kind == "action")
    expected = {("barrage", "german"): 1, ("barrage", "soviet"): 2, ("stavka", "soviet"): 1,
                ("free_move", "soviet"): 1, ("withdraw_59", "soviet"): 1, ("shock_out_of_supply", "soviet"): 1,
                ("withdraw_214", "german"): 1, ("random_event", "both"): 1}
    for (action, side), n in expected.items():
        if actions.get((action, side), 0) != n:
            problems.append(f"chits: {n} {side} {action} chit(s) expected (rule 2.5), found {actions.get((action, side), 0)}")
    for gid, n in {"3SS": 2, "2SH": 4, "59": 3}.items():
        got = sum(1 for c in s.chits if c.group == gid)
        if got != n:
            problems.append(f"chits: {n} '{gid}' command chits expected (rulebook 14.9), found {got}")
    wer = [c for c in s.chits if c.group == "WER"]
    if not wer or any(c.leaves != 3 for c in wer):
        problems.append("chits: the Wehrmacht chit leaves in the Turn 3 Reinforcement Phase (rule 2.4.1B)")
    agn = groups.get("AGN")
    if agn is None or agn.extra_units != 2 or set(agn.hqs) != german_hqs:
        problems.append("chits: Army Group Narwa activates any German HQ plus two units (rule 2.4.2)")
    for special in ("KVO/HQ", "285S/HQ"):
        in_groups = [g.id for g in s.command_groups if special in g.hqs]
        if special in units and in_groups != ["AGN"]:
            problems.append(f"chits: {special} may be activated only by the Army Group Narwa chit (rule 4.1.1F), not {in_groups}")
    pre = s.meta.first_turn.soviet_preplayed_chit
    if pre not in groups or groups[pre].side != "soviet":
        problems.append(f"scenario: the pre-played Turn 1 chit {pre} must be a Soviet command group (14.10A)")
    return problems


def _check_tables(s: Scenario) -> list[str]:
    # The tables are a reconstruction; the values the rulebook does fix are checked here (ruling N-05).
    problems: list[str] = []
    crt = s.tables.crt
    indexes = [c.index for c in crt.columns]
    if indexes != list(range(1, len(indexes) + 1)):
        problems.append(f"tables: CRT columns must be numbered 1..{len(indexes)}, not {indexes}")
    for side in SIDES:
        try:
            odds = [_odds(getattr(c, side)) for c in sorted(crt.columns, key=lambda c: c.index)]
        except ValueError as exc:
            problems.append(f"tables: CRT {side} line: {exc}")
            continue
        if any(b <= a for a, b in zip(odds, odds[1:])):
            problems.append(f"tables: the CRT {side} odds line must increase column by column")
        if odds and odds[0] != Fraction(1, 2):
            problems.append(f"tables: the lowest CRT column of the {side} line must be 1-2 (rule 2.1.3C)")
    dice = [r.die for r in crt.rows]
    if sorted(dice) != list(range(1, 7)):
        problems.append(f"tables: the CRT needs one row for each roll 1-6 of {crt.die}, not {sorted(dice)}")
    has_pin = False
    for r in crt.rows:
        if len(r.results) != len(crt.columns):
            problems.append(f"tables: CRT row {r.die} has {len(r.results)} results for {len(crt.columns)} columns")
        for i, code in enumerate(r.results, start=1):
            try:
                full, _ = parse_result(code)
            except ValueError as exc:
                problems.append(f"tables: CRT row {r.die} column {i}: {exc}")
                continue
            if full.pinned:
                problems.append(f"tables: CRT row {r.die} column {i}: P (pinned) is a barrage result only")
        try:
            b, _ = parse_result(r.barrage)
            has_pin = has_pin or b.pinned
            if b.attacker_steps or b.attacker_retreat:
                problems.append(f"tables: barrage result for {r.die} has attacker effects")
        except ValueError as exc:
            problems.append(f"tables: barrage column row {r.die}: {exc}")
    if not has_pin:
        problems.append("tables: the barrage column must contain P (pinned) results (rule 2.5.1.3)")
    sides = [b.side for b in s.tables.barrage_roll]
    if sorted(sides) != sorted(SIDES):
        problems.append(f"tables: the Barrage Roll Table needs one line per side, not {sides}")
    for b in s.tables.barrage_roll:
        if sorted(b.results) != list(range(1, 7)):
            problems.append(f"tables: the {b.side} Barrage Roll Table must cover rolls 1-6")
        if any(n < 1 for n in b.results.values()):
            problems.append(f"tables: the {b.side} Barrage Roll Table gives fewer than one barrage")
    tec = {t.terrain: t for t in s.tables.terrain}
    for dup in duplicates(t.terrain for t in s.tables.terrain):
        problems.append(f"tables: TEC terrain {dup} is given twice")
    used = set(s.map.terrain.legend.values()) | set(_terrain_map(s).values())
    for t in sorted(used - set(tec)):
        problems.append(f"tables: the TEC has no entry for terrain {t}")
    for t in tec.values():
        if set(t.move) != {"infantry", "mechanized"}:
            problems.append(f"tables: TEC terrain {t.terrain} needs infantry and mechanized costs")
        if (t.terrain in WATER) != all(v == "P" for v in t.move.values()):
            problems.append(f"tables: TEC terrain {t.terrain}: only water is prohibited to every unit")
    for t in ("swamp", "hill"):
        if t in tec and tec[t].defense_multiplier != 2:
            problems.append(f"tables: {t} doubles the defense (rule 9.3C)")
    if "swamp" in tec and tec["swamp"].move.get("infantry") != 2:
        problems.append("tables: infantry pays 2 MP for swamp (rule 6.1 example)")
    if "city" in tec and not (tec["city"].negate_first_loss and tec["city"].negate_first_retreat):
        problems.append("tables: a city negates the first loss and the first retreat (rules 9.4.4, 9.5.6)")
    if "village" in tec and not tec["village"].negate_first_retreat:
        problems.append("tables: a village negates the first retreat (rule 9.5.6)")
    features = {h.feature for h in s.tables.hexsides}
    for f in HEXSIDE_FEATURES:
        if f not in features:
            problems.append(f"tables: the TEC has no entry for hexside feature {f}")
    for h in s.tables.hexsides:
        if set(h.move) != {"infantry", "mechanized"}:
            problems.append(f"tables: TEC hexside {h.feature} needs infantry and mechanized costs")
        for v in h.move.values():
            if not (v in ("P", "all") or re.match(r"^\+\d+$", v)):
                problems.append(f"tables: TEC hexside {h.feature} cost {v!r} must be P, all or +n")
        if h.feature in ("major_river_frozen", "major_river", "minor_river", "ferry", "bridge") and not h.halves_attack:
            problems.append(f"tables: attacks across {h.feature} are halved (rules 2.2.8B, 9.3C)")
    roads = {r.kind for r in s.tables.roads}
    used_routes = {r.kind for r in s.map.roads} | {f"railway_{r.kind}" for r in s.map.railways}
    for k in sorted((used_routes | set(ROUTE_KINDS)) - roads):
        problems.append(f"tables: the TEC has no entry for {k}")
    for r in s.tables.roads:
        if r.kind in ("trail", "winter_trail") and r.strategic is not None:
            problems.append(f"tables: {r.kind} cannot be used for strategic movement (rule 6.4.1B)")
        if r.kind == "winter_trail" and r.exists != "frozen":
            problems.append("tables: the winter trail exists only while frozen (rule 6.2.1C)")
    if (s.tables.ezoc.enter, s.tables.ezoc.leave) != (2, 2):
        problems.append("tables: EZOC costs are +2 to enter and +2 to leave (rule 5.1A)")
    rolls = sorted(e.roll for e in s.tables.random_events)
    if rolls != list(range(2, 13)):
        problems.append(f"tables: the Random Events Table needs the 11 results 2-12 of 2d6, not {rolls}")
    if not any(e.effect == "prolong_freeze" for e in s.tables.random_events):
        problems.append("tables: a random event must be able to prolong the freeze (rule 6.2.2B)")
    if not any(e.effect == "replacements" and e.side == "german" for e in s.tables.random_events):
        problems.append("tables: German replacements come from the Random Event Table (rule 11.2A)")
    for e in s.tables.random_events:
        if e.effect in ("barrage", "replacements", "move_formation", "air_recovery") and e.side is None:
            problems.append(f"tables: random event {e.roll} ({e.effect}) needs a side")
        if e.effect in ("barrage", "replacements") and not e.amount:
            problems.append(f"tables: random event {e.roll} ({e.effect}) needs an amount")
    pd = s.tables.pd_track
    if pd.boxes[-1] != 0 or any(b > a for a, b in zip(pd.boxes, pd.boxes[1:])):
        problems.append("tables: the PD track must not rise and must end in a zero box (rule 11.3.4A)")
    if not 0 <= pd.start_box < len(pd.boxes) or pd.boxes[pd.start_box] != 3:
        problems.append("tables: the PD markers start in the box of value 3 (rule 2.1.4E)")
    return problems


def _check_turns(s: Scenario) -> list[str]:
    problems: list[str] = []
    m = s.meta
    numbers = [t.n for t in m.turns]
    if m.last_turn != 12:
        problems.append(f"scenario: the game lasts 12 turns (rule 13.1B), not {m.last_turn}")
    if numbers != list(range(1, m.last_turn + 1)):
        problems.append(f"scenario: the turn record track must cover turns 1..{m.last_turn}, not {numbers}")
    command = [c for c in s.chits if c.kind == "command"]
    for t in m.turns:
        if set(t.activations) != set(SIDES):
            problems.append(f"scenario: turn {t.n} needs activation limits for both sides")
            continue
        cup = [c for c in command if c.enters < t.n and (c.leaves is None or c.leaves >= t.n)]
        for side in SIDES:
            limit = t.activations[side]
            in_cup = sum(1 for c in cup if c.side == side)
            if limit < 1:
                problems.append(f"scenario: turn {t.n} {side} activation limit must be at least 1")
            elif limit > in_cup:
                problems.append(f"scenario: turn {t.n} {side} may activate {limit} HQs but only {in_cup} "
                                f"command chits are in the cup")
        if t.n <= 7 and t.weather != "frozen":
            problems.append(f"scenario: turn {t.n} is frozen (rules 6.2.1C, 6.2.2B)")
        if t.n >= 8 and t.weather != "thaw":
            problems.append(f"scenario: turn {t.n} is thawed unless a random event extends the freeze (rule 6.2.2B)")
        if t.freeze_by_event and t.n != 8:
            problems.append(f"scenario: only Turn 8 can be frozen by random event (rule 6.2.2B), not turn {t.n}")
    t3 = next((t for t in m.turns if t.n == 3), None)
    if t3 is not None and t3.activations.get("german") != 2:
        problems.append("scenario: Germany activates two HQs on Turn 3 (rule 2.3 example)")
    if m.first_side != "soviet":
        problems.append("scenario: the Soviets move first (rule 14.10A)")
    return problems


def _check_victory(s: Scenario) -> list[str]:
    problems: list[str] = []
    idx = s._index()
    m = s.meta
    if m.sudden_death_area not in idx["areas"]:
        problems.append(f"scenario: the sudden death area {m.sudden_death_area} is not a map area")
    for dup in duplicates(v.id for v in m.vp_items):
        problems.append(f"scenario: VP item {dup} is listed twice")
    for v in m.vp_items:
        if v.basis == "pd_track":
            continue
        hexes = idx["areas"].get(v.area)
        if hexes is None:
            problems.append(f"scenario: VP item {v.id} names unknown area {v.area}")
            continue
        if not hexes:
            problems.append(f"scenario: VP item {v.id} area {v.area} has no hexes")
        for h in hexes:
            if h not in idx["hexes"]:
                problems.append(f"scenario: VP hex {h} of {v.id} is not on the map")
            elif idx["hexes"][h].water:
                problems.append(f"scenario: VP hex {h} of {v.id} is water")
    levels = sorted(m.victory_levels, key=lambda v: v.min_vp)
    if not levels or levels[0].min_vp != 0 or levels[-1].max_vp is not None:
        problems.append("scenario: victory levels must run from 0 VP to an open top level (rule 13.2)")
    for a, b in zip(levels, levels[1:]):
        if a.max_vp is None or a.max_vp + 1 != b.min_vp:
            problems.append(f"scenario: victory levels {a.level} and {b.level} leave a gap or overlap")
    if sum(1 for v in m.victory_levels if v.historical) != 1:
        problems.append("scenario: exactly one victory level is the historical result (rule 13.2)")
    return problems
