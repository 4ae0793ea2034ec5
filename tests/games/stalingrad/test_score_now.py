"""Who wins a Hell of Stalingrad game stopped unfinished (`score_now`, a league round's time-out): ruling S-84.
§Basic Game's count at the end of the last turn taken now (option `unfinished=last_turn`, the default), or who
holds more of the four districts (§Buildings A, `unfinished=districts`); the four-player game by side."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from moderator.games.stalingrad.engine import INFO, engine
from moderator.games.stalingrad.seating import FOUR_PLAYER
from tests.games.stalingrad.harness import apply, battle_position, defaults, fresh, rng


def volga(state: dict[str, Any], *districts: str) -> dict[str, Any]:
    """Each district closed by a Volga Card (§Strategy 5)."""
    for district in districts:
        state["districts"][district].update(building=None, volga=True, closed=True, captured=None)
    return state


def captured(state: dict[str, Any], *districts: str) -> dict[str, Any]:
    """Each district's building taken this turn, the district not readied yet (§Battle 6 D, §Strategy 5)."""
    for district in districts:
        record = state["districts"][district]
        state["sides"]["german"]["trophies"].append(record["building"])
        record.update(building=None, captured=record["building"])
    return state


def test_the_option_is_declared_with_the_rulebook_s_own_count_first():
    """Ruling S-84: `unfinished` is last_turn (default) or districts."""
    spec = next(s for s in INFO.options if s.name == "unfinished")
    assert (spec.default, spec.choices) == ("last_turn", ("last_turn", "districts"))
    assert fresh()["options"]["unfinished"] == "last_turn"


@pytest.mark.parametrize("option", ["last_turn", "districts"])
def test_at_the_start_four_buildings_stand_and_the_soviet_leads(option):
    """§Basic Game: a Building Card left in play is a Soviet victory; §Buildings A: the Soviet holds all four."""
    outcome = engine.score_now(fresh(unfinished=option))
    assert outcome.winner == "soviet"
    assert outcome.score == {"buildings standing": 4, "buildings captured": 0}
    assert "Tsarista Gorge, Red Square, Mamaev Kurgan, Traktor Factory" in outcome.reason
    assert "ruling S-84" in outcome.reason


@pytest.mark.parametrize(("option", "winner", "cited"), [("last_turn", "soviet", "§Basic Game"),
                                                         ("districts", "german", "§Buildings A")])
def test_one_building_standing_is_a_soviet_lead_at_the_last_turn_s_count_but_three_districts_to_one_the_german_s(
        option, winner, cited):
    """§Basic Game: "at least one Building Card remaining in play" is Soviet; §Buildings A: three districts closed."""
    state = captured(volga(fresh(unfinished=option), "A", "B"), "C")
    outcome = engine.score_now(state)
    assert (outcome.winner, outcome.score) == (winner, {"buildings standing": 1, "buildings captured": 1})
    assert "Traktor Factory" in outcome.reason and cited in outcome.reason


@pytest.mark.parametrize("option", ["last_turn", "districts"])
def test_the_rulebook_s_example_with_no_building_left_is_a_german_lead(option):
    """§Basic Game's example: Volga Cards in A and C, B and D captured on the last turn: a German victory; a
    captured district not readied has no building, as none is readied on the last turn (§Strategy 5)."""
    state = captured(volga(fresh(unfinished=option), "A", "C"), "B", "D")
    outcome = engine.score_now(state)
    assert (outcome.winner, outcome.score) == ("german", {"buildings standing": 0, "buildings captured": 2})


def test_two_districts_each_is_a_draw_by_districts_and_a_soviet_lead_by_the_last_turn_s_count():
    """Ruling S-84: districts two each is a draw; §Basic Game knows no draw (a building stands: Soviet)."""
    by_districts = engine.score_now(volga(fresh(unfinished="districts"), "A", "D"))
    assert by_districts.winner is None and "a draw" in by_districts.reason
    assert by_districts.score == {"buildings standing": 2, "buildings captured": 0}
    assert engine.score_now(volga(fresh(), "A", "D")).winner == "soviet"


def fought_for_red_square(**options: Any) -> dict[str, Any]:
    """A battle at Red Square (district B) under way, every other district closed by a Volga Card."""
    state = battle_position("RedSquare", "B", {"71ID": 0}, {"10NKVD": 0}, **options)
    state, _ = apply(state, "german", "FIGHT RedSquare")
    state, _ = defaults(state)
    assert state["battle"] is not None and state["result"] is None
    return volga(state, "A", "C", "D")


def test_a_building_whose_battle_is_being_fought_still_stands():
    """§Basic Game's note: a Building Card remains in play if it has not been captured."""
    outcome = engine.score_now(fought_for_red_square())
    assert outcome.winner == "soviet" and "Red Square (its battle undecided)" in outcome.reason


def test_a_building_whose_break_test_the_german_has_won_is_captured():
    """§Battle 6 D: "If the German Player wins the Break Test the building is captured"."""
    state = fought_for_red_square()
    state["battle"]["winner"] = "german"
    outcome = engine.score_now(state)
    assert outcome.winner == "german" and outcome.score["buildings standing"] == 0


def test_a_game_made_before_the_option_is_judged_by_the_default():
    """Ruling S-84: a stored game whose options lack `unfinished` reads as last_turn."""
    state = volga(fresh(unfinished="districts"), "A", "B", "C")
    del state["options"]["unfinished"]
    assert engine.score_now(state).winner == "soviet"


def test_a_finished_game_scores_as_its_outcome():
    """§Basic Game: a sudden death ends the game; its result stands, whatever stands now."""
    state = fresh()
    state["result"] = {"winner": "german", "reason": "four Volga Cards are in play (§Basic Game, §Strategy 5)"}
    assert engine.score_now(state) == engine.outcome(state)
    assert engine.score_now(state).winner == "german"


def test_the_score_reads_the_position_only():
    """Ruling S-84: no die, no card: the state is unchanged and the verdict the same each time."""
    state = captured(volga(fresh(), "A"), "B")
    before = copy.deepcopy(state)
    first = engine.score_now(state)
    assert state == before and engine.score_now(state) == first


# ---------------------------------------------------------------- the four-player game (§Four Player)


def four(**options: Any) -> dict[str, Any]:
    return engine.setup(FOUR_PLAYER, options, rng(1))


def test_the_four_player_game_is_two_sides_of_two_seats():
    """§Four Player: Paulus and Wietersheim against Lopatin and Saraev; the outcome names the side."""
    assert INFO.scenario(FOUR_PLAYER).sides() == (("german", ("paulus", "wietersheim")),
                                                  ("soviet", ("lopatin", "saraev")))


@pytest.mark.parametrize(("closed", "option", "winner"), [
    ((), "last_turn", "soviet"),
    (("A", "B", "C", "D"), "last_turn", "german"),
    (("A", "B"), "districts", None),
    (("A", "B", "C"), "districts", "german"),
])
def test_the_four_player_game_is_judged_for_the_side(closed, option, winner):
    """Ruling S-84: the two seats of a side win, lose or draw together (§Four Player, §Basic Game, §Buildings A)."""
    state = volga(four(unfinished=option), *closed)
    outcome = engine.score_now(state)
    assert outcome.winner == winner
    assert outcome.winner is None or outcome.winner in dict(INFO.scenario(FOUR_PLAYER).sides())
