"""Scenario data of Across the Narva: the pydantic models of the YAML files.

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
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from moderator.core.provenance import Record
from moderator.core.scenario_files import Ident, IndexedScenario
from moderator.maps.hexes import is_hex_id

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
ActionKind = Literal["barrage", "random_event", "stavka", "free_move", "withdraw_59", "shock_out_of_supply",
                     "withdraw_214"]
EventEffect = Literal["barrage", "replacements", "move_formation", "none", "prolong_freeze", "air_recovery"]
Special = Literal["strachwitz", "merekula_landing", "first_2sh_activation"]
ENTRY_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H")
GERMAN_ENTRIES = frozenset({"A", "B", "C"})


# --------------------------------------------------------------------------------------------
# field types


def _hex_id(value: Any) -> Any:
    if isinstance(value, (bool, int, float)):
        raise ValueError(f"hex id {value!r} must be a quoted four-digit string such as '0131' "
                         f"(YAML reads 0131 as a number)")
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
# the scenario's fields (its lookups are `index.Scenario`'s)


class ScenarioData(IndexedScenario):
    """Everything the Across the Narva engine needs to start a game, as read from the files."""

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
