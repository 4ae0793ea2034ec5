"""The same orders sent again are taken once (issue 12).

A player who is not sure the first copy arrived sends the orders again; a mail program sends a
message twice under two Message-IDs.  Taken again, the second copy would queue the orders a second
time, and lines the first copy already answered would answer later questions.  The rule that
recognises a resend, and why it is that rule, is in docs/design-notes.md ("Resent orders").
"""

from __future__ import annotations

import json
import re

from sqlmodel import Session

from moderator.core.plans import ParsedBody
from moderator.mail.envelope import Envelope
from moderator.mail.hygiene import Letter
from moderator.service.table import Table, dumps
from moderator.store import inbound as inbound_rows
from moderator.store.inbound import TakenOrders
from moderator.store.models import Seat, Submission

_MESSAGE_ID = re.compile(r"<[^<>\s]+>")


def normalised_orders(body: ParsedBody, envelope: Envelope) -> str:
    """The orders of a message as the moderator read them: each order line in its canonical form,
    in the order written, with CONTINUE where it stands.  The envelope, comments, blank lines,
    prose (a greeting, a sign-off), quoted text, the signature, spacing and case do not count."""
    items = [(line.line_no, line.canonical or "") for line in body.lines if not line.ignored]
    items += [(number, command) for number, command, _ in envelope.commands if command == "CONTINUE"]
    return "\n".join(text for _, text in sorted(items))


def open_decisions(table: Table, seat: Seat) -> list[str]:
    """The keys of the decisions open for the seat now."""
    return sorted(d.key for d in table.engine.pending(table.state) if d.role == seat.role)


def earlier_copy(session: Session, table: Table, seat: Seat, letter: Letter, orders: str) -> TakenOrders | None:
    """The seat's latest accepted orders, when this message sends the same ones again; else None.

    The same: the same (non-empty) orders, normalised; the game still in the phase it was in once
    those orders were taken; nothing open for the seat that was not open then; and the message
    does not reply to a mail sent to the seat since then (its player may be answering that).
    """
    if not orders:
        return None
    latest = inbound_rows.latest_orders(session, table.game.id, seat.role)
    if latest is None or latest.orders != orders or latest.phase != table.game.phase_label:
        return None
    if not set(open_decisions(table, seat)) <= set(json.loads(latest.open_json or "[]")):
        return None
    replied_to = _MESSAGE_ID.findall(f"{letter.in_reply_to} {letter.references}")
    if inbound_rows.sent_to_since(session, seat.address, replied_to, latest.created_at):
        return None
    return latest


def remember_taken(submission: Submission, table: Table, seat: Seat, orders: str) -> Submission:
    """Note on the accepted orders what recognises them if they come again: called once they have
    been taken (run, or filed to wait for the change-of-mind delay or the referee's pause)."""
    submission.orders = orders
    submission.phase = table.game.phase_label
    submission.open_json = dumps(open_decisions(table, seat))
    return submission


def resend_verdict(table: Table, seat: Seat, earlier: TakenOrders) -> str:
    """The receipt's verdict on a resend: which earlier message it repeats, and what is queued now."""
    queued = [line.render() for line in table.plan(seat.role).script]
    now_queued = f"Queued now: {'; '.join(queued)}." if queued else "Nothing is queued now."
    return (f"These are the same orders you sent at {earlier.created_at:%Y-%m-%d %H:%M} UTC, which were taken "
            f"then: recognised as a resend, nothing was queued again. {now_queued} If you meant them as new "
            f"orders, send them once the game has asked you something new.")
