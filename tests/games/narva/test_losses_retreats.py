"""Rules 9.4 (step losses) and 9.5 (retreats), with 5.4 and the `ezoc_retreat_loss` option
(ruling N-16), 7.2B-C and the first-loss / first-retreat negations (9.4.4, 9.5.6, ruling N-34).

Strengths (units.yaml): 11SS/23 5-5 (reduced 2-3), 11SS/KAUS 3-3, 61st Division grenadiers 4-5
(reduced 2-3), FHH/PZ armour 7-4, police battalions 1-2 with one step, Soviet Guards 4-3, rifle
regiments 3-3.  The CRT cells used are read from tables.yaml and named in each test.  Hex 2332 and
its neighbours are clear; 2323 is a village; 3028, 2930 and 3029 are Narva (city); 2337
(Narva-Joesuu) is a coastal village whose only land neighbours are 2436, 2336 and, across the
Narva, 2437; 2322 is clear with swamp all round except the village 2323.
"""

from __future__ import annotations

from moderator.games.narva.losses import push_losses
from moderator.games.narva.retreat import push_retreat
from moderator.games.narva.supply import supplied_hexes
from tests.games.narva.fight import asked, auto, board, fight, refused, steps_lost, where
from tests.games.narva.helpers import answer, emitted, settle


def loss(b, side, units, count, by="defense", **kw):
    push_losses(b, side, units, count, "test", by=by, **kw)
    settle(b)


def retreat(b, side, units, length, by="defense"):
    push_retreat(b, side, units, b.hex_of(units[0]), length, "test", by=by)
    settle(b)


# ---------------------------------------------------------------- 9.4 step losses


def test_9_4A_a_full_strength_unit_that_loses_a_step_is_flipped():
    """German PZ (7) against 381 (3): 7:3 is 2-1 on the German line (column 4); die 2 gives D1
    (A1* D1 with the red A1 void for Germany)."""
    b = board({"109/381": "2332", "FHH/PZ": "2432"}, rolls=[2])
    result = fight(b, "german", "2332", ["FHH/PZ"])
    assert (result["odds"], result["result"]) == ("2-1", "D1")
    assert b.is_reduced("109/381") and b.hex_of("109/381") == "2332"


def test_9_4B_a_reduced_unit_that_loses_a_step_is_destroyed():
    b = board({"109/381": "2332", "FHH/PZ": "2432"}, reduced=["109/381"], rolls=[3])
    result = fight(b, "german", "2332", ["FHH/PZ"])  # 7:2 -> 3-1 (column 5); die 3 gives D1r1
    assert (result["odds"], result["result"]) == ("3-1", "D1r1")
    assert b.data["units"]["109/381"]["where"] == "eliminated"
    assert steps_lost(b) == [("109/381", "eliminated")]


def test_9_4C_an_hq_has_no_step_to_lose():
    """Two losses on 162G stacked with its HQ: both fall on 162G; the HQ loses nothing (and, left
    alone, is displaced, 11.1.3)."""
    b = board({"61/162G": "2332", "61/HQ": "2332", "109/381": "2432"})
    loss(b, "german", ["61/162G", "61/HQ"], 2)
    assert steps_lost(b) == [("61/162G", "reduced"), ("61/162G", "eliminated")]
    assert all(e["unit"] != "61/HQ" for e in emitted(b, "step_lost"))


def test_9_4_1A_the_first_defender_loss_comes_from_the_highest_defence():
    """FHH/PZ (attack 7, defence 4) with 162G (attack 4, defence 5): the defender's strongest is 162G."""
    b = board({"FHH/PZ": "2332", "61/162G": "2332"})
    loss(b, "german", ["FHH/PZ", "61/162G"], 1, by="defense")
    assert steps_lost(b) == [("61/162G", "reduced")]


def test_9_4_1B_the_first_attacker_loss_comes_from_the_highest_attack():
    """As attackers the same pair is ranked by attack: PZ (7) loses the step."""
    b = board({"FHH/PZ": "2332", "61/162G": "2332"})
    loss(b, "german", ["FHH/PZ", "61/162G"], 1, by="attack")
    assert steps_lost(b) == [("FHH/PZ", "reduced")]


def test_9_4_1B_strength_is_read_on_the_face_now_showing():
    """Reduced 2/502 shows defence 4 (7 full); 11SS/23 shows 5: 23 is the strongest now (ruling N-63)."""
    b = board({"IND/2/502": "2332", "11SS/23": "2332"}, reduced=["IND/2/502"])
    loss(b, "german", ["IND/2/502", "11SS/23"], 1)
    assert steps_lost(b) == [("11SS/23", "reduced")]


def test_9_4_1A_naming_a_weaker_unit_for_the_first_loss_is_refused():
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332"})
    push_losses(b, "german", ["11SS/23", "11SS/KAUS"], 2, "test")
    settle(b)
    assert asked(b) == ["loss"]
    refused(b, "LOSS KAUS 23", because=r"the first step must come from the strongest unit \(9\.4\.1\)")
    assert steps_lost(b) == []


def test_9_4_1B_between_equally_strong_units_the_owner_chooses():
    """Two rifle regiments (defence 3 each): either may take the first loss."""
    b = board({"109/381": "2332", "109/456": "2332"})
    push_losses(b, "soviet", ["109/381", "109/456"], 1, "test")
    settle(b)
    assert asked(b) == ["loss"]
    answer(b, "LOSS 456")
    assert steps_lost(b) == [("109/456", "reduced")]
    assert not b.is_reduced("109/381")


def test_9_4_2_further_losses_go_where_the_owner_likes_even_twice_on_one_unit():
    """Two losses on 23 (5) + KAUS (3): the first is 23's; the second may be 23's again (9.4.2B)."""
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332"})
    push_losses(b, "german", ["11SS/23", "11SS/KAUS"], 2, "test")
    settle(b)
    answer(b, "LOSS 23 23")
    assert steps_lost(b) == [("11SS/23", "reduced"), ("11SS/23", "eliminated")]
    assert not b.is_reduced("11SS/KAUS")


def test_9_4_2A_the_second_loss_may_go_to_a_weaker_unit():
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332"})
    push_losses(b, "german", ["11SS/23", "11SS/KAUS"], 2, "test")
    settle(b)
    answer(b, "LOSS 23 KAUS")
    assert b.is_reduced("11SS/23") and b.is_reduced("11SS/KAUS")


def test_9_4_3_a_one_step_unit_is_eliminated_by_one_loss():
    """The police battalion 30P has one step (units.yaml); the grenadier 162G has two."""
    b = board({"IND/30P": "2332", "61/162G": "2432"})
    loss(b, "german", ["IND/30P"], 1)
    loss(b, "german", ["61/162G"], 1)
    assert steps_lost(b) == [("IND/30P", "eliminated"), ("61/162G", "reduced")]
    assert b.data["units"]["IND/30P"]["where"] == "eliminated"


def test_9_5_6A_a_defender_in_a_city_ignores_the_first_retreat_hex():
    """11SS/23 (5) in Narva 3029 attacked from 2929 by 131 + 129 (8): 8:5 is 1-1 (column 2), one
    left for the city (TEC): 1-2; die 6 gives Dr1, and the one hex is ignored: 23 stays."""
    b = board({"11SS/23": "3029", "30GD/131": "2929", "30GD/129": "2929"}, rolls=[6])
    result = fight(b, "soviet", "3029", ["30GD/131", "30GD/129"])
    assert (result["odds"], result["result"]) == ("1-2", "Dr1")
    assert result["defender_after"]["retreat"] == 0
    assert b.hex_of("11SS/23") == "3029" and steps_lost(b) == []


def test_9_4_4A_a_defender_in_a_city_ignores_the_first_loss():
    """131 + 129 + 134 + 190 (16) from 2929 and 3028 against 23 (5) in 3029: 16:5 is 3-1 (column 4),
    city -1: 2-1 (column 3); die 3 gives A1* D1: the defender's loss is ignored, the attacker's is not."""
    b = board({"11SS/23": "3029", "30GD/131": "2929", "30GD/129": "2929", "30GD/134": "3028", "30GD/190": "3028"},
              rolls=[3])
    result = fight(b, "soviet", "3029", ["30GD/131", "30GD/129", "30GD/134", "30GD/190"])
    assert (result["odds"], result["result"]) == ("2-1", "A1 D1")
    auto(b)
    assert not b.is_reduced("11SS/23")
    assert len([u for u, _ in steps_lost(b) if u.startswith("30GD/")]) == 1


def test_9_4_4B_only_the_first_of_several_losses_is_ignored():
    """Four Guards regiments (16) against 23 (5) in 3029: 3-1 (column 4), city -1, MIG-3 full +2:
    column 5 (4-1); die 5 gives D2r2.  One loss is ignored, the other taken; one retreat hex is left."""
    b = board({"11SS/23": "3029", "30GD/131": "2929", "30GD/129": "2929", "30GD/134": "3028", "30GD/190": "3028"},
              rolls=[5])
    result = fight(b, "soviet", "3029", ["30GD/131", "30GD/129", "30GD/134", "30GD/190"], air={"MIG-3-1": "full"})
    assert (result["odds"], result["result"]) == ("4-1", "D2r2")
    assert (result["defender_after"]["losses"], result["defender_after"]["retreat"]) == (1, 1)
    auto(b)
    assert steps_lost(b)[0] == ("11SS/23", "reduced")
    assert b.scenario.distance("3029", b.hex_of("11SS/23")) == 1


def test_9_4_4_attackers_all_in_a_city_ignore_their_first_loss():
    """131 + 129 in 2930 and 134 in 3028 (Narva, city) attack 162G in 2929 (woods, -1): 12:5 is 2-1
    (column 3), woods: 1-1 (column 2); die 3 gives A1*: ignored, every attacker stands in a city."""
    b = board({"61/162G": "2929", "30GD/131": "2930", "30GD/129": "2930", "30GD/134": "3028"}, rolls=[3])
    result = fight(b, "soviet", "2929", ["30GD/131", "30GD/129", "30GD/134"])
    assert (result["odds"], result["result"]) == ("1-1", "A1")
    assert result["attacker_after"]["losses"] == 0
    assert steps_lost(b) == []


def test_9_4_4_ruling_n34_one_attacker_outside_the_city_means_no_negation():
    """The same, with 134 in 2928 (woods) instead of 3028: the A1 is taken."""
    b = board({"61/162G": "2929", "30GD/131": "2930", "30GD/129": "2930", "30GD/134": "2928"}, rolls=[3])
    result = fight(b, "soviet", "2929", ["30GD/131", "30GD/129", "30GD/134"])
    assert result["result"] == "A1"
    auto(b)
    assert len(steps_lost(b)) == 1


# ---------------------------------------------------------------- 9.5 retreats


def test_9_5_2A_the_defender_retreats_the_number_of_hexes_given():
    """131 + 129 + 381 (11) against 162G (5): 11:5 is 2-1 (column 3); die 6 gives D1r2: 162G ends two
    hexes from 2332."""
    b = board({"61/162G": "2332", "30GD/131": "2432", "30GD/129": "2431", "109/381": "2333"}, rolls=[6])
    result = fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "109/381"])
    assert result["result"] == "D1r2"
    auto(b)
    assert b.scenario.distance("2332", b.hex_of("61/162G")) == 2


def test_9_5_2B_each_hex_must_be_further_from_the_start_than_the_last():
    """2232 then 2231 would end one hex from 2332: refused.  2232 then 2133 is accepted."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"})
    push_retreat(b, "german", ["61/162G"], "2332", 2, "test")
    settle(b)
    refused(b, "RETREAT VIA 2232 2231",
            because=r"2232-2231 is not a retreat path for these units: each hex one further from 2332")
    answer(b, "RETREAT VIA 2232 2133")
    assert b.hex_of("61/162G") == "2133" and steps_lost(b) == []


def test_9_5_2C_a_retreat_that_cannot_be_made_costs_a_step_per_hex():
    """Turn 9: 162G in 2337 with the enemy in 2436 and 2336: the sea and the thawed Narva leave no
    retreat hex.  r1 costs one step; r2 both steps."""
    b = board({"61/162G": "2337", "109/381": "2436", "109/456": "2336"}, turn=9)
    retreat(b, "german", ["61/162G"], 1)
    assert steps_lost(b) == [("61/162G", "reduced")] and b.hex_of("61/162G") == "2337"
    b = board({"61/162G": "2337", "109/381": "2436", "109/456": "2336"}, turn=9)
    retreat(b, "german", ["61/162G"], 2)
    assert b.data["units"]["61/162G"]["where"] == "eliminated"


def test_9_5_1A_infantry_may_retreat_across_the_frozen_narva():
    """The same on Turn 2: the river is frozen and 162G retreats to 2437 without loss (6.2.2.1B)."""
    b = board({"61/162G": "2337", "109/381": "2436", "109/456": "2336"}, turn=2)
    retreat(b, "german", ["61/162G"], 1)
    assert b.hex_of("61/162G") == "2437" and steps_lost(b) == []


def test_9_5_1A_mechanized_units_retreat_only_where_they_could_move():
    """FHH/AA (mechanized) in 2322 with the enemy in the village 2323: every other neighbour is swamp,
    prohibited to mechanized units off the road (TEC); 2222 carries a road, but not from 2322.
    Infantry in the same place retreats into the swamp."""
    b = board({"FHH/AA": "2322", "109/381": "2323"})
    retreat(b, "german", ["FHH/AA"], 1)
    assert b.hex_of("FHH/AA") == "2322"
    assert steps_lost(b) == [("FHH/AA", "reduced")]
    b = board({"61/162G": "2322", "109/381": "2323"})
    retreat(b, "german", ["61/162G"], 1)
    auto(b)
    assert b.scenario.terrain(b.hex_of("61/162G")) == "swamp" and steps_lost(b) == []


def test_9_5_1C_the_owner_picks_the_unit_for_a_retreat_it_could_not_make():
    """23 (defence 5) and KAUS (3) cannot retreat from 2337 (Turn 9): the owner may take the step from
    KAUS, the weaker (no strongest-first rule here)."""
    b = board({"11SS/23": "2337", "11SS/KAUS": "2337", "109/381": "2436", "109/456": "2336"}, turn=9)
    retreat(b, "german", ["11SS/23", "11SS/KAUS"], 1)
    assert asked(b) == ["loss"]
    answer(b, "LOSS KAUS")
    assert steps_lost(b) == [("11SS/KAUS", "reduced")]


def test_9_5B_units_never_retreat_through_enemy_units():
    """2232 and 2231 are the only hexes out of the enemy ZOC; with enemy units in both, 162G must
    take a hex in an EZOC and lose a step."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431", "109/602": "2232", "109/657": "2231"})
    retreat(b, "german", ["61/162G"], 1)
    auto(b)
    assert b.hex_of("61/162G") not in ("2332", "2232", "2231")
    assert steps_lost(b) == [("61/162G", "reduced")]


def test_9_5_3A_a_retreat_into_an_enemy_zoc_is_refused_when_another_way_exists():
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"})
    push_retreat(b, "german", ["61/162G"], "2332", 1, "test")
    settle(b)
    refused(b, "RETREAT VIA 2333",
            because=r"a better retreat exists under the priorities of 9\.5 \(.*fewer enemy zones of control")
    answer(b, "RETREAT VIA 2231")
    assert b.hex_of("61/162G") == "2231" and steps_lost(b) == []


def test_9_5_3B_C_the_fewest_enemy_zoc_hexes_each_costing_a_step():
    """Enemy in 2432 and 2231: every neighbour of 2332 lies in an EZOC.  On r2, 2232-2132 would enter
    two EZOC hexes (2132 is next to 2231): refused; 2232-2133 enters one and costs one step."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2231"})
    push_retreat(b, "german", ["61/162G"], "2332", 2, "test")
    settle(b)
    refused(b, "RETREAT VIA 2232 2132",
            because=r"a better retreat exists under the priorities of 9\.5 \(.*fewer enemy zones of control")
    answer(b, "RETREAT VIA 2232 2133")
    assert b.hex_of("61/162G") == "2133"
    assert steps_lost(b) == [("61/162G", "reduced")]


def test_5_4A_the_ezoc_step_is_one_for_the_whole_stack():
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332", "109/381": "2432", "109/456": "2231"})
    retreat(b, "german", ["11SS/23", "11SS/KAUS"], 1)
    auto(b)
    assert len(steps_lost(b)) == 1


def test_9_5_3D_the_strongest_unit_takes_the_ezoc_step_by_default():
    """Option ezoc_retreat_loss=strongest (the default, ruling N-16): 23 (defence 5) loses the step."""
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332", "109/381": "2432", "109/456": "2231"})
    assert b.options["ezoc_retreat_loss"] == "strongest"
    retreat(b, "german", ["11SS/23", "11SS/KAUS"], 1)
    auto(b)
    assert steps_lost(b) == [("11SS/23", "reduced")]


def test_9_5_3D_an_attacker_s_ezoc_step_goes_by_attack_strength():
    """Attacking units retreating: 131 (attack 4, defence 3) and 381 (attack 3, defence 3): by attack
    131 is the strongest (by defence they would tie)."""
    b = board({"30GD/131": "2332", "109/381": "2332", "61/162G": "2432", "61/176G": "2231"})
    retreat(b, "soviet", ["30GD/131", "109/381"], 1, by="attack")
    auto(b)
    assert steps_lost(b) == [("30GD/131", "reduced")]


def test_5_4D_option_owner_lets_the_retreating_side_choose_the_ezoc_step():
    """Option ezoc_retreat_loss=owner (5.4D): Germany may give the step to KAUS."""
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332", "109/381": "2432", "109/456": "2231"},
              options={"ezoc_retreat_loss": "owner"})
    push_retreat(b, "german", ["11SS/23", "11SS/KAUS"], "2332", 1, "test")
    settle(b)
    if asked(b) == ["retreat"]:
        answer(b, "RETREAT VIA 2232")
    assert asked(b) == ["loss"]
    answer(b, "LOSS KAUS")
    assert steps_lost(b) == [("11SS/KAUS", "reduced")]


def test_9_5_3E_friendly_units_do_not_negate_an_ezoc_for_a_retreat():
    """The only hexes out of the EZOC (2231, 2232) hold enemy units; 2333 holds a German unit but is
    next to the enemy in 2432: retreating there still costs a step."""
    b = board({"61/162G": "2332", "61/176G": "2333", "109/381": "2432", "109/456": "2231", "109/602": "2232",
               "109/657": "2331", "109/749": "2431"})
    retreat(b, "german", ["61/162G"], 1)
    assert b.hex_of("61/162G") == "2333"
    assert ("61/162G", "reduced") in steps_lost(b)


def test_9_5_4A_the_retreat_must_end_in_a_supplied_hex_if_possible():
    """162G in 0329 with the enemy in 0429: 0228 is clear but cut off (woods all round and 0329 in the
    EZOC), so ending there is refused while 0229 or 0328 can trace supply."""
    b = board({"61/162G": "0329", "109/381": "0429"})
    push_retreat(b, "german", ["61/162G"], "0329", 1, "test")
    settle(b)
    refused(b, "RETREAT VIA 0228", because=r"a better retreat exists under the priorities of 9\.5 \(.*ending supplied")
    assert b.hex_of("61/162G") == "0329"


def test_9_5_4A_among_retreats_into_an_ezoc_a_supplied_end_is_still_required():
    """162G in 0329 with the enemy in 0328 and 0330: every way out (0429, 0428, 0228, 0229) is in an
    EZOC.  A unit negates the EZOC in its own hex for supply (10.1.1B), so 0429, 0428 and 0229 (woods,
    9.5.4B) can trace supply with 162G in them; 0228 (woods all round, 0329 left empty in an EZOC)
    cannot: it is refused."""
    b = board({"61/162G": "0329", "109/381": "0328", "109/456": "0330"})
    push_retreat(b, "german", ["61/162G"], "0329", 1, "test")
    settle(b)
    refused(b, "RETREAT VIA 0228", because=r"a better retreat exists under the priorities of 9\.5 \(.*ending supplied")
    answer(b, "RETREAT VIA 0229")
    assert b.hex_of("61/162G") == "0229"
    assert steps_lost(b) == [("61/162G", "reduced")]


def test_9_5_4B_retreating_into_woods_may_make_the_hex_supplied():
    """0229 is woods with no unit, so no supply line runs through it; with 162G in it, it links to
    the rollbahn in 0230 and counts as a supplied end (10.1C)."""
    b = board({"61/162G": "0329", "109/381": "0429"})
    assert "0229" not in supplied_hexes(b, "german")
    push_retreat(b, "german", ["61/162G"], "0329", 1, "test")
    settle(b)
    answer(b, "RETREAT VIA 0229")
    assert b.hex_of("61/162G") == "0229" and steps_lost(b) == []


def test_9_5_5A_a_stack_may_split_its_retreat():
    b = board({"11SS/23": "2332", "11SS/KAUS": "2332", "109/381": "2432", "109/456": "2431"})
    push_retreat(b, "german", ["11SS/23", "11SS/KAUS"], "2332", 1, "test")
    settle(b)
    answer(b, "RETREAT 23 VIA 2231")
    answer(b, "RETREAT VIA 2232")
    assert where(b, "11SS/23", "11SS/KAUS") == ["2231", "2232"]


def test_9_5_5B_a_unit_overstacked_at_the_end_goes_one_hex_further():
    """2231 and 2232 (the hexes out of the EZOC) each hold two German combat units: 162G retreats
    into one and must go on one more hex, two from 2332."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431", "61/176G": "2231", "61/151G": "2231",
               "FHH/MOK": "2232", "FHH/BECK": "2232"})
    retreat(b, "german", ["61/162G"], 1)
    auto(b)
    assert b.scenario.distance("2332", b.hex_of("61/162G")) == 2
    assert len(b.combat_units_at("2231")) == 2 and len(b.combat_units_at("2232")) == 2
    assert steps_lost(b) == []


def test_9_5_5B_an_overstacked_unit_that_cannot_go_further_is_eliminated():
    """Turn 9: 162G retreats from 2436; the thawed Narva closes 2437, 2536 and 2537, the enemy holds
    2435 and 2336, so it must enter Narva-Joesuu (2337, in the EZOC: one step), which already holds
    two German units; beyond 2337 there is only sea: eliminated."""
    b = board({"61/162G": "2436", "109/381": "2435", "109/456": "2336", "61/176G": "2337", "61/151G": "2337"},
              turn=9)
    retreat(b, "german", ["61/162G"], 1)
    auto(b)
    assert b.data["units"]["61/162G"]["where"] == "eliminated"
    assert sorted(b.combat_units_at("2337")) == ["61/151G", "61/176G"]


def test_9_5_5B_the_extra_hex_into_an_enemy_zoc_costs_a_step():
    """5.4B: every EZOC hex entered in a retreat costs a step, the extra hex of 9.5.5B included.
    162G must go on from 2231 or 2232 (each full); with enemy units in 2130 and 2133, every hex two
    from 2332 beyond them lies in an EZOC."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431", "61/176G": "2231", "61/151G": "2231",
               "FHH/MOK": "2232", "FHH/BECK": "2232", "109/602": "2130", "109/657": "2133"})
    retreat(b, "german", ["61/162G"], 1)
    auto(b)
    end = b.hex_of("61/162G")
    assert b.scenario.distance("2332", end) == 2
    assert b.in_enemy_zoc(end, "german")
    assert steps_lost(b) == [("61/162G", "reduced")]


def test_9_5_5C_an_hq_retreating_onto_another_hq_goes_one_hex_further():
    """162G and the 61st HQ retreat from 2332 into 2231 or 2232, each holding another German HQ: the
    61st HQ goes on one more hex."""
    b = board({"61/162G": "2332", "61/HQ": "2332", "109/381": "2432", "109/456": "2431", "FHH/HQ": "2231",
               "170/HQ": "2232"})
    retreat(b, "german", ["61/162G", "61/HQ"], 1)
    auto(b)
    assert b.scenario.distance("2332", b.hex_of("61/162G")) == 1
    assert b.scenario.distance("2332", b.hex_of("61/HQ")) == 2
    assert where(b, "FHH/HQ", "170/HQ") == ["2231", "2232"]


def test_9_5_6A_a_defender_in_a_village_ignores_the_first_retreat_hex():
    """162G in the village 2323, attacked by 131 + 129 + 134 (12): 12:5 is 2-1 (column 3); die 6 gives
    D1r2: one loss and one hex of retreat (the first is ignored)."""
    b = board({"61/162G": "2323", "30GD/131": "2322", "30GD/129": "2322", "30GD/134": "2423"}, rolls=[6])
    result = fight(b, "soviet", "2323", ["30GD/131", "30GD/129", "30GD/134"])
    assert result["result"] == "D1r2"
    assert (result["defender_after"]["losses"], result["defender_after"]["retreat"]) == (1, 1)
    auto(b)
    assert b.scenario.distance("2323", b.hex_of("61/162G")) == 1


def test_9_5_6B_attackers_in_a_village_ignore_their_first_retreat_hex():
    """381 in the village 2323 and 456 in the open (2322) attack 162G in 2422 (swamp: 10): 6:10 is
    1-2 (column 1); die 2 gives A1r1.  456 retreats; 381, in the village, stays (ruling N-34)."""
    b = board({"61/162G": "2422", "109/381": "2323", "109/456": "2322"}, rolls=[2])
    result = fight(b, "soviet", "2422", ["109/381", "109/456"])
    assert result["result"] == "A1r1"
    auto(b)
    assert b.hex_of("109/381") == "2323"
    assert b.hex_of("109/456") != "2322"


def test_9_5_6B_attackers_retreat_each_from_its_own_hex():
    """381 (2432) and 456 (2431) attack 162G in 2332 with die 2 on 1-1 (6:5): Ar1.  Each retreats one
    hex from its own hex."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, rolls=[2])
    result = fight(b, "soviet", "2332", ["109/381", "109/456"])
    assert result["result"] == "Ar1"
    auto(b)
    assert b.scenario.distance("2432", b.hex_of("109/381")) == 1
    assert b.scenario.distance("2431", b.hex_of("109/456")) == 1
    assert b.hex_of("61/162G") == "2332"
