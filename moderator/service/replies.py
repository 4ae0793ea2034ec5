"""What happened to an inbound message (`Outcome`), and the replies the mailroom sends about it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from moderator.core.plans import LineResult
from moderator.mail.echo import bounded_receipt_lines
from moderator.mail.envelope import Envelope
from moderator.mail.hygiene import Letter
from moderator.service.notices import Notices
from moderator.service.table import Table
from moderator.service.turns import envelope_lines
from moderator.store.models import Outbox, Seat


@dataclass
class Outcome:
    """What happened to one inbound message (for logs, tests and `mail process --dry-run`)."""

    status: str  # applied | receipt | quarantined | duplicate | command | joined
    reason: str = ""
    game_id: str = ""
    replies: list[Outbox] = field(default_factory=list)
    #: The referee released kept mail: the mailroom reads it once this message's transaction commits.
    released: bool = False


def receipt_of(letter: Letter, lines: Sequence[LineResult] = ()) -> dict[str, Any]:
    """The receipt of a message: how its text was read, and each order line with its verdict (as
    much of the player's text as a receipt may quote: what it leaves out is said among the problems)."""
    shown = [{"line_no": line.line_no, "source": line.source.strip(), "canonical": line.canonical,
              "error": line.error, "ok": line.ok, **_first_status(line)} for line in lines]
    shown, cut = bounded_receipt_lines(shown, letter.limits.echo_chars, letter.limits.echo_lines)
    return {"text_source": letter.text_source, "problems": [*letter.problems, *cut], "lines": shown,
            "verdict": "", "notes": [], "date": ""}


def _first_status(line: LineResult) -> dict[str, str]:
    """A line's status before anything is filed: prose is ignored, a bad line refused, the rest read
    (service/receipt_lines.py says later what became of it)."""
    if line.ignored:
        return {"status": "ignored", "label": "ignored", "why": "not an order"}
    if not line.ok:
        return {"status": "refused", "label": "refused", "why": ""}
    return {"status": "read", "label": "read", "why": line.note or ""}


def receipt_title(receipt: dict[str, Any]) -> str:
    """What a receipt's subject says: whether the orders were read."""
    if any(not line["ok"] for line in receipt.get("lines", [])):
        return "orders refused, nothing applied"
    if str(receipt.get("verdict", "")).startswith("CHECK"):
        return "CHECK: what your orders would do"
    statuses = {line.get("status") for line in receipt.get("lines", [])} - {"ignored", None}
    if statuses == {"not applied"}:
        return "your orders were not applied"
    return "orders received"


class Replies:
    """The mailroom's answers to a message, as notices."""

    def __init__(self, notices: Notices):
        self.notices = notices

    def receipt(self, session: Session, letter: Letter, envelope: Envelope, table: Table | None,
                paragraphs: list[str]) -> Outcome:
        """A receipt to the sender that says, in `paragraphs`, why nothing was done."""
        game_id = table.game.id if table else ""
        reply = self.notices.post(session, table, letter.sender, envelope.role or "player",
                                  "your message: nothing was done",
                                  paragraphs, receipt=receipt_of(letter), kind="receipt")
        return Outcome("receipt", " ".join(paragraphs)[:500], game_id, [reply])

    def seat_receipt(self, session: Session, table: Table, seat: Seat, receipt: dict[str, Any],
                     kind: str) -> Outcome:
        """The receipt of a seat's orders, with the lines to answer with."""
        reply = self.notices.post(session, table, seat.address, seat.role, receipt_title(receipt), [],
                                  receipt=receipt, kind=kind,
                                  envelope=envelope_lines(table.game.id, seat.role, table.game.phase_label,
                                                          seat.secret))
        return Outcome("receipt", receipt.get("verdict", ""), table.game.id, [reply])

    def text(self, session: Session, table: Table, seat: Seat, title: str, text: str, status: str) -> Outcome:
        """A command's answer (HELP, STATUS ...): `text` is the whole body."""
        reply = self.notices.post(session, table, seat.address, seat.role, title, [], kind=status, body=text)
        return Outcome("command", title, table.game.id, [reply])
