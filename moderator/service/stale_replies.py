"""A reply to an older report (issue 12): its one-off orders are not applied to a later phase.

A player who answers a report after a newer one has reached them (the mails crossed, or they
replied to the wrong mail) wrote for a situation that has passed: taken as a script, those lines
would answer whatever the game asks now.  A message is such a reply when

* its threading headers (In-Reply-To, References) name a report sent to the seat, the newest of
  them is not the newest report the seat was sent, and that report was about another phase than
  the game's now; or, when they name none of the seat's reports,
* the report it quotes carries a PHASE line (every report's "HOW TO ANSWER" has one) naming a phase
  the seat was sent a report in, and not the phase the game is in now.

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
#: At most this many Message-IDs of the threading headers are looked up (a References header may be long).
MOST_IDS = 30


@dataclass(frozen=True)
class Answered:
    """The older report a message replies to."""

    subject: str
    sent_at: datetime
    phase: str

    def describe(self) -> str:
        return f"your report \"{self.subject}\" of {self.sent_at:%a %d %b %H:%M} UTC (phase {self.phase})"


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
        phase = phase_of_report(newest.raw)
        if phase is None or phase.upper() == now.upper():
            return None
        return Answered(newest.subject, newest.created_at, phase)
    return _by_quoted_phase(table, seat, letter, now)


def phase_of_report(raw: bytes) -> str | None:
    """The PHASE of a report's "HOW TO ANSWER" envelope, from its text part."""
    message = email.message_from_bytes(raw, policy=default_policy)
    body = message.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    found = _PHASE_LINE.findall(text)
    return found[-1] if found else None


def _by_quoted_phase(table: Table, seat: Seat, letter: Letter, now: str) -> Answered | None:
    """The seat's latest report of the phase the quoted report names, when that is not the phase now."""
    quoted = [line.split("#", 1)[0].split() for line in quoted_lines(letter.text)]
    phases = [words[1] for words in quoted if len(words) == 2 and words[0] == "PHASE"]
    if not phases or phases[-1].upper() == now.upper():
        return None
    wanted = phases[-1].upper()
    for entry in reversed(table.log(0, ("report",))):
        if entry.role != seat.role:
            continue
        payload = json.loads(entry.payload_json)
        for line in payload.get("envelope", []):
            match = _PHASE_LINE.match(line)
            if match and match.group(1).upper() == wanted:
                return Answered(payload.get("subject", ""), entry.created_at, match.group(1))
    return None


def stale_notes(answered: Answered, table: Table, seat: Seat) -> list[str]:
    """What the receipt of a stale reply says: the report it answered, and what is asked now."""
    asked = [d for d in table.engine.pending(table.state) if d.role == seat.role]
    if asked:
        now = "Now you are asked: " + "; ".join(f"[{d.key}] {d.prompt}" for d in asked)
    else:
        now = "Nothing is asked of you now"
    return [f"This message replies to {answered.describe()}, and the game has moved on since: it is now in "
            f"phase {table.game.phase_label}. So its one-off orders were not applied (they could answer a later "
            f"question by mistake); standing orders in it count. {now}. To give orders for now, reply to your "
            f"latest report (or send them without quoting an older one)."]
