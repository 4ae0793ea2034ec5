"""One game loaded inside a database session: engine, state, seats, randomness and the log."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from moderator.core.chain import canonical_json, entry_hash, log_key
from moderator.core.contract import Engine, Event
from moderator.core.plans import Plan
from moderator.core.rng import Rng, RngRecord
from moderator.registry import Registry
from moderator.store import games as stored
from moderator.store.deferred import defer_insert, deferred_rows
from moderator.store.models import Game, LogEntry, Seat, Snapshot


def secret_hash(game_id: str, role: str, secret: str) -> str:
    """The keyed hash a secret is compared through.  Only the referee's secret is stored this way; a
    seat's secret is stored in clear, since every report repeats it (docs/storage.md)."""
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
    engine: Engine[Any]
    seats: dict[str, Seat]
    state: Any
    counters: dict[str, int]
    # The snapshot the table was loaded from, held so that the session (whose identity map holds
    # only weak references) still knows it when `snapshot` replaces it at the same log entry.
    loaded_from: Snapshot | None = None
    # The events of one run's reports, read once (preload_events) and dropped after (forget_events).
    _events: list[tuple[int, Event]] | None = field(default=None, init=False, repr=False)
    _events_after: int = field(default=0, init=False, repr=False)

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
        """Add an entry to the log, chained to the one before it (core/chain.py); it is written with
        the session's next flush (store/deferred.py)."""
        # Stored as the verifier will hash it: the JSON read back and written canonically (a
        # mapping with number keys reads back with text keys, which sort otherwise).
        text = canonical_json(json.loads(dumps(payload)))
        seq = self.game.last_seq + 1
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        key = log_key(self.game.id, bytes.fromhex(self.game.seed_hex))
        self.game.log_head = entry_hash(key, self.game.log_head or self.game.commitment, seq, kind, role, digest)
        self.game.last_seq = seq
        defer_insert(self.session, LogEntry, dict(
            game_id=self.game.id, seq=seq, kind=kind, role=role, payload_json=text,
            created_at=when, void=False, entry_hash=self.game.log_head))
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
        row = existing or Snapshot(game_id=self.game.id, seq=self.game.last_seq, created_at=when, state="")
        row.label = label
        row.state = self.engine.dump_state(self.state)
        row.rng_counters_json = dumps(self.counters)
        self.session.add(row)
        self.game.rng_counters_json = dumps(self.counters)
        self.session.add(self.game)

    def log(self, after: int = 0, kinds: tuple[str, ...] | None = None) -> list[LogEntry]:
        """The live (not voided) log entries after `after`, of `kinds` only when given."""
        return stored.live_log(self.session, self.game.id, after, kinds)

    def whole_log(self) -> list[dict[str, Any]]:
        """Every entry of the log, voided ones too, in order, as rows (seq, kind, role, payload_json,
        entry_hash, void): those appended in this session but not written yet included."""
        with self.session.no_autoflush:
            rows = [dict(seq=e.seq, kind=e.kind, role=e.role, payload_json=e.payload_json, entry_hash=e.entry_hash,
                         void=e.void) for e in stored.whole_log(self.session, self.game.id)]
        rows += [row for row in deferred_rows(self.session, LogEntry) if row["game_id"] == self.game.id]
        return sorted(rows, key=lambda row: row["seq"])

    def answered_since(self, after: int, role: str) -> list[dict[str, Any]]:
        """The answers a standing order, the game's default or a deadline gave for `role` after entry
        `after` to questions in which the player had a real choice or a standing order of theirs could not be
        used (for that role's report only)."""
        answered = []
        for _seq, entry_role, payload in self._unflushed_log(after, ("answer",), with_role=True):
            raw = json.loads(payload)
            if entry_role == role and (raw.get("choices", 0) > 1 or raw.get("unfit") or raw.get("keyed_unfit")):
                entry = {key: raw[key] for key in ("source", "text", "prompt", "others", "choices")}
                # Only when set, so that a report's logged payload (and so the log's hashes) keeps its
                # old form when no standing or keyed order failed to fit.
                entry.update({key: raw[key] for key in ("unfit", "unfit_source", "unfit_reason", "keyed_unfit")
                              if raw.get(key)})
                if (raw.get("events") or [{}])[0].get("kind") == "core.defaulted":
                    entry["deadline"] = True
                answered.append(entry)
        return answered

    def answers_after(self, after: int) -> list[tuple[int, str, dict[str, Any]]]:
        """(seq, role, payload) of every live answer logged after entry `after`, those not written
        yet included (the referee's digest: what was answered for whom, and how)."""
        rows = self._unflushed_log(after, ("answer",), with_role=True)
        return [(seq, role, json.loads(payload)) for seq, role, payload in rows]

    def entries_of(self, role: str, after: int, kind: str) -> list[dict[str, Any]]:
        """The payloads of `role`'s log entries of `kind` after entry `after`, oldest first (the
        answers and holds a waiting receipt's lines may have had since)."""
        return [json.loads(payload) for _seq, entry_role, payload in self._unflushed_log(after, (kind,), True)
                if entry_role == role]

    def _unflushed_log(self, after: int, kinds: tuple[str, ...], with_role: bool = False) -> list[Any]:
        """(seq, payload) of the log as `log` gives it, without flushing first: entries appended
        but not written yet come from the session.  (A run's reports read the log once, between
        its answers and its reports: flushing there would write the game and seats twice per run.)"""
        with self.session.no_autoflush:
            # (An entry voided in this session but not yet written reads as live in the database.)
            stored = [(entry.seq, entry.role, entry.payload_json) for entry in self.log(after, kinds) if not entry.void]
        unwritten = [(row["seq"], row["role"], row["payload_json"]) for row in deferred_rows(self.session, LogEntry)
                     if row["game_id"] == self.game.id and row["seq"] > after and row["kind"] in kinds]
        rows = sorted(stored + unwritten)
        return rows if with_role else [(seq, payload) for seq, _, payload in rows]

    def _read_events(self, after: int) -> list[tuple[int, Event]]:
        return [(seq, Event.from_json(raw)) for seq, payload in self._unflushed_log(after, ("setup", "answer"))
                for raw in json.loads(payload).get("events", [])]

    def preload_events(self, after: int) -> None:
        """Read the events after `after` once, for the several reports of one run."""
        self._events = self._read_events(after)
        self._events_after = after

    def events_since(self, after: int, role: str) -> list[Event]:
        cached = self._events
        if cached is None or after < self._events_after:
            cached = self._read_events(after)
        return [event for seq, event in cached if seq > after and event.is_visible_to(role)]

    def forget_events(self) -> None:
        self._events = None


def load_table(session: Session, registry: Registry, game_id: str, for_update: bool = False) -> Table:
    """The game, to read or (for_update) to change: then no other writer can change it before commit."""
    game, reread = stored.read_game(session, game_id, for_update)
    if game is None:
        raise LookupError(f"no game {game_id}")
    engine = registry.get(game.engine)
    seats = {s.role: s for s in stored.seats_of_game(session, game_id, reread)}
    snapshot = stored.newest_snapshot(session, game_id)
    state = engine.load_state(snapshot.state) if snapshot else None
    counters = json.loads(snapshot.rng_counters_json) if snapshot else {}
    return Table(session, game, engine, seats, state, counters, snapshot)
