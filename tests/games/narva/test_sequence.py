"""Sequence of play (3.0), the chit schedule (2.1.4F, 2.5B, 8.7, 14.9), the Turn Advance return of
chits (2.5D, 11.4A) and the first-turn rules (14.10)."""

from __future__ import annotations

from collections import Counter

import pytest

from moderator.core.frames import new_frame
from moderator.games.narva.board import Board
from moderator.games.narva.engine import engine
from moderator.games.narva.reinforce import refill_cup
from moderator.games.narva.sequence import turn_advance
from tests.games.narva.drive import DONE, arrive, asked, command_phase, finish, moving, order_cup
from tests.games.narva.helpers import SCENARIO, FixedDice, answer, emitted, fresh_rng, position, settle


def kinds(board):
    return [e.kind for e in board.events]


def first(board, kind, **match):
    for i, e in enumerate(board.events):
        if e.kind == kind and all(e.data.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {kind} {match}")


# ---------------------------------------------------------------- 3.0


def test_3_0_the_phases_of_a_turn_come_in_order():
    """A: Air Unit Phase; B: Command Phase; C: Reinforcement Phase (German, then Soviet segment);
    D: Supply Phase; E: End of Turn Phase (turn advance), then the next turn begins."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "FHH/HQ": "1827"}, turn=2)
    board.data["air"]["IL-2M-1"] = "grounded"
    arrive(board, "IND/40G", 2, "D")
    arrive(board, "58/220G", 2, "A")
    order_cup(board, ["2SH-1", "WER-1"])
    board.push(new_frame(board.data, "turn", stage="air", ready=[]))
    settle(board)
    finish(board, until="improve")
    answer(board, "IMPROVE NONE")
    order = [first(board, "air_phase"), first(board, "command_phase"), first(board, "chit_drawn", chit="2SH-1"),
             first(board, "command_phase_over"), first(board, "reinforcement", unit="58/220G"),
             first(board, "reinforcement", unit="IND/40G"), first(board, "supply_phase"),
             first(board, "turn_advance"), first(board, "turn_begins")]
    assert order == sorted(order)


def test_3_0A_the_air_unit_phase_moves_refitted_and_grounded_air_units():
    """12.2: refit -> holding box, grounded -> refit, at the start of the turn."""
    board = position({}, turn=2)
    board.data["air"]["IL-2M-1"] = "grounded"
    board.data["air"]["MIG-3-1"] = "refit"
    board.push(new_frame(board.data, "turn", stage="air", ready=[]))
    settle(board)
    assert asked(board) == ["ready", "ready"]
    assert board.data["air"]["IL-2M-1"] == "refit" and board.data["air"]["MIG-3-1"] == "ready"


def test_2_2_1B_the_turn_marker_advances_at_the_end_of_each_turn():
    board = position({}, turn=4)
    board.data["cup"] = []
    board.push(new_frame(board.data, "turn", stage="supply", ready=[]))
    settle(board)
    answer(board, "IMPROVE NONE")
    assert board.turn == 5
    assert emitted(board, "turn_begins") == [{"turn": 5}]


# ---------------------------------------------------------------- chits: 2.1.4F, 14.9, 2.5B, 8.7


def test_2_1_4F_14_9_the_start_cup():
    """Start row of 14.9: 2 x 3SS and WER for Germany, 3 x 2SH for the Soviets; nothing else (the
    chits with a turn number wait on the Turn Record Track)."""
    from moderator.games.narva.setup import initial_state
    from tests.games.narva.helpers import DEFAULT_OPTIONS

    data = initial_state(SCENARIO, "campaign", dict(DEFAULT_OPTIONS))
    assert Counter(SCENARIO.chit(c).group for c in data["cup"]) == Counter({"3SS": 2, "WER": 1, "2SH": 3})


def added_in_reinforcement_phase(turn):
    board = position({}, turn=turn)
    board.data["cup"] = []
    refill_cup(board)
    return Counter((SCENARIO.chit(c).side, SCENARIO.chit(c).group or SCENARIO.chit(c).action)
                   for c in board.data["cup"])


@pytest.mark.parametrize("turn, expected", [
    (1, {("german", "WER"): 1, ("soviet", "2SH"): 1}),
    (2, {("german", "barrage"): 1}),  # printed in the German column (ruling N-03)
    (3, {("german", "26"): 1, ("german", "43"): 1, ("german", "AGN"): 1, ("soviet", "8"): 1, ("soviet", "59"): 1,
         ("soviet", "barrage"): 1}),  # "Barrge" (N-11) in the event column: Soviet (N-03)
    (4, {("german", "26"): 1, ("soviet", "59"): 2, ("soviet", "barrage"): 1, ("soviet", "stavka"): 1}),
    (5, {("both", "random_event"): 1}),
    (6, {}),
])
def test_14_9_chits_enter_the_cup_in_the_reinforcement_phase_of_their_turn(turn, expected):
    assert added_in_reinforcement_phase(turn) == Counter(expected)


def test_14_9_turn_7_and_the_reconstructed_rows():
    """Printed: a 43 chit on Turn 7.  Ruling N-03 puts the four unscheduled action chits on Turns 7-9."""
    assert added_in_reinforcement_phase(7) == Counter({("german", "43"): 1, ("soviet", "free_move"): 1,
                                                        ("soviet", "shock_out_of_supply"): 1})
    assert added_in_reinforcement_phase(8) == Counter({("soviet", "withdraw_59"): 1})
    assert added_in_reinforcement_phase(9) == Counter({("german", "withdraw_214"): 1})


def play_to_turn(last):
    """A real game from the set-up, every question answered with 'nothing', until Turn `last`'s
    Command Phase has begun; returns the cup seen at the start of each turn's Command Phase."""
    state = engine.setup("campaign", {}, fresh_rng())
    board = Board(state, SCENARIO, FixedDice([1] * 400))
    cups = {}
    for _ in range(2000):
        for e in board.events:
            if e.kind == "command_phase":
                cups[e.data["turn"]] = Counter(e.data["cup"])
        board.events.clear()
        if board.turn > last or (board.turn == last and last in cups):
            return cups
        answer(board, DONE[asked(board)[0]])
    raise AssertionError("the game did not get there")


def test_2_5B_8_7_a_chit_of_turn_n_is_first_drawable_on_turn_n_plus_1():
    """In a real game: the German barrage chit (Turn 2) is not in the cup for Turn 2's draws but is for
    Turn 3's; the 26/43/AGN chits (Turn 3) first appear on Turn 4; the Wehrmacht chits, removed in
    Turn 3's Reinforcement Phase (2.4.1B), are gone from Turn 4 on."""
    cups = play_to_turn(4)
    assert cups[1] == Counter({"3SS-1": 1, "3SS-2": 1, "WER-1": 1, "2SH-1": 1, "2SH-2": 1, "2SH-3": 1})
    assert cups[2] == cups[1] + Counter({"WER-2": 1, "2SH-4": 1})
    assert "BARRAGE-G" not in cups[2] and "BARRAGE-G" in cups[3]
    assert not {"26-1", "43-1", "AGN"} & set(cups[3])
    assert {"26-1", "43-1", "AGN", "8-1", "59-1", "BARRAGE-S1"} <= set(cups[4])
    assert not {"WER-1", "WER-2"} & set(cups[4])


# ---------------------------------------------------------------- Turn Advance (2.5D, 11.4A)


def test_11_4A_every_drawn_chit_goes_back_to_the_cup_at_turn_advance():
    """Command chits used, passed or drawn beyond the limit, and the drawn action chits."""
    board = position({"FHH/HQ": "1827", "225/HQ": "0213"}, turn=3)
    command_phase(board, ["26-1", "BARRAGE-G", "43-1", "3SS-1"])
    finish(board)
    assert emitted(board, "chit_unused")[0]["chit"] == "3SS-1"
    turn_advance(board)
    assert sorted(board.data["cup"]) == ["26-1", "3SS-1", "43-1", "BARRAGE-G"]
    assert board.data["tracks"] == {"german": [], "soviet": []} and board.data["used"] == {"german": 0, "soviet": 0}


def test_11_4B_pins_are_removed_at_turn_advance():
    board = position({"61/162G": "2432"})
    board.data["pinned"] = {"2432": ["61/162G"]}
    turn_advance(board)
    assert board.data["pinned"] == {}
    moving(board, "german", "61/162G")
    answer(board, "MOVE 162G TO 2433")
    assert board.hex_of("61/162G") == "2433"


# ---------------------------------------------------------------- 14.10 first-turn rules


def test_14_10A_the_soviets_move_first_with_a_2nd_shock_chit_played_as_if_drawn():
    state = engine.setup("campaign", {}, fresh_rng())
    events = []
    for side in ("german", "soviet"):
        order = engine.grammar.parse("READY", engine.lexicon(state, side))
        state, new = engine.apply(state, side, order, fresh_rng(2))
        events += new
    drawn = [e.data for e in events if e.kind == "chit_drawn"]
    assert drawn[0]["chit"].startswith("2SH-") and drawn[0]["activation"] == 1 and drawn[0]["limit"] == 3
    assert len(drawn) == 1
    pending = engine.pending(state)
    assert [(d.role, d.kind) for d in pending] == [("soviet", "hq")]
    # the other two Start 2SH chits are still in the cup with the German ones
    assert Counter(SCENARIO.chit(c).group for c in state["cup"]) == Counter({"3SS": 2, "WER": 1, "2SH": 2})


@pytest.mark.parametrize("turn, side, total", [(1, "soviet", 4), (2, "soviet", 3), (1, "german", 3)])
def test_14_10B_soviet_combat_rolls_get_plus_one_on_turn_1_only(turn, side, total):
    """Die 3 in every case: the Soviets read row 4 on Turn 1, row 3 on Turn 2; Germany always row 3."""
    if side == "soviet":
        units = {"109/381": "2332", "109/456": "2332", "61/162G": "2432"}
        attackers, target = ["109/381", "109/456"], "2432"
    else:
        units = {"61/162G": "2332", "61/176G": "2332", "109/381": "2432"}
        attackers, target = ["61/162G", "61/176G"], "2432"
    board = position(units, turn=turn, rolls=[3] + [1] * 10, options={"fog": "off"})
    moving(board, side, *attackers, fighters=attackers)
    answer(board, "MOVE DONE")
    answer(board, f"ATTACK {target} WITH {' '.join(a.split('/')[1] for a in attackers)}")
    combat = emitted(board, "combat")[0]
    assert combat["die"][0] == 3 and combat["total"] == total
    assert combat["result"] == SCENARIO.crt(side, combat["column"], total)
