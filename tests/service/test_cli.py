"""The command line: every command answers --help, and the twins of the daemon's jobs work."""

import re

import pytest
from typer.testing import CliRunner

from moderator import cli
from moderator.app import App
from moderator.registry import Registry
from tests.conftest import make_app, seat_duel
from tests.mailmaker import player_mail
from tests.testgame.duel import engine as duel

runner = CliRunner()


@pytest.fixture
def cli_app(tmp_path, monkeypatch):
    shared = make_app(tmp_path)

    def factory(settings=None, clock=None, **_):
        if settings is not None:  # the demo builds its own settings and clock
            return App(settings, registry=Registry([duel]), clock=clock)
        return shared

    monkeypatch.setattr(cli._State, "factory", factory)
    monkeypatch.setattr(cli._State, "registry", shared.registry)
    return shared


@pytest.mark.parametrize("command", [[], ["games"], ["new-game"], ["mail", "process"], ["mail", "poll"],
                                     ["mail", "retry"],
                                     ["turn", "run"], ["turn", "replay"], ["verify"], ["demo"], ["serve"],
                                     ["referee"], ["archive"], ["db", "upgrade"]])
def test_every_command_has_help(command):
    result = runner.invoke(cli.app_cli, command + ["--help"])
    assert result.exit_code == 0 and "Usage" in result.output


def test_new_game_prints_tokens_and_commitment(cli_app):
    result = runner.invoke(cli.app_cli, ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test",
                                         "--referee", "r@x.test", "--option", "rounds=4"])
    assert result.exit_code == 0, result.output
    assert "Created duel-0001" in result.output
    assert re.search(r"invitation for north: JOIN [A-Z0-9]{4}-[A-Z0-9]{4}", result.output)
    assert re.search(r"Seed commitment: [0-9a-f]{64}", result.output)


def test_new_game_refuses_an_unknown_option(cli_app):
    result = runner.invoke(cli.app_cli, ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test",
                                         "--option", "speed=9"])
    assert result.exit_code == 1 and "no option 'speed'" in result.output


def test_mail_process_dry_run_prints_the_reply_and_changes_nothing(cli_app, tmp_path):
    seated = seat_duel(cli_app)
    before = seated.fingerprint()
    eml = tmp_path / "orders.eml"
    eml.write_bytes(player_mail(seated.addresses["north"],
                                f"GAME {seated.game_id}\nROLE north\nSECRET {seated.secrets['north']}\nREST\n"))
    result = runner.invoke(cli.app_cli, ["mail", "process", str(eml), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "applied" in result.output and "North rests" in result.output
    assert seated.fingerprint() == before
    result = runner.invoke(cli.app_cli, ["mail", "process", str(eml)])
    assert result.exit_code == 0 and seated.fingerprint() != before


def test_turn_replay_exit_code(cli_app):
    seated = seat_duel(cli_app)
    seated.send("north", "REST\n")
    result = runner.invoke(cli.app_cli, ["turn", "replay", seated.game_id])
    assert result.exit_code == 0, result.output
    assert "0 mismatch" not in result.output and "reports compared" in result.output


def test_referee_cli_pause_and_status(cli_app):
    seated = seat_duel(cli_app)
    result = runner.invoke(cli.app_cli, ["referee", seated.game_id, "PAUSE"])
    assert result.exit_code == 0 and "paused" in result.output
    result = runner.invoke(cli.app_cli, ["referee", seated.game_id, "STATUS"])
    assert "paused" in result.output


def test_demo_plays_a_duel_to_the_end_and_its_archive_verifies(cli_app, tmp_path):
    out = tmp_path / "demo"
    result = runner.invoke(cli.app_cli, ["demo", "--game", "duel", "--out", str(out), "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "finished" in result.output and "verifies" in result.output
    verify = runner.invoke(cli.app_cli, ["verify", str(out / "archive")])
    assert verify.exit_code == 0, verify.output
    player_mails = list((out / "mail" / "inbox").glob("*/*"))
    reports = list((out / "mail" / "sent").glob("*/*/*"))
    assert len(player_mails) > 5 and len(reports) > 10


def test_archive_writes_a_browsable_html_archive_with_the_full_reveal(cli_app, tmp_path):
    from tests.service.test_store_and_replay import play_random_game

    seated = seat_duel(cli_app)
    play_random_game(seated, seed=4)
    out = tmp_path / "archive"
    result = runner.invoke(cli.app_cli, ["archive", seated.game_id, "--out", str(out)])
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text()
    pages = sorted(out.glob("phase-*.html"))
    assert len(pages) >= 4 and all(page.name in index for page in pages)
    assert "Seed, revealed at the end" in index and "archive.json" in index
    reveal = (out / "reveal.html").read_text()
    assert "Hand" in reveal or "hand" in reveal
    verify = runner.invoke(cli.app_cli, ["verify", str(out)])
    assert verify.exit_code == 0, verify.output


def test_archive_of_a_running_game_shows_only_the_observer_view(cli_app, tmp_path):
    seated = seat_duel(cli_app)
    out = tmp_path / "live"
    result = runner.invoke(cli.app_cli, ["archive", seated.game_id, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert not (out / "reveal.html").exists() and not (out / "archive.json").exists()
    text = " ".join(p.read_text() for p in out.glob("*.html"))
    for card in seated.state()["hands"]["north"] + seated.state()["hands"]["south"]:
        assert card not in text
