"""Outgoing MIME, written by moderator.mail.compose and read back with the email package: every
variant a report or notice can take must come out as the same headers, parts and text."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

import pytest

from moderator.mail.compose import Attachment, Outgoing, thread_headers

PNG = bytes(range(256)) * 40
ICS = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
TEXT = ("HEADQUARTERS, TURN 3\n\nThe Soviet attack at 0712 fails: 3:1, rolled 2 (stream combat, draw 14).\n"
        "A line ending in spaces   \nA tab\there, an equals sign = and a dot line:\n.\n"
        "Ümlauts, кириллица, 日本語 and a long line " + "x" * 150 + "\n")
HTML = "<html><body><p>Turn 3 &mdash; <b>Ümlaut</b></p><img src=\"cid:map-1@demo.test\"></body></html>"


def outgoing(**overrides) -> Outgoing:
    values = dict(recipient="anna@club.test", subject="[vmt-0001/soviet] Von Manstein's Triumph", text=TEXT,
                  message_id="<report.vmt-0001.soviet.9.abc@demo.test>",
                  date=datetime(2026, 6, 1, 12, 0, tzinfo=UTC), sender="moderator@demo.test",
                  sender_name="Moderator", reply_to="moderator@demo.test")
    values.update(overrides)
    return Outgoing(**values)


VARIANTS = {
    "text only": outgoing(),
    "text and html": outgoing(html=HTML),
    "html with inline map": outgoing(html=HTML, inline=[Attachment("map.png", PNG, "image", "png", "map-1@demo.test")]),
    "with calendar attachment": outgoing(html=HTML,
                                         inline=[Attachment("map.png", PNG, "image", "png", "map-1@demo.test")],
                                         attachments=[Attachment("deadline.ics", ICS, "text", "calendar")]),
    "text with attachment": outgoing(attachments=[Attachment("deadline.ics", ICS, "text", "calendar")]),
    "non-ascii subject and sender": outgoing(subject="[narva-0001/german] Über die Narwa — Zug 3 " + "ä" * 60,
                                             sender_name="Schiedsrichter Ölund"),
    "threaded with long references": outgoing(
        in_reply_to="<report.vmt-0001.soviet.8.abc@demo.test>",
        references=tuple(f"<report.vmt-0001.soviet.{n}.0123456789abcdef@demo.test>" for n in range(12)),
        list_id="<vmt-0001.demo.test>",
        extra_headers=thread_headers("<thread.vmt-0001.soviet@demo.test>", "Über die Narwa")),
    "empty text": outgoing(text=""),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_a_composed_message_reads_back_as_what_was_written(name):
    out = VARIANTS[name]
    raw = out.to_bytes()
    assert b"\n" not in raw.replace(b"\r\n", b""), "every line ends in CRLF"
    assert all(len(line) <= 78 for line in raw.split(b"\r\n") if not line.startswith(b"References:")), \
        [line for line in raw.split(b"\r\n") if len(line) > 78][:3]
    assert raw.count(b"MIME-Version") == 1
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.defects == [] and all(part.defects == [] for part in msg.walk())
    assert msg["Subject"] == out.subject
    assert msg["To"] == out.recipient and msg["Reply-To"] == out.reply_to
    assert msg["From"].addresses[0].display_name == out.sender_name
    assert msg["From"].addresses[0].addr_spec == out.sender
    assert msg["Message-ID"] == out.message_id
    assert msg["Date"].datetime == out.date
    assert msg["Auto-Submitted"] == "auto-generated"
    if out.references:
        assert msg["References"].split() == list(out.references)
        assert msg["In-Reply-To"] == out.in_reply_to and msg["List-Id"] == out.list_id
    for header, value in out.extra_headers:
        assert msg[header] == value
    plain = msg.get_body(("plain",))
    # every character, trailing spaces and the last newline too (on the wire lines end in CRLF)
    assert plain.get_content().replace("\r\n", "\n") == out.text
    if out.html is None:
        assert msg.get_body(("html",)) is None
    else:
        assert msg.get_body(("html",)).get_content().replace("\r\n", "\n") == out.html
        assert msg.get_content_type() in ("multipart/alternative", "multipart/mixed", "multipart/related")
    for item in out.inline:
        part = next(p for p in msg.walk() if p["Content-ID"] == f"<{item.cid}>")
        assert part.get_content() == item.content and part.get_content_disposition() == "inline"
        assert part.get_content_type() == f"{item.maintype}/{item.subtype}"
    attached = {p.get_filename(): p.get_payload(decode=True) for p in msg.iter_attachments()
                if p.get_content_disposition() == "attachment"}
    assert attached == {item.filename: item.content for item in out.attachments}


def test_the_bytes_are_reproducible_and_boundaries_come_from_the_message_id():
    out = VARIANTS["with calendar attachment"]
    assert out.to_bytes() == outgoing(**{**out.__dict__}).to_bytes()
    other = outgoing(**{**out.__dict__, "message_id": "<report.vmt-0001.soviet.10.abc@demo.test>"}).to_bytes()
    first = email.message_from_bytes(out.to_bytes()).get_boundary()
    assert first and first != email.message_from_bytes(other).get_boundary()


def test_each_image_travels_once_inline_in_the_html_and_nowhere_else():
    """Issue 12: a map attached twice doubled a Narva player's mailbox.  The HTML shows each image by
    its Content-ID; the plain text names it; the bytes are in the message once."""
    out = VARIANTS["html with inline map"]
    msg = email.message_from_bytes(out.to_bytes(), policy=email.policy.default)
    images = [p for p in msg.walk() if p.get_content_maintype() == "image"]
    assert len(images) == len(out.inline) >= 1
    assert msg.get_content_type() == "multipart/related"
    for item in out.inline:
        assert f"cid:{item.cid}" in out.html
