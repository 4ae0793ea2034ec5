"""Scenario data of Skirmish: models (`schema`), lookups (`index`), the data's rules (`validate`) and the
loader over the core's `ScenarioKit` (`loader`), laid out as every game's scenario package is."""

from tests.testgame.skirmish.scenario.index import Scenario
from tests.testgame.skirmish.scenario.loader import (
    DATA,
    FILES,
    KIT,
    check_scenario,
    load_scenario,
    read_scenario,
    scenario_named,
)
from tests.testgame.skirmish.scenario.schema import SIDES, Area, Border, ScenarioData, ScenarioMeta, Side, Unit
from tests.testgame.skirmish.scenario.validate import validate_scenario

__all__ = [
    "DATA", "FILES", "KIT", "SIDES", "Area", "Border", "Scenario", "ScenarioData", "ScenarioMeta", "Side", "Unit",
    "check_scenario", "load_scenario", "read_scenario", "scenario_named", "validate_scenario",
]
