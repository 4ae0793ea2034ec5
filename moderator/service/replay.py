"""Replay a game from its log and compare every state, event, draw and report (DESIGN §9).

Replaying also lets a rules fix re-run a game and show every report that would change before
anything is sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from jinja2 import Environment

from moderator.core.chain import entry_hash, log_key, payload_digest
from moderator.core.contract import Engine, Event
from moderator.core.errors import ModeratorError
from moderator.core.rng import Draw, Rng, RngRecord
from moderator.core.runner import Runner
from moderator.registry import Registry
from moderator.service.reports import Addressing, compose_report
from moderator.service.table import load_table
from moderator.service.turns import defaulted_events
from moderator.store import games as stored
from moderator.store import outbox as outbox_rows
from moderator.store.db import Database
from moderator.store.models import Game, LogEntry, Outbox, Snapshot


@dataclass
class ReplayResult:
    answers: int = 0
    states_checked: int = 0
    reports_checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    state: Any = None
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.mismatches


class NotPending(ModeratorError):
    """A logged answer names a decision the replayed game does not have open."""


class GameReplay:
    """A game played again from its scenario, options and dice: the set-up, each logged answer, and
    the dice going on after a rollback.  Used by the replay of the store and the archive's verifier."""

    def __init__(self, engine: Engine[Any], scenario: str, options: dict[str, Any], rng: Rng):
        self.engine = engine
        self.runner = Runner(engine)
        self.scenario = scenario
        self.options = options
        self.rng = rng
        self.state: Any = None

    def setup(self) -> list[Draw]:
        """Set the game up again; returns the draws the set-up made."""
        self.state = self.engine.setup(self.scenario, self.options, self.rng)
        return self.rng.take_draws()

    def answer(self, payload: dict[str, Any]) -> tuple[list[Event], list[Draw]]:
        """Apply a logged answer again: its events (defaults announced) and dice.  Raises NotPending
        when its decision is not open, and the engine's errors when its text is not legal."""
        decision = next((d for d in self.engine.pending(self.state) if d.key == payload["decision"]), None)
        if decision is None:
            open_now = ", ".join(d.key for d in self.engine.pending(self.state)) or "none"
            raise NotPending(f"decision {payload['decision']} is not pending in replay (open: {open_now})")
        self.state, step = self.runner.apply_text(self.state, decision, payload["text"], self.rng, payload["source"])
        events = list(step.events)
        if payload["source"] == "default" and _was_announced(payload):
            events[0:0] = defaulted_events(decision, step.text)
        return events, list(step.draws)

    def rollback(self, payload: dict[str, Any]) -> None:
        """After a rollback the dice go on from fresh counters (never repeat a voided roll)."""
        self.rng.counters = dict(payload["counters"])


@dataclass
class _Replay:
    """One replay under way: what was read from the store, and the game so far."""

    game: GameReplay
    game_id: str
    entries: list[LogEntry]
    snapshots: dict[int, Snapshot] = field(default_factory=dict)
    sent: dict[str, Outbox] = field(default_factory=dict)
    events_by_seq: dict[int, list[Event]] = field(default_factory=dict)
    chain_breaks: list[str] = field(default_factory=list)


class Replayer:
    """Replays games from the store; needs the database, the games, and what reports are made with."""

    def __init__(self, database: Database, registry: Registry, environment: Environment, addressing: Addressing):
        self.database = database
        self.registry = registry
        self.environment = environment
        self.addressing = addressing

    def replay(self, game_id: str, upto: int | None = None) -> ReplayResult:
        """Replay the live log (up to entry `upto`) and compare states, events, dice and reports."""
        replay = self._read(game_id, compare=True)
        result = ReplayResult(mismatches=list(replay.chain_breaks))
        for entry in replay.entries:
            if upto is not None and entry.seq > upto:
                break
            if not self._replay_entry(replay, entry, result):
                break
            snapshot = replay.snapshots.get(entry.seq)
            game = replay.game
            if snapshot is not None and game.state is not None:
                if game.engine.dump_state(game.state) != snapshot.state:
                    result.mismatches.append(f"#{entry.seq}: the replayed state differs from the snapshot")
                result.states_checked += 1
        result.state = replay.game.state
        result.counters = dict(replay.game.rng.counters)
        return result

    def steps(self, game_id: str) -> Iterator[tuple[int, Any, list[Event]]]:
        """(seq, state, events) after the set-up and after every answer of a game's live log."""
        replay = self._read(game_id, compare=False)
        game = replay.game
        for entry in replay.entries:
            payload = json.loads(entry.payload_json)
            if entry.kind == "setup":
                game.setup()
                yield entry.seq, game.state, [Event.from_json(e) for e in payload.get("events", [])]
            elif entry.kind == "answer":
                events, _ = game.answer(payload)
                yield entry.seq, game.state, events
            elif entry.kind == "control" and payload.get("command") == "ROLLBACK":
                game.rollback(payload)

    # ------------------------------------------------------------------ inside

    def _read(self, game_id: str, compare: bool) -> _Replay:
        """The game's log (and, to `compare`, its snapshots and sent mail), with fresh dice."""
        with self.database.session() as session:
            table = load_table(session, self.registry, game_id)
            entries = stored.live_log(session, game_id)
            joins = [json.loads(e.payload_json) for e in entries if e.kind == "join"]
            by_role = {join["role"]: join["contribution"] for join in joins}
            # The key was derived from the contributions the game started with, which the setup entry
            # records (with entropy=commit-reveal they are the reveals, not the empty ones of the joins).
            started: dict[str, Any] = next((json.loads(e.payload_json) for e in entries if e.kind == "setup"), {})
            contributions = started.get("contributions") or [by_role.get(role, "") for role in table.player_roles]
            record = RngRecord(game_id, bytes.fromhex(table.game.seed_hex), contributions)
            game = GameReplay(table.engine, table.game.scenario, json.loads(table.game.options_json), record.rng())
            replay = _Replay(game, game_id, entries)
            if compare:
                replay.snapshots = stored.snapshots_by_seq(session, game_id)
                replay.sent = outbox_rows.of_game_by_message_id(session, game_id)
                replay.chain_breaks = chain_breaks(table.game, stored.whole_log(session, game_id))
        return replay

    def _replay_entry(self, replay: _Replay, entry: LogEntry, result: ReplayResult) -> bool:
        """Replay one entry into `replay`, noting mismatches; False when the replay cannot go on."""
        payload = json.loads(entry.payload_json)
        game = replay.game
        if entry.kind == "setup":
            _compare_draws(result, entry.seq, payload.get("draws", []), game.setup())
            replay.events_by_seq[entry.seq] = [Event.from_json(e) for e in payload.get("events", [])]
        elif entry.kind == "answer":
            try:
                events, draws = game.answer(payload)
            except NotPending as error:
                result.mismatches.append(f"#{entry.seq}: {error}")
                return False
            result.answers += 1
            if normal_json([e.to_json() for e in events]) != normal_json(payload.get("events", [])):
                result.mismatches.append(f"#{entry.seq}: events differ after '{payload['text']}'")
            _compare_draws(result, entry.seq, payload.get("draws", []), draws)
            replay.events_by_seq[entry.seq] = events
        elif entry.kind == "control" and payload.get("command") == "ROLLBACK":
            game.rollback(payload)
        elif entry.kind == "report":
            self._compare_report(replay, entry, payload, result)
        return True

    def _compare_report(self, replay: _Replay, entry: LogEntry, payload: dict[str, Any],
                        result: ReplayResult) -> None:
        role = payload["role"]
        view_role = "observer" if payload.get("observer") else role
        events = [e for seq in sorted(replay.events_by_seq) if payload["from_seq"] < seq < entry.seq
                  for e in replay.events_by_seq[seq] if e.is_visible_to(view_role)]
        outgoing = compose_report(replay.game.engine, self.environment, self.addressing, replay.game_id,
                                  replay.game.state, events, payload)
        sent = replay.sent.get(payload["message_id"])
        if sent is None:
            result.mismatches.append(f"#{entry.seq}: report {payload['message_id']} is not in the outbox")
        elif sent.raw != outgoing.to_bytes():
            result.mismatches.append(f"#{entry.seq}: the report to {role} differs from the one sent")
        result.reports_checked += 1


class HasReplayer(Protocol):
    @property
    def replayer(self) -> Replayer: ...


def replay_game(owner: HasReplayer, game_id: str, upto: int | None = None) -> ReplayResult:
    """`owner.replayer.replay(game_id, upto)`: for callers that hold the App (the golden tests)."""
    return owner.replayer.replay(game_id, upto)


def chain_breaks(game: Game, entries: list[LogEntry]) -> list[str]:
    """Where the game's stored log (voided entries too, in order) breaks its hash chain (core/chain.py)."""
    breaks = []
    key = log_key(game.id, bytes.fromhex(game.seed_hex))
    previous = game.commitment
    for entry in entries:
        digest = payload_digest(json.loads(entry.payload_json))
        if entry_hash(key, previous, entry.seq, entry.kind, entry.role, digest) != entry.entry_hash:
            breaks.append(f"#{entry.seq}: its hash does not match its content and the entry before it")
        previous = entry.entry_hash
    if entries and game.log_head != previous:
        breaks.append(f"the game's log head is not the hash of its last entry #{entries[-1].seq}")
    return breaks


def _was_announced(payload: dict[str, Any]) -> bool:
    """Whether a logged default was announced to everyone: one applied at a deadline is, one taken
    because a standing order no longer fitted is not (the player did answer; core/runner.py).  Both
    are logged with the source "default", so the logged events tell them apart; the announcement's
    text is still compared with the one the replay writes."""
    events = payload.get("events") or [{}]
    return bool(events[0].get("kind") == "core.defaulted")


def normal_json(value: Any) -> Any:
    """JSON's view of a value (tuples become lists), as the log stores it."""
    return json.loads(json.dumps(value, default=list))


def _compare_draws(result: ReplayResult, seq: int, logged: list[dict[str, Any]], replayed: list[Draw]) -> None:
    if [d.to_json() for d in replayed] != logged:
        result.mismatches.append(f"#{seq}: the dice differ from the log")
