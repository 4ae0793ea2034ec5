"""Bad input gets a clear answer and loses nothing; the game state never changes on a rejected message."""

from email.message import EmailMessage
from email.policy import SMTP

import pytest
from sqlmodel import select

from moderator.store.models import InboundMail, Quarantine
from tests.conftest import flat, outbox_rows, text_of
from tests.mailmaker import player_mail


def _raw(sender, body_bytes: bytes, content_type: str, charset: str | None, cte: str = "8bit") -> bytes:
    head = (f"From: {sender}\r\nTo: moderator@demo.test\r\nSubject: orders\r\n"
            f"Message-ID: <{abs(hash(body_bytes))}.{content_type.replace('/', '.')}@c.test>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: {content_type}"
            + (f"; charset={charset}" if charset else "") + f"\r\nContent-Transfer-Encoding: {cte}\r\n\r\n")
    return head.encode() + body_bytes


def flat_text(raw):
    return flat(text_of(raw))


def _stored(app):
    with app.db.session() as session:
        return list(session.exec(select(InboundMail).order_by(InboundMail.id)))


def _quarantined(app):
    with app.db.session() as session:
        return list(session.exec(select(Quarantine)))


def test_garbage_gets_a_receipt_naming_the_line_and_changes_nothing(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "ATACK now\nREST\n")
    assert outcome.status == "receipt"
    text = flat_text(outcome.replies[0].raw)
    assert "ERR ATACK now" in text and "did you mean 'ATTACK'" in text
    assert "Nothing was applied" in text and "line 4" in text
    assert seated.fingerprint() == before


def test_unknown_game(seated):
    raw = player_mail(seated.addresses["north"], f"GAME nope-1\nROLE north\nSECRET {seated.secrets['north']}\nREST\n")
    outcome = seated.app.receive(raw)
    assert outcome.status == "receipt"
    text = flat_text(outcome.replies[0].raw)
    assert "There is no game 'nope-1'" in text and f"{seated.game_id} as north" in text


def test_wrong_secret_changes_nothing(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "REST\n", secret="AAAA-BBBB")
    assert outcome.status == "receipt"
    assert "wrong SECRET" in flat_text(outcome.replies[0].raw)
    assert seated.fingerprint() == before


def test_wrong_phase_guard_changes_nothing(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "PHASE R7-SOUTH\nREST\n")
    text = flat_text(outcome.replies[0].raw)
    assert "for phase R7-SOUTH, but the game is now in phase R1-NORTH" in text
    assert seated.fingerprint() == before


def test_right_phase_guard_is_applied(seated):
    outcome = seated.send("north", "PHASE R1-NORTH\nREST\n")
    assert outcome.status == "applied"


def test_ten_megabyte_body_gets_a_receipt(seated):
    before = seated.fingerprint()
    body = f"GAME {seated.game_id}\nROLE north\nSECRET {seated.secrets['north']}\nREST\n" + "x" * 10_000_000
    outcome = seated.app.receive(player_mail(seated.addresses["north"], body))
    assert outcome.status == "receipt"
    text = flat_text(outcome.replies[0].raw)
    assert "too large" in text and "the limit is 2.0 MB" in text and "only its first 64 KB are kept" in text
    assert seated.fingerprint() == before
    row = _stored(seated.app)[-1]  # kept for the referee, but not whole: its headers and a bounded beginning
    assert len(row.raw) == 65_536 and row.size > 10_000_000
    assert row.raw.startswith(b"From: north@players.test") and b"Message-ID:" in row.raw


def test_undeclared_charset_is_read_and_the_receipt_says_how(seated):
    body = f"GAME {seated.game_id}\nROLE north\nSECRET {seated.secrets['north']}\n# caf\xe9 cr\xe8me\nREST\n"
    outcome = seated.app.receive(_raw(seated.addresses["north"], body.encode("cp1252"), "text/plain", None))
    assert outcome.status == "applied"
    text = flat_text(outcome.replies[0].raw)
    assert "no charset was declared; read as cp1252" in text


def test_wrong_declared_charset_is_read_anyway_and_said(seated):
    body = f"GAME {seated.game_id}\nROLE north\nSECRET {seated.secrets['north']}\n# \xe9t\xe9\nREST\n"
    outcome = seated.app.receive(_raw(seated.addresses["north"], body.encode("latin-1"), "text/plain", "utf-8"))
    assert outcome.status == "applied"
    assert "did not decode as its declared charset utf-8" in flat_text(outcome.replies[0].raw)


def test_no_text_part_gets_a_receipt(seated):
    before = seated.fingerprint()
    msg = EmailMessage(policy=SMTP)
    msg["From"] = seated.addresses["north"]
    msg["To"] = "moderator@demo.test"
    msg["Subject"] = f"[{seated.game_id}/north] orders"
    msg["Message-ID"] = "<img-only@c.test>"
    msg.add_attachment(b"\x89PNG\r\n\x1a\n....", maintype="image", subtype="png", filename="orders.png")
    outcome = seated.app.receive(msg.as_bytes())
    assert outcome.status == "receipt"
    assert "no text we could read" in flat_text(outcome.replies[0].raw)
    assert seated.fingerprint() == before


@pytest.mark.parametrize("headers,why", [
    ({"Auto-Submitted": "auto-replied"}, "Auto-Submitted"),
    ({"Precedence": "bulk"}, "Precedence"),
    ({"List-Id": "<club.lists.test>"}, "mailing list"),
    ({"Return-Path": "<>"}, "null sender"),
])
def test_automatic_mail_gets_no_reply_and_is_quarantined(seated, headers, why):
    before = seated.fingerprint()
    sent_before = len(outbox_rows(seated.app))
    outcome = seated.send("north", "REST\n", headers=headers)
    assert outcome.status == "quarantined" and why in outcome.reason
    assert len(outbox_rows(seated.app)) == sent_before
    assert seated.fingerprint() == before
    assert _quarantined(seated.app)


def test_bounce_is_recorded_against_the_address_and_not_answered(seated):
    msg = EmailMessage(policy=SMTP)
    msg["From"] = "MAILER-DAEMON@mx.test"
    msg["To"] = "moderator@demo.test"
    msg["Subject"] = "Undelivered Mail Returned to Sender"
    msg["Message-ID"] = "<dsn1@mx.test>"
    msg.set_content("This is the mail system.")
    status = EmailMessage()
    status.set_content("Reporting-MTA: dns; mx.test\n\nFinal-Recipient: rfc822; south@players.test\n"
                       "Action: failed\nStatus: 5.1.1\n")
    msg.make_mixed()
    msg.replace_header("Content-Type", 'multipart/report; report-type=delivery-status; boundary="b1"')
    raw = (b"From: MAILER-DAEMON@mx.test\r\nTo: moderator@demo.test\r\nSubject: Undelivered Mail\r\n"
           b"Message-ID: <dsn2@mx.test>\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n"
           b"--b1\r\nContent-Type: text/plain\r\n\r\nMail could not be delivered.\r\n"
           b"--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.test\r\n\r\n"
           b"Final-Recipient: rfc822; south@players.test\r\nAction: failed\r\nStatus: 5.1.1\r\n"
           b"--b1--\r\n")
    sent_before = len(outbox_rows(seated.app))
    outcome = seated.app.receive(raw)
    assert outcome.status == "quarantined" and "delivery status" in outcome.reason
    assert len(outbox_rows(seated.app)) == sent_before
    from moderator.store.models import LogEntry
    with seated.app.db.session() as session:
        controls = session.exec(select(LogEntry).where(LogEntry.kind == "control")).all()
    assert any("south@players.test" in c.payload_json for c in controls)


def test_unknown_sender_gets_no_reply(seated):
    sent_before = len(outbox_rows(seated.app))
    outcome = seated.app.receive(player_mail("stranger@else.test", "HELP\n"))
    assert outcome.status == "quarantined" and "unknown sender" in outcome.reason
    assert len(outbox_rows(seated.app)) == sent_before


def test_forged_sender_changes_nothing_and_the_owner_is_told(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "REST\n", sender="south@players.test")
    assert outcome.status == "quarantined"
    rows = outbox_rows(seated.app)
    assert rows[-1].recipient == "north@players.test"
    assert "changed nothing" in flat_text(rows[-1].raw)
    assert seated.fingerprint() == before
    outcome = seated.send("north", "REST\n", sender="mallory@evil.test")
    assert outcome.status == "quarantined"
    assert outbox_rows(seated.app)[-1].recipient == "north@players.test"
    assert seated.fingerprint() == before


def test_a_crash_while_processing_quarantines_and_keeps_the_mail(seated, monkeypatch):
    before = seated.fingerprint()

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(seated.app.turns, "run", explode)
    outcome = seated.send("north", "REST\n")
    assert outcome.status == "quarantined" and "boom" in outcome.reason
    assert seated.fingerprint() == before
    stored = _stored(seated.app)[-1]
    assert stored.status == "quarantined" and b"REST" in stored.raw


def test_the_same_message_twice_is_processed_once(seated):
    raw = player_mail(seated.addresses["north"],
                      f"GAME {seated.game_id}\nROLE north\nSECRET {seated.secrets['north']}\nREST\n")
    assert seated.app.receive(raw).status == "applied"
    assert seated.app.receive(raw).status == "duplicate"


def test_html_only_mail_is_read_and_the_receipt_says_so(seated):
    msg = EmailMessage(policy=SMTP)
    msg["From"] = seated.addresses["north"]
    msg["To"] = "moderator@demo.test"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<html1@c.test>"
    msg.set_content(f"<html><body><p>GAME {seated.game_id}</p><p>ROLE north</p>"
                    f"<div>SECRET {seated.secrets['north']}</div><div>REST</div></body></html>", subtype="html")
    outcome = seated.app.receive(msg.as_bytes())
    assert outcome.status == "applied"
    assert "HTML part" in flat_text(outcome.replies[0].raw)


def test_plain_reply_quoting_the_report_needs_no_envelope(seated):
    report = [r for r in outbox_rows(seated.app) if r.recipient == "north@players.test" and r.kind == "report"][-1]
    quoted = "\n".join("> " + line for line in text_of(report.raw).split("\n"))
    raw = player_mail(seated.addresses["north"], "REST\n\nOn Monday, the Moderator wrote:\n" + quoted,
                      subject=f"Re: {report.subject}")
    assert seated.app.receive(raw).status == "applied"


def test_a_sender_over_the_hourly_rate_is_quarantined_unanswered_then_heard_again(tmp_path):
    from tests.conftest import make_app, seat_duel

    seated = seat_duel(make_app(tmp_path, rate_limit_per_hour=3))
    app = seated.app
    app.clock.advance(hours=1, minutes=1)  # the JOIN mails are out of the window
    statuses = [seated.send("north", "STATUS\n", subject=f"status {n}").status for n in range(4)]
    assert statuses == ["command", "command", "command", "quarantined"]
    fourth = seated.send("north", "STATUS\n", subject="status 5")
    assert fourth.status == "quarantined" and "messages an hour" in fourth.reason and fourth.replies == []
    assert seated.send("south", "STATUS\n").status == "command"  # another sender is not held back
    app.clock.advance(hours=1, minutes=1)
    assert seated.send("north", "STATUS\n", subject="later").status == "command"
