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
    assert "refused ATACK now" in text and "did you mean 'ATTACK'" in text
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


# ------------------------------------------------------------------ strange or hostile mail (issue 12)


def _hand_made(headers: list[tuple[str, str]], body: str, message_id: str = "<hand.1@c.test>") -> bytes:
    """A message written header by header, as a hostile or broken client sends it (EmailMessage would
    refuse or repair these headers)."""
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    head += (f"To: moderator@demo.test\r\nSubject: orders\r\nDate: Thu, 01 Jan 2026 00:00:00 +0000\r\n"
             f"Message-ID: {message_id}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
    return (head + body.replace("\n", "\r\n")).encode()


def _plan(seated, role):
    from moderator.service.table import load_table

    with seated.app.db.session() as session:
        return load_table(session, seated.app.registry, seated.game_id).plan(role)


def _envelope(seated, role="north"):
    return f"GAME {seated.game_id}\nROLE {role}\nSECRET {seated.secrets[role]}\n"


def test_a_message_over_the_line_cap_is_refused_whole_and_says_the_limit(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "# wait\n" + "REST\n" * 400)  # three envelope lines + 401
    assert outcome.status == "receipt"
    text = flat_text(outcome.replies[0].raw)
    assert "has more than 400 lines to read" in text and "the limit is 400 lines" in text
    assert "none of it was read and nothing was done" in text
    assert [r.recipient for r in outcome.replies] == ["north@players.test"]
    assert seated.fingerprint() == before and _plan(seated, "north").script == []  # not one line was filed
    assert seated.send("north", "REST\n" * 397).status == "applied"  # 400 lines are read


def test_quoted_text_and_blank_lines_do_not_count_against_the_line_cap(seated):
    quoted = "\n".join(f"> line {n} of a long report" for n in range(1000))
    outcome = seated.send("north", "REST\n" + "\n" * 600 + "On Monday, the Moderator wrote:\n" + quoted + "\n")
    assert outcome.status == "applied"


def test_the_line_cap_is_a_setting(tmp_path):
    from tests.conftest import make_app, seat_duel

    seated = seat_duel(make_app(tmp_path, max_order_lines=3))
    outcome = seated.send("north", "# one\n# two\nREST\n")  # three envelope lines + three = six lines
    assert outcome.status == "receipt" and "the limit is 3 lines" in flat_text(outcome.replies[0].raw)


def test_a_message_whose_lines_hold_too_many_characters_is_refused(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "REST # " + "x" * 70_000 + "\n")
    text = flat_text(outcome.replies[0].raw)
    assert outcome.status == "receipt" and "the limit is 64000 characters" in text
    assert seated.fingerprint() == before


def test_a_display_name_hiding_line_breaks_gets_a_safe_receipt_and_changes_nothing(seated):
    before = seated.fingerprint()
    name = "=?UTF-8?B?Tm9ydGgNCkJjYzogbWFsbG9yeUBldmlsLnRlc3Q=?="  # "North\r\nBcc: mallory@evil.test"
    raw = _hand_made([("From", f"{name} <north@players.test>")], _envelope(seated) + "REST\n")
    outcome = seated.app.receive(raw)
    assert outcome.status == "receipt" and seated.fingerprint() == before
    reply = outcome.replies[0]
    assert reply.recipient == "north@players.test"
    head = reply.raw.split(b"\r\n\r\n", 1)[0].lower()
    assert b"mallory" not in head and b"bcc" not in head
    assert "hides line breaks" in flat_text(reply.raw) and "nothing in it was acted on" in flat_text(reply.raw)


def test_a_stranger_whose_display_name_hides_line_breaks_gets_no_reply(seated):
    sent_before = len(outbox_rows(seated.app))
    name = "=?UTF-8?B?WA0KQmNjOiBub3J0aEBwbGF5ZXJzLnRlc3Q=?="  # "X\r\nBcc: north@players.test"
    outcome = seated.app.receive(_hand_made([("From", f"{name} <mallory@evil.test>")], "HELP\n"))
    assert outcome.status == "quarantined" and len(outbox_rows(seated.app)) == sent_before


def test_a_reply_to_elsewhere_is_named_in_the_receipt_and_never_written_to(seated):
    outcome = seated.send("north", "REST\n", headers={"Reply-To": "mallory@evil.test"})
    assert outcome.status == "applied"  # the registered address with the secret: the orders count
    mine = [r for r in outcome.replies if r.recipient == "north@players.test"]
    assert "mallory@evil.test (Reply-To)" in flat_text(mine[0].raw)
    assert "writes only to north@players.test" in flat_text(mine[0].raw)
    assert all(r.recipient != "mallory@evil.test" for r in outbox_rows(seated.app))


def test_two_from_headers_and_a_sender_are_named_and_the_secret_still_decides(seated):
    before = seated.fingerprint()
    raw = _hand_made([("From", "north@players.test"), ("From", "south@players.test"),
                      ("Sender", "relay@lists.test")], _envelope(seated) + "REST\n", "<two-from.1@c.test>")
    raw = raw.replace(seated.secrets["north"].encode(), b"AAAA-BBBB")  # no secret: nothing is done
    outcome = seated.app.receive(raw)
    assert outcome.status == "receipt" and seated.fingerprint() == before
    text = flat_text(outcome.replies[0].raw)
    assert "south@players.test (From) and relay@lists.test (Sender)" in text and "wrong SECRET" in text
    assert [r.recipient for r in outcome.replies] == ["north@players.test"]


def test_a_command_from_a_message_naming_other_addresses_gets_a_notice_naming_them(seated):
    raw = _hand_made([("From", "north@players.test, carol@else.test"), ("Reply-To", "dave@else.test")],
                     _envelope(seated) + "STATUS\n", "<status-two.1@c.test>")
    outcome = seated.app.receive(raw)
    assert outcome.status == "command"
    rows = outbox_rows(seated.app)[-2:]
    assert [r.recipient for r in rows] == ["north@players.test", "north@players.test"]
    assert "carol@else.test (From) and dave@else.test (Reply-To)" in flat_text(rows[-1].raw)


def test_another_seat_writing_with_a_reply_to_the_owner_changes_nothing_and_the_owner_is_told(seated):
    before = seated.fingerprint()
    raw = _hand_made([("From", "south@players.test"), ("Reply-To", "north@players.test")],
                     _envelope(seated) + "REST\n", "<claim.1@c.test>")
    outcome = seated.app.receive(raw)
    assert outcome.status == "quarantined" and seated.fingerprint() == before
    notice = outbox_rows(seated.app)[-1]
    assert notice.recipient == "north@players.test"
    text = flat_text(notice.raw)
    assert "arrived from south@players.test" in text and "north@players.test (Reply-To)" in text


@pytest.mark.parametrize("hops, status", [(25, "applied"), (26, "quarantined")])
def test_more_than_25_received_headers_is_a_loop_kept_unanswered(seated, hops, status):
    sent_before = len(outbox_rows(seated.app))
    received = [("Received", f"from mx{n}.loop.test by mx{n + 1}.loop.test; Thu, 1 Jan 2026 00:00:{n % 60:02d} +0000")
                for n in range(hops)]
    raw = _hand_made([*received, ("From", "north@players.test")], _envelope(seated) + "REST\n", f"<loop.{hops}@c.test>")
    outcome = seated.app.receive(raw)
    assert outcome.status == status
    if status == "quarantined":
        assert "mail loop: 26 Received headers (the limit is 25)" in outcome.reason
        assert len(outbox_rows(seated.app)) == sent_before
        assert _stored(seated.app)[-1].status == "quarantined"


def test_a_second_copy_with_the_same_message_id_is_recorded_for_the_referee_not_processed(seated):
    first = player_mail(seated.addresses["north"], _envelope(seated) + "REST\n")
    assert seated.app.receive(first).status == "applied"
    before, sent_before = seated.fingerprint(), len(outbox_rows(seated.app))
    again = b"Received: from mx2.players.test by mx.demo.test; Thu, 1 Jan 2026 00:05:00 +0000\r\n" + first
    outcome = seated.app.receive(again)
    assert outcome.status == "duplicate" and "another copy of message" in outcome.reason
    assert seated.fingerprint() == before and len(outbox_rows(seated.app)) == sent_before
    kept = _stored(seated.app)[-1]
    assert kept.raw == again and kept.status == "duplicate" and "another copy" in kept.outcome
    assert seated.app.receive(again).status == "duplicate"  # the very same bytes again: not stored twice
    assert len(_stored(seated.app)) == kept.id


def test_a_reused_message_id_with_another_text_is_read_as_a_new_message_and_said(seated):
    first = _hand_made([("From", "north@players.test")], _envelope(seated) + "ATTACK\n", "<reused@c.test>")
    assert seated.app.receive(first).status == "applied"
    card = seated.state()["hands"]["north"][0]
    second = _hand_made([("From", "north@players.test")], _envelope(seated) + f"COMMIT {card}\n", "<reused@c.test>")
    outcome = seated.app.receive(second)
    assert outcome.status == "applied"
    mine = [r for r in outcome.replies if r.recipient == "north@players.test"]
    assert "has the Message-ID of an earlier one but another text" in flat_text(mine[0].raw)


# ------------------------------------------------------------------ resent orders (issue 12)


def _north_card(seated):
    return seated.state()["hands"]["north"][0]


def test_the_same_orders_resent_under_a_new_message_id_are_not_queued_again(seated):
    card = _north_card(seated)
    assert seated.send("north", f"ATTACK\nCOMMIT {card}\n").status == "applied"  # both lines used at once
    before = seated.fingerprint()
    outcome = seated.send("north", f"attack\n\n# the same, sent again\ncommit  {card.lower()}\n")
    assert outcome.status == "receipt" and seated.fingerprint() == before
    text = flat_text(outcome.replies[0].raw)
    assert "recognised as a resend, nothing was queued again" in text and "Nothing is queued now" in text
    assert _plan(seated, "north").script == []  # without the rule: ATTACK, COMMIT queued for round 3


def test_a_resend_receipt_lists_what_is_still_queued(seated):
    card = _north_card(seated)
    assert seated.send("north", f"ATTACK\nCOMMIT {card}\nREST\n").status == "applied"
    outcome = seated.send("north", f"ATTACK\nCOMMIT {card}\nREST\n")
    assert "recognised as a resend" in flat_text(outcome.replies[0].raw)
    assert "Queued now: REST." in flat_text(outcome.replies[0].raw)
    assert [line.text for line in _plan(seated, "north").script] == ["REST"]


def test_the_same_orders_for_a_later_question_are_taken(seated):
    assert seated.send("north", "REST\n").status == "applied"  # round 1; round 2 is south's
    assert seated.send("south", "REST\n").status == "applied"
    outcome = seated.send("north", "REST\n")  # round 3 asks north again: the same words are new orders
    assert outcome.status == "applied" and "resend" not in flat_text(outcome.replies[0].raw)


def test_the_same_orders_in_reply_to_a_mail_sent_since_are_new_orders(seated):
    assert seated.send("north", "ATTACK\n").status == "applied"  # north is now asked to commit a card
    report = [r for r in outbox_rows(seated.app) if r.recipient == "north@players.test"][-1]
    blind = seated.send("north", "ATTACK\n")  # written before that report was read: a resend
    assert "recognised as a resend" in flat_text(blind.replies[0].raw)
    answer = seated.send("north", "ATTACK\n", headers={"In-Reply-To": report.message_id})
    # Taken (ATTACK waits, queued): a quiet receipt rides on north's next report, nothing is mailed now.
    assert answer.status == "applied" and all("resend" not in flat_text(r.raw) for r in answer.replies)
    assert [line.text for line in _plan(seated, "north").script] == ["ATTACK"]


def test_a_check_is_never_taken_for_orders_so_never_for_a_resend(seated):
    card = _north_card(seated)
    seated.send("north", f"CHECK\nATTACK\nCOMMIT {card}\n")
    assert seated.send("north", f"ATTACK\nCOMMIT {card}\n").status == "applied"


def test_resent_orders_waiting_for_the_change_of_mind_delay_are_recognised(tmp_path):
    from moderator.settings import DeadlineSettings
    from tests.conftest import make_app, seat_duel

    seated = seat_duel(make_app(tmp_path, deadlines=DeadlineSettings(change_of_mind_minutes=10)))
    assert "change-of-mind delay" in flat_text(seated.send("north", "REST\n").replies[0].raw)
    again = seated.send("north", "REST\n")
    assert "recognised as a resend" in flat_text(again.replies[0].raw)
    assert [line.text for line in _plan(seated, "north").script] == ["REST"]  # once
    other = seated.send("north", "ATTACK\n")  # a change of mind is not a resend
    assert "recognised as a resend" not in flat_text(other.replies[0].raw)


# ------------------------------------------------------------------ how much a receipt quotes (issue 12)


def test_a_receipt_quotes_at_most_200_characters_of_a_line_and_says_so(seated):
    outcome = seated.send("north", "ATACK " + "y" * 5000 + "\n")
    text = text_of(outcome.replies[0].raw)
    assert "y" * 5000 not in text and "y" * 190 in flat(text).replace(" ", "")
    assert len(text) < 3000
    assert "Line 4 is shown cut at 200 characters" in flat(text)


def test_a_receipt_quotes_at_most_100_lines_and_says_how_many_more_were_read(seated):
    outcome = seated.send("north", "".join(f"BOGUS{n}\n" for n in range(150)))
    text = flat_text(outcome.replies[0].raw)
    assert outcome.status == "receipt"
    assert "refused BOGUS99" in text and "refused BOGUS100" not in text
    assert "Only the first 100 lines are shown; 50 more were read" in text


def test_a_huge_envelope_value_is_quoted_back_cut(seated):
    raw = player_mail(seated.addresses["north"], "GAME " + "g" * 10_000 + "\nROLE north\nSECRET x\nREST\n")
    text = flat_text(seated.app.receive(raw).replies[0].raw)
    assert "There is no game '" + "g" * 100 + "…'" in text and "g" * 101 not in text


def test_a_join_naming_another_address_seats_the_sender_and_a_notice_names_the_other(app):
    created = app.create_game("duel", addresses={"north": "n@x.test", "south": "s@x.test"})
    raw = player_mail("n@x.test", f"JOIN {created.invitations['north']}\n", headers={"Reply-To": "m@evil.test"})
    outcome = app.receive(raw)
    assert outcome.status == "joined"
    rows = outbox_rows(app)
    assert {r.recipient for r in rows} == {"n@x.test", "s@x.test"}  # the invitations, the welcome, the notice
    assert "also named m@evil.test (Reply-To)" in flat_text(rows[-1].raw) and rows[-1].recipient == "n@x.test"


def test_a_referee_message_naming_another_address_says_so_in_its_receipt(seated):
    raw = player_mail("ref@players.test", f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\n"
                                          "STATUS\n", headers={"Reply-To": "m@evil.test"})
    outcome = seated.app.receive(raw)
    assert outcome.status == "command"
    last = outbox_rows(seated.app)[-1]
    assert last.recipient == "ref@players.test" and "also named m@evil.test (Reply-To)" in flat_text(last.raw)


def test_reading_a_text_stops_just_past_a_limit():
    """A million short lines cost no more than 401: the text is refused whole either way."""
    from moderator.mail.hygiene import usable_lines

    text = "GAME x\n\n> quoted\n" + "REST\n" * 1_000_000
    assert len(usable_lines(text, most_lines=400)) == 401
    assert usable_lines(text, most_lines=400)[:2] == [(1, "GAME x"), (4, "REST")]  # blanks and quotes left out
    assert len(usable_lines("y" * 70_000 + "\nREST\n", most_chars=64_000)) == 1
    assert len(usable_lines(text)) == 1_000_001
