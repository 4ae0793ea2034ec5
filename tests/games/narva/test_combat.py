"""Rules 2.1.1-2.1.3 (cumulative effects, rounding, fog of war), 2.2.8 (bridges) and 9.0-9.3
(combat: targets, stacks, odds, the two odds lines, column shifts and the ends of the table).

Numbers come from the scenario data: Soviet rifle regiments (109th Corps) are 3-3 (reduced 1-2),
Guards regiments (30GD) 4-3 (reduced 2-2); German grenadier regiments (61st Division) 4-5
(reduced 2-3); the police battalions 1-2, one step; BE (captured armour) 4-3, reduced 2-1.  The
CRT lines (tables.yaml): German 1-2, 1-1, 3-2, 2-1, 3-1, 4-1, 5-1, 6-1; Soviet 1-2, 1-1, 2-1, 3-1,
4-1, 5-1, 6-1, 7-1.  The TEC (tables.yaml) gives woods and city one column left, hills and swamps
double the defence.  Hex 2332 and its six neighbours are clear, with no river.  Turn 2 is used
unless said otherwise (frozen, and no Soviet Turn 1 die bonus).
"""

from __future__ import annotations

from fractions import Fraction

from moderator.core.errors import ParseError
from moderator.core.grammar import Order
from moderator.games.narva.engine import HANDLERS
from moderator.games.narva.movement import MoveRules, find_path
from moderator.games.narva.retreat import push_retreat
from moderator.games.narva.supply import supplied_hexes
from tests.games.narva.fight import attack_order, auto, board, fight, odds, ready_to_attack, refused, steps_lost, where
from tests.games.narva.helpers import answer, emitted, settle
from tests.refusals import refusal


def value_of(o, uid: str, which: str = "attack") -> Fraction:
    detail = o.attack_detail if which == "attack" else o.defense_detail
    return Fraction(next(d["value"] for d in detail if d["unit"] == uid))


# ---------------------------------------------------------------- 2.1.1 / 2.1.2


def test_2_1_1_halved_for_a_river_and_for_supply_is_quartered():
    """30GD/131 (attack 4) out of supply attacks 2227 from 2226 across the Mustajogi (minor river):
    4 x 1/2 x 1/2 = 1."""
    b = board({"61/162G": "2227", "30GD/131": "2226"}, supply={"30GD/131": "oos"})
    o = odds(b, "soviet", ["30GD/131"], "2227")
    assert value_of(o, "30GD/131") == 1
    assert o.attack == 1


def test_2_1_1_doubled_for_terrain_and_halved_for_supply_multiply():
    """A reduced grenadier (defence 3) out of supply on the hill 1530: 3 x 2 x 1/2 = 3."""
    b = board({"61/176G": "1530", "109/381": "1430"}, reduced=["61/176G"], supply={"61/176G": "oos"})
    o = odds(b, "soviet", ["109/381"], "1530")
    assert value_of(o, "61/176G", "defense") == 3
    assert o.defense == 3


def test_2_1_2_fractions_are_added_up_before_rounding_down():
    """Three rifle regiments out of supply give 3 x 1.5 = 4.5 -> 4 (rounding each would give 3); a
    full and a reduced grenadier out of supply defend with 2.5 + 1.5 = 4 (rounding each: 2 + 1)."""
    units = {"61/162G": "2332", "61/176G": "2332", "109/381": "2432", "109/456": "2431", "109/602": "2333"}
    b = board(units, reduced=["61/176G"], supply={u: "oos" for u in units})
    o = odds(b, "soviet", ["109/381", "109/456", "109/602"], "2332")
    assert (o.attack, o.defense) == (4, 4)
    assert o.base_column == 2  # 4:4 is 1-1


def test_2_1_2_a_total_of_four_and_a_half_rounds_down_not_up():
    """Same attack against a lone out-of-supply reduced grenadier (1.5 -> 1): 4.5 -> 4 against 1, the
    Soviet 4-1 column (5).  Rounding each unit would give 3:1 (column 4); rounding up, 5:2."""
    units = {"61/176G": "2332", "109/381": "2432", "109/456": "2431", "109/602": "2333"}
    b = board(units, reduced=["61/176G"], supply={u: "oos" for u in units})
    o = odds(b, "soviet", ["109/381", "109/456", "109/602"], "2332")
    assert (o.attack, o.defense) == (4, 1)
    assert o.column == 5


# ---------------------------------------------------------------- 2.1.3 fog of war


def test_2_1_3C_an_odds_condition_on_an_attack_is_refused_under_fog_of_war_when_the_line_is_read():
    """2.1.3, ruling N-57: under fog the player cannot see the strength the odds depend on, so the order is
    refused as it is read (here, as it answers the Combat Segment's question), before any rule runs."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, rolls=[6])
    assert b.fog
    ready_to_attack(b, "soviet", ["109/381", "109/456"])
    refusal(lambda: answer(b, "ATTACK 2332 WITH 381 456 MIN 2-1"), error=ParseError,
            because=r"MIN 2-1 is refused under fog of war: .* \(2\.1\.3, ruling N-57\)")
    assert emitted(b, "combat") == [] and b.hex_of("61/162G") == "2332"


def test_2_1_3C_an_odds_condition_given_as_an_order_object_is_refused_by_the_rules_too():
    """2.1.3C, ruling N-57: an order that never went through the reading (a bot's or a referee tool's Order)
    still cannot make an announced attack depend on its odds."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, rolls=[6])
    ready_to_attack(b, "soviet", ["109/381", "109/456"])
    order = Order.make("attack", "hex", hex="2332", units=("109/381", "109/456"), odds="2-1")
    frame = b.top()
    decision = HANDLERS[frame["kind"]].decisions(b, frame)[0]
    refusal(lambda: HANDLERS[frame["kind"]].apply(b, frame, decision, order),
            because=r"cannot be made conditional on its odds \(2\.1\.3C\)")
    assert emitted(b, "combat") == []


def test_2_1_3C_without_fog_an_odds_condition_drops_the_attack():
    """Fog off (ruling N-57): MIN is accepted; 6:5 is 1-1, below the 2-1 asked, so no die is rolled."""
    b = board({"61/162G": "2332", "109/381": "2432", "109/456": "2431"}, options={"fog": "off"}, rolls=[6])
    attack_order(b, "soviet", ["109/381", "109/456"], "ATTACK 2332 WITH 381 456 MIN 2-1")
    assert emitted(b, "combat") == []
    assert len(emitted(b, "attack_cancelled")) == 1
    assert b.rng.rolls == [6]  # the die was never rolled
    assert not b.is_reduced("61/162G")


def test_2_1_3C_an_announced_attack_at_poor_odds_is_fought_to_the_end():
    """381 (3) against 162G (5) is 3:5, the 1-2 column; die 1 gives A2r1 (tables.yaml).  Nothing asks
    the attacker whether to go on: the combat is resolved and 381 loses both steps."""
    b = board({"61/162G": "2332", "109/381": "2432"}, rolls=[1])
    attack_order(b, "soviet", ["109/381"], "ATTACK 2332 WITH 381")
    result = emitted(b, "combat")[-1]
    assert (result["odds"], result["result"]) == ("1-2", "A2r1")
    assert b.data["units"]["109/381"]["where"] == "eliminated"
    assert b.hex_of("61/162G") == "2332" and not b.is_reduced("61/162G")


def test_2_1_3C_the_exception_an_attack_short_of_1_2_is_called_off():
    """381 (3) against 162G + reduced 176G (5 + 3 = 8): 3:8 is below 1-2, so no die is rolled."""
    b = board({"61/162G": "2332", "61/176G": "2332", "109/381": "2432"}, reduced=["61/176G"], rolls=[6])
    attack_order(b, "soviet", ["109/381"], "ATTACK 2332 WITH 381")
    assert emitted(b, "combat") == []
    cancelled = emitted(b, "attack_cancelled")
    assert len(cancelled) == 1 and "9.3.2A" in cancelled[0]["reason"]
    assert b.rng.rolls == [6]
    assert not b.is_reduced("61/162G")


def test_2_1_3A_announcing_an_attack_reveals_the_whole_defending_stack_to_both_sides():
    b = board({"61/162G": "2332", "61/176G": "2332", "109/381": "2432", "109/456": "2431"}, rolls=[5])
    attack_order(b, "soviet", ["109/381", "109/456"], "ATTACK 2332 WITH 381 456")
    event = next(e for e in b.events if e.kind == "combat")
    assert sorted(d["unit"] for d in event.data["defenders"]) == ["61/162G", "61/176G"]
    assert sorted(d["unit"] for d in event.data["attackers"]) == ["109/381", "109/456"]
    assert event.visible_to is None and event.hidden_from == ()


# ---------------------------------------------------------------- 2.2.8 bridges


def test_2_2_8A_a_river_hexside_crossed_by_a_road_or_railway_is_bridged():
    b = board({})
    assert b.bridged("2219", "2220")  # the Narva, crossed by a track
    assert b.bridged("3028", "3128")  # the Narva, crossed by the major railway
    assert b.bridged("1819", "1820")  # the Narva at Krivasoo, crossed by a road
    assert not b.bridged("2219", "2320")  # the Narva, no road
    assert not b.bridged("2634", "2734")  # a ferry is not a bridge


def test_2_2_8B_a_bridge_cancels_the_river_for_movement_after_the_thaw():
    """Turn 9: the Narva is thawed and may not be crossed (6.2.2.2A) except at the 2219-2220 bridge:
    381 steps over the bridge, and reaches 2320 (across the open river from 2219) only by way of it."""
    b = board({"109/381": "2219"}, turn=9)
    assert find_path(b, "109/381", "2220", MoveRules()).hexes == ("2219", "2220")
    assert find_path(b, "109/381", "2320", MoveRules()).hexes == ("2219", "2220", "2320")


def test_2_2_8B_a_zone_of_control_extends_across_a_bridge_only():
    """162G in 2219: its ZOC reaches 2220 over the bridge, not 2320 or 2120 over the open Narva
    (5.6: frozen or not)."""
    for turn in (2, 9):
        b = board({"61/162G": "2219"}, turn=turn)
        zone = b.zoc_of("german")
        assert "2220" in zone
        assert "2320" not in zone and "2120" not in zone


def test_2_2_8B_a_retreat_may_cross_a_bridge():
    """Turn 9: 381 retreats one hex from 2219 with 2319, 2218 and 2119 held by the enemy; the
    unbridged Narva closes 2120 and 2320, the bridge leaves 2220 open: no step is lost."""
    b = board({"109/381": "2219", "61/162G": "2319", "61/176G": "2218", "61/151G": "2119"}, turn=9)
    push_retreat(b, "soviet", ["109/381"], "2219", 1, "test")
    settle(b)
    assert b.hex_of("109/381") == "2220"
    assert steps_lost(b) == []


def test_2_2_8B_a_supply_line_crosses_a_bridge():
    """162G in 1819 on the east bank, with the enemy in 1919 and 1818: its only dry link west is the
    Krivasoo bridge to 1820.  Supplied while 1820 is open; cut once the enemy holds 1820."""
    units = {"61/162G": "1819", "109/381": "1919", "109/456": "1818"}
    assert "1819" in supplied_hexes(board(units), "german")
    assert "1819" not in supplied_hexes(board(dict(units, **{"109/602": "1820"})), "german")


def test_2_2_8B_attackers_are_still_halved_across_a_bridge():
    b = board({"61/162G": "2219", "30GD/131": "2220"})
    o = odds(b, "soviet", ["30GD/131"], "2219")
    assert value_of(o, "30GD/131") == 2


# ---------------------------------------------------------------- 9.0 / 9.2 what may attack what


def test_9_0A_only_units_adjacent_to_the_target_may_attack_it():
    """381 in 2533 may attack the police in 2432 next to it, not 162G in 2332, two hexes away."""
    b = board({"61/162G": "2332", "IND/30P": "2432", "109/381": "2533"})
    ready_to_attack(b, "soviet", ["109/381"])
    refused(b, "ATTACK 2332 WITH 381", because=r"381 at 2533 is not next to 2332 \(9\.0A\)")
    assert emitted(b, "combat") == []


def test_9_0B_an_empty_hex_cannot_be_attacked():
    b = board({"61/162G": "2332", "109/381": "2432"})
    ready_to_attack(b, "soviet", ["109/381"])
    refused(b, "ATTACK 2431 WITH 381",
            because=r"2431 holds no enemy combat units: empty hexes and lone HQs cannot be attacked \(9\.0B\)")
    assert emitted(b, "combat") == []


def test_9_0B_a_lone_hq_cannot_be_attacked():
    """381 in 2432 is next to the lone 61st HQ in 2332 and to the police in 2533."""
    b = board({"61/HQ": "2332", "IND/30P": "2533", "109/381": "2432"})
    ready_to_attack(b, "soviet", ["109/381"])
    refused(b, "ATTACK 2332 WITH 381",
            because=r"2332 holds no enemy combat units: empty hexes and lone HQs cannot be attacked \(9\.0B\)")
    assert emitted(b, "combat") == []


def test_9_2_1B_no_unit_contributes_to_two_attacks():
    """381 attacks 2332 (3:5 is 1-2; die 5 is NR) and may not then attack 2533 as well (456 in 2431
    keeps the Combat Segment open)."""
    b = board({"61/162G": "2332", "IND/30P": "2533", "109/381": "2432", "109/456": "2431"}, rolls=[5])
    attack_order(b, "soviet", ["109/381", "109/456"], "ATTACK 2332 WITH 381")
    assert emitted(b, "combat")[-1]["result"] == "NR"
    refused(b, "ATTACK 2533 WITH 381",
            because=r"381 cannot attack now: it already attacked in this activation \(9\.2\.1B\)")
    assert len(emitted(b, "combat")) == 1


def test_9_2_2_a_stack_defends_as_one_and_retreats_as_one():
    """131 + 129 + 381 (4 + 4 + 3 = 11) against 162G + reduced 176G (5 + 3 = 8): 11:8 is 1-1 on the
    Soviet line; die 6 gives D1r1.  Both units are the defender; after the loss both leave 2332."""
    b = board({"61/162G": "2332", "61/176G": "2332", "30GD/131": "2432", "30GD/129": "2431", "109/381": "2333"},
              reduced=["61/176G"], rolls=[6])
    result = fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "109/381"])
    assert (result["defense"], result["odds"], result["result"]) == (8, "1-1", "D1r1")
    assert sorted(d["unit"] for d in result["defenders"]) == ["61/162G", "61/176G"]
    auto(b)
    a, c = where(b, "61/162G", "61/176G")
    assert a == c and a not in (None, "2332")


def test_9_2_3_a_unit_adding_nothing_after_rounding_still_takes_part():
    """No counter prints a combat value of 0 (units.yaml), so 9.2.3 is tested on the nearest case: a
    reduced rifle regiment (attack 1) out of supply adds 1/2, lost in rounding.  131 + 163: 4.5 -> 4
    against 162G (5) is 1-2; die 1 gives A2r1.  The first step is 131's (strongest); the second may
    be taken by 163, which the rounding left with nothing to add (9.2.3: it can absorb losses)."""
    b = board({"61/162G": "2332", "30GD/131": "2432", "122/163": "2431"}, reduced=["122/163"],
              supply={"122/163": "oos"}, rolls=[1])
    result = fight(b, "soviet", "2332", ["30GD/131", "122/163"])
    assert (result["attack"], result["odds"], result["result"]) == (4, "1-2", "A2r1")
    answer(b, "LOSS 131 163")
    assert b.is_reduced("30GD/131")
    assert b.data["units"]["122/163"]["where"] == "eliminated"


# ---------------------------------------------------------------- 9.1 results


def test_9_1B_germany_and_the_soviets_read_different_odds_lines():
    """7:4 is 3-2 (column 3) on the German line but only 1-1 (column 2) on the Soviet line, which has
    no 3-2; 2:1 is column 4 for Germany and column 3 for the Soviets."""
    g = board({"FHH/PZ": "2432", "30GD/30Tk": "2332"})
    o = odds(g, "german", ["FHH/PZ"], "2332")
    assert (o.attack, o.defense, o.column) == (7, 4, 3)
    s = board({"FHH/PZ": "2332", "30GD/131": "2432", "109/381": "2431"})
    o = odds(s, "soviet", ["30GD/131", "109/381"], "2332")
    assert (o.attack, o.defense, o.column) == (7, 4, 2)
    g2 = board({"IND/2/502": "2432", "109/381": "2431", "109/456": "2431"}, reduced=["109/381", "109/456"])
    assert odds(g2, "german", ["IND/2/502"], "2431").column == 4  # 9:4 -> 2-1 on the German line
    g3 = board({"FHH/PZ": "2432", "109/381": "2431", "109/456": "2431"}, reduced=["109/381"])
    o = odds(g3, "german", ["FHH/PZ"], "2431")  # 7:5 -> 1-1 on the German line (3-2 would need 7.5)
    assert o.column == 2
    s2 = board({"61/162G": "2332", "30GD/131": "2432", "30GD/129": "2431", "109/381": "2333"},
               reduced=["61/162G"])
    o = odds(s2, "soviet", ["30GD/131", "30GD/129"], "2332")  # 8:3 -> 2-1 on the Soviet line
    assert o.column == 3


def test_9_1C_the_defender_carries_out_its_result_first():
    """131 + 129 + 134 (12) against KAUS (3): 4-1 on the Soviet line (column 5); die 1 gives A1 D1.
    KAUS loses its step before any Soviet unit does."""
    b = board({"11SS/KAUS": "2332", "30GD/131": "2432", "30GD/129": "2431", "30GD/134": "2333"}, rolls=[1])
    result = fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "30GD/134"])
    assert (result["odds"], result["result"]) == ("4-1", "A1 D1")
    auto(b)
    lost = steps_lost(b)
    assert len(lost) == 2
    assert lost[0] == ("11SS/KAUS", "reduced")
    assert lost[1][0].startswith("30GD/")


def test_9_1D_red_losses_hit_soviet_attackers():
    """131 + 129 + 134 + 381 (15) against KAUS (3): 5-1 on the Soviet line (column 6); die 1 gives
    A1* D1, the A1 printed red: the Soviets lose a step."""
    b = board({"11SS/KAUS": "2332", "30GD/131": "2432", "30GD/129": "2431", "30GD/134": "2333",
               "109/381": "2333"}, rolls=[1])
    result = fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "30GD/134", "109/381"])
    assert (result["odds"], result["result"]) == ("5-1", "A1 D1")
    auto(b)
    assert [u for u, _ in steps_lost(b)].count("11SS/KAUS") == 1
    assert len([u for u, _ in steps_lost(b) if u != "11SS/KAUS"]) == 1


def test_9_1D_red_losses_spare_german_attackers():
    """2/502 + MOK (9 + 3 = 12) against 381 (3): 4-1 on the German line (column 6); die 1 gives
    A1* D1 and the red A1 does not apply to Germany: only 381 loses a step."""
    b = board({"109/381": "2332", "IND/2/502": "2432", "FHH/MOK": "2431"}, rolls=[1])
    result = fight(b, "german", "2332", ["IND/2/502", "FHH/MOK"])
    assert (result["odds"], result["result"]) == ("4-1", "D1")
    settle(b)
    assert steps_lost(b) == [("109/381", "reduced")]
    assert not b.is_reduced("IND/2/502") and not b.is_reduced("FHH/MOK")


# ---------------------------------------------------------------- 9.3 odds


def test_9_3A_the_ratio_is_attack_total_to_defence_total():
    """131 + 381 (7) against 162G (5) in the open: 7:5 -> 1-1 for the Soviets."""
    b = board({"61/162G": "2332", "30GD/131": "2432", "109/381": "2431"})
    o = odds(b, "soviet", ["30GD/131", "109/381"], "2332")
    assert (o.attack, o.defense, o.column) == (7, 5, 2)


def test_9_3C_hills_double_the_defence():
    b = board({"61/162G": "1530", "109/381": "1430"})
    assert odds(b, "soviet", ["109/381"], "1530").defense == 10


def test_9_3C_swamps_double_the_defence():
    b = board({"61/162G": "2422", "109/381": "2322"})
    assert odds(b, "soviet", ["109/381"], "2422").defense == 10


def test_9_3C_doubling_comes_before_halving_for_supply():
    """A grenadier (5) out of supply on a hill: 5 x 2 = 10, then halved: 5; and isolated the same."""
    for status in ("oos", "isolated"):
        b = board({"61/162G": "1530", "109/381": "1430"}, supply={"61/162G": status})
        assert odds(b, "soviet", ["109/381"], "1530").defense == 5


def test_9_3C_attacking_across_a_minor_river_halves_the_attacker():
    b = board({"61/162G": "2227", "30GD/131": "2226", "30GD/129": "2228"})
    o = odds(b, "soviet", ["30GD/131", "30GD/129"], "2227")
    assert value_of(o, "30GD/131") == 2  # across the Mustajogi
    assert value_of(o, "30GD/129") == 4  # no river between 2228 and 2227
    assert o.attack == 6


def test_9_3C_attacking_across_a_frozen_major_river_halves_the_attacker():
    """Turn 2: 131 attacks 2633 from 2733 over the frozen Narva."""
    b = board({"61/162G": "2633", "30GD/131": "2733"})
    assert value_of(odds(b, "soviet", ["30GD/131"], "2633"), "30GD/131") == 2


def test_9_3C_attacking_across_a_ferry_halves_the_attacker():
    """The Kudrukula ferry, 2734-2634."""
    b = board({"61/162G": "2634", "30GD/131": "2734"})
    assert value_of(odds(b, "soviet", ["30GD/131"], "2634"), "30GD/131") == 2


def test_9_3C_out_of_supply_and_isolated_halve_attack_and_defence():
    b = board({"61/162G": "2332", "30GD/131": "2432", "30GD/129": "2431"},
              supply={"61/162G": "isolated", "30GD/131": "oos", "30GD/129": "isolated"})
    o = odds(b, "soviet", ["30GD/131", "30GD/129"], "2332")
    assert (o.attack, o.defense) == (4, 2)  # 2 + 2 against 2.5 -> 2


def test_9_3C_villages_change_no_strength_and_shift_no_column():
    """2323 is a village."""
    b = board({"61/162G": "2323", "30GD/131": "2322", "109/381": "2423"})
    o = odds(b, "soviet", ["30GD/131", "109/381"], "2323")
    assert o.defense == 5 and o.shifts == []
    assert o.column == 2  # 7:5


# ---------------------------------------------------------------- 9.3.1 column shifts


def test_9_3_1A_defending_terrain_shifts_the_column():
    """Woods (2233) give one column left (tables.yaml): 131 + 129 (8) against 162G (5) is 1-1 in the
    open but 1-2 in the woods."""
    open_ = board({"61/162G": "2332", "30GD/131": "2432", "30GD/129": "2431"})
    assert odds(open_, "soviet", ["30GD/131", "30GD/129"], "2332").column == 2
    woods = board({"61/162G": "2233", "30GD/131": "2234", "30GD/129": "2333"})
    o = odds(woods, "soviet", ["30GD/131", "30GD/129"], "2233")
    assert (o.base_column, o.total_shift, o.column) == (2, -1, 1)


def test_9_3_1B_an_attack_on_a_pinned_hex_shifts_one_column_right():
    b = board({"61/162G": "2332", "30GD/131": "2432", "30GD/129": "2431"})
    b.data["pinned"]["2332"] = ["61/162G"]
    o = odds(b, "soviet", ["30GD/131", "30GD/129"], "2332")
    assert (o.base_column, o.total_shift, o.column) == (2, 1, 3)


def test_9_3_1D_column_shifts_add_up():
    """In the woods (-1), pinned (+1), with the LI-2 bomber's full attack (+3): +3 in all."""
    b = board({"61/162G": "2233", "30GD/131": "2234", "30GD/129": "2333"})
    b.data["pinned"]["2233"] = ["61/162G"]
    o = odds(b, "soviet", ["30GD/131", "30GD/129"], "2233", air={"LI-2": "full"})
    assert o.total_shift == 3
    assert o.column == o.base_column + 3 == 5


# ---------------------------------------------------------------- 9.3.2 the ends of the table


def test_9_3_2A_below_1_2_after_shifts_the_attack_is_cancelled_and_the_units_stay_free():
    """381 (3) against 162G + reduced 176G (8) is below 1-2 (ruling N-33: the units have not attacked
    and may attack elsewhere): 381 then attacks the police battalion in 2533 (3:2 -> 1-1)."""
    b = board({"61/162G": "2332", "61/176G": "2332", "IND/30P": "2533", "109/381": "2432"},
              reduced=["61/176G"], rolls=[3])
    attack_order(b, "soviet", ["109/381"], "ATTACK 2332 WITH 381")
    assert emitted(b, "combat") == [] and len(emitted(b, "attack_cancelled")) == 1
    answer(b, "ATTACK 2533 WITH 381")
    assert emitted(b, "combat")[-1]["target"] == "2533"


def test_9_3_2A_a_right_shift_can_lift_a_ratio_below_1_2_onto_the_table():
    """3:8 lies in the 1-3 column below the table (ruling N-33); the pin's right shift brings it to
    1-2, so the attack is fought (die 5: NR)."""
    b = board({"61/162G": "2332", "61/176G": "2332", "109/381": "2432"}, reduced=["61/176G"], rolls=[5])
    b.data["pinned"]["2332"] = ["61/162G", "61/176G"]
    result = fight(b, "soviet", "2332", ["109/381"])
    assert result is not None
    assert (result["base_column"], result["column"], result["odds"]) == (0, 1, "1-2")


def test_9_3_2A_an_attack_total_of_zero_is_cancelled():
    """A reduced rifle regiment (1) out of supply across the Mustajogi: 1/4 rounds to 0."""
    b = board({"61/162G": "2227", "122/163": "2226"}, reduced=["122/163"], supply={"122/163": "oos"}, rolls=[6])
    assert fight(b, "soviet", "2227", ["122/163"]) is None
    assert len(emitted(b, "attack_cancelled")) == 1


def test_9_3_2B_a_ratio_above_the_table_uses_the_highest_column():
    """131 + 129 + 134 + 190 (16) against a police battalion (2): 8:1, beyond the Soviet 7-1; and a
    right shift cannot go past the last column either."""
    b = board({"IND/30P": "2332", "30GD/131": "2432", "30GD/129": "2431", "30GD/134": "2333", "30GD/190": "2333"})
    attackers = ["30GD/131", "30GD/129", "30GD/134", "30GD/190"]
    o = odds(b, "soviet", attackers, "2332")
    assert (o.attack, o.defense, o.column) == (16, 2, 8)
    assert odds(b, "soviet", attackers, "2332", air={"LI-2": "full"}).column == 8


def test_9_3_2C_a_defence_rounded_down_to_zero_uses_the_highest_column_regardless_of_shifts():
    """BE reduced (defence 1) out of supply in the woods of 2233: 1/2 -> 0.  One rifle regiment
    attacks: the highest column (8), the woods' left shift ignored."""
    b = board({"IND/BE": "2233", "109/381": "2234"}, reduced=["IND/BE"], supply={"IND/BE": "oos"})
    o = odds(b, "soviet", ["109/381"], "2233")
    assert o.defense == 0 and o.zero_defense
    assert o.column == 8
