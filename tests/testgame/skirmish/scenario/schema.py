"""Skirmish scenario data: the pydantic models of the YAML files in tests/testgame/skirmish/data/.

* ``scenario.yaml`` - the title, the number of turns (§4) and the names of the other files;
* ``map.yaml``      - the areas (§2: name, VP area, control at the start) and their borders;
* ``units.yaml``    - the units (§3: side, strength, the area each sets up in).

Every record derives from `Record`: each field says where its value comes from in ``src``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from moderator.core.provenance import Record
from moderator.core.scenario_files import Ident, IndexedScenario

Side = Literal["red", "blue"]
SIDES: tuple[Side, Side] = ("red", "blue")


class ScenarioMeta(Record):
    EXEMPT = frozenset({"name", "files", "note"})

    name: Ident
    title: str
    files: dict[str, str]
    turns: int = Field(ge=1)


class Area(Record):
    id: Ident
    name: str
    aliases: tuple[Ident, ...] = ()
    vp: bool
    control: Side | None


class Border(Record):
    areas: tuple[Ident, Ident]


class Unit(Record):
    id: Ident
    side: Side
    strength: int = Field(ge=1, le=3)  # §3
    area: Ident


class ScenarioData(IndexedScenario):
    """Everything the Skirmish engine needs to start a game, as read from the files."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    meta: ScenarioMeta
    areas: tuple[Area, ...]
    borders: tuple[Border, ...]
    units: tuple[Unit, ...]
