"""Action chits (2.5): barrage count and targets (2.5.1.1), random events (2.5.2), the Stavka
directive's targets and return (2.5.3A, E; the Ar1 example is tested with combat), Free Move (2.5.4),
Withdraw 59 Army (2.5.5), 2nd Shock Out of Supply (2.5.6) and Withdraw the 214 Division (2.5.7).

The barrage CRT, pins and the Stavka combat modifiers are tested with combat.
"""

from __future__ import annotations

from moderator.games.narva.reinforce import refill_cup
from moderator.games.narva.sequence import turn_advance
from tests.games.narva.drive import asked, cannot, command_phase, finish
from tests.games.narva.helpers import answer, emitted, position


def draw(board, *action_chits):
    """A Command Phase drawing these action chits, then the 8th Army chit (whose HQ is off the map,
    so it passes by itself, ruling N-45): the phase lasts only while command chits remain (2.5C)."""
    command_phase(board, [*action_chits, "8-1"])


def chits(board, **where):
    return [c.id for c in board.scenario.chits if all(getattr(c, k) == v for k, v in where.items())]


# ---------------------------------------------------------------- 2.5 in general


def test_2_5A_each_action_chit_names_the_side_it_affects():
    board = position({})
    assert sorted(c.side for c in board.scenario.chits if c.action == "barrage") == ["german", "soviet", "soviet"]
    assert board.scenario.chit("RANDOM").side == "both"
    assert board.scenario.chit("STAVKA").side == "soviet" and board.scenario.chit("WITHDRAW-214").side == "german"


def test_2_5C_action_chits_do_not_count_against_the_activation_limit():
    """Turn 3, German limit 2: the German barrage chit comes first, then both German command chits
    still activate their HQs."""
    board = position({"FHH/HQ": "1827", "225/HQ": "0213"}, turn=3)
    command_phase(board, ["BARRAGE-G", "26-1", "43-1"])
    finish(board, until="hq")
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    answer(board, "ACTIVATE 225")
    finish(board)
    assert [a["hq"] for a in emitted(board, "activated")] == ["FHH/HQ", "225/HQ"]
    assert board.data["used"]["german"] == 2
    assert not emitted(board, "chit_unused")


def test_2_5C_action_chits_may_stay_in_the_cup_when_the_command_chits_are_gone():
    board = position({"FHH/HQ": "1827"}, turn=5)
    command_phase(board, ["26-1"], also=["STAVKA", "BARRAGE-S1"])
    answer(board, "PASS")
    assert sorted(board.data["cup"]) == ["BARRAGE-S1", "STAVKA"]
    assert not emitted(board, "barrage_roll")


def test_2_5D_drawn_action_chits_return_to_the_cup_at_turn_advance():
    board = position({"FHH/HQ": "1827"}, turn=5)
    command_phase(board, ["BARRAGE-G", "26-1"])
    finish(board)
    assert "BARRAGE-G" not in board.data["cup"]
    turn_advance(board)
    assert "BARRAGE-G" in board.data["cup"]


# ---------------------------------------------------------------- 2.5.1.1 barrage


def test_2_5_1_1A_the_soviets_have_two_barrage_chits_and_germany_one():
    board = position({})
    assert len(chits(board, action="barrage", side="soviet")) == 2
    assert len(chits(board, action="barrage", side="german")) == 1


def barrage_board(rolls):
    """Soviet units at 2332 and 2534 (an assault gun, no ZOC); German 61/162G at 2432 (next to both)
    and 61/176G at 2434 (next to the gun); a lone German HQ at 2231 (next to 2332); German 225/333G far
    away at 1107."""
    return position({"109/381": "2332", "IND/1434AG": "2534", "61/162G": "2432", "61/176G": "2434",
                     "FHH/HQ": "2231", "225/333G": "1107"}, turn=4, rolls=rolls, options={"fog": "off"})


def test_2_5_1_1B_the_barrage_roll_table_gives_the_number_of_attacks():
    for roll in (1, 6):
        board = barrage_board([roll])
        draw(board, "BARRAGE-S1")
        expected = board.scenario.barrage_count("soviet", roll)
        assert emitted(board, "barrage_roll")[0]["count"] == expected
        assert board.top()["kind"] == "barrage" and board.top()["count"] == expected
    assert board.scenario.barrage_count("soviet", 1) < board.scenario.barrage_count("soviet", 6)


def test_2_5_1_1C_a_barrage_needs_an_enemy_occupied_hex_next_to_a_friendly_unit():
    board = barrage_board([1, 1, 1])
    draw(board, "BARRAGE-S1")
    cannot(board, "BARRAGE 1107",
           because=r"1107 is not a barrage target: an enemy-occupied hex next to a friendly combat unit, not already "
                   r"barraged by this chit \(2\.5\.1\.1C")  # German-held but next to no Soviet unit
    cannot(board, "BARRAGE 2332",
           because=r"2332 is not a barrage target: an enemy-occupied hex next to a friendly combat unit, not already "
                   r"barraged by this chit \(2\.5\.1\.1C")  # empty
    cannot(board, "BARRAGE 2231",
           because=r"2231 is not a barrage target: an enemy-occupied hex next to a friendly combat unit, not already "
                   r"barraged by this chit \(2\.5\.1\.1C")  # a lone HQ (ruling N-29, as 9.0B)
    answer(board, "BARRAGE 2432")  # next to 381
    answer(board, "BARRAGE 2434")  # next to the assault gun
    assert [b["hex"] for b in emitted(board, "barrage")] == ["2432", "2434"]


def test_2_5_1_1D_the_same_hex_may_not_be_targeted_twice():
    board = barrage_board([1, 1, 1])
    draw(board, "BARRAGE-S1")
    answer(board, "BARRAGE 2432")
    cannot(board, "BARRAGE 2432",
           because=r"2432 is not a barrage target: .*not already barraged by this chit \(2\.5\.1\.1C-D\)")


def test_2_5_1_1E_a_unit_that_retreated_may_be_barraged_again_in_its_new_hex():
    """Roll 1: two barrages.  The first (die 5, Dr1) drives 162G from 2432 to 2533; 2533 is next to
    the assault gun at 2534, so the second barrage may target 162G there."""
    board = barrage_board([1, 5, 1])
    draw(board, "BARRAGE-S1")
    answer(board, "BARRAGE 2432")
    assert asked(board) == ["retreat"]
    answer(board, "RETREAT VIA 2533")
    assert board.hex_of("61/162G") == "2533"
    answer(board, "BARRAGE 2533")
    hits = emitted(board, "barrage")
    assert [b["hex"] for b in hits] == ["2432", "2533"]
    assert all("61/162G" in b["units"] for b in hits)


# ---------------------------------------------------------------- 2.5.2 random events


def test_2_5_2A_the_random_event_is_applied_before_the_next_draw():
    """2d6 = 5 + 6 = 11, a cold spell (tables.yaml): the freeze is prolonged at once, before the 26
    chit is drawn."""
    board = position({"FHH/HQ": "1827"}, turn=6, rolls=[5, 6])
    assert board.scenario.random_event(11).effect == "prolong_freeze"
    command_phase(board, ["RANDOM", "26-1"])
    assert emitted(board, "random_event")[0]["total"] == 11
    assert board.data["freeze_extended"]
    assert asked(board) == ["hq"]
    kinds = [e.kind for e in board.events]
    assert kinds.index("random_event") < next(i for i, e in enumerate(board.events)
                                          if e.kind == "chit_drawn" and e.data["chit"] == "26-1")


def test_2_5_2_ruling_n60_a_cold_spell_drawn_on_turn_8_has_no_effect():
    """Ruling N-60: a longer freeze drawn on Turn 7 or earlier keeps the rivers frozen through Turn 8;
    drawn on Turn 8 or later it has no effect, the thaw of Turn 8 having already happened."""
    board = position({"FHH/HQ": "1827"}, turn=8, rolls=[5, 6])
    assert not board.frozen
    command_phase(board, ["RANDOM", "26-1"])
    assert emitted(board, "random_event")[0]["total"] == 11
    assert board.scenario.random_event(11).effect == "prolong_freeze"
    assert not board.frozen and not board.data["freeze_extended"]


def test_2_5_2B_a_move_event_moves_all_units_of_one_division_ignoring_command_and_supply():
    """2d6 = 4 + 5 = 9: Germany may move all units of one division.  The 61st's units move although
    their HQ is not on the map and 162G is isolated; FHH/MOK, not of the 61st, may not move, and
    nobody attacks (ruling N-60: whatever their command or supply, without combat)."""
    board = position({"61/162G": "2432", "61/176G": "0920", "FHH/MOK": "2434", "109/381": "2331"}, turn=6,
                     rolls=[4, 5], supply={"61/162G": "isolated"})
    assert board.scenario.random_event(9).effect == "move_formation"
    draw(board, "RANDOM")
    assert asked(board) == ["regroup"]
    answer(board, "REGROUP 61")
    answer(board, "MOVE 176G TO 0921")
    assert board.hex_of("61/176G") == "0921"
    cannot(board, "MOVE MOK TO 2435", because=r"MOK is not activated now \(4\.0A")
    answer(board, "MOVE 162G TO 2533")
    assert board.hex_of("61/162G") == "2533"
    assert "attack" not in asked(board)
    assert not emitted(board, "attack_announced")


# ---------------------------------------------------------------- 2.5.3 Stavka


STAVKA_BOARD = {"61/162G": "2432", "61/176G": "2434", "109/381": "2332", "109/456": "2431", "109/602": "2433",
                "43/4": "2535", "43/166": "2435", "122/65": "1107"}


def test_2_5_3A_the_stavka_attacks_two_hexes_with_every_adjacent_soviet_unit():
    """2432 has 381 (2332), 456 (2431) and 602 (2433) next to it; 2434 has 602, 166 (2435) and 4
    (2535).  The first attack takes all three of its neighbours; 602 has attacked and does not join
    the second (ruling N-26), which takes 166 and 4.  The far 65 never attacks."""
    board = position(STAVKA_BOARD, turn=5, rolls=[1] * 10, options={"fog": "off"})
    assert {"2332", "2431", "2433"} <= set(board.scenario.neighbours("2432"))
    assert {"2433", "2435", "2535"} <= set(board.scenario.neighbours("2434"))
    draw(board, "STAVKA")
    assert asked(board) == ["stavka"]
    answer(board, "STAVKA 2432")
    finish(board, until="stavka")
    answer(board, "STAVKA 2434")
    finish(board)
    attacks = emitted(board, "attack_announced")
    assert [a["target"] for a in attacks] == ["2432", "2434"]
    assert sorted(attacks[0]["units"]) == ["109/381", "109/456", "109/602"]
    assert sorted(attacks[1]["units"]) == ["43/166", "43/4"]
    assert emitted(board, "stavka_over")[0]["attacks"] == 2


def test_2_5_3E_the_stavka_chit_comes_back_two_turns_later():
    """Drawn on Turn 6: not in the cup at Turn Advance nor in Turn 7's Reinforcement Phase; back in the
    cup in Turn 8's Reinforcement Phase."""
    board = position({}, turn=6)
    draw(board, "STAVKA")
    finish(board)
    turn_advance(board)
    assert "STAVKA" not in board.data["cup"]
    board.data["turn"] = 7
    refill_cup(board)
    assert "STAVKA" not in board.data["cup"]
    board.data["turn"] = 8
    refill_cup(board)
    assert "STAVKA" in board.data["cup"]


def test_2_5_3_the_stavka_does_not_count_as_an_activation():
    """Turn 6, Soviet limit 4; the 109th activated before the Stavka may not go again after it."""
    board = position(dict(STAVKA_BOARD, **{"2SH/HQ": "3024", "109/HQ": "2230", "30GD/HQ": "3015"}), turn=6,
                     rolls=[1] * 10)
    command_phase(board, ["2SH-1", "STAVKA", "2SH-2"])
    answer(board, "ACTIVATE 109")
    finish(board, until="stavka")
    answer(board, "STAVKA 2432")
    finish(board, until="hq")
    assert board.data["used"]["soviet"] == 2
    cannot(board, "ACTIVATE 109", because=r"109 HQ cannot be activated: it activated last time \(4\.1\.2\)")


# ---------------------------------------------------------------- 2.5.4 Free Move


FREE_BOARD = {"109/HQ": "2120", "109/381": "2122", "109/456": "2021", "109/891": "3429", "IND/48": "2221",
              "IND/50": "2320", "IND/16UR": "2219", "30GD/194": "2020", "43/4": "2635", "FHH/MOK": "2623",
              "2SH/HQ": "3024"}


def test_2_5_4A_free_move_with_an_hq_its_units_and_three_others_in_range():
    board = position(FREE_BOARD, turn=8)
    draw(board, "FREE-MOVE")
    cannot(board, "FREEMOVE HQ 109 ATTACH 48 50 16UR 30GD/194",
           because=r"at most three other units \(2\.5\.4A\)")  # four others
    cannot(board, "FREEMOVE HQ 109 ATTACH 43/4",
           because=r"4 cannot join: three other units within the HQ's range "
                   r"\(2\.5\.4A\)")  # out of range (2635 is 15 hexes from 2120)
    answer(board, "FREEMOVE HQ 109 ATTACH 48 50 16UR")
    movers = set(board.top()["movers"])
    assert movers == {"109/HQ", "109/381", "109/456", "IND/48", "IND/50", "IND/16UR"}  # not 891 (3429)
    answer(board, "MOVE 48 TO 2220")
    assert board.hex_of("IND/48") == "2220"


def test_2_5_4A_free_move_of_three_units_anywhere_and_no_hq():
    board = position(FREE_BOARD, turn=8)
    draw(board, "FREE-MOVE")
    cannot(board, "FREEMOVE UNITS 891 43/4 48 50", because=r"at most three units \(2\.5\.4A\)")  # four
    answer(board, "FREEMOVE UNITS 891 43/4 48")
    assert set(board.top()["movers"]) == {"109/891", "43/4", "IND/48"}
    answer(board, "MOVE 891 TO 3428")
    assert board.hex_of("109/891") == "3428"


def test_2_5_4A_the_three_units_without_an_hq_are_combat_units():
    """Ruling N-25: 'three Soviet combat units anywhere'; an HQ may not be one of them."""
    board = position(FREE_BOARD, turn=8)
    draw(board, "FREE-MOVE")
    cannot(board, "FREEMOVE UNITS 109/HQ 48",
           because=r"109 HQ is an HQ: a Free Move without an HQ moves three combat units \(2\.5\.4A\)")
    cannot(board, "FREEMOVE UNITS 2SH/HQ",
           because=r"2nd SH HQ is an HQ: a Free Move without an HQ moves three combat units \(2\.5\.4A\)")


def test_2_5_4A_by_default_an_army_hq_cannot_take_the_free_move():
    board = position(FREE_BOARD, turn=8)
    draw(board, "FREE-MOVE")
    cannot(board, "FREEMOVE HQ 2SH", because=r"2nd SH HQ cannot take the Free Move \(.*not a corps HQ\)")


def test_2_5_4A_option_any_an_army_hq_activates_its_armys_units_and_stays_put():
    """free_move_hq=any (ruling N-25): the 2SH Army HQ (range 12, at 3024) activates the units of the
    2nd Shock Army's corps within its range plus up to three others, and does not move itself."""
    board = position({"2SH/HQ": "3024", "109/381": "3026", "43/4": "2935", "109/891": "2122",
                      "IND/48": "3023", "117/92": "3025"}, turn=8, options={"free_move_hq": "any"})
    assert board.scenario.distance("3024", "2122") == 9
    draw(board, "FREE-MOVE")
    answer(board, "FREEMOVE HQ 2SH ATTACH 48 117/92")
    movers = set(board.top()["movers"])
    assert {"109/381", "43/4", "109/891", "IND/48", "117/92"} == movers
    assert "2SH/HQ" not in movers


def test_2_5_4B_units_starting_in_an_ezoc_may_not_move():
    """With FHH/MOK at 2123, 381 (at 2122) starts in an EZOC and may not move in the Free Move."""
    board = position(dict(FREE_BOARD, **{"FHH/MOK": "2123"}), turn=8)
    assert board.in_enemy_zoc("2122", "soviet")
    draw(board, "FREE-MOVE")
    answer(board, "FREEMOVE HQ 109")
    cannot(board, "MOVE 381 TO 2222", because=r"381 starts in an enemy zone of control and may not move \(2\.5\.4B\)")


def test_2_5_4B_free_move_units_may_not_enter_an_ezoc():
    """48 at 2221 may not step into 2222 (next to FHH/MOK at 2223), not even as a minimum move, and a
    path through the EZOC is not used."""
    board = position(dict(FREE_BOARD, **{"FHH/MOK": "2223"}), turn=8)
    assert board.in_enemy_zoc("2222", "soviet") and not board.in_enemy_zoc("2221", "soviet")
    draw(board, "FREE-MOVE")
    answer(board, "FREEMOVE UNITS 48 50")
    cannot(board, "MOVE 48 TO 2222", because=r"2222 is in an enemy zone of control \(2\.5\.4B\)")
    answer(board, "MOVE 50 TO 2321")
    assert board.hex_of("IND/50") == "2321"


def test_2_5_4C_free_move_units_do_not_fight():
    """381 moves from 2622 to 2722, next to FHH/MOK at 2821 but across the unbridged lower Narva, so not
    in its ZOC (5.6); in a normal activation it could attack from there, in the Free Move it may not."""
    board = position(dict(FREE_BOARD, **{"109/381": "2622", "FHH/MOK": "2821"}), turn=8)
    assert not board.in_enemy_zoc("2722", "soviet") and "2821" in board.scenario.neighbours("2722")
    draw(board, "FREE-MOVE")
    answer(board, "FREEMOVE UNITS 381")
    answer(board, "MOVE 381 TO 2722")
    assert board.hex_of("109/381") == "2722"
    assert asked(board) == []
    assert not emitted(board, "attack_announced")


def test_2_5C_the_free_move_does_not_count_against_the_activation_limit():
    board = position(FREE_BOARD, turn=8)
    command_phase(board, ["FREE-MOVE", "26-1"])
    answer(board, "FREEMOVE UNITS 48")
    finish(board)
    assert board.data["used"]["soviet"] == 0 and board.data["used"]["german"] == 1


# ---------------------------------------------------------------- 2.5.5 Withdraw 59 Army


def test_2_5_5_withdraw_59_army_takes_effect_in_the_next_reinforcement_phase():
    """Drawn on Turn 9: a 59 chit drawn later that turn still activates (the Soviets keep the rest of the
    turn and the next); in Turn 10's Reinforcement Phase the 59th Army HQ, its corps and their units
    and every 59 chit leave the game, and so does the Withdraw chit."""
    board = position({"59/HQ": "3515", "6/HQ": "3320", "6/R1": "3321", "2SH/HQ": "2830"}, turn=9)
    command_phase(board, ["WITHDRAW-59", "59-1"], also=[])
    assert asked(board) == ["hq"]
    answer(board, "ACTIVATE 6")
    finish(board)
    assert board.data["parked"]["WITHDRAW-59"] == 10
    turn_advance(board)
    assert "WITHDRAW-59" not in board.data["cup"]
    assert "59-1" in board.data["cup"]
    board.data["turn"] = 10
    board.data["cup"] += ["59-2"]
    board.data["tracks"]["soviet"] = ["59-3"]
    refill_cup(board)
    for uid in ("59/HQ", "6/HQ", "6/R1"):
        assert board.state_of(uid)["where"] == "withdrawn"
    assert board.state_of("6/R2")["where"] == "withdrawn"  # a pending unit of the 59th Army too
    assert board.is_on_map("2SH/HQ")
    assert not {"59-1", "59-2", "59-3", "WITHDRAW-59"} & set(board.data["cup"] + board.data["tracks"]["soviet"])
    turn_advance(board)
    assert not {"59-1", "59-2", "59-3", "WITHDRAW-59"} & set(board.data["cup"])


# ---------------------------------------------------------------- 2.5.6 2nd Shock out of supply


SHOCK_BOARD = {"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015", "FHH/HQ": "1827"}


def test_2_5_6_example_2nd_shock_out_of_supply():
    """2.5.6 example: on Turn 8 the chit is drawn and no 2SH chit follows that turn.  On Turn 9 a 2SH
    chit is drawn, used normally, then removed from the game.  The out-of-supply chit goes on Turn 10
    and returns to the cup in that turn's Reinforcement Phase."""
    board = position(SHOCK_BOARD, turn=8)
    command_phase(board, ["2SH-OOS", "26-1"])
    assert board.data["shock_oos"]
    answer(board, "ACTIVATE FHH")
    finish(board)
    turn_advance(board)
    assert "2SH-OOS" not in board.data["cup"]  # 11.4A: the exception; it waits by the track
    assert board.data["shock_oos"]
    board.data["turn"] = 9
    command_phase(board, ["2SH-2"])
    answer(board, "ACTIVATE 109")  # used normally
    assert emitted(board, "activated")[-1]["hq"] == "109/HQ"
    finish(board)
    assert "2SH-2" in board.data["removed"]
    assert not board.data["shock_oos"]
    assert board.data["parked"]["2SH-OOS"] == 10
    turn_advance(board)
    assert "2SH-2" not in board.data["cup"] and "2SH-OOS" not in board.data["cup"]
    board.data["turn"] = 10
    refill_cup(board)
    assert "2SH-OOS" in board.data["cup"]
    assert "2SH-2" not in board.data["cup"]


def test_2_5_6C_the_chit_may_wait_several_turns():
    board = position(SHOCK_BOARD, turn=8)
    command_phase(board, ["2SH-OOS", "26-1"])
    finish(board)
    for turn in (9, 10):
        turn_advance(board)
        board.data["turn"] = turn
        refill_cup(board)
        command_phase(board, ["26-1"])
        finish(board)
    assert board.data["shock_oos"] and "2SH-OOS" not in board.data["cup"]
    turn_advance(board)
    board.data["turn"] = 11
    command_phase(board, ["2SH-1"])
    answer(board, "ACTIVATE 109")
    finish(board)
    assert "2SH-1" in board.data["removed"] and board.data["parked"]["2SH-OOS"] == 12


def test_2_5_6B_a_passed_2nd_shock_chit_is_still_used_and_removed():
    """Ruling N-27: the next 2SH chit within the limit triggers the removal, even when passed."""
    board = position(SHOCK_BOARD, turn=9)
    board.data["shock_oos"] = True
    command_phase(board, ["2SH-1"])
    answer(board, "PASS")
    finish(board)
    assert "2SH-1" in board.data["removed"] and "2SH-1" not in board.data["tracks"]["soviet"]
    assert board.data["parked"].get("2SH-OOS") == 10 and not board.data["shock_oos"]


def test_2_5_6B_a_relocation_also_uses_the_2nd_shock_chit():
    board = position(SHOCK_BOARD, turn=9)
    board.data["shock_oos"] = True
    command_phase(board, ["2SH-1"])
    answer(board, "RELOCATE TO 3023")
    finish(board)
    assert "2SH-1" in board.data["removed"] and board.data["parked"].get("2SH-OOS") == 10


def test_2_5_6B_a_2nd_shock_chit_beyond_the_limit_does_not_trigger_it():
    """Turn 9, Soviet limit 3: the 8 and two 59 chits come first (their Army HQs are off the map, so
    they pass but count, ruling N-19); the 2SH chit drawn fourth is beyond the limit, is not "used
    normally" and so is neither removed nor triggers the parked chit (ruling N-27)."""
    board = position(SHOCK_BOARD, turn=9)
    assert board.scenario.activation_limit(9, "soviet") == 3
    board.data["shock_oos"] = True
    command_phase(board, ["8-1", "59-1", "59-2", "2SH-1"])
    finish(board)
    assert [u["chit"] for u in emitted(board, "chit_unused")] == ["2SH-1"]
    assert "2SH-1" not in board.data["removed"] and board.data["shock_oos"]
    assert "2SH-OOS" not in board.data["parked"]


# ---------------------------------------------------------------- 2.5.7 Withdraw the 214 Division


def test_2_5_7_withdraw_214_takes_effect_in_the_next_reinforcement_phase():
    """Drawn on Turn 10: the 214th stays through Turn 10 and is removed in Turn 11's Reinforcement
    Phase, HQ and all units; independents stacked with it stay."""
    board = position({"214/HQ": "1530", "214/355G": "1530", "214/367G": "1629", "IND/29P": "1530",
                      "225/HQ": "0213"}, turn=10)
    command_phase(board, ["WITHDRAW-214", "43-1"])
    answer(board, "ACTIVATE 214")  # still usable this turn
    finish(board)
    assert board.data["parked"]["WITHDRAW-214"] == 11
    turn_advance(board)
    board.data["turn"] = 11
    refill_cup(board)
    for uid in ("214/HQ", "214/355G", "214/367G", "214/388G"):
        assert board.state_of(uid)["where"] == "withdrawn"
    assert board.hex_of("IND/29P") == "1530"
    assert "WITHDRAW-214" in board.data["removed"]
    assert "WITHDRAW-214" not in board.data["cup"]
