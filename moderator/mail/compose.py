"""Build outgoing MIME messages, byte for byte reproducible from logged data.

Everything that varies (Date, Message-ID, MIME boundaries) is derived from what the log records,
so replaying a game reproduces every report exactly (DESIGN §9).
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.policy import compat32
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
        return build_message(self).as_bytes(policy=_WIRE)


def thread_root(game: str, role: str, domain: str) -> str:
    """The Message-ID every mail of one seat's thread refers to (the invitation carries it)."""
    return f"<thread.{game}.{role}@{domain}>"


def thread_headers(root: str, subject: str) -> tuple[tuple[str, str], ...]:
    """Outlook groups conversations by Thread-Topic/Thread-Index; the others use References."""
    index = base64.b64encode(hashlib.sha256(root.encode()).digest()[:22]).decode()
    return (("Thread-Topic", subject), ("Thread-Index", index))


def make_message_id(kind: str, game: str, role: str, seq: int, domain: str, salt: str = "") -> str:
    token = hashlib.sha256(f"{kind}|{game}|{role}|{seq}|{salt}".encode()).hexdigest()[:16]
    return f"<{kind}.{game}.{role}.{seq}.{token}@{domain}>"


def _boundary(message_id: str, level: str) -> str:
    return "=_" + hashlib.sha256(f"{message_id}|{level}".encode()).hexdigest()[:28]


_UTF8_QP = Charset("utf-8")
_UTF8_QP.header_encoding = QP
_UTF8_QP.body_encoding = QP
_WIRE = compat32.clone(linesep="\r\n", max_line_length=78)


def _text(text: str, subtype: str) -> MIMENonMultipart:
    part = MIMENonMultipart("text", subtype)
    part.set_payload(text, charset=_UTF8_QP)
    return part


def _binary(item: Attachment, disposition: str) -> MIMEBase:
    part = MIMEBase(item.maintype, item.subtype, name=item.filename)
    part.set_payload(base64.encodebytes(item.content).decode("ascii"))
    part["Content-Transfer-Encoding"] = "base64"
    part.add_header("Content-Disposition", disposition, filename=item.filename)
    if item.cid:
        part["Content-ID"] = f"<{item.cid}>"
    return part


def build_message(out: Outgoing) -> Message:
    """The MIME tree: text, or text|HTML alternatives (HTML with its inline images), plus attachments.

    Built with the compat32 classes, which are several times faster than EmailMessage for the
    same bytes; boundaries come from the Message-ID so the bytes are reproducible.
    """
    text = _text(out.text, "plain")
    top: Message = text
    if out.html is not None:
        html: Message = _text(out.html, "html")
        if out.inline:
            related = MIMEMultipart("related", boundary=_boundary(out.message_id, "related"))
            related.attach(html)
            for item in out.inline:
                related.attach(_binary(item, "inline"))
            html = related
        top = MIMEMultipart("alternative", boundary=_boundary(out.message_id, "alternative"))
        top.attach(text)
        top.attach(html)
    if out.attachments:
        mixed = MIMEMultipart("mixed", boundary=_boundary(out.message_id, "mixed"))
        mixed.attach(top)
        for item in out.attachments:
            mixed.attach(_binary(item, "attachment"))
        top = mixed
    headers = [("From", formataddr((out.sender_name, out.sender), "utf-8")), ("To", out.recipient),
               ("Reply-To", out.reply_to), ("Subject", _header(out.subject)), ("Date", format_datetime(out.date)),
               ("Message-ID", out.message_id)]
    if out.in_reply_to:
        headers.append(("In-Reply-To", out.in_reply_to))
    if out.references:
        headers.append(("References", " ".join(out.references)))
    if out.list_id:
        headers.append(("List-Id", out.list_id))
    # RFC 3834: tells auto-responders not to answer us (a player's own reply is unaffected).
    headers.append(("Auto-Submitted", "auto-generated"))
    headers.extend(out.extra_headers)
    for part in top.walk():
        del part["MIME-Version"]  # the compat32 classes put one on every part; only the top needs it
    top["MIME-Version"] = "1.0"
    for name, value in reversed(headers):
        top._headers.insert(0, (name, value))  # headers first, in a stable order
    return top


def _header(value: str) -> str:
    try:
        value.encode("ascii")
        return value
    except UnicodeEncodeError:
        return Header(value, "utf-8").encode()
