"""Preparation for play (§2, §3): the units in their set-up areas, control as the scenario gives it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from tests.testgame.skirmish.scenario import Scenario
from tests.testgame.skirmish.state import Options, SkirmishState, UnitRecord

STATE_VERSION = 1


def initial_state(scenario: Scenario, name: str, options: Mapping[str, Any]) -> SkirmishState:
    """The state at the start of turn 1, before the engine starts the first turn's frame."""
    units: dict[str, UnitRecord] = {u.id: {"side": u.side, "area": u.area, "strength": u.strength}
                                    for u in scenario.units}
    return {
        "version": STATE_VERSION, "scenario": name, "options": cast(Options, dict(options)), "turn": 1,
        "result": None, "stack": [], "next_id": 0, "units": units,
        "control": {area.id: area.control for area in scenario.areas},
    }
