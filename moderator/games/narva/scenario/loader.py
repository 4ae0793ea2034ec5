"""Reading an Across the Narva scenario's YAML files into its model, and the entry points that load
and check one."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from moderator.core.scenario_files import ScenarioFile, ScenarioKit, SchemaReader
from moderator.games.narva.scenario.index import Scenario
from moderator.games.narva.scenario.schema import (
    AirUnit,
    Chit,
    CommandGroup,
    Formation,
    MapData,
    ScenarioMeta,
    Setup,
    Tables,
    Unit,
)
from moderator.games.narva.scenario.validate import validate_scenario

FILES = (
    ScenarioFile("map", "map.yaml", ("grid", "terrain", "places", "areas", "prepared_defences", "entry_areas",
                                     "supply_sources", "rivers", "ferries", "bridges", "roads", "railways")),
    ScenarioFile("units", "units.yaml", ("formations", "units", "air_units")),
    ScenarioFile("setup", "setup.yaml"),
    ScenarioFile("tables", "tables.yaml", ("crt", "barrage_roll", "terrain", "hexsides", "roads", "ezoc",
                                           "random_events", "pd_track", "replacements")),
    ScenarioFile("chits", "chits.yaml", ("command_groups", "chits")),
)


def _fields(read: SchemaReader) -> dict[str, Any]:
    return {
        "meta": read.meta(ScenarioMeta),
        "map": read.file("map", MapData),
        "formations": read.section("units", "formations", tuple[Formation, ...]),
        "units": read.section("units", "units", tuple[Unit, ...]),
        "air_units": read.section("units", "air_units", tuple[AirUnit, ...]),
        "setup": read.file("setup", Setup),
        "tables": read.file("tables", Tables),
        "command_groups": read.section("chits", "command_groups", tuple[CommandGroup, ...]),
        "chits": read.section("chits", "chits", tuple[Chit, ...]),
    }


KIT: ScenarioKit[Scenario] = ScenarioKit("narva", "Across the Narva", FILES, Scenario, _fields, validate_scenario)


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
