"""Read a raw message safely (DESIGN §6): which text to use, and whether to answer at all.

Nothing here decides rules or touches the database.  `read_letter` never raises on bad mail: it
returns a `Letter` whose `problems` say what was odd, so the receipt can tell the player.
"""

from __future__ import annotations

import contextlib
import email
import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.message import Message
from email.policy import compat32
from email.utils import collapse_rfc2231_value, getaddresses, parseaddr
from html.parser import HTMLParser
from typing import ClassVar

MAX_TEXT_CHARS = 64_000  # orders longer than this are not orders
MAX_LINES = 400


@dataclass
class Letter:
    message_id: str
    sender: str  # lower-cased address from From:
    sender_name: str
    return_path: str | None
    subject: str
    in_reply_to: str
    references: str
    text: str
    text_source: str
    size: int
    automatic: str | None = None  # why this mail must never be answered
    dsn_recipients: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    too_large: bool = False
    has_text: bool = True

    def lines(self) -> list[tuple[int, str]]:
        """Numbered lines of the usable text, quoted replies and signatures removed."""
        return usable_lines(self.text)


# ------------------------------------------------------------------ classification


def _automatic_reason(msg: Message, sender: str, own_addresses: set[str]) -> str | None:
    if msg.get_content_type() == "multipart/report":
        return "delivery status notification"  # before Auto-Submitted: bounces carry both
    auto = str(msg.get("Auto-Submitted", "")).strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = str(msg.get("Precedence", "")).strip().lower()
    if precedence in {"bulk", "junk", "list", "auto_reply"}:
        return f"Precedence: {precedence}"
    for header in ("List-Id", "List-Unsubscribe", "List-Post"):
        if msg.get(header):
            return f"mailing list ({header})"
    suppress = str(msg.get("X-Auto-Response-Suppress", "")).lower()
    if msg.get("X-Autoreply") or msg.get("X-Autorespond") or suppress in {"all", "oof"}:
        return "auto-reply headers"
    return_path = msg.get("Return-Path")
    if return_path is not None and parseaddr(str(return_path))[1] == "" and "<>" in str(return_path):
        return "null sender (bounce)"
    if not sender:
        return None  # not automatic, just unusable: the mailroom quarantines it as such
    local = sender.split("@", 1)[0]
    if local in {"mailer-daemon", "postmaster", "noreply", "no-reply", "bounce", "bounces"}:
        return f"automatic sender {sender}"
    if sender in own_addresses:
        return "our own address (mail loop)"
    subject = _safe_header(msg, "Subject").strip().lower()
    if re.match(r"^(auto(matic)? ?reply|out of (the )?office|abwesenheit|vacation)", subject):
        return "vacation or out-of-office notice"
    return None


def _dsn_recipients(msg: Message) -> list[str]:
    failed: list[str] = []
    for part in msg.walk():
        if part.get_content_type() == "message/delivery-status":
            payload = part.get_payload()
            blocks = payload if isinstance(payload, list) else []
            for block in blocks:
                if not isinstance(block, Message):
                    continue
                action = str(block.get("Action", "")).lower()
                recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "")
                if action == "failed" and recipient:
                    failed.append(recipient.split(";", 1)[-1].strip().lower())
    return failed


# ------------------------------------------------------------------ text extraction


class _HtmlText(HTMLParser):
    """HTML to plain text: block elements become line breaks, scripts and styles vanish."""

    BLOCKS: ClassVar[set[str]] = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
              "table", "ul", "ol"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "pre":
            self.pre += 1
        if tag in {"script", "style", "head"}:
            self.skip += 1
        elif tag == "blockquote":
            self.quote += 1
            self.parts.append("\n")
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self.pre:
            self.pre -= 1
        if tag in {"script", "style", "head"} and self.skip:
            self.skip -= 1
        elif tag == "blockquote" and self.quote:
            self.quote -= 1
            self.parts.append("\n")
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if not self.pre:
            # In HTML a line break in the source is a space; only elements break lines.
            data = re.sub(r"\s*\n\s*", " ", data)
        if self.quote:
            # Quoted material in HTML replies is the earlier report: mark it as quoted.
            data = "\n".join("> " + line for line in data.split("\n"))
        self.parts.append(data)

    def text(self) -> str:
        text = "".join(self.parts).replace("\xa0", " ")
        lines = [line.rstrip() for line in text.split("\n")]
        return "\n".join(lines).strip("\n")


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return parser.text()


def _decode(part: Message, problems: list[str]) -> str:
    decoded = part.get_payload(decode=True)
    payload = decoded if isinstance(decoded, bytes) else b""
    declared = part.get_content_charset()
    if declared:
        try:
            return _unflow(part, payload.decode(declared).removeprefix("\ufeff"))
        except (LookupError, UnicodeDecodeError):
            problems.append(f"the text did not decode as its declared charset {declared}")
    if payload.startswith(b"\xef\xbb\xbf"):
        payload = payload[3:]  # Notepad's byte-order mark
    for charset in ("utf-8", "cp1252", "latin-1"):
        try:
            text = payload.decode(charset)
        except UnicodeDecodeError:
            continue
        if not declared and any(b > 127 for b in payload):
            problems.append(f"no charset was declared; read as {charset}")
        elif declared:
            problems[-1] += f"; read as {charset}"
        return _unflow(part, text)
    return payload.decode("latin-1")  # pragma: no cover - latin-1 always decodes


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter as text (an RFC 2231 value comes as a tuple)."""
    value = part.get_param(name, "")
    return collapse_rfc2231_value(value) if isinstance(value, tuple) else value


def _unflow(part: Message, text: str) -> str:
    """Undo format=flowed (RFC 3676) so a wrapped order line is one line again."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _param(part, "format").lower() != "flowed":
        return text
    delsp = _param(part, "delsp").lower() == "yes"
    out: list[str] = []
    buffer = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.endswith(" ") and line != "-- ":
            buffer += line[:-1] if delsp else line
        else:
            out.append(buffer + line)
            buffer = ""
    if buffer:
        out.append(buffer)
    return "\n".join(out)


def _pick_text(msg: Message, problems: list[str]) -> tuple[str, str]:
    """The text to read and where it came from (the receipt names it)."""
    plain = None
    html = None
    attachment = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        content_type = part.get_content_type()
        disposition = part.get_content_disposition()
        filename = (part.get_filename() or "").lower()
        if disposition == "attachment" or (filename and disposition != "inline"):
            if attachment is None and (filename.endswith(".txt") or content_type == "text/plain") \
                    and len(part.get_payload(decode=True) or b"") <= MAX_TEXT_CHARS * 4:
                attachment = part
            continue
        if content_type == "text/plain" and plain is None:
            plain = part
        elif content_type == "text/html" and html is None:
            html = part
    if plain is not None:
        text = _decode(plain, problems)
        if not _has_orders_text(text) and attachment is not None:
            return _decode(attachment, problems), f"the attached file {_decoded(attachment.get_filename() or '')}"
        return text, "the text/plain part"
    if html is not None:
        return html_to_text(_decode(html, problems)), "the text of the HTML part (the message had no plain-text part)"
    if attachment is not None:
        return _decode(attachment, problems), f"the attached file {_decoded(attachment.get_filename() or '')}"
    return "", "nothing (no text part)"


def _has_orders_text(text: str) -> bool:
    """Anything left once quotes, reply headers and signatures are gone?"""
    return any(line.strip() for _, line in usable_lines(text))


# ------------------------------------------------------------------ quoting and signatures

# "On … wrote:" introduces a quote made of ">" lines; the player may write more below it.
_QUOTE_HEADERS = [
    re.compile(r"^\s*On .{0,200}wrote:\s*$", re.IGNORECASE),
    re.compile(r"^\s*Le .{0,200}a écrit\s*:\s*$", re.IGNORECASE),
    re.compile(r"^\s*Am .{0,200}schrieb .{0,200}:\s*$", re.IGNORECASE),
    re.compile(r"^\s*El .{0,200}escribió:\s*$", re.IGNORECASE),
]
# These start a quote that is not marked with ">" (Outlook, forwards) or a signature: stop reading.
_REPLY_MARKERS = [
    re.compile(r"^\s*-{2,}\s*Original Message\s*-{2,}\s*$", re.IGNORECASE),
    re.compile(r"^\s*-{2,}\s*Forwarded message\s*-{2,}\s*$", re.IGNORECASE),
    re.compile(r"^\s*_{10,}\s*$"),  # Outlook's separator line before the quoted header block
    re.compile(r"^\s*From: .+$"),  # Outlook puts From:/Sent: of the quoted mail in the body
    re.compile(r"^\s*(Sent from|Sent with|Sent via|Envoyé de|Envoyé depuis|Von meinem|Gesendet von|Enviado desde|"
               r"Inviato da)\b.{0,80}$", re.IGNORECASE),
    re.compile(r"^\s*Get Outlook for (iOS|Android).*$", re.IGNORECASE),
]


def quoted_lines(text: str) -> list[str]:
    """The quoted part of a reply: ">" lines, and everything after an Outlook-style reply header."""
    quoted: list[str] = []
    after_marker = False
    for line in text.split("\n"):
        stripped = line.rstrip()
        if any(marker.match(stripped) for marker in _REPLY_MARKERS):
            after_marker = True
        if after_marker:
            quoted.append(stripped.lstrip(">").strip())
        elif stripped.lstrip().startswith(">"):
            quoted.append(stripped.lstrip().lstrip(">").strip())
    return quoted


def usable_lines(text: str) -> list[tuple[int, str]]:
    """Number the lines of a body, dropping quoted text, reply headers and signatures.

    Line numbers refer to the text as the player wrote it, so the receipt's numbers match what
    they see in their own sent message.
    """
    result: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.rstrip()
        if stripped in ("-- ", "--", "—") or stripped == "-- ":
            break  # signature separator
        if any(marker.match(stripped) for marker in _REPLY_MARKERS):
            break
        if any(header.match(stripped) for header in _QUOTE_HEADERS):
            continue  # the quote below is ">"-marked and skipped line by line; orders may follow it
        if stripped.lstrip().startswith(">"):
            continue
        result.append((number, stripped))
        if len(result) > MAX_LINES:
            break
    return result


# ------------------------------------------------------------------ entry point


@dataclass(frozen=True)
class Headers:
    message_id: str
    sender: str
    subject: str


def read_headers(raw: bytes) -> Headers:
    """Message-ID, sender and subject, cheaply, for storing a message before it is read."""
    from email.parser import BytesHeaderParser

    head = BytesHeaderParser(policy=compat32).parsebytes(raw)
    sender = parseaddr(_safe_header(head, "From"))[1].strip().lower()
    return Headers(_safe_header(head, "Message-ID").strip(), sender, _safe_header(head, "Subject"))


def read_letter(raw: bytes, own_addresses: set[str], max_bytes: int) -> Letter:
    """Parse raw bytes into a Letter; never raises on malformed mail."""
    # The compat32 parser, with headers decoded here only where they are read: the default
    # policy's header objects cost several times the whole parse for the few headers we use.
    msg = email.message_from_bytes(raw, policy=compat32)
    problems: list[str] = []
    from_header = _raw_header(msg, "From")
    addresses = getaddresses([from_header])
    sender_name, sender = (addresses[0] if addresses else ("", ""))
    sender = sender.strip().lower()
    with contextlib.suppress(Exception):  # an undecodable encoded word: keep the name as written
        sender_name = str(make_header(decode_header(sender_name))) if "=?" in sender_name else sender_name
    if re.search(r"[\r\n\x00]", sender_name):
        # Line breaks hidden in an encoded display name are an injection attempt: no one to answer.
        problems.append("the From header hides line breaks")
        sender_name, sender = "", ""
    if len(addresses) > 1:
        problems.append("the From header names several addresses; only the first counts")
    if any(c in sender for c in "\r\n<>,;") or sender.count("@") != 1:
        problems.append("the sender address is malformed")
        sender = "" if sender.count("@") != 1 else sender
    return_path_header = msg.get("Return-Path")
    return_path = parseaddr(str(return_path_header))[1].lower() if return_path_header is not None else None
    subject = _safe_header(msg, "Subject")
    letter = Letter(
        message_id=_safe_header(msg, "Message-ID").strip(),
        sender=sender,
        sender_name=sender_name,
        return_path=return_path,
        subject=subject,
        in_reply_to=_safe_header(msg, "In-Reply-To").strip(),
        references=_safe_header(msg, "References").strip(),
        text="",
        text_source="",
        size=len(raw),
        problems=problems,
    )
    letter.automatic = _automatic_reason(msg, sender, own_addresses)
    if letter.automatic == "delivery status notification":
        letter.dsn_recipients = _dsn_recipients(msg)
    if len(raw) > max_bytes:
        letter.too_large = True
        letter.text_source = "nothing (the message was too large)"
        letter.problems.append(f"the message is {len(raw) / 1_000_000:.1f} MB; the limit is "
                               f"{max_bytes / 1_000_000:.1f} MB, so it was not read")
        return letter
    try:
        text, source = _pick_text(msg, letter.problems)
    except Exception as error:  # a structure the parser could not walk
        text, source = "", "nothing (the message structure could not be read)"
        letter.problems.append(f"the message could not be read: {type(error).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        letter.problems.append(f"only the first {MAX_TEXT_CHARS} characters of the text were read")
        text = text[:MAX_TEXT_CHARS]
    letter.text = text
    letter.text_source = source
    letter.has_text = bool(text.strip())
    return letter


def _raw_header(msg: Message, name: str) -> str:
    """A header as it came, unfolded; "" when absent or unreadable."""
    try:
        value = msg.get(name)
    except Exception:
        return ""
    if value is None:
        return ""
    # A header can never legitimately carry a line break once unfolded: refuse injection.
    return re.sub(r"[\r\n]+", " ", str(value))


def _decoded(value: str) -> str:
    """RFC 2047 encoded words decoded; the text as it was if they are broken."""
    if "=?" not in value:
        return value
    try:
        return re.sub(r"[\r\n]+", " ", str(make_header(decode_header(value))))
    except Exception:
        return value


def _safe_header(msg: Message, name: str) -> str:
    return _decoded(_raw_header(msg, name))
