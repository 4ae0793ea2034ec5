"""Rows written with one INSERT per table at the session's next flush, past the ORM.

For append-only rows that the transaction writing them never reads back as objects: log entries
and outgoing mail.  The ORM's bookkeeping for such a row (identity, change tracking, the primary
key read back) cost about three times its INSERT, and a run of a game writes several of each.

The rows are part of the transaction like any other change: written after the ORM's own
statements of the same flush (so a game created in the same transaction exists first), written
at the commit even when nothing else changed, and forgotten when the transaction ends otherwise
(a rollback, or a session closed without a commit).  A query sees them only after a flush: a
table that must read its own deferred rows asks `deferred_rows` (Table does, for its log).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, insert
from sqlalchemy.orm import SessionTransaction, UOWTransaction
from sqlmodel import Session, SQLModel

DEFERRED = "moderator.deferred_rows"  # a session.info key: {model: [row, ...]}


def defer_insert(session: Session, model: type[SQLModel], row: dict[str, Any]) -> None:
    """Insert `row` (every column that has no server default) into `model`'s table with the
    session's next flush.  Rows of one table must all name the same columns."""
    if session.in_nested_transaction():
        # A savepoint's rollback would have to drop just the rows deferred inside it; nothing
        # needs that, so it is refused rather than half done.
        raise RuntimeError("rows cannot be deferred inside a savepoint")
    if not session.in_transaction():
        session.begin()  # so that the rows end with a transaction, even one that did nothing else
    session.info.setdefault(DEFERRED, {}).setdefault(model, []).append(row)


def deferred_rows(session: Session, model: type[SQLModel]) -> list[dict[str, Any]]:
    """The rows of `model` this session has deferred and not written yet."""
    rows: list[dict[str, Any]] = session.info.get(DEFERRED, {}).get(model, [])
    return rows


def _write(session: Session) -> None:
    pending = session.info.pop(DEFERRED, None)
    for model, rows in (pending or {}).items():
        session.connection().execute(insert(model), rows)


@event.listens_for(Session, "after_flush")
def _write_after_flush(session: Session, _flush_context: UOWTransaction) -> None:
    _write(session)


@event.listens_for(Session, "before_commit")
def _write_before_commit(session: Session) -> None:
    # A session with nothing else to write does not flush, so its deferred rows are written here.
    if session.info.get(DEFERRED):
        session.flush()
        _write(session)


@event.listens_for(Session, "after_transaction_end")
def _forget(session: Session, transaction: SessionTransaction) -> None:
    # The session's transaction is over: committed (the rows were written), rolled back, or
    # closed.  A savepoint's end changes nothing: rows deferred before it belong to the
    # transaction around it, and none can be deferred inside it.
    if transaction.parent is None:
        session.info.pop(DEFERRED, None)
