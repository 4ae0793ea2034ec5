"""Rules 11.1 (HQs: retreat, displacement, overrun), 11.2 (replacements, option rp_timing), 11.3
(prepared defences) with its worked example, 11.3.5 and 11.4 (turn advance); rulings N-43, N-44,
N-46, N-56.

The PD track (tables.yaml) has ten boxes worth 3, 3, 3, 2, 2, 2, 1, 1, 1, 0; both markers start in
the first (value 3, 2.1.4E) and the state counts boxes down from it (0 = start, 9 = the zero box).
The Nederland division is the 4th SS (PD hexes 3330, 3331, 3231, 3132), Nordland the 11th SS
(3127, 3227, 3228, 3329).  3330 is clear.  One RP rebuilds a step or raises a PD marker two boxes
(11.2.1A, 11.2.4B).  The Random Events Table gives 2 RP on a roll of 3 (tables.yaml).
"""

from __future__ import annotations

from moderator.core.frames import new_frame
from moderator.games.narva.actions import roll_event
from moderator.games.narva.activation import start_activation
from moderator.games.narva.barrage import start_barrages
from moderator.games.narva.losses import push_losses
from moderator.games.narva.movement import MoveRules, find_path
from moderator.games.narva.retreat import push_retreat
from moderator.games.narva.sequence import turn_advance
from tests.games.narva.fight import asked, auto, board, fight, odds, refused, steps_lost, where
from tests.games.narva.helpers import answer, emitted, settle
from tests.refusals import refusal


def eliminate(b, uid):
    push_losses(b, b.side_of(uid), [uid], 2, "test")
    settle(b)


# ---------------------------------------------------------------- 11.1 HQs


def test_11_1_1_an_hq_retreats_with_its_stack():
    """Naming only 162G for the retreat takes the 61st HQ along."""
    b = board({"61/162G": "2332", "61/HQ": "2332", "109/381": "2432", "109/456": "2431"})
    push_retreat(b, "german", ["61/162G", "61/HQ"], "2332", 1, "test")
    settle(b)
    answer(b, "RETREAT 162G VIA 2231")
    assert where(b, "61/162G", "61/HQ") == ["2231", "2231"]


def displaced_61_hq(extra=None):
    """The police battalion 30P, stacked with the 61st HQ in 2332, is eliminated."""
    units = {"IND/30P": "2332", "61/HQ": "2332", "109/381": "2432", "109/456": "2431", "109/602": "1732",
             "109/657": "0429"}
    units.update(extra or {})
    b = board(units)
    push_losses(b, "german", ["IND/30P"], 1, "test")
    settle(b)
    return b


def test_11_1_3A_an_hq_left_alone_is_displaced_at_least_five_hexes_away():
    b = displaced_61_hq()
    assert asked(b) == ["displace"]
    refused(b, "DISPLACE TO 2732",
            because=r"2732 is not a legal displacement hex \(11\.1\.3: .*at least 5 hexes away")  # 4 hexes away
    answer(b, "DISPLACE TO 2227")  # 5 hexes away, supplied, no EZOC
    assert b.hex_of("61/HQ") == "2227"
    assert b.scenario.distance("2332", "2227") == 5


def test_11_1_3A_not_into_an_enemy_zoc():
    """1832 is five hexes away but next to the enemy in 1732."""
    b = displaced_61_hq()
    assert b.scenario.distance("2332", "1832") == 5 and b.in_enemy_zoc("1832", "german")
    refused(b, "DISPLACE TO 1832", because=r"1832 is not a legal displacement hex \(11\.1\.3: .*no enemy ZOC")


def test_11_1_3A_only_into_a_supplied_hex():
    """0228 is cut off by the enemy in 0429 (see test_supply)."""
    b = displaced_61_hq()
    refused(b, "DISPLACE TO 0228", because=r"0228 is not a legal displacement hex \(11\.1\.3: supplied")
    assert not b.is_on_map("61/HQ")


def test_11_1_3A_barrage_eliminations_displace_the_hq_too():
    b = board({"IND/30P": "2332", "61/HQ": "2332", "109/381": "2432"}, rolls=[6])
    start_barrages(b, "soviet", 1, "chit")
    settle(b)
    answer(b, "BARRAGE 2332")
    assert b.data["units"]["IND/30P"]["where"] == "eliminated"
    auto(b)
    assert b.is_on_map("61/HQ") and b.scenario.distance("2332", b.hex_of("61/HQ")) >= 5


def test_11_1_3B_an_hq_is_displaced_even_when_surrounded():
    ring = {"109/381": "2432", "109/456": "2431", "109/602": "2331", "109/657": "2231", "109/749": "2232",
            "109/864": "2333"}
    b = displaced_61_hq(ring)
    answer(b, "DISPLACE AUTO")
    assert b.is_on_map("61/HQ") and b.scenario.distance("2332", b.hex_of("61/HQ")) >= 5
    assert emitted(b, "hq_eliminated") == []


def test_11_1_4A_a_lone_hq_is_overrun_by_movement():
    """381 moves into 2332, where the German 61st HQ stands alone: the HQ is displaced."""
    b = board({"61/HQ": "2332", "109/381": "2432"})
    start_activation(b, "soviet", "command", movers=["109/381"])
    settle(b)
    answer(b, "MOVE 381 TO 2332")
    assert [e["hq"] for e in emitted(b, "overrun")] == ["61/HQ"]
    auto(b)
    assert b.hex_of("109/381") == "2332"
    assert b.is_on_map("61/HQ") and b.scenario.distance("2332", b.hex_of("61/HQ")) >= 5


def test_11_1_4A_a_lone_hq_is_overrun_by_a_retreat():
    """162G retreats from 2332 with the enemy in 2432 and 2431; the Soviet 109th HQ stands alone in
    2231, one of the two hexes out of the enemy ZOC (9.5B exception)."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431", "109/HQ": "2231"})
    push_retreat(b, "german", ["61/162G"], "2332", 1, "test")
    settle(b)
    answer(b, "RETREAT VIA 2231")
    assert b.hex_of("61/162G") == "2231"
    assert [e["hq"] for e in emitted(b, "overrun")] == ["109/HQ"]


def test_11_1_4B_an_overrun_needs_the_mp_to_enter_the_hex():
    """16UR (MA 2) in 2227 may make a one-hex minimum move into the woods of 2226 across the Mustajogi
    (2 + 1 = 3 MP, 6.1C), but may not overrun a lone HQ there: it lacks the MP (ruling N-61)."""
    b = board({"IND/16UR": "2227"})
    assert find_path(b, "IND/16UR", "2226", MoveRules()).minimum_move
    b = board({"IND/16UR": "2227", "61/HQ": "2226"})
    refusal(lambda: find_path(b, "IND/16UR", "2226", MoveRules()),
            because=r"16UR lacks the MP to enter 2226 and overrun the HQ there \(11\.1\.4B\)")


# ---------------------------------------------------------------- 11.2 replacements


def rebuild(b, rp=1, lose_rest=True):
    b.data["rp"] = rp
    b.push(new_frame(b.data, "rebuild", lose_rest=lose_rest))
    settle(b)


def test_11_2_1A_one_rp_restores_one_step():
    b = board({"61/162G": "2332", "61/HQ": "2332"}, reduced=["61/162G"])
    rebuild(b, rp=1)
    answer(b, "REBUILD 162G")
    assert not b.is_reduced("61/162G") and b.data["rp"] == 0


def test_11_2B_an_eliminated_two_step_unit_returns_reduced_with_its_hq():
    b = board({"61/162G": "2332", "61/HQ": "2031"})
    eliminate(b, "61/162G")
    rebuild(b, rp=1)
    answer(b, "REBUILD 162G")
    assert b.hex_of("61/162G") == "2031" and b.is_reduced("61/162G")


def test_11_2C_an_eliminated_one_step_unit_never_returns():
    b = board({"KUST/HOHN": "2332", "KUST/HQ": "2031", "61/162G": "2030"}, reduced=["61/162G"])
    eliminate(b, "KUST/HOHN")
    rebuild(b, rp=1)
    refused(b, "REBUILD HOHN",
            because=r"HOHN cannot be rebuilt now: an eliminated one-step unit never returns \(11\.2C\)")
    assert not b.is_on_map("KUST/HOHN")


def test_11_2D_a_mechanized_step_is_never_rebuilt():
    b = board({"FHH/PZG": "2332", "FHH/HQ": "2332", "61/162G": "2030"}, reduced=["FHH/PZG", "61/162G"])
    rebuild(b, rp=1)
    refused(b, "REBUILD PZG", because=r"PZG cannot be rebuilt now: a mechanized step is never rebuilt \(11\.2D\)")
    assert b.is_reduced("FHH/PZG")


def test_11_2_1B_a_returned_unit_is_not_also_restored_in_the_same_turn():
    b = board({"61/162G": "2332", "61/HQ": "2031"})
    eliminate(b, "61/162G")
    rebuild(b, rp=2)
    answer(b, "REBUILD 162G")
    answer(b, "MOVE DONE")  # 11.2.2E: its move comes first
    assert asked(b) == ["rebuild"]
    refused(b, "REBUILD 162G", because=r"162G cannot be rebuilt now: it returned reduced this turn .*\(11\.2\.1B\)")
    assert b.is_reduced("61/162G") and b.data["rp"] == 1


def test_11_2_2C_an_independent_unit_returns_with_any_hq():
    """GNES (independent, two steps) returns to the 61st HQ."""
    b = board({"IND/GNES": "2332", "61/HQ": "2031"})
    eliminate(b, "IND/GNES")
    rebuild(b, rp=1)
    answer(b, "REBUILD GNES")
    assert b.hex_of("IND/GNES") == "2031" and b.is_reduced("IND/GNES")


def test_11_2_2B_the_hq_hex_must_be_in_supply():
    """The 61st HQ in the cut-off hex 0228 (enemy in 0429; 176G gives the frame something else to do):
    162G cannot return there."""
    b = board({"61/162G": "2332", "61/HQ": "0228", "109/381": "0429", "61/176G": "2030"}, reduced=["61/176G"])
    eliminate(b, "61/162G")
    rebuild(b, rp=1)
    refused(b, "REBUILD 162G",
            because=r"162G cannot be rebuilt now: no HQ it may return to is on the map in a supplied hex \(11\.2\.2A-C")
    assert not b.is_on_map("61/162G")


def test_11_2_2D_a_returning_unit_may_be_placed_in_an_enemy_zoc():
    b = board({"61/162G": "2332", "61/HQ": "2031", "109/381": "2131"})
    assert b.in_enemy_zoc("2031", "german")
    eliminate(b, "61/162G")
    rebuild(b, rp=1)
    answer(b, "REBUILD 162G")
    assert b.hex_of("61/162G") == "2031"


def test_11_2_2E_F_a_returned_unit_may_move_at_once_and_may_overstack_until_it_does():
    """The HQ's hex already holds two combat units; 162G joins them (three) and moves out."""
    b = board({"61/162G": "2332", "61/HQ": "2031", "61/176G": "2031", "61/151G": "2031"})
    eliminate(b, "61/162G")
    rebuild(b, rp=1)
    answer(b, "REBUILD 162G")
    assert len(b.combat_units_at("2031")) == 3
    assert asked(b) == ["move"]
    answer(b, "MOVE 162G TO 2032")
    assert b.hex_of("61/162G") == "2032"


def test_11_2_3A_out_of_supply_units_are_not_rebuilt():
    b = board({"61/162G": "2332", "61/176G": "2030"}, reduced=["61/162G", "61/176G"], supply={"61/162G": "oos"})
    rebuild(b, rp=1)
    refused(b, "REBUILD 162G", because=r"162G cannot be rebuilt now: it is out of supply or isolated \(11\.2\.3A\)")
    answer(b, "REBUILD 176G")
    assert b.is_reduced("61/162G") and not b.is_reduced("61/176G")


def test_11_2_3B_no_return_to_an_out_of_supply_hq():
    b = board({"61/162G": "2332", "61/HQ": "2031", "61/176G": "2030"}, reduced=["61/176G"], supply={"61/HQ": "oos"})
    eliminate(b, "61/162G")
    rebuild(b, rp=1)
    refused(b, "REBUILD 162G",
            because=r"162G cannot be rebuilt now: no HQ it may return to is on the map in a supplied hex "
                    r"\(.*11\.2\.3B\)")


def test_11_2_4B_one_rp_raises_a_pd_marker_two_boxes():
    b = board({"4SS/1/48": "3330"})
    b.data["pd"]["4SS"] = 4
    rebuild(b, rp=1)
    answer(b, "FORTIFY 4SS")
    assert b.data["pd"]["4SS"] == 2


def test_11_2_4B_ruling_n46_never_above_the_start_box():
    b = board({"4SS/1/48": "3330"})
    b.data["pd"]["4SS"] = 1
    rebuild(b, rp=1)
    answer(b, "FORTIFY 4SS")
    assert b.data["pd"]["4SS"] == 0


def test_option_rp_timing_immediate_spends_now_or_loses_the_points():
    """rp_timing=immediate (default): a roll of 3 (2 RP) asks at once; points not spent are lost."""
    b = board({"61/162G": "2332"}, reduced=["61/162G"], rolls=[1, 2])
    assert b.options["rp_timing"] == "immediate"
    roll_event(b)
    settle(b)
    assert b.data["rp"] == 2 and asked(b) == ["rebuild"]
    answer(b, "REBUILD 162G")
    answer(b, "REBUILD DONE")
    assert b.data["rp"] == 0 and len(emitted(b, "rp_lost")) == 1


def test_option_rp_timing_bank_keeps_the_points_for_a_reinforcement_segment():
    b = board({"61/162G": "2332"}, reduced=["61/162G"], rolls=[1, 2], options={"rp_timing": "bank"})
    roll_event(b)
    settle(b)
    assert b.data["rp"] == 2 and asked(b) == []
    b.push(new_frame(b.data, "reinforce", side="german", stage="start", placed=[], skip=[]))
    settle(b)
    assert asked(b) == ["rebuild"]
    answer(b, "REBUILD 162G")
    answer(b, "REBUILD DONE")
    assert not b.is_reduced("61/162G") and b.data["rp"] == 1


# ---------------------------------------------------------------- 11.3 prepared defences


def test_11_3_1A_only_the_4th_and_11th_ss_may_enter_pd_hexes():
    b = board({})
    for hex_id in ("3330", "3227"):
        assert b.may_stand("4SS/1/48", hex_id) and b.may_stand("11SS/23", hex_id)  # 11.3.1B: either's hexes
        assert not b.may_stand("20SS/1/46", hex_id)  # SS, but not Nederland or Nordland (6.3E)
        assert not b.may_stand("61/162G", hex_id)
        assert b.may_stand("109/381", hex_id)  # ruling N-17: the limit binds German units only


def test_11_3_1A_a_german_unit_does_not_retreat_into_a_pd_hex():
    """162G in 3430: its only neighbours not held by the enemy (3431, 3531, 3530, 3429) are the PD
    hexes 3330 and 3331, closed to it: it cannot retreat and loses a step (9.5.1B)."""
    b = board({"61/162G": "3430", "109/381": "3431", "109/456": "3531", "109/602": "3530", "109/657": "3429"})
    push_retreat(b, "german", ["61/162G"], "3430", 1, "test")
    settle(b)
    auto(b)
    assert b.hex_of("61/162G") == "3430"
    assert steps_lost(b) == [("61/162G", "reduced")]


def pd_attack(marker, air, rolls):
    """Four Guards regiments (16) against 1/48 (defence 4) in the Nederland PD hex 3330: 4-1."""
    b = board({"4SS/1/48": "3330", "30GD/131": "3430", "30GD/129": "3430", "30GD/134": "3429",
               "30GD/190": "3429"}, rolls=rolls)
    b.data["pd"]["4SS"] = marker
    result = fight(b, "soviet", "3330", ["30GD/131", "30GD/129", "30GD/134", "30GD/190"], air=air)
    return b, result


def test_11_3_2_soviet_attacks_on_a_pd_hex_shift_left_by_the_box_value():
    """4-1 (column 5) less 3 at the start box: 1-1 (column 2); less 2 at box 4 (value 2)."""
    for marker, value in ((0, 3), (4, 2), (7, 1), (9, 0)):
        b = board({"4SS/1/48": "3330", "30GD/131": "3430", "30GD/129": "3430", "30GD/134": "3429",
                   "30GD/190": "3429"})
        b.data["pd"]["4SS"] = marker
        o = odds(b, "soviet", ["30GD/131", "30GD/129", "30GD/134", "30GD/190"], "3330")
        assert (o.base_column, o.total_shift) == (5, -value)


def test_11_3_2_ruling_n46_germany_gets_no_pd_shift_and_soviets_in_pd_hexes_none():
    b = board({"109/381": "3330", "4SS/1/48": "3430"})
    assert odds(b, "german", ["4SS/1/48"], "3330").total_shift == 0


def test_11_3_4_example_d2r2_on_nederland_pd_moves_marker_three_boxes():
    """Marker in its start box: 4-1 (column 5), PD -3, LI-2 full +3: column 5; die 5 gives D2r2.  The
    marker goes down two boxes for the losses and one for the retreat (the first is negated); the
    unit is untouched."""
    b, result = pd_attack(0, {"LI-2": "full"}, [5])
    assert (result["odds"], result["result"]) == ("4-1", "D2r2")
    auto(b)
    assert b.data["pd"]["4SS"] == 3
    assert b.hex_of("4SS/1/48") == "3330" and steps_lost(b) == []


def test_11_3_4_example_marker_at_zero_after_the_first_loss_one_loss_and_one_retreat():
    """Marker one box above zero (box 8, value 1): 4-1 (column 5), PD -1, MIG-3 normal +1: column 5;
    die 5 gives D2r2.  The first loss takes the marker to zero; the units suffer the other loss and
    one hex of retreat (the first hex is still negated, 11.3.3)."""
    b, result = pd_attack(8, {"MIG-3-1": "normal"}, [5])
    assert (result["odds"], result["result"]) == ("4-1", "D2r2")
    after = result["defender_after"]
    assert (after["pd_boxes"], after["losses"], after["retreat"]) == (1, 1, 1)
    auto(b)
    assert b.data["pd"]["4SS"] == 9
    assert steps_lost(b)[0] == ("4SS/1/48", "reduced")
    assert b.scenario.distance("3330", b.hex_of("4SS/1/48")) == 1


def test_11_3_3_a_pd_hex_negates_the_first_retreat():
    """Marker in the zero box (nothing left to absorb, no shift): 131 (4) against 1/48 (4) is 1-1;
    die 6 gives D1r1.  The loss falls on the unit, the one retreat hex is still ignored."""
    b = board({"4SS/1/48": "3330", "30GD/131": "3430"}, rolls=[6])
    b.data["pd"]["4SS"] = 9
    result = fight(b, "soviet", "3330", ["30GD/131"])
    assert (result["odds"], result["result"]) == ("1-1", "D1r1")
    assert (result["defender_after"]["losses"], result["defender_after"]["retreat"]) == (1, 0)
    auto(b)
    assert b.hex_of("4SS/1/48") == "3330" and b.is_reduced("4SS/1/48")


def test_11_3_4A_a_barrage_loss_moves_the_marker_instead_of_the_unit():
    b = board({"4SS/1/48": "3330", "109/381": "3430"}, rolls=[6])
    start_barrages(b, "soviet", 1, "chit")
    settle(b)
    answer(b, "BARRAGE 3330")
    assert b.data["pd"]["4SS"] == 1 and steps_lost(b) == []


def test_11_3_4_soviet_units_in_a_pd_hex_get_nothing_from_the_track():
    """Germany attacks 381 in 3330: a D1 is taken by 381 itself, the 4SS marker stays."""
    b = board({"109/381": "3330", "4SS/1/48": "3430", "4SS/2/48": "3430", "4SS/1/49": "3429"}, rolls=[2])
    result = fight(b, "german", "3330", ["4SS/1/48", "4SS/2/48", "4SS/1/49"])  # 9:3 -> 3-1; die 2: A1* D1r1
    assert result["result"] == "D1r1"
    assert result["defender_after"]["retreat"] == 1
    auto(b)
    assert b.data["pd"]["4SS"] == 0 and ("109/381", "reduced") in steps_lost(b)
    assert b.hex_of("109/381") != "3330"


# ---------------------------------------------------------------- 11.3.5 / 11.4 turn advance


def end_of_turn(b):
    b.push(new_frame(b.data, "turn", stage="advance", ready=["german", "soviet"]))
    settle(b)


def test_11_3_5_germany_raises_one_pd_marker_one_box_at_the_end_of_the_turn():
    b = board({}, turn=4)
    b.data["pd"].update({"4SS": 3, "11SS": 2})
    end_of_turn(b)
    assert asked(b) == ["improve"]
    answer(b, "IMPROVE 4SS")
    assert b.data["pd"] == {"4SS": 2, "11SS": 2}
    assert b.turn == 5  # 2.2.1B: the turn marker then advances


def test_11_3_5_ruling_n46_a_marker_in_its_start_box_cannot_rise():
    b = board({}, turn=4)
    b.data["pd"].update({"4SS": 0, "11SS": 2})
    end_of_turn(b)
    refused(b, "IMPROVE 4SS", because=r"the 4SS marker is already in its starting box \(ruling N-46\)")
    answer(b, "IMPROVE 11SS")
    assert b.data["pd"] == {"4SS": 0, "11SS": 1}


def test_11_4A_drawn_chits_go_back_to_the_cup():
    b = board({}, turn=4)
    b.data["cup"] = ["26-1"]
    b.data["tracks"] = {"german": ["3SS-1"], "soviet": ["2SH-1"]}
    b.data["drawn_actions"] = ["BARRAGE-S1"]
    turn_advance(b)
    assert sorted(b.data["cup"]) == ["26-1", "2SH-1", "3SS-1", "BARRAGE-S1"]


def test_11_4B_pins_are_removed():
    b = board({"61/162G": "2332"}, turn=4)
    b.data["pinned"]["2332"] = ["61/162G"]
    end_of_turn(b)
    answer(b, "IMPROVE NONE")
    assert b.data["pinned"] == {}


def test_11_2_4B_13_3_rebuild_auto_spends_points_where_the_rules_pay_most():
    """Hand-play, turn 11: REBUILD AUTO restored a unit far in the rear while the Nederland marker stood
    two boxes down (2 Soviet VP, 13.3).  Now, point by point: the marker two boxes down first (11.2.4B
    raises it two), then the reduced 176G next to the Soviet 381 (2232, two hexes from 2432), then the
    Nordland marker one box down, and only then the 162G far in the rear (0430)."""
    units = {"61/162G": "0430", "61/176G": "2232", "109/381": "2432", "4SS/1/48": "3330"}
    b = board(units, reduced=["61/162G", "61/176G"])
    b.data["pd"].update({"4SS": 2, "11SS": 1})
    rebuild(b, rp=1)
    answer(b, "REBUILD AUTO")
    assert b.data["pd"] == {"4SS": 0, "11SS": 1}
    assert b.is_reduced("61/176G") and b.is_reduced("61/162G")

    b = board(units, reduced=["61/162G", "61/176G"])
    b.data["pd"].update({"4SS": 2, "11SS": 1})
    rebuild(b, rp=3)
    answer(b, "REBUILD AUTO")
    assert b.data["pd"] == {"4SS": 0, "11SS": 0}
    assert not b.is_reduced("61/176G") and b.is_reduced("61/162G")
    assert [e["unit"] for e in emitted(b, "rebuilt")] == ["61/176G"]


def test_11_2B_rebuild_auto_restores_a_rear_unit_when_nothing_better_is_left():
    """With both markers in their start box and no reduced unit near the enemy, the point still buys a
    step: the 162G in the rear is restored rather than the point being lost."""
    b = board({"61/162G": "0430", "109/381": "2432"}, reduced=["61/162G"])
    rebuild(b, rp=1)
    answer(b, "REBUILD AUTO")
    assert not b.is_reduced("61/162G") and b.data["rp"] == 0
