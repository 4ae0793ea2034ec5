"""Demo players (placeholder)."""

from __future__ import annotations

from moderator.core.bots import Brain
from moderator.games.stalingrad.scenario import Scenario


def brains(scenario: Scenario) -> dict[str, Brain]:
    return {}
