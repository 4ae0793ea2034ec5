"""Migration 0013 (issue 15): a league's one game (engine, scenario, options_json) becomes a list of
games and a schedule.  A league kept as 0012 kept it plays on after the upgrade; the downgrade gives a
one-game league its columns back and refuses, changing nothing, a league of several games."""

from __future__ import annotations

import json

import pytest
from alembic import command
from sqlalchemy import inspect, text

from moderator.league.games import cycle_of, declared_games
from moderator.league.model import DeclaredGame
from moderator.registry import Registry
from moderator.store.db import alembic_config
from tests.conftest import make_app
from tests.league.club import Club, ScoringDuel, mails_to
from tests.testgame.skirmish.engine import SkirmishEngine

PLAYERS = [f"p{n}@club.test" for n in range(1, 5)]


def columns(app) -> set[str]:
    return {column["name"] for column in inspect(app.db.engine).get_columns("league")}


def test_a_one_game_league_running_across_0013_down_and_up_plays_on_to_its_final_standings(db_url, tmp_path):
    app = make_app(tmp_path, db_url, registry=Registry([ScoringDuel()]))
    club = Club.found(app, format="swiss", rounds=2, round_days=1.0, timeout="score", nmr_limit=50,
                      games=(DeclaredGame("duel", options={"rounds": 4}),))
    for address in PLAYERS:
        club.join(address)
    club.referee("START\n")
    app.tick()  # round 1 is paired and its games made
    config = alembic_config(app.db.engine)

    command.downgrade(config, "0012")
    app.db.dispose()  # the ORM's cached statements name the columns that went
    assert {"engine", "scenario", "options_json"} <= columns(app) and "games_json" not in columns(app)
    with app.db.engine.connect() as connection:
        kept = connection.execute(text("SELECT engine, scenario, options_json FROM league WHERE id = 'cup'")).one()
    assert (kept.engine, kept.scenario, json.loads(kept.options_json)) == ("duel", "standard", {"rounds": 4})

    command.upgrade(config, "head")
    app.db.dispose()
    assert {"games_json", "schedule_json"} <= columns(app) and not {"engine", "scenario"} & columns(app)
    league = club.league()
    assert declared_games(league) == [DeclaredGame("duel", "standard", {"rounds": 4})] and cycle_of(league) == [0]
    club.run()
    assert club.league().status == "over" and len(club.games()) == 4
    assert {row.how for row in club.games()} == {"score"}
    assert mails_to(app, PLAYERS[0], "final standings")


def test_the_downgrade_refuses_a_league_of_several_games_and_changes_nothing(db_url, tmp_path):
    app = make_app(tmp_path, db_url, registry=Registry([ScoringDuel(), SkirmishEngine()]))
    Club.found(app, games=(DeclaredGame("duel"), DeclaredGame("skirmish")))
    with pytest.raises(RuntimeError, match="league cup plays 2 games; a database before 0013 keeps one game a "
                                           "league, so it cannot go down"):
        command.downgrade(alembic_config(app.db.engine), "0012")
    app.db.dispose()
    assert "games_json" in columns(app) and "engine" not in columns(app)
    assert len(declared_games(Club(app, "cup", "", "").league())) == 2
