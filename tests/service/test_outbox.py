"""The outbox job (issue 4, DESIGN §6): retries with exponential backoff, a cap on attempts, and
each player's mail handed over in the order it was written, even when one message must wait."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import aiosmtplib
from sqlmodel import select

from moderator.app import App
from moderator.clock import ManualClock, as_utc
from moderator.core.errors import MailMaybeDelivered, MailServerUnavailable
from moderator.mail.smtp import SmtpBatch, SmtpOutbound
from moderator.registry import Registry
from moderator.service import outbox
from moderator.settings import Settings, SmtpSettings
from moderator.store.models import Outbox
from moderator.store.outbox import claim
from tests.testgame.duel import engine as duel_engine


class FlakyTransport:
    """Records what it was handed; refuses mail to the addresses in `down`."""

    def __init__(self):
        self.down: set[str] = set()
        self.handed: list[tuple[str, bytes]] = []

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        if recipient in self.down:
            raise ConnectionError(f"{recipient}: 451 try again later")
        self.handed.append((recipient, raw))


def app_with(tmp_path, transport) -> App:
    settings = Settings(data_dir=tmp_path, orders_address="moderator@demo.test", domain="demo.test",
                        database_url=f"sqlite:///{tmp_path / 'm.db'}")
    app = App(settings, registry=Registry([duel_engine]), clock=ManualClock(), outbound=transport)
    app.migrate()
    return app


def queue(app: App, *mails: tuple[str, str]) -> None:
    with app.db.session() as session:
        for recipient, body in mails:
            session.add(Outbox(recipient=recipient, message_id=f"<{body}@demo.test>", subject=body,
                               kind="report", raw=body.encode(), created_at=app.clock.now(),
                               next_attempt_at=app.clock.now()))


def rows(app: App) -> dict[str, Outbox]:
    with app.db.session() as session:
        return {row.subject: row for row in session.exec(select(Outbox))}


def test_a_failed_send_is_retried_after_an_exponential_backoff(tmp_path):
    transport = FlakyTransport()
    app = app_with(tmp_path, transport)
    transport.down.add("ann@x.test")
    queue(app, ("ann@x.test", "report-1"))
    waits = []
    for attempt in range(1, 4):
        assert app.drain_outbox() == 0
        row = rows(app)["report-1"]
        assert (row.status, row.attempts) == ("pending", attempt)
        assert "451" in row.last_error
        waits.append(as_utc(row.next_attempt_at) - app.clock.now())
        app.clock.advance(seconds=waits[-1].total_seconds() - 1)
        assert app.drain_outbox() == 0 and rows(app)["report-1"].attempts == attempt  # not yet due
        app.clock.advance(seconds=1)
    assert waits == [timedelta(seconds=30), timedelta(seconds=60), timedelta(seconds=120)]  # doubling
    transport.down.clear()
    assert app.drain_outbox() == 1
    assert rows(app)["report-1"].status == "sent"
    assert transport.handed == [("ann@x.test", b"report-1")]


def test_a_message_that_keeps_failing_is_given_up_after_the_attempt_cap(tmp_path):
    transport = FlakyTransport()
    app = app_with(tmp_path, transport)
    transport.down.add("ann@x.test")
    queue(app, ("ann@x.test", "report-1"))
    for _ in range(outbox.MAX_ATTEMPTS):
        app.drain_outbox()
        app.clock.advance(hours=2)
    row = rows(app)["report-1"]
    assert (row.status, row.attempts) == ("failed", outbox.MAX_ATTEMPTS)
    transport.down.clear()
    assert app.drain_outbox() == 0 and transport.handed == []  # the referee decides what happens now


def test_later_mail_to_an_address_waits_behind_a_failed_one_and_others_are_not_held(tmp_path):
    transport = FlakyTransport()
    app = app_with(tmp_path, transport)
    transport.down.add("ann@x.test")
    queue(app, ("ann@x.test", "ann-1"), ("bob@x.test", "bob-1"), ("ann@x.test", "ann-2"))
    assert app.drain_outbox() == 1
    state = rows(app)
    assert state["bob-1"].status == "sent"
    assert (state["ann-1"].status, state["ann-1"].attempts) == ("pending", 1)
    # ann-2 was never tried: no attempt is counted against it, and it stays behind ann-1.
    assert (state["ann-2"].status, state["ann-2"].attempts) == ("pending", 0)
    queue(app, ("ann@x.test", "ann-3"))
    transport.down.clear()
    assert app.drain_outbox() == 0  # ann-1 is not due yet, so ann-2 and ann-3 wait too
    app.clock.advance(seconds=30)
    assert app.drain_outbox() == 3
    assert [body for to, body in transport.handed if to == "ann@x.test"] == [b"ann-1", b"ann-2", b"ann-3"]


class FakeClient:
    """Stands in for an aiosmtplib connection: random delays, an optional failure."""

    connects = 0

    def __init__(self, log: list, fail_on: set[bytes]):
        self.log, self.fail_on = log, fail_on
        FakeClient.connects += 1

    async def sendmail(self, sender, recipients, raw):
        await asyncio.sleep(random.random() / 500)
        if raw in self.fail_on:
            raise aiosmtplib.SMTPDataError(451, "try again later")
        self.log.append((recipients[0], raw))

    async def quit(self):
        return None


def fake_batch(log: list, fail_on: set[bytes]) -> SmtpBatch:
    outbound = SmtpOutbound(SmtpSettings(host="127.0.0.1"), "moderator@demo.test")
    batch = SmtpBatch(outbound)

    async def connect():
        return FakeClient(log, fail_on)

    batch._connect = connect
    return batch


def test_parallel_smtp_connections_keep_each_players_mail_in_order(tmp_path):
    random.seed(4)
    log: list = []
    items = [(n, f"{to}-{n}".encode(), to, f"<{n}>") for n in range(60) for to in [f"p{n % 7}@x.test"]]
    FakeClient.connects = 0
    with fake_batch(log, set()) as batch:
        first = batch.send_many(items[:30])
        second = batch.send_many(items[30:])
    assert all(error is None for _, error in first + second)
    for player in {to for _, _, to, _ in items}:
        expected = [raw for _, raw, to, _ in items if to == player]
        assert [raw for to, raw in log if to == player] == expected
    # The connections of the first group are used again by the second (no new handshakes).
    assert FakeClient.connects == SmtpBatch.CONNECTIONS


def test_a_failed_smtp_send_holds_back_that_players_later_mail_only(tmp_path):
    log: list = []
    items = [(1, b"ann-1", "ann@x.test", "<1>"), (2, b"bob-1", "bob@x.test", "<2>"),
             (3, b"ann-2", "ann@x.test", "<3>"), (4, b"bob-2", "bob@x.test", "<4>")]
    with fake_batch(log, {b"ann-1"}) as batch:
        results = dict(batch.send_many(items))
    assert results[2] is None and results[4] is None
    assert "451" in results[1]
    assert results[3].startswith(outbox.WAITS_BEHIND)
    assert [raw for _, raw in log] == [b"bob-1", b"bob-2"]


def test_a_row_taken_by_another_sender_is_not_sent_again(tmp_path):
    app = app_with(tmp_path, FlakyTransport())
    queue(app, ("ann@x.test", "ann-1"))
    now = app.clock.now()
    with app.db.session() as first, app.db.session() as second:
        mine = first.exec(select(Outbox)).one()
        theirs = second.exec(select(Outbox)).one()
        assert claim(first, mine, now)
        first.commit()
        assert not claim(second, theirs, now)  # read before the other claim: refused
    assert rows(app)["ann-1"].attempts == 1


class ServerDown:
    """A transport whose server is unreachable until `up` is set."""

    def __init__(self):
        self.up = False
        self.handed: list[str] = []

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        if not self.up:
            raise MailServerUnavailable("SMTPConnectError: Error connecting to smtp.club.example on port 587")
        self.handed.append(raw.decode())


def test_a_mail_server_outage_never_makes_a_message_give_up(tmp_path):
    """The attempt cap is for a message the server keeps refusing; an outage of the server itself
    (two days here) only delays the mail, retried at most an hour apart, and costs it no attempt:
    a refusal after the outage still has the whole allowance."""
    transport = ServerDown()
    app = app_with(tmp_path, transport)
    queue(app, ("ann@x.test", "report-1"))
    for _ in range(48):
        app.drain_outbox()
        app.clock.advance(hours=1)
    row = rows(app)["report-1"]
    assert (row.status, row.attempts) == ("pending", 0) and row.outages >= 40
    assert row.last_error.startswith(outbox.SERVER_UNAVAILABLE)
    assert as_utc(row.next_attempt_at) - app.clock.now() <= timedelta(hours=1)
    transport.up = True
    app.clock.advance(hours=1)
    assert app.drain_outbox() == 1 and transport.handed == ["report-1"]


def batch_with(connect, sendmail) -> SmtpBatch:
    """A batch whose connections come from `connect()` and send with `sendmail(raw)`."""
    class Client:
        async def sendmail(self, sender, recipients, raw):
            await sendmail(raw)

        async def quit(self):
            return None

        is_connected = True

    async def open_connection():
        await connect()
        return Client()

    batch = SmtpBatch(SmtpOutbound(SmtpSettings(host="127.0.0.1"), "moderator@demo.test"))
    batch.outbound.open = open_connection
    return batch


async def fine(*_):
    return None


def raises(error):
    async def fail(*_):
        raise error
    return fail


def test_smtp_failures_are_read_as_the_server_down_a_message_maybe_gone_or_a_refusal():
    item = [(1, b"report", "ann@x.test", "<1>")]
    down = [aiosmtplib.SMTPConnectError("Error connecting to smtp.club.example on port 587"),
            aiosmtplib.SMTPAuthenticationError(535, "5.7.8 Authentication credentials invalid"),
            aiosmtplib.SMTPResponseException(421, "4.3.2 Service shutting down"),
            ConnectionRefusedError(111, "Connection refused")]
    for error in down:  # before the message was offered: the server is the trouble
        with batch_with(raises(error), fine) as batch:
            [(_, failure)] = batch.send_many(item)
        assert failure.startswith(outbox.SERVER_UNAVAILABLE), error
    broken = [aiosmtplib.SMTPServerDisconnected("Connection lost"),
              aiosmtplib.SMTPReadTimeoutError("Timed out waiting for server response")]
    for error in broken:  # while the server took it: it may have gone
        with batch_with(fine, raises(error)) as batch:
            [(_, failure)] = batch.send_many(item)
        assert failure.startswith(outbox.MAYBE_DELIVERED), error
    refusals = [aiosmtplib.SMTPRecipientRefused(550, "5.1.1 No such user", "ann@x.test"),
                aiosmtplib.SMTPDataError(552, "5.3.4 Message too big"),
                aiosmtplib.SMTPDataError(451, "4.7.1 Try again later"),
                aiosmtplib.SMTPResponseException(421, "4.7.0 Content filter busy")]
    for error in refusals:  # the server's answer to this message: it counts an attempt
        with batch_with(fine, raises(error)) as batch:
            [(_, failure)] = batch.send_many(item)
        assert not failure.startswith((outbox.SERVER_UNAVAILABLE, outbox.MAYBE_DELIVERED)), error


class BreaksOnce:
    """A transport whose connection breaks while sending the first message; `copies` holds the
    Message-IDs its server filed in Sent (the sent copy), `looking` whether the mailbox answers."""

    def __init__(self, accepted_before_breaking: bool):
        self.accepted, self.broken = accepted_before_breaking, False
        self.copies: set[str] = set()
        self.looking = True
        self.handed: list[str] = []

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        if not self.broken:
            self.broken = True
            if self.accepted:
                self.copies.add(message_id)
                self.handed.append(raw.decode())
            raise MailMaybeDelivered("SMTPServerDisconnected: Connection lost")
        self.copies.add(message_id)
        self.handed.append(raw.decode())

    def was_sent(self, message_id: str) -> bool:
        if not self.looking:
            raise ConnectionError("IMAP login refused")
        return message_id in self.copies


def test_a_message_the_connection_broke_on_is_sent_again_only_if_its_copy_is_missing(tmp_path):
    for accepted in (True, False):
        transport = BreaksOnce(accepted_before_breaking=accepted)
        app = app_with(tmp_path / str(accepted), transport)
        queue(app, ("ann@x.test", "report-1"))
        assert app.drain_outbox() == 0
        row = rows(app)["report-1"]
        assert (row.status, row.attempts) == ("handed", 1)  # the sent copy decides, after the grace
        app.clock.advance(seconds=(outbox.backoff(1) + outbox.HANDED_GRACE).total_seconds())
        app.drain_outbox()
        assert rows(app)["report-1"].status == "sent"
        assert transport.handed == ["report-1"]  # once, whether or not the server had taken it


def test_when_the_sent_copies_cannot_be_looked_at_the_other_players_mail_still_goes(tmp_path):
    transport = BreaksOnce(accepted_before_breaking=False)
    app = app_with(tmp_path, transport)
    queue(app, ("ann@x.test", "ann-1"))
    app.drain_outbox()  # the connection breaks: ann-1 waits for its sent copy to be looked at
    transport.looking = False  # and the mailbox refuses the login for a while
    queue(app, ("ann@x.test", "ann-2"), ("bob@x.test", "bob-1"))
    app.clock.advance(hours=1)
    assert app.drain_outbox() == 1 and transport.handed == ["bob-1"]
    state = rows(app)
    assert state["ann-1"].status == "handed" and state["ann-2"].status == "pending"  # ann's order kept
    transport.looking = True
    assert app.drain_outbox() == 2 and transport.handed == ["bob-1", "ann-1", "ann-2"]


def test_the_referee_queues_given_up_mail_again_from_the_command_line(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from moderator import cli

    transport = FlakyTransport()
    app = app_with(tmp_path, transport)
    transport.down.add("ann@x.test")
    queue(app, ("ann@x.test", "report-1"), ("bob@x.test", "report-2"))
    for _ in range(outbox.MAX_ATTEMPTS):
        app.drain_outbox()
        app.clock.advance(hours=2)
    assert rows(app)["report-1"].status == "failed" and rows(app)["report-2"].status == "sent"
    transport.down.clear()  # the player's address is fixed
    monkeypatch.setattr(cli._State, "factory", lambda *a, **k: app)
    result = CliRunner().invoke(cli.app_cli, ["mail", "retry"])
    assert result.exit_code == 0 and "queued again 1, sent 1" in result.output
    assert (rows(app)["report-1"].status, rows(app)["report-1"].attempts) == ("sent", 1)
    assert [body for _, body in transport.handed] == [b"report-2", b"report-1"]
