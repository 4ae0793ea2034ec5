"""Scenario data of The Hell of Stalingrad: the effect vocabulary (`effects`), models (`schema`), lookups
(`index`), the data's rules (`validate`) and the loader over the core's `ScenarioKit` (`loader`)."""

from moderator.games.stalingrad.scenario.effects import Effect, parse_effect
from moderator.games.stalingrad.scenario.index import DISTRICTS, Scenario, copy_ids
from moderator.games.stalingrad.scenario.loader import DEFAULT, KIT, check_scenario, load_scenario, scenario_named
from moderator.games.stalingrad.scenario.schema import SIDES, Side
from moderator.games.stalingrad.scenario.validate import validate_scenario

__all__ = [
    "DEFAULT", "DISTRICTS", "KIT", "SIDES", "Effect", "Scenario", "Side", "check_scenario", "copy_ids", "load_scenario",
    "parse_effect", "scenario_named", "validate_scenario",
]
