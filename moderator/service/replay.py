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

from moderator.core.contract import Decision, Engine, Event
from moderator.core.rng import Draw, Rng, RngRecord
from moderator.core.runner import Runner
from moderator.registry import Registry
from moderator.service.reports import Addressing, compose_report
from moderator.service.table import load_table
from moderator.service.turns import defaulted_events
from moderator.store import games as stored
from moderator.store import outbox as outbox_rows
from moderator.store.db import Database
from moderator.store.models import LogEntry, Outbox, Snapshot


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


@dataclass
class _Replay:
    """One replay under way: what was read from the store, and the dice and state so far."""

    engine: Engine[Any]
    runner: Runner
    game_id: str
    scenario: str
    options: dict[str, Any]
    rng: Rng
    entries: list[LogEntry]
    snapshots: dict[int, Snapshot] = field(default_factory=dict)
    sent: dict[str, Outbox] = field(default_factory=dict)
    state: Any = None
    events_by_seq: dict[int, list[Event]] = field(default_factory=dict)


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
        result = ReplayResult()
        for entry in replay.entries:
            if upto is not None and entry.seq > upto:
                break
            if not self._replay_entry(replay, entry, result):
                break
            snapshot = replay.snapshots.get(entry.seq)
            if snapshot is not None and replay.state is not None:
                if replay.engine.dump_state(replay.state) != snapshot.state:
                    result.mismatches.append(f"#{entry.seq}: the replayed state differs from the snapshot")
                result.states_checked += 1
        result.state = replay.state
        result.counters = dict(replay.rng.counters)
        return result

    def steps(self, game_id: str) -> Iterator[tuple[int, Any, list[Event]]]:
        """(seq, state, events) after the set-up and after every answer of a game's live log."""
        replay = self._read(game_id, compare=False)
        for entry in replay.entries:
            payload = json.loads(entry.payload_json)
            if entry.kind == "setup":
                replay.state = replay.engine.setup(replay.scenario, replay.options, replay.rng)
                yield entry.seq, replay.state, [Event.from_json(e) for e in payload.get("events", [])]
            elif entry.kind == "answer":
                decision = next(d for d in replay.engine.pending(replay.state) if d.key == payload["decision"])
                replay.state, events, _ = _apply(replay, decision, payload)
                yield entry.seq, replay.state, events
            elif entry.kind == "control" and payload.get("command") == "ROLLBACK":
                replay.rng.counters = dict(payload["counters"])

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
            started = next((json.loads(e.payload_json) for e in entries if e.kind == "setup"), {})
            contributions = started.get("contributions") or [by_role.get(role, "") for role in table.player_roles]
            record = RngRecord(game_id, bytes.fromhex(table.game.seed_hex), contributions)
            replay = _Replay(table.engine, Runner(table.engine), game_id, table.game.scenario,
                             json.loads(table.game.options_json),
                             record.rng(), entries)
            if compare:
                replay.snapshots = stored.snapshots_by_seq(session, game_id)
                replay.sent = outbox_rows.of_game_by_message_id(session, game_id)
        return replay

    def _replay_entry(self, replay: _Replay, entry: LogEntry, result: ReplayResult) -> bool:
        """Replay one entry into `replay`, noting mismatches; False when the replay cannot go on."""
        payload = json.loads(entry.payload_json)
        if entry.kind == "setup":
            replay.state = replay.engine.setup(replay.scenario, replay.options, replay.rng)
            _compare_draws(result, entry.seq, payload.get("draws", []), replay.rng.take_draws())
            replay.events_by_seq[entry.seq] = [Event.from_json(e) for e in payload.get("events", [])]
        elif entry.kind == "answer":
            decision = next((d for d in replay.engine.pending(replay.state) if d.key == payload["decision"]), None)
            if decision is None:
                result.mismatches.append(f"#{entry.seq}: decision {payload['decision']} is not pending in replay")
                return False
            replay.state, events, draws = _apply(replay, decision, payload)
            result.answers += 1
            if _normal([e.to_json() for e in events]) != _normal(payload.get("events", [])):
                result.mismatches.append(f"#{entry.seq}: events differ after '{payload['text']}'")
            _compare_draws(result, entry.seq, payload.get("draws", []), draws)
            replay.events_by_seq[entry.seq] = events
        elif entry.kind == "control" and payload.get("command") == "ROLLBACK":
            # After a rollback the dice go on from fresh counters (never repeat a voided roll).
            replay.rng.counters = dict(payload["counters"])
        elif entry.kind == "report":
            self._compare_report(replay, entry, payload, result)
        return True

    def _compare_report(self, replay: _Replay, entry: LogEntry, payload: dict[str, Any],
                        result: ReplayResult) -> None:
        role = payload["role"]
        view_role = "observer" if payload.get("observer") else role
        events = [e for seq in sorted(replay.events_by_seq) if payload["from_seq"] < seq < entry.seq
                  for e in replay.events_by_seq[seq] if e.is_visible_to(view_role)]
        outgoing = compose_report(replay.engine, self.environment, self.addressing, replay.game_id, replay.state,
                                  events, payload)
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


def _apply(replay: _Replay, decision: Decision, payload: dict[str, Any]) -> tuple[Any, list[Event], list[Draw]]:
    """The logged answer applied again: the new state, its events (defaults announced) and dice."""
    state, step = replay.runner.apply_text(replay.state, decision, payload["text"], replay.rng, payload["source"])
    events = list(step.events)
    if payload["source"] == "default":
        events[0:0] = defaulted_events(decision, step.text)
    return state, events, list(step.draws)


def _normal(value: Any) -> Any:
    """JSON's view of a value (tuples become lists), as the log stores it."""
    return json.loads(json.dumps(value, default=list))


def _compare_draws(result: ReplayResult, seq: int, logged: list[dict[str, Any]], replayed: list[Draw]) -> None:
    if [d.to_json() for d in replayed] != logged:
        result.mismatches.append(f"#{seq}: the dice differ from the log")
