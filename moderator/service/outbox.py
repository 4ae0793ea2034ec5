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
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Literal, Protocol, runtime_checkable

from sqlmodel import Session

from moderator.clock import Clock, as_utc
from moderator.mail.failures import MAYBE_DELIVERED, SERVER_UNAVAILABLE, WAITS_BEHIND, describe_failure
from moderator.store import outbox as rows
from moderator.store.db import Database
from moderator.store.models import Outbox

__all__ = ["HANDED_GRACE", "MAX_ATTEMPTS", "MAYBE_DELIVERED", "SERVER_UNAVAILABLE", "WAITS_BEHIND", "Batching",
           "Postman", "SendsMany", "Transport", "backoff", "describe_failure"]

log = logging.getLogger("moderator.outbox")

MAX_ATTEMPTS = 12
HANDED_GRACE = timedelta(seconds=20)

Item = tuple[int, bytes, str, str]  # (row id, raw bytes, recipient, Message-ID)
Result = tuple[int, str | None]  # (row id, how it failed or None)


class Transport(Protocol):
    """Hands one message to the world (a Maildir, an SMTP server)."""

    def send(self, raw: bytes, recipient: str, message_id: str) -> None: ...


@runtime_checkable
class SendsMany(Protocol):
    """A transport that sends a whole drain itself, keeping each address's order (SmtpBatch)."""

    def send_many(self, items: list[Item]) -> list[Result]: ...


@runtime_checkable
class KnowsSent(Protocol):
    """A transport that can tell whether an earlier attempt handed a message over (a sent copy)."""

    def was_sent(self, message_id: str) -> bool: ...


@runtime_checkable
class Batching(Protocol):
    """A transport that opens one batch (connections kept open) for a whole drain."""

    def batch(self) -> AbstractContextManager[Transport | SendsMany]: ...


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(3600, 30 * (2 ** max(0, attempts - 1))))


class Postman:
    """Drains the outbox through a transport; needs the database and the clock."""

    def __init__(self, database: Database, clock: Clock):
        self.database = database
        self.clock = clock

    def drain(self, transport: Transport, limit: int = 500) -> int:
        """Send what is due; return how many messages were sent."""
        if isinstance(transport, Batching):
            with transport.batch() as batch:
                return self._drain(batch, limit)
        return self._drain(transport, limit)

    def retry_failed(self, game_id: str | None = None) -> int:
        """Put the messages given up after the attempt cap back in the queue (the referee's call,
        once the address is fixed or the server takes them again); returns how many."""
        now = self.clock.now()
        with self.database.session() as session:
            failed = rows.given_up(session, game_id)
            for row in failed:
                row.status, row.attempts, row.next_attempt_at = "pending", 0, now
                session.add(row)
            return len(failed)

    # ------------------------------------------------------------------ the drain

    def _drain(self, transport: Transport | SendsMany, limit: int) -> int:
        batch = self._claim_due(transport, limit)
        if isinstance(transport, SendsMany):  # it keeps each address's order itself (see SmtpBatch)
            results = transport.send_many(batch) if batch else []
            self._record(results)
            return sum(1 for _, error in results if error is None)
        sent = 0
        failed_to: set[str] = set()
        results = []
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
                self._record(results)
                results = []
        return sent

    def _claim_due(self, transport: Transport | SendsMany, limit: int) -> list[Item]:
        """Claim the rows due now (committed before the transport is called)."""
        now = self.clock.now()
        checks = transport if isinstance(transport, KnowsSent) else None
        batch: list[Item] = []
        with self.database.session() as session:
            # Every unsent row, due or not: a player's mail goes out in the order it was written,
            # so a row waiting for a retry holds back the later rows to the same address.
            held: set[str] = set()
            for row in rows.unsent(session, limit):
                if row.recipient in held:
                    continue
                verdict = _verdict(session, row, now, checks)
                if verdict == "hold":
                    held.add(row.recipient)
                    continue
                if verdict == "sent":
                    continue
                if rows.claim(session, row, now):
                    assert row.id is not None
                    batch.append((row.id, row.raw, row.recipient, row.message_id))
                else:
                    held.add(row.recipient)  # another sender has it: keep this address's order
        return batch

    def _record(self, results: list[Result]) -> None:
        """Mark a group of rows sent (or failed, with backoff) in one transaction."""
        now = self.clock.now()
        sent = [row_id for row_id, error in results if error is None]
        with self.database.session() as session:
            if sent:
                rows.mark_sent(session, sent, now)
            for row_id, error in results:
                if error is None:
                    continue
                row = session.get(Outbox, row_id)
                assert row is not None
                _note_failure(row, error, now)
                session.add(row)


def _verdict(session: Session, row: Outbox, now: datetime,
             checks: KnowsSent | None) -> Literal["claim", "hold", "sent"]:
    """Whether `row` may be handed over now, must wait (and hold back its address's later mail),
    or was sent already (a 'handed' row whose sent copy is filed: marked sent here)."""
    if row.next_attempt_at is not None and _utc(row.next_attempt_at) > now:
        return "hold"
    if row.status != "handed" or checks is None:
        return "claim"
    if row.handed_at and now - _utc(row.handed_at) < HANDED_GRACE:
        return "hold"  # the sent copy of a hand-over a moment ago may not be filed yet
    try:
        already = checks.was_sent(row.message_id)
    except Exception as error:  # the mailbox cannot say now: ask again next time
        log.warning("cannot look for the sent copy of %s (%s)", row.message_id, error)
        return "hold"
    if not already:
        return "claim"
    rows.claim(session, row, now, "sent")  # a crash (or a broken connection) came after the server accepted it
    return "sent"


def _note_failure(row: Outbox, error: str, now: datetime) -> None:
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


def _utc(when: datetime) -> datetime:
    utc = as_utc(when)
    assert utc is not None
    return utc
