"""Command chits and command (2.3, 2.4, 4.0-4.2), driven through the engine's Command Phase.

Chits are drawn in a chosen order (drive.CupOrder); positions hold only the units a test needs.
Command ranges come from units.yaml (ruling N-06): Soviet Army HQs 12, Soviet corps HQs 5, FHH and
KUST 6, the other German division HQs 5, the SS HQs 4.
"""

from __future__ import annotations

import pytest

from moderator.core.frames import new_frame
from moderator.games.narva.command import eligible_hqs
from moderator.games.narva.hq import displacement_hexes
from moderator.games.narva.sequence import turn_advance
from tests.games.narva.drive import (
    activate,
    asked,
    cannot,
    command_phase,
    finish,
    moving,
    order_cup,
    reinforcement_phase,
)
from tests.games.narva.helpers import answer, emitted, position, settle


def hq_choices(board):
    assert asked(board) == ["hq"], asked(board)
    return set(eligible_hqs(board, board.top()))


# ---------------------------------------------------------------- 2.3 command chits


def test_2_3A_a_soviet_chit_activates_a_corps_hq_in_the_army_hqs_radius():
    """2SH HQ at 3024 (range 12): the 109th HQ at 2120 is 9 hexes away, the 122nd at 1306 is 27."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "122/HQ": "1306", "109/381": "2122"})
    assert board.scenario.distance("3024", "2120") == 9 and board.scenario.distance("3024", "1306") == 27
    command_phase(board, ["2SH-1"])
    assert hq_choices(board) == {"109/HQ"}
    cannot(board, "ACTIVATE 122",
           because=r"122 HQ cannot be activated: it is 27 hexes from 2nd SH HQ, beyond its command radius of 12 "
                   r"\(4\.1\.1D\)")
    answer(board, "ACTIVATE 109")
    assert emitted(board, "activated")[0]["hq"] == "109/HQ"
    assert emitted(board, "activated")[0]["in_command"] == ["109/381"]


def test_4_1_1D_the_radius_includes_a_corps_hq_exactly_at_range_and_no_further():
    """From 3024: 1827 is 12 hexes away, 1727 is 13."""
    board = position({"2SH/HQ": "3024", "109/HQ": "1827", "43/HQ": "1727"})
    assert board.scenario.distance("3024", "1827") == 12 and board.scenario.distance("3024", "1727") == 13
    command_phase(board, ["2SH-1"])
    assert hq_choices(board) == {"109/HQ"}
    cannot(board, "ACTIVATE 43",
           because=r"43 HQ cannot be activated: it is 13 hexes from 2nd SH HQ, beyond its command radius of 12 "
                   r"\(4\.1\.1D\)")


def test_2_3A_a_soviet_army_chit_without_its_army_hq_activates_nothing():
    """Ruling N-45: the 8th Army chit before the 8th Army HQ is on the map passes (and counts)."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120"}, turn=4)
    command_phase(board, ["8-1"])
    assert asked(board) == []
    assert emitted(board, "activation_passed")[0]["chit"] == "8-1"
    assert board.data["used"]["soviet"] == 1


def test_2_3B_a_german_corps_chit_activates_a_division_hq_of_that_corps():
    board = position({"FHH/HQ": "1827", "225/HQ": "0213", "FHH/MOK": "1928"}, turn=3)
    command_phase(board, ["26-1"])
    assert hq_choices(board) == {"FHH/HQ"}
    cannot(board, "ACTIVATE 225",
           because=r"225 HQ cannot be activated: the 26th Corps chit does not activate it \(4\.1\.1E-F\)")
    answer(board, "ACTIVATE FHH")
    assert emitted(board, "activated")[0]["in_command"] == ["FHH/MOK"]


def test_2_3C_both_sides_chits_are_drawn_from_one_cup():
    """The start cup holds German and Soviet chits together; one Command Phase draws both and the
    drawn chit's owner becomes the active side (4.1.1C)."""
    from moderator.games.narva.setup import initial_state
    from tests.games.narva.helpers import DEFAULT_OPTIONS, SCENARIO

    start = initial_state(SCENARIO, "campaign", dict(DEFAULT_OPTIONS))
    assert {SCENARIO.chit(c).side for c in start["cup"]} == {"german", "soviet"}
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "11SS/HQ": "3029"})
    command_phase(board, ["3SS-1", "2SH-1"])
    assert decisions_role(board) == "german"
    answer(board, "ACTIVATE 11SS")
    finish(board, until="hq")
    assert decisions_role(board) == "soviet"
    assert board.data["active_side"] == "soviet"


def decisions_role(board):
    from tests.games.narva.helpers import decisions

    return decisions(board)[0].role


def test_2_3D_example_germany_activates_only_its_first_two_hqs_on_turn_3():
    """2.3D example: in Turn 3 Germany may activate the first two German HQs whose chits are drawn;
    the third and later HQs cannot be activated that turn."""
    board = position({"FHH/HQ": "1827", "225/HQ": "0213", "11SS/HQ": "3029", "2SH/HQ": "3024",
                      "109/HQ": "2120"}, turn=3)
    assert board.scenario.activation_limit(3, "german") == 2  # the example's number
    command_phase(board, ["26-1", "43-1", "3SS-1", "2SH-1"])
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    answer(board, "ACTIVATE 225")
    finish(board, until="hq")
    # the third German chit: drawn, counted, but nothing is asked of Germany
    unused = emitted(board, "chit_unused")
    assert [u["chit"] for u in unused] == ["3SS-1"]
    assert [a["hq"] for a in emitted(board, "activated")] == ["FHH/HQ", "225/HQ"]
    assert decisions_role(board) == "soviet"  # 4.1.1B: the limit binds only that force
    answer(board, "ACTIVATE 109")
    assert [a["hq"] for a in emitted(board, "activated")][-1] == "109/HQ"


def test_4_1_1B_a_passed_chit_still_counts_toward_the_limit():
    """Ruling N-19: the example counts drawn chits; a passed one uses up an activation."""
    board = position({"FHH/HQ": "1827", "225/HQ": "0213", "11SS/HQ": "3029"}, turn=3)
    command_phase(board, ["26-1", "43-1", "3SS-1"])
    answer(board, "PASS")
    answer(board, "ACTIVATE 225")
    finish(board, until="hq")
    assert asked(board) == []
    assert [u["chit"] for u in emitted(board, "chit_unused")] == ["3SS-1"]


# ---------------------------------------------------------------- 2.4 special command chits


def test_2_4_1A_the_wehrmacht_chit_activates_any_non_ss_hq():
    board = position({"FHH/HQ": "1827", "225/HQ": "0213", "KUST/HQ": "2134", "11SS/HQ": "3029",
                      "4SS/HQ": "3130", "20SS/HQ": "2829", "KVO/HQ": "1530"})
    command_phase(board, ["WER-1"])
    assert hq_choices(board) == {"FHH/HQ", "225/HQ", "KUST/HQ"}
    for hq in ("11SS", "4SS", "20SS/HQ", "KVO"):
        cannot(board, f"ACTIVATE {hq}",
               because=r"HQ cannot be activated: the Wehrmacht chit does not activate it \(4\.1\.1E-F\)")
    answer(board, "ACTIVATE 225")
    assert emitted(board, "activated")[0]["hq"] == "225/HQ"


def test_2_4_1B_the_wehrmacht_chits_can_be_drawn_on_turn_3():
    board = position({"FHH/HQ": "1827"}, turn=3)
    command_phase(board, ["WER-2"])
    answer(board, "ACTIVATE FHH")
    assert emitted(board, "activated")[0]["chit"] == "WER-2"


def test_2_4_1B_the_wehrmacht_chits_leave_in_the_turn_3_reinforcement_phase():
    """WER-1 still in the cup and WER-2 drawn this turn (on the Activations Track): both leave the
    game in the Turn 3 Reinforcement Phase and do not come back at Turn Advance."""
    from moderator.games.narva.reinforce import refill_cup

    board = position({}, turn=3)
    board.data["cup"] = ["WER-1", "3SS-1"]
    board.data["tracks"]["german"] = ["WER-2"]
    refill_cup(board)
    assert "WER-1" not in board.data["cup"] and "WER-2" not in board.data["tracks"]["german"]
    assert {"WER-1", "WER-2"} <= set(board.data["removed"])
    turn_advance(board)
    assert not {"WER-1", "WER-2"} & set(board.data["cup"])


def test_2_4_1B_the_wehrmacht_chits_stay_after_the_turn_2_reinforcement_phase():
    from moderator.games.narva.reinforce import refill_cup

    board = position({}, turn=2)
    board.data["cup"] = ["WER-1", "WER-2"]
    refill_cup(board)
    assert {"WER-1", "WER-2"} <= set(board.data["cup"])


ALL_GERMAN_HQS = {"61/HQ": "1210", "FHH/HQ": "1827", "170/HQ": "2326", "227/HQ": "2030", "225/HQ": "0213",
                  "58/HQ": "2126", "11/HQ": "0122", "214/HQ": "0131", "STRAC/HQ": "1629", "KUST/HQ": "2134",
                  "11SS/HQ": "3029", "4SS/HQ": "3130", "20SS/HQ": "2829", "KVO/HQ": "1530", "285S/HQ": "0103"}


@pytest.mark.parametrize("chit, hqs", [
    ("3SS-1", {"11SS/HQ", "4SS/HQ", "20SS/HQ", "KUST/HQ"}),  # 4.1.1E all SS HQs; KUST by 14.3.3 (N-13)
    ("WER-1", {"61/HQ", "FHH/HQ", "170/HQ", "227/HQ", "225/HQ", "58/HQ", "11/HQ", "214/HQ", "STRAC/HQ",
               "KUST/HQ"}),
    ("26-1", {"61/HQ", "FHH/HQ", "170/HQ", "227/HQ"}),  # 14.1: the divisions of the 26th Corps
    ("43-1", {"225/HQ", "58/HQ", "11/HQ", "214/HQ", "STRAC/HQ"}),  # 14.2 and the 4.2.3 errata
    ("AGN", set(ALL_GERMAN_HQS)),  # 2.4.2A: any HQ
])
def test_4_1_1E_which_hqs_each_german_chit_activates(chit, hqs):
    board = position(ALL_GERMAN_HQS, turn=8)
    command_phase(board, [chit])
    assert hq_choices(board) == hqs


@pytest.mark.parametrize("chit", ["3SS-1", "WER-1", "26-1", "43-1"])
def test_4_1_1F_kvo_and_285s_answer_only_to_army_group_narwa(chit):
    board = position({"KVO/HQ": "1530", "285S/HQ": "0103", "FHH/HQ": "1827", "11SS/HQ": "3029"}, turn=3)
    command_phase(board, [chit])
    cannot(board, "ACTIVATE KVO",
           because=r"KVO HQ cannot be activated: the [\w ]+ chit does not activate it \(4\.1\.1E-F\)")
    cannot(board, "ACTIVATE 285S",
           because=r"285S HQ cannot be activated: the [\w ]+ chit does not activate it \(4\.1\.1E-F\)")


def test_4_1_1F_army_group_narwa_activates_kvo():
    board = position({"KVO/HQ": "1530", "KVO/TART": "1531"}, turn=4)
    command_phase(board, ["AGN"])
    answer(board, "ACTIVATE KVO")
    assert emitted(board, "activated")[0]["in_command"] == ["KVO/TART"]


AGN_BOARD = {"FHH/HQ": "1422", "FHH/MOK": "1423", "IND/29P": "1420", "61/162G": "0607", "61/176G": "1220",
             "61/161Pio": "1210", "122/219": "1320"}


def test_2_4_2B_army_group_narwa_lets_two_more_units_anywhere_move():
    """FHH (range 6) at 1422, activated with AGN, attaches 29P and names 162G (19 hexes away, at 0607)
    and 176G as the two extra units: they move; a third extra is refused."""
    board = position(AGN_BOARD, turn=4)
    command_phase(board, ["AGN"])
    answer(board, "ACTIVATE FHH")
    assert board.scenario.distance("1422", "0607") == 19
    cannot(board, "ATTACH 29P EXTRA 162G 176G 61/161Pio", because=r"at most 2 extra units \(2\.4\.2B\)")
    answer(board, "ATTACH 29P EXTRA 162G 176G")
    answer(board, "MOVE 162G TO 0606")
    assert board.hex_of("61/162G") == "0606"


def test_2_4_2B_the_army_group_narwa_extras_may_not_attack():
    """176G at 1220 and the attached 29P at 1420 are both next to the Soviet 219 at 1320: 29P may
    attack it, 176G, an AGN extra, may not."""
    board = position(AGN_BOARD, turn=4, rolls=[1])
    assert "1220" in board.scenario.neighbours("1320") and "1420" in board.scenario.neighbours("1320")
    command_phase(board, ["AGN"])
    answer(board, "ACTIVATE FHH")
    answer(board, "ATTACH 29P EXTRA 162G 176G")
    answer(board, "MOVE DONE")
    assert asked(board) == ["attack"]
    cannot(board, "ATTACH 1320 WITH 176G".replace("ATTACH", "ATTACK"),
           because=r"176G cannot attack now: it is an Army Group Narwa extra, which may move but not attack "
                   r"\(2\.4\.2B\)")
    cannot(board, "ATTACK 1320 WITH 29P 176G",
           because=r"176G cannot attack now: it is an Army Group Narwa extra, which may move but not attack "
                   r"\(2\.4\.2B\)")


def test_2_4_2B_other_chits_have_no_extra_units():
    board = position(AGN_BOARD, turn=4)
    command_phase(board, ["26-1"])
    answer(board, "ACTIVATE FHH")
    cannot(board, "ATTACH 29P EXTRA 162G",
           because=r"only the Army Group Narwa chit activates extra units anywhere \(2\.4\.2B\)")


def test_2_4_2B_army_group_narwa_extras_without_attachments():
    board = position(AGN_BOARD, turn=4)
    command_phase(board, ["AGN"])
    answer(board, "ACTIVATE FHH")
    answer(board, "ATTACH EXTRA 162G 176G")
    answer(board, "MOVE 162G TO 0606")
    assert board.hex_of("61/162G") == "0606"


# ---------------------------------------------------------------- 4.0 command


def test_4_0A_units_must_be_activated_to_move():
    """The 109th is activated; the 43rd's 268 (out of its range, not attached) may not move."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122", "43/268": "3333"})
    activate(board, "2SH-1", "109")
    cannot(board, "MOVE 43/268 TO 3334", because=r"268 is not activated now \(4\.0A")
    assert board.hex_of("43/268") == "3333"


def test_4_0A_units_must_be_activated_to_attack():
    """109/381 is activated and next to a German unit; 43/4 next to the same unit is not activated."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122", "43/4": "2222",
                      "FHH/MOK": "2123"}, rolls=[1])
    assert "2123" in board.scenario.neighbours("2222") and "2123" in board.scenario.neighbours("2122")
    activate(board, "2SH-1", "109")
    answer(board, "ATTACH NONE")  # 43/4 is in range and could have been attached
    answer(board, "MOVE DONE")
    assert asked(board) == ["attack"]
    cannot(board, "ATTACK 2123 WITH 381 43/4", because=r"4 cannot attack now: it was not activated for combat \(4\.0A")


def test_4_0B_an_hq_may_be_activated_more_than_once_a_turn():
    """Turn 4 (German limit 3): FHH by the 26 chit, 225 by the 43 chit, FHH again by the second 26."""
    board = position({"FHH/HQ": "1827", "225/HQ": "0213"}, turn=4)
    command_phase(board, ["26-1", "43-1", "26-2"])
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    answer(board, "ACTIVATE 225")
    finish(board, until="hq")
    answer(board, "ACTIVATE FHH")
    assert [a["hq"] for a in emitted(board, "activated")] == ["FHH/HQ", "225/HQ", "FHH/HQ"]


# ---------------------------------------------------------------- 4.1.1 chit draws


def test_4_1_1C_4_2_1B_drawn_chits_fill_each_sides_activations_track_in_order():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015", "11SS/HQ": "3029"})
    command_phase(board, ["2SH-1", "3SS-1", "2SH-2"])
    answer(board, "ACTIVATE 109")
    finish(board, until="hq")
    answer(board, "ACTIVATE 11SS")
    finish(board, until="hq")
    answer(board, "ACTIVATE 30GD")
    finish(board)
    assert board.data["tracks"]["soviet"] == ["2SH-1", "2SH-2"]
    assert board.data["tracks"]["german"] == ["3SS-1"]
    drawn = emitted(board, "chit_drawn")
    assert [d["n"] for d in drawn] == [1, 2, 3]
    assert [d["activation"] for d in drawn] == [1, 1, 2]


def test_4_1_1_the_command_phase_ends_when_the_last_command_chit_is_drawn():
    """2.5C: no further chits are drawn; the Random Event chit stays in the cup."""
    board = position({"FHH/HQ": "1827"}, turn=6)
    command_phase(board, ["26-1"], also=["RANDOM"])
    answer(board, "PASS")
    assert board.data["cup"] == ["RANDOM"]
    assert emitted(board, "command_phase_over")[0]["action_chits_left"] == ["RANDOM"]
    assert not emitted(board, "random_event")


# ---------------------------------------------------------------- 4.1.2 two activations in a row


def test_4_1_2A_no_hq_may_be_activated_twice_in_a_row():
    board = position({"FHH/HQ": "1827", "227/HQ": "2030"}, turn=4)
    command_phase(board, ["26-1", "26-2"])
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    assert hq_choices(board) == {"227/HQ"}
    cannot(board, "ACTIVATE FHH", because=r"FHH HQ cannot be activated: it activated last time \(4\.1\.2\)")


def test_4_1_2A_the_rule_extends_across_turns():
    """109 activated with the last Soviet chit of Turn 1 cannot be first on Turn 2."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015"})
    activate(board, "2SH-1", "109")
    finish(board)
    turn_advance(board)
    board.data["turn"] = 2
    command_phase(board, ["2SH-2"])
    assert hq_choices(board) == {"30GD/HQ"}
    cannot(board, "ACTIVATE 109", because=r"109 HQ cannot be activated: it activated last time \(4\.1\.2\)")


def test_4_1_2A_soviet_corps_hqs_are_bound_too():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015"})
    command_phase(board, ["2SH-1", "2SH-2"])
    answer(board, "ACTIVATE 109")
    finish(board, until="hq")
    cannot(board, "ACTIVATE 109", because=r"109 HQ cannot be activated: it activated last time \(4\.1\.2\)")
    answer(board, "ACTIVATE 30GD")
    assert [a["hq"] for a in emitted(board, "activated")] == ["109/HQ", "30GD/HQ"]


def test_4_1_2B_the_free_move_counts_as_an_activation():
    """A Free Move with the 109th HQ: the next 2SH chit may not activate the 109th."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015", "109/381": "2122"}, turn=8)
    command_phase(board, ["FREE-MOVE", "2SH-1"])
    answer(board, "FREEMOVE HQ 109")
    finish(board, until="hq")
    assert hq_choices(board) == {"30GD/HQ"}
    cannot(board, "ACTIVATE 109", because=r"109 HQ cannot be activated: it activated last time \(4\.1\.2\)")


def test_4_1_2B_a_free_move_of_three_units_refreshes_every_hq():
    """109 activated, then a Free Move of units only: the 109th may be activated again at once."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122", "IND/48": "2538"}, turn=8)
    command_phase(board, ["2SH-1", "FREE-MOVE", "2SH-2"])
    answer(board, "ACTIVATE 109")
    finish(board, until="freemove")
    answer(board, "FREEMOVE UNITS 48")
    finish(board, until="hq")
    assert hq_choices(board) == {"109/HQ"}
    answer(board, "ACTIVATE 109")
    assert [a["hq"] for a in emitted(board, "activated")] == ["109/HQ", "109/HQ"]


def test_4_1_2C_enemy_activations_do_not_affect_the_rule():
    """109, then a German activation, then a 2SH chit: 109 is still the last Soviet activation."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015", "11SS/HQ": "3029"})
    command_phase(board, ["2SH-1", "3SS-1", "2SH-2"])
    answer(board, "ACTIVATE 109")
    finish(board, until="hq")
    answer(board, "ACTIVATE 11SS")
    finish(board, until="hq")
    assert hq_choices(board) == {"30GD/HQ"}
    cannot(board, "ACTIVATE 109", because=r"109 HQ cannot be activated: it activated last time \(4\.1\.2\)")


def test_4_1_2_the_german_rule_is_not_refreshed_by_a_soviet_activation():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "FHH/HQ": "1827"}, turn=4)
    command_phase(board, ["26-1", "2SH-1", "26-2"])
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    answer(board, "ACTIVATE 109")
    finish(board, until="hq")
    assert hq_choices(board) == set()
    cannot(board, "ACTIVATE FHH", because=r"FHH HQ cannot be activated: it activated last time \(4\.1\.2\)")


# ---------------------------------------------------------------- 4.1.3 Soviet Army HQ move


def test_4_1_3_the_army_hq_may_move_anywhere_as_its_sole_action():
    """2SH relocates from 3024 to 3513 (14 hexes, supplied, no EZOC): no corps is activated, the chit
    is used."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122"})
    command_phase(board, ["2SH-1"])
    answer(board, "RELOCATE TO 3513")
    assert board.hex_of("2SH/HQ") == "3513"
    assert asked(board) == []
    assert not emitted(board, "activated")
    assert board.data["used"]["soviet"] == 1
    assert board.data["tracks"]["soviet"] == ["2SH-1"]


def test_4_1_3_a_relocation_may_not_end_in_an_ezoc():
    board = position({"2SH/HQ": "3024", "FHH/MOK": "3412"})
    command_phase(board, ["2SH-1"])
    assert board.in_enemy_zoc("3513", "soviet")
    cannot(board, "RELOCATE TO 3513",
           because=r"3513 is not a legal place for the Army HQ \(4\.1\.3, ruling N-23: .*no enemy ZOC")


def test_4_1_3_germany_has_no_army_hq_move():
    board = position({"FHH/HQ": "1827"}, turn=3)
    command_phase(board, ["26-1"])
    cannot(board, "RELOCATE TO 1727", because=r"only a Soviet Army HQ may relocate \(4\.1\.3\)")


def test_4_1_3_a_relocation_refreshes_the_corps():
    """Ruling N-22: a relocation is an activation with no corps; the 109th may then go again."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120"})
    command_phase(board, ["2SH-1", "2SH-2", "2SH-3"])
    answer(board, "ACTIVATE 109")
    finish(board, until="hq")
    answer(board, "RELOCATE TO 3023")
    answer(board, "ACTIVATE 109")
    assert [a["hq"] for a in emitted(board, "activated")] == ["109/HQ", "109/HQ"]


# ---------------------------------------------------------------- 4.2.1 - 4.2.2 activation and attachments


def test_4_2_1A_an_hq_activates_its_formation_and_up_to_three_others_in_range():
    """The 109th (range 5) at 2120 attaches three units within range: 1074 (122nd Corps, 2020, set up
    far beyond its own HQ's range and so served by a nearby HQ, ruling N-53), the independent 48 placed
    at 2121 and 30GD/194 (2820 is 7 away: out of range)."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122", "122/1074": "2020",
                      "122/1076": "2020", "122/1078": "2021", "IND/48": "2121", "30GD/194": "2820"})
    assert board.scenario.distance("2120", "2820") == 7
    activate(board, "2SH-1", "109")
    cannot(board, "ATTACH 1074 1076 1078 48", because=r"at most 3 attached units \(4\.2\.1A")  # four
    cannot(board, "ATTACH 30GD/194",
           because=r"194 cannot be attached: it is not within 109 HQ's command range of 5 "
                   r"\(4\.2\.4A-B\)")  # out of range
    cannot(board, "ATTACH 381",
           because=r"381 cannot be attached: it is of 109 HQ's own formation, activated with it "
                   r"\(4\.2\.1A\)")  # already activated: its own formation
    answer(board, "ATTACH 1074 1076 48")
    answer(board, "MOVE 1074 TO 2019")
    assert board.hex_of("122/1074") == "2019"
    cannot(board, "MOVE 1078 TO 2022", because=r"1078 is not activated now \(4\.0A")


def test_4_2_2_independent_units_may_be_attached_to_any_hq():
    """The German independent 2/502 (armour) is attached to KUST; the Soviet 48 to the 43rd Corps."""
    board = position({"KUST/HQ": "2134", "IND/2/502": "2533"}, turn=3)
    activate(board, "3SS-1", "KUST")
    answer(board, "ATTACH 2/502")
    answer(board, "MOVE 2/502 TO 2433")
    assert board.hex_of("IND/2/502") == "2433"
    board = position({"2SH/HQ": "3024", "43/HQ": "2935", "IND/48": "2635"})
    activate(board, "2SH-1", "43")
    answer(board, "ATTACH 48")
    assert emitted(board, "attached")[0]["units"] == ["IND/48"]


# ---------------------------------------------------------------- 4.2.3 Strachwitz


STRAC_BOARD = {"STRAC/HQ": "2126", "FHH/MOK": "2127", "58/209G": "2226", "IND/29P": "2125", "KUST/HOHN": "2225",
               "61/151G": "2026", "61/162G": "2022", "122/1074": "1921", "122/1078": "2021",
               "109/381": "2122", "109/456": "2122"}


def test_4_2_3A_strachwitz_has_no_units_of_its_own():
    board = position(STRAC_BOARD, turn=8)
    activate(board, "43-1", "STRAC")
    assert emitted(board, "activated")[0]["in_command"] == []


def test_4_2_3B_strachwitz_commands_four_units_of_any_formation_in_range():
    board = position(STRAC_BOARD, turn=8)
    activate(board, "43-1", "STRAC")
    cannot(board, "ATTACH MOK 209G 29P HOHN 151G", because=r"at most 4 attached units \(4\.2\.1A, 4\.2\.3B\)")  # five
    answer(board, "ATTACH MOK 209G 29P HOHN")
    assert emitted(board, "attached")[0]["units"] == ["FHH/MOK", "58/209G", "IND/29P", "KUST/HOHN"]


def test_4_2_3C_strachwitz_fires_one_barrage_before_its_units_move():
    """The barrage comes before the move; its target may be any enemy hex next to a German unit,
    here 2021, next to 61/162G (at 2022), which is not one of Strachwitz's units."""
    board = position(STRAC_BOARD, turn=8, rolls=[1])
    activate(board, "43-1", "STRAC")
    answer(board, "ATTACH MOK")
    assert asked(board) == ["barrage"]
    frame = board.top()
    assert frame["count"] == 1 and frame["source"] == "strachwitz"
    answer(board, "BARRAGE 2021")
    assert [b["hex"] for b in emitted(board, "barrage")] == ["2021"]
    assert asked(board) == ["move"]


def test_4_2_3D_strachwitz_may_be_activated_only_once_a_turn():
    """Turn 8: STRAC with the first 43 chit, FHH with the 26 chit; the second 43 chit may not activate
    STRAC again although STRAC was not the last German activation."""
    units = dict(STRAC_BOARD, **{"FHH/HQ": "1827", "225/HQ": "0213"})
    board = position(units, turn=8)
    command_phase(board, ["43-1", "26-1", "43-2"])
    answer(board, "ACTIVATE STRAC")
    finish(board, until="hq")
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    assert hq_choices(board) == {"225/HQ"}
    cannot(board, "ACTIVATE STRAC",
           because=r"STRAC HQ cannot be activated: Strachwitz may be activated only once a turn \(4\.2\.3D\)")


def test_4_2_3D_strachwitz_is_available_again_next_turn():
    board = position({"STRAC/HQ": "2126", "225/HQ": "0213"}, turn=8)
    command_phase(board, ["43-1", "43-2"])
    answer(board, "ACTIVATE STRAC")
    finish(board, until="hq")
    answer(board, "ACTIVATE 225")
    finish(board)
    turn_advance(board)
    board.data["turn"] = 9
    order_cup(board, ["43-1"])
    board.push(new_frame(board.data, "turn", stage="command", ready=["german", "soviet"]))
    settle(board)  # the Turn frame starts the Command Phase
    assert hq_choices(board) == {"STRAC/HQ"}  # (225 activated last, 4.1.2A)


# ---------------------------------------------------------------- 4.2.4 command range, 4.2.6 out of command


def test_4_2_4A_command_range_is_counted_in_hexes_from_the_hq():
    """109 HQ at 2120, range 5: 381 at 2125 (5 hexes) is in command, 456 at 2126 (6) is not."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2125", "109/456": "2126"})
    assert board.scenario.distance("2120", "2125") == 5 and board.scenario.distance("2120", "2126") == 6
    activate(board, "2SH-1", "109")
    act = emitted(board, "activated")[0]
    assert act["in_command"] == ["109/381"] and act["out_of_command"] == ["109/456"]


def test_4_2_4C_activated_units_may_leave_the_command_range():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2125"})
    activate(board, "2SH-1", "109")
    answer(board, "MOVE 381 TO 2127")
    assert board.hex_of("109/381") == "2127"
    assert board.scenario.distance("2120", "2127") > 5


def test_4_2_6A_out_of_command_units_may_not_move_or_attack():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2125", "109/456": "2126",
                      "FHH/MOK": "2225"}, rolls=[1])
    assert "2225" in board.scenario.neighbours("2126") and "2225" in board.scenario.neighbours("2125")
    activate(board, "2SH-1", "109")
    cannot(board, "MOVE 456 TO 2027", because=r"456 is not activated now \(4\.0A, 4\.2\.6\)")
    answer(board, "MOVE DONE")
    cannot(board, "ATTACK 2225 WITH 381 456",
           because=r"456 cannot attack now: it was not activated for combat \(4\.0A, 4\.2\.6A")


def test_4_2_4B_4_2_6B_command_is_judged_at_each_activation():
    """Activation 1: 456 (6 hexes away) is out of command; the HQ then moves next to it, but 456
    still may not move in that activation (range is fixed when the HQ is activated).  Activation 3
    of the same turn (after the 30th Guards): 456 is in command and moves."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122", "109/456": "2126",
                      "30GD/HQ": "3015"})
    command_phase(board, ["2SH-1", "2SH-2", "2SH-3"])
    answer(board, "ACTIVATE 109")
    answer(board, "MOVE 109/HQ TO 2123")
    cannot(board, "MOVE 456 TO 2127", because=r"456 is not activated now \(4\.0A, 4\.2\.6\)")
    finish(board, until="hq")
    answer(board, "ACTIVATE 30GD")
    finish(board, until="hq")
    answer(board, "ACTIVATE 109")
    assert "109/456" in emitted(board, "activated")[-1]["in_command"]
    answer(board, "MOVE 456 TO 2127")
    assert board.hex_of("109/456") == "2127"


# ---------------------------------------------------------------- 4.2.5 Army command span


def test_4_2_5A_an_army_hq_may_not_relocate_into_another_army_hqs_span():
    """8th Army HQ at 3513 (range 12): 2SH (at 3024, 14 hexes away) may not go to 3525 (12 hexes from
    3513) but may go to 3530 (17 hexes)."""
    board = position({"2SH/HQ": "3024", "8/HQ": "3513"}, turn=4)
    assert board.scenario.distance("3513", "3525") == 12 and board.scenario.distance("3513", "3530") == 17
    command_phase(board, ["2SH-1"])
    cannot(board, "RELOCATE TO 3525",
           because=r"3525 is not a legal place for the Army HQ \(4\.1\.3, ruling N-23: .*outside other Army "
                   r"HQs' span\)")
    answer(board, "RELOCATE TO 3530")
    assert board.hex_of("2SH/HQ") == "3530"


def test_4_2_5B_a_reinforcing_army_hq_is_placed_in_a_supplied_hex_outside_the_others_span():
    board = position({"2SH/HQ": "3024"}, turn=3)
    board.data["arrivals"] = [{"unit": "8/HQ", "turn": 3, "entry": "supplied_hex", "rerouted": False}]
    reinforcement_phase(board)
    assert asked(board) == ["place"]
    assert board.scenario.distance("3024", "2433") == 12 and board.scenario.distance("3024", "3513") == 14
    cannot(board, "PLACE 8/HQ AT 2433",
           because=r"2433 is not a legal place for 8th Army HQ \(4\.2\.5B: a supplied hex outside the other Army HQs' "
                   r"command span")  # clear and supplied, but within the 2SH span
    cannot(board, "PLACE 8/HQ AT 3512",
           because=r"3512 is not a legal place for 8th Army HQ \(4\.2\.5B: a supplied hex outside the other Army HQs' "
                   r"command span")  # woods, 15 hexes away, but no supply line
    answer(board, "PLACE 8/HQ AT 3513")
    assert board.hex_of("8/HQ") == "3513"


def test_4_2_5C_an_army_hq_that_cannot_be_placed_waits():
    """German units on every Soviet supply source: no hex is supplied, the 8th Army HQ waits."""
    sources = sorted(position({}).scenario.supply_sources("soviet"))
    units = dict(zip(["61/162G", "61/176G", "61/161Pio", "61/61F", "61/151G", "225/376G"], sources, strict=False))
    board = position(units, turn=3)
    board.data["arrivals"] = [{"unit": "8/HQ", "turn": 3, "entry": "supplied_hex", "rerouted": False}]
    reinforcement_phase(board)
    assert emitted(board, "reinforcement_waits")[0]["unit"] == "8/HQ"
    assert board.state_of("8/HQ")["where"] == "pending"
    assert board.data["arrivals"][0]["turn"] == 4


def test_4_2_5D_a_displaced_army_hq_lands_outside_the_other_army_hqs_span():
    """A German unit overruns the lone 8th Army HQ; it may not be displaced to a hex within 12 of
    the 2SH HQ, and the automatic choice is outside that span."""
    board = position({"2SH/HQ": "3024", "8/HQ": "3506", "FHH/AA": "3406"}, turn=4)
    moving(board, "german", "FHH/AA")
    answer(board, "MOVE FHH/AA TO 3506")
    assert asked(board) == ["displace"]
    assert board.scenario.distance("3024", "3521") == 6 and board.scenario.distance("3506", "3521") == 15
    assert "3521" in displacement_hexes(board, "14/HQ", "3506")  # fine for a corps HQ
    cannot(board, "DISPLACE TO 3521",
           because=r"3521 is not a legal displacement hex \(11\.1\.3: .*outside the other Army HQs' command span "
                   r"\(4\.2\.5D\)")
    answer(board, "DISPLACE AUTO")
    assert board.scenario.distance(board.hex_of("8/HQ"), "3024") > 12


def test_4_1_2_a_passed_chit_neither_blocks_nor_refreshes():
    """Ruling N-22: FHH, then a 43 chit passed, then a 26 chit: FHH was still the last German HQ
    activated and may not go again."""
    board = position({"FHH/HQ": "1827", "227/HQ": "2030", "225/HQ": "0213"}, turn=4)
    command_phase(board, ["26-1", "43-1", "26-2"])
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    answer(board, "PASS")
    assert hq_choices(board) == {"227/HQ"}
    cannot(board, "ACTIVATE FHH", because=r"FHH HQ cannot be activated: it activated last time \(4\.1\.2\)")


def test_4_1_2B_the_free_move_may_not_use_the_hq_activated_just_before():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015", "109/381": "2122"}, turn=8)
    command_phase(board, ["2SH-1", "FREE-MOVE", "8-1"])  # (8-1 passes by itself: no 8th Army HQ)
    answer(board, "ACTIVATE 109")
    finish(board, until="freemove")
    cannot(board, "FREEMOVE HQ 109", because=r"109 HQ cannot take the Free Move \(two in a row, 4\.1\.2")
    answer(board, "FREEMOVE HQ 30GD")
    assert board.data["last_hq"]["soviet"] == "30GD/HQ"


def test_4_1_1D_option_own_army_limits_an_army_to_its_own_corps():
    """Ruling N-21: by default the 8th Army HQ may activate any corps HQ in its radius; with
    corps_choice=own_army only its own 117th."""
    units = {"8/HQ": "3513", "117/HQ": "3412", "30GD/HQ": "3015"}
    board = position(units, turn=4)
    assert board.scenario.distance("3513", "3015") <= 12
    command_phase(board, ["8-1"])
    assert hq_choices(board) == {"117/HQ", "30GD/HQ"}
    board = position(units, turn=4, options={"corps_choice": "own_army"})
    command_phase(board, ["8-1"])
    assert hq_choices(board) == {"117/HQ"}
    cannot(board, "ACTIVATE 30GD",
           because=r"30 GD HQ cannot be activated: with the option corps_choice=own_army, .* activates only its own "
                   r"corps \(4\.1\.1D, ruling N-21\)")


def test_2_4_2B_a_pinned_unit_cannot_be_an_army_group_narwa_extra():
    """Ruling N-24: pinned units (2.5.1.3A: no moving for the rest of the turn) cannot be chosen."""
    board = position(AGN_BOARD, turn=4)
    board.data["pinned"] = {"0607": ["61/162G"]}
    command_phase(board, ["AGN"])
    answer(board, "ACTIVATE FHH")
    cannot(board, "ATTACH 29P EXTRA 162G 176G",
           because=r"162G is pinned and cannot be an extra unit \(2\.5\.1\.3A, ruling N-24\)")
    answer(board, "ATTACH 29P EXTRA 176G 61/161Pio")
    assert emitted(board, "attached")[0]["extra"] == ["61/176G", "61/161Pio"]
