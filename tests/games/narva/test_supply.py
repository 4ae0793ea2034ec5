"""Rule 10.0 (supply and isolation), 5.5 (EZOCs and supply), 8.6E (the 260th) and rulings N-42,
N-66, N-67.

Places on the real map: 0228 is a clear hex ringed by woods (0229, 0328, 0227, 0128, 0129) and the
clear hex 0329; an enemy unit in 0429 puts 0329 and 0330 in its ZOC, so 0228 is cut off; 0229
(woods) touches 0230 on the rollbahn.  2634 (west bank) touches the east bank only across the
Narva, by the Kudrukula ferry to 2734.  2320 (west bank, woods) lies across the open Narva from
2219 and 2319.  The rollbahn from entry area A to Narva runs 0131 ... 2230 ... 2930 (area
rollbahn_a_to_narva).  3029 is Narva, 3130 Ivangorod in the enclave.
"""

from __future__ import annotations

from moderator.games.narva.movement import MoveRules, find_path
from moderator.games.narva.supply import supplied_hexes, supply_phase
from tests.games.narva.fight import board, odds
from tests.refusals import refusal

CUT_OFF = {"61/162G": "0228", "109/381": "0429"}


def status(b, uid):
    return b.state_of(uid)["supply"]


# ---------------------------------------------------------------- 10.0 the Supply Phase


def test_10_0B_a_unit_that_cannot_trace_supply_is_marked_out_of_supply():
    b = board(CUT_OFF)
    supply_phase(b)
    assert status(b, "61/162G") == "oos"
    assert status(b, "109/381") == "ok"


def test_10_0C_out_of_supply_a_second_time_it_becomes_isolated():
    b = board(CUT_OFF)
    supply_phase(b)
    supply_phase(b)
    assert status(b, "61/162G") == "isolated"


def test_10_0D_an_isolated_unit_suffers_nothing_more():
    b = board(CUT_OFF, supply={"61/162G": "isolated"})
    supply_phase(b)
    assert status(b, "61/162G") == "isolated"
    assert b.is_on_map("61/162G") and not b.is_reduced("61/162G")


def test_10_0E_a_unit_that_traces_supply_again_loses_its_marker():
    for marker in ("oos", "isolated"):
        b = board({"61/162G": "0228"}, supply={"61/162G": marker})
        supply_phase(b)
        assert status(b, "61/162G") == "ok"


def test_10_0A_hqs_are_checked_too():
    """Ruling N-66: every unit, HQs included."""
    b = board({"61/HQ": "0228", "109/381": "0429"})
    supply_phase(b)
    assert status(b, "61/HQ") == "oos"


# ---------------------------------------------------------------- 10.1 tracing


def test_10_1A_the_line_may_not_pass_enemy_zones_of_control():
    """Alone, 162G in 0228 traces through 0329 and 0330; with the enemy in 0429 both lie in its ZOC."""
    assert "0228" in supplied_hexes(board({"61/162G": "0228"}), "german")
    assert "0228" not in supplied_hexes(board(CUT_OFF), "german")


def test_10_1A_the_line_may_not_pass_enemy_units():
    """The Krivasoo bridgehead: 162G in 1819 (enemy in 1919 and 1818) traces only over the bridge to
    1820; an enemy unit in 1820 blocks it."""
    units = {"61/162G": "1819", "109/381": "1919", "109/456": "1818"}
    assert "1819" in supplied_hexes(board(units), "german")
    assert "1819" not in supplied_hexes(board(dict(units, **{"109/602": "1820"})), "german")


def test_10_1B_woods_without_a_friendly_unit_carry_no_supply_line():
    """With the enemy in 0429, 0228's one way out is the woods hex 0229: closed while empty."""
    b = board(CUT_OFF)
    assert b.scenario.terrain("0229") == "woods"
    assert "0229" not in supplied_hexes(b, "german")
    assert "0228" not in supplied_hexes(b, "german")


def test_10_1C_a_friendly_unit_in_woods_turns_the_hex_clear_for_supply():
    b = board(dict(CUT_OFF, **{"61/176G": "0229"}))
    hexes = supplied_hexes(b, "german")
    assert "0229" in hexes and "0228" in hexes


def test_10_1C_a_unit_in_a_swamp_hex_converts_its_own_hex():
    """162G alone in the swamp 2422 (no road) traces from its own hex to the road in 2423."""
    b = board({"61/162G": "2422"})
    assert b.scenario.terrain("2422") == "swamp"
    supply_phase(b)
    assert status(b, "61/162G") == "ok"
    assert "2422" not in supplied_hexes(board({}), "german")


def test_10_1_1A_no_supply_line_across_an_unbridged_frozen_major_river():
    """Turn 2 (frozen): a Soviet unit in 2320 traces only through 2220 (and the bridge to 2219).
    With a German unit in 2220 it is cut off, although 2319, across the frozen Narva, is supplied."""
    assert "2320" in supplied_hexes(board({"109/381": "2320"}), "soviet")
    hexes = supplied_hexes(board({"109/381": "2320", "61/162G": "2220"}), "soviet")
    assert "2319" in hexes
    assert "2320" not in hexes


def test_10_1_1A_a_supply_line_crosses_at_a_ferry():
    """381 in 2634 with German units in 2633 and 2535: its only link is the Kudrukula ferry to 2734
    (2534 is empty woods).  Supplied while 2734 is open; cut once the enemy stands there, although
    2635, across the frozen Narva, is still supplied."""
    units = {"109/381": "2634", "61/162G": "2633", "61/176G": "2535"}
    assert "2634" in supplied_hexes(board(units), "soviet")
    hexes = supplied_hexes(board(dict(units, **{"61/151G": "2734"})), "soviet")
    assert "2635" in hexes and "2634" not in hexes


def test_10_1_1B_friendly_units_negate_enemy_zocs_in_their_hexes_for_supply():
    """0329 and 0330 lie in the ZOC of the enemy in 0429.  A German unit in 0329 alone does not open
    the way (0330 is still an empty EZOC hex); units in both do: 0228 is supplied again."""
    one = board(dict(CUT_OFF, **{"61/176G": "0329"}))
    assert "0228" not in supplied_hexes(one, "german")
    two = board(dict(CUT_OFF, **{"61/176G": "0329", "61/151G": "0330"}))
    assert two.in_enemy_zoc("0329", "german") and two.in_enemy_zoc("0330", "german")
    assert "0228" in supplied_hexes(two, "german")


def test_5_5_1B_friendly_units_negate_ezocs_for_supply_only():
    """In the same position the Germans in 0329 and 0330 still stand in the enemy's ZOC for movement
    and retreats (5.4C)."""
    b = board(dict(CUT_OFF, **{"61/176G": "0329", "61/151G": "0330"}))
    assert b.in_enemy_zoc("0329", "german") and b.in_enemy_zoc("0330", "german")


def test_5_5_2_out_of_supply_and_isolated_units_still_exert_zocs():
    b = board(CUT_OFF, supply={"109/381": "isolated"})
    assert {"0329", "0330"} <= b.zoc_of("soviet")


def test_10_1_2A_a_unit_stays_supplied_until_the_next_supply_phase():
    """162G, supplied, is put into the cut-off hex 0228: it keeps its status (and its full defence)
    until the Supply Phase marks it."""
    b = board({"61/162G": "2332", "109/381": "0429"})
    b.place("61/162G", "0228")
    assert status(b, "61/162G") == "ok"
    b.place("30GD/131", "0329")
    assert odds(b, "soviet", ["30GD/131"], "0228").defense == 5
    supply_phase(b)
    assert status(b, "61/162G") == "oos"


def test_10_1_2B_an_out_of_supply_unit_waits_for_the_next_supply_phase():
    """162G, marked out of supply, moves to 2332 (in supply): it still defends at half strength."""
    b = board({"61/162G": "0228", "109/381": "2432"}, supply={"61/162G": "oos"})
    b.place("61/162G", "2332")
    assert odds(b, "soviet", ["109/381"], "2332").defense == 2
    supply_phase(b)
    assert status(b, "61/162G") == "ok"


# ---------------------------------------------------------------- 10.2 sources


def test_10_2_1_supply_sources_lie_on_the_sides_own_map_edges():
    """German sources on the west edge (column 01); Soviet ones on the east (column 35) or south
    (row 01) edge."""
    b = board({})
    assert all(h[:2] == "01" for h in b.scenario.supply_sources("german"))
    assert all(h[:2] == "35" or h[2:] == "01" for h in b.scenario.supply_sources("soviet"))
    hexes = supplied_hexes(b, "german")
    assert all(h in hexes for h in b.scenario.supply_sources("german"))


def test_10_2_2A_a_soviet_unit_on_the_rollbahn_cuts_narva_and_the_enclave():
    """A Soviet unit on the rollbahn at 2230 (between A and Narva): every German unit in Narva (3029)
    and the enclave (3130) is out of supply, whatever line it could trace; 162G at 2332 is not."""
    units = {"11SS/23": "3029", "4SS/1/48": "3130", "61/162G": "2332", "109/381": "2230"}
    b = board(units)
    assert "2230" in b.scenario.rollbahn_vp_hexes()
    assert "3029" in supplied_hexes(b, "german")
    supply_phase(b)
    assert status(b, "11SS/23") == "oos" and status(b, "4SS/1/48") == "oos"
    assert status(b, "61/162G") == "ok"
    without = board({u: h for u, h in units.items() if u != "109/381"})
    supply_phase(without)
    assert status(without, "11SS/23") == "ok" and status(without, "4SS/1/48") == "ok"


def test_10_2_2B_units_in_narva_and_the_enclave_never_become_isolated():
    b = board({"11SS/23": "3029", "4SS/1/48": "3130", "109/381": "2230"})
    for _ in range(3):
        supply_phase(b)
    assert status(b, "11SS/23") == "oos" and status(b, "4SS/1/48") == "oos"


# ---------------------------------------------------------------- 10.3 effects


def test_10_3_1A_out_of_supply_halves_attack_and_defence():
    b = board({"61/162G": "2332", "30GD/131": "2432"}, supply={"61/162G": "oos", "30GD/131": "oos"})
    o = odds(b, "soviet", ["30GD/131"], "2332")
    assert (o.attack, o.defense) == (2, 2)  # 4/2 against 5/2 -> 2


def test_10_3_1B_out_of_supply_units_keep_their_full_movement_allowance():
    """162G (MA 4) out of supply still moves three clear hexes, 2332 -> 2232 -> 2132 -> 2032 (3 MP)."""
    b = board({"61/162G": "2332"}, supply={"61/162G": "oos"})
    assert b.movement_allowance("61/162G") == 4
    assert find_path(b, "61/162G", "2032", MoveRules()).cost == 3


def test_10_3_2_isolation_halves_the_movement_allowance():
    b = board({"61/162G": "2332"}, supply={"61/162G": "isolated"})
    assert b.movement_allowance("61/162G") == 2
    refusal(lambda: find_path(b, "61/162G", "2032", MoveRules()),
            because=r"162G cannot reach 2032 from 2332 with 2 MP(; did you mean|$)")


def test_10_3_2_isolation_halves_attack_and_defence():
    b = board({"61/162G": "2332", "30GD/131": "2432"}, supply={"61/162G": "isolated", "30GD/131": "isolated"})
    o = odds(b, "soviet", ["30GD/131"], "2332")
    assert (o.attack, o.defense) == (2, 2)


def test_8_6E_the_260th_never_needs_supply():
    """The 260th MS alone in the cut-off hex 0228 (any hex would do: it is never traced)."""
    b = board({"IND/260": "0228", "61/162G": "0429"})
    for _ in range(2):
        supply_phase(b)
    assert status(b, "IND/260") == "ok"
    b2 = board({"109/381": "0228", "61/162G": "0429"})
    supply_phase(b2)
    assert status(b2, "109/381") == "oos"
