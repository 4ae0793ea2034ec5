"""Rule 6.0 Movement (6.0-6.5) and 5.1 (ZOC costs) on the real map.

Costs come from the reconstructed TEC in tables.yaml (clear 1, woods 2 / mechanized 3, swamp 2 /
mechanized prohibited, frozen major river +1 infantry, minor river +1 / +2, rollbahn 1/2 (strategic
1/4), road, track, trail and winter trail 1, EZOC +2 to enter and +2 to leave).  Where a test says
"the cheapest path", the alternatives were checked by hand on the map.  Soviet rifle regiments and
German grenadier regiments have MA 4; FHH/AA and 11SS/AA (mechanized) MA 8; FHH/PZG MA 6.
"""

from __future__ import annotations

import pytest

from moderator.games.narva.movement import step_cost
from tests.games.narva.drive import cannot, moving, path
from tests.games.narva.helpers import answer, decisions, emitted, position
from tests.refusals import refusal


def move(board, side, unit, dest, how=""):
    """One unit's move in an activation of its own; returns the 'moved' event."""
    moving(board, side, unit)
    answer(board, f"MOVE {unit} TO {dest}{' ' + how if how else ''}")
    return emitted(board, "moved")[-1]


def refused(board, side, unit, dest, how="", *, because):
    """One unit's move in an activation of its own, refused for the rule `because` names."""
    moving(board, side, unit)
    return cannot(board, f"MOVE {unit} TO {dest}{' ' + how if how else ''}", because=because)


# ---------------------------------------------------------------- 6.0 / 6.1 how to move


def test_6_0A_a_unit_moves_as_far_as_its_movement_allowance():
    """2132 -> 2232 -> 2332 -> 2432 -> 2533 is four clear hexes (1 MP each): exactly MA 4. 2633 is at
    least 5 MP away (the rollbahn detour costs 6), so an MA 4 unit cannot get there."""
    board = position({"61/162G": "2132"})
    moved = move(board, "german", "61/162G", "2533")
    assert board.hex_of("61/162G") == "2533"
    assert len(moved["path"]) == 5
    assert path(position({"61/162G": "2132"}), "61/162G", "2533").cost == 4
    refused(position({"61/162G": "2132"}), "german", "61/162G", "2633",
            because=r"162G cannot reach 2633 from 2132 with 4 MP(; did you mean|$)")


def test_6_0B_a_unit_that_has_moved_cannot_move_again_after_another_unit_moved():
    board = position({"109/381": "2232", "109/456": "2233", "109/HQ": "2132"})
    moving(board, "soviet", "109/381", "109/456", "109/HQ")
    answer(board, "MOVE 381 TO 2332")
    answer(board, "MOVE 456 TO 2333")
    cannot(board, "MOVE 381 TO 2432", because=r"381 has already moved")
    assert board.hex_of("109/381") == "2332"


def test_6_1A_cost_is_hex_plus_hexside_plus_ezoc():
    """2226 (woods) -> 2227 (clear) across the Mustajogi (minor): 1 + 1 = 2 MP; with a German unit at
    2228 (so 2227 is in its ZOC) another +2 = 4 MP."""
    board = position({"109/381": "2226"})
    assert path(board, "109/381", "2227").cost == 2
    board = position({"109/381": "2226", "61/162G": "2228"})
    assert path(board, "109/381", "2227").cost == 4


def test_6_1B_mechanized_units_pay_more_for_woods():
    """2232 (clear) -> 2233 (woods, no road): infantry 2 MP, mechanized 3 MP."""
    board = position({"61/162G": "2232", "FHH/AA": "2231"})
    assert path(board, "61/162G", "2233").cost == 2
    board = position({"FHH/AA": "2232"})
    assert path(board, "FHH/AA", "2233").cost == 3


def test_6_1B_mechanized_units_may_not_enter_swamp_off_road():
    """2322 (clear) -> 2422 (swamp, no road): infantry 2 MP; mechanized prohibited, even as the
    one-hex minimum move of 6.1C."""
    board = position({"61/162G": "2322"})
    assert path(board, "61/162G", "2422").cost == 2
    refused(position({"FHH/AA": "2322"}), "german", "FHH/AA", "2422",
            because=r"AA may not enter 2422: its terrain \(swamp\) is prohibited to mechanized units off road "
                    r"\(6\.1B, TEC\)")


def test_6_1_example_infantry_may_always_move_one_hex_even_at_5_mp():
    """6.1 example: an MA 4 rifle regiment crosses a frozen major river into a swamp hex in an EZOC:
    2 (swamp) + 1 (frozen major river) + 2 (EZOC) = 5 MP, more than its MA; 6.1C lets it move one hex.
    109/381 from 2722 across the lower Narva to 2821 (swamp), with a German unit at 2922, on Turn 1."""
    board = position({"109/381": "2722", "FHH/MOK": "2922"}, turn=1)
    assert board.frozen
    assert step_cost(board, "109/381", "2722", "2821") == 3  # swamp 2 + frozen major river 1
    assert board.in_enemy_zoc("2821", "soviet") and not board.in_enemy_zoc("2722", "soviet")
    moved = move(board, "soviet", "109/381", "2821")
    assert board.hex_of("109/381") == "2821"
    assert moved["path"] == ["2722", "2821"]
    assert "minimum move" in moved["how"]


def test_6_1C_the_minimum_move_is_one_hex_only():
    """The one-hex move of 6.1C is the unit's whole move: from 2722 it cannot go on past 2821."""
    board = position({"109/381": "2722", "FHH/MOK": "2922"}, turn=1)
    refused(board, "soviet", "109/381", "2820", because=r"381 cannot reach 2820 from 2722 with 4 MP(; did you mean|$)")


def test_6_1C_without_the_ezoc_the_same_crossing_is_an_ordinary_3_mp_move():
    """Control for the 6.1 example: with no German unit near, 2722 -> 2821 costs 3 MP, within MA 4,
    so it is an ordinary move and not the minimum move."""
    board = position({"109/381": "2722"}, turn=1)
    assert path(board, "109/381", "2821").cost == 3
    moved = move(board, "soviet", "109/381", "2821")
    assert "minimum move" not in moved["how"] and "3 MP" in moved["how"]


def test_6_1C_no_minimum_move_from_one_ezoc_to_another():
    """2332 and 2333 are both next to a German unit at 2432: 1 + 2 + 2 = 5 MP for an MA 4 unit, and
    as an EZOC-to-EZOC move it is not a minimum move."""
    board = position({"109/381": "2332", "61/162G": "2432"})
    refused(board, "soviet", "109/381", "2333",
            because=r"2332 to 2333 is enemy ZOC to enemy ZOC: not a minimum move \(6\.1C\)")


def test_6_1C_a_minimum_move_may_leave_an_ezoc():
    """From 2332 (in the EZOC of 2432) to 2231 (not in it) costs 1 + 2 = 3 MP: allowed."""
    board = position({"109/381": "2332", "61/162G": "2432"})
    move(board, "soviet", "109/381", "2231")
    assert board.hex_of("109/381") == "2231"


def test_6_1C_no_minimum_move_into_prohibited_terrain():
    """An unfrozen major river is prohibited terrain: on Turn 9 the 6.1C exception does not help."""
    board = position({"109/381": "2722"}, turn=9)
    refused(board, "soviet", "109/381", "2821",
            because=r"381 cannot cross the river between 2722 and 2821: .*crossed only at a bridge or ferry "
                    r"\(6\.2\.2\.2A\)")


# ---------------------------------------------------------------- 5.1 ZOC effects on movement


def test_5_1A_entering_an_ezoc_costs_two_more():
    """2231 -> 2332 -> 2432: 2 MP in clear; with a German unit at 2433, 2432 is in its ZOC: +2."""
    assert path(position({"FHH/AA": "2231"}), "FHH/AA", "2432").cost == 2
    board = position({"109/381": "2231", "FHH/AA": "2433"})
    assert path(board, "109/381", "2432").cost == 4


def test_5_1A_leaving_an_ezoc_costs_two_more():
    """2432 -> 2331 (via 2431 or 2332, neither in the ZOC of 2433): 2 MP, +2 for leaving."""
    assert path(position({"109/381": "2432"}), "109/381", "2331").cost == 2
    board = position({"109/381": "2432", "FHH/AA": "2433"})
    assert path(board, "109/381", "2331").cost == 4


def test_5_1A_ezoc_costs_are_cumulative():
    """2432 -> 2333, both next to the Soviet unit at 2433: 1 + 2 (leave) + 2 (enter) = 5 MP."""
    board = position({"FHH/AA": "2432", "109/381": "2433"})
    assert path(board, "FHH/AA", "2333").cost == 5


def test_5_1B_units_may_move_from_ezoc_to_ezoc_given_the_mp():
    """FHH/AA (MA 8): 2432 -> 2333, both next to the Soviet unit at 2433, costs 1 + 2 + 2 = 5 MP:
    allowed as a normal move (an MA 4 unit could not make it, see the 6.1C test)."""
    board = position({"FHH/AA": "2432", "109/381": "2433"})
    moved = move(board, "german", "FHH/AA", "2333")
    assert board.hex_of("FHH/AA") == "2333"
    assert moved["path"] == ["2432", "2333"] and "5 MP" in moved["how"]


# ---------------------------------------------------------------- 6.2.1 roads


def test_6_2_1A_railways_serve_as_tracks():
    """0230 -> 0330 along the major railway (0330 clear, 0230 woods): 1 MP as a track; 0429 (woods)
    from 0330 along the railway costs 1, not the 2 of woods."""
    board = position({"61/162G": "0330"})
    assert path(board, "61/162G", "0429").cost == 1


def test_6_2_1B_following_a_road_ignores_the_terrain_cost():
    """0427 -> 0428 (woods) along the track: 1 MP instead of 2, and 1 instead of 3 for a mechanized
    unit."""
    assert path(position({"61/162G": "0427"}), "61/162G", "0428").cost == 1
    assert path(position({"FHH/AA": "0427"}), "FHH/AA", "0428").cost == 1


def test_6_2_1B_the_road_must_be_followed_continuously():
    """0328 -> 0428: both woods, 0428 has a track but not towards 0328: the woods cost, 2 MP."""
    board = position({"61/162G": "0328"})
    assert path(board, "61/162G", "0428").cost == 2


def test_6_2_1B_the_rollbahn_costs_half_a_point():
    """0331 -> 0430 -> 0531 -> 0630 along the rollbahn: 3 x 1/2 MP."""
    board = position({"61/162G": "0331"})
    assert path(board, "61/162G", "0630").cost == 1.5


def test_6_2_1B_a_road_lets_mechanized_units_into_swamp():
    """2721 (woods) -> 2821 (swamp) along the road: 1 MP even for a mechanized unit."""
    board = position({"FHH/AA": "2721"})
    assert path(board, "FHH/AA", "2821").cost == 1


def test_6_2_1B_a_road_ignores_the_hexside_cost_of_a_bridged_river():
    """1130 -> 1230 across the Sotke (minor river) on the road: 1 MP, no +1 for the river."""
    board = position({"61/162G": "1130"})
    assert path(board, "61/162G", "1230").cost == 1


def test_6_2_1C_the_winter_trail_exists_while_frozen():
    """Turn 1: 1921 -> 1821 -> 1722 -> 1622 -> 1623, all swamp, along the winter trail at 1 MP each."""
    board = position({"109/657": "1921"}, turn=1)
    moved = move(board, "soviet", "109/657", "1623")
    assert moved["path"] == ["1921", "1821", "1722", "1622", "1623"]


def test_6_2_1C_after_turn_7_the_winter_trail_hexes_are_normal_swamp():
    """Turn 8 (thaw): the same hexes cost 2 each; 1623 is out of reach of an MA 4 unit."""
    board = position({"109/657": "1921"}, turn=8)
    assert path(board, "109/657", "1722").cost == 4
    refused(position({"109/657": "1921"}, turn=8), "soviet", "109/657", "1623",
            because=r"657 cannot reach 1623 from 1921 with 4 MP(; did you mean|$)")


def test_6_2_1C_a_random_event_prolongs_the_winter_trail_to_turn_8():
    board = position({"109/657": "1921"}, turn=8)
    board.data["freeze_extended"] = True
    assert path(board, "109/657", "1623").cost == 4


def test_6_2_1C_mechanized_units_use_the_winter_trail_only_while_it_exists():
    """1722 is swamp with no road but the winter trail: a mechanized unit reaches it on Turn 1 (2 MP)
    and may not enter it on Turn 8."""
    assert path(position({"IND/185Tk": "1921"}, turn=1), "IND/185Tk", "1722").cost == 2
    refusal(lambda: path(position({"IND/185Tk": "1921"}, turn=8), "IND/185Tk", "1722"),
            because=r"185 Tk may not enter 1722: .*prohibited to mechanized units off road.*its winter trail exists "
                    r"only while frozen \(6\.2\.1C\)")


# ---------------------------------------------------------------- 6.2.2 major rivers


def test_6_2_2B_major_rivers_are_frozen_on_turns_1_to_7():
    """2722 -> 2821 across the lower Narva: possible on Turn 7, not on Turn 8."""
    assert path(position({"109/381": "2722"}, turn=7), "109/381", "2821").cost == 3
    refused(position({"109/381": "2722"}, turn=8), "soviet", "109/381", "2821",
            because=r"381 cannot cross the river between 2722 and 2821: the river is not frozen now \(6\.2\.2B\)")


def test_6_2_2B_a_random_event_may_prolong_the_freeze_to_turn_8():
    board = position({"109/381": "2722"}, turn=8)
    board.data["freeze_extended"] = True
    assert path(board, "109/381", "2821").cost == 3


def test_6_2_2C_the_narva_above_krivasoo_is_never_frozen():
    """1103 -> 1002 (both clear) across the upper Narva (Krivasoo to Lake Peipus): prohibited even on
    Turn 1 (ruling N-18: the upper course)."""
    board = position({"122/147": "1103"}, turn=1)
    assert board.frozen
    refused(board, "soviet", "122/147", "1002",
            because=r"147 cannot cross the river between 1103 and 1002: this stretch never freezes \(6\.2\.2C\)")


def test_6_2_2_1A_infantry_crosses_a_frozen_major_river_for_one_more_mp():
    """2508 -> 2608 (woods, unbridged Plyussa) on Turn 1: 2 + 1 = 3 MP."""
    board = position({"122/320": "2508"}, turn=1)
    assert path(board, "122/320", "2608").cost == 3


def test_6_2_2_1C_mechanized_units_may_not_cross_a_frozen_major_river():
    """FHH/PZG at 2722 cannot step over the frozen lower Narva into 2721 (woods); infantry can (3 MP)."""
    board = position({"FHH/PZG": "2722"}, turn=1)
    assert step_cost(board, "FHH/PZG", "2722", "2721") is None
    infantry = position({"61/162G": "2722"}, turn=1)
    assert step_cost(infantry, "61/162G", "2722", "2721") == 3
    refused(board, "german", "FHH/PZG", "2721",
            because=r"PZG cannot cross the river between 2722 and 2721: mechanized units may not cross a frozen major "
                    r"river \(6\.2\.2\.1C\)")


def test_6_2_2_2A_an_unfrozen_major_river_cannot_be_crossed_without_a_bridge():
    """Turn 9: 2508 -> 2608 across the Plyussa is prohibited."""
    refused(position({"122/320": "2508"}, turn=9), "soviet", "122/320", "2608",
            because=r"320 cannot cross the river between 2508 and 2608: .*an unfrozen major river is crossed only at "
                    r"a bridge or ferry \(6\.2\.2\.2A\)")


def test_6_2_2_2A_bridges_cross_unfrozen_major_rivers():
    """Turn 9: 2510 -> 2609 on the road bridge over the Plyussa, 1 MP (2.2.8: a road crossing a river
    is a bridge, which cancels the river's movement effects)."""
    board = position({"122/320": "2510"}, turn=9)
    assert path(board, "122/320", "2609").cost == 1
    board = position({"109/381": "1819"}, turn=9)
    assert path(board, "109/381", "1820").cost == 1  # the road bridge at Krivasoo


FERRY_UNITS = {"124/HQ": "1308", "124/77": "1104", "124/153": "1104", "124/218": "1309", "124/483": "1309",
               "124/486": "1412", "124/502": "1412"}


def ferry_board(extra=None):
    units = dict(FERRY_UNITS)
    units.update(extra or {})
    board = position(units, turn=9)
    moving(board, "soviet", *[u for u in FERRY_UNITS if u != "124/HQ"])
    return board


def test_6_2_2_2B_example_one_infantry_per_ferry_per_activation():
    """6.2.2.2B example: 124 Corps is activated in Turn 9 (thawed) with three ferry hexes, each stacked
    with two infantry units (1104, 1309, 1412 on the upper Narva).  In each hex one unit crosses its
    ferry at the cost of all its MP; the second unit of each hex cannot."""
    board = ferry_board()
    assert not board.frozen
    for first, second, other_bank in (("77", "153", "1004"), ("218", "483", "1209"), ("486", "502", "1312")):
        answer(board, f"MOVE {first} TO {other_bank}")
        assert board.hex_of(f"124/{first}") == other_bank
        assert "ferry" in emitted(board, "moved")[-1]["how"]
        cannot(board, f"MOVE {second} TO {other_bank}",
               because=r"the ferry \d{4}-\d{4} has already carried a unit this activation \(6\.2\.2\.2B\)")
        assert board.hex_of(f"124/{second}") != other_bank


def test_6_2_2_2B_a_ferry_crossing_uses_all_the_units_mp():
    """The crossing is the whole move: 77 cannot cross at 1104/1004 and go on to 1005 by road."""
    board = ferry_board()
    cannot(board, "MOVE 77 TO 1005",
           because=r"77 cannot reach 1005 from 1104 with 4 MP; crossing the ferry 1004-1104 takes all its MP and "
                   r"ends its move in 1004 \(6\.2\.2\.2B\)")
    assert board.hex_of("124/77") == "1104"


def test_6_2_2_2B_a_ferry_crossing_may_end_in_an_ezoc():
    """With a German unit at 0905, 1004 is in its ZOC; the crossing is a minimum move (6.1C) and allowed."""
    board = ferry_board({"61/162G": "0905"})
    assert board.in_enemy_zoc("1004", "soviet")
    answer(board, "MOVE 77 TO 1004")
    assert board.hex_of("124/77") == "1004"


def test_6_2_2_2B_the_ferry_is_available_again_in_the_next_activation():
    board = ferry_board()
    answer(board, "MOVE 77 TO 1004")
    answer(board, "MOVE DONE")
    moving(board, "soviet", "124/153")
    answer(board, "MOVE 153 TO 1004")
    assert board.hex_of("124/153") == "1004"


def test_6_2_2_2D_mechanized_units_may_not_use_a_ferry():
    refused(position({"IND/185Tk": "1104"}, turn=9), "soviet", "IND/185Tk", "1004",
            because=r"185 Tk cannot cross the river between 1104 and 1004: mechanized units may not use a ferry "
                    r"\(6\.2\.2\.2D\)")


# ---------------------------------------------------------------- 6.2.3 minor rivers


@pytest.mark.parametrize("turn", [1, 9])
def test_6_2_3_minor_rivers_cost_the_same_frozen_or_thawed(turn):
    """2226 -> 2227 across the Mustajogi: infantry 1 + 1, mechanized 1 + 2, on Turn 1 and on Turn 9."""
    assert path(position({"109/381": "2226"}, turn=turn), "109/381", "2227").cost == 2
    assert path(position({"IND/185Tk": "2226"}, turn=turn), "IND/185Tk", "2227").cost == 3


# ---------------------------------------------------------------- 6.3 restrictions


def test_6_3A_no_move_into_the_sea_or_a_lake():
    refused(position({"61/162G": "0433"}), "german", "61/162G", "0434",
            because=r"0434 is water \(6\.3A\)")  # the Gulf of Finland
    refused(position({"122/147": "0102"}), "soviet", "122/147", "0101",
            because=r"0101 is water \(6\.3A\)")  # Lake Peipus


def test_6_3B_units_may_not_enter_enemy_occupied_hexes():
    board = position({"109/381": "2332", "61/162G": "2432"})
    refused(board, "soviet", "109/381", "2432", because=r"2432 holds enemy units \(6\.3B\)")


def test_6_3B_a_combat_unit_overruns_a_lone_enemy_hq_by_entering_its_hex():
    board = position({"109/381": "2231", "FHH/HQ": "2332"})
    move(board, "soviet", "109/381", "2332")
    assert board.hex_of("109/381") == "2332"
    assert [e["hq"] for e in emitted(board, "overrun")] == ["FHH/HQ"]
    assert board.state_of("FHH/HQ")["where"] == "displacing"  # 11.1.4: its displacement is pending
    assert board.top()["kind"] == "displace"


def test_6_3B_an_hq_cannot_overrun_an_hq():
    board = position({"109/HQ": "2231", "FHH/HQ": "2332"})
    refused(board, "soviet", "109/HQ", "2332", because=r"2332 holds enemy units \(6\.3B\)")


def test_6_3C_only_the_4th_and_11th_ss_may_enter_prepared_defence_hexes():
    """3128 (enclave) -> 3127 (11SS PD hex) along the road: 11SS and 4SS units may (11.3.1B: each
    division may enter the other's PD hexes); the 20th SS and the Wehrmacht may not."""
    for unit in ("11SS/KAUS", "4SS/2/49"):
        board = position({unit: "3128"})
        move(board, "german", unit, "3127")
        assert board.hex_of(unit) == "3127"
    refused(position({"20SS/1/46": "3128"}), "german", "20SS/1/46", "3127",
            because=r"1/46 may not enter 3127: only the 4th and 11th SS may enter Prepared Defence hexes \(6\.3C")
    refused(position({"FHH/MOK": "3126"}), "german", "FHH/MOK", "3127",
            because=r"MOK may not enter 3127: only the 4th and 11th SS may enter Prepared Defence hexes \(6\.3C")


def test_6_3D_only_ss_units_may_enter_narva():
    """2929 -> 3029 (Narva, city): the 20th SS may, FHH may not."""
    board = position({"20SS/1/46": "2929"})
    move(board, "german", "20SS/1/46", "3029")
    assert board.hex_of("20SS/1/46") == "3029"
    refused(position({"FHH/MOK": "2929"}), "german", "FHH/MOK", "3029",
            because=r"MOK may not enter 3029: only SS units may enter Narva and the enclave behind the Prepared "
                    r"Defences \(6\.3D\)")


def test_6_3D_only_ss_units_may_enter_the_enclave_across_the_river():
    """3126 -> 3127 is PD; 3027 (village) -> 3128 (enclave, not PD) crosses the frozen Narva: 20SS may,
    FHH may not."""
    board = position({"20SS/1/46": "3027"}, turn=1)
    move(board, "german", "20SS/1/46", "3128")
    assert board.hex_of("20SS/1/46") == "3128"
    refused(position({"FHH/MOK": "3027"}, turn=1), "german", "FHH/MOK", "3128",
            because=r"MOK may not enter 3128: only SS units may enter Narva and the enclave behind the Prepared "
                    r"Defences \(6\.3D\)")


def test_6_3D_the_kust_hq_is_not_ss_and_may_not_enter_narva():
    """Ruling N-17 (an HQ counts as a unit of its formation) with N-13 (KUST is not SS)."""
    refused(position({"KUST/HQ": "2929"}), "german", "KUST/HQ", "3029",
            because=r"KUST HQ may not enter 3029: only SS units may enter Narva and the enclave behind the Prepared "
                    r"Defences \(6\.3D\)")


def test_6_3E_the_20th_ss_helps_in_narva_and_the_enclave_but_not_in_the_pd_hexes():
    board = position({"20SS/1/46": "3028"}, turn=1)
    move(board, "german", "20SS/1/46", "3129")  # enclave village, not PD
    assert board.hex_of("20SS/1/46") == "3129"
    refused(position({"20SS/1/46": "3228"}, turn=1), "german", "20SS/1/46", "3329",
            because=r"1/46 may not enter 3329: only the 4th and 11th SS may enter Prepared Defence hexes "
                    r"\(6\.3C")  # 11SS PD


def test_6_3_soviet_units_may_enter_pd_hexes_and_narva():
    """Ruling N-17: 6.3C-D bind German units only."""
    board = position({"109/381": "3226"})
    move(board, "soviet", "109/381", "3127")
    assert board.hex_of("109/381") == "3127"
    board = position({"109/381": "2929"})
    move(board, "soviet", "109/381", "3029")
    assert board.hex_of("109/381") == "3029"


# ---------------------------------------------------------------- 6.4 strategic movement


def test_6_4_1A_strategic_movement_along_the_rollbahn_costs_a_quarter():
    """From 0131 (entry A) sixteen rollbahn hexes east to 1730 cost 16 x 1/4 = 4 MP strategically; a
    normal move (1/2 MP a hex) cannot get there, nor can a strategic move get one hex further."""
    board = position({"61/162G": "0131"})
    moved = move(board, "german", "61/162G", "1730", "STRATEGIC")
    assert board.hex_of("61/162G") == "1730"
    assert len(moved["path"]) == 17
    refused(position({"61/162G": "0131"}), "german", "61/162G", "1730",
            because=r"162G cannot reach 1730 from 0131 with 4 MP(; did you mean|$)")
    refused(position({"61/162G": "0131"}), "german", "61/162G", "1830", "STRATEGIC",
            because=r"162G cannot reach 1830 from 0131 with 4 MP by road \(strategic movement, 6\.4")


def test_6_4_1A_strategic_movement_must_start_on_a_road():
    refused(position({"61/162G": "0231"}), "german", "61/162G", "0430", "STRATEGIC",
            because=r"strategic movement must start on a road hex; 0231 has none usable \(6\.4\.1\)")


def test_6_4_1A_strategic_movement_stays_on_the_road_for_the_whole_move():
    """0331 -> 0332 leaves the rollbahn: not a strategic move (the normal move is 1 MP)."""
    refused(position({"61/162G": "0331"}), "german", "61/162G", "0332", "STRATEGIC",
            because=r"162G cannot reach 0332 from 0331 with 4 MP by road \(strategic movement, 6\.4: along roads")
    assert path(position({"61/162G": "0331"}), "61/162G", "0332").cost == 1


def test_6_4_1B_trails_may_not_be_used_for_strategic_movement():
    """2125 -> 2126 -> 2127 along a trail: fine as a normal move (2 MP), not strategically."""
    assert path(position({"61/162G": "2125"}), "61/162G", "2127").cost == 2
    refused(position({"61/162G": "2125"}), "german", "61/162G", "2127", "STRATEGIC",
            because=r"strategic movement must start on a road hex; 2125 has none usable \(6\.4\.1\)")


def test_6_4_1B_the_winter_trail_may_not_be_used_for_strategic_movement():
    """Ruling N-36: the winter trail is a trail."""
    refused(position({"109/657": "1921"}, turn=1), "soviet", "109/657", "1722", "STRATEGIC",
            because=r"657 cannot reach 1722 from 1921 with 4 MP by road \(strategic movement, 6\.4: along roads other "
                    r"than trails")


def test_6_4_2A_strategic_movement_may_not_start_in_an_ezoc():
    board = position({"61/162G": "0131", "109/381": "0231"})
    refused(board, "german", "61/162G", "0430", "STRATEGIC",
            because=r"162G starts in an enemy zone of control: no strategic move \(6\.4\.2A\)")


def test_6_4_2A_strategic_movement_may_not_enter_an_ezoc():
    """A Soviet unit at 0732 puts 0731 and 0831 (rollbahn) in its ZOC: the strategic move from 0131
    may reach 0630 but neither stop at 0731 nor pass on to 1730."""
    board = position({"61/162G": "0131", "109/381": "0732"})
    move(board, "german", "61/162G", "0630", "STRATEGIC")
    assert board.hex_of("61/162G") == "0630"
    refused(position({"61/162G": "0131", "109/381": "0732"}), "german", "61/162G", "0731", "STRATEGIC",
            because=r"162G cannot reach 0731 from 0131 with 4 MP by road \(strategic movement, 6\.4: .*never into an "
                    r"enemy zone of control")
    refused(position({"61/162G": "0131", "109/381": "0732"}), "german", "61/162G", "1730", "STRATEGIC",
            because=r"162G cannot reach 1730 from 0131 with 4 MP by road \(strategic movement, 6\.4: .*never into an "
                    r"enemy zone of control")


def test_6_4_2B_strategic_movement_may_not_pass_a_full_hex():
    """0531 holds two German combat units: a strategic move along the rollbahn may not pass through
    it; a normal move may (7.1C: stacking counts where a move ends)."""
    full = {"61/162G": "0131", "61/176G": "0531", "61/161Pio": "0531"}
    refused(position(full), "german", "61/162G", "1730", "STRATEGIC",
            because=r"162G cannot reach 1730 from 0131 with 4 MP by road \(strategic movement, 6\.4: .*nor through a "
                    r"full hex")
    board = position(full)
    move(board, "german", "61/162G", "0831")
    assert board.hex_of("61/162G") == "0831"


def test_6_4_2B_an_hq_may_not_pass_another_hq_strategically():
    units = {"61/HQ": "0131", "FHH/HQ": "0531"}
    refused(position(units), "german", "61/HQ", "1430", "STRATEGIC",
            because=r"61 HQ cannot reach 1430 from 0131 with 6 MP by road \(strategic movement, 6\.4: .*nor through a "
                    r"full hex")
    board = position(units)
    move(board, "german", "61/HQ", "0831")  # a normal move may pass it
    assert board.hex_of("61/HQ") == "0831"


# ---------------------------------------------------------------- 6.5 rail movement


def test_6_5A_a_reinforcement_moves_any_distance_by_rail():
    """From 0131 (entry A, major railway) to 1928, the end of the line that the Soviets cut in the
    first turn (hexside 1928/2028): nineteen hexes, far beyond an MA of 4."""
    board = position({"61/162G": "0131"})
    moving(board, "german", "61/162G", mode="reinforce")
    answer(board, "MOVE 162G TO 1928 RAIL")
    assert board.hex_of("61/162G") == "1928"
    assert board.scenario.distance("0131", "1928") > 4


def rail(units, unit, dest, side="german", turn=1):
    board = position(units, turn=turn)
    moving(board, side, unit, mode="reinforce")
    return board, f"MOVE {unit} TO {dest} RAIL"


def test_6_5A_rail_movement_uses_major_railways_only():
    """1828 -> 1929 is the minor railway towards Merekula: units never move along minor railways."""
    board, order = rail({"61/162G": "1828"}, "61/162G", "1929")
    cannot(board, order, because=r"1929 cannot be reached by rail from 1828 \(6\.5\)")


def test_6_5A_rail_movement_may_not_start_in_an_ezoc():
    board, order = rail({"61/162G": "0131", "109/381": "0231"}, "61/162G", "1030")
    cannot(board, order, because=r"162G is in an enemy zone of control: no rail move \(6\.5A\)")


def test_6_5B_rail_movement_stops_on_entering_an_ezoc():
    """A Soviet unit at 1129 puts 1030 and 1130 (railway) in its ZOC: the move may end at 1030 but
    not continue to 1928."""
    board, order = rail({"61/162G": "0131", "109/381": "1129"}, "61/162G", "1030")
    answer(board, order)
    assert board.hex_of("61/162G") == "1030"
    board, order = rail({"61/162G": "0131", "109/381": "1129"}, "61/162G", "1928")
    cannot(board, order, because=r"1928 cannot be reached by rail from 0131 \(6\.5\)")


def test_6_5B_an_enemy_unit_without_a_zoc_blocks_the_line():
    """A lone Soviet HQ (no ZOC) on the railway at 1428 blocks the line to 1928."""
    board, order = rail({"61/162G": "0131", "109/HQ": "1428"}, "61/162G", "1928")
    assert not board.in_enemy_zoc("1329", "german")
    cannot(board, order, because=r"1928 cannot be reached by rail from 0131 \(6\.5\)")
    board, order = rail({"61/162G": "0131", "109/HQ": "1428"}, "61/162G", "1329")
    answer(board, order)
    assert board.hex_of("61/162G") == "1329"


def test_6_5B_the_german_line_from_a_is_cut():
    """The map shows the line cut between 1928 and 2028 (6.5B)."""
    assert board_side_cut("1928", "2028")
    board, order = rail({"61/162G": "0131"}, "61/162G", "2028")
    cannot(board, order, because=r"2028 cannot be reached by rail from 0131 \(6\.5\)")


def board_side_cut(a, b):
    return position({}).scenario.hexside(a, b).rail_cut


def test_6_5C_rail_movement_may_not_be_combined_with_other_movement():
    """0332 is a clear hex one step off the railway at 0330: no rail move ends there, and after a
    rail move the unit has moved."""
    board, order = rail({"61/162G": "0131"}, "61/162G", "0332")
    cannot(board, order, because=r"0332 cannot be reached by rail from 0131 \(6\.5\)")
    board = position({"61/162G": "0131", "61/HQ": "0230"})
    moving(board, "german", "61/162G", "61/HQ", mode="reinforce")
    answer(board, "MOVE 162G TO 0730 RAIL")
    cannot(board, "MOVE 162G TO 0731", because=r"162G has already moved")
    assert board.hex_of("61/162G") == "0730"


def test_6_5D_only_reinforcements_may_move_by_rail():
    board = position({"61/162G": "0131"})
    moving(board, "german", "61/162G")
    cannot(board, "MOVE 162G TO 1928 RAIL",
           because=r"only reinforcements may move by rail, on the turn they arrive \(6\.5D\)")


def test_6_5A_soviet_reinforcements_use_the_railway_from_entry_d():
    """3529 (entry D) is on the major railway: a Soviet reinforcement may ride it west to 3328."""
    board, order = rail({"IND/40G": "3529"}, "IND/40G", "3328", side="soviet")
    answer(board, order)
    assert board.hex_of("IND/40G") == "3328"


# ---------------------------------------------------------------- isolated units (10.3.2 with ruling N-61)


def test_10_3_2_an_isolated_units_ma_is_halved_exactly():
    """Ruling N-61: no rounding, because road costs can be fractions.  61F (MA 5) isolated has 2.5 MP:
    five rollbahn hexes from 0131 to 0630 (5 x 1/2); six (to 0731) is too far."""
    board = position({"61/61F": "0131"}, supply={"61/61F": "isolated"})
    assert board.scenario.unit("61/61F").full.movement == 5
    assert board.movement_allowance("61/61F") == 2.5
    assert move(board, "german", "61/61F", "0630")["path"][-1] == "0630"
    refused(position({"61/61F": "0131"}, supply={"61/61F": "isolated"}), "german", "61/61F", "0731",
            because=r"61F cannot reach 0731 from 0131 with 2\.5 MP(; did you mean|$)")


def test_10_3_1B_out_of_supply_units_keep_their_full_ma():
    board = position({"61/61F": "0131"}, supply={"61/61F": "oos"})
    assert board.movement_allowance("61/61F") == 5


# ---------------------------------------------------------------- more 6.2.1 / 6.3B


def test_6_2_1A_a_minor_railway_serves_as_a_track_in_normal_movement():
    """Ruling N-58: 1828 -> 1929 (woods) along the minor railway costs 1 MP, not 2."""
    board = position({"61/162G": "1828"})
    assert board.scenario.hexside("1828", "1929").routes == {"railway_minor"}
    assert path(board, "61/162G", "1929").cost == 1


def test_6_3B_a_lone_hq_can_be_overrun_during_strategic_movement():
    """A lone Soviet HQ on the rollbahn at 0531 (HQs have no ZOC): the German strategic move from 0131
    to 0831 runs over it and goes on (ruling N-61)."""
    board = position({"61/162G": "0131", "109/HQ": "0531"})
    moved = move(board, "german", "61/162G", "0831", "STRATEGIC")
    assert "0531" in moved["path"] and board.hex_of("61/162G") == "0831"
    assert [e["hq"] for e in emitted(board, "overrun")] == ["109/HQ"]


def test_6_3B_11_1_4B_an_overrun_needs_the_mp_to_enter_the_hex():
    """Ruling N-61: the minimum move of 6.1C does not stretch to an overrun.  381 is isolated (MA 2):
    2722 -> 2821 costs 3 (swamp 2, frozen river 1).  Into the empty hex it is a legal minimum move; onto
    a lone German HQ it is not an overrun ("being adjacent is not enough")."""
    board = position({"109/381": "2722"}, supply={"109/381": "isolated"}, turn=1)
    assert move(board, "soviet", "109/381", "2821")["path"] == ["2722", "2821"]
    board = position({"109/381": "2722", "FHH/HQ": "2821"}, supply={"109/381": "isolated"}, turn=1)
    refused(board, "soviet", "109/381", "2821",
            because=r"381 lacks the MP to enter 2821 and overrun the HQ there \(11\.1\.4B\)")
    assert board.hex_of("FHH/HQ") == "2821" and not emitted(board, "overrun")


def test_6_2_2_1A_a_frozen_ferry_hexside_is_crossed_as_a_frozen_river():
    """Ruling N-39: while the lower Narva is frozen (Turn 1), infantry crosses the ferry hexside
    2734/2634 as a frozen major river (2634 clear, by no road across: 1 + 1 = 2 MP), keeps its other MP
    and is not limited to one unit per ferry."""
    board = position({"43/593": "2734", "43/743": "2734", "43/HQ": "2935"}, turn=1)
    assert board.scenario.hexside("2734", "2634").ferry
    found = path(board, "43/593", "2634")
    assert found.hexes == ("2734", "2634") and found.cost == 2 and found.ferry is None
    moving(board, "soviet", "43/593", "43/743", "43/HQ")
    answer(board, "MOVE 593 TO 2634")
    answer(board, "MOVE 743 TO 2634")
    assert board.hex_of("43/593") == board.hex_of("43/743") == "2634"
    assert not any("ferry" in e["how"] for e in emitted(board, "moved"))


def test_a_refused_move_suggests_the_unit_s_legal_moves_nearest_the_hex_asked_for():
    """notes/hand-narva.md, defect 8: a MOVE into swamp (6.1B) was answered "the closest legal answer now:
    'MOVE FHH/PZG TO 1929'", the one move of that unit the question lists, seven hexes away, when hexes
    next to the one asked for were legal.  The refusal names the unit's legal moves nearest the hex asked
    for, among all the hexes it can reach."""
    board = position({"FHH/AA": "2322"})
    moving(board, "german", "FHH/AA")
    assert "MOVE FHH/AA TO 2323" in decisions(board)[0].options  # the question's sample, two hexes from 2321
    error = cannot(board, "MOVE FHH/AA TO 2321", because=r"AA may not enter 2321: its terrain \(swamp\) is "
                                                          r"prohibited to mechanized units off road \(6\.1B, TEC\)")
    assert error.suggestions == ("MOVE FHH/AA TO 2220", "MOVE FHH/AA TO 2320")
    assert [board.scenario.distance(s.split()[-1], "2321") for s in error.suggestions] == [1, 1]
    assert board.scenario.distance("2323", "2321") == 2
