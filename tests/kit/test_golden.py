"""The golden playthrough of every registered game: a scripted game through the whole mail pipeline
with a fixed seed (so fixed dice), every report each role receives compared with a golden file (a
diff shows any change in what a player sees), and the game replayed byte for byte.

A game's script and golden files live in tests/playthroughs/<game id>/: `script.yaml` (the mails
each role sends, in order; `wait_hours` lets deadlines pass; phrases the reports must and must not
contain) and one `<role>.txt` per role.  A game without a script fails here: writing one is part of
adding a game.  A game may have further playthroughs (`EXTRA`: another scenario or rule options, named
in the script as `scenario:` and `options:`), each in a directory of its own.  Regenerate the golden
files after an intended change with UPDATE_GOLDENS=1 and read the diff.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from moderator.registry import Registry
from tests.conftest import flat, make_app, outbox_rows, text_of
from tests.golden import compare_with_golden
from tests.kit.games import EVERY, game_id
from tests.mailmaker import player_mail

PLAYTHROUGHS = Path(__file__).resolve().parents[1] / "playthroughs"
#: further playthroughs: directory -> the game id it plays (The Hell of Stalingrad's four-player scenario)
EXTRA = {"stalingrad4": "stalingrad"}


def script_of(engine: Any) -> dict[str, Any]:
    path = PLAYTHROUGHS / engine.info.id / "script.yaml"
    if not path.exists():
        pytest.fail(f"{engine.info.id} has no golden playthrough: write {path} (see docs/adding-a-game.md)",
                    pytrace=False)
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def play(app: Any, engine: Any, script: dict[str, Any]) -> tuple[dict[str, str], str]:
    scenario = script.get("scenario")
    roles = engine.info.roles(scenario)
    addresses = {role: f"{role}@players.test" for role in roles}
    created = app.create_game(engine.info.id, scenario, options=script.get("options"), addresses=addresses,
                              referee_address="gm@players.test")
    secrets = {}
    for role, address in addresses.items():
        outcome = app.receive(player_mail(address, f"JOIN {created.invitations[role]}\nENTROPY {role}\n"))
        secrets[role] = outcome.replies[0].raw.split(b"Your secret is ")[1][:9].decode()
    for number, step in enumerate(script["steps"]):
        if "wait_hours" in step:
            app.clock.advance(hours=step["wait_hours"])
            app.run_due()
            continue
        role = step["role"]
        body = f"GAME {created.game_id}\nROLE {role}\nSECRET {secrets[role]}\n" + "\n".join(step["lines"]) + "\n"
        app.clock.advance(hours=1)
        app.receive(player_mail(addresses[role], body, subject=f"orders {number}"))
    texts: dict[str, list[str]] = {role: [] for role in roles}
    for row in outbox_rows(app):
        for role, address in addresses.items():
            if row.recipient == address:
                texts[role].append(text_of(row.raw))
    return {role: "\n\f\n".join(parts) for role, parts in texts.items()}, created.game_id


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_the_scripted_game_s_reports_match_the_golden_files(engine, tmp_path, monkeypatch):
    played_as_scripted(engine, PLAYTHROUGHS / engine.info.id, script_of(engine), tmp_path, monkeypatch)


@pytest.mark.parametrize("directory", sorted(EXTRA))
def test_each_further_playthrough_s_reports_match_the_golden_files(directory, tmp_path, monkeypatch):
    engine = next(e for e in EVERY if e.info.id == EXTRA[directory])
    script = yaml.safe_load((PLAYTHROUGHS / directory / "script.yaml").read_text(encoding="utf-8"))
    played_as_scripted(engine, PLAYTHROUGHS / directory, script, tmp_path, monkeypatch)


def played_as_scripted(engine: Any, directory: Path, script: dict[str, Any], tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The script played through the mail pipeline with fixed secrets; every role's mail compared with its
    golden file in `directory`."""
    counter = itertools.count(1)
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(32)))
    prefix = script["secret_prefix"]
    monkeypatch.setattr("moderator.service.games.new_secret", lambda: f"{prefix}{next(counter):03d}-GOLD")
    # A notice's Message-ID has a random part, and the report after it replies to it: that report's
    # log entry, and so the log head every later report prints (issue 13), would change each run.
    salts = itertools.count(1)
    monkeypatch.setattr("moderator.service.notices.secrets",
                        SimpleNamespace(token_hex=lambda n: f"{next(salts):0{2 * n}x}"))
    app = make_app(tmp_path, registry=Registry([engine]), orders_address="moderator@referee.test",
                   domain="referee.test")
    reports, game = play(app, engine, script)
    for role, text in reports.items():
        compare_with_golden(directory / f"{role}.txt", text)
    for role, phrases in (script.get("expect") or {}).items():
        for phrase in phrases:
            assert phrase in flat(reports[role]), f"{role}'s reports lack {phrase!r}"
    for role, phrases in (script.get("absent") or {}).items():
        for phrase in phrases:
            assert phrase not in flat(reports[role]), f"{role}'s reports show {phrase!r}"
    result = app.replayer.replay(game)
    assert result.ok, result.mismatches
