"""The queries on inbound mail and the quarantine, named for what they ask."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam
from sqlalchemy import select as sql_select
from sqlmodel import Session, and_, col, func, or_, select

from moderator.store.models import InboundMail, Outbox, Quarantine, Submission

# Run for every message, so built once with bind parameters, and asked on the session's
# connection: they load no objects, so the ORM's bookkeeping (a third of the time of such a
# query) is not needed.
SAME_CONTENT = select(InboundMail.id, InboundMail.content_hash).where(InboundMail.content_hash == bindparam("digest"))
# The same message delivered twice through a server differs in its Received lines: the
# Message-ID from the same sender recognises it.
SAME_CONTENT_OR_MESSAGE = select(InboundMail.id, InboundMail.content_hash).where(or_(
    InboundMail.content_hash == bindparam("digest"),
    and_(InboundMail.message_id == bindparam("message_id"), InboundMail.sender == bindparam("sender")))
).order_by(col(InboundMail.id))
MESSAGES_FROM_SINCE = select(func.count()).select_from(InboundMail).where(
    InboundMail.sender == bindparam("sender"), InboundMail.received_at >= bindparam("since"))


def earlier_copies(session: Session, digest: str, message_id: str, sender: str) -> list[tuple[int, str]]:
    """(id, content hash) of the stored messages with this content or, when it has one, this
    Message-ID from this sender, oldest first."""
    if message_id:
        found = session.connection().execute(SAME_CONTENT_OR_MESSAGE,
                                             {"digest": digest, "message_id": message_id, "sender": sender})
    else:
        found = session.connection().execute(SAME_CONTENT, {"digest": digest})
    return [(int(row_id), str(content_hash)) for row_id, content_hash in found]


def raw_of(session: Session, inbound_id: int) -> tuple[bytes, int] | None:
    """The stored bytes of a message and its size as received (more than the bytes when cut)."""
    row = session.exec(select(InboundMail.raw, InboundMail.size).where(InboundMail.id == inbound_id)).first()
    if row is None:
        return None
    raw, size = row
    return raw, size or len(raw)


def messages_from_since(session: Session, sender: str, since: datetime) -> int:
    """How many messages `sender` sent since `since` (the rate limit)."""
    counted = session.connection().execute(MESSAGES_FROM_SINCE, {"sender": sender, "since": since})
    return int(counted.scalar_one())


def by_content(session: Session, digest: str) -> InboundMail | None:
    return session.exec(select(InboundMail).where(InboundMail.content_hash == digest)).first()


def unprocessed_ids(session: Session) -> list[int]:
    """Messages stored but never processed (a crash between the two steps)."""
    return [row_id for row_id in session.exec(select(InboundMail.id).where(InboundMail.status == "new"))
            if row_id is not None]


def quarantine(session: Session, inbound_id: int, reason: str, now: datetime) -> None:
    """Keep a message for the referee, with why."""
    session.add(Quarantine(inbound_id=inbound_id, reason=reason, created_at=now))


def kept_message(session: Session, game_id: str, inbound_id: int) -> InboundMail | None:
    """The message `inbound_id` when it is kept in quarantine for `game_id`, else None."""
    row = session.get(InboundMail, inbound_id)
    return row if row is not None and row.game_id == game_id and row.status == "quarantined" else None


def release(session: Session, row: InboundMail, status: str, outcome: str) -> None:
    """Take a kept message out of the quarantine with a new status (new: to be read again)."""
    row.status = status
    row.outcome = outcome
    session.add(row)
    for kept in session.exec(select(Quarantine).where(Quarantine.inbound_id == row.id)):
        kept.released = True
        session.add(kept)


@dataclass(frozen=True)
class TakenOrders:
    """What recognises a seat's accepted orders if they come again (service/resends.py)."""

    orders: str
    phase: str
    open_json: str
    created_at: datetime


# Asked for every message of orders: built once, on the connection, loading no object.
LATEST_ORDERS = select(Submission.orders, Submission.phase, Submission.open_json, Submission.created_at).where(
    Submission.game_id == bindparam("game_id"), Submission.role == bindparam("role"),
    col(Submission.accepted).is_(True)).order_by(col(Submission.id).desc()).limit(1)


def latest_orders(session: Session, game_id: str, role: str) -> TakenOrders | None:
    """The seat's newest accepted orders."""
    row = session.connection().execute(LATEST_ORDERS, {"game_id": game_id, "role": role}).first()
    return TakenOrders(*row) if row is not None else None


def sent_to_since(session: Session, recipient: str, message_ids: Iterable[str], since: datetime) -> bool:
    """Was any of `message_ids` a mail to `recipient` queued at `since` or later?"""
    wanted = [m for m in message_ids if m]
    if not wanted:
        return False
    found = session.exec(select(Outbox.id).where(Outbox.recipient == recipient, col(Outbox.message_id).in_(wanted),
                                                 Outbox.created_at >= since)).first()
    return found is not None


@dataclass(frozen=True)
class Kept:
    """A message about a game kept in quarantine for its referee (never processed)."""

    inbound_id: int
    received_at: datetime
    sender: str
    subject: str
    reason: str


# The columns only: a kept message's bytes may be large, and a digest lists its headers.
KEPT_FOR_GAME = sql_select(col(InboundMail.id), col(InboundMail.received_at), col(InboundMail.sender),
                           col(InboundMail.subject), col(InboundMail.outcome)).where(
    col(InboundMail.game_id) == bindparam("game_id"), col(InboundMail.status) == "quarantined").order_by(
    col(InboundMail.id))


def quarantined_for_game(session: Session, game_id: str) -> list[Kept]:
    """The messages about `game_id` kept in quarantine, oldest first."""
    rows = session.connection().execute(KEPT_FOR_GAME, {"game_id": game_id})
    return [Kept(int(row_id or 0), received_at, str(sender), str(subject), str(outcome).removeprefix("quarantined: "))
            for row_id, received_at, sender, subject, outcome in rows]
