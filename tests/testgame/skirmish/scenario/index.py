"""The Skirmish scenario with its lookups: areas, their neighbours, units (built once per scenario object)."""

from __future__ import annotations

from typing import Any

from moderator.core.scenario_check import adjacency
from moderator.core.scenario_files import entry
from tests.testgame.skirmish.scenario.schema import Area, ScenarioData, Side, Unit


class Scenario(ScenarioData):
    """The scenario data with the queries the rules use."""

    def build_lookups(self) -> dict[str, Any]:
        graph = adjacency(border.areas for border in self.borders)
        order = {area.id: number for number, area in enumerate(self.areas)}
        return {
            "areas": {area.id: area for area in self.areas},
            "units": {unit.id: unit for unit in self.units},
            # neighbours in map order, so that every list the players see is in one fixed order
            "neighbours": {area.id: tuple(sorted(graph.get(area.id, ()), key=lambda a: order.get(a, len(order))))
                           for area in self.areas},
        }

    def area(self, area_id: str) -> Area:
        return entry(self.lookups()["areas"], area_id, "area")

    def area_ids(self) -> tuple[str, ...]:
        return tuple(area.id for area in self.areas)

    def neighbours(self, area_id: str) -> tuple[str, ...]:
        """The areas sharing a border with `area_id` (§2), in map order."""
        return entry(self.lookups()["neighbours"], area_id, "area")

    def vp_areas(self) -> tuple[str, ...]:
        return tuple(area.id for area in self.areas if area.vp)

    def unit(self, unit_id: str) -> Unit:
        return entry(self.lookups()["units"], unit_id, "unit")

    def units_of(self, side: Side) -> tuple[Unit, ...]:
        return tuple(unit for unit in self.units if unit.side == side)
