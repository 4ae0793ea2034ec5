"""Sending the outbox: its own job, with retries and exponential backoff (DESIGN §6).

A row is marked 'handed' (committed) before the transport is called and 'sent' after; a crash in
between leaves it 'handed', and the next drain hands it over again.  Transports are idempotent
per Message-ID where they can be (the Maildir transport is), so nothing is delivered twice.
"""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import or_, select

from moderator.store.models import Outbox

MAX_ATTEMPTS = 12


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(3600, 30 * (2 ** max(0, attempts - 1))))


def drain(app, limit: int = 500) -> int:
    """Send what is due; return how many messages were sent."""
    now = app.clock.now()
    with app.db.session() as session:
        rows = session.exec(select(Outbox).where(
            or_(Outbox.status == "pending", Outbox.status == "handed"),
            or_(Outbox.next_attempt_at.is_(None), Outbox.next_attempt_at <= now))  # type: ignore[union-attr]
            .order_by(Outbox.id).limit(limit)).all()
        ids = [row.id for row in rows]
    sent = 0
    for row_id in ids:
        with app.db.session() as session:
            row = session.get(Outbox, row_id)
            if row is None or row.status == "sent":
                continue
            if row.status == "handed" and getattr(app.outbound, "was_sent", None) and app.outbound.was_sent(row.message_id):
                # A crash came between the server accepting it and this row saying so.
                row.status = "sent"
                row.sent_at = app.clock.now()
                session.add(row)
                continue
            row.status = "handed"
            row.handed_at = app.clock.now()
            row.attempts += 1
            session.add(row)
            raw, recipient, message_id = row.raw, row.recipient, row.message_id
        try:
            app.outbound.send(raw, recipient, message_id)
        except Exception as error:  # the transport failed: retry later
            with app.db.session() as session:
                row = session.get(Outbox, row_id)
                row.status = "failed" if row.attempts >= MAX_ATTEMPTS else "pending"
                row.last_error = f"{type(error).__name__}: {error}"[:2000]
                row.next_attempt_at = app.clock.now() + backoff(row.attempts)
                session.add(row)
            continue
        with app.db.session() as session:
            row = session.get(Outbox, row_id)
            row.status = "sent"
            row.sent_at = app.clock.now()
            session.add(row)
        sent += 1
    return sent
