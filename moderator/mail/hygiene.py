"""Read a raw message safely (DESIGN §6): which text to use, and whether to answer at all.

Nothing here decides rules or touches the database.  `read_letter` never raises on bad mail: it
returns a `Letter` whose `problems` say what was odd, so the receipt can tell the player, and whose
`automatic`, `unsafe` and `too_long` say why it must not be answered, or not acted on.
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

from moderator.mail.echo import clip, listed


@dataclass(frozen=True)
class ReadLimits:
    """How much of a message is read, and how much of it a reply may quote (the defaults, and why,
    are in settings.py)."""

    max_bytes: int  # a larger message is not read
    max_lines: int  # a text with more lines to read is refused whole ...
    max_chars: int  # ... and so is one whose lines to read hold more characters
    max_hops: int  # more Received headers than this: a mail loop
    echo_chars: int  # a reply quotes at most this much of one line of the sender's text ...
    echo_lines: int  # ... and at most this many lines


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
    limits: ReadLimits
    automatic: str | None = None  # why this mail must never be answered
    unsafe: str = ""  # why nothing in it may be acted on, though its sender may be answered
    others: list[tuple[str, str]] = field(default_factory=list)  # (address, header) besides the sender
    dsn_recipients: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    too_large: bool = False
    too_long: bool = False  # more lines (or characters) to read than the limits allow
    written_lines: int = 0  # the lines to read (counted up to one past the limit)
    written_chars: int = 0  # their characters (likewise)
    has_text: bool = True
    usable: list[tuple[int, str]] = field(default_factory=list)

    def lines(self) -> list[tuple[int, str]]:
        """Numbered lines of the usable text, quoted replies, signatures and blank lines removed."""
        return self.usable


# ------------------------------------------------------------------ classification


def _automatic_reason(msg: Message, sender: str, own_addresses: set[str], max_hops: int) -> str | None:
    hops = len(_all_raw(msg, "Received"))
    if hops > max_hops:
        # Each server adds one; RFC 5321 (6.3) counts them to break loops.  Checked first: a
        # looping bounce must not be counted as a bounce again at every turn of the loop.
        return f"mail loop: {hops} Received headers (the limit is {max_hops})"
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
            problems.append(f"the text did not decode as its declared charset {clip(declared, 40)}")
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


def _pick_text(msg: Message, problems: list[str], limits: ReadLimits) -> tuple[str, str]:
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
                    and len(part.get_payload(decode=True) or b"") <= limits.max_chars * 4:
                attachment = part
            continue
        if content_type == "text/plain" and plain is None:
            plain = part
        elif content_type == "text/html" and html is None:
            html = part
    if plain is not None:
        text = _decode(plain, problems)
        if not _has_orders_text(text) and attachment is not None:
            return _decode(attachment, problems), _attached(attachment, limits)
        return text, "the text/plain part"
    if html is not None:
        return html_to_text(_decode(html, problems)), "the text of the HTML part (the message had no plain-text part)"
    if attachment is not None:
        return _decode(attachment, problems), _attached(attachment, limits)
    return "", "nothing (no text part)"


def _attached(part: Message, limits: ReadLimits) -> str:
    return f"the attached file {clip(_decoded(part.get_filename() or ''), limits.echo_chars)}"


def _has_orders_text(text: str) -> bool:
    """Anything left once quotes, reply headers and signatures are gone?"""
    return bool(usable_lines(text, most_lines=0))


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
        if after_marker:
            quoted.append(stripped.lstrip(">").strip())
        elif stripped.lstrip().startswith(">"):  # (no reply marker starts with ">")
            quoted.append(stripped.lstrip().lstrip(">").strip())
        elif stripped and any(marker.match(stripped) for marker in _REPLY_MARKERS):
            after_marker = True
            quoted.append(stripped.strip())
    return quoted


#: Characters a mail program puts in text that the writer never sees: zero-width spaces and joiners,
#: the word joiner, a byte-order mark.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
#: Every other kind of space (tabs, non-breaking spaces, the typographic spaces of U+2000-U+200A,
#: the narrow and ideographic ones) is a space in an order.
_SPACE = re.compile(r"\s")


def plain_spaces(line: str) -> str:
    """One line with every Unicode space as a plain space and invisible characters removed (a
    non-breaking space between GAME and its value is a space, as the writer saw it)."""
    return _SPACE.sub(" ", _INVISIBLE.sub("", line))


def usable_lines(text: str, most_lines: int | None = None, most_chars: int | None = None) -> list[tuple[int, str]]:
    """Number the lines of a body, dropping quoted text, reply headers, signatures and blank lines.

    Line numbers refer to the text as the player wrote it, so the receipt's numbers match what
    they see in their own sent message.  Reading stops as soon as there are more than `most_lines`
    lines or `most_chars` characters: such a text is refused whole, and a hostile one (a million
    short lines) must not cost more than one that is merely too long.
    """
    result: list[tuple[int, str]] = []
    chars = 0
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = plain_spaces(line).rstrip()
        if not stripped or stripped.lstrip().startswith(">"):
            continue  # nothing reads blank lines; no reply marker or signature starts with ">"
        if stripped in ("--", "—"):
            break  # signature separator ("-- " once its trailing space is stripped)
        if any(marker.match(stripped) for marker in _REPLY_MARKERS):
            break
        if any(header.match(stripped) for header in _QUOTE_HEADERS):
            continue  # the quote below is ">"-marked and skipped line by line; orders may follow it
        result.append((number, stripped))
        chars += len(stripped)
        if (most_lines is not None and len(result) > most_lines) or (most_chars is not None and chars > most_chars):
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


def same_text(first: bytes, second: bytes) -> bool:
    """Do two copies of a message carry the same body (line endings aside)?  The servers a copy
    passes through add headers (Received, Return-Path); the body is what the sender sent."""
    return _body(first) == _body(second)


def _body(raw: bytes) -> bytes:
    parts = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)
    return parts[1].replace(b"\r\n", b"\n").strip() if len(parts) > 1 else b""


def read_letter(raw: bytes, own_addresses: set[str], limits: ReadLimits, size: int | None = None) -> Letter:
    """Parse raw bytes into a Letter; never raises on malformed mail.

    `size` is the size of the message as received when `raw` holds only its beginning (a message
    over `limits.max_bytes` is stored cut, and is not read anyway).
    """
    # The compat32 parser, with headers decoded here only where they are read: the default
    # policy's header objects cost several times the whole parse for the few headers we use.
    msg = email.message_from_bytes(raw, policy=compat32)
    problems: list[str] = []
    sender_name, sender, unsafe = _read_from(msg, problems)
    return_path_header = msg.get("Return-Path")
    return_path = parseaddr(str(return_path_header))[1].lower() if return_path_header is not None else None
    letter = Letter(
        message_id=_safe_header(msg, "Message-ID").strip(),
        sender=sender,
        sender_name=sender_name,
        return_path=return_path,
        subject=_safe_header(msg, "Subject"),
        in_reply_to=_safe_header(msg, "In-Reply-To").strip(),
        references=_safe_header(msg, "References").strip(),
        text="",
        text_source="",
        size=len(raw) if size is None else size,
        limits=limits,
        unsafe=unsafe,
        others=_other_addresses(msg, sender),
        problems=problems,
    )
    if letter.others and sender:
        problems.append(f"the message also names {listed([f'{a} ({h})' for a, h in letter.others], limits.echo_chars)}"
                        f"; the moderator writes only to {clip(sender, limits.echo_chars)}")
    letter.automatic = _automatic_reason(msg, sender, own_addresses, limits.max_hops)
    if letter.automatic == "delivery status notification":
        letter.dsn_recipients = _dsn_recipients(msg)
    if letter.size > limits.max_bytes:
        letter.too_large = True
        letter.text_source = "nothing (the message was too large)"
        letter.problems.append(f"the message is {letter.size / 1_000_000:.1f} MB; the limit is "
                               f"{limits.max_bytes / 1_000_000:.1f} MB, so it was not read")
        return letter
    _read_text(letter, msg)
    return letter


def _read_from(msg: Message, problems: list[str]) -> tuple[str, str, str]:
    """The display name and address of the first From address, and why the message must not be
    acted on ("" when nothing in the From header forbids it)."""
    addresses = getaddresses(_all_raw(msg, "From"))
    sender_name, sender = (addresses[0] if addresses else ("", ""))
    sender = sender.strip().lower()
    with contextlib.suppress(Exception):  # an undecodable encoded word: keep the name as written
        sender_name = str(make_header(decode_header(sender_name))) if "=?" in sender_name else sender_name
    unsafe = ""
    if re.search(r"[\r\n\x00]", sender_name):
        # Line breaks hidden in an encoded display name are how a reply is made to carry a Bcc:
        # the name is dropped (no reply ever uses it), and the address alone may be answered.
        problems.append("the display name in the From header hides line breaks; it was ignored")
        unsafe = ("The display name in its From header hides line breaks (the way a reply is made to "
                  "reach other recipients), so nothing in it was acted on. Check the name your mail "
                  "program sends, then send the message again.")
        sender_name = ""
    if any(c in sender for c in "\r\n<>,;") or sender.count("@") != 1:
        problems.append("the sender address is malformed")
        sender = "" if sender.count("@") != 1 else sender
    return sender_name, sender, unsafe


def _other_addresses(msg: Message, sender: str) -> list[tuple[str, str]]:
    """Addresses a message names besides its sender: more From addresses (in one From header or
    in several), Reply-To and Sender.  Replies never go to them; receipts and notices name them."""
    named = [(address, "From") for _, address in getaddresses(_all_raw(msg, "From"))[1:]]
    for header in ("Reply-To", "Sender"):
        named += [(address, header) for _, address in getaddresses(_all_raw(msg, header))]
    others: list[tuple[str, str]] = []
    for address, header in named:
        address = address.strip().lower()
        if address and address != sender and address not in [a for a, _ in others]:
            others.append((address, header))
    return others


def _read_text(letter: Letter, msg: Message) -> None:
    """Fill in the text to read, where it came from, its lines, and whether there are too many."""
    limits = letter.limits
    try:
        text, source = _pick_text(msg, letter.problems, limits)
    except Exception as error:  # a structure the parser could not walk
        text, source = "", "nothing (the message structure could not be read)"
        letter.problems.append(f"the message could not be read: {type(error).__name__}")
    letter.text = text
    letter.text_source = source
    letter.usable = usable_lines(text, limits.max_lines, limits.max_chars)  # stops just past a limit
    letter.written_lines = len(letter.usable)
    letter.written_chars = sum(len(line) for _, line in letter.usable)
    letter.too_long = letter.written_lines > limits.max_lines or letter.written_chars > limits.max_chars
    letter.has_text = bool(text.strip())


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


def _all_raw(msg: Message, name: str) -> list[str]:
    """Every header `name` as it came, unfolded (a message may carry a header twice)."""
    try:
        values = msg.get_all(name) or []
    except Exception:
        return []
    return [re.sub(r"[\r\n]+", " ", str(value)) for value in values]


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
