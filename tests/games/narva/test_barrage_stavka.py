"""Rules 2.5.1 (barrage: targets, the Barrage CRT, no negation, pins) and 2.5.3 (the Stavka
directive), with its worked example; rulings N-26, N-29, N-59 and N-69 (when a pin ends).

The Barrage CRT is the last column of the CRT (2.2.3B; tables.yaml): die 1-2 NR, 3-4 P, 5 Dr1,
6 D1.  The Barrage Roll Table (tables.yaml): Soviets 2, 2, 3, 3, 4, 4 attacks; Germany 1, 1, 2, 2,
2, 3.  Hex 2332 and its neighbours are clear; 2323 is a village; 3029 is Narva (city); 3330 is a
prepared-defence hex of the 4th SS (Nederland) division.
"""

from __future__ import annotations

import pytest

from moderator.games.narva.actions import resolve_action
from moderator.games.narva.activation import start_activation
from moderator.games.narva.barrage import start_barrages
from moderator.games.narva.engine import engine
from moderator.games.narva.losses import push_losses
from moderator.games.narva.reinforce import refill_cup, withdraw
from moderator.games.narva.retreat import push_retreat
from moderator.games.narva.sequence import turn_advance
from tests.games.narva.fight import asked, auto, board, draw_chits, fight, odds, ready_to_attack, refused, steps_lost
from tests.games.narva.helpers import answer, emitted, settle


def barrage(b, side="soviet", count=1, source="chit"):
    start_barrages(b, side, count, source)
    settle(b)


def pinned_units(b):
    return sorted(u for units in b.data["pinned"].values() for u in units)


# ---------------------------------------------------------------- 2.5.1.1 procedure and targets


def test_2_5_1_1A_the_soviets_have_two_barrage_chits_and_germany_one():
    b = board({})
    chits = [c for c in b.scenario.chits if c.action == "barrage"]
    assert sorted(c.side for c in chits) == ["german", "soviet", "soviet"]


def test_2_5_1_1B_a_drawn_barrage_chit_rolls_for_the_number_of_attacks():
    """Soviet chit, die 5: four barrage attacks (Barrage Roll Table)."""
    b = board({"61/162G": "2332", "109/381": "2432"}, turn=4, rolls=[5])
    draw_chits(b, ["BARRAGE-S1", "26-1"])
    assert emitted(b, "barrage_roll")[-1]["count"] == 4
    assert asked(b) == ["barrage"] and b.top()["count"] == 4


def test_2_5_1_1B_the_german_table_is_its_own():
    """German chit, die 6: three barrage attacks."""
    b = board({"61/162G": "2332", "109/381": "2432"}, turn=4, rolls=[6])
    draw_chits(b, ["BARRAGE-G", "2SH-1"])
    assert emitted(b, "barrage_roll")[-1]["count"] == 3


def test_2_5_1_1C_a_barrage_needs_an_enemy_hex_next_to_a_friendly_combat_unit():
    """162G (2332) is next to 381; 176G (2132) is not; 151G (2130) is next to the 109th HQ only."""
    b = board({"61/162G": "2332", "61/176G": "2132", "61/151G": "2130", "109/381": "2432", "109/HQ": "2030"},
              rolls=[1])
    assert b.scenario.distance("2130", "2030") == 1
    barrage(b)
    refused(b, "BARRAGE 2132",
            because=r"2132 is not a barrage target: an enemy-occupied hex next to a friendly combat unit, not already "
                    r"barraged by this chit \(2\.5\.1\.1C")
    refused(b, "BARRAGE 2130",
            because=r"2130 is not a barrage target: an enemy-occupied hex next to a friendly combat unit, not already "
                    r"barraged by this chit \(2\.5\.1\.1C")
    refused(b, "BARRAGE 2431",
            because=r"2431 is not a barrage target: an enemy-occupied hex next to a friendly combat unit, not already "
                    r"barraged by this chit \(2\.5\.1\.1C")  # empty
    answer(b, "BARRAGE 2332")
    assert emitted(b, "barrage")[-1]["hex"] == "2332"


def test_2_5_1_1D_the_same_hex_is_not_targeted_twice():
    b = board({"61/162G": "2332", "61/176G": "2533", "109/381": "2432"}, rolls=[1, 1])
    barrage(b, count=2)
    answer(b, "BARRAGE 2332")
    refused(b, "BARRAGE 2332",
            because=r"2332 is not a barrage target: .*not already barraged by this chit \(2\.5\.1\.1C-D\)")
    answer(b, "BARRAGE 2533")
    assert [e["hex"] for e in emitted(b, "barrage")] == ["2332", "2533"]


def test_2_5_1_1E_a_unit_that_retreated_may_be_barraged_again_in_its_new_hex():
    """Die 5 (Dr1) drives 162G from 2332 into 2331 (every way out is in a Soviet ZOC: one step); 2331
    is a new hex next to 456, so the second barrage may hit it there (die 6: D1)."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431", "109/602": "2132"}, rolls=[5, 6])
    barrage(b, count=2)
    answer(b, "BARRAGE 2332")
    answer(b, "RETREAT VIA 2331")
    auto(b, until="barrage")
    assert b.hex_of("61/162G") == "2331" and b.is_reduced("61/162G")
    answer(b, "BARRAGE 2331")
    assert b.data["units"]["61/162G"]["where"] == "eliminated"


def test_2_1_3_ruling_n59_under_fog_a_barrage_names_no_units_beforehand():
    """The barrage report lists the units in the hex only without fog; under fog the other side learns
    only what the result did to them (step losses, retreats)."""
    for fog, listed in (("on", None), ("off", ["61/162G"])):
        b = board({"61/162G": "2332", "109/381": "2432"}, options={"fog": fog}, rolls=[1])
        barrage(b)
        answer(b, "BARRAGE 2332")
        assert emitted(b, "barrage")[-1]["units"] == listed


# ---------------------------------------------------------------- 2.5.1.2 the Barrage CRT


@pytest.mark.parametrize("die, code", [(1, "NR"), (2, "NR"), (3, "P"), (4, "P"), (5, "Dr1"), (6, "D1")])
def test_2_2_3B_a_barrage_is_read_on_the_last_column_of_the_crt(die, code):
    b = board({"61/162G": "2332", "109/381": "2432"}, rolls=[die])
    barrage(b)
    answer(b, "BARRAGE 2332")
    auto(b)
    assert emitted(b, "barrage")[-1]["result"] == code
    assert b.is_reduced("61/162G") == (code == "D1")
    assert (b.hex_of("61/162G") != "2332") == (code == "Dr1")
    assert pinned_units(b) == (["61/162G"] if code == "P" else [])


def test_2_5_1_2A_the_first_loss_in_a_city_is_not_negated_by_a_barrage():
    b = board({"11SS/23": "3029", "30GD/131": "2929"}, rolls=[6])
    barrage(b)
    answer(b, "BARRAGE 3029")
    assert steps_lost(b) == [("11SS/23", "reduced")]


def test_2_5_1_2B_the_first_retreat_in_a_city_is_not_negated_by_a_barrage():
    b = board({"11SS/23": "3029", "30GD/131": "2929"}, rolls=[5])
    barrage(b)
    answer(b, "BARRAGE 3029")
    auto(b)
    assert b.hex_of("11SS/23") != "3029"


def test_2_5_1_2B_the_first_retreat_in_a_village_is_not_negated_by_a_barrage():
    b = board({"61/162G": "2323", "109/381": "2322"}, rolls=[5])
    barrage(b)
    answer(b, "BARRAGE 2323")
    auto(b)
    assert b.scenario.distance("2323", b.hex_of("61/162G")) == 1


def test_2_5_1_2B_the_first_retreat_in_a_prepared_defence_is_not_negated_by_a_barrage():
    """4SS/1/48 in the Nederland PD hex 3330: Dr1 is not negated (11.3.3 exception) and moves the 4SS
    marker one box (11.3.4A, including barrage); the unit stays."""
    b = board({"4SS/1/48": "3330", "109/381": "3430"}, rolls=[5])
    barrage(b)
    answer(b, "BARRAGE 3330")
    auto(b)
    assert b.data["pd"]["4SS"] == 1
    assert b.hex_of("4SS/1/48") == "3330" and steps_lost(b) == []


def test_9_6A_there_is_no_advance_after_a_barrage():
    """Die 6 (D1) eliminates the one-step police battalion: 2332 is empty, nobody is asked to advance."""
    b = board({"IND/30P": "2332", "109/381": "2432"}, rolls=[6])
    barrage(b)
    answer(b, "BARRAGE 2332")
    assert b.data["units"]["IND/30P"]["where"] == "eliminated"
    assert "advance" not in asked(b) and b.hex_of("109/381") == "2432"


# ---------------------------------------------------------------- 2.5.1.3 pins


def pinned_162g(rolls=()):
    """A Soviet barrage pins 162G in 2332 (die 3: P).  176G (2533) is not pinned."""
    b = board({"61/162G": "2332", "61/176G": "2533", "109/381": "2432"}, rolls=[3, *rolls])
    barrage(b)
    answer(b, "BARRAGE 2332")
    assert pinned_units(b) == ["61/162G"]
    return b


def test_2_5_1_3A_pinned_units_may_not_move():
    b = pinned_162g()
    start_activation(b, "german", "command", movers=["61/162G", "61/176G"], fighters=["61/162G", "61/176G"])
    settle(b)
    refused(b, "MOVE 162G TO 2231", because=r"162G is pinned \(2\.5\.1\.3A\)")
    assert b.hex_of("61/162G") == "2332"


def test_2_5_1_3A_pinned_units_may_not_attack():
    b = pinned_162g()
    ready_to_attack(b, "german", ["61/162G", "61/176G"])
    refused(b, "ATTACK 2432 WITH 162G 176G", because=r"162G cannot attack now: it is pinned \(2\.5\.1\.3A\)")
    assert emitted(b, "combat") == []


def test_2_5_1_3B_an_attack_on_pinned_units_gets_one_column_right():
    """131 + 129 (8) against 162G (5): 1-1 (column 2); pinned: column 3."""
    b = pinned_162g()
    b.place("30GD/131", "2431")
    b.place("30GD/129", "2333")
    o = odds(b, "soviet", ["30GD/131", "30GD/129"], "2332")
    assert (o.base_column, o.column) == (2, 3)


def test_2_5_1_3C_pinned_units_that_retreat_lose_the_pin():
    """131 + 129 + 381 (11) against the pinned 162G: 2-1 (column 3), +1 for the pin: 3-1 (column 4);
    die 4 gives D1r1.  162G retreats and is no longer pinned."""
    b = pinned_162g(rolls=[4])
    b.place("30GD/131", "2431")
    b.place("30GD/129", "2333")
    result = fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "109/381"])
    assert (result["column"], result["result"]) == (4, "D1r1")
    auto(b)
    assert b.hex_of("61/162G") != "2332"
    assert pinned_units(b) == []


def test_2_5_1_3D_pins_are_removed_at_the_end_of_the_turn():
    b = pinned_162g()
    turn_advance(b)
    assert pinned_units(b) == [] and b.data["pinned"] == {}


# 2.5.1.3A pins "those units"; ruling N-69 says when a pin ends before the end of the turn.


def test_2_5_1_3_ruling_N_69_the_pin_goes_with_its_eliminated_units_and_the_victors_advance_unpinned():
    """2.5.1.3A-B, ruling N-69: the pin is on "those units".  The reduced 162G (defence 3) is pinned in 2332;
    131 + 129 + 381 (11) attack it at 3-1 (column 4), +1 for the pin: column 5, and die 4 gives D1r2.
    162G is eliminated, the pin goes with it, and 381 advances into a hex that carries no pin: a German
    attack on it gets no column for a pin, and nobody is shown a pinned marker there."""
    b = board({"61/162G": "2332", "109/381": "2432", "30GD/131": "2431", "30GD/129": "2333",
               "61/176G": "2232", "61/151G": "2231"}, reduced=["61/162G"], rolls=[3, 4])
    barrage(b)
    answer(b, "BARRAGE 2332")
    assert b.hex_pinned("2332")
    result = fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "109/381"])
    assert (result["column"], result["result"]) == (5, "D1r2")
    assert b.state_of("61/162G")["where"] == "eliminated"
    answer(b, "ADVANCE 381")
    assert b.hex_of("109/381") == "2332"
    assert not b.hex_pinned("2332") and b.data["pinned"] == {}
    assert not b.is_pinned("109/381")
    assert "pinned (2.5.1.3B)" not in [why for why, _ in odds(b, "german", ["61/176G", "61/151G"], "2332").shifts]
    for role in ("german", "soviet"):
        assert engine.view(b.data, role)["hexes"]["2332"]["pinned"] is False


def test_2_5_1_3_ruling_N_69_the_hex_stays_pinned_while_one_pinned_unit_is_left():
    """2.5.1.3B, ruling N-69: 162G and 176G are pinned together in 2332; 162G is eliminated.  176G is
    still pinned: it may not move, the hex keeps its marker and attacks on it still get the column."""
    b = board({"61/162G": "2332", "61/176G": "2332", "61/151G": "2130", "109/381": "2432", "30GD/131": "2431"},
              rolls=[3])
    barrage(b)
    answer(b, "BARRAGE 2332")
    assert pinned_units(b) == ["61/162G", "61/176G"]
    b.eliminate("61/162G", "test")
    assert pinned_units(b) == ["61/176G"] and b.is_pinned("61/176G") and b.hex_pinned("2332")
    assert ("pinned (2.5.1.3B)", 1) in odds(b, "soviet", ["109/381", "30GD/131"], "2332").shifts
    start_activation(b, "german", "command", movers=["61/176G", "61/151G"], fighters=[])
    settle(b)
    refused(b, "MOVE 176G TO 2231", because=r"176G is pinned \(2\.5\.1\.3A\)")


def test_2_5_1_3_ruling_N_69_a_unit_that_joins_a_pinned_hex_is_not_pinned():
    """2.5.1.3A pins the units in the hex when the P is rolled, ruling N-69: 176G retreats into 2332, where
    162G is pinned.  176G may move on; the hex keeps its marker for 162G."""
    b = pinned_162g()
    b.place("61/176G", "2332")
    assert b.is_pinned("61/162G") and not b.is_pinned("61/176G") and b.hex_pinned("2332")
    start_activation(b, "german", "command", movers=["61/162G", "61/176G"], fighters=[])
    settle(b)
    answer(b, "MOVE 176G TO 2231")
    assert b.hex_of("61/176G") == "2231" and b.hex_pinned("2332")


def test_2_5_1_3C_a_pinned_unit_with_nowhere_to_retreat_still_loses_the_pin():
    """2.5.1.3C: "forced to retreat, they do so and lose the pinned marker".  162G, pinned in 2332, is
    told to retreat one hex with every hex around it enemy-held or in an enemy ZOC it cannot leave
    through: it takes the hex it cannot retreat as a step loss (9.5.1) and stays, no longer pinned."""
    ring = {h: u for h, u in zip(("2231", "2232", "2331", "2333", "2431", "2432"),
                                 ("30GD/131", "30GD/129", "109/381", "109/456", "109/602", "109/657"), strict=True)}
    b = board({"61/162G": "2332", **{u: h for h, u in ring.items()}}, rolls=[3])
    assert sorted(b.neighbours("2332")) == sorted(ring)
    barrage(b)
    answer(b, "BARRAGE 2332")
    assert pinned_units(b) == ["61/162G"]
    push_retreat(b, "german", ["61/162G"], "2332", 1, "test")
    settle(b)
    auto(b)
    assert b.hex_of("61/162G") == "2332" and b.is_reduced("61/162G")
    assert not b.is_pinned("61/162G") and not b.hex_pinned("2332")


def test_2_5_1_3_ruling_N_69_an_hq_displaced_from_a_pinned_hex_carries_no_pin():
    """11.1.3A, ruling N-69: 30P, pinned with the 61st HQ in 2332, is eliminated; the pin goes with it, the
    HQ is displaced, and neither 2332 nor the hex the HQ lands in carries a pin."""
    b = board({"IND/30P": "2332", "61/HQ": "2332", "109/381": "2432", "109/456": "2431", "109/602": "1732",
               "109/657": "0429"}, rolls=[3])
    barrage(b)
    answer(b, "BARRAGE 2332")
    assert b.hex_pinned("2332")
    push_losses(b, "german", ["IND/30P"], 1, "test")
    settle(b)
    answer(b, "DISPLACE TO 2227")
    assert b.hex_of("61/HQ") == "2227"
    assert b.data["pinned"] == {} and not b.is_pinned("61/HQ")


def test_2_5_7_ruling_N_69_withdrawn_units_take_their_pin_out_of_play():
    """2.5.7, ruling N-69: a barrage pinned the 214th's 355G (1530, stacked with the independent 29P, which
    was not pinned) and 367G (1629) on Turn 11; the 214th is withdrawn in that turn's Reinforcement Phase,
    before the pins are removed at Turn Advance.  No pin is left on either hex: 29P is free."""
    b = board({"214/HQ": "1530", "214/355G": "1530", "214/367G": "1629", "IND/29P": "1530"}, turn=11)
    b.data["pinned"] = {"1530": ["214/355G"], "1629": ["214/367G"]}
    withdraw(b, "WITHDRAW-214")
    assert b.state_of("214/355G")["where"] == b.state_of("214/367G")["where"] == "withdrawn"
    assert b.data["pinned"] == {}
    assert not b.hex_pinned("1530") and not b.is_pinned("IND/29P")


# ---------------------------------------------------------------- 2.5.3 Stavka directive


def stavka(b):
    """The Stavka chit as the cup resolves it when drawn."""
    b.data["drawn_actions"].append("STAVKA")
    resolve_action(b, "STAVKA")
    settle(b)


def test_2_5_3_example_turn_6_ar1_costs_two_soviet_losses_and_the_chit_goes_to_turn_8():
    """Turn 6: the Stavka chit is drawn.  381 + 456 (6) against 162G + 176G (10): 1-2 (column 1), +1
    for Stavka: 1-1 (column 2); die 2 gives Ar1.  The Soviets take two losses (the extra A1 and the
    retreat) and nobody retreats; the chit goes to Turn 8 and enters the cup in that turn's
    Reinforcement Phase."""
    b = board({"61/162G": "2332", "61/176G": "2332", "109/381": "2432", "109/456": "2431"}, turn=6, rolls=[2])
    draw_chits(b, ["STAVKA", "2SH-1"])
    assert asked(b) == ["stavka"]
    answer(b, "STAVKA 2332")
    result = emitted(b, "combat")[-1]
    assert (result["odds"], result["result"]) == ("1-1", "Ar1")
    assert ("Stavka directive (2.5.3B)", 1) in [tuple(s) for s in result["shifts"]]
    auto(b)
    soviet_losses = [u for u, _ in steps_lost(b) if u.startswith("109/")]
    assert len(soviet_losses) == 2
    assert emitted(b, "retreated") == []
    assert all(b.hex_of(u) in (None, h) for u, h in (("109/381", "2432"), ("109/456", "2431")))
    assert b.data["parked"]["STAVKA"] == 8
    assert "STAVKA" not in b.data["cup"]
    b.data["turn"] = 7
    refill_cup(b)
    assert "STAVKA" not in b.data["cup"]
    b.data["turn"] = 8
    refill_cup(b)
    assert "STAVKA" in b.data["cup"]


def test_2_5_3A_every_soviet_unit_next_to_the_target_attacks():
    """381, 456 and 602 stand next to 2332; 657 (2533) does not."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431", "109/602": "2333", "109/657": "2533"},
              turn=6, rolls=[5])
    stavka(b)
    answer(b, "STAVKA 2332")
    result = emitted(b, "combat")[-1]
    assert sorted(d["unit"] for d in result["attackers"]) == ["109/381", "109/456", "109/602"]


def test_2_5_3A_pinned_soviet_units_do_not_join_the_stavka_attack():
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, turn=6, rolls=[5])
    b.data["pinned"]["2431"] = ["109/456"]
    stavka(b)
    answer(b, "STAVKA 2332")
    assert [d["unit"] for d in emitted(b, "combat")[-1]["attackers"]] == ["109/381"]


def test_2_5_3A_two_hexes_are_attacked_and_no_unit_attacks_both():
    """381 (2432) is next to both 2332 and 2533: it attacks the first target only (3 against 5: 1-2, +1:
    1-1; die 6 gives D1r1, and 381 takes the extra A1); 456 (2532) then attacks 2533 alone."""
    b = board({"61/162G": "2332", "61/176G": "2533", "109/381": "2432", "109/456": "2532"}, turn=6, rolls=[6, 5])
    assert b.scenario.distance("2532", "2533") == 1 and b.scenario.distance("2532", "2332") == 2
    stavka(b)
    answer(b, "STAVKA 2332")
    auto(b, until="stavka")
    answer(b, "STAVKA 2533")
    combats = emitted(b, "combat")
    assert [c["target"] for c in combats] == ["2332", "2533"]
    assert b.is_on_map("109/381") and b.scenario.distance(b.hex_of("109/381"), "2533") == 1
    assert [d["unit"] for d in combats[1]["attackers"]] == ["109/456"]


def test_2_5_3A_the_target_must_hold_enemy_combat_units():
    """A lone German HQ (2533) next to 381 is no Stavka target (9.0B, ruling N-26)."""
    b = board({"61/162G": "2332", "61/HQ": "2533", "109/381": "2432"}, turn=6, rolls=[5])
    stavka(b)
    refused(b, "STAVKA 2533", because=r"2533 is not a Stavka target: an enemy-held hex with combat units")
    answer(b, "STAVKA 2332")
    assert emitted(b, "combat")[-1]["target"] == "2332"


def test_2_5_3B_the_stavka_attack_gets_one_column_right():
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"})
    plain = odds(b, "soviet", ["109/381", "109/456"], "2332")
    directed = odds(b, "soviet", ["109/381", "109/456"], "2332", stavka=True)
    assert directed.column == plain.column + 1 == 3


def test_2_5_3C_the_soviets_suffer_an_extra_a1_even_on_no_result():
    """381 (3) against 162G + reduced 176G (8): the 1-3 column, +1: 1-2; die 5 gives NR; 381 still
    loses a step."""
    b = board({"61/162G": "2332", "61/176G": "2332", "109/381": "2432"}, reduced=["61/176G"], turn=6, rolls=[5])
    stavka(b)
    answer(b, "STAVKA 2332")
    assert emitted(b, "combat")[-1]["result"] == "NR"
    auto(b)
    assert steps_lost(b) == [("109/381", "reduced")]


def test_2_5_3D_every_hex_of_attacker_retreat_becomes_a_loss():
    """381 + 456 (6) against 162G (5): 1-1, +1: 2-1 (column 3); die 1 gives A1r1: one loss, one more
    for the retreat, and the extra A1: three, and no Soviet unit moves."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, turn=6, rolls=[1])
    stavka(b)
    answer(b, "STAVKA 2332")
    assert emitted(b, "combat")[-1]["result"] == "A1r1"
    auto(b)
    assert len(steps_lost(b)) == 3
    assert emitted(b, "retreated") == []


def test_2_5_3D_ruling_n26_attackers_all_in_villages_cancel_the_first_retreat_hex():
    """381 + 456, both in the village 2323, attack 162G in the swamp 2422 (6 against 10: 1-2, +1: 1-1;
    die 2 gives Ar1).  The one retreat hex is cancelled by 9.5.6B, so only the extra A1 is lost."""
    b = board({"61/162G": "2422", "109/381": "2323", "109/456": "2323"}, turn=6, rolls=[2])
    stavka(b)
    answer(b, "STAVKA 2422")
    assert emitted(b, "combat")[-1]["result"] == "Ar1"
    auto(b)
    assert len(steps_lost(b)) == 1


def test_2_1_3C_a_stavka_attack_short_of_1_2_is_cancelled_without_the_extra_a1():
    """381 alone against 162G + 176G (10): the 1-4 column, +1: still below 1-2 (ruling N-26).  No
    loss; the Soviets must name another target (2533)."""
    b = board({"61/162G": "2332", "61/176G": "2332", "IND/30P": "2533", "109/381": "2432"}, turn=6, rolls=[5])
    stavka(b)
    answer(b, "STAVKA 2332")
    assert emitted(b, "combat") == [] and len(emitted(b, "attack_cancelled")) == 1
    assert steps_lost(b) == []
    assert asked(b) == ["stavka"]
    answer(b, "STAVKA 2533")
    assert emitted(b, "combat")[-1]["target"] == "2533"


def test_2_5_3E_the_chit_is_placed_two_turns_ahead():
    b = board({"61/162G": "2332", "109/381": "2432"}, turn=9, rolls=[5])
    stavka(b)
    assert b.data["parked"]["STAVKA"] == 11
    turn_advance(b)
    assert "STAVKA" not in b.data["cup"]


def test_2_5_3C_the_extra_a1_is_not_a_crt_loss_so_a_city_does_not_negate_it():
    """9.4.4A ignores the first loss *from the CRT*; Stavka's additional A1 (2.5.3C) is not one, so a
    Soviet unit attacking from the city of Narva still loses its step on an NR (ruling N-34)."""
    # 381 (3, halved across the Narva: 1) against 54 Pio (3): the 1-3 column, +1: 1-2; die 5: NR
    b = board({"4SS/54Pio": "3130", "109/381": "3029"}, turn=6, rolls=[5])
    stavka(b)
    answer(b, "STAVKA 3130")
    combat = emitted(b, "combat")[-1]
    assert combat["result"] == "NR", combat
    auto(b)
    assert steps_lost(b) == [("109/381", "reduced")]
