"""Rule 9.6 (advance after combat), with 6.2.2.1B-C, 6.2.2.2C-D, 9.6.5-9.6.6 and 11.1.2.

To vacate a hex the tests use weak defenders: the police battalion 30P (defence 2, one step) or a
reduced rifle regiment (defence 2).  German FHH/PZ is armour (7), FHH/PZG mechanized (6): both
mechanized for 9.6.3 (ruling N-38).  CRT cells (tables.yaml) are named in each test.  2332 and its
neighbours are clear; 2323 is a village; the Mustajogi (minor) runs between 2226 and 2227; the
Torvajogi (minor) is bridged by a track between 2427 and 2428; the Narva (major) runs between 2633
and 2733, and the Kudrukula ferry crosses it between 2634 and 2734.
"""

from __future__ import annotations

from tests.games.narva.fight import asked, auto, board, fight, refused, where
from tests.games.narva.helpers import answer, decisions, emitted


def soviet_attack_on_police(units, target, attackers, turn=2, die=4):
    """381 + 456 (6) against 30P (2): 3-1 on the Soviet line (column 4); die 4 gives D1r1: 30P,
    one step, is eliminated and the hex vacated."""
    b = board(units, turn=turn, rolls=[die])
    fight(b, "soviet", target, attackers)
    assert b.data["units"]["IND/30P"]["where"] == "eliminated"
    return b


def german_attack_on_reduced_381(units, target, attackers, rolls=(3,)):
    """PZ (7) against a reduced rifle regiment (2): 3-1 on the German line (column 5); die 3 gives
    D1r1: 381 is eliminated."""
    b = board(units, reduced=["109/381"], rolls=list(rolls))
    fight(b, "german", target, attackers)
    assert b.data["units"]["109/381"]["where"] == "eliminated"
    return b


def test_9_6A_attackers_may_move_into_the_vacated_hex():
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/456": "2431"}, "2332",
                                ["109/381", "109/456"])
    assert asked(b) == ["advance"]
    answer(b, "ADVANCE 381")
    assert b.hex_of("109/381") == "2332"
    assert b.hex_of("109/456") == "2431"


def test_9_6B_the_units_named_are_the_whole_advance_and_the_others_stay():
    """9.6B: "the attacker may advance all, some, or none of its attacking units" (ruling N-65).  The
    tester's "ADVANCE FHH/PZG" (notes/hand-narva.md, defect 3) left FUS to be asked again, and the
    default ADVANCE AUTO pulled it out of its village: the units named are the answer, the others stay."""
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/456": "2431"}, "2332",
                                ["109/381", "109/456"])
    answer(b, "ADVANCE 456")
    assert "advance" not in asked(b)
    assert where(b, "109/381", "109/456") == ["2432", "2332"]


def test_9_6B_the_advance_is_optional():
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/456": "2431"}, "2332",
                                ["109/381", "109/456"])
    answer(b, "ADVANCE NONE")
    assert where(b, "109/381", "109/456") == ["2432", "2431"]
    assert asked(b) == []


def test_9_6B_the_advance_respects_the_stacking_limit():
    """Three attackers; only two combat units may stand in 2332 (7.1B)."""
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/456": "2431", "109/602": "2333"},
                                "2332", ["109/381", "109/456", "109/602"], die=3)
    refused(b, "ADVANCE 381 456 602", because=r"2332 would be overstacked \(7\.1\)")
    answer(b, "ADVANCE 381 456")
    assert where(b, "109/381", "109/456", "109/602") == ["2332", "2332", "2333"]


def test_9_6C_D_the_first_hex_is_the_defenders_and_enemy_zocs_are_ignored():
    """PZ advances through 2332 into 2232, which lies in the ZOC of the Soviet unit in 2133: allowed
    (no MP, EZOCs ignored).  2131 is not next to 2332, so it cannot be the second hex."""
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432", "109/456": "2133"}, "2332", ["FHH/PZ"])
    assert b.in_enemy_zoc("2232", "german")
    refused(b, "ADVANCE PZ TO 2131", because=r"PZ may not continue to 2131 \(9\.6\.3-9\.6\.4: .*adjacent")
    answer(b, "ADVANCE PZ TO 2232")
    assert b.hex_of("FHH/PZ") == "2232"
    adv = emitted(b, "advanced")[-1]
    assert (adv["via"], adv["hex"]) == ("2332", "2232")


def test_9_6_1A_infantry_do_not_advance_over_a_thawed_major_river():
    """Turn 9: 381 + 456 attack 2633 from 2733 across the open Narva (halved: 3 against 2, 1-1 column
    2; die 6 gives D1r1).  The hex is vacated, but nobody may advance into it."""
    b = soviet_attack_on_police({"IND/30P": "2633", "109/381": "2733", "109/456": "2733"}, "2633",
                                ["109/381", "109/456"], turn=9, die=6)
    assert "advance" not in asked(b)
    assert where(b, "109/381", "109/456") == ["2733", "2733"]


def test_9_6_1A_infantry_advance_across_a_ferry():
    """Turn 9, the same across the Kudrukula ferry (2734 -> 2634): the advance is allowed (6.2.2.2C)."""
    b = soviet_attack_on_police({"IND/30P": "2634", "109/381": "2734", "109/456": "2734"}, "2634",
                                ["109/381", "109/456"], turn=9, die=6)
    answer(b, "ADVANCE 381")
    assert b.hex_of("109/381") == "2634"


def test_9_6_1B_infantry_advance_across_a_frozen_major_river():
    """Turn 2, as the first test of 9.6.1A: the Narva is frozen and 381 advances from 2733 into 2633."""
    b = soviet_attack_on_police({"IND/30P": "2633", "109/381": "2733", "109/456": "2733"}, "2633",
                                ["109/381", "109/456"], turn=2, die=6)
    answer(b, "ADVANCE 381")
    assert b.hex_of("109/381") == "2633"


def test_9_6_2_the_defender_does_not_advance():
    """381 + 456 against 162G (6:5, 1-1), die 2: Ar1.  The attackers' hexes are vacated; nothing is
    offered to the defender."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, rolls=[2])
    assert fight(b, "soviet", "2332", ["109/381", "109/456"])["result"] == "Ar1"
    auto(b, until="advance")
    assert "advance" not in asked(b)
    assert b.hex_of("61/162G") == "2332"


def test_9_6_3A_mechanized_units_may_advance_two_hexes():
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432"}, "2332", ["FHH/PZ"])
    answer(b, "ADVANCE PZ TO 2231")
    assert b.hex_of("FHH/PZ") == "2231"


def test_9_6_3A_infantry_advance_one_hex_only():
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/456": "2431"}, "2332",
                                ["109/381", "109/456"])
    refused(b, "ADVANCE 381 TO 2232", because=r"381 may not continue to 2232 \(9\.6\.3-9\.6\.4: mechanized only")
    assert b.hex_of("109/381") == "2432"


def test_9_6_3B_mechanized_units_of_one_combat_may_end_in_different_hexes():
    """PZ + PZG (13) against reduced 381 (2): 6-1 on the German line (column 8); die 3 gives D2r2."""
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432", "FHH/PZG": "2431"}, "2332",
                                     ["FHH/PZ", "FHH/PZG"])
    answer(b, "ADVANCE PZ TO 2232")
    answer(b, "ADVANCE PZG TO 2231")
    assert where(b, "FHH/PZ", "FHH/PZG") == ["2232", "2231"]


def test_9_6_3B_after_a_group_went_on_the_others_are_asked_again_and_advance_only_if_named():
    """The question after a group went TO a second hex is about units the player did not name (9.6B,
    ruling N-65): ADVANCE AUTO, the game's default, does not answer it, so they stay unless named."""
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432", "FHH/PZG": "2431"}, "2332",
                                     ["FHH/PZ", "FHH/PZG"])
    answer(b, "ADVANCE PZ TO 2232")
    assert asked(b) == ["advance"] and "ADVANCE AUTO" not in decisions(b)[0].options
    refused(b, "ADVANCE AUTO", because=r"ADVANCE AUTO answers only the first advance question.*\(9\.6B, ruling N-65\)")
    answer(b, "ADVANCE NONE")
    assert where(b, "FHH/PZ", "FHH/PZG") == ["2232", "2431"]


def test_9_6_4A_mechanized_units_never_advance_across_an_unbridged_major_river():
    """Turn 2 (frozen): PZ attacks 2634 from 2735 across the Narva (halved: 3 against 2, 3-2 on the
    German line, column 3; die 6 gives D1r2).  It may not advance at all (6.2.2.1C)."""
    b = german_attack_on_reduced_381({"109/381": "2634", "FHH/PZ": "2735"}, "2634", ["FHH/PZ"], rolls=(6,))
    assert "advance" not in asked(b)
    assert b.hex_of("FHH/PZ") == "2735"


def test_9_6_4A_nor_take_the_second_hex_across_it():
    """PZ attacks 2634 from the village 2633 (west bank): it advances into 2634, but not on across the
    Narva to 2735, nor over the Kudrukula ferry to 2734; 2535 (woods, west bank) is allowed."""
    b = german_attack_on_reduced_381({"109/381": "2634", "FHH/PZ": "2633"}, "2634", ["FHH/PZ"])
    refused(b, "ADVANCE PZ TO 2735",
            because=r"PZ may not continue to 2735 \(9\.6\.3-9\.6\.4: .*no unbridged major river")
    refused(b, "ADVANCE PZ TO 2734",
            because=r"PZ may not continue to 2734 \(9\.6\.3-9\.6\.4: .*no unbridged major river")
    answer(b, "ADVANCE PZ TO 2535")
    assert b.hex_of("FHH/PZ") == "2535"


def test_9_6_4B_crossing_an_unbridged_minor_river_stops_a_mechanized_advance():
    """PZ attacks 2227 from 2226 across the Mustajogi (halved: 3 against 2, 3-2, column 3; die 6 gives
    D1r2): it may advance into 2227 but no further."""
    b = german_attack_on_reduced_381({"109/381": "2227", "FHH/PZ": "2226"}, "2227", ["FHH/PZ"], rolls=(6,))
    refused(b, "ADVANCE PZ TO 2228",
            because=r"PZ may not continue to 2228 \(9\.6\.3-9\.6\.4: .*a minor river or a village/city stops it")
    answer(b, "ADVANCE PZ")
    assert b.hex_of("FHH/PZ") == "2227"


def test_9_6_4B_a_bridged_minor_river_does_not_stop_it():
    """PZ attacks 2428 from 2427 over the Torvajogi track bridge (still halved, 2.2.8B): it may go on."""
    b = german_attack_on_reduced_381({"109/381": "2428", "FHH/PZ": "2427"}, "2428", ["FHH/PZ"], rolls=(6,))
    answer(b, "ADVANCE PZ TO 2329")
    assert b.hex_of("FHH/PZ") == "2329"


def test_9_6_4B_entering_a_village_stops_a_mechanized_advance():
    """2323 is a village: PZ advancing into it from 2322 stops there."""
    b = german_attack_on_reduced_381({"109/381": "2323", "FHH/PZ": "2322"}, "2323", ["FHH/PZ"])
    refused(b, "ADVANCE PZ TO 2324",
            because=r"PZ may not continue to 2324 \(9\.6\.3-9\.6\.4: .*a minor river or a village/city stops it")
    answer(b, "ADVANCE PZ")
    assert b.hex_of("FHH/PZ") == "2323"


def test_9_6_5_an_hq_advances_with_the_units_of_its_stack():
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/HQ": "2432", "109/456": "2431"},
                                "2332", ["109/381", "109/456"])
    answer(b, "ADVANCE 381 109/HQ")
    assert where(b, "109/381", "109/HQ") == ["2332", "2332"]


def test_9_6_5_an_hq_does_not_advance_alone():
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/HQ": "2432", "109/456": "2431"},
                                "2332", ["109/381", "109/456"])
    refused(b, "ADVANCE 109/HQ", because=r"an HQ goes only with them \(9\.6\.5\)")
    assert b.hex_of("109/HQ") == "2432"


def test_11_1_2B_an_hq_goes_two_hexes_with_mechanized_units_going_two():
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432", "FHH/HQ": "2432"}, "2332", ["FHH/PZ"])
    answer(b, "ADVANCE PZ FHH/HQ TO 2232")
    assert where(b, "FHH/PZ", "FHH/HQ") == ["2232", "2232"]


def test_9_6_6_an_advancing_unit_overruns_a_lone_hq():
    """The Soviet 109th Corps HQ stands alone in 2232: PZ's second hex overruns it; the HQ is displaced
    at least five hexes (11.1.3A)."""
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432", "109/HQ": "2232"}, "2332", ["FHH/PZ"])
    answer(b, "ADVANCE PZ TO 2232")
    auto(b)
    assert b.hex_of("FHH/PZ") == "2232"
    assert [e["hq"] for e in emitted(b, "overrun")] == ["109/HQ"]
    assert b.is_on_map("109/HQ") and b.scenario.distance("2232", b.hex_of("109/HQ")) >= 5
