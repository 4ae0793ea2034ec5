"""The working copy of a Skirmish game that the rules modules read and change.

`Board` wraps one copy of the JSON state (typed in `state`) with the scenario, the dice and the
events being emitted, and gives the rules a vocabulary that reads as prose:
``board.units_in(area, "red")``, ``board.is_contested(area)``, ``board.lose_step(unit, why)``.
"""

from __future__ import annotations

from moderator.core.board import BoardBase
from tests.testgame.skirmish.scenario import SIDES, Scenario, Side
from tests.testgame.skirmish.state import Options, SkirmishState


def enemy(side: str) -> Side:
    return "blue" if side == "red" else "red"


class Board(BoardBase[Scenario]):
    data: SkirmishState

    @property
    def options(self) -> Options:
        return self.data["options"]

    @property
    def last_turn(self) -> int:
        return self.scenario.meta.turns

    # ------------------------------------------------------------------ units

    def side_of(self, unit: str) -> Side:
        return self.data["units"][unit]["side"]

    def area_of(self, unit: str) -> str | None:
        return self.data["units"][unit]["area"]

    def strength_of(self, unit: str) -> int:
        return self.data["units"][unit]["strength"]

    def is_on_map(self, unit: str) -> bool:
        """Not eliminated (every unit in play stands in an area)."""
        return self.data["units"][unit]["area"] is not None

    def units_of(self, side: str) -> list[str]:
        """A side's units in play, in roster order (the scenario's order)."""
        return [u.id for u in self.scenario.units if u.side == side and self.is_on_map(u.id)]

    def units_in(self, area: str, side: str | None = None) -> list[str]:
        """The units in an area (of one side, or of both), in roster order."""
        return [u.id for u in self.scenario.units
                if self.data["units"][u.id]["area"] == area and (side is None or u.side == side)]

    def strength_in(self, area: str, side: str) -> int:
        return sum(self.strength_of(u) for u in self.units_in(area, side))

    def strongest_in(self, area: str, side: str) -> str:
        """The strongest unit of `side` in the area; between equals the first in the roster (ruling S-EQUAL)."""
        units = self.units_in(area, side)
        return max(units, key=lambda u: (self.strength_of(u), -units.index(u)))

    def active_side(self) -> Side | None:
        """The side whose phase is under way (§4), or None between phases."""
        phases = self.frames("phase")
        return phases[-1]["side"] if phases else None

    # ------------------------------------------------------------------ areas

    def neighbours(self, area: str) -> tuple[str, ...]:
        return self.scenario.neighbours(area)

    def is_adjacent(self, a: str, b: str) -> bool:
        return b in self.scenario.neighbours(a)

    def controller(self, area: str) -> Side | None:
        return self.data["control"][area]

    def sides_in(self, area: str) -> set[Side]:
        return {self.side_of(u) for u in self.units_in(area)}

    def is_contested(self, area: str) -> bool:
        """Both sides' units stand in the area: a battle (§6)."""
        return len(self.sides_in(area)) == len(SIDES)

    def is_empty(self, area: str) -> bool:
        return not self.units_in(area)

    def vp_areas_of(self, side: str) -> int:
        """How many VP areas `side` controls (§8)."""
        return sum(1 for area in self.scenario.vp_areas() if self.controller(area) == side)

    # ------------------------------------------------------------------ verbs

    def move(self, unit: str, area: str) -> None:
        """Put a unit in an area; control follows in both areas (§7)."""
        origin = self.area_of(unit)
        self.data["units"][unit]["area"] = area
        for where in (origin, area):
            if where is not None:
                self.update_control(where)

    def update_control(self, area: str) -> None:
        """§7: a side takes control of an area the moment its units stand there alone."""
        sides = self.sides_in(area)
        if len(sides) != 1:
            return
        (side,) = sides
        if self.controller(area) != side:
            self.data["control"][area] = side
            self.emit("control", area=area, side=side)

    def lose_step(self, unit: str, why: str) -> str:
        """§6.2: one step off the unit's strength; at strength 0 it is eliminated.  Says which happened.

        The owner learns which unit it was; the other side only that one of the owner's units lost a step.
        """
        record = self.data["units"][unit]
        area = record["area"]
        record["strength"] -= 1
        result = "reduced" if record["strength"] > 0 else "eliminated"
        if result == "eliminated":
            record["area"] = None
        self._tell_step_lost(unit, area, result, why)
        return result

    def eliminate(self, unit: str, why: str) -> None:
        """Take a unit out of play whatever its strength (ruling S-NOWHERE), told as the step that ended it."""
        record = self.data["units"][unit]
        area = record["area"]
        record["strength"] = 0
        record["area"] = None
        self._tell_step_lost(unit, area, "eliminated", why)

    def _tell_step_lost(self, unit: str, area: str | None, result: str, why: str) -> None:
        side = self.side_of(unit)
        self.emit("step_lost", visible_to=[side], side=side, unit=unit, area=area, result=result,
                  strength=self.strength_of(unit), why=why)
        self.emit("step_lost", hidden_from=[side], side=side, area=area, result=result, why=why)
        if area is not None and result == "eliminated":
            self.update_control(area)  # §7: the other side may now stand there alone
