"""The queries on inbound mail and the quarantine, named for what they ask."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam
from sqlmodel import Session, and_, func, or_, select

from moderator.store.models import InboundMail, Quarantine

# Run for every message, so built once with bind parameters, and asked on the session's
# connection: they load no objects, so the ORM's bookkeeping (a third of the time of such a
# query) is not needed.
SAME_CONTENT = select(InboundMail.id).where(InboundMail.content_hash == bindparam("digest"))
# The same message delivered twice through a server differs in its Received lines: the
# Message-ID from the same sender recognises it.
SAME_CONTENT_OR_MESSAGE = select(InboundMail.id).where(or_(
    InboundMail.content_hash == bindparam("digest"),
    and_(InboundMail.message_id == bindparam("message_id"), InboundMail.sender == bindparam("sender"))))
MESSAGES_FROM_SINCE = select(func.count()).select_from(InboundMail).where(
    InboundMail.sender == bindparam("sender"), InboundMail.received_at >= bindparam("since"))


def already_received(session: Session, digest: str, message_id: str, sender: str) -> bool:
    """Is this content (or, when it has one, this Message-ID from this sender) stored already?"""
    if message_id:
        found = session.connection().execute(SAME_CONTENT_OR_MESSAGE,
                                             {"digest": digest, "message_id": message_id, "sender": sender})
    else:
        found = session.connection().execute(SAME_CONTENT, {"digest": digest})
    return found.first() is not None


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
