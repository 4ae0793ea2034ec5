"""A scripted VMT game through the whole mail pipeline with a fixed seed (so fixed dice); every
report each role receives is compared with a golden file, so a diff shows any change in what a
player sees.  Regenerate after an intended change with UPDATE_GOLDENS=1 and read the diff.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from moderator.games.vmt.engine import engine
from moderator.registry import Registry
from moderator.service.replay import replay_game
from tests.conftest import make_app, outbox_rows, text_of
from tests.golden import compare_with_golden
from tests.mailmaker import player_mail

GOLDEN = Path(__file__).parent / "golden"
ADDRESSES = {"axis": "axis@players.test", "soviet": "soviet@players.test"}

# Each step: (role, order lines).  The envelope is added from the secrets handed out at JOIN.
SCRIPT = [
    ("axis", ["DISCARD NONE", "PLAY HEAVY_ARTILLERY A08", "END"]),
    ("soviet", ["STANDING support IF HOLD MORTARS: SUPPORT MORTARS", "ASK retreat"]),
    ("axis", ["ASSAULT GROUP A04 TO A8", "END"]),  # a typo: the receipt names the line and the fix
    ("axis", ["ASSAULT GROUP A04 TO A08", "END"]),
    ("soviet", ["PLAY SOVIET_FIELD_ARTILLERY A04", "END"]),
    ("axis", ["PASS DISCARD REDEPLOYMENT"]),
    ("soviet", ["PASS"]),
]


@pytest.fixture
def fixed_randomness(monkeypatch):
    counter = itertools.count(1)
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(32)))
    monkeypatch.setattr("moderator.service.games.new_secret", lambda: f"T{next(counter):03d}-GOLD")


def play(app) -> dict[str, str]:
    created = app.create_game("vmt", addresses=ADDRESSES, referee_address="gm@players.test")
    secrets = {}
    for role, address in ADDRESSES.items():
        outcome = app.receive(player_mail(address, f"JOIN {created.invitations[role]}\nENTROPY {role}\n"))
        secrets[role] = outcome.replies[0].raw.split(b"Your secret is ")[1][:9].decode()
    for number, (role, lines) in enumerate(SCRIPT):
        body = f"GAME {created.game_id}\nROLE {role}\nSECRET {secrets[role]}\n" + "\n".join(lines) + "\n"
        app.clock.advance(hours=1)
        app.receive(player_mail(ADDRESSES[role], body, subject=f"orders {number}"))
    texts: dict[str, list[str]] = {role: [] for role in ADDRESSES}
    for row in outbox_rows(app):
        for role, address in ADDRESSES.items():
            if row.recipient == address:
                texts[role].append(text_of(row.raw))
    return {role: "\n\f\n".join(parts) for role, parts in texts.items()}, created.game_id


def test_scripted_game_reports_match_the_golden_files(tmp_path, fixed_randomness):
    app = make_app(tmp_path, registry=Registry([engine]), orders_address="moderator@referee.test",
                   domain="referee.test")
    reports, game_id = play(app)
    for role, text in reports.items():
        compare_with_golden(GOLDEN / f"{role}.txt", text)
    # the scripted play really happened: the combat was fought and the Soviet was asked to retreat
    assert "COMBAT in A08" in reports["axis"] and "COMBAT in A08" in reports["soviet"]
    assert "Soviet wins the combat in A08" in reports["soviet"]
    assert "no area 'A8'; did you mean 'A08'" in " ".join(reports["axis"].split())
    result = replay_game(app, game_id)
    assert result.ok, result.mismatches
