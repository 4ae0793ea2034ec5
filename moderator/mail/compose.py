"""Build outgoing MIME messages, byte for byte reproducible from logged data.

Everything that varies (Date, Message-ID, MIME boundaries) is derived from what the log records,
so replaying a game reproduces every report exactly (DESIGN §9).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr


@dataclass(frozen=True)
class Attachment:
    filename: str
    content: bytes
    maintype: str
    subtype: str
    cid: str | None = None  # inline, referenced from the HTML by Content-ID


@dataclass
class Outgoing:
    """A message ready for the outbox."""

    recipient: str
    subject: str
    text: str
    message_id: str
    date: datetime
    sender: str
    sender_name: str
    reply_to: str
    html: str | None = None
    inline: list[Attachment] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    list_id: str = ""
    extra_headers: tuple[tuple[str, str], ...] = ()

    def to_bytes(self) -> bytes:
        return build_message(self).as_bytes(policy=SMTP)


def make_message_id(kind: str, game: str, role: str, seq: int, domain: str, salt: str = "") -> str:
    token = hashlib.sha256(f"{kind}|{game}|{role}|{seq}|{salt}".encode()).hexdigest()[:16]
    return f"<{kind}.{game}.{role}.{seq}.{token}@{domain}>"


def _boundary(message_id: str, level: str) -> str:
    return "=_" + hashlib.sha256(f"{message_id}|{level}".encode()).hexdigest()[:28]


def build_message(out: Outgoing) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = formataddr((out.sender_name, out.sender))
    msg["To"] = out.recipient
    msg["Reply-To"] = out.reply_to
    msg["Subject"] = out.subject
    msg["Date"] = format_datetime(out.date)
    msg["Message-ID"] = out.message_id
    if out.in_reply_to:
        msg["In-Reply-To"] = out.in_reply_to
    if out.references:
        msg["References"] = " ".join(out.references)
    if out.list_id:
        msg["List-Id"] = out.list_id
    # RFC 3834: tells auto-responders not to answer us (a player's own reply is unaffected).
    msg["Auto-Submitted"] = "auto-generated"
    for name, value in out.extra_headers:
        msg[name] = value
    msg.set_content(out.text, charset="utf-8", cte="quoted-printable")
    if out.html is not None:
        msg.add_alternative(out.html, subtype="html", charset="utf-8", cte="quoted-printable")
        if out.inline:
            html_part = msg.get_payload()[1]
            for item in out.inline:
                html_part.add_related(item.content, maintype=item.maintype, subtype=item.subtype,
                                      cid=f"<{item.cid}>", filename=item.filename, disposition="inline")
    for item in out.attachments:
        msg.add_attachment(item.content, maintype=item.maintype, subtype=item.subtype, filename=item.filename)
    for index, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(_boundary(out.message_id, str(index)))
    return msg
