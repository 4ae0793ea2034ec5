"""The queries on the outbox, named for what they do.  The rules of sending are in service/outbox.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, or_, select, update

from moderator.store.deferred import defer_insert
from moderator.store.models import Outbox

# Every column but the key, so all queued rows name the same columns (one INSERT for them all).
COLUMNS = tuple(column.name for column in Outbox.__table__.columns if column.name != "id")  # type: ignore[attr-defined]

# Built once with bind parameters: a drain claims every row it sends, and composing the
# statement through the ORM cost more than running it.
CLAIM = (update(Outbox).where(col(Outbox.id) == bindparam("row_id"), col(Outbox.status) == bindparam("was_status"),
                              col(Outbox.attempts) == bindparam("was_attempts"))
         .values(status=bindparam("status"), handed_at=bindparam("handed_at"), attempts=bindparam("attempts"))
         .execution_options(synchronize_session=False))
CONFIRM = (update(Outbox).where(col(Outbox.id) == bindparam("row_id"), col(Outbox.status) == bindparam("was_status"),
                                col(Outbox.attempts) == bindparam("was_attempts"))
           .values(status="sent", sent_at=bindparam("sent_at"))
           .execution_options(synchronize_session=False))


def queue_mail(session: Session, **fields: Any) -> Outbox:
    """Put a message in the outbox, written with the session's transaction (store/deferred.py).
    The row returned is for the caller to read (its recipient, subject, bytes), not to change."""
    row = Outbox(**fields)
    defer_insert(session, Outbox, {name: getattr(row, name) for name in COLUMNS})
    return row


#: Mail to this domain is read in the house (a league's bot seat, league/botseats.py) and never handed
#: to a transport; ".invalid" (RFC 2606) can never be delivered anywhere.
IN_HOUSE_DOMAIN = "bots.invalid"


def unsent(session: Session, limit: int) -> list[Outbox]:
    """Every row to send not yet sent nor given up, due or not, oldest first (not the in-house mail)."""
    return list(session.exec(select(Outbox).where(or_(Outbox.status == "pending", Outbox.status == "handed"))
                             .where(col(Outbox.recipient).not_like(f"%@{IN_HOUSE_DOMAIN}"))
                             .order_by(col(Outbox.id)).limit(limit)))


def unread_in_house(session: Session) -> list[Outbox]:
    """The in-house mail not yet read, oldest first."""
    return list(session.exec(select(Outbox).where(Outbox.status == "pending")
                             .where(col(Outbox.recipient).like(f"%@{IN_HOUSE_DOMAIN}"))
                             .order_by(col(Outbox.id))))


def claim(session: Session, row: Outbox, now: datetime, status: str = "handed") -> bool:
    """Move a row on ('handed', or 'sent') only if nobody else did since it was read: `attempts`
    grows at every hand-over, so it serves as the row's version.  The row is updated to match."""
    version = {"row_id": row.id, "was_status": row.status, "was_attempts": row.attempts}
    values: dict[str, Any]
    if status == "sent":
        values = {"status": status, "sent_at": now}
        result = session.execute(CONFIRM, dict(version, sent_at=now))
    else:
        values = {"status": status, "handed_at": now, "attempts": row.attempts + 1}
        result = session.execute(CLAIM, dict(version, **values))
    claimed: bool = result.rowcount == 1  # type: ignore[attr-defined]
    if claimed:
        for key, value in values.items():
            setattr(row, key, value)
    return claimed


def mark_sent(session: Session, row_ids: list[int], now: datetime) -> None:
    """One statement for the common case: a group of rows all handed over."""
    session.execute(update(Outbox).where(col(Outbox.id).in_(row_ids)).values(status="sent", sent_at=now))


def given_up(session: Session, game_id: str | None = None) -> list[Outbox]:
    """The rows given up after the attempt cap (of one game, or of all)."""
    query = select(Outbox).where(Outbox.status == "failed")
    if game_id:
        query = query.where(Outbox.game_id == game_id)
    return list(session.exec(query))


def by_message_id(session: Session, message_id: str) -> Outbox | None:
    return session.exec(select(Outbox).where(Outbox.message_id == message_id)).first()


def of_game_by_message_id(session: Session, game_id: str) -> dict[str, Outbox]:
    return {row.message_id: row for row in session.exec(select(Outbox).where(Outbox.game_id == game_id))}
