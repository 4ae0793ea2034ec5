"""A scripted Across the Narva game through the whole mail pipeline with a fixed seed (so fixed
dice and chit draws): two turns of keyed orders (ON lines), a typo answered by a receipt, an ASK
that stops the game at a chit and is answered by a script, orders that expire unused.
Every report each role receives is compared with a golden file, so a diff shows any change in what
a player sees.  Regenerate after an intended change with UPDATE_GOLDENS=1 and read the diff.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from moderator.games.narva.engine import engine
from moderator.registry import Registry
from moderator.service.replay import replay_game
from tests.conftest import flat, make_app, outbox_rows, text_of
from tests.golden import compare_with_golden
from tests.mailmaker import player_mail

GOLDEN = Path(__file__).parent / "golden"
ADDRESSES = {"german": "german@players.test", "soviet": "soviet@players.test"}

# Each step: (role, order lines).  The envelope is added from the secrets handed out at JOIN.
SCRIPT = [
    ("soviet", ["ON CHIT 2SH: ACTIVATE 109", "ON HQ 109: ATTACH 1078",
                "ON HQ 109: MOVE 602 TO 23222"]),  # a typo: the receipt names the line, nothing is filed
    ("soviet", ["ON CHIT 2SH: ACTIVATE 109", "ON HQ 109: ATTACH 1078",
                "ON HQ 109: ATTACK 2022 WITH 381 456 466 1078 FULL IL-2M-1",
                "ON HQ 109: ATTACK 1820 WITH 657 749",
                "ON HQ 122: MOVE 1074 TO 1919",  # never used: 122 is not activated this turn
                "STANDING HQ IF CHIT 2SH: ASK", "READY"]),
    ("german", ["ON CHIT 3SS: ACTIVATE 11SS", "ON CHIT WER: ACTIVATE FHH", "READY"]),
    # the second 2nd Shock chit stops the game (ASK): the Soviet answers with a script
    ("soviet", ["ACTIVATE 43", "ATTACH NONE", "ATTACK 2633 WITH 593 743", "ATTACK DONE"]),
    # the third asks again: the Soviet passes and withdraws the ASK
    ("soviet", ["STANDING CLEAR HQ", "PASS"]),
    ("soviet", ["READY"]),
    ("german", ["READY"]),
]


@pytest.fixture
def fixed_randomness(monkeypatch):
    counter = itertools.count(1)
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(32)))
    monkeypatch.setattr("moderator.service.games.new_secret", lambda: f"N{next(counter):03d}-GOLD")


def play(app) -> tuple[dict[str, str], str]:
    created = app.create_game("narva", addresses=ADDRESSES, referee_address="gm@players.test")
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
    soviet, german = flat(reports["soviet"]), flat(reports["german"])
    # the typo was refused with the line named, and nothing of that message was filed
    assert "23222" in soviet and "Nothing was applied" in soviet
    # the keyed orders ran: 109 activated with 1078 attached, and the attack on 2022 was fought
    assert "109/HQ at 2120 activated" in soviet and "Attached: 122/1078" in soviet
    assert "COMBAT at 2022 (Soviet attacking)" in soviet and "COMBAT at 2022 (Soviet attacking)" in german
    # the German sees the activation but not the Soviet's plans
    assert "Soviet activates 109/HQ at 2120" in german
    assert "ON HQ" not in german and "ACTIVATE 11SS" not in soviet
    # the keyed order for the 122nd found no question and expired at the end of turn 1
    assert "KEYED ORDERS THAT WERE NOT USED" in reports["soviet"] and "MOVE 122/1074 TO 1919" in soviet
    result = replay_game(app, game_id)
    assert result.ok, result.mismatches
