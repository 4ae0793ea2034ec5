"""The queries on games, seats, the log and snapshots, named for what they ask.

The statements run for every message are built once with bind parameters: composing a statement
through the ORM costs more than SQLite takes to run it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event
from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session, col, func, or_, select, update

from moderator.store.models import Game, LogEntry, Seat, Snapshot

SEATS_OF_GAME = select(Seat).where(Seat.game_id == bindparam("game_id"))
NEWEST_SNAPSHOT = (select(Snapshot).where(Snapshot.game_id == bindparam("game_id"))
                   .order_by(col(Snapshot.seq).desc()).limit(1))
LIVE_LOG_AFTER = (select(LogEntry).where(LogEntry.game_id == bindparam("game_id"),
                                         LogEntry.seq > bindparam("after"),
                                         col(LogEntry.void) == False)  # noqa: E712 (SQL, not Python)
                  .order_by(col(LogEntry.seq)))
# Reports' payloads are large: a reader that wants only some kinds leaves the rest in the database.
LIVE_LOG_AFTER_OF_KINDS = LIVE_LOG_AFTER.where(col(LogEntry.kind).in_(bindparam("kinds", expanding=True)))
# SQLite's write lock, taken by a write that changes nothing (see `read_game`).
TOUCH_GAME = (update(Game).where(col(Game.id) == bindparam("game_id")).values(last_seq=Game.last_seq)
              .execution_options(synchronize_session=False))
SEAT_OF_ADDRESS = select(Seat.id).where(Seat.address == bindparam("address")).limit(1)
GAME_OF_REFEREE = select(Game.id).where(Game.referee_address == bindparam("address")).limit(1)

LOCKED_BEFORE_READING = "moderator.locked_before_reading"  # a session.info key: see lock_before_reading


# ---------------------------------------------------------------- the write lock


def lock_before_reading(session: Session) -> None:
    """Say that this session's transaction has written before reading any row it may change: on
    SQLite it then holds the write lock, and `read_game` need not read the game again."""
    session.info[LOCKED_BEFORE_READING] = True


@event.listens_for(Session, "after_transaction_end")
def _unlocked(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the lock ends with the transaction, and so does the promise
        session.info.pop(LOCKED_BEFORE_READING, None)


def read_game(session: Session, game_id: str, for_update: bool) -> tuple[Game | None, bool]:
    """The game, and whether what the session already holds of it may be stale (so its seats must
    be read again).  `for_update`: no other writer can change the game before this commits."""
    if not for_update:
        # `get` answers from the session when the game is already loaded (the mailroom looked it up).
        return session.get(Game, game_id), False
    if session.get_bind().dialect.name == "postgresql":
        # The row lock, and the game read again under it: the session may hold a copy read
        # before (the mailroom looks the game up first), which a plain locking read leaves stale.
        return session.get(Game, game_id, with_for_update=True, populate_existing=True), True
    if session.info.get(LOCKED_BEFORE_READING):
        # This transaction wrote before it read anything (the mailroom stores its mail first):
        # everything the session holds was read under the write lock, so it is current.
        return session.get(Game, game_id), False
    # SQLite has no row locks: a write that changes nothing takes the database's write lock now
    # (waiting for another writer to commit), so what is read next is current and stays so until
    # this transaction commits.  Without it the daemon's poll and turn jobs (or a referee's
    # command) could both build on the same state; one would then fail.
    if not session.connection().connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
        session.execute(TOUCH_GAME, params={"game_id": game_id})
    # Read again, now that it is current (the session may hold a copy read before the lock).
    return session.get(Game, game_id, populate_existing=True), True


# ---------------------------------------------------------------- games


def next_game_id(session: Session, engine_id: str) -> str:
    """The first free id of the form `<engine>-0001`."""
    count = session.exec(select(func.count()).select_from(Game).where(Game.engine == engine_id)).one()
    game_id = f"{engine_id}-{count + 1:04d}"
    while session.get(Game, game_id) is not None:
        count += 1
        game_id = f"{engine_id}-{count + 1:04d}"
    return game_id


def due_game_ids(session: Session, now: datetime) -> list[str]:
    """Running games whose deadline passed or whose change-of-mind delay is over."""
    return list(session.exec(select(Game.id).where(
        Game.status == "running", or_(col(Game.next_deadline) <= now, col(Game.ready_at) <= now))))


def reveal_due_game_ids(session: Session, now: datetime) -> list[str]:
    """Games still forming whose deadline passed: with entropy=commit-reveal, the reveals' deadline."""
    return list(session.exec(select(Game.id).where(Game.status == "forming", col(Game.next_deadline) <= now)))


def revealing_game_ids(session: Session) -> list[str]:
    """Games still forming that have a deadline: with entropy=commit-reveal, waiting for the reveals."""
    return list(session.exec(select(Game.id).where(Game.status == "forming", col(Game.next_deadline).is_not(None))))


def games_holding_receipts(session: Session) -> list[str]:
    """Running games with a seat whose receipts wait for its next report (service/cadence.py)."""
    held = select(Seat.game_id).join(Game, Game.id == Seat.game_id).where(  # type: ignore[arg-type]
        Game.status == "running", Seat.held_receipts_json != "[]").distinct()
    return list(session.exec(held))


def running_game_ids(session: Session) -> list[str]:
    return list(session.exec(select(Game.id).where(Game.status == "running")))


def next_deadline(session: Session, game_id: str) -> datetime | None:
    game = session.get(Game, game_id)
    return game.next_deadline if game else None


# ---------------------------------------------------------------- seats


def seats_of_game(session: Session, game_id: str, reread: bool = False) -> list[Seat]:
    """A game's seats; `reread` replaces what the session holds with what the database says."""
    return list(session.exec(SEATS_OF_GAME, params={"game_id": game_id},
                             execution_options={"populate_existing": reread}))


def seats_of_address(session: Session, address: str) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.address == address)))


def seat_of_role(session: Session, game_id: str, role: str) -> Seat | None:
    return session.exec(select(Seat).where(Seat.game_id == game_id, Seat.role == role)).first()


def open_invitation(session: Session, token_hash: str) -> Seat | None:
    """The seat not yet taken whose invitation token hashes to `token_hash`."""
    return session.exec(select(Seat).where(Seat.invite_token_hash == token_hash,
                                           col(Seat.joined_at).is_(None))).first()


def is_known_address(session: Session, address: str) -> bool:
    """Does `address` hold a seat or referee a game?  (Asked on the connection: no objects loaded.)"""
    if not address:
        return False
    connection = session.connection()
    if connection.execute(SEAT_OF_ADDRESS, {"address": address}).first():
        return True
    return bool(connection.execute(GAME_OF_REFEREE, {"address": address}).first())


# ---------------------------------------------------------------- the log and snapshots


def newest_snapshot(session: Session, game_id: str) -> Snapshot | None:
    return session.exec(NEWEST_SNAPSHOT, params={"game_id": game_id}).first()


def snapshots_by_seq(session: Session, game_id: str) -> dict[int, Snapshot]:
    return {s.seq: s for s in session.exec(select(Snapshot).where(Snapshot.game_id == game_id))}


def live_log(session: Session, game_id: str, after: int = 0, kinds: Sequence[str] | None = None) -> list[LogEntry]:
    """The log entries after `after` that a rollback has not voided, in order (of `kinds` only)."""
    params: dict[str, Any] = {"game_id": game_id, "after": after}
    if kinds is None:
        return list(session.exec(LIVE_LOG_AFTER, params=params))
    return list(session.exec(LIVE_LOG_AFTER_OF_KINDS, params=dict(params, kinds=list(kinds))))


def whole_log(session: Session, game_id: str) -> list[LogEntry]:
    """Every log entry, voided ones too, in order."""
    return list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id).order_by(col(LogEntry.seq))))
