"""Reading the Hell of Stalingrad scenario's YAML files into its model, and the entry points that load
and check one (the core's `ScenarioKit` over scenarios/stalingrad/)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from moderator.core.scenario_files import ScenarioFile, ScenarioKit, SchemaReader
from moderator.games.stalingrad.scenario.index import Scenario
from moderator.games.stalingrad.scenario.schema import (
    Building,
    CampaignCard,
    CarnageCard,
    CombatCard,
    Commander,
    Counter,
    Formation,
    ScenarioMeta,
)
from moderator.games.stalingrad.scenario.validate import validate_scenario

DEFAULT = "siege"

FILES = (
    ScenarioFile("counters", "counters.yaml", ("counters",)),
    ScenarioFile("commanders", "commanders.yaml", ("commanders",)),
    ScenarioFile("formations", "formations.yaml", ("formations",)),
    ScenarioFile("combat", "combat.yaml", ("cards",)),
    ScenarioFile("advanced", "advanced.yaml", ("cards",)),
    ScenarioFile("campaign", "campaign.yaml", ("campaign",)),
    ScenarioFile("buildings", "buildings.yaml", ("buildings",)),
    ScenarioFile("carnage", "carnage.yaml", ("carnage",)),
)


def _fields(read: SchemaReader) -> dict[str, Any]:
    return {
        "meta": read.meta(ScenarioMeta),
        "counters": read.section("counters", "counters", tuple[Counter, ...]),
        "commanders": read.section("commanders", "commanders", tuple[Commander, ...]),
        "formations": read.section("formations", "formations", tuple[Formation, ...]),
        "cards": (read.section("combat", "cards", tuple[CombatCard, ...]) or ())
        + (read.section("advanced", "cards", tuple[CombatCard, ...]) or ()),
        "campaign": read.section("campaign", "campaign", tuple[CampaignCard, ...]),
        "buildings": read.section("buildings", "buildings", tuple[Building, ...]),
        "carnage": read.section("carnage", "carnage", tuple[CarnageCard, ...]),
    }


KIT: ScenarioKit[Scenario] = ScenarioKit("stalingrad", "The Hell of Stalingrad", FILES, Scenario, _fields,
                                         validate_scenario)
load_scenario = KIT.load
check_scenario = KIT.check


@lru_cache(maxsize=4)
def scenario_named(name: str) -> Scenario:
    """The named scenario, loaded and validated once per process (keyed by name)."""
    return KIT.load(name)
