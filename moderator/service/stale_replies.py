"""A reply to an older report (issue 12): its one-off orders are not applied to a later phase.

A player who answers a report after a newer one has reached them (the mails crossed, or they
replied to the wrong mail) wrote for a situation that has passed: taken as a script, those lines
would answer whatever the game asks now.  A message is such a reply when

* its threading headers (In-Reply-To, References) name a report sent to the seat, the newest of
  them is not the newest report the seat was sent, and that report was about another phase than
  the game's now; or, when they name none of the seat's reports,
* the report it quotes carries a PHASE line (every report's "HOW TO ANSWER" has one) naming a phase
  the seat was sent a report in, and not the phase the game is in now.

Within one phase the game may ask a seat several questions one after another (VMT's card, then its
moves; Duel's ATTACK, then the card to commit), each in its own report.  So a reply to an older
report of the phase the game is still in is stale too when none of the questions that report asked
(its "[key]" lines) is open now: it was written for a question that has been answered since.  A
reply whose report asked nothing, or asked a question still open, is taken as written.

A reply to the newest report is never stale, whatever happened since (orders sent ahead of time
are how a player saves round trips), and a message that names no report is taken as written.
The one-off orders (script and keyed lines) of a stale reply are not filed; its standing orders
are, since they answer future questions whenever they were written.  The receipt says which
report the message answered and what the game asks now.
"""

from __future__ import annotations

import email
import json
import re
from dataclasses import dataclass
from datetime import datetime
from email.policy import default as default_policy

from sqlmodel import Session

from moderator.mail.hygiene import Letter, quoted_lines
from moderator.service.table import Table
from moderator.store import outbox as outbox_rows
from moderator.store.models import Seat

_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
_PHASE_LINE = re.compile(r"^\s*PHASE\s+(\S+)", re.MULTILINE)
#: A question of "WHAT WE NEED FROM YOU": "  1. [r3.act] ATTACK or REST?" (quoted, the "> " is gone).
_QUESTION_LINE = re.compile(r"^\s*\d+\.\s+\[([^\]\s]+)\]", re.MULTILINE)
#: At most this many Message-IDs of the threading headers are looked up (a References header may be long).
MOST_IDS = 30


@dataclass(frozen=True)
class Answered:
    """The older report a message replies to."""

    subject: str
    sent_at: datetime
    phase: str
    #: The questions that report asked, when it is stale for them (the phase is still the game's).
    questions: tuple[str, ...] = ()

    def describe(self) -> str:
        return f"your report \"{self.subject}\" of {self.sent_at:%a %d %b %H:%M} UTC (phase {self.phase})"

    def reason(self) -> str:
        """Why its one-off orders were not applied, for each line of the receipt."""
        if self.questions:
            return f"written for {_keys(self.questions)}, answered since"
        return f"written for phase {self.phase}"


def _keys(keys: tuple[str, ...]) -> str:
    return ", ".join(f"[{key}]" for key in keys)


def answered_report(session: Session, table: Table, seat: Seat, letter: Letter) -> Answered | None:
    """The older report of another phase this message replies to, or None (module docstring)."""
    named = list(dict.fromkeys(_MESSAGE_ID.findall(f"{letter.references} {letter.in_reply_to}")))[-MOST_IDS:]
    reports = [row for row in (outbox_rows.by_message_id(session, mid) for mid in named)
               if row is not None and row.kind == "report" and row.game_id == table.game.id
               and row.recipient == seat.address]
    now = table.game.phase_label
    if reports:
        newest = max(reports, key=lambda row: row.id or 0)
        latest = outbox_rows.by_message_id(session, seat.last_report_message_id or "")
        if latest is None or (latest.id or 0) <= (newest.id or 0):
            return None
        text = _text_of(newest.raw)
        phase = phase_of_report(text)
        if phase is None:
            return None
        if phase.upper() != now.upper():
            return Answered(newest.subject, newest.created_at, phase)
        closed = _closed_questions(table, seat, questions_of(text))
        return Answered(newest.subject, newest.created_at, phase, closed) if closed else None
    return _by_quoted_phase(table, seat, letter, now)


def _text_of(raw: bytes) -> str:
    """A sent report's text part."""
    message = email.message_from_bytes(raw, policy=default_policy)
    body = message.get_body(("plain",))
    return body.get_content() if body is not None else ""


def phase_of_report(text: str) -> str | None:
    """The PHASE of a report's "HOW TO ANSWER" envelope, from its text."""
    found = _PHASE_LINE.findall(text)
    return found[-1] if found else None


def questions_of(text: str) -> tuple[str, ...]:
    """The keys of the questions a report's "WHAT WE NEED FROM YOU" asked, from its (quoted) text."""
    return tuple(dict.fromkeys(_QUESTION_LINE.findall(text)))


def _closed_questions(table: Table, seat: Seat, asked: tuple[str, ...]) -> tuple[str, ...]:
    """`asked` when it names questions and none of them is open for the seat now, else ()."""
    open_now = {d.key for d in table.engine.pending(table.state) if d.role == seat.role}
    return asked if asked and not open_now.intersection(asked) else ()


def _by_quoted_phase(table: Table, seat: Seat, letter: Letter, now: str) -> Answered | None:
    """The seat's latest report of the phase the quoted report names, when that is not the phase now."""
    lines = quoted_lines(letter.text)
    quoted = [line.split("#", 1)[0].split() for line in lines]
    phases = [words[1] for words in quoted if len(words) == 2 and words[0] == "PHASE"]
    if not phases:
        return None
    wanted = phases[-1].upper()
    if wanted == now.upper():
        return _by_quoted_questions(table, seat, questions_of("\n".join(lines)))
    for entry in reversed(table.log(0, ("report",))):
        if entry.role != seat.role:
            continue
        payload = json.loads(entry.payload_json)
        for line in payload.get("envelope", []):
            match = _PHASE_LINE.match(line)
            if match and match.group(1).upper() == wanted:
                return Answered(payload.get("subject", ""), entry.created_at, match.group(1))
    return None


def _by_quoted_questions(table: Table, seat: Seat, asked: tuple[str, ...]) -> Answered | None:
    """The seat's older report of the phase now that asked the quoted questions, when none of them is
    open now; None when no report of the seat asked them, or the newest one did (a reply to it)."""
    closed = _closed_questions(table, seat, asked)
    entries = [entry for entry in table.log(0, ("report",)) if entry.role == seat.role]
    if not closed or not entries:
        return None
    for index, entry in reversed(list(enumerate(entries))):
        payload = json.loads(entry.payload_json)
        if set(payload.get("deadlines", {})).intersection(closed):
            if index == len(entries) - 1:
                return None
            return Answered(payload.get("subject", ""), entry.created_at, table.game.phase_label, closed)
    return None


def stale_notes(answered: Answered, table: Table, seat: Seat) -> list[str]:
    """What the receipt of a stale reply says: the report it answered, and what is asked now."""
    asked = [d for d in table.engine.pending(table.state) if d.role == seat.role]
    if asked:
        now = "Now you are asked: " + "; ".join(f"[{d.key}] {d.prompt.rstrip('.')}" for d in asked)
    else:
        now = "Nothing is asked of you now"
    if answered.questions:
        moved = (f"and {_keys(answered.questions)} it asked has been answered since (the game is still in phase "
                 f"{table.game.phase_label})")
    else:
        moved = f"and the game has moved on since: it is now in phase {table.game.phase_label}"
    return [f"This message replies to {answered.describe()}, {moved}. So its one-off orders were not applied "
            f"(they could answer a later "
            f"question by mistake); standing orders in it count. {now}. To give orders for now, reply to your "
            f"latest report (or send them without quoting an older one)."]
