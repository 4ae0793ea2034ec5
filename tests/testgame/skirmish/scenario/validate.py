"""Skirmish scenario validation: the rules of the data (§2, §3, §4), one sentence per problem."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from moderator.core.provenance import Record
from moderator.core.scenario_check import Problems, cut_off
from tests.testgame.skirmish.scenario.index import Scenario
from tests.testgame.skirmish.scenario.schema import SIDES

AREAS = range(6, 9)  # §2: 6 to 8 areas
UNITS_A_SIDE = range(3, 5)  # §3: 3 or 4 units a side
TURNS = 4  # §4


def validate_scenario(s: Scenario) -> list[str]:
    """Every problem found in the scenario data, as sentences; empty when the data is valid."""
    problems = Problems()
    problems.provenance(_records(s))
    _check_map(s, problems)
    _check_units(s, problems)
    problems.require(s.meta.turns == TURNS, f"scenario: {s.meta.turns} turns, the rulebook has {TURNS} (§4)")
    return list(problems)


def _records(s: Scenario) -> Iterator[tuple[str, Record]]:
    """Every record of the data with where it is, for the provenance check."""
    yield "scenario.yaml", s.meta
    yield from ((f"map.yaml area {a.id}", a) for a in s.areas)
    yield from ((f"map.yaml border {'-'.join(b.areas)}", b) for b in s.borders)
    yield from ((f"units.yaml unit {u.id}", u) for u in s.units)


def _check_map(s: Scenario, problems: Problems) -> None:
    """§2: 6 to 8 areas, unique names, borders between two known areas, given once, all connected."""
    ids = [a.id for a in s.areas]
    problems.require(len(ids) in AREAS, f"map: {len(ids)} areas, the rulebook has 6 to 8 (§2)")
    problems.duplicates(ids, "map: area id {} is used twice")
    problems.unique_names(s.areas, "map: area name or alias '{}' is not unique")
    pairs = [frozenset(b.areas) for b in s.borders]
    for border in s.borders:
        label = f"map: border {'-'.join(border.areas)}"
        problems.unknown(border.areas, set(ids), f"{label} refers to unknown area {{}}")
        problems.require(border.areas[0] != border.areas[1], f"{label} joins an area to itself")
    problems.duplicates(("-".join(sorted(p)) for p in pairs), "map: border {} is given twice")
    cut = cut_off(ids, [b.areas for b in s.borders])
    problems.require(not cut, f"map: areas not connected to {ids[0] if ids else '?'}: {', '.join(cut)} (§2)")
    problems.require(bool(s.vp_areas()), "map: no VP area, so nobody could win (§8)")


def _check_units(s: Scenario, problems: Problems) -> None:
    """§3: 3 or 4 units a side, each set up in a known area its side controls; no area holds both sides."""
    problems.duplicates((u.id.casefold() for u in s.units), "units: unit name {} is used twice")
    counts = Counter(u.side for u in s.units)
    for side in SIDES:
        problems.require(counts[side] in UNITS_A_SIDE, f"units: {side} has {counts[side]} units, the rulebook "
                                                       "gives each side 3 or 4 (§3)")
    areas = {a.id: a for a in s.areas}
    sides_in: dict[str, set[str]] = {}
    for unit in s.units:
        area = areas.get(unit.area)
        if area is None:
            problems.append(f"units: {unit.id} sets up in unknown area {unit.area}")
            continue
        problems.require(area.control == unit.side, f"units: {unit.side} unit {unit.id} sets up in {unit.area}, "
                                                    f"which {area.control or 'nobody'} controls (§3)")
        sides_in.setdefault(unit.area, set()).add(unit.side)
    for area_id, sides in sorted(sides_in.items()):
        problems.require(len(sides) == 1, f"units: both sides set up in {area_id} (§3)")
