"""Reading a VMT scenario's YAML files into its model, and the entry points that load and check one."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from moderator.core.scenario_files import ScenarioFile, ScenarioKit, SchemaReader
from moderator.games.vmt.scenario.index import Scenario
from moderator.games.vmt.scenario.schema import (
    Block,
    CardType,
    CounterType,
    Division,
    MapData,
    ReinforcementGroup,
    ScenarioMeta,
    Setup,
)
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


# The game's entry points are the kit's: `read_scenario` (schema only), `load_scenario` (and validate)
# and `check_scenario(name)`, each raising ScenarioError that lists every problem found.
default_root = KIT.root
read_scenario = KIT.read
load_scenario = KIT.load
check_scenario = KIT.check


@lru_cache(maxsize=4)
def scenario_named(name: str) -> Scenario:
    """The named scenario of the repository's data, loaded once per process (keyed by name)."""
    return load_scenario(name)
