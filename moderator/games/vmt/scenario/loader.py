"""Reading a VMT scenario's YAML files into its model, and the entry points that load and check one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moderator.core.scenario_files import ScenarioFile, ScenarioKit, SchemaReader
from moderator.games.vmt.scenario.index import Scenario
from moderator.games.vmt.scenario.schema import (Block, CardType, CounterType, Division, MapData,
                                                 ReinforcementGroup, ScenarioMeta, Setup)
from moderator.games.vmt.scenario.validate import validate_scenario

FILES = (
    ScenarioFile("map", "map.yaml", ("geometry", "areas", "borders")),
    ScenarioFile("blocks", "blocks.yaml", ("divisions", "blocks", "reinforcements")),
    ScenarioFile("cards", "cards.yaml", ("card_types",)),
    ScenarioFile("counters", "counters.yaml", ("counters",)),
    ScenarioFile("setup", "setup-historical.yaml"),
)


def _fields(read: SchemaReader) -> dict[str, Any]:
    return {
        "meta": read.meta(ScenarioMeta),
        "map": read.file("map", MapData),
        "divisions": read.section("blocks", "divisions", tuple[Division, ...]),
        "blocks": read.section("blocks", "blocks", tuple[Block, ...]),
        "reinforcements": read.section("blocks", "reinforcements", tuple[ReinforcementGroup, ...]),
        "card_types": read.section("cards", "card_types", tuple[CardType, ...]),
        "counters": read.section("counters", "counters", tuple[CounterType, ...]),
        "setup": read.file("setup", Setup),
    }


KIT: ScenarioKit[Scenario] = ScenarioKit("vmt", "VMT", FILES, Scenario, _fields, validate_scenario)


def default_root() -> Path:
    return KIT.root()


def read_scenario(name: str = "campaign", root: Path | None = None) -> Scenario:
    """Read and schema-check the YAML files, without the cross-file validation; raises ScenarioError."""
    return KIT.read(name, root)


def load_scenario(name: str = "campaign", root: Path | None = None) -> Scenario:
    """Load and validate a VMT scenario; raise ScenarioError listing every problem found."""
    return KIT.load(name, root)


def check_scenario(name: str) -> None:
    """Load and fully validate (geometry included) the named VMT scenario; raises ScenarioError
    listing every problem."""
    KIT.check(name)
