"""Scenario data of Von Manstein's Triumph (VMT): the pydantic models of the YAML files.

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

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from moderator.core.provenance import Record
from moderator.core.scenario_files import Ident, IndexedScenario

Side = Literal["axis", "soviet"]
SIDES: tuple[Side, ...] = ("axis", "soviet")
Nationality = Literal["german", "romanian", "soviet"]
Label = Literal["assault", "order", "combat_support", "reaction"]
BorderKind = Literal["land", "river", "ditch", "ferry"]

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
# the scenario's fields (its lookups are `index.Scenario`'s)


class ScenarioData(IndexedScenario):
    """Everything the VMT engine needs to start a game, as read from the files."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    meta: ScenarioMeta
    map: MapData
    divisions: tuple[Division, ...]
    blocks: tuple[Block, ...]
    reinforcements: tuple[ReinforcementGroup, ...]
    card_types: tuple[CardType, ...]
    counters: tuple[CounterType, ...]
    setup: Setup
