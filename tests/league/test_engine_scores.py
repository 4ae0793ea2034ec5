"""The engines' score of an unfinished game (`score_now`), which a league's "score" time-out reads:
Von Manstein's Triumph by the VP track (L112-114, L427-429), Across the Narva by its victory table
(13.2) over the VP hexes and events (13.3), The Hell of Stalingrad by §Basic Game's count at the end of
the last turn taken now (ruling S-84; its positions are tested in tests/games/stalingrad/test_score_now.py);
a game whose rules give no measure answers None."""

from __future__ import annotations

from typing import Any

import pytest

from moderator.core.rng import RngRecord
from moderator.games.narva.engine import engine as narva
from moderator.games.vmt.board import Board as VmtBoard
from moderator.games.vmt.engine import engine as vmt
from moderator.games.vmt.scenario import scenario_named as vmt_scenario
from moderator.games.vmt.sequence import finish
from tests.testgame.duel import DuelEngine


def fresh(engine: Any) -> Any:
    return engine.setup("campaign", {}, RngRecord("score", bytes(32), ["a", "b"]).rng())


# ---------------------------------------------------------------- Von Manstein's Triumph


def test_vmt_at_the_start_the_soviets_lead_twelve_vp_to_none():
    """L429: "The Soviets begin play with 12 VPs and the Axis with 0 VPs"; more VP wins (L427)."""
    outcome = vmt.score_now(fresh(vmt))
    assert (outcome.winner, outcome.score) == ("soviet", {"axis VP": 0, "soviet VP": 12})
    assert outcome.reason == "more VP when the game stopped"  # the VP are in the score, said once


def test_vmt_vp_areas_taken_by_the_axis_move_their_banners_across_the_track():
    """L429: each VP area the Axis takes subtracts its VP from the Soviet total and adds them to the Axis."""
    state = fresh(vmt)
    for area in ("C02", "C01", "A10", "B01"):  # 3 + 2 + 1 + 1 VP
        state["control"][area] = "axis"
    outcome = vmt.score_now(state)
    assert (outcome.winner, outcome.score) == ("axis", {"axis VP": 7, "soviet VP": 5})


def test_vmt_equal_vp_is_a_draw():
    """L114: "exactly the same number of VPs ... results in a draw"."""
    state = fresh(vmt)
    for area in ("C02", "C01", "A10"):  # 6 VP each
        state["control"][area] = "axis"
    outcome = vmt.score_now(state)
    assert outcome.winner is None and outcome.score == {"axis VP": 6, "soviet VP": 6}
    assert outcome.reason == "equal VP when the game stopped"


def test_vmt_the_axis_total_is_less_the_vp_paid_for_reinforcements():
    """L427: the count takes into account the VP the Axis lost receiving reinforcements (L112)."""
    state = fresh(vmt)
    for area in ("C02", "C01", "A10", "B01"):
        state["control"][area] = "axis"
    state["vp_paid"] = 2
    outcome = vmt.score_now(state)
    assert outcome.winner is None and outcome.score == {"axis VP": 5, "soviet VP": 5}


def test_vmt_an_area_with_a_battery_still_standing_stays_soviet():
    """L332: an undestroyed battery keeps its area Soviet, so its banner stays on the Soviet side."""
    state = fresh(vmt)
    battery_areas = [a.id for a in vmt_scenario("campaign").map.areas if a.vp and a.battery]
    for area in battery_areas:
        state["control"][area] = "axis"
    assert vmt.score_now(state).score == {"axis VP": 0, "soviet VP": 12}


def test_vmt_a_finished_game_scores_as_its_outcome():
    """L427: once the game is over its result stands, whatever the track shows afterwards."""
    state = fresh(vmt)
    finish(VmtBoard(state, vmt_scenario("campaign")), "axis", "automatic decisive victory (L427)")
    assert vmt.score_now(state) == vmt.outcome(state)
    assert vmt.score_now(state).winner == "axis"


# ---------------------------------------------------------------- Across the Narva

#: Entry hexes B (two hexes, 10 VP per hex) and C (10 VP), and villages west of the river (1 VP each).
ENTRY_B_C = ("0121", "0122", "0103")
VILLAGES = ("0116", "0134", "0323", "0430", "0719")


def test_narva_at_the_start_the_one_soviet_village_is_a_german_massive_victory():
    """13.2: 0-15 Soviet VP is a German Massive victory; the Soviets start holding village 1825 (13.3)."""
    outcome = narva.score_now(fresh(narva))
    assert (outcome.winner, outcome.score) == ("german", {"Soviet VP": 1, "level": "German Massive"})
    assert "13.2" in outcome.reason


@pytest.mark.parametrize(("villages", "vp", "level", "winner"), [
    (4, 35, "German Minor", "german"),  # 13.2: 26-35, the historical result
    (5, 36, "Soviet Minor", "soviet"),  # 13.2: 36-45
])
def test_narva_the_victory_table_s_boundary_between_german_and_soviet_minor(villages, vp, level, winner):
    """13.3: entry hexes B (10 per hex) and C (10) and villages west of the river (1 each), read on 13.2."""
    state = fresh(narva)
    for hex_id in ENTRY_B_C + VILLAGES[:villages]:
        state["control"][hex_id] = "soviet"
    outcome = narva.score_now(state)
    assert (outcome.winner, outcome.score) == (winner, {"Soviet VP": vp, "level": level})


def test_narva_a_hex_with_several_vp_features_earns_each():
    """13.3 note *: Narva-Joesuu 2337 is 2 VP and also a village west of the river (1 VP)."""
    state = fresh(narva)
    state["control"]["2337"] = "soviet"
    assert narva.score_now(state).score["Soviet VP"] == 1 + 3


def test_narva_pd_track_boxes_count_as_if_the_game_ended_now():
    """13.3 note ***: each box a PD marker moved down is 1 VP, counted at the game's end, which a
    time-out makes now."""
    state = fresh(narva)
    state["pd"]["11SS"] = 2
    assert narva.score_now(state).score["Soviet VP"] == 1 + 2


def test_narva_a_finished_game_scores_as_its_outcome():
    """13.1A: a sudden death victory ends the game; its result stands whatever the VP are."""
    state = fresh(narva)
    state["result"] = {"winner": "soviet", "reason": "sudden death", "vp": 1, "level": "Soviet sudden death"}
    assert narva.score_now(state) == narva.outcome(state)
    assert narva.score_now(state).winner == "soviet"


# ---------------------------------------------------------------- a game without a measure


def test_a_game_whose_rules_give_no_score_answers_none_so_the_referee_adjudicates():
    """The contract's default: no verdict on an unfinished game (the league then asks its referee)."""
    engine = DuelEngine()
    state = engine.setup(engine.info.scenario().name, {}, RngRecord("score", bytes(32), ["a", "b"]).rng())
    assert engine.outcome(state) is None and engine.score_now(state) is None


# ---------------------------------------------------------------- through a league's time-out


@pytest.mark.parametrize(("game", "winner", "why"), [
    ("vmt", "soviet", "more VP when the game stopped"), ("narva", "german", "13.2"),
    ("stalingrad", "soviet", "ruling S-84")])
def test_a_league_game_out_of_time_is_decided_by_the_engine_s_score(tmp_path, game, winner, why):
    """A round that runs out under the "score" policy ends its game with the engine's verdict, and tells the
    players why: at the start VMT's Soviets hold 12 VP to none (L429), Narva's Soviets 1 VP, a German Massive
    victory (13.2), and Stalingrad's four buildings all stand, a Soviet victory at the last turn's count
    (§Basic Game, ruling S-84)."""
    from tests.league.club import mails_to

    club = timed_out_league(tmp_path, game, None, ("ann@club.test", "bob@club.test"))
    [row] = club.games(1)
    sides = club.app.registry.get(game).info.roles()
    assert row.how == "score" and row.result == ("first" if sides[0] == winner else "second")
    told = mails_to(club.app, "ann@club.test", "ends here: the round's time ran out")
    assert told and why in told[-1]


def test_a_four_player_stalingrad_league_game_out_of_time_is_decided_for_the_teams(tmp_path):
    """§Four Player: two teams of two; at the start the Soviet side (the second) holds all four buildings
    (§Basic Game, ruling S-84), so the team seated as the Soviets wins."""
    players = ("ann@club.test", "bob@club.test", "cy@club.test", "dee@club.test")
    club = timed_out_league(tmp_path, "stalingrad", "four-player", players)
    [row] = club.games(1)
    assert (row.how, row.result) == ("score", "second")


def timed_out_league(tmp_path, game: str, scenario: str | None, players: tuple[str, ...]) -> Any:
    """A round robin of one round whose only game nobody plays: the round's day runs out first."""
    from moderator.league.model import DeclaredGame
    from moderator.registry import product_registry
    from tests.conftest import make_app
    from tests.league.club import Club

    app = make_app(tmp_path, registry=product_registry())
    club = Club.found(app, games=(DeclaredGame(game, scenario),), format="round-robin", round_days=1.0,
                      turn_hours=72.0, timeout="score", nmr_limit=50)
    for address in players:
        assert club.join(address).status == "joined"
    club.referee("START\n")
    club.run()
    return club


def test_a_league_of_vmt_and_narva_scores_each_round_out_of_time_by_that_round_s_game(tmp_path):
    """A double round robin over VMT then Narva, each round out of time under the "score" policy: round 1
    is scored by VMT (the Soviets' 12 VP to none, L429: the second seat wins), round 2 by Narva (the
    Soviets' 1 VP is a German Massive victory, 13.2: the first seat wins)."""
    from moderator.league.model import DeclaredGame
    from moderator.registry import product_registry
    from moderator.store.models import Game
    from tests.conftest import make_app
    from tests.league.club import Club

    app = make_app(tmp_path, registry=product_registry())
    club = Club.found(app, games=(DeclaredGame("vmt"), DeclaredGame("narva")), format="double-round-robin",
                      round_days=1.0, turn_hours=72.0, timeout="score", nmr_limit=50)
    for address in ("ann@club.test", "bob@club.test"):
        club.join(address)
    club.referee("START\n")
    club.run()
    rows = club.games()
    with app.db.session() as session:
        engines = [session.get(Game, row.game_id).engine for row in rows]
    assert engines == ["vmt", "narva"]
    assert [(row.round, row.how, row.result) for row in rows] == [(1, "score", "second"), (2, "score", "first")]
    assert rows[0].first_id == rows[1].second_id  # the return game swaps the seats
