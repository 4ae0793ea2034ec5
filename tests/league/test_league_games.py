"""Leagues of several games (issue 15: "many games of one or several of our games"): a league declares
its games, each with a scenario and rule options, and a schedule; round r plays the schedule's game
(league/games.py); games that seat differently are refused; and a league of Duel and Skirmish is
played by bots through the mail loop, each round by its own game's rules, bots and ratings."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, ClassVar

import pytest
from icalendar import Calendar
from typer.testing import CliRunner

from moderator import cli
from moderator.core.bots import ReportMail
from moderator.league.botseats import is_bot
from moderator.league.demo import LEAGUE_ID, DemoPlan, run_league_demo
from moderator.league.games import cycle_of, declared_games, game_of_round
from moderator.league.model import Declaration, DeclaredGame, LeagueError
from moderator.registry import Registry
from moderator.store import leagues as stored
from moderator.store.league_tables import League
from moderator.store.models import Game
from tests.conftest import flat, make_app, text_of
from tests.league.club import REFEREE, Club, ScoringDuel, mails_to
from tests.league.teamgame import TugEngine
from tests.testgame.duel import engine as duel
from tests.testgame.skirmish.engine import SkirmishEngine

PLAYERS = [f"p{n}@club.test" for n in range(1, 5)]
DUEL, SKIRMISH = "Duel (test game)", "Skirmish (test game)"


def two_games(tmp_path, *engines: Any):
    return make_app(tmp_path, registry=Registry(list(engines) or [duel, SkirmishEngine()]))


def declare(app, *games: DeclaredGame, schedule: tuple[str, ...] = (), league_id: str = "two") -> League:
    app.leagues.office.declare(Declaration("Two Games", games, schedule, rounds=2), league_id, REFEREE)
    with app.db.session() as session:
        return stored.league(session, league_id)


# ---------------------------------------------------------------------- declaration


def test_a_league_declares_its_games_each_with_its_scenario_and_options_and_a_schedule(tmp_path):
    app = two_games(tmp_path)
    league = declare(app, DeclaredGame("duel", options={"rounds": "4"}), DeclaredGame("skirmish", "standard"),
                     schedule=("skirmish", "duel", "DUEL"))
    assert declared_games(league) == [DeclaredGame("duel", "standard", {"rounds": 4}),
                                      DeclaredGame("skirmish", "standard", {"tie": "fall_back"})]
    assert cycle_of(league) == [1, 0, 0]


def test_games_that_seat_differently_are_refused_with_one_line_naming_each(tmp_path):
    app = two_games(tmp_path, duel, TugEngine())
    with pytest.raises(LeagueError) as refused:
        declare(app, DeclaredGame("duel"), DeclaredGame("tug"))
    said = str(refused.value)
    assert "\n" not in said and said.startswith("the games of a league must seat alike")
    assert "Duel (test game) is played one a side" in said and "Tug (test game of teams) by teams of 2" in said
    with app.db.session() as session:
        assert stored.league(session, "two") is None


def test_tug_alone_and_duel_with_skirmish_are_accepted_as_they_seat_alike(tmp_path):
    app = two_games(tmp_path, duel, SkirmishEngine(), TugEngine())
    assert declare(app, DeclaredGame("tug"), league_id="teams").id == "teams"
    assert len(declared_games(declare(app, DeclaredGame("duel"), DeclaredGame("skirmish")))) == 2


@pytest.mark.parametrize(("games", "schedule", "said"), [
    ((), (), "a league plays at least one game"),
    (("duel", "duel"), (), "duel:standard is declared twice"),
    (("duel", "skirmish"), ("duel", "chess"), "the schedule names 'chess', which is not one of the league's games"),
    (("duel", "skirmish"), ("duel", "duel"), "the schedule never plays skirmish"),
    (("duel", "skirmish"), ("duel", "duel", "skirmish"), r"the league's 2 round\(s\) never play skirmish"),
])
def test_a_declaration_with_no_game_a_game_twice_or_a_schedule_off_its_games_is_refused(tmp_path, games, schedule,
                                                                                        said):
    app = two_games(tmp_path)
    with pytest.raises(LeagueError, match=said):
        declare(app, *(DeclaredGame(game) for game in games), schedule=schedule)


# ---------------------------------------------------------------------- which round plays which game


def league_of(games: list[str], schedule: list[int]) -> League:
    return League(games_json=json.dumps([{"engine": g, "scenario": None, "options": {}} for g in games]),
                  schedule_json=json.dumps(schedule))


@pytest.mark.parametrize(("games", "schedule", "expected"), [
    (["vmt"], [], ["vmt"] * 5),
    (["vmt", "narva"], [], ["vmt", "narva", "vmt", "narva", "vmt"]),  # in turn: (r - 1) mod 2
    (["vmt", "narva"], [0, 0, 1], ["vmt", "vmt", "narva", "vmt", "vmt"]),  # the schedule's cycle repeats
    (["vmt", "narva", "stalingrad"], [2, 1, 0, 0, 1], ["stalingrad", "narva", "vmt", "vmt", "narva"]),
])
def test_round_r_plays_the_schedule_s_game_in_a_cycle_that_repeats(games, schedule, expected):
    league = league_of(games, schedule)
    assert [game_of_round(league, number).engine for number in range(1, 6)] == expected
    assert game_of_round(league, 0) == game_of_round(league, 1)  # before the start: round 1's game


# ---------------------------------------------------------------------- played by bots through the mail loop


class SpiedSkirmish(SkirmishEngine):
    """Skirmish whose bots note each report they answer (game and seat), to tell whose brain played."""

    asked: ClassVar[list[tuple[str, str]]] = []

    def bots(self, scenario: str) -> dict[str, Any]:
        return {role: Spy(brain, self.asked) for role, brain in super().bots(scenario).items()}


class Spy:
    def __init__(self, brain: Any, asked: list[tuple[str, str]]):
        self.brain = brain
        self.asked = asked

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        words = dict(line.split(" ", 1) for line in report.envelope if " " in line)
        self.asked.append((words.get("GAME", ""), words.get("ROLE", "")))
        return self.brain.orders(report, rng)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Eight members and two reserves play Duel, Skirmish and Skirmish again (a schedule) by mail; a
    member withdraws in round 2 (a reserve takes the seat), one falls silent in round 3, when the
    reserves take no more offers: Skirmish's own bot plays the seat on."""
    tmp_path = tmp_path_factory.mktemp("two-games")
    SpiedSkirmish.asked = []
    app = two_games(tmp_path, duel, SpiedSkirmish())
    plan = DemoPlan(games=("duel", "skirmish"), rounds=3, round_days=4.0, turn_hours=12.0, nmr_limit=2)
    app.leagues.office.declare = _with_schedule(app.leagues.office.declare, ("duel", "skirmish", "skirmish"))
    summary = run_league_demo(app, plan, seed=11)
    return app, summary


def _with_schedule(declare, schedule):
    def declaring(declaration: Declaration, league_id: str, referee: str):
        return declare(Declaration(**{**vars(declaration), "schedule": schedule}), league_id, referee)
    return declaring


def test_each_round_of_a_two_game_league_plays_its_scheduled_game_to_final_standings(played):
    app, _ = played
    with app.db.session() as session:
        league = stored.league(session, LEAGUE_ID)
        rows = stored.games(session, LEAGUE_ID)
        engines = {number: {session.get(Game, row.game_id).engine for row in rows
                            if row.round == number and row.game_id} for number in (1, 2, 3)}
    assert league.status == "over" and engines == {1: {"duel"}, 2: {"skirmish"}, 3: {"skirmish"}}
    assert all(row.result in ("first", "second", "draw", "bye") for row in rows)


def test_the_standings_count_every_game_and_the_seat_columns_name_both_games_sides(played):
    app, _ = played
    final = mails_to(app, "player1@club.demo", "final standings")[-1]
    table = [line.split() for line in final.splitlines() if line[:3].strip().isdigit()]
    points = sum(float(row[3].replace("½", ".5")) if row[3] != "½" else 0.5 for row in table)
    with app.db.session() as session:
        rows = stored.games(session, LEAGUE_ID)
    assert len(table) == 8 and points == len(rows)  # a point a pairing, whichever game it was
    assert "North/Red" in final and "South/Blue" in final
    assert "Duel (test game) and Skirmish (test game), swiss" in flat(final)


def test_side_balance_is_kept_by_seat_position_across_both_games(played):
    app, _ = played
    with app.db.session() as session:
        rows = [row for row in stored.games(session, LEAGUE_ID) if row.second_id is not None]
    firsts = Counter(row.first_id for row in rows)
    seconds = Counter(row.second_id for row in rows)
    # Swiss allows two games more on one side at most (league/pairing.py), whichever game a round plays; the
    # games' dice are secret and random, so results and the later rounds' pairings differ from run to run.
    assert all(abs(firsts[m] - seconds[m]) <= 2 for m in firsts | seconds), (firsts, seconds)


def test_ratings_are_kept_for_each_game_and_overall(played):
    app, _ = played
    with app.db.session() as session:
        addresses = [m.address for m in stored.members(session, LEAGUE_ID)]
        overall = stored.ratings(session, addresses, "*")
        each = {engine: stored.ratings(session, addresses, engine) for engine in ("duel", "skirmish")}
    assert each["duel"] and each["skirmish"]
    for address, rating in overall.items():
        assert rating.games == sum(kept[address].games for kept in each.values() if address in kept), address


def test_the_mails_the_page_and_the_calendar_name_each_pairing_s_game(played):
    app, summary = played
    after_one = flat(mails_to(app, "player1@club.demo", "standings after round 1")[0])
    assert f"{DUEL}, duel-0001, over" in after_one
    assert "Round 2 pairings (invitations follow): Player" in after_one
    assert f"{SKIRMISH}, invitations follow" in after_one
    started = flat(mails_to(app, "player2@club.demo", "round 2: you play")[0])
    assert f"in {SKIRMISH}, game skirmish-" in started
    page = summary["page"].read_text()
    assert page.count(f"<td>{DUEL}<br>") == 4 and page.count(f"<td>{SKIRMISH}<br>") >= 6  # each pairing, not the bye
    assert "<th>North</th><th>South</th>" in page and "<th>Red</th><th>Blue</th>" in page  # each round's own sides
    assert 'title="Rating in Duel (test game)">duel</abbr>' in page and "(skirmish)" not in page
    events = Calendar.from_ical((summary["page"].parent / "league.ics").read_bytes()).walk("VEVENT")
    assert [str(e.get("description")) for e in events] == [f"Round 1 plays {DUEL}.", f"Round 2 plays {SKIRMISH}.",
                                                           f"Round 3 plays {SKIRMISH}."]


def test_a_seat_nobody_takes_is_played_on_by_the_bot_of_that_round_s_game(played):
    app, summary = played
    with app.db.session() as session:
        rows = stored.games(session, LEAGUE_ID)
        offers = stored.offers(session, LEAGUE_ID)
    botted = [(row.game_id, role) for row in rows for role, address in json.loads(row.substitutes_json).items()
              if is_bot(address)]
    assert len(botted) == 1 and botted[0][0].startswith("skirmish-")
    assert botted[0] in SpiedSkirmish.asked  # Skirmish's own brain answered the bot's reports
    assert [o.status for o in offers] == ["taken", "expired"]  # a reserve took the first; nobody the second
    assert any("so the game's bot played it on" in line and "(Skirmish (test game))" in line
               for line in summary["takeovers"])


# ---------------------------------------------------------------------- a round out of time


def test_a_round_out_of_time_is_decided_by_its_own_game_s_score_or_its_referee(tmp_path):
    """Under the "score" policy a Duel round ends by Duel's score (equal hit points: a draw), and a
    Skirmish round, whose rules give no score of an unfinished game, goes to the referee."""
    app = two_games(tmp_path, ScoringDuel(), SkirmishEngine())
    club = Club.found(app, games=(DeclaredGame("duel"), DeclaredGame("skirmish")), format="round-robin",
                      round_days=1.0, turn_hours=72.0, timeout="score", nmr_limit=50)
    for address in PLAYERS:
        club.join(address)
    club.referee("START\n")

    def adjudicate(club: Club) -> None:
        for text in mails_to(club.app, REFEREE, "needs your adjudication"):
            game_id = text.split("Game ", 1)[1].split(" ", 1)[0]
            if any(r.game_id == game_id and r.result == "pending" for r in club.games()):
                assert "red or blue" in flat(text)  # the round's game's sides
                club.referee(f"RESULT {game_id} red\n")

    club.run(on_step=adjudicate)
    how = {number: {(row.how, row.result) for row in club.games(number)} for number in (1, 2, 3)}
    assert how == {1: {("score", "draw")}, 2: {("adjudicated", "first")}, 3: {("score", "draw")}}


# ---------------------------------------------------------------------- by mail and at the console


def test_a_member_may_prefer_a_side_of_either_game_and_round_1_honours_the_one_it_plays(tmp_path):
    app = two_games(tmp_path)
    club = Club.found(app, games=(DeclaredGame("duel"), DeclaredGame("skirmish")), format="swiss")
    assert club.join(PLAYERS[0], "SIDES blue south\n").status == "joined"
    club.join(PLAYERS[1])
    refused = flat(text_of(club.join(PLAYERS[2], "SIDES east\n").replies[0].raw))
    assert "'east' is not a side of the league's games; the sides are north, south, red, blue" in refused
    club.referee("START\n")
    app.tick()
    [row] = club.games(1)
    with app.db.session() as session:
        assert row.second_id == stored.member_by_address(session, "cup", PLAYERS[0]).id  # south, in Duel
    assert "Duel (test game) and Skirmish (test game)" in flat(mails_to(app, PLAYERS[1], "Your league secret")[0])


runner = CliRunner()


def test_the_console_declares_a_league_of_two_games_with_options_and_a_schedule(tmp_path, monkeypatch):
    app = two_games(tmp_path)
    monkeypatch.setattr(cli._State, "factory", lambda **_: app)
    made = runner.invoke(cli.app_cli, ["league", "create", "two", "--game", "duel", "--game", "skirmish:standard",
                                       "--option", "duel.rounds=4", "--option", "skirmish.tie=stand",
                                       "--schedule", "duel,skirmish", "--schedule", "skirmish"])
    assert made.exit_code == 0, made.output
    with app.db.session() as session:
        league = stored.league(session, "two")
    assert declared_games(league) == [DeclaredGame("duel", "standard", {"rounds": 4}),
                                      DeclaredGame("skirmish", "standard", {"tie": "stand"})]
    assert cycle_of(league) == [0, 1, 1]
    listed = runner.invoke(cli.app_cli, ["league", "list"]).output
    assert "two: two (duel, skirmish, swiss) signup" in listed
    unowned = runner.invoke(cli.app_cli, ["league", "create", "three", "--game", "duel", "--game", "skirmish",
                                          "--option", "rounds=4"])
    assert unowned.exit_code == 1 and "say whose option it is, e.g. duel.rounds=4" in flat(unowned.output)


def test_the_console_refuses_games_that_seat_differently(tmp_path, monkeypatch):
    app = two_games(tmp_path, duel, TugEngine())
    monkeypatch.setattr(cli._State, "factory", lambda **_: app)
    refused = runner.invoke(cli.app_cli, ["league", "create", "mixed", "--game", "duel", "--game", "tug"],
                            terminal_width=400)
    assert refused.exit_code == 1
    assert refused.output.count("\n") == 1 and "error: the games of a league must seat alike" in refused.output
