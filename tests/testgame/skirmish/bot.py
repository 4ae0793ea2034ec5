"""A demo player for Skirmish that reads its report mails and writes its orders as a careful player would.

It knows only what its reports say (its own units, how many enemy units stand where, who controls
what) and the public map.  In its movement it sends each unit one step toward the nearest VP area
its side does not hold, into an enemy's area only with at least as many units as stand there, and
keeps one unit on each VP area it holds; then DONE.  Retreats are left to the
game's standing order (RETREAT AUTO).
"""

from __future__ import annotations

import random
import re
from collections import Counter, deque
from dataclasses import dataclass

from moderator.core.bots import AskedDecision, ReportMail
from tests.testgame.skirmish.scenario import Scenario

AREA_LINE = re.compile(r"^  (\S+)\s+(red|blue|-)\s+red (\d+), blue (\d+)")
UNIT_LINE = re.compile(r"^  (\S+)\s+(red|blue) strength (\d), in (\S+)")


@dataclass(frozen=True)
class Seen:
    """What a report says: each area's controller and unit counts, and where the reader's units are."""

    control: dict[str, str]
    counts: dict[str, dict[str, int]]
    units: dict[str, str]


def read_situation(text: str) -> Seen:
    control: dict[str, str] = {}
    counts: dict[str, dict[str, int]] = {}
    units: dict[str, str] = {}
    for line in text.split("\n"):
        if area := AREA_LINE.match(line):
            control[area[1]] = area[2]
            counts[area[1]] = {"red": int(area[3]), "blue": int(area[4])}
        elif unit := UNIT_LINE.match(line):
            units[unit[1]] = unit[4]
    return Seen(control, counts, units)


@dataclass
class SkirmishBrain:
    side: str
    public_map: Scenario

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        out: list[str] = []
        for decision in report.decisions:
            moving = "DONE" in decision.options
            out += self.movement(read_situation(report.text), decision) if moving else [decision.default]
        return out

    def movement(self, seen: Seen, decision: AskedDecision) -> list[str]:
        """One step toward the nearest VP area not held, for every unit that can go, then DONE."""
        offered = set(decision.options)
        enemy = "blue" if self.side == "red" else "red"
        vp_areas = self.public_map.vp_areas()
        goals = [a for a in vp_areas if seen.control.get(a) != self.side]
        leaving: Counter[str] = Counter()
        going: dict[str, list[str]] = {}
        for unit, here in sorted(seen.units.items()):
            staying = sum(1 for area in seen.units.values() if area == here) - leaving[here]
            if here in vp_areas and seen.control.get(here) == self.side and staying <= 1:
                continue  # the last unit on a VP area held stays there
            step = self.step_toward(here, goals) if goals else None
            if step is not None and f"MOVE {unit} TO {step}" in offered:
                going.setdefault(step, []).append(unit)
                leaving[here] += 1
        # Into an area the enemy holds only with at least as many units as it has there.
        lines = [f"MOVE {unit} TO {step}" for step, units in going.items()
                 if len(units) >= seen.counts.get(step, {}).get(enemy, 0) for unit in units]
        return lines + ["DONE"]

    def step_toward(self, here: str, goals: list[str]) -> str | None:
        """The first area on a shortest path from `here` to the nearest goal (map order breaks ties)."""
        first: dict[str, str] = {n: n for n in self.public_map.neighbours(here)}
        queue = deque(first)
        seen = {here, *first}
        while queue:
            area = queue.popleft()
            if area in goals:
                return first[area]
            for n in self.public_map.neighbours(area):
                if n not in seen:
                    seen.add(n)
                    first[n] = first[area]
                    queue.append(n)
        return None


def brains(public_map: Scenario) -> dict[str, SkirmishBrain]:
    return {"red": SkirmishBrain("red", public_map), "blue": SkirmishBrain("blue", public_map)}
