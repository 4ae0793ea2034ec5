"""Across the Narva scenario validation: every problem of the data as a sentence.  Provenance, the turn
record track and victory are checked here; the map in `validate_map`, the forces and chits in
`validate_units`, the tables in `validate_tables`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from moderator.core.provenance import Record
from moderator.core.scenario_check import Problems
from moderator.games.narva.scenario.index import Scenario
from moderator.games.narva.scenario.schema import SIDES, Side
from moderator.games.narva.scenario.validate_map import (
    check_grid,
    check_hexsides,
    check_map_features,
    check_places_and_areas,
    check_routes,
)
from moderator.games.narva.scenario.validate_tables import check_tables
from moderator.games.narva.scenario.validate_units import check_chits, check_reinforcements, check_setup, check_units


def validate_scenario(s: Scenario) -> list[str]:
    """Every problem found in the scenario data, as sentences; empty when the data is valid."""
    problems = Problems()
    problems.provenance(_records(s))
    for check in (check_grid, check_places_and_areas, check_hexsides, check_routes, check_map_features,
                  check_units, check_setup, check_reinforcements, check_chits, check_tables, _check_turns,
                  _check_victory):
        problems += check(s)
    return list(problems)


def _records(s: Scenario) -> Iterator[tuple[str, Record]]:
    """Every record of the data with where it is, for the provenance check."""
    yield from _meta_records(s)
    yield from _map_records(s)
    yield from ((f"units.yaml formation {f.id}", f) for f in s.formations)
    yield from ((f"units.yaml unit {u.id}", u) for u in s.units)
    yield from ((f"units.yaml air unit {a.id}", a) for a in s.air_units)
    yield "setup.yaml", s.setup
    yield from ((f"setup.yaml placement {p.unit}", p) for p in s.setup.placements)
    yield from ((f"setup.yaml air {p.unit}", p) for p in s.setup.air)
    yield from _table_records(s)
    yield from ((f"chits.yaml command group {g.id}", g) for g in s.command_groups)
    yield from ((f"chits.yaml chit {c.id}", c) for c in s.chits)


def _meta_records(s: Scenario) -> Iterator[tuple[str, Record]]:
    m = s.meta
    yield "scenario.yaml", m
    yield from ((f"scenario.yaml turn {t.n}", t) for t in m.turns)
    for i, r in enumerate(m.reinforcements):
        yield f"scenario.yaml reinforcement row {i + 1} (turn {r.turn} {r.side} {r.entry})", r
    for i, air_row in enumerate(m.air_reinforcements):
        yield f"scenario.yaml air reinforcement row {i + 1}", air_row
    yield from ((f"scenario.yaml victory level {v.level}", v) for v in m.victory_levels)
    yield from ((f"scenario.yaml vp item {v.id}", v) for v in m.vp_items)


def _map_records(s: Scenario) -> Iterator[tuple[str, Record]]:
    mp = s.map
    yield "map.yaml grid", mp.grid
    yield "map.yaml terrain", mp.terrain
    yield from ((f"map.yaml terrain row {r.row}", r) for r in mp.terrain.rows)
    yield from ((f"map.yaml place {p.name} {p.hex}", p) for p in mp.places)
    yield from ((f"map.yaml area {a.id}", a) for a in mp.areas)
    yield from ((f"map.yaml prepared defences {pd.division}", pd) for pd in mp.prepared_defences)
    yield from ((f"map.yaml entry area {e.id}", e) for e in mp.entry_areas)
    yield from ((f"map.yaml supply sources {src.side}", src) for src in mp.supply_sources)
    yield from ((f"map.yaml river {r.id}", r) for r in mp.rivers)
    yield from ((f"map.yaml ferry {f.hexside}", f) for f in mp.ferries)
    yield from ((f"map.yaml bridge {b.hexside}", b) for b in mp.bridges)
    yield from ((f"map.yaml road {r.id}", r) for r in mp.roads)
    yield from ((f"map.yaml railway {r.id}", r) for r in mp.railways)


def _table_records(s: Scenario) -> Iterator[tuple[str, Record]]:
    t = s.tables
    yield "tables.yaml crt", t.crt
    yield from ((f"tables.yaml crt column {c.index}", c) for c in t.crt.columns)
    yield from ((f"tables.yaml crt row {r.die}", r) for r in t.crt.rows)
    yield from ((f"tables.yaml barrage roll {b.side}", b) for b in t.barrage_roll)
    yield from ((f"tables.yaml terrain {e.terrain}", e) for e in t.terrain)
    yield from ((f"tables.yaml hexside {e.feature}", e) for e in t.hexsides)
    yield from ((f"tables.yaml road {e.kind}", e) for e in t.roads)
    yield "tables.yaml ezoc", t.ezoc
    yield from ((f"tables.yaml random event {e.roll}", e) for e in t.random_events)
    yield "tables.yaml pd_track", t.pd_track
    yield "tables.yaml replacements", t.replacements


def _check_turns(s: Scenario) -> list[str]:
    """Problems of the turn record track: 12 turns (13.1B), activation limits the cup can meet, the
    weather (6.2.1C, 6.2.2B), and the Soviets first (14.10A)."""
    problems = Problems()
    m = s.meta
    numbers = [t.n for t in m.turns]
    problems.require(m.last_turn == 12, f"scenario: the game lasts 12 turns (rule 13.1B), not {m.last_turn}")
    problems.require(numbers == list(range(1, m.last_turn + 1)),
                     f"scenario: the turn record track must cover turns 1..{m.last_turn}, not {numbers}")
    for t in m.turns:
        if set(t.activations) != set(SIDES):
            problems.append(f"scenario: turn {t.n} needs activation limits for both sides")
            continue
        _check_activations(s, t.n, t.activations, problems)
        problems.require(t.n > 7 or t.weather == "frozen", f"scenario: turn {t.n} is frozen (rules 6.2.1C, 6.2.2B)")
        problems.require(t.n < 8 or t.weather == "thaw", f"scenario: turn {t.n} is thawed unless a random event "
                                                         f"extends the freeze (rule 6.2.2B)")
        problems.require(not t.freeze_by_event or t.n == 8, f"scenario: only Turn 8 can be frozen by random event "
                                                            f"(rule 6.2.2B), not turn {t.n}")
    t3 = next((t for t in m.turns if t.n == 3), None)
    problems.require(t3 is None or t3.activations.get("german") == 2,
                     "scenario: Germany activates two HQs on Turn 3 (rule 2.3 example)")
    problems.require(m.first_side == "soviet", "scenario: the Soviets move first (rule 14.10A)")
    return problems


def _check_activations(s: Scenario, n: int, activations: dict[Side, int], problems: Problems) -> None:
    """A side may activate at least one HQ a turn, and no more than it has command chits in the cup."""
    cup = [c for c in s.chits if c.kind == "command" and c.enters < n and (c.leaves is None or c.leaves >= n)]
    for side in SIDES:
        limit = activations[side]
        in_cup = sum(1 for c in cup if c.side == side)
        if limit < 1:
            problems.append(f"scenario: turn {n} {side} activation limit must be at least 1")
        elif limit > in_cup:
            problems.append(f"scenario: turn {n} {side} may activate {limit} HQs but only {in_cup} "
                            f"command chits are in the cup")


def _check_victory(s: Scenario) -> list[str]:
    """Problems of victory: the sudden death area, VP items on land hexes of known areas, and victory
    levels from 0 VP up without gaps, one of them historical (13.2)."""
    problems = Problems()
    idx = s.lookups()
    m = s.meta
    problems.require(m.sudden_death_area in idx["areas"],
                     f"scenario: the sudden death area {m.sudden_death_area} is not a map area")
    problems.duplicates((v.id for v in m.vp_items), "scenario: VP item {} is listed twice")
    for v in m.vp_items:
        if v.basis == "pd_track":
            continue
        hexes = idx["areas"].get(v.area)
        if hexes is None:
            problems.append(f"scenario: VP item {v.id} names unknown area {v.area}")
            continue
        problems.require(bool(hexes), f"scenario: VP item {v.id} area {v.area} has no hexes")
        for h in hexes:
            if h not in idx["hexes"]:
                problems.append(f"scenario: VP hex {h} of {v.id} is not on the map")
            elif idx["hexes"][h].water:
                problems.append(f"scenario: VP hex {h} of {v.id} is water")
    levels = sorted(m.victory_levels, key=lambda v: v.min_vp)
    problems.require(bool(levels) and levels[0].min_vp == 0 and levels[-1].max_vp is None,
                     "scenario: victory levels must run from 0 VP to an open top level (rule 13.2)")
    for a, b in itertools.pairwise(levels):
        problems.require(a.max_vp is not None and a.max_vp + 1 == b.min_vp,
                         f"scenario: victory levels {a.level} and {b.level} leave a gap or overlap")
    problems.require(sum(1 for v in m.victory_levels if v.historical) == 1,
                     "scenario: exactly one victory level is the historical result (rule 13.2)")
    return problems
