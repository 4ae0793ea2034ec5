"""Sending the outbox: its own job, with retries and exponential backoff (DESIGN §6).

A row is marked 'handed' (committed) before the transport is called and 'sent' after; a crash in
between leaves it 'handed', and the next drain hands it over again.  Transports are idempotent
per Message-ID where they can be (the Maildir transport is), so nothing is delivered twice.  Over
SMTP the proof of an earlier hand-over is the copy the server files in the Sent mailbox; the MTA
delivers that copy a moment after it accepted the message, so a 'handed' row is looked at again
only once HANDED_GRACE has passed (else a crash right after acceptance would send it twice).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy import bindparam
from sqlmodel import or_, select, update

from moderator.clock import as_utc
from moderator.core.errors import MailMaybeDelivered, MailServerUnavailable
from moderator.store.deferred import defer_insert
from moderator.store.models import Outbox

log = logging.getLogger("moderator.outbox")

MAX_ATTEMPTS = 12
HANDED_GRACE = timedelta(seconds=20)
WAITS_BEHIND = "waits behind an earlier message to the same address that failed"
# The server failed before it was offered the message (unreachable, refused our login, closing):
# the try backs off but does not count against the message's attempts, so a mail provider's
# outage of a weekend costs nobody a report.  The cap is for messages the server keeps refusing.
SERVER_UNAVAILABLE = "the mail server was unavailable"
# The connection broke while the server was taking the message: it may have gone.  The row stays
# 'handed', so the sent copy decides (after HANDED_GRACE) before it is sent again.
MAYBE_DELIVERED = "the connection broke while the server took the message"


# Every column but the key, so all queued rows name the same columns (one INSERT for them all).
COLUMNS = tuple(column.name for column in Outbox.__table__.columns if column.name != "id")  # type: ignore[attr-defined]


def queue_mail(session, **fields) -> Outbox:
    """Put a message in the outbox, written with the session's transaction (store/deferred.py).
    The row returned is for the caller to read (its recipient, subject, bytes), not to change."""
    row = Outbox(**fields)
    defer_insert(session, Outbox, {name: getattr(row, name) for name in COLUMNS})
    return row


def describe_failure(error: Exception) -> str:
    """How a failed hand-over is recorded: the kind of failure first (see _record)."""
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, MailServerUnavailable):
        return f"{SERVER_UNAVAILABLE}: {text}"
    if isinstance(error, MailMaybeDelivered):
        return f"{MAYBE_DELIVERED}: {text}"
    return text


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(3600, 30 * (2 ** max(0, attempts - 1))))


def drain(app, limit: int = 500) -> int:
    """Send what is due; return how many messages were sent."""
    batch = getattr(app.outbound, "batch", None)
    if batch is None:
        return _drain(app, app.outbound, limit)
    with batch() as transport:
        return _drain(app, transport, limit)


# Built once with bind parameters: a drain claims every row it sends, and composing the
# statement through the ORM cost more than running it.
CLAIM = (update(Outbox).where(Outbox.id == bindparam("row_id"), Outbox.status == bindparam("was_status"),
                              Outbox.attempts == bindparam("was_attempts"))
         .values(status=bindparam("status"), handed_at=bindparam("handed_at"), attempts=bindparam("attempts"))
         .execution_options(synchronize_session=False))
CONFIRM = (update(Outbox).where(Outbox.id == bindparam("row_id"), Outbox.status == bindparam("was_status"),
                                Outbox.attempts == bindparam("was_attempts"))
           .values(status="sent", sent_at=bindparam("sent_at"))
           .execution_options(synchronize_session=False))


def _claim(session, row: Outbox, now, status: str = "handed") -> bool:
    """Move a row on only if nobody else did since it was read (the daemon's outbox job and a
    referee's `moderator mail send` may drain at once): `attempts` grows at every hand-over."""
    version = {"row_id": row.id, "was_status": row.status, "was_attempts": row.attempts}
    if status == "sent":
        values = dict(status=status, sent_at=now)
        claimed = session.exec(CONFIRM, params=dict(version, sent_at=now)).rowcount == 1  # type: ignore[call-overload]
    else:
        values = dict(status=status, handed_at=now, attempts=row.attempts + 1)
        claimed = session.exec(CLAIM, params=dict(version, **values)).rowcount == 1  # type: ignore[call-overload]
    if claimed:
        for key, value in values.items():
            setattr(row, key, value)
    return claimed


def _drain(app, transport, limit: int) -> int:
    now = app.clock.now()
    with app.db.session() as session:
        # Every unsent row, due or not: a player's mail goes out in the order it was written, so
        # a row waiting for a retry holds back the later rows to the same address.
        rows = session.exec(select(Outbox).where(
            or_(Outbox.status == "pending", Outbox.status == "handed"))
            .order_by(Outbox.id).limit(limit)).all()
        batch = []
        held: set[str] = set()
        checks = getattr(transport, "was_sent", None)
        for row in rows:
            if row.recipient in held:
                continue
            if row.next_attempt_at is not None and as_utc(row.next_attempt_at) > now:
                held.add(row.recipient)
                continue
            if row.status == "handed" and checks and row.handed_at and now - as_utc(row.handed_at) < HANDED_GRACE:
                held.add(row.recipient)
                continue  # the sent copy of a hand-over a moment ago may not be filed yet
            if row.status == "handed" and checks:
                try:
                    already = transport.was_sent(row.message_id)
                except Exception as error:  # the mailbox cannot say now: ask again next time
                    log.warning("cannot look for the sent copy of %s (%s)", row.message_id, error)
                    held.add(row.recipient)
                    continue
                if already:  # a crash (or a broken connection) came after the server accepted it
                    _claim(session, row, now, "sent")
                    continue
            if _claim(session, row, now):  # committed before the transport is called
                batch.append((row.id, row.raw, row.recipient, row.message_id))
            else:
                held.add(row.recipient)  # another sender has it: keep this address's order
    send_many = getattr(transport, "send_many", None)
    if send_many is not None:  # it keeps each address's order itself (see SmtpBatch)
        results = send_many(batch) if batch else []
        _record(app, results)
        return sum(1 for _, error in results if error is None)
    sent = 0
    failed_to: set[str] = set()
    results: list[tuple[int, str | None]] = []
    for index, (row_id, raw, recipient, message_id) in enumerate(batch, start=1):
        if recipient in failed_to:
            results.append((row_id, WAITS_BEHIND))
        else:
            try:
                transport.send(raw, recipient, message_id)
                results.append((row_id, None))
                sent += 1
            except Exception as error:  # the transport failed: retry later
                results.append((row_id, describe_failure(error)))
                failed_to.add(recipient)
        if index % 25 == 0 or index == len(batch):
            _record(app, results)
            results = []
    return sent


def _record(app, results: list[tuple[int, str | None]]) -> None:
    """Mark a group of rows sent (or failed, with backoff) in one transaction."""
    now = app.clock.now()
    sent = [row_id for row_id, error in results if error is None]
    with app.db.session() as session:
        if sent:  # one statement for the common case: a group of rows all handed over
            session.exec(update(Outbox).where(Outbox.id.in_(sent))  # type: ignore[union-attr]
                         .values(status="sent", sent_at=now))
        for row_id, error in results:
            if error is None:
                continue
            row = session.get(Outbox, row_id)
            row.last_error = error[:2000]
            if error.startswith(WAITS_BEHIND):  # not tried: no attempt counted, held until the other goes
                row.status = "pending"
                row.attempts -= 1
                row.next_attempt_at = now
            elif error.startswith(SERVER_UNAVAILABLE):  # not offered: the message is not to blame
                row.status = "pending"
                row.attempts -= 1
                row.outages += 1
                row.next_attempt_at = now + backoff(row.outages)
            else:
                keep = "handed" if error.startswith(MAYBE_DELIVERED) else "pending"
                row.status = "failed" if row.attempts >= MAX_ATTEMPTS else keep
                row.next_attempt_at = now + backoff(row.attempts)
            session.add(row)


def retry_failed(app, game_id: str | None = None) -> int:
    """Put the messages given up after the attempt cap back in the queue (the referee's call,
    once the address is fixed or the server takes them again); returns how many."""
    now = app.clock.now()
    with app.db.session() as session:
        query = select(Outbox).where(Outbox.status == "failed")
        if game_id:
            query = query.where(Outbox.game_id == game_id)
        rows = session.exec(query).all()
        for row in rows:
            row.status, row.attempts, row.next_attempt_at = "pending", 0, now
            session.add(row)
        return len(rows)
