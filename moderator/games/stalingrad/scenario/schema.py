"""The Hell of Stalingrad scenario data: pydantic models of the YAML files in scenarios/stalingrad/.

Every record derives from `Record`: each field says where its value comes from in ``src``
(``rulebook §…`` or ``reconstructed: why``; see scenarios/stalingrad/PROVENANCE.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from moderator.core.provenance import Record
from moderator.core.scenario_files import Ident, IndexedScenario
from moderator.games.stalingrad.scenario.effects import EffectText

Side = Literal["german", "soviet"]
SIDES: tuple[Side, Side] = ("german", "soviet")
Doctrine = Literal["infantry", "tracked", "mixed"]
CardDoctrine = Literal["infantry", "tracked", "general"]


class ScenarioMeta(Record):
    EXEMPT = frozenset({"name", "files", "note"})

    name: Ident
    title: str
    files: dict[str, str]
    turns_basic: int = Field(ge=1)
    turns_advanced: int = Field(ge=1)
    skull_track: int = Field(ge=2)
    fire_track: int = Field(ge=1)
    bucket_track: int = Field(ge=1)
    volga_cards: int = Field(ge=4)
    leaders_per_side: int = Field(ge=1)
    starting_formations: int = Field(ge=1)
    basic_cards_per_side: int = Field(ge=1)
    break_test_kills: int = Field(ge=0)


class Counter(Record):
    """One kind of double-sided unit counter (§Units): elite side `id`, core side `core`."""

    id: Ident
    side: Side
    core: Ident
    shielded: bool
    terror: tuple[EffectText, ...]
    count: int = Field(ge=0)


class Commander(Record):
    id: Ident
    name: str
    side: Side
    hand: int = Field(ge=1)
    reload: tuple[EffectText, ...]
    replacement: Ident | None
    disgrace: bool
    players: Literal[2, 4]


class Formation(Record):
    EXEMPT = frozenset({"id", "aliases", "note", "side"})  # whose card it is: a key field

    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    side: Side
    kind: str
    doctrine: Doctrine | None = None
    shock: int | None = Field(default=None, ge=0)
    patriotism: int | None = Field(default=None, ge=0)
    depletion: str | None = None  # skull | mg N | star <Elite>
    vanguard: tuple[EffectText, ...]
    starting: bool
    unique: bool


class CombatCard(Record):
    EXEMPT = frozenset({"id", "aliases", "note", "side"})  # whose card it is: a key field

    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    side: Side
    rank: Literal["basic", "advanced"]
    copies: int = Field(ge=1)
    hero: bool = False
    doctrine: CardDoctrine | None = None
    value: int | None = Field(default=None, ge=0)
    effects: tuple[EffectText, ...]


class CampaignCard(Record):
    EXEMPT = frozenset({"id", "aliases", "note", "side"})  # whose card it is: a key field

    id: Ident
    side: Side
    name: str
    reinforcements: int
    hourglass: bool
    disgrace: bool
    effects: tuple[str, ...]


class Building(Record):
    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    district: Literal["A", "B", "C", "D"]
    terrain: Literal["ruin_hell", "river_bank"]
    concentration: int = Field(ge=1)
    defense: int = Field(ge=1, le=4)
    german_initiative: tuple[EffectText, ...]
    soviet_initiative: tuple[EffectText, ...]


class CarnageCard(Record):
    id: Ident
    intensity: int = Field(ge=1)
    initiative: Literal["stuka", "rat", "binoculars"]
    sniper: Literal["close_escape", "hit", "hideous_death"]
    hold: tuple[EffectText, EffectText]


class ScenarioData(IndexedScenario):
    """Everything the engine needs to start a game, as read from the files."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    meta: ScenarioMeta
    counters: tuple[Counter, ...]
    commanders: tuple[Commander, ...]
    formations: tuple[Formation, ...]
    cards: tuple[CombatCard, ...]
    campaign: tuple[CampaignCard, ...]
    buildings: tuple[Building, ...]
    carnage: tuple[CarnageCard, ...]
