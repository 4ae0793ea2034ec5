"""Leagues of a game with several seats a side (issue 15: "games with 3-4 seats ... are paired into
teams"; "a team-aware system such as OpenSkill for games with teams"): teams formed by a snake draft
over the seeds, the left-over member a reserve, teams paired and ranked as members are, every team
member seated and told, OpenSkill ratings for each player, and a seat a team member leaves offered
to the reserves."""

from __future__ import annotations

import json

import pytest

from moderator.core.contract import GameInfo, ScenarioInfo
from moderator.league.model import Declaration, DeclaredGame, LeagueError
from moderator.league.teams import form
from moderator.registry import Registry
from moderator.store import games as stored_games
from moderator.store import leagues as stored
from tests.conftest import flat, make_app
from tests.league.club import REFEREE, Club, mails_to
from tests.league.teamgame import TugEngine

PLAYERS = [f"p{n}@club.test" for n in range(1, 10)]


def test_teams_are_drafted_snake_wise_over_the_seeds_and_the_left_over_member_is_named():
    assert form([1, 2, 3, 4, 5, 6, 7, 8, 9], 2) == ([[1, 8], [2, 7], [3, 6], [4, 5]], [9])
    assert form([1, 2, 3, 4, 5, 6], 3) == ([[1, 4, 5], [2, 3, 6]], [])


class ThreeWay(TugEngine):
    info = GameInfo(id="three", title="Three-way", scenarios=(ScenarioInfo("all", "Each for himself",
                                                                          ("red", "green", "blue")),))


class Lopsided(TugEngine):
    info = GameInfo(id="lopsided", title="Lopsided", scenarios=(ScenarioInfo(
        "x", "Two against one", ("a1", "a2", "b1"), teams=(("a", ("a1", "a2")), ("b", ("b1",)))),))


@pytest.mark.parametrize(("engine", "said"), [(ThreeWay(), "sides of 1 (red) and 1 (green) and 1 (blue) seats"),
                                               (Lopsided(), "sides of 2 (a) and 1 (b) seats")])
def test_a_game_that_is_not_two_sides_of_as_many_seats_is_refused(tmp_path, engine, said):
    app = make_app(tmp_path, registry=Registry([engine]))
    with pytest.raises(LeagueError, match="leagues pair two sides of as many seats each") as refused:
        app.leagues.office.declare(Declaration("X", (DeclaredGame(engine.info.id),)), "x", REFEREE)
    assert said in str(refused.value)


def team_club(tmp_path, players=PLAYERS, **declared) -> Club:
    app = make_app(tmp_path, registry=Registry([TugEngine()]))
    club = Club.found(app, engine="tug", **{"format": "round-robin", "round_days": 3.0, "turn_hours": 10.0,
                                            "nmr_limit": 50, **declared})
    for address in players:
        assert club.join(address).status == "joined"
    club.referee("START\n")
    return club


def test_a_league_of_teams_plays_a_round_robin_of_teams_to_final_standings_with_openskill(tmp_path):
    club = team_club(tmp_path)
    app = club.app
    club.run()
    league = club.league()
    formed = json.loads(league.teams_json)
    with app.db.session() as session:
        members = {m.id: m for m in stored.members(session, "cup")}
        by_address = {m.address: m.id for m in members.values()}
        rows = stored.games(session, "cup")
        ratings = stored.ratings(session, PLAYERS, "tug")
        seats = {row.game_id: {s.role: s.address for s in stored_games.seats_of_game(session, row.game_id)
                                   if s.role != "observer"} for row in rows}
    assert [sorted(members[i].address for i in team) for team in formed] == [
        sorted(PLAYERS[i] for i in pair) for pair in ((0, 7), (1, 6), (2, 5), (3, 4))]  # seeds 1+8, 2+7, ...
    assert members[by_address[PLAYERS[8]]].status == "reserve"  # nine members: one left over
    assert any("did not divide evenly: you are a reserve" in flat(text) for text in mails_to(app, PLAYERS[8]))
    assert any("plays in teams of 2" in flat(text) for text in mails_to(app, REFEREE))
    assert league.status == "over" and len(rows) == 6 and all(r.result in ("first", "second", "draw") for r in rows)
    captains = {team[0]: team for team in formed}
    for row in rows:  # each side's seats are its team's members, in team order
        first, second = captains[row.first_id], captains[row.second_id]
        assert seats[row.game_id] == {"north_a": members[first[0]].address, "north_b": members[first[1]].address,
                                      "south_a": members[second[0]].address, "south_b": members[second[1]].address}
    final = flat(mails_to(app, PLAYERS[0], "final standings")[-1])
    for team in formed:
        assert " & ".join(members[i].name for i in team) in final  # a team stands in the table by its names
    assert len(mails_to(app, PLAYERS[7], "round 1: you play")) == 1  # a team member is told, not only the captain
    assert set(ratings) == set(PLAYERS[:8]) and all(r.games == 3 and r.mu != 25.0 for r in ratings.values())


def test_a_team_member_who_leaves_has_their_own_seat_offered_to_the_reserves(tmp_path):
    club = team_club(tmp_path, players=PLAYERS[:5])  # two teams of two, p5 the reserve
    app = club.app
    app.tick()
    club.answer_invitations()
    formed = json.loads(club.league().teams_json)
    [row] = club.games(1)
    with app.db.session() as session:
        members = {m.id: m.address for m in stored.members(session, "cup")}
    leaving = members[formed[1][1]]  # the second member of the second team: seat south_b, or north_b
    club.member(leaving, "WITHDRAW\n")
    with app.db.session() as session:
        [offer] = stored.offers(session, "cup")
    side = "north" if row.first_id == formed[1][0] else "south"
    assert (offer.role, offer.leaving, json.loads(offer.offered_to_json)) == (f"{side}_b", leaving, [PLAYERS[4]])


def test_a_swiss_league_of_teams_pairs_teams_without_rematch_and_its_page_shows_them(tmp_path):
    club = team_club(tmp_path, players=PLAYERS[:8], format="swiss", rounds=2)
    app = club.app
    club.run()
    rows = club.games()
    captains = {team[0] for team in json.loads(club.league().teams_json)}
    assert len(rows) == 4 and {r.first_id for r in rows} | {r.second_id for r in rows} == captains
    assert len({frozenset((r.first_id, r.second_id)) for r in rows}) == 4  # no two teams met twice
    page = app.leagues.write_page("cup").read_text()
    assert "p1 &amp; p8" in page and "(OpenSkill)" in page
