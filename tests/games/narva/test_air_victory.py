"""Rules 12.0 (air units: one or two per combat, full and normal attacks, the bomber, the
Grounded -> Refit -> ready cycle) and 13.0 (sudden death, the VP schedule and levels, control of VP
hexes); rulings N-47 to N-49, N-54.

Air units (scenario data): JU-87 (German) and IL-2M, LI-2, MIG 3, YAK-8 (Soviet), +2 full / +1
normal, LI-2 +3 full only.  VP hexes (map areas): entry A 0131 (15), B 0121 and 0122 (10 each),
C 0103 (10), hills 1429/1530/1629 (2 each), Ivangorod 3129-3131 (3 each), Narva-Joesuu 2337 (2),
Krivasoo 1820 (1), the villages west of the Narva (1 each; 2323 and 2326 among them, and 1820 and
2337 too), Soviet-occupied rollbahn hexes 0131 ... 2930 (2 each), PD boxes lost (1 each).
"""

from __future__ import annotations

import pytest

from moderator.core.frames import new_frame
from moderator.games.narva.activation import start_activation
from moderator.games.narva.sequence import air_phase, final_victory, sudden_death, victory_points
from moderator.games.narva.setup import initial_state
from tests.games.narva.fight import attack_order, board, ready_to_attack, refused
from tests.games.narva.helpers import DEFAULT_OPTIONS, SCENARIO, answer, emitted, settle

ATTACK = {"61/162G": "2332", "109/381": "2432", "109/456": "2431"}


# ---------------------------------------------------------------- 12 air units


def test_12A_germany_has_one_air_unit_and_the_soviets_six():
    b = board({})
    sides = [b.scenario.air_unit(a).side for a in b.data["air"]]
    assert sides.count("german") == 1 and sides.count("soviet") == 6


def test_12B_C_full_and_normal_values_and_the_bomber():
    b = board({})
    values = {a: (b.scenario.air_unit(a).full, b.scenario.air_unit(a).normal) for a in b.data["air"]}
    assert values.pop("LI-2") == (3, None)
    assert set(values.values()) == {(2, 1)}


def test_12_1_1C_a_full_attack_shifts_two_columns_and_a_normal_one():
    """381 + 456 (6) against 162G (5): 1-1 (column 2).  IL-2M full +2 and MIG 3 normal +1: column 5;
    die 6 on column 5 gives D2r3."""
    b = board(ATTACK, rolls=[6])
    attack_order(b, "soviet", ["109/381", "109/456"], "ATTACK 2332 WITH 381 456 FULL IL-2M-1 NORMAL MIG-3-1")
    result = emitted(b, "combat")[-1]
    assert (result["base_column"], result["column"], result["result"]) == (2, 5, "D2r3")


def test_12_1_1A_at_most_two_air_units_support_one_combat():
    b = board(ATTACK)
    ready_to_attack(b, "soviet", ["109/381", "109/456"])
    refused(b, "ATTACK 2332 WITH 381 456 FULL IL-2M-1 YAK-8 NORMAL MIG-3-1",
            because=r"at most two air units support one combat \(12\.1\.1A\)")
    assert emitted(b, "combat") == []


def test_12_1_1B_the_bomber_makes_full_attacks_only():
    b = board(ATTACK, rolls=[5])
    ready_to_attack(b, "soviet", ["109/381", "109/456"])
    refused(b, "ATTACK 2332 WITH 381 456 NORMAL LI-2", because=r"LI-2 can only make a full attack \(12\.1\.1B\)")
    answer(b, "ATTACK 2332 WITH 381 456 FULL LI-2")
    assert emitted(b, "combat")[-1]["column"] == 5  # 1-1 + 3


def test_12_1_2_full_attack_to_grounded_normal_attack_to_refit():
    b = board(ATTACK, rolls=[5])
    attack_order(b, "soviet", ["109/381", "109/456"], "ATTACK 2332 WITH 381 456 FULL IL-2M-1 NORMAL MIG-3-1")
    assert b.data["air"]["IL-2M-1"] == "grounded"
    assert b.data["air"]["MIG-3-1"] == "refit"
    assert b.data["air"]["YAK-8"] == "ready"


def test_12_1_1A_an_air_unit_in_the_airbase_cannot_fly():
    b = board(ATTACK)
    b.data["air"]["IL-2M-1"] = "grounded"
    b.data["air"]["MIG-3-1"] = "refit"
    ready_to_attack(b, "soviet", ["109/381", "109/456"])
    refused(b, "ATTACK 2332 WITH 381 456 FULL IL-2M-1",
            because=r"air unit IL-2M-1 is not ready in its holding box \(12\.1\.1A\)")
    refused(b, "ATTACK 2332 WITH 381 456 NORMAL MIG-3-1",
            because=r"air unit MIG-3-1 is not ready in its holding box \(12\.1\.1A\)")


def test_12_2_grounded_then_refit_then_back_in_the_holding_box():
    b = board({})
    b.data["air"].update({"IL-2M-1": "grounded", "MIG-3-1": "refit"})
    air_phase(b)  # next turn's Air Unit Phase
    assert (b.data["air"]["IL-2M-1"], b.data["air"]["MIG-3-1"]) == ("refit", "ready")
    air_phase(b)
    assert b.data["air"]["IL-2M-1"] == "ready"


def test_12_ruling_n54_air_units_of_a_cancelled_attack_return_unused():
    """381 alone (3) against 162G + 176G (10) lies in the 1-4 column, two below the table (ruling
    N-33); a normal attack (+1) leaves it below 1-2: the attack is cancelled and the MIG 3 goes back
    to its holding box unused."""
    b = board({"61/162G": "2332", "61/176G": "2332", "109/381": "2432", "IND/30P": "2533"}, rolls=[5])
    attack_order(b, "soviet", ["109/381"], "ATTACK 2332 WITH 381 NORMAL MIG-3-1")
    assert emitted(b, "combat") == [] and len(emitted(b, "attack_cancelled")) == 1
    assert b.data["air"]["MIG-3-1"] == "ready"


# ---------------------------------------------------------------- 13.1 sudden death


@pytest.mark.parametrize("hex_id", ["3030", "3029", "3028", "2930"])
def test_13_1A_a_supplied_soviet_unit_in_narva_wins_at_once(hex_id):
    b = board({"109/381": hex_id})
    assert sudden_death(b)
    assert b.data["result"]["winner"] == "soviet"


def test_13_1A_ruling_n47_an_out_of_supply_unit_or_an_hq_does_not_win():
    b = board({"109/381": "3029", "109/HQ": "3028"}, supply={"109/381": "oos"})
    assert not sudden_death(b)
    assert b.data["result"] is None


def test_13_ruling_n50_an_out_of_supply_unit_in_2930_scores_the_rollbahn_but_does_not_win_at_once():
    """Ruling N-50: 2930 is both a Narva sudden-death hex and the last rollbahn VP hex; a Soviet unit there
    out of supply scores the rollbahn VPs but does not win by sudden death (N-47)."""
    b = board({"109/381": "2930"}, supply={"109/381": "oos"})
    b.data["control"] = {h: "german" for h in b.data["control"]}
    assert not sudden_death(b) and b.data["result"] is None
    assert victory_points(b) == 2


def test_13_1B_otherwise_victory_is_decided_after_turn_12():
    """The end of Turn 12 with no Soviet unit in Narva: the game ends on the VP level (13.2)."""
    b = board({}, turn=12)
    b.data["control"] = {h: "german" for h in b.data["control"]}
    b.data["control"]["0131"] = "soviet"  # 15 VP: German Massive
    b.push(new_frame(b.data, "turn", stage="supply", ready=["german", "soviet"]))
    settle(b)
    answer(b, "IMPROVE NONE")
    assert b.data["result"]["level"] == "German Massive"
    assert b.data["result"]["vp"] == 15 and b.turn == 12


# ---------------------------------------------------------------- 13.2 / 13.3 VP


def scored(*hexes, occupied=None, pd=None):
    b = board(occupied or {})
    b.data["control"] = {h: "german" for h in b.data["control"]}
    for h in hexes:
        b.data["control"][h] = "soviet"
    b.data["pd"].update(pd or {})
    return victory_points(b)


@pytest.mark.parametrize("hexes, vp", [
    (("0131",), 15), (("0121",), 10), (("0121", "0122"), 20), (("0103",), 10), (("1530",), 2), (("3130",), 3),
    (("2323",), 1), (("1820",), 2), (("2337",), 3), (("1429", "1530", "1629", "3129", "3130", "3131"), 15),
])
def test_13_3_vp_schedule(hexes, vp):
    """Each VP feature counts; 1820 (Krivasoo, a village west of the Narva) scores 1 + 1 and 2337
    (Narva-Joesuu, likewise a village) 2 + 1 (13.3: multiple features each count); B scores per hex."""
    assert scored(*hexes) == vp


def test_13_3_soviet_occupied_rollbahn_hexes_score_two_each():
    """Occupation, not control: units on 2230 and 2930 score 4; 0131 occupied and controlled, 15 + 2."""
    assert scored(occupied={"109/381": "2230", "109/HQ": "2930"}) == 4
    assert scored("0131", occupied={"109/381": "0131"}) == 17


def test_13_3_each_pd_box_lost_scores_one():
    assert scored(pd={"4SS": 3, "11SS": 2}) == 5


@pytest.mark.parametrize("hexes, level", [
    (("0131",), "German Massive"),  # 15
    (("0131", "2323"), "German Major"),  # 16
    (("0131", "0103"), "German Major"),  # 25
    (("0131", "0103", "2323"), "German Minor"),  # 26
    (("0131", "0121", "0122"), "German Minor"),  # 35
    (("0131", "0121", "0122", "2323"), "Soviet Minor"),  # 36
    (("0131", "0121", "0122", "0103"), "Soviet Minor"),  # 45
    (("0131", "0121", "0122", "0103", "2323"), "Soviet Major"),  # 46
    (("0131", "0121", "0122", "0103", "3129", "3130", "3131", "2323"), "Soviet Major"),  # 55
    (("0131", "0121", "0122", "0103", "3129", "3130", "3131", "2323", "2326"), "Soviet Massive"),  # 56
])
def test_13_2_victory_levels(hexes, level):
    b = board({})
    b.data["control"] = {h: "german" for h in b.data["control"]}
    for h in hexes:
        b.data["control"][h] = "soviet"
    final_victory(b)
    assert b.data["result"]["level"] == level
    assert b.data["result"]["winner"] == ("soviet" if level.startswith("Soviet") else "german")


def test_13_2_control_goes_to_the_last_side_to_pass_through_with_a_zoc_unit():
    """381 moves 2322 -> 2323 (a west-bank village) -> 2324: the village becomes Soviet, though 381
    did not stop there; a German unit passing back makes it German again."""
    b = board({"109/381": "2322"})
    assert b.data["control"]["2323"] == "german"
    start_activation(b, "soviet", "command", movers=["109/381"])
    settle(b)
    answer(b, "MOVE 381 TO 2324")
    assert b.hex_of("109/381") == "2324"
    assert b.data["control"]["2323"] == "soviet"
    b.place("61/162G", "2323")
    assert b.data["control"]["2323"] == "german"


@pytest.mark.parametrize("unit", ["109/HQ", "IND/1434AG"])
def test_13_2_units_without_a_zoc_do_not_take_control(unit):
    """An HQ and a Soviet assault gun (5.2A: no ZOC) pass through 2323: it stays German."""
    b = board({unit: "2322"})
    start_activation(b, "soviet", "command", movers=[unit])
    settle(b)
    answer(b, f"MOVE {unit} TO 2324")
    assert b.hex_of(unit) == "2324"
    assert b.data["control"]["2323"] == "german"


def test_13_2_ruling_n48_control_at_the_start_follows_occupation():
    """Vaaska (2021), a west-bank village held by Soviet units at set-up, starts Soviet; the other VP
    hexes start German."""
    control = initial_state(SCENARIO, "campaign", DEFAULT_OPTIONS)["control"]
    assert control["2021"] == "soviet"
    assert {h for h, side in control.items() if side == "soviet"} == {"2021"}
