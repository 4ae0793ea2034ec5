"""Replay a game from its log and compare every state, event, draw and report (DESIGN §9).

Replaying also lets a rules fix re-run a game and show every report that would change before
anything is sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import select

from moderator.core.contract import Event
from moderator.core.rng import RngRecord
from moderator.core.runner import Runner
from moderator.service.reports import compose_report
from moderator.service.table import load_table
from moderator.service.turns import defaulted_events
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


def replay_game(app, game_id: str, upto: int | None = None) -> ReplayResult:
    result = ReplayResult()
    with app.db.session() as session:
        table = load_table(session, app.registry, game_id)
        engine = table.engine
        runner = Runner(engine)
        entries = list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.void == False)  # noqa: E712
                                    .order_by(LogEntry.seq)))
        snapshots = {s.seq: s for s in session.exec(select(Snapshot).where(Snapshot.game_id == game_id))}
        outbox = {o.message_id: o for o in session.exec(select(Outbox).where(Outbox.game_id == game_id))}
        contributions = [json.loads(e.payload_json)["contribution"] for e in entries if e.kind == "join"]
        by_role = {json.loads(e.payload_json)["role"]: json.loads(e.payload_json)["contribution"]
                   for e in entries if e.kind == "join"}
        contributions = [by_role.get(role, "") for role in table.player_roles]
        record = RngRecord(game_id, bytes.fromhex(table.game.seed_hex), contributions)
        rng = record.rng()
        state: Any = None
        events_by_seq: dict[int, list[Event]] = {}
        options = json.loads(table.game.options_json)
        for entry in entries:
            if upto is not None and entry.seq > upto:
                break
            payload = json.loads(entry.payload_json)
            if entry.kind == "setup":
                state = engine.setup(table.game.scenario, options, rng)
                _compare_draws(result, entry.seq, payload.get("draws", []), rng.take_draws())
                events_by_seq[entry.seq] = [Event.from_json(e) for e in payload.get("events", [])]
            elif entry.kind == "answer":
                decision = next((d for d in engine.pending(state) if d.key == payload["decision"]), None)
                if decision is None:
                    result.mismatches.append(f"#{entry.seq}: decision {payload['decision']} is not pending in replay")
                    break
                state, step = runner.apply_text(state, decision, payload["text"], rng, payload["source"])
                events = list(step.events)
                if payload["source"] == "default":
                    events[0:0] = defaulted_events(decision, step.text)
                result.answers += 1
                if _normal([e.to_json() for e in events]) != _normal(payload.get("events", [])):
                    result.mismatches.append(f"#{entry.seq}: events differ after '{payload['text']}'")
                _compare_draws(result, entry.seq, payload.get("draws", []), list(step.draws))
                events_by_seq[entry.seq] = events
            elif entry.kind == "control" and payload.get("command") == "ROLLBACK":
                # After a rollback the dice go on from fresh counters (never repeat a voided roll).
                rng.counters = dict(payload["counters"])
            elif entry.kind == "report":
                role = payload["role"]
                view_role = "observer" if payload.get("observer") else role
                events = [e for seq in sorted(events_by_seq) if payload["from_seq"] < seq < entry.seq
                          for e in events_by_seq[seq] if e.is_visible_to(view_role)]
                outgoing = compose_report(engine, app.environment, app.addressing, game_id, state, events, payload)
                sent = outbox.get(payload["message_id"])
                if sent is None:
                    result.mismatches.append(f"#{entry.seq}: report {payload['message_id']} is not in the outbox")
                elif sent.raw != outgoing.to_bytes():
                    result.mismatches.append(f"#{entry.seq}: the report to {role} differs from the one sent")
                result.reports_checked += 1
            snapshot = snapshots.get(entry.seq)
            if snapshot is not None and state is not None:
                if engine.dump_state(state) != snapshot.state:
                    result.mismatches.append(f"#{entry.seq}: the replayed state differs from the snapshot")
                result.states_checked += 1
        result.state = state
        result.counters = dict(rng.counters)
    return result


def replay_steps(app, game_id: str):
    """Yield (seq, state, events) after the set-up and after every answer of a game's log."""
    from moderator.service.turns import defaulted_events

    with app.db.session() as session:
        table = load_table(session, app.registry, game_id)
        engine = table.engine
        runner = Runner(engine)
        entries = list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.void == False)  # noqa: E712
                                    .order_by(LogEntry.seq)))
        by_role = {json.loads(e.payload_json)["role"]: json.loads(e.payload_json)["contribution"]
                   for e in entries if e.kind == "join"}
        record = RngRecord(game_id, bytes.fromhex(table.game.seed_hex),
                           [by_role.get(role, "") for role in table.player_roles])
        scenario, options = table.game.scenario, json.loads(table.game.options_json)
    rng = record.rng()
    state = None
    for entry in entries:
        payload = json.loads(entry.payload_json)
        if entry.kind == "setup":
            state = engine.setup(scenario, options, rng)
            yield entry.seq, state, [Event.from_json(e) for e in payload.get("events", [])]
        elif entry.kind == "answer":
            decision = next(d for d in engine.pending(state) if d.key == payload["decision"])
            state, step = runner.apply_text(state, decision, payload["text"], rng, payload["source"])
            events = list(step.events)
            if payload["source"] == "default":
                events[0:0] = defaulted_events(decision, step.text)
            yield entry.seq, state, events
        elif entry.kind == "control" and payload.get("command") == "ROLLBACK":
            rng.counters = dict(payload["counters"])


def _normal(value):
    """JSON's view of a value (tuples become lists), as the log stores it."""
    return json.loads(json.dumps(value, default=list))


def _compare_draws(result: ReplayResult, seq: int, logged: list[dict], replayed: list) -> None:
    if [d.to_json() for d in replayed] != logged:
        result.mismatches.append(f"#{seq}: the dice differ from the log")
