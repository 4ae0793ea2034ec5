"""Build outgoing MIME messages, byte for byte reproducible from logged data.

Everything that varies (Date, Message-ID, MIME boundaries) is derived from what the log records,
so replaying a game reproduces every report exactly (DESIGN §9).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from email.header import Header
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
        return build_bytes(self)


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


_CRLF = b"\r\n"


def _text(text: str, subtype: str) -> bytes:
    body = binascii.b2a_qp(text.replace("\r\n", "\n").encode("utf-8"), istext=True)
    return (f'Content-Type: text/{subtype}; charset="utf-8"\r\n'
            f"Content-Transfer-Encoding: quoted-printable\r\n\r\n").encode() + body.replace(b"\n", _CRLF)


def _binary(item: Attachment, disposition: str) -> bytes:
    head = [f'Content-Type: {item.maintype}/{item.subtype}; name="{item.filename}"',
            "Content-Transfer-Encoding: base64",
            f'Content-Disposition: {disposition}; filename="{item.filename}"']
    if item.cid:
        head.append(f"Content-ID: <{item.cid}>")
    body = base64.encodebytes(item.content).replace(b"\n", _CRLF)
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _multipart(subtype: str, boundary: str, parts: list[bytes]) -> bytes:
    out = [f'Content-Type: multipart/{subtype}; boundary="{boundary}"\r\n\r\n'.encode()]
    for part in parts:
        out.append(f"--{boundary}\r\n".encode())
        out.append(part + _CRLF)  # the line break before a delimiter belongs to the delimiter
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out)


def build_bytes(out: Outgoing) -> bytes:
    """The MIME message: text, or text|HTML alternatives, with the images both show (each once), plus
    attachments.

    Written directly rather than through the email package's generator, which spends most of a
    report's encoding time writing the body line by line (issue 4's throughput benchmark); the
    tests read every variant back with the email package.  Boundaries come from the Message-ID,
    so the bytes are reproducible.
    """
    body = _text(out.text, "plain")
    if out.html is not None:
        body = _multipart("alternative", _boundary(out.message_id, "alternative"), [body, _text(out.html, "html")])
    if out.inline:
        # Each image travels once: the HTML shows it by Content-ID, and a text-only reader gets it
        # as an attachment of the same part (multipart/related around both alternatives).
        body = _multipart("related", _boundary(out.message_id, "related"),
                          [body] + [_binary(item, "inline") for item in out.inline])
    if out.attachments:
        body = _multipart("mixed", _boundary(out.message_id, "mixed"),
                          [body] + [_binary(item, "attachment") for item in out.attachments])
    headers = [("From", formataddr((out.sender_name, out.sender), "utf-8")), ("To", out.recipient),
               ("Reply-To", out.reply_to), ("Subject", out.subject), ("Date", format_datetime(out.date)),
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
    headers.append(("MIME-Version", "1.0"))
    head = "".join(_fold(name, value) for name, value in headers)
    return head.encode("ascii") + body


def _fold(name: str, value: str) -> str:
    """One header line, folded at spaces to stay within 78 characters where it can (RFC 5322 2.2.3).

    Non-ASCII values become RFC 2047 encoded words, folded by the email package's Header.
    """
    value = value.replace("\r", " ").replace("\n", " ")  # never a line break from a value
    try:
        value.encode("ascii")
    except UnicodeEncodeError:
        return f"{name}: " + Header(value, "utf-8", header_name=name).encode(linesep="\r\n") + "\r\n"
    line, lines = f"{name}:", []
    for word in value.split(" "):
        if len(line) + 1 + len(word) > 78 and line != f"{name}:":
            lines.append(line)
            line = ""
        line += " " + word
    lines.append(line)
    return "\r\n".join(lines) + "\r\n"
