"""Reading a Skirmish scenario's YAML files into its model, and the entry points that load and check one.

The data lives in tests/testgame/skirmish/data/ (a test-only game has no folder under scenarios/), so
every entry point passes that root to the kit.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from moderator.core.scenario_files import ScenarioFile, ScenarioKit, SchemaReader
from tests.testgame.skirmish.scenario.index import Scenario
from tests.testgame.skirmish.scenario.schema import Area, Border, ScenarioMeta, Unit
from tests.testgame.skirmish.scenario.validate import validate_scenario

DATA = Path(__file__).resolve().parents[1] / "data"

FILES = (
    ScenarioFile("map", "map.yaml", ("areas", "borders")),
    ScenarioFile("units", "units.yaml", ("units",)),
)


def _fields(read: SchemaReader) -> dict[str, Any]:
    return {
        "meta": read.meta(ScenarioMeta),
        "areas": read.section("map", "areas", tuple[Area, ...]),
        "borders": read.section("map", "borders", tuple[Border, ...]),
        "units": read.section("units", "units", tuple[Unit, ...]),
    }


KIT: ScenarioKit[Scenario] = ScenarioKit("skirmish", "Skirmish", FILES, Scenario, _fields, validate_scenario)


def read_scenario(name: str = "standard", root: Path = DATA) -> Scenario:
    """The files schema-checked, without the data's rules; raises ScenarioError."""
    return KIT.read(name, root)


def load_scenario(name: str = "standard", root: Path = DATA) -> Scenario:
    """Read and validate a scenario; raises ScenarioError listing every problem found."""
    return KIT.load(name, root)


def check_scenario(name: str) -> None:
    """Load and validate the named scenario (`KIT.check` would look under scenarios/); raises ScenarioError."""
    load_scenario(name)


@lru_cache(maxsize=4)
def scenario_named(name: str) -> Scenario:
    """The named scenario of the test data, loaded once per process (keyed by name)."""
    return load_scenario(name)
