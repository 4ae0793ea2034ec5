"""Across the Narva scenario validation of tables.yaml: the CRT and barrage tables, the Terrain Effects
Chart, EZOC costs, the Random Events Table and the PD track."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from moderator.core.scenario_check import Problems, consecutive
from moderator.games.narva.scenario.crt import parse_odds, parse_result
from moderator.games.narva.scenario.index import Scenario
from moderator.games.narva.scenario.index_map import terrain_map
from moderator.games.narva.scenario.schema import HEXSIDE_FEATURES, ROUTE_KINDS, SIDES, WATER, TerrainEffect


def check_tables(s: Scenario) -> list[str]:
    """Problems of tables.yaml, table by table."""
    # The tables are a reconstruction; the values the rulebook does fix are checked here (ruling N-05).
    problems = Problems()
    _check_crt_columns(s, problems)
    _check_crt_rows(s, problems)
    _check_barrage_roll(s, problems)
    _check_tec_terrain(s, problems)
    _check_tec_hexsides_and_routes(s, problems)
    problems.require((s.tables.ezoc.enter, s.tables.ezoc.leave) == (2, 2),
                     "tables: EZOC costs are +2 to enter and +2 to leave (rule 5.1A)")
    _check_random_events(s, problems)
    pd = s.tables.pd_track
    problems.require(pd.boxes[-1] == 0 and all(b <= a for a, b in itertools.pairwise(pd.boxes)),
                     "tables: the PD track must not rise and must end in a zero box (rule 11.3.4A)")
    problems.require(0 <= pd.start_box < len(pd.boxes) and pd.boxes[pd.start_box] == 3,
                     "tables: the PD markers start in the box of value 3 (rule 2.1.4E)")
    return problems


def _check_crt_columns(s: Scenario, problems: Problems) -> None:
    """Columns numbered 1..n; each side's odds line readable, rising, starting at 1-2 (2.1.3C)."""
    crt = s.tables.crt
    indexes = [c.index for c in crt.columns]
    problems.require(consecutive(indexes), f"tables: CRT columns must be numbered 1..{len(indexes)}, not {indexes}")
    for side in SIDES:
        try:
            odds = [parse_odds(getattr(c, side)) for c in sorted(crt.columns, key=lambda c: c.index)]
        except ValueError as exc:
            problems.append(f"tables: CRT {side} line: {exc}")
            continue
        problems.require(all(b > a for a, b in itertools.pairwise(odds)),
                         f"tables: the CRT {side} odds line must increase column by column")
        problems.require(not odds or odds[0] == Fraction(1, 2),
                         f"tables: the lowest CRT column of the {side} line must be 1-2 (rule 2.1.3C)")


def _check_crt_rows(s: Scenario, problems: Problems) -> None:
    """One row per roll 1-6 with a readable result per column (no P there), and a barrage column whose
    results hit only the defender and include P (2.5.1.3)."""
    crt = s.tables.crt
    dice = [r.die for r in crt.rows]
    problems.require(sorted(dice) == list(range(1, 7)),
                     f"tables: the CRT needs one row for each roll 1-6 of {crt.die}, not {sorted(dice)}")
    has_pin = False
    for r in crt.rows:
        problems.require(len(r.results) == len(crt.columns),
                         f"tables: CRT row {r.die} has {len(r.results)} results for {len(crt.columns)} columns")
        for i, code in enumerate(r.results, start=1):
            try:
                full, _ = parse_result(code)
            except ValueError as exc:
                problems.append(f"tables: CRT row {r.die} column {i}: {exc}")
                continue
            problems.require(not full.pinned,
                             f"tables: CRT row {r.die} column {i}: P (pinned) is a barrage result only")
        try:
            b, _ = parse_result(r.barrage)
        except ValueError as exc:
            problems.append(f"tables: barrage column row {r.die}: {exc}")
            continue
        has_pin = has_pin or b.pinned
        problems.require(not (b.attacker_steps or b.attacker_retreat),
                         f"tables: barrage result for {r.die} has attacker effects")
    problems.require(has_pin, "tables: the barrage column must contain P (pinned) results (rule 2.5.1.3)")


def _check_barrage_roll(s: Scenario, problems: Problems) -> None:
    sides = [b.side for b in s.tables.barrage_roll]
    problems.require(sorted(sides) == sorted(SIDES),
                     f"tables: the Barrage Roll Table needs one line per side, not {sides}")
    for b in s.tables.barrage_roll:
        problems.require(sorted(b.results) == list(range(1, 7)),
                         f"tables: the {b.side} Barrage Roll Table must cover rolls 1-6")
        problems.require(all(n >= 1 for n in b.results.values()),
                         f"tables: the {b.side} Barrage Roll Table gives fewer than one barrage")


def _check_tec_terrain(s: Scenario, problems: Problems) -> None:
    """Every terrain of the map in the TEC with costs for both movement classes; only water prohibited
    to all; the values the rules state (6.1, 9.3C, 9.4.4, 9.5.6)."""
    tec: dict[str, TerrainEffect] = {t.terrain: t for t in s.tables.terrain}
    problems.duplicates((t.terrain for t in s.tables.terrain), "tables: TEC terrain {} is given twice")
    used = set(s.map.terrain.legend.values()) | set(terrain_map(s).values())
    for missing in sorted(used - set(tec)):
        problems.append(f"tables: the TEC has no entry for terrain {missing}")
    for t in tec.values():
        problems.require(set(t.move) == {"infantry", "mechanized"},
                         f"tables: TEC terrain {t.terrain} needs infantry and mechanized costs")
        problems.require((t.terrain in WATER) == all(v == "P" for v in t.move.values()),
                         f"tables: TEC terrain {t.terrain}: only water is prohibited to every unit")
    for name in ("swamp", "hill"):
        problems.require(name not in tec or tec[name].defense_multiplier == 2,
                         f"tables: {name} doubles the defense (rule 9.3C)")
    problems.require("swamp" not in tec or tec["swamp"].move.get("infantry") == 2,
                     "tables: infantry pays 2 MP for swamp (rule 6.1 example)")
    problems.require("city" not in tec or (tec["city"].negate_first_loss and tec["city"].negate_first_retreat),
                     "tables: a city negates the first loss and the first retreat (rules 9.4.4, 9.5.6)")
    problems.require("village" not in tec or tec["village"].negate_first_retreat,
                     "tables: a village negates the first retreat (rule 9.5.6)")


def _check_tec_hexsides_and_routes(s: Scenario, problems: Problems) -> None:
    """Every hexside feature and route kind in the TEC, hexside costs written P, all or +n, attacks
    across rivers halved (2.2.8B, 9.3C), trails not strategic (6.4.1B), the winter trail frozen only (6.2.1C)."""
    features = {h.feature for h in s.tables.hexsides}
    problems.unknown(HEXSIDE_FEATURES, features, "tables: the TEC has no entry for hexside feature {}")
    for h in s.tables.hexsides:
        problems.require(set(h.move) == {"infantry", "mechanized"},
                         f"tables: TEC hexside {h.feature} needs infantry and mechanized costs")
        for v in h.move.values():
            problems.require(v in ("P", "all") or bool(re.match(r"^\+\d+$", v)),
                             f"tables: TEC hexside {h.feature} cost {v!r} must be P, all or +n")
        problems.require(h.halves_attack, f"tables: attacks across {h.feature} are halved (rules 2.2.8B, 9.3C)")
    roads = {r.kind for r in s.tables.roads}
    used_routes = {r.kind for r in s.map.roads} | {f"railway_{r.kind}" for r in s.map.railways}
    for k in sorted((used_routes | set(ROUTE_KINDS)) - roads):
        problems.append(f"tables: the TEC has no entry for {k}")
    for r in s.tables.roads:
        problems.require(r.kind not in ("trail", "winter_trail") or r.strategic is None,
                         f"tables: {r.kind} cannot be used for strategic movement (rule 6.4.1B)")
        problems.require(r.kind != "winter_trail" or r.exists == "frozen",
                         "tables: the winter trail exists only while frozen (rule 6.2.1C)")


def _check_random_events(s: Scenario, problems: Problems) -> None:
    """Results 2-12 of 2d6; one prolongs the freeze (6.2.2B), one gives German replacements (11.2A);
    events that act on a side name it and an amount."""
    events = s.tables.random_events
    rolls = sorted(e.roll for e in events)
    problems.require(rolls == list(range(2, 13)), f"tables: the Random Events Table needs the 11 results 2-12 of 2d6, "
                                                  f"not {rolls}")
    problems.require(any(e.effect == "prolong_freeze" for e in events),
                     "tables: a random event must be able to prolong the freeze (rule 6.2.2B)")
    problems.require(any(e.effect == "replacements" and e.side == "german" for e in events),
                     "tables: German replacements come from the Random Event Table (rule 11.2A)")
    for e in events:
        acts_on_a_side = e.effect in ("barrage", "replacements", "move_formation", "air_recovery")
        problems.require(not acts_on_a_side or e.side is not None,
                         f"tables: random event {e.roll} ({e.effect}) needs a side")
        problems.require(e.effect not in ("barrage", "replacements") or bool(e.amount),
                         f"tables: random event {e.roll} ({e.effect}) needs an amount")
