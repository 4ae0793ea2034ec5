"""The moderator against a real IMAP server (Dovecot) and a real SMTP server (Postfix) on loopback:
players submit by SMTP, the daemon reads by IMAP, reports arrive in the players' mailboxes."""

from __future__ import annotations

import re
import time
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import make_msgid
from pathlib import Path

import pytest
from imapclient.exceptions import LoginError
from pydantic import SecretStr

from moderator.mail.imap import ImapInbox
from moderator.settings import ImapSettings
from tests.mail.conftest import real_app


def order_mail(stack, user: str, body: str, subject: str = "orders") -> bytes:
    msg = EmailMessage(policy=SMTP_POLICY)
    msg["From"] = stack.address(user)
    msg["To"] = stack.address("moderator")
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain=stack.domain)
    msg.set_content(body)
    return msg.as_bytes()


def pump(app, rounds: int = 3) -> None:
    for _ in range(rounds):
        app.tick()


def test_a_game_starts_and_plays_by_real_mail(clean_mail, tmp_path):
    stack = clean_mail
    app = real_app(stack, tmp_path)
    created = app.create_game("duel", addresses={"north": stack.address("alice"), "south": stack.address("bob")})
    app.drain_outbox()
    for user, role in (("alice", "north"), ("bob", "south")):
        invitation = stack.wait_for(user, 1)[0]
        assert invitation["Subject"].startswith(f"[{created.game_id}] {role.title()}: Invitation")
        token = re.search(r"'JOIN ([A-Z0-9-]+)'", invitation.get_body(("plain",)).get_content()).group(1)
        stack.submit(user, order_mail(stack, user, f"JOIN {token}\n"), [stack.address("moderator")])
    stack.wait_for("moderator", 2)
    pump(app)
    alice = stack.wait_for("alice", 3)  # invitation, welcome, first report
    # The MTA may file two mails handed over a moment apart in either order: pick the report
    # by its Message-ID (reports' ids start with "report.").
    report = next(m for m in alice if m["Message-ID"].startswith("<report."))
    text = report.get_body(("plain",)).get_content()
    assert "WHAT WE NEED FROM YOU" in text and "ATTACK or REST?" in text
    assert report["Reply-To"] == stack.address("moderator")
    assert report["In-Reply-To"]  # threads under the welcome mail
    secret = re.search(r"SECRET ([A-Z0-9]{4}-[A-Z0-9]{4})", text).group(1)
    # A plain reply quoting the report is enough (GAME/ROLE/SECRET come from the quote).
    quoted = "\n".join("> " + line for line in text.split("\n"))
    stack.submit("alice", order_mail(stack, "alice", "REST\n\n" + quoted, subject="Re: " + report["Subject"]),
                 [stack.address("moderator")])
    stack.wait_for("moderator", 1)
    pump(app)
    after = stack.wait_for("alice", 4)
    assert "North rests" in after[-1].get_body(("plain",)).get_content()
    # Processed mail left the inbox for the Processed folder; copies of what was sent are in Sent.
    assert stack.messages("moderator") == []
    assert len(stack.messages("moderator", "Processed")) == 3
    assert len(stack.messages("moderator", "Sent")) >= 6
    assert secret


def test_mail_from_a_stranger_goes_to_quarantine_unanswered(clean_mail, tmp_path):
    stack = clean_mail
    app = real_app(stack, tmp_path)
    stack.submit("carol", order_mail(stack, "carol", "HELP\n"), [stack.address("moderator")])
    stack.wait_for("moderator", 1)
    pump(app)
    assert stack.messages("carol") == []
    assert len(stack.messages("moderator", "Quarantine")) == 1
    assert stack.messages("moderator") == []


def test_a_report_is_not_sent_twice_after_a_crash_between_send_and_record(clean_mail, tmp_path):
    """The server accepted the message but the daemon died before marking the outbox row: the next
    drain finds the sent copy by Message-ID and does not send again."""
    from sqlmodel import select

    from moderator.store.models import Outbox

    stack = clean_mail
    app = real_app(stack, tmp_path)
    app.create_game("duel", addresses={"north": stack.address("dave"), "south": stack.address("erin")})
    with app.db.session() as session:
        row = session.exec(select(Outbox).where(Outbox.recipient == stack.address("dave"))).one()
        raw, message_id = row.raw, row.message_id
        row.status = "handed"
        row.attempts = 1
        session.add(row)
    app.outbound.send(raw, stack.address("dave"), message_id)  # handed over, then "the crash"
    stack.wait_for("moderator", 1, folder="Sent")
    app.drain_outbox()
    app.drain_outbox()
    invitations = [m for m in stack.wait_for("dave", 1, timeout=3) if m["Message-ID"] == message_id]
    assert len(invitations) == 1
    with app.db.session() as session:
        assert session.exec(select(Outbox).where(Outbox.message_id == message_id)).one().status == "sent"


def test_a_wrong_password_is_a_clear_error(clean_mail):
    settings = ImapSettings(host=clean_mail.host, port=clean_mail.imap_port, security="starttls",
                            username=clean_mail.address("moderator"), password="wrong", ca_file=clean_mail.ca)
    with pytest.raises(LoginError):
        ImapInbox(settings).client()


def test_a_refused_login_is_tried_again_after_doubling_delays_not_at_every_poll(clean_mail, monkeypatch):
    """A password changed on the server (or a login the server refuses for a while): the daemon
    keeps running, but tries the login again only after 1, 2, 4 ... minutes (capped at an hour),
    so the server does not lock the account out; the right password works at the next try."""
    import moderator.mail.imap as imap

    tries: list[float] = []
    real_connect = imap.connect
    monkeypatch.setattr(imap, "connect", lambda settings, **kw: (tries.append(now[0]), real_connect(settings, **kw))[1])
    now = [1000.0]
    settings = ImapSettings(host=clean_mail.host, port=clean_mail.imap_port, security="starttls",
                            username=clean_mail.address("moderator"), password="wrong", ca_file=clean_mail.ca)
    inbox = ImapInbox(settings, clock=lambda: now[0])
    for at in (1000, 1030, 1059, 1060, 1100, 1179, 1180, 1419, 1420):
        now[0] = float(at)
        with pytest.raises(LoginError):
            inbox.client()
    assert tries == [1000, 1060, 1180, 1420]  # the server saw 4 logins, not 9
    assert inbox.login_retry_in() == 480
    now[0] = 1420 + 480
    settings.password = SecretStr("moderator-pw")  # the referee fixed the secret
    assert inbox.client().select_folder("INBOX")
    assert inbox.login_retry_in() == 0 and tries[-1] == 1900
    inbox.close()
    # Refused for a long time (here without the server, which delays each refusal): the delay
    # stops growing at an hour.
    def refuse(settings, **kw):
        tries.append(now[0])
        raise LoginError("authentication failed")

    monkeypatch.setattr(imap, "connect", refuse)
    delays = []
    for _ in range(10):
        with pytest.raises(LoginError):
            inbox.client()
        delays.append(inbox.login_retry_in())
        now[0] += delays[-1]
    assert delays == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600]


def test_the_inbox_reconnects_after_the_connection_drops(clean_mail, tmp_path):
    stack = clean_mail
    app = real_app(stack, tmp_path)
    inbox = app.inbox
    assert list(inbox.new_messages()) == []
    inbox.client().socket().close()  # the server or the network drops us
    stack.submit("alice", order_mail(stack, "alice", "HELP\n"), [stack.address("moderator")])
    stack.wait_for("moderator", 1)
    assert len(list(inbox.new_messages())) == 1


def test_implicit_tls_ports_work(clean_mail):
    from moderator.mail.imap import connect

    settings = ImapSettings(host=clean_mail.host, port=clean_mail.imaps_port, security="tls",
                            username=clean_mail.address("moderator"), password="moderator-pw", ca_file=clean_mail.ca)
    client = connect(settings)
    assert client.select_folder("INBOX")
    client.logout()


def test_doctor_passes_on_a_working_setup_and_explains_a_bad_password(clean_mail, tmp_path):
    from moderator.doctor import run_checks

    app = real_app(clean_mail, tmp_path)
    checks = run_checks(app.settings, wait_seconds=20)
    assert [c.name for c in checks] == ["IMAP login", "IMAP folders", "IMAP IDLE", "SMTP send", "round trip"]
    assert all(c.ok for c in checks), checks
    bad = real_app(clean_mail, tmp_path / "bad")
    bad.settings.imap.password = bad.settings.imap.password.__class__("wrong")
    checks = run_checks(bad.settings, wait_seconds=1)
    assert not checks[-1].ok and "refused the login" in checks[-1].detail


def _imap_port_open(stack) -> bool:
    import socket

    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex((stack.host, stack.imap_port)) == 0


def _start_dovecot(stack) -> None:
    import shutil
    import subprocess

    shutil.rmtree(Path(stack.dovecot_conf).parent / "run", ignore_errors=True)  # stale sockets
    # Not captured: the daemon would hold the pipe open and the run would never end.
    subprocess.run(["dovecot", "-c", stack.dovecot_conf], check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if _imap_port_open(stack):
            return
        time.sleep(0.05)
    raise AssertionError("Dovecot did not come back")


def _stop_dovecot(stack) -> None:
    """Stop the server and every session it had (Dovecot's login processes outlive its master)."""
    import os
    import signal
    import subprocess

    subprocess.run(["doveadm", "-c", stack.dovecot_conf, "stop"], check=True, capture_output=True)
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if cmdline.read_bytes().startswith(b"dovecot-moderator-test/"):
                os.kill(int(cmdline.parent.name), signal.SIGKILL)
        except (OSError, ValueError):
            pass  # gone meanwhile
    for _ in range(100):
        if not _imap_port_open(stack):
            return
        time.sleep(0.05)


def test_the_inbox_waits_out_a_server_restart_with_growing_delays(clean_mail, tmp_path):
    import threading

    stack = clean_mail
    app = real_app(stack, tmp_path)
    inbox = app.inbox
    waits: list[float] = []
    inbox._sleep = lambda seconds: (waits.append(seconds), time.sleep(0.15))  # nominal delays kept
    assert list(inbox.new_messages()) == []
    _stop_dovecot(stack)
    restart = threading.Timer(1.0, _start_dovecot, args=(stack,))
    restart.start()
    try:
        assert list(inbox.new_messages()) == []  # blocks while the server is down, then carries on
    finally:
        restart.join()
    assert len(waits) >= 2 and waits[:3] == sorted(waits[:3]) and waits[1] == 2 * waits[0]
    stack.submit("alice", order_mail(stack, "alice", "HELP\n"), [stack.address("moderator")])
    stack.wait_for("moderator", 1)
    assert len(list(inbox.new_messages())) == 1


def test_the_inbox_logs_in_again_when_the_server_ends_its_session(clean_mail, tmp_path):
    import subprocess

    stack = clean_mail
    app = real_app(stack, tmp_path)
    inbox = app.inbox
    assert list(inbox.new_messages()) == []
    # An expired or revoked login: the server says BYE and closes the connection.
    subprocess.run(["doveadm", "-c", stack.dovecot_conf, "kick", stack.address("moderator")],
                   check=True, capture_output=True)
    stack.submit("alice", order_mail(stack, "alice", "HELP\n"), [stack.address("moderator")])
    stack.wait_for("moderator", 1)
    outcomes = app.poll_once()  # on a new session
    assert [o.status for o in outcomes] == ["quarantined"]  # a stranger's mail, read and kept
    assert stack.messages("moderator") == []
    assert len(stack.messages("moderator", "Quarantine")) == 1


def test_idle_wakes_on_new_mail_and_polling_is_the_fallback(clean_mail, tmp_path):
    import threading

    stack = clean_mail
    app = real_app(stack, tmp_path)
    inbox = app.inbox
    later = threading.Timer(0.5, lambda: stack.submit("alice", order_mail(stack, "alice", "HELP\n"),
                                                      [stack.address("moderator")]))
    started = time.monotonic()
    later.start()
    assert inbox.wait_for_mail(timeout=15) is True  # the server said EXISTS
    assert time.monotonic() - started < 10
    later.join()
    # Without IDLE (or a server lacking it) the watcher just waits out its period: polling.
    slept: list[float] = []
    inbox.settings.idle = False
    inbox._sleep = slept.append
    assert inbox.wait_for_mail(timeout=25) is False and slept == [25]
