"""Running a game: feed the engine from plans, apply defaults at deadlines, log, snapshot, report.

Everything a run changes — log entries, the snapshot, seats' plans and deadlines, the outbox —
is written in the caller's transaction, so a crash leaves either all of it or none of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from jinja2 import Environment

from moderator.core.contract import Decision, Engine, Event, Outcome
from moderator.core.plans import Plan
from moderator.core.runner import Advance, Hold, Runner, Step
from moderator.mail.compose import make_message_id, thread_root
from moderator.service.absences import push_past_absences
from moderator.service.archive import archive_of
from moderator.service.cadence import (
    Mark,
    News,
    answered_entry,
    has_remarks,
    hold_receipt,
    report_subject,
    should_mail,
    take_held_receipts,
)
from moderator.service.receipt_lines import catch_up, expired_listing
from moderator.service.referee_mail import RefereeMail, Turn
from moderator.service.reports import Addressing, compose_report
from moderator.service.table import Table, dumps
from moderator.settings import DeadlineSettings
from moderator.store.models import Outbox, Seat
from moderator.store.outbox import queue_mail


@dataclass
class RunResult:
    steps: list[Step] = field(default_factory=list)
    holds: list[Hold] = field(default_factory=list)
    defaulted: list[Decision] = field(default_factory=list)
    waiting: list[Decision] = field(default_factory=list)
    reports: list[Outbox] = field(default_factory=list)
    finished: bool = False
    expired: list[tuple[str, Any]] = field(default_factory=list)  # (role, AgendaLine) unused when a turn ended
    keyed_used: list[tuple[str, Any]] = field(default_factory=list)  # (role, AgendaLine) used up, in order
    #: (role, ScriptLine, why): lines passed over whose question can no longer come (core/script_order.py)
    unused: list[tuple[str, Any, str]] = field(default_factory=list)
    #: (role, ScriptLine, status, why): every line that left a script (receipts are written from it)
    script_log: list[tuple[str, Any, str, str]] = field(default_factory=list)
    started_at: Mark | None = None  # where the game stood when the run began (for the end of a turn)
    digest: Outbox | None = None  # the referee's digest, when the run started or ended a game turn or the game

    def take(self, advance: Advance) -> None:
        """What one advance of the runner did, added to what the run did."""
        self.steps.extend(advance.steps)
        self.holds.extend(advance.holds)
        self.expired.extend(advance.expired)
        self.keyed_used.extend(advance.keyed_used)
        self.unused.extend(advance.unused)
        self.script_log.extend(advance.script_log)


def deadline_hours(settings: DeadlineSettings, game_settings: dict[str, Any], decision: Decision) -> float:
    override = game_settings.get("deadline_hours", {}).get(decision.deadline)
    if override is not None:
        return float(override)
    return float(getattr(settings, f"{decision.deadline}_hours", settings.phase_hours))


def grace_after(settings: DeadlineSettings, game_settings_json: str | None) -> timedelta:
    """How long after a deadline its default is applied: the game's own grace (a league sets it for its
    games) or the house's."""
    minutes = json.loads(game_settings_json or "{}").get("grace_minutes")
    return timedelta(minutes=float(settings.grace_minutes if minutes is None else minutes))


def step_payload(step: Step) -> dict[str, Any]:
    payload = {"decision": step.decision, "kind": step.kind, "text": step.text, "source": step.source,
               "line": step.line_no, "secret": step.secret,
               "events": [e.to_json() for e in step.events], "draws": [d.to_json() for d in step.draws]}
    payload.update(answered_entry(step))
    return payload


def defaulted_events(decision: Decision, text: str) -> list[Event]:
    """Everyone is told that a role's deadline passed; only its owner the question and the answer.

    A prompt and its answer are written for the deciding role and may name what only that role
    sees (a whole hidden stack after a barrage, the blocks that take hits).  The others learn which
    kind of question it was; what the default did reaches them through the game's own events,
    each filtered per role like every other event (issue 13).
    """
    mine = {"role": decision.role, "prompt": decision.prompt, "answer": text}
    others = {"role": decision.role, "kind": decision.kind}
    return [Event("core.defaulted", others, hidden_from=(decision.role,)),
            Event("core.defaulted", mine, (decision.role,))]


class TurnRunner:
    """Runs games and writes their reports; needs the deadline settings, the addressing, the templates
    and the referee's mail (the digest after a run that started or ended a game turn)."""

    def __init__(self, deadlines: DeadlineSettings, addressing: Addressing, environment: Environment,
                 referee: RefereeMail | None = None):
        self.deadlines = deadlines
        self.addressing = addressing
        self.environment = environment
        self.referee = referee

    # ------------------------------------------------------------------ running

    def run(self, table: Table, now: datetime, *, force_defaults: bool = False,
            receipts: dict[str, dict[str, Any]] | None = None, report_all: bool = False,
            settle: Callable[[RunResult, dict[str, Plan]], None] | None = None) -> RunResult:
        """Advance the game as far as plans and passed deadlines allow, then report.

        `settle` is called with the result and the plans once the run is done and before the reports
        are written (the seat desk writes what became of each line into the receipt they carry).
        """
        engine = table.engine
        runner = Runner(engine)
        rng = table.rng()
        plans = {role: table.plan(role) for role in table.player_roles}
        result = RunResult()
        result.started_at = Mark.of(engine, table.state)
        game_settings = json.loads(table.game.settings_json or "{}")
        # A forced run defaults only what was open when the referee forced it.
        forced = {d.key for d in engine.pending(table.state)} if force_defaults else set()
        while True:
            advance = runner.advance(table.state, plans, rng)
            table.state = advance.state
            result.take(advance)
            for step in advance.steps:
                self._log_step(table, step, now)
            due = [d for d in advance.waiting if d.key in forced or self._is_due(table, d, now)]
            if not due:
                result.waiting = advance.waiting
                break
            decision = due[0]
            table.state, step = runner.apply_default(table.state, decision, rng)
            step = Step(step.role, step.decision, step.kind, step.text, step.source,
                        (*defaulted_events(decision, step.text), *step.events), step.draws, None, step.secret)
            result.steps.append(step)
            result.defaulted.append(decision)
            self._log_step(table, step, now)
            if decision.role in plans:  # a player who let a deadline pass is answered by the defaults from now on
                plans[decision.role].ask_first = False
        table.counters = dict(rng.counters)
        for role, plan in plans.items():
            if role in table.seats:
                table.save_plan(role, plan)
        log_holds(table, result, now)
        outcome = engine.outcome(table.state)
        result.finished = outcome is not None
        table.game.phase_label = engine.phase_label(table.state)
        if outcome is not None:
            table.game.status = "over"
            table.game.result_json = dumps({"winner": outcome.winner, "reason": outcome.reason,
                                            "score": dict(outcome.score)})
        self._set_deadlines(table, result.waiting, now, game_settings)
        table.snapshot(table.game.phase_label, now)
        opening = all(seat.last_report_seq == 0 for seat in table.players())  # nobody has had a report yet
        if settle is not None:
            settle(result, plans)
        result.reports = self.report(table, now, result, receipts or {}, report_all)
        if self.referee is not None:
            result.digest = self.referee.after_run(table, now, Turn.of(table, result.started_at, opening,
                                                                        result.finished))
        return result

    def _log_step(self, table: Table, step: Step, now: datetime) -> None:
        table.append("answer", step.role, step_payload(step), now)

    def _is_due(self, table: Table, decision: Decision, now: datetime) -> bool:
        seat = table.seats.get(decision.role)
        if seat is None:
            return True
        due = json.loads(seat.deadlines_json or "{}").get(decision.key)
        if not due:
            return False
        return datetime.fromisoformat(due) + grace_after(self.deadlines, table.game.settings_json) <= now

    def _set_deadlines(self, table: Table, waiting: list[Decision], now: datetime,
                       game_settings: dict[str, Any]) -> None:
        earliest: datetime | None = None
        for seat in table.players():
            current = json.loads(seat.deadlines_json or "{}")
            mine = {d.key: d for d in waiting if d.role == seat.role}
            kept = {key: due for key, due in current.items() if key in mine}
            absences = json.loads(seat.absences_json or "[]")
            for key, decision in mine.items():
                if key not in kept:
                    hours = deadline_hours(self.deadlines, game_settings, decision)
                    due = push_past_absences(now + timedelta(hours=hours), now, absences)
                    kept[key] = due.isoformat()
            seat.deadlines_json = dumps(kept)
            table.session.add(seat)
            for due in kept.values():
                when = datetime.fromisoformat(due)
                earliest = when if earliest is None or when < earliest else earliest
        table.game.next_deadline = earliest
        table.session.add(table.game)

    # ------------------------------------------------------------------ reporting

    def report(self, table: Table, now: datetime, result: RunResult, receipts: dict[str, dict[str, Any]],
               report_all: bool) -> list[Outbox]:
        """Mail each seat this run has news for, as its NOTIFY choice and the game's cadence say
        (service/cadence.py); a receipt with no mail to ride on waits for the seat's next one."""
        rows: list[Outbox] = []
        waiting_keys = {d.key for d in result.waiting}
        engine = table.engine
        boundary = result.started_at is not None and result.started_at.passed(
            Mark.of(engine, table.state), engine.info.report_every)
        seats = list(table.players()) + table.observers()
        table.preload_events(min((s.last_report_seq for s in seats), default=0))
        for seat in seats:
            role = seat.role
            observer = seat.kind == "observer"
            asked = set(json.loads(seat.asked_json or "[]"))
            mine = {d.key for d in result.waiting if d.role == role}
            holds = [h for h in result.holds if h.role == role]
            news = News(asked=bool(mine - asked) or bool(holds),
                        events=bool(table.events_since(seat.last_report_seq, "observer" if observer else role)),
                        boundary=boundary, finished=result.finished, receipt=role in receipts,
                        remark=role in receipts and has_remarks(receipts[role]), owes=bool(mine & asked))
            if not should_mail("turn" if observer else seat.notify, news, report_all):
                if role in receipts:
                    hold_receipt(seat, receipts[role], now)
                    table.session.add(seat)
                continue
            held = take_held_receipts(seat)
            catch_up(held, table.entries_of(role, seat.last_report_seq, "answer"),
                     table.entries_of(role, seat.last_report_seq, "hold"))
            mailed = held + ([receipts[role]] if role in receipts else [])
            rows.append(self._report_one(table, seat, now, holds, mailed, observer, result.expired, result.unused))
            seat.asked_json = dumps(sorted((asked & waiting_keys) | mine))
            table.session.add(seat)
        table.forget_events()  # read once for the reports of this run only
        return rows

    def _report_one(self, table: Table, seat: Seat, now: datetime, holds: list[Hold],
                    receipts: list[dict[str, Any]], observer: bool, expired: Sequence[tuple[str, Any]] = (),
                    unused: Sequence[tuple[str, Any, str]] = ()) -> Outbox:
        engine = table.engine
        from_seq = seat.last_report_seq
        seq = table.game.last_seq + 1  # the report's own log entry
        message_id = make_message_id("report", table.game.id, seat.role, seq, self.addressing.domain)
        payload = self._payload(table, seat, now, holds, receipts, observer, expired, seq, message_id)
        left = [f"line {line.line_no}: {line.render()} ({why})" for role, line, why in unused if role == seat.role]
        if left:  # only when there are some: a report's logged payload keeps its old form otherwise
            payload["unused"] = left
        # The whole map once per game turn: a second mail of the turn, the game-over report included
        # (issue 12's mail budget), shows the close-up of what changed, and says which mail had the map.
        turn = table.engine.progress(table.state)[0]
        payload["whole_map"] = seat.last_map_turn != turn
        payload["map_turn"] = seat.last_map_turn
        events = table.events_since(from_seq, "observer" if observer else seat.role)
        outgoing = compose_report(engine, self.environment, self.addressing, table.game.id, table.state,
                                  events, payload)
        if any(item.filename.endswith("-map.png") for item in outgoing.inline):
            seat.last_map_turn = turn  # a game without a map never has one to point back to
        logged = table.append("report", seat.role, payload, now)
        assert logged == seq
        row = queue_mail(table.session, game_id=table.game.id, recipient=seat.address, message_id=message_id,
                         subject=outgoing.subject, kind="report", raw=outgoing.to_bytes(), created_at=now,
                         next_attempt_at=now, log_seq=seq)
        seat.last_report_seq = seq
        seat.last_report_message_id = message_id
        table.session.add(seat)
        return row

    def _payload(self, table: Table, seat: Seat, now: datetime, holds: list[Hold], receipts: list[dict[str, Any]],
                 observer: bool, expired: Sequence[tuple[str, Any]], seq: int, message_id: str) -> dict[str, Any]:
        """Everything a report is rendered from besides the state and the events (logged, so replay
        renders the same bytes)."""
        engine = table.engine
        plan = table.plan(seat.role) if not observer else None
        outcome = engine.outcome(table.state)
        deadlines = json.loads(seat.deadlines_json or "{}") if not observer else {}
        asked = [d for d in engine.pending(table.state) if d.role == seat.role]
        role_title = seat.role.replace("_", " ").title()
        return {
            "role": seat.role, "observer": observer, "address": seat.address, "seq": seq,
            "from_seq": seat.last_report_seq, "message_id": message_id, "date": now.isoformat(), "tz": seat.timezone,
            "subject": report_subject(table.game.id, engine.progress(table.state)[0], role_title, asked, deadlines,
                                      seat.timezone, describe_winner(outcome) if outcome else None, observer),
            "thread_topic": f"[{table.game.id}/{seat.role}] {engine.info.title}",
            "heading": f"{table.game.id}: {phase_title(engine, table.state)} ({role_title})",
            "in_reply_to": seat.last_report_message_id,
            "references": list(dict.fromkeys(r for r in (thread_root(table.game.id, seat.role, self.addressing.domain),
                                                         seat.last_report_message_id) if r)),
            "receipts": receipts, "holds": [{"line_no": h.line_no, "text": h.text, "reason": h.reason,
                                             "held": list(h.held)} for h in holds],
            "answered": [] if observer else table.answered_since(seat.last_report_seq, seat.role),
            "queued": [line.render() + ("  (passed over: waits for its own question)" if line.passed else "")
                       for line in plan.script] if plan else [],
            "standing": [s.render() for s in plan.standing] if plan else [],
            "agenda": [a.render() for a in plan.agenda] if plan else [],
            "expired": expired_listing(receipts, [line for role, line in expired if role == seat.role]),
            "deadlines": deadlines,
            "commitment": table.game.commitment,
            "seed": table.game.seed_hex if table.game.status == "over" else None,
            # The log's hash chain up to this report, and where each stream of draws stands: a
            # player who keeps the mail can check both against the archive (service/mailbox_check.py).
            "head": {"seq": table.game.last_seq, "hash": table.game.log_head},
            "counters": dict(sorted(table.counters.items())),
            # The game-over report carries the archive as it stands, so that a player can verify the
            # whole game from their own mailbox.
            "archive": archive_of(table, {"seq": seq, "role": seat.role}) if table.game.status == "over" else None,
            "outcome": describe_outcome(outcome) if outcome else None,
            # A finished game asks nothing: its last report carries no "how to answer" (issue 12).
            "envelope": [] if observer or outcome is not None else envelope_lines(
                table.game.id, seat.role, table.game.phase_label, seat.secret),
            # only when so, from the plan read above: a report's logged payload keeps its old form otherwise
            **({"ask_first": True} if plan is not None and plan.ask_first else {}),
        }


def log_holds(table: Table, result: RunResult, now: datetime) -> None:
    """The run's held scripts, and its script lines not used (kept with the holds: a receipt that waited
    for the seat's next report reads both)."""
    for hold in result.holds:
        table.append("hold", hold.role, {"line": hold.line_no, "text": hold.text, "reason": hold.reason,
                                         "held": list(hold.held)}, now)
    for role, line, why in result.unused:
        table.append("hold", role, {"line": line.line_no, "text": line.render(), "reason": why, "held": [],
                                    "unused": True}, now)


def phase_title(engine: Engine[Any], state: Any) -> str:
    return engine.phase_title(state)


def describe_winner(outcome: Outcome) -> str:
    """`Soviet wins` or `a draw`, for a subject line."""
    return "a draw" if outcome.winner is None else f"{outcome.winner.replace('_', ' ').title()} wins"


def describe_outcome(outcome: Outcome) -> str:
    score = ", ".join(f"{k} {v}" for k, v in outcome.score.items())
    if outcome.winner is None:
        return f"The game is a draw ({outcome.reason}; {score})."
    return f"{outcome.winner.replace('_', ' ').title()} wins ({outcome.reason}; {score})."


def envelope_lines(game_id: str, role: str, phase: str, secret: str = "<your secret>") -> list[str]:
    return [f"GAME {game_id}", f"ROLE {role}", f"SECRET {secret}",
            f"PHASE {phase}    # optional: refuse my orders if the game has moved on"]
