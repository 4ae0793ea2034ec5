"""One game loaded inside a database session: engine, state, seats, randomness and the log."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event
from sqlmodel import Session, select, update

from moderator.core.contract import Engine, Event
from moderator.core.plans import Plan
from moderator.core.rng import Rng, RngRecord
from moderator.registry import Registry
from moderator.store.deferred import defer_insert, deferred_rows
from moderator.store.models import Game, LogEntry, Seat, Snapshot


# Statements run for every message, built once with bind parameters (composing a statement
# through the ORM costs more than SQLite takes to run it).
SEATS_OF_GAME = select(Seat).where(Seat.game_id == bindparam("game_id"))
NEWEST_SNAPSHOT = (select(Snapshot).where(Snapshot.game_id == bindparam("game_id"))
                   .order_by(Snapshot.seq.desc()).limit(1))  # type: ignore[union-attr]
LOG_AFTER = (select(LogEntry).where(LogEntry.game_id == bindparam("game_id"), LogEntry.seq > bindparam("after"),
                                    LogEntry.void == False)  # noqa: E712 (SQL, not Python)
             .order_by(LogEntry.seq))
# Reports' payloads are large: a reader that wants only some kinds leaves the rest in the database.
LOG_AFTER_OF_KINDS = LOG_AFTER.where(LogEntry.kind.in_(bindparam("kinds", expanding=True)))  # type: ignore[attr-defined]
LOCKED_BEFORE_READING = "moderator.locked_before_reading"  # a session.info key: see lock_before_reading
# SQLite's write lock, taken by a write that changes nothing (see load_table).
TOUCH_GAME = (update(Game).where(Game.id == bindparam("game_id")).values(last_seq=Game.last_seq)
              .execution_options(synchronize_session=False))


def secret_hash(game_id: str, role: str, secret: str) -> str:
    """Seat and referee secrets are stored only as keyed hashes."""
    return hmac.new(f"{game_id}/{role}".encode(), secret.strip().upper().encode(), hashlib.sha256).hexdigest()


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)


def _default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


@dataclass
class Table:
    """A game's runtime, bound to one session.  Created by `load_table`."""

    session: Session
    game: Game
    engine: Engine
    seats: dict[str, Seat]
    state: Any
    counters: dict[str, int]

    # ------------------------------------------------------------------ seats

    @property
    def player_roles(self) -> tuple[str, ...]:
        return self.engine.info.roles(self.game.scenario)

    def seat(self, role: str) -> Seat | None:
        return self.seats.get(role)

    def players(self) -> list[Seat]:
        return [self.seats[r] for r in self.player_roles if r in self.seats]

    def observers(self) -> list[Seat]:
        return [s for s in self.seats.values() if s.kind == "observer"]

    def plan(self, role: str) -> Plan:
        seat = self.seats.get(role)
        return Plan.from_json(json.loads(seat.plan_json)) if seat else Plan()

    def save_plan(self, role: str, plan: Plan) -> None:
        seat = self.seats[role]
        seat.plan_json = dumps(plan.to_json())
        self.session.add(seat)

    # ------------------------------------------------------------------ randomness

    def rng_record(self) -> RngRecord:
        contributions = [self.seats[r].contribution for r in self.player_roles if r in self.seats]
        return RngRecord(self.game.id, bytes.fromhex(self.game.seed_hex), contributions)

    def rng(self) -> Rng:
        return self.rng_record().rng(self.counters)

    # ------------------------------------------------------------------ log and snapshots

    def append(self, kind: str, role: str, payload: dict[str, Any], when: datetime) -> int:
        """Add an entry to the log; it is written with the session's next flush (store/deferred.py)."""
        self.game.last_seq += 1
        defer_insert(self.session, LogEntry, dict(
            game_id=self.game.id, seq=self.game.last_seq, kind=kind, role=role, payload_json=dumps(payload),
            created_at=when, void=False))
        self.session.add(self.game)  # changed, so the session flushes (and writes the entry) before a query
        return self.game.last_seq

    def snapshot(self, label: str, when: datetime) -> None:
        """Save the state after the newest log entry (replacing a snapshot at the same entry)."""
        # A snapshot at the newest entry can only be one this session holds: the one the table was
        # loaded from, or one written since (snapshots are written after the entries they follow),
        # so the session answers without a query.
        existing = next((obj for obj in (*self.session.new, *self.session.identity_map.values())
                         if isinstance(obj, Snapshot) and obj.game_id == self.game.id
                         and obj.seq == self.game.last_seq), None)
        row = existing or Snapshot(game_id=self.game.id, seq=self.game.last_seq, created_at=when)
        row.label = label
        row.state = self.engine.dump_state(self.state)
        row.rng_counters_json = dumps(self.counters)
        self.session.add(row)
        self.game.rng_counters_json = dumps(self.counters)
        self.session.add(self.game)

    def log(self, after: int = 0, kinds: tuple[str, ...] | None = None) -> list[LogEntry]:
        if kinds is None:
            return list(self.session.exec(LOG_AFTER, params={"game_id": self.game.id, "after": after}))
        return list(self.session.exec(LOG_AFTER_OF_KINDS,
                                      params={"game_id": self.game.id, "after": after, "kinds": list(kinds)}))

    def _unflushed_log(self, after: int, kinds: tuple[str, ...]) -> list[tuple[int, str]]:
        """(seq, payload) of the log as `log` gives it, without flushing first: entries appended
        but not written yet come from the session.  (A run's reports read the log once, between
        its answers and its reports: flushing there would write the game and seats twice per run.)"""
        with self.session.no_autoflush:
            # (An entry voided in this session but not yet written reads as live in the database.)
            stored = [(entry.seq, entry.payload_json) for entry in self.log(after, kinds) if not entry.void]
        unwritten = [(row["seq"], row["payload_json"]) for row in deferred_rows(self.session, LogEntry)
                     if row["game_id"] == self.game.id and row["seq"] > after and row["kind"] in kinds]
        return sorted(stored + unwritten)

    def _read_events(self, after: int) -> list[tuple[int, Event]]:
        return [(seq, Event.from_json(raw)) for seq, payload in self._unflushed_log(after, ("setup", "answer"))
                for raw in json.loads(payload).get("events", [])]

    def preload_events(self, after: int) -> None:
        """Read the events after `after` once, for the several reports of one run."""
        self._events = self._read_events(after)
        self._events_after = after

    def events_since(self, after: int, role: str) -> list[Event]:
        cached = getattr(self, "_events", None)
        if cached is None or after < self._events_after:
            cached = self._read_events(after)
        return [event for seq, event in cached if seq > after and event.is_visible_to(role)]

    def forget_events(self) -> None:
        self._events = None


def lock_before_reading(session: Session) -> None:
    """Say that this session's transaction has written before reading any row it may change: on
    SQLite it then holds the write lock, and `load_table` need not read the game again."""
    session.info[LOCKED_BEFORE_READING] = True


@event.listens_for(Session, "after_transaction_end")
def _unlocked(session: Session, transaction) -> None:
    if transaction.parent is None:  # the lock ends with the transaction, and so does the promise
        session.info.pop(LOCKED_BEFORE_READING, None)


def load_table(session: Session, registry: Registry, game_id: str, for_update: bool = False) -> Table:
    """The game, to read or (for_update) to change: then no other writer can change it before commit."""
    if not for_update:
        # `get` answers from the session when the game is already loaded (the mailroom looked it up).
        game = session.get(Game, game_id)
    elif session.get_bind().dialect.name == "postgresql":
        # The row lock, and the game read again under it: the session may hold a copy read
        # before (the mailroom looks the game up first), which a plain locking read leaves stale.
        game = session.get(Game, game_id, with_for_update=True, populate_existing=True)
    elif session.info.get(LOCKED_BEFORE_READING):
        # This transaction wrote before it read anything (the mailroom stores its mail first):
        # everything the session holds was read under the write lock, so it is current.
        game = session.get(Game, game_id)
        for_update = False  # nor do the seats need reading again
    else:
        # SQLite has no row locks: a write that changes nothing takes the database's write lock
        # now (waiting for another writer to commit), so what is read next is current and stays
        # so until this transaction commits.  Without it the daemon's poll and turn jobs (or a
        # referee's command) could both build on the same state; one would then fail.
        if not session.connection().connection.dbapi_connection.in_transaction:
            session.exec(TOUCH_GAME, params={"game_id": game_id})  # type: ignore[call-overload]
        # Read again, now that it is current (the session may hold a copy read before the lock).
        game = session.get(Game, game_id, populate_existing=True)
    if game is None:
        raise LookupError(f"no game {game_id}")
    engine = registry.get(game.engine)
    seats = {s.role: s for s in session.exec(SEATS_OF_GAME, params={"game_id": game_id},
                                             execution_options={"populate_existing": for_update})}
    snapshot = session.exec(NEWEST_SNAPSHOT, params={"game_id": game_id}).first()
    state = engine.load_state(snapshot.state) if snapshot else None
    counters = json.loads(snapshot.rng_counters_json) if snapshot else {}
    return Table(session, game, engine, seats, state, counters)
