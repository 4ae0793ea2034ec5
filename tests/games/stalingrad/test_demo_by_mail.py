"""`moderator demo --game stalingrad`: the bots, filing policies and battle scripts as a careful player
would, play whole games through the mail loop; the goal of issue 14 is measured and printed beside it:
at most 3 mails each player writes per battle and at most 12 per game turn.  The advanced game
(`--option game=advanced`) and the four-player game (`--scenario four-player`) are played to the end too."""

from __future__ import annotations

import collections
import email
import email.policy
import email.utils
import json

import pytest
from typer.testing import CliRunner

from moderator import cli
from moderator.app import App
from moderator.games.stalingrad.engine import engine
from moderator.registry import Registry

runner = CliRunner()


def mails_by_player(out):
    counts: collections.Counter[str] = collections.Counter()
    for path in (out / "mail" / "inbox").glob("*/*"):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        counts[email.utils.parseaddr(str(message["From"]))[1].split("@")[0]] += 1
    return counts


def battles_and_turns(out):
    archive = json.loads((out / "archive" / "archive.json").read_text())
    events = [e for step in archive["log"] if step["kind"] == "answer" for e in step["payload"]["events"]]
    battles = sum(1 for e in events if e["kind"] == "battle_begins")
    turns = max([e["data"]["turn"] for e in events if e["kind"] == "turn_begins"] or [1])
    return battles, turns


@pytest.mark.parametrize("seed", [3, 4])
def test_the_bots_play_a_whole_game_within_the_mail_goal(tmp_path, monkeypatch, seed, capsys):
    monkeypatch.setattr(cli._State, "factory", lambda settings=None, clock=None, **_: App(
        settings, registry=Registry([engine]), clock=clock))
    out = tmp_path / "demo"
    result = runner.invoke(cli.app_cli, ["demo", "--game", "stalingrad", "--out", str(out), "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    assert "finished" in result.output
    mails = mails_by_player(out)
    battles, turns = battles_and_turns(out)
    assert battles >= 1 and set(mails) == {"german", "soviet"}
    with capsys.disabled():
        for role, sent in sorted(mails.items()):
            print(f"\n  stalingrad seed {seed}: {role} wrote {sent} mails for {battles} battles in {turns} turns: "
                  f"{sent / battles:.1f} a battle (goal <= 3), {sent / turns:.1f} a turn (goal <= 12)")
    for sent in mails.values():
        assert sent / battles <= 3 and sent / turns <= 12


def demo(tmp_path, monkeypatch, *args):
    monkeypatch.setattr(cli._State, "factory", lambda settings=None, clock=None, **_: App(
        settings, registry=Registry([engine]), clock=clock))
    out = tmp_path / "demo"
    result = runner.invoke(cli.app_cli, ["demo", "--game", "stalingrad", "--out", str(out), "--seed", "3", *args])
    assert result.exit_code == 0, result.output
    assert "finished" in result.output and "verifies" in result.output
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("args", "roles", "turns"), [
    (("--option", "game=advanced"), {"german", "soviet"}, 6),
    (("--scenario", "four-player"), {"paulus", "wietersheim", "lopatin", "saraev"}, 6),
], ids=["advanced", "four-player"])
def test_the_advanced_and_the_four_player_games_play_to_the_end_by_mail(tmp_path, monkeypatch, capsys, args, roles,
                                                                           turns):
    out = demo(tmp_path, monkeypatch, *args)
    archive = json.loads((out / "archive" / "archive.json").read_text())
    assert archive["result"]["winner"] in ("german", "soviet") and archive["scenario"] == engine.info.scenario(
        "four-player" if "four-player" in args else None).name
    mails = mails_by_player(out)
    battles, played = battles_and_turns(out)
    assert set(mails) == roles and battles >= 1 and played <= turns
    for role in roles:  # every seat heard how the game ended
        sent = out / "mail" / "sent" / f"{role}@players.demo"
        assert any("THE RESULT" in path.read_text(errors="replace") for path in sent.glob("*/*")), role
    with capsys.disabled():
        for role, sent in sorted(mails.items()):
            print(f"\n  stalingrad {' '.join(args)}: {role} wrote {sent} mails for {battles} battles in {played} "
                  f"turns: {sent / battles:.1f} a battle (goal <= 3), {sent / played:.1f} a turn (goal <= 12)")
    for sent in mails.values():
        assert sent / battles <= 3 and sent / played <= 12


def test_a_scenario_the_game_does_not_have_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda settings=None, clock=None, **_: App(
        settings, registry=Registry([engine]), clock=clock))
    result = runner.invoke(cli.app_cli, ["demo", "--game", "stalingrad", "--out", str(tmp_path / "d"),
                                         "--scenario", "five-player"])
    assert result.exit_code == 1 and "no scenario 'five-player'" in result.output
