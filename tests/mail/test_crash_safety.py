"""Crash safety against the real servers: the daemon is killed with SIGKILL at random points while
it processes hundreds of order mails for dozens of games, and restarted.  Afterwards every order
mail was applied exactly once and every report delivered exactly once."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import ssl
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import aiosmtplib
from sqlmodel import select

from moderator.service.replay import replay_game
from moderator.store.models import InboundMail, Outbox, Submission
from tests.mail.conftest import real_app, real_settings
from tests.mail.test_real_servers import order_mail

GAMES = 20
MAILS_PER_PLAYER = 10
ROOT = Path(__file__).resolve().parents[2]


def settings_file(stack, tmp_path: Path) -> Path:
    settings = real_settings(stack, tmp_path, poll_seconds=1)
    data = json.loads(settings.model_dump_json())
    data["imap"]["password"] = "moderator-pw"
    data["smtp"]["password"] = "moderator-pw"
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(data))
    return path


async def submit_all(stack, mails: list[tuple[str, bytes]]) -> None:
    context = ssl.create_default_context(cafile=stack.ca)
    by_user: dict[str, list[bytes]] = {}
    for user, raw in mails:
        by_user.setdefault(user, []).append(raw)
    for user, raws in by_user.items():
        client = aiosmtplib.SMTP(hostname=stack.host, port=stack.smtp_port, start_tls=True, tls_context=context)
        await client.connect()
        await client.login(stack.address(user), f"{user}-pw")
        for raw in raws:
            await client.sendmail(stack.address(user), [stack.address("moderator")], raw)
        await client.quit()


def start_daemon(path: Path, log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.mail.crash_daemon", str(path)], cwd=ROOT,
                            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def quiet(app) -> bool:
    with app.db.session() as session:
        inbound_new = session.exec(select(InboundMail).where(InboundMail.status == "new")).all()
        unsent = session.exec(select(Outbox).where(Outbox.status != "sent")).all()
    return not inbound_new and not unsent


def test_sigkill_at_random_points_loses_and_repeats_nothing(clean_mail, tmp_path):
    stack = clean_mail
    rng = random.Random(7)
    app = real_app(stack, tmp_path, poll_seconds=1)
    games = []
    for g in range(GAMES):
        north, south = f"player{2 * g + 1:02d}", f"player{2 * g + 2:02d}"
        created = app.create_game("duel", addresses={"north": stack.address(north), "south": stack.address(south)},
                                  options={"rounds": 12}, invite=False)
        for user, role in ((north, "north"), (south, "south")):
            outcome = app.receive(order_mail(stack, user, f"JOIN {created.invitations[role]}\n"))
            assert outcome.status == "joined"
        games.append((created.game_id, north, south))
    secrets = {}
    from moderator.store.models import Seat
    with app.db.session() as session:
        for seat in session.exec(select(Seat)):
            secrets[(seat.game_id, seat.role)] = seat.secret
    mails = []
    for game_id, north, south in games:
        for user, role in ((north, "north"), (south, "south")):
            for n in range(MAILS_PER_PLAYER):
                # A player's next mail never repeats the orders of the one before: the same orders
                # again would be taken for a resend (docs/design-notes.md, "Resent orders").
                orders = "REST" if n % 2 == 0 else "IF HP_BELOW 9: REST"
                body = f"GAME {game_id}\nROLE {role}\nSECRET {secrets[(game_id, role)]}\n{orders}\n# mail {n}\n"
                mails.append((user, order_mail(stack, user, body, subject=f"orders {n}")))
    order_ids = [m[1].split(b"Message-ID: ")[1].split(b"\r\n")[0].decode() for m in mails]
    asyncio.run(submit_all(stack, mails))
    stack.wait_for("moderator", len(mails), timeout=60)
    path = settings_file(stack, tmp_path)
    kills = 0
    with open(tmp_path / "daemon.log", "w") as log:
        deadline = time.monotonic() + 240
        while kills < 12 and time.monotonic() < deadline:
            daemon = start_daemon(path, log)
            time.sleep(rng.uniform(0.8, 2.5))
            daemon.send_signal(signal.SIGKILL)
            daemon.wait()
            kills += 1
        daemon = start_daemon(path, log)  # the last run is allowed to finish
        try:
            while time.monotonic() < deadline and not (quiet(app) and not stack.messages("moderator")):
                time.sleep(1)
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=30)
    assert kills >= 10
    assert quiet(app), "the daemon did not finish processing and sending"
    # every order mail stored once, processed once, answered by one submission
    with app.db.session() as session:
        inbound = session.exec(select(InboundMail)).all()
        submissions = session.exec(select(Submission)).all()
        outbox = session.exec(select(Outbox)).all()
    by_id = Counter(row.message_id for row in inbound)
    assert all(by_id[mid] == 1 for mid in order_ids), Counter(by_id[mid] for mid in order_ids)
    assert {row.status for row in inbound if row.message_id in order_ids} == {"done"}
    per_mail = Counter(s.inbound_id for s in submissions)
    # an accepted order mail has exactly one submission; one refused (the game had ended) has none
    wrong = [(row.id, row.outcome[:120], per_mail[row.id]) for row in inbound if row.message_id in order_ids
             and per_mail[row.id] != (1 if row.outcome.startswith("applied") else 0)]
    assert not wrong, wrong[:5]
    assert sum(1 for row in inbound if row.outcome.startswith("applied")) > len(mails) // 2
    assert stack.messages("moderator") == [] and len(stack.messages("moderator", "Processed")) == len(mails)
    # every report and receipt delivered exactly once (delivery is asynchronous: wait until the
    # mailboxes hold at least one copy of every message, then count)
    settle = time.monotonic() + 60
    while True:
        delivered: Counter = Counter()
        for n in range(1, 2 * GAMES + 1):
            for message in stack.messages(f"player{n:02d}"):
                delivered[str(message["Message-ID"])] += 1
        if all(delivered[row.message_id] for row in outbox) or time.monotonic() > settle:
            break
        time.sleep(1)
    for row in outbox:
        assert delivered[row.message_id] == 1, (row.recipient, row.kind, delivered[row.message_id])
    # and every game's log still replays to the same states and reports
    for game_id, _, _ in games:
        assert replay_game(app, game_id).ok
