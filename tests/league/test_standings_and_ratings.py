"""Standings and tie-breaks against hand-worked examples, and rating updates against the libraries'
own reference values (issue 15)."""

from __future__ import annotations

import pytest

from moderator.league.model import Played
from moderator.league.ratings import Glicko, RatedGame, Skill, glicko_period, team_game
from moderator.league.standings import standings

A, B, C, D = 1, 2, 3, 4
SEEDS = [(A, 1), (B, 2), (C, 3), (D, 4)]
# A small round robin, worked by hand:
#   round 1: A (north) beats B; C (north) draws D
#   round 2: A (north) draws C; D (north) beats B
#   round 3: B (north) beats C; D (north) loses to A
# Points: A 2.5, D 1.5, B 1, C 1.
# Buchholz (opponents' points): A 1+1+1.5 = 3.5; B 2.5+1.5+1 = 5; C 1.5+2.5+1 = 5; D 1+1+2.5 = 4.5.
# Sonneborn–Berger: A 1·1 + ½·1 + 1·1.5 = 3; B 1·1 (beat C) = 1; C ½·1.5 + ½·2.5 = 2; D ½·1 + 1·1 = 1.5.
ROUND_ROBIN = [Played(1, A, B, "first"), Played(1, C, D, "draw"),
               Played(2, A, C, "draw"), Played(2, D, B, "first"),
               Played(3, B, C, "first"), Played(3, D, A, "second")]


def by_member(table):
    return {row.member_id: row for row in table}


def test_points_buchholz_and_sonneborn_berger_match_the_hand_worked_table():
    table = standings(SEEDS, ROUND_ROBIN, ("buchholz", "sonneborn-berger"), ("north", "south"))
    rows = by_member(table)
    assert [(r.member_id, r.points) for r in table] == [(A, 2.5), (D, 1.5), (C, 1.0), (B, 1.0)]
    assert {m: rows[m].tie_breaks["buchholz"] for m in rows} == {A: 3.5, B: 5.0, C: 5.0, D: 4.5}
    assert {m: rows[m].tie_breaks["sonneborn-berger"] for m in rows} == {A: 3.0, B: 1.0, C: 2.0, D: 1.5}
    assert [r.place for r in table] == [1, 2, 3, 4]  # C before B: level on Buchholz, ahead on S-B


def test_head_to_head_declared_first_puts_the_winner_of_the_tied_members_game_ahead():
    table = standings(SEEDS, ROUND_ROBIN, ("head-to-head", "sonneborn-berger"), ("north", "south"))
    assert [r.member_id for r in table] == [A, D, B, C]  # B beat C in round 3
    assert by_member(table)[B].tie_breaks["head-to-head"] == 1.0


def test_per_side_records_count_won_drawn_lost_on_each_side():
    rows = by_member(standings(SEEDS, ROUND_ROBIN, ("buchholz",), ("north", "south")))
    assert (rows[A].side_record("north"), rows[A].side_record("south")) == ("1-1-0", "1-0-0")
    assert (rows[B].side_record("north"), rows[B].side_record("south")) == ("1-0-0", "0-0-2")
    assert (rows[B].wins, rows[B].draws, rows[B].losses) == (1, 0, 2)


def test_a_bye_scores_a_point_but_is_no_win_and_no_opponent():
    played = [Played(1, 1, 2, "first"), Played(1, 3, None, "bye")]
    seeds = [(1, 1), (2, 2), (3, 3)]
    table = standings(seeds, played, ("buchholz", "wins"))
    assert [(r.member_id, r.points, r.tie_breaks["buchholz"], r.tie_breaks["wins"]) for r in table] == [
        (1, 1.0, 0.0, 1.0), (3, 1.0, 0.0, 0.0), (2, 0.0, 1.0, 0.0)]
    level = standings(seeds, played, ("buchholz",))
    assert [(r.member_id, r.place) for r in level] == [(1, 1), (3, 1), (2, 3)]  # still level: a shared place


def test_pending_games_do_not_count():
    table = standings([(1, 1), (2, 2)], [Played(1, 1, 2, "pending")], ("buchholz",))
    assert all(r.points == 0 and r.games == 0 for r in table)


def test_glicko2_matches_glickmans_worked_example_as_the_library_computes_it():
    # Glickman's example (glicko2.pdf, 2012): a 1500/200 player beats 1400/30, loses to 1550/100 and
    # 1700/300; the glicko2 package's own tests expect 1464.05, 151.52 and 0.05999.
    ratings = {"p": Glicko(1500, 200, 0.06), "a": Glicko(1400, 30), "b": Glicko(1550, 100), "c": Glicko(1700, 300)}
    games = [RatedGame("p", "a", 1.0), RatedGame("p", "b", 0.0), RatedGame("p", "c", 0.0)]
    after = glicko_period(ratings, games)
    assert round(after["p"].rating, 2) == 1464.05
    assert round(after["p"].deviation, 2) == 151.52
    assert round(after["p"].volatility, 5) == 0.05999


def test_a_member_who_did_not_play_only_grows_less_certain():
    after = glicko_period({"idle": Glicko(1600, 100)}, [], everyone=["idle"])
    assert after["idle"].rating == 1600 and after["idle"].deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2)
                                                                                      ** 0.5)


def test_openskill_team_ratings_match_the_library_s_documented_example():
    # openskill's README: a1 (25, 8.333) and a2 (32.444, 5.123) beat b1 (43.381, 2.421) and b2 (25.188, 6.211).
    teams = [[Skill(), Skill(32.444, 5.123)], [Skill(43.381, 2.421), Skill(25.188, 6.211)]]
    [[x1, x2], [y1, y2]] = team_game(teams, [1, 2], tau=0)
    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197))
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765))
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256))
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135))
