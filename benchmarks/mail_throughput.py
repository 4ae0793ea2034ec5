"""Benchmark (not a test): end-to-end mail throughput against the real servers, as a ratio.

    bash scripts/mailstack.sh up && . /tmp/moderator-test/mail/env.sh
    .venv/bin/python benchmarks/mail_throughput.py [ORDERS]

1. Raw: the same N order mails are fetched by IMAP, and as many messages as the moderator sent, of
   the moderator's median report size, are sent by SMTP (one connection each way, no processing):
   N / time.  "The same messages" both ways: a Duel order produces a report to each player, so the
   raw run sends that many too.
2. Moderator: the N order mails are read, stored, parsed, applied to their games, logged, reported
   and every resulting mail sent (reports go to both players of a game): N / time.
Each moderator run is compared with the mean of a raw run just before and just after it (the
machine's speed drifts); prints both rates and moderator/raw, over seven repetitions (medians).
Goal: at least 0.5.
"""

from __future__ import annotations

import asyncio
import os
import ssl
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiosmtplib  # noqa: E402
from sqlmodel import select  # noqa: E402

from moderator.store.models import Outbox, Seat  # noqa: E402
from tests.mail.conftest import MailStack, real_app  # noqa: E402
from tests.mail.test_crash_safety import submit_all  # noqa: E402
from tests.mail.test_real_servers import order_mail  # noqa: E402

GAMES = 10
REPETITIONS = 7


def stack_from_env() -> MailStack:
    env = os.environ
    if "MAILSTACK_HOST" not in env:
        sys.exit("start the mail stack first: bash scripts/mailstack.sh up && . /tmp/moderator-test/mail/env.sh")
    return MailStack(env["MAILSTACK_HOST"], int(env["MAILSTACK_IMAP_PORT"]), int(env["MAILSTACK_SMTP_PORT"]),
                     int(env["MAILSTACK_SMTPS_PORT"]), int(env["MAILSTACK_IMAPS_PORT"]), env["MAILSTACK_DOMAIN"],
                     env["MAILSTACK_CA"], env["MAILSTACK_DOVECOT_CONF"])


def settle(timeout: float = 60) -> None:
    """Wait until Postfix has delivered everything it accepted, so each timed phase starts with an
    idle mail server (deliveries left over from one phase would slow the next one down)."""
    spool = Path(os.environ["MAILSTACK_DIR"]) / "postfix" / "spool"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(path.is_file() for queue in ("maildrop", "incoming", "active", "deferred")
                   for path in (spool / queue).rglob("*")):
            break
        time.sleep(0.05)
    time.sleep(0.5)  # Dovecot finishes filing what the last LMTP session handed it


def prepare(stack: MailStack, orders: int):
    """Fresh mailboxes, a fresh moderator with GAMES started games, and the order mails."""
    stack.reset()
    app = real_app(stack, Path(tempfile.mkdtemp()), poll_seconds=1)
    games = []
    for g in range(GAMES):
        north, south = f"player{2 * g + 1:02d}", f"player{2 * g + 2:02d}"
        created = app.create_game("duel", addresses={"north": stack.address(north), "south": stack.address(south)},
                                  options={"rounds": 12}, invite=False)
        for user, role in ((north, "north"), (south, "south")):
            app.receive(order_mail(stack, user, f"JOIN {created.invitations[role]}\n"))
        games.append((created.game_id, north, south))
    app.drain_outbox()
    stack.reset()
    with app.db.session() as session:
        secrets = {(s.game_id, s.role): s.secret for s in session.exec(select(Seat))}
    mails = []
    for n in range(orders):
        game_id, north, south = games[n % GAMES]
        user, role = (north, "north") if (n // GAMES) % 2 == 0 else (south, "south")
        body = f"GAME {game_id}\nROLE {role}\nSECRET {secrets[(game_id, role)]}\nREST\n"
        mails.append((user, order_mail(stack, user, body, subject=f"orders {n}")))
    return app, mails


def raw_rate(stack: MailStack, mails, report_size: int, sends: int) -> float:
    from imapclient import IMAPClient

    asyncio.run(submit_all(stack, mails))
    stack.wait_for("moderator", len(mails), timeout=60)
    settle()
    filler = ("x" * 70 + "\n") * max(1, report_size // 71)
    start = time.perf_counter()
    client = IMAPClient(stack.host, port=stack.imap_port, ssl=False, timeout=30)
    client.starttls(ssl.create_default_context(cafile=stack.ca))
    client.login(stack.address("moderator"), "moderator-pw")
    client.select_folder("INBOX")
    uids = client.search(["ALL"])
    fetched = client.fetch(uids, ["BODY.PEEK[]"])
    client.move(uids, "Processed")
    client.logout()

    async def send_all():
        smtp = aiosmtplib.SMTP(hostname=stack.host, port=stack.smtp_port, start_tls=True,
                               tls_context=ssl.create_default_context(cafile=stack.ca))
        await smtp.connect()
        await smtp.login(stack.address("moderator"), "moderator-pw")
        for n in range(sends):
            user = mails[n % len(mails)][0]
            body = f"Subject: raw {n}\r\nFrom: {stack.address('moderator')}\r\n\r\n{filler}".encode()
            await smtp.sendmail(stack.address("moderator"), [stack.address(user)], body)
        await smtp.quit()

    asyncio.run(send_all())
    elapsed = time.perf_counter() - start
    assert len(fetched) == len(mails)
    return len(mails) / elapsed


def moderator_rate(stack: MailStack, app, mails) -> tuple[float, int]:
    asyncio.run(submit_all(stack, mails))
    stack.wait_for("moderator", len(mails), timeout=60)
    settle()
    start = time.perf_counter()
    while True:
        app.poll_once()
        app.run_due()
        app.drain_outbox()
        with app.db.session() as session:
            pending = session.exec(select(Outbox).where(Outbox.status != "sent")).all()
        if not pending and not stack.messages("moderator"):
            break
    elapsed = time.perf_counter() - start
    with app.db.session() as session:
        sent = len(session.exec(select(Outbox)).all())
    return len(mails) / elapsed, sent


def main() -> None:
    orders = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    stack = stack_from_env()

    def moderated_run():
        app, mails = prepare(stack, orders)
        rate, sent = moderator_rate(stack, app, mails)
        with app.db.session() as session:
            size = int(statistics.median(len(r.raw) for r in session.exec(select(Outbox))))
        return rate, sent, size

    def raw_run(sent: int, size: int) -> float:
        _, mails = prepare(stack, orders)
        return raw_rate(stack, mails, size, sent)

    # The machine's speed drifts over seconds (other tenants, disk): each moderator run is
    # bracketed by a raw run before and after it, and compared with their mean.
    _, sent, size = moderated_run()  # warm-up: how many messages of what size the raw run sends
    ratios, moderated_rates, raw_rates = [], [], []
    before = raw_run(sent, size)
    for repetition in range(REPETITIONS):
        moderated, sent, size = moderated_run()
        after = raw_run(sent, size)
        raw = (before + after) / 2
        ratio = moderated / raw
        ratios.append(ratio)
        moderated_rates.append(moderated)
        raw_rates.append(raw)
        print(f"run {repetition + 1}: moderator {moderated:6.1f} orders/s ({sent} mails sent), "
              f"raw fetch+send {before:6.1f} before, {after:6.1f} after (mean {raw:6.1f}) messages/s, "
              f"ratio {ratio:.2f}")
        before = after
    print(f"medians: moderator {statistics.median(moderated_rates):.1f} orders/s, raw "
          f"{statistics.median(raw_rates):.1f} messages/s")
    print(f"median ratio moderator/raw over {REPETITIONS} runs of {orders} orders: {statistics.median(ratios):.2f} (goal >= 0.5)")


if __name__ == "__main__":
    main()
