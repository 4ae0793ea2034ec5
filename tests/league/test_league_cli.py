"""`moderator league ...` (issue 15): declare a league, add and seed members, start it, show it and
write its page from the console; the referee commands go through the same desk as by mail."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from moderator import cli
from tests.conftest import flat
from tests.league.club import mails_to

runner = CliRunner()


@pytest.fixture
def cli_app(app, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda **_: app)
    return app


def invoke(*args: str):
    return runner.invoke(cli.app_cli, list(args), terminal_width=200)


def test_a_league_is_declared_filled_started_and_shown_from_the_console(cli_app):
    made = invoke("league", "create", "cup", "--game", "duel", "--name", "Duel Cup", "--referee", "ref@club.test",
                  "--format", "round-robin", "--tie-break", "sonneborn-berger", "--tie-break", "wins")
    assert made.exit_code == 0, made.output
    token = re.search(r"JOIN LEAGUE ([A-Z0-9]{4}-[A-Z0-9]{4})", made.output)
    assert token and "Referee secret" in made.output
    for name in ("ann", "bob", "cy"):
        assert invoke("league", "add", "cup", f"{name}@club.test", "--name", name.title()).exit_code == 0
    assert mails_to(cli_app, "ann@club.test", "Your league secret is")
    assert "seeded 1" in invoke("league", "seed", "cup", "cy@club.test", "1").output
    started = invoke("league", "start", "cup")
    assert started.exit_code == 0 and "cup: round 1 started" in started.output, started.output
    shown = flat(invoke("league", "show", "cup").output)
    assert "round 1 of 3" in shown and "S-B" in shown and "Wins" in shown and "bye" in shown
    assert "cup: Duel Cup (duel, round-robin) running" in invoke("league", "list").output
    late = invoke("league", "seed", "cup", "ann@club.test", "2")
    assert late.exit_code == 1 and "error: SEED: seeds are set before the league starts" in flat(late.output)
    page = invoke("league", "page", "cup")
    assert page.exit_code == 0 and (cli_app.settings.data_dir / "leagues" / "cup" / "index.html").exists()


def test_moderator_demo_league_plays_a_league_of_two_games_and_leaves_a_seat_to_the_bot(tmp_path, monkeypatch):
    from moderator.app import App
    from moderator.registry import Registry
    from tests.testgame.duel import engine as duel
    from tests.testgame.skirmish.engine import engine as skirmish

    monkeypatch.setattr(cli._State, "factory", lambda settings=None, clock=None, **_: App(
        settings, registry=Registry([duel, skirmish]), clock=clock))
    out = tmp_path / "demo"
    result = invoke("demo", "--league", "--game", "duel", "--game", "skirmish", "--out", str(out), "--seed", "2")
    assert result.exit_code == 0, result.output
    output = flat(result.output)
    assert "League Demo Club League (Duel (test game) and Skirmish (test game)) finished after 3 rounds" in output
    assert "Rounds played: 1. Duel (test game); 2. Skirmish (test game); 3. Duel (test game)." in output
    assert "Player 8" in output and "North/Red" in output
    assert re.search(r"Round 2, skirmish-\d+ \(Skirmish \(test game\)\): reserve\d@club.demo took over", output)
    assert re.search(r"Round 3, duel-\d+ \(Duel \(test game\)\): no reserve accepted the seat '(north|south)' of "
                     r"player\d@club.demo, so the game's bot played it on.", output)
    page = out / "leagues" / "demo-league" / "index.html"
    assert f"League page to open: {page}" in output and "Final standings" in page.read_text()
    several = invoke("demo", "--game", "duel", "--game", "skirmish", "--out", str(tmp_path / "one"))
    assert several.exit_code == 1 and "a game demo plays one game" in flat(several.output)
