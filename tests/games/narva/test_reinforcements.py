"""Rule 8.0 Reinforcements (8.0-8.7), run through the engine's Reinforcement Phase.

Entry areas (map.yaml): A = 0131, B = 0121 + 0122, C = 0103 (west edge, German); D = 3529, E = 3521,
F = 3513, H = 3537 (east edge), G = 2201 (south edge) (Soviet).  Merekula = 2033 and 2134; the
coastal hexes next to it = 1933 and 2234.
"""

from __future__ import annotations

from moderator.core.runner import Runner
from moderator.games.narva.engine import engine
from moderator.games.narva.orders import GRAMMAR
from moderator.games.narva.supply import traces_supply
from moderator.service.cadence import answered_entry
from tests.games.narva.drive import arrive, asked, cannot, command_phase, finish, reinforcement_phase
from tests.games.narva.helpers import answer, decisions, emitted, fresh_rng, position


def placed(board):
    return {e["unit"]: e["hex"] for e in emitted(board, "reinforcement")}


# ---------------------------------------------------------------- 8.0 - 8.2


def test_8_0A_reinforcements_are_placed_in_their_entry_hex():
    board = position({}, turn=2)
    arrive(board, "58/220G", 2, "A")
    arrive(board, "IND/40G", 2, "D")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    finish(board, until="move")
    assert placed(board) == {"58/220G": "0131"}
    finish(board, until="move")  # (German moves: none)
    answer(board, "MOVE DONE")
    assert placed(board) == {"58/220G": "0131", "IND/40G": "3529"}


def test_3_0C_the_german_reinforcement_segment_comes_before_the_soviet_one():
    board = position({}, turn=2)
    arrive(board, "IND/40G", 2, "D")
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    finish(board, until="improve")
    assert list(placed(board)) == ["58/220G", "IND/40G"]


def test_8_0B_reinforcements_enter_in_supply_and_in_command_and_move_at_once():
    """The 220G's own HQ (58th) is not on the map and its record says out of supply: it arrives in
    supply and moves anyway."""
    board = position({}, turn=2)
    board.state_of("58/220G")["supply"] = "isolated"
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert board.supply("58/220G") == "ok"
    assert asked(board) == ["move"]
    answer(board, "MOVE 220G TO 0430")
    assert board.hex_of("58/220G") == "0430"


def test_8_0B_8_2_reinforcements_have_their_full_ma_for_strategic_movement():
    """Placement costs nothing: from 0131 the MA 4 grenadiers go 16 rollbahn hexes to 1730."""
    board = position({}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    answer(board, "MOVE 220G TO 1730 STRATEGIC")
    assert board.hex_of("58/220G") == "1730"


def test_8_0B_reinforcements_may_move_by_rail():
    board = position({}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    answer(board, "MOVE 220G TO 1928 RAIL")
    assert board.hex_of("58/220G") == "1928"


def test_8_0B_reinforcements_do_not_attack_on_arrival():
    """Ruling N-62: reinforcements move but never attack in the Reinforcement Phase."""
    board = position({"109/381": "0332"}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    answer(board, "MOVE 220G TO 0331")
    assert "0332" in board.scenario.neighbours("0331")
    assert "attack" not in asked(board)


def test_8_1_reinforcements_may_overstack_on_placement_and_separate_during_the_phase():
    board = position({}, turn=2)
    for uid in ("58/220G", "58/158Pio", "IND/BE"):
        arrive(board, uid, 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert len(board.combat_units_at("0131")) == 3
    answer(board, "MOVE BE TO 0430")
    finish(board, until="improve")
    assert board.hex_of("IND/BE") == "0430"
    assert sorted(board.combat_units_at("0131")) == ["58/158Pio", "58/220G"]
    assert not emitted(board, "overstack_moved")


# ---------------------------------------------------------------- 8.3 EZOCs and blocked entry


def test_8_3A_reinforcements_are_not_placed_on_enemy_units():
    board = position({"109/381": "0131"}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert asked(board) == ["place"]
    cannot(board, "PLACE 220G AT 0131",
           because=r"0131 is not a legal place for 220G \(5\.3, 8\.3: never on enemy units")


def test_8_3B_a_blocked_entry_lets_units_arrive_within_ten_hexes_along_the_same_edge():
    """A Soviet unit at 0231 covers 0131 (A): 0121 is 10 hexes away on the west edge (allowed), 0120
    is 11 (refused), 0330 is near but not on the edge (refused)."""
    board = position({"109/381": "0231"}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert board.scenario.distance("0131", "0121") == 10 and board.scenario.distance("0131", "0120") == 11
    cannot(board, "PLACE 220G AT 0120",
           because=r"0120 is not a legal place for 220G \(5\.3, 8\.3: .*within ten of it along the same map edge")
    cannot(board, "PLACE 220G AT 0330",
           because=r"0330 is not a legal place for 220G \(5\.3, 8\.3: .*within ten of it along the same map edge")
    answer(board, "PLACE 220G AT 0121")
    assert board.hex_of("58/220G") == "0121"


def test_8_3B_an_entry_area_of_two_hexes_is_blocked_only_when_both_are():
    """Ruling N-40: a Soviet unit at 0220 covers 0121 but not 0122: the unit due at B enters at 0122
    without a question."""
    board = position({"109/381": "0220"}, turn=2)
    assert board.in_enemy_zoc("0121", "german") and not board.in_enemy_zoc("0122", "german")
    arrive(board, "58/220G", 2, "B")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert placed(board) == {"58/220G": "0122"}


def test_8_5_reinforcements_that_cannot_enter_are_eliminated():
    """Soviet units hold or cover the entry hex and every west-edge hex within ten of it: no reroute is
    asked for, and the unit is eliminated."""
    board = position({}, turn=2)
    edge = [h for h in board.scenario.hex_ids()
            if "west" in board.scenario.hex(h).edges and board.scenario.distance("0131", h) <= 10
            and not board.scenario.hex(h).water]
    blockers = ["109/381", "109/456", "109/602", "109/657", "109/749", "109/864", "109/880", "109/466"]
    units = {}
    for h in sorted(edge):
        if not any(board.scenario.distance(h, u) <= 1 for u in units.values()):
            units[blockers[len(units)]] = h
    board = position(units, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert emitted(board, "reinforcement_lost")[0]["unit"] == "58/220G"
    assert board.state_of("58/220G")["where"] == "eliminated"


# ---------------------------------------------------------------- 8.4 German Entry Point Track


def test_8_4_example_a_rerouted_division_enters_a_turn_later_and_only_once():
    """8.4 example: on Turn 4 the units of the 11th Division are due at B; Germany moves them all to
    the A box for entry on Turn 5.  They may not be delayed again to Turn 6."""
    board = position({}, turn=4)
    eleventh = ["11/HQ", "11/2G", "11/23G", "11/44G", "11/11F"]
    for uid in eleventh:
        arrive(board, uid, 4, "B")
    reinforcement_phase(board)
    assert asked(board) == ["reroute"]
    answer(board, "REROUTE 11/HQ 2G 23G 44G 11F TO A")
    finish(board, until="improve")
    assert all(board.state_of(u)["where"] == "pending" for u in eleventh)
    assert {(a["turn"], a["entry"]) for a in board.data["arrivals"]} == {(5, "A")}
    board.stack.clear()
    board.data["turn"] = 5
    arrive(board, "214/355G", 5, "A")  # somebody else due now, so that Germany is asked
    reinforcement_phase(board)
    assert asked(board) == ["reroute"]
    cannot(board, "REROUTE 11/2G TO C", because=r"2G was rerouted already and must enter now \(8\.4B\)")
    answer(board, "REROUTE NONE")
    assert {u: h for u, h in placed(board).items() if u.startswith("11/")} == {u: "0131" for u in eleventh}


def test_8_4A_a_reroute_goes_to_another_entry_point():
    board = position({}, turn=4)
    arrive(board, "11/2G", 4, "B")
    reinforcement_phase(board)
    cannot(board, "REROUTE 11/2G TO B",
           because=r"2G already enters at B: a reroute goes to another entry point \(8\.4A\)")


def test_8_4_the_soviets_do_not_reroute():
    """Ruling N-41: only Germany has an Entry Point Track; the Soviet units simply enter."""
    board = position({}, turn=2)
    arrive(board, "IND/40G", 2, "D")
    reinforcement_phase(board)
    assert asked(board) == ["move"]
    assert placed(board) == {"IND/40G": "3529"}


# ---------------------------------------------------------------- 8.6 the 260th MS brigade


def landing(units, turn=2, rolls=()):
    board = position(units, turn=turn, rolls=rolls)
    arrive(board, "IND/260", 2, "merekula")
    reinforcement_phase(board)
    return board


def test_8_6A_the_260th_may_not_land_before_turn_2():
    board = position({}, turn=1)
    arrive(board, "IND/260", 2, "merekula")
    reinforcement_phase(board)
    assert "land" not in asked(board)


def test_8_6A_the_260th_lands_in_either_merekula_hex_on_turn_2_or_later():
    for turn, hex_id in ((2, "2033"), (6, "2134")):
        board = landing({}, turn=turn, rolls=[1])
        assert asked(board) == ["land"]
        cannot(board, "LAND AT 1933",
               because=r"1933 is not a landing hex \(8\.6A\)")  # a coastal hex, while Merekula is free
        answer(board, f"LAND AT {hex_id}")
        answer(board, "COASTAL NONE")
        assert board.hex_of("IND/260") == hex_id


def test_8_6A_the_260th_may_wait_for_a_later_turn():
    board = landing({})
    answer(board, "LAND NONE")
    assert board.state_of("IND/260")["where"] == "pending"
    assert any(a["unit"] == "IND/260" for a in board.data["arrivals"])


def test_8_6A_if_both_merekula_hexes_hold_enemy_combat_units_it_lands_on_the_coast_next_to_them():
    """Both Merekula hexes German-held: 1933 is free and may be used; 2234 holds a German unit (no
    combat units allowed there)."""
    board = landing({"KUST/HOHN": "2033", "KUST/SCHN": "2134", "KUST/31P": "2234"}, rolls=[1])
    cannot(board, "LAND AT 2033", because=r"2033 is not a landing hex \(8\.6A\)")
    cannot(board, "LAND AT 2234", because=r"2234 is not a landing hex \(8\.6A\)")
    answer(board, "LAND AT 1933")
    assert board.hex_of("IND/260") == "1933"


def test_8_6A_one_free_merekula_hex_rules_out_the_coastal_hexes():
    board = landing({"KUST/HOHN": "2033"}, rolls=[1])
    cannot(board, "LAND AT 1933", because=r"1933 is not a landing hex \(8\.6A\)")
    answer(board, "LAND AT 2134")
    assert board.hex_of("IND/260") == "2134"


def test_8_6A_the_260th_may_land_in_an_ezoc():
    """Ruling N-30: 8.3's EZOC rule does not bind the landing."""
    board = landing({"KUST/HOHN": "2133"}, rolls=[1])
    assert board.in_enemy_zoc("2033", "soviet")
    answer(board, "LAND AT 2033")
    assert board.hex_of("IND/260") == "2033"


def test_8_6B_landing_on_a_lone_enemy_hq_displaces_it():
    """The KUST HQ set up alone at 2134 (14.3.3) is displaced by the landing."""
    board = landing({"KUST/HQ": "2134"}, rolls=[1])
    answer(board, "LAND AT 2134")
    assert [e["hq"] for e in emitted(board, "overrun")] == ["KUST/HQ"]
    assert board.hex_of("IND/260") == "2134"
    assert board.hex_of("KUST/HQ") != "2134"


def test_8_6C_the_german_coastal_artillery_may_barrage_the_landing_and_dr1_destroys_it():
    board = landing({}, rolls=[5])
    assert board.scenario.barrage_result(5).defender_retreat == 1  # Dr1 on the barrage column
    answer(board, "LAND AT 2033")
    assert asked(board) == ["coastal"]
    answer(board, "COASTAL FIRE")
    assert board.state_of("IND/260")["where"] == "eliminated"
    assert emitted(board, "barrage")[0]["hex"] == "2033"


def test_8_6C_a_landing_that_survives_the_barrage_moves():
    board = landing({}, rolls=[1])
    assert board.scenario.barrage_result(1).code == "NR"
    answer(board, "LAND AT 2033")
    answer(board, "COASTAL FIRE")
    assert asked(board) == ["move"]
    answer(board, "MOVE 260 TO 2032")
    assert board.hex_of("IND/260") == "2032"


SHOCK = {"2SH/HQ": "3024", "109/HQ": "2120", "30GD/HQ": "3015", "IND/260": "2033", "122/1074": "2020",
         "122/1076": "2020", "122/1078": "2021", "IND/48": "2121"}


def test_8_6D_the_260th_moves_with_the_first_2nd_shock_chit_of_the_turn():
    """It joins the 109th's activation although 2033 is 13 hexes from the 109th HQ, on top of the
    three attached units; it is not activated by the second 2SH chit of the turn."""
    board = position(SHOCK, turn=3)
    assert board.scenario.distance("2120", "2033") > 5
    command_phase(board, ["2SH-1", "2SH-2"])
    answer(board, "ACTIVATE 109")
    assert emitted(board, "activated")[0]["extra"] == ["IND/260"]
    answer(board, "ATTACH 1074 1076 1078")
    answer(board, "MOVE 260 TO 2032")
    assert board.hex_of("IND/260") == "2032"
    finish(board, until="hq")
    answer(board, "ACTIVATE 30GD")
    assert emitted(board, "activated")[1]["extra"] == []
    assert "IND/260" not in board.top()["movers"]


def test_8_6D_a_relocation_does_not_activate_the_260th_the_next_corps_activation_does():
    """Ruling N-30."""
    board = position(SHOCK, turn=3)
    command_phase(board, ["2SH-1", "2SH-2"])
    answer(board, "RELOCATE TO 3023")
    answer(board, "ACTIVATE 109")
    assert emitted(board, "activated")[0]["extra"] == ["IND/260"]


def test_8_6D_german_chits_never_activate_the_260th():
    board = position(dict(SHOCK, **{"FHH/HQ": "1827"}), turn=3)
    command_phase(board, ["26-1", "2SH-1"])
    answer(board, "ACTIVATE FHH")
    finish(board, until="hq")
    answer(board, "ACTIVATE 109")
    assert emitted(board, "activated")[1]["extra"] == ["IND/260"]


def test_8_6E_the_260th_never_needs_supply():
    """At 2033 with German units on both roads out, a rifle regiment there cannot trace supply; the
    260th counts as supplied."""
    units = {"IND/260": "2033", "109/381": "2134", "KUST/HOHN": "2032", "KUST/SCHN": "2235", "KUST/31P": "2133"}
    board = position(units, turn=3)
    assert not traces_supply(board, "109/381")
    assert traces_supply(board, "IND/260")


# ---------------------------------------------------------------- questions of the Soviet segment (issue 12)


def test_4_2_5B_ruling_N_62_an_arriving_army_hq_is_asked_for_a_supplied_hex_not_told_its_entry_is_blocked():
    """Mails 046-048 of a game played by hand: the 8th and 59th Army HQs (turn 3, any supplied hex) were
    asked as "cannot enter at its entry hex (blocked, 8.3B)", and then to MOVE although their MA is 0."""
    board = position({"2SH/HQ": "3024"}, turn=3)
    board.data["arrivals"] = [{"unit": "8/HQ", "turn": 3, "entry": "supplied_hex", "rerouted": False}]
    reinforcement_phase(board)
    prompt = decisions(board)[0].prompt
    assert prompt.startswith("The Army HQ 8/HQ arrives: place it in any supplied hex outside the other Army HQs' "
                             "command span") and "4.2.5B" in prompt
    assert "blocked" not in prompt and "8.3B" not in prompt and "PLACE 8/HQ AT <hex>" in prompt
    answer(board, "PLACE 8/HQ AT 3513")
    assert "move" not in asked(board)  # 8.0B: a movement phase, but nothing to move with MA 0
    assert board.hex_of("8/HQ") == "3513"


def test_8_3B_a_blocked_entry_is_still_told_as_blocked():
    board = position({"61/162G": "3428"}, turn=2)
    arrive(board, "IND/40G", 2, "D")
    reinforcement_phase(board)
    finish(board, until="place")
    assert decisions(board)[0].prompt.startswith("IND/40G cannot enter at its entry hex (blocked, 8.3B)")


def test_8_0B_the_move_of_turn_1_arrivals_answered_by_the_default_is_reported_as_a_choice_the_player_had():
    """Mail 013: the Soviet turn-1 arrivals at D, F, G and H (14.11.2) had their movement phase (8.0B), the
    game's standing MOVE DONE answered it (ruling N-68: no move), and the report did not say so, because the
    question listed MOVE DONE alone and so looked like no choice (service.cadence.answered_entry).  It
    lists a legal move of each arriving unit."""
    board = position({}, turn=1)
    for unit, entry in (("IND/40G", "D"), ("30GD/30Tk", "F"), ("IND/71", "G"), ("14/1254", "H")):
        arrive(board, unit, 1, entry)
    reinforcement_phase(board)
    finish(board, until="move")
    finish(board, until="move")  # (the German segment: nothing arrives)
    move = decisions(board)[0]
    assert move.role == "soviet" and move.kind == "move" and move.default == "MOVE DONE"
    assert "8.0B" in move.prompt
    assert [o.split(" TO ")[0] for o in move.options[1:]] == \
        ["MOVE IND/40G", "MOVE 30GD/30Tk", "MOVE IND/71", "MOVE 14/1254"]
    for option in move.options[1:]:
        engine.apply(board.data, "soviet", GRAMMAR.parse(option, engine.lexicon(board.data, "soviet")), fresh_rng())
    advance = Runner(engine).advance(board.data, {}, fresh_rng())
    step = next(s for s in advance.steps if s.kind == "move" and s.role == "soviet")
    assert step.source == "game-standing" and step.text == "MOVE DONE"
    assert answered_entry(step)["choices"] == 5
