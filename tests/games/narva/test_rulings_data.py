"""Rulings of Across the Narva that live in the scenario data and the names players use, rather than in
one rule's code: each test restates its ruling (moderator/games/narva/RULINGS.md) and checks the data
or the order language carries it."""

from __future__ import annotations

import pytest

from moderator.games.narva.engine import engine
from moderator.games.narva.orders import GRAMMAR
from moderator.games.narva.scenario import Scenario, load_scenario
from tests.games.narva.helpers import fresh_rng


@pytest.fixture(scope="module")
def s() -> Scenario:
    return load_scenario()


def arrival(s: Scenario, unit: str) -> tuple[int, str]:
    """(turn, entry) of a reinforcement."""
    return next((r.turn, r.entry) for r in s.meta.reinforcements if unit in r.units)


def test_ruling_n01_the_cut_off_german_reinforcement_table_is_completed(s: Scenario) -> None:
    """Ruling N-01: 14.11.1 stops at an empty row '2A |'; the reconstructed rows bring the KVO HQ and BE
    on Turn 2, the 20SS, 58 and 285S on Turn 3, the 11th on Turn 4 at B, the 214th on Turn 5 and STRAC
    on Turn 7, marked reconstructed, after the printed rows."""
    assert arrival(s, "KVO/HQ")[0] == 2 and arrival(s, "IND/BE")[0] == 2
    assert {arrival(s, u)[0] for u in ("20SS/HQ", "58/HQ", "285S/HQ")} == {3}
    assert arrival(s, "11/HQ") == (4, "B") and arrival(s, "214/HQ")[0] == 5 and arrival(s, "STRAC/HQ")[0] == 7
    german = [r for r in s.meta.reinforcements if r.side == "german"]
    printed = [r.src["turn"].startswith("rulebook 14.11.1") for r in german]
    assert printed == sorted(printed, reverse=True), "the printed rows come first"
    for uid in ("KVO/HQ", "IND/BE", "20SS/HQ", "58/HQ", "285S/HQ", "214/HQ", "STRAC/HQ"):
        row = next(r for r in german if uid in r.units)
        assert row.src["turn"].startswith("reconstructed:"), uid


def test_ruling_n02_the_cut_off_soviet_reinforcement_table_is_completed(s: Scenario) -> None:
    """Ruling N-02: 14.11.2 stops at '2E |'; the reconstruction adds the 14th Corps HQ at E on Turn 2, the
    8th and 59th Army HQs on Turn 3 (placed in any legal hex) and a placeholder 59th Army corps "6" at E
    on Turn 4."""
    assert arrival(s, "14/HQ") == (2, "E")
    assert arrival(s, "8/HQ") == (3, "supplied_hex") and arrival(s, "59/HQ") == (3, "supplied_hex")
    assert arrival(s, "6/HQ") == (4, "E") and s.formation("6").parent == "59"


def test_ruling_n04_unexplained_abbreviations_are_used_as_printed() -> None:
    """Ruling N-04: the abbreviation list of 1.3 is cut off (KAUS, KRUG, KUST, KVO, MOK, SCHN, STRAC are
    never explained); names are used as printed."""
    state = engine.setup("campaign", {}, fresh_rng(1))
    german = engine.lexicon(state, "german")
    for name, uid in (("KAUS", "11SS/KAUS"), ("KRUG", "11SS/KRUG"), ("MOK", "FHH/MOK"), ("SCHN", "KUST/SCHN")):
        assert GRAMMAR.parse(f"MOVE {name} TO 2830", german, kinds=["move"]).values("units") == (uid,)
    for name, uid in (("KUST", "KUST/HQ"), ("KVO", "KVO/HQ"), ("STRAC", "STRAC/HQ")):
        assert GRAMMAR.parse(f"ACTIVATE {name}", german, kinds=["hq"]).get("hq") == uid


def test_rulings_n07_n08_army_membership_comes_from_the_unit_data_alone(s: Scenario) -> None:
    """Ruling N-07: the 2nd Shock Army holds the 122nd, 124th, 109th, 43rd, 30th Guards and 14th Corps, the
    8th Army the 117th, the 59th Army a placeholder corps "6"; police 31P and 32P belong to KUST, 29P and
    30P are independent.  Ruling N-08: the area names of 2.7.2 (the 124th "northern" or "western") have
    no effect; only this membership matters."""
    parent = {f.id: f.parent for f in s.formations}
    assert sorted(f for f, p in parent.items() if p == "2SH") == sorted(["122", "124", "109", "43", "30GD", "14"])
    assert [f for f, p in parent.items() if p == "8"] == ["117"]
    assert [f for f, p in parent.items() if p == "59"] == ["6"]
    assert s.unit("KUST/31P").formation == "KUST" and s.unit("KUST/32P").formation == "KUST"
    assert s.unit("IND/29P").formation is None and s.unit("IND/30P").formation is None  # independent
    assert "area" not in type(s.formations[0]).model_fields  # no area name for the engine to consult


def test_ruling_n12_the_river_at_hex_1003_is_the_narva(s: Scenario) -> None:
    """Ruling N-12 (errata 2.2.12): the river name printed at 1003 should read Narva, not Pljussa; only the
    label changes, and in map.yaml the river through 1003 is the Narva."""
    rivers = {s.hexside("1003", n).river for n in s.neighbours("1003")} - {None}
    majors = {s.hexside("1003", n).river for n in s.neighbours("1003")
              if s.hexside("1003", n).river_kind == "major"}
    assert majors == {"narva-upper"} and not any("plyussa" in r or "pljussa" in r for r in rivers)
    assert any(p.hex == "1003" and p.kind == "label" and p.name.startswith("Narva") for p in s.map.places)


def test_ruling_n15_two_wehrmacht_chits_four_2nd_shock_chits_one_pre_played(s: Scenario) -> None:
    """Ruling N-15: two WER chits, one in the cup at the start and one entering on Turn 1, both leaving in
    the Turn 3 Reinforcement Phase; four 2SH chits, three at the start, one of them pre-played as the
    first activation of the game (counting toward the Soviet Turn 1 limit), the other two in the cup."""
    wer = sorted((c.enters, c.leaves) for c in s.chits if c.group == "WER")
    assert wer == [(0, 3), (1, 3)]
    shock = sorted(c.enters for c in s.chits if c.group == "2SH")
    assert shock == [0, 0, 0, 1]
    state = engine.setup("campaign", {}, fresh_rng(1))
    assert s.chit(state["preplayed"]).group == "2SH" and state["preplayed"] in state["cup"]
    assert sum(1 for c in state["cup"] if s.chit(c).group == "2SH") == 3


def test_ruling_n32_a_town_is_a_village_that_shifts_nothing(s: Scenario) -> None:
    """Ruling N-32: a town is a village (Ivangorod is village terrain); villages change no strength and give
    no shift; they cancel the first retreat hex (9.5.6) and stop a mechanized advance (9.6.4B)."""
    assert {s.terrain(h) for h in s.area_hexes("ivangorod")} == {"village"}
    village = s.terrain_effect("village")
    assert village.defense_multiplier == 1 and village.column_shift == 0 and not village.negate_first_loss
    assert village.negate_first_retreat and village.stops_mech_advance
