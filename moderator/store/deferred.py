"""Rows written with one INSERT per table at the session's next flush, past the ORM.

For append-only rows that the transaction writing them never reads back as objects: log entries
and outgoing mail.  The ORM's bookkeeping for such a row (identity, change tracking, the primary
key read back) cost about three times its INSERT, and a run of a game writes several of each.

The rows are part of the transaction like any other change: written after the ORM's own
statements of the same flush (so a game created in the same transaction exists first), written
at the commit even when nothing else changed, and forgotten by a rollback.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, insert
from sqlmodel import Session, SQLModel

DEFERRED = "moderator.deferred_rows"  # a session.info key: {model: [row, ...]}


def defer_insert(session: Session, model: type[SQLModel], row: dict[str, Any]) -> None:
    """Insert `row` (every column that has no server default) into `model`'s table with the
    session's next flush.  Rows of one table must all name the same columns."""
    session.info.setdefault(DEFERRED, {}).setdefault(model, []).append(row)


def deferred_rows(session: Session, model: type[SQLModel]) -> list[dict[str, Any]]:
    """The rows of `model` this session has deferred and not written yet."""
    return session.info.get(DEFERRED, {}).get(model, [])


def _write(session: Session) -> None:
    pending = session.info.pop(DEFERRED, None)
    for model, rows in (pending or {}).items():
        session.connection().execute(insert(model), rows)


@event.listens_for(Session, "after_flush")
def _write_after_flush(session: Session, _flush_context) -> None:
    _write(session)


@event.listens_for(Session, "before_commit")
def _write_before_commit(session: Session) -> None:
    # A session with nothing else to write does not flush, so its deferred rows are written here.
    if session.info.get(DEFERRED):
        session.flush()
        _write(session)


@event.listens_for(Session, "after_soft_rollback")
def _forget(session: Session, _previous_transaction) -> None:
    # (Rows deferred before a savepoint were written when it began: `begin_nested` flushes.)
    session.info.pop(DEFERRED, None)
