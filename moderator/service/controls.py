"""Referee controls, by mail and by CLI.  Every control is logged in the game's history.

The commands are listed once in mail/commands.py; `Controls.handlers` names the method of each
referee command there (a test checks that the two agree).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from moderator.clock import Clock
from moderator.core.rng import Rng, new_seed
from moderator.core.runner import Runner
from moderator.mail.commands import referee_summary
from moderator.service import games, kept_mail
from moderator.service.absences import record_absence
from moderator.service.notices import Notices
from moderator.service.referee_mail import referee_status_text
from moderator.service.replay import Replayer
from moderator.service.table import Table, dumps
from moderator.service.turns import TurnRunner

#: What a handler answers: the text for the referee, and what to log (None: nothing changed).
Answer = tuple[str, dict[str, Any] | None]
Handler = Callable[[Table, str, datetime], Answer]


class Controls:
    """The referee's commands; needs the clock, the turn runner, notices and the replayer."""

    def __init__(self, clock: Clock, turns: TurnRunner, notices: Notices, replayer: Replayer):
        self.clock = clock
        self.turns = turns
        self.notices = notices
        self.replayer = replayer
        self.handlers: Mapping[str, Handler] = {
            "STATUS": self.status, "PAUSE": self.pause, "RESUME": self.resume, "EXTEND": self.extend,
            "FORCE": self.force, "ANNOUNCE": self.announce, "PREVIEW": self.preview, "REPLACE": self.replace,
            "ABSENT": self.absent, "ROLLBACK": self.rollback, "RELEASE": kept_mail.release,
            "DISMISS": kept_mail.dismiss, "TIMEZONE": kept_mail.set_time_zone,
        }

    def apply(self, table: Table, command: str, argument: str = "", source: str = "cli") -> str:
        """Carry out one referee command on `table` and log it; returns the answer for the referee."""
        now = self.clock.now()
        command = command.upper()
        game = table.game
        handler = self.handlers.get(command)
        if handler is None:
            return f"Unknown referee command {command}. {referee_summary()}"
        message, logged = handler(table, argument, now)
        if logged is not None:
            table.session.add(game)
            table.append("control", "referee", dict({"command": command, "argument": argument, "source": source},
                                                     **logged), now)
            if command == "ROLLBACK":
                table.snapshot(game.phase_label, now)
                self.turns.run(table, now, report_all=True)  # everyone gets the restored situation
        return message

    # ------------------------------------------------------------------ the commands

    def status(self, table: Table, argument: str, now: datetime) -> Answer:
        """Who owes which decision by when (in the referee's time zone), and the newest log entry."""
        return referee_status_text(table, now), None

    def pause(self, table: Table, argument: str, now: datetime) -> Answer:
        table.game.status = "paused"
        return f"{table.game.id} is paused; orders are accepted but nothing runs until RESUME.", {}

    def resume(self, table: Table, argument: str, now: datetime) -> Answer:
        table.game.status = "running"
        return f"{table.game.id} resumes.", {}

    def extend(self, table: Table, argument: str, now: datetime) -> Answer:
        try:
            hours = float(argument or "24")
        except ValueError:
            return f"EXTEND needs a number of hours, not '{argument}'.", None
        shift_deadlines(table, timedelta(hours=hours))
        return f"Every open deadline of {table.game.id} moves {hours:g} hours later.", {"hours": hours}

    def force(self, table: Table, argument: str, now: datetime) -> Answer:
        result = self.turns.run(table, now, force_defaults=True)
        return (f"{table.game.id} was run now: {len(result.steps)} answer(s) applied, "
                f"{len(result.defaulted)} by default."), {}

    def announce(self, table: Table, argument: str, now: datetime) -> Answer:
        if not argument:
            return "ANNOUNCE needs the text to send.", None
        seats = table.players() + table.observers()
        for seat in seats:
            self.notices.post(table.session, table, seat.address, seat.role, "Announcement from the referee",
                              [argument], kind="notice")
        return f"Announcement sent to {len(seats)} seat(s).", {}

    def preview(self, table: Table, argument: str, now: datetime) -> Answer:
        """What the orders and standing orders at hand would do now, with throwaway dice."""
        plans = {role: table.plan(role) for role in table.player_roles}
        advance = Runner(table.engine).advance(table.state, plans, Rng(new_seed()))
        lines = [f"PREVIEW of {table.game.id} (nothing applied; dice are not the game's):"]
        lines += [f"  {s.role}: {s.text} [{s.source}]" for s in advance.steps if not s.secret]
        lines += [f"  {s.role}: (a face-down answer)" for s in advance.steps if s.secret]
        lines += [f"  held: {h.role} line {h.line_no}: {h.reason}" for h in advance.holds]
        lines.append("  then waiting for: " + (", ".join(f"{d.role} ({d.kind})" for d in advance.waiting) or "nobody"))
        return "\n".join(lines), None

    def replace(self, table: Table, argument: str, now: datetime) -> Answer:
        parts = argument.split()
        if len(parts) != 2 or parts[0].lower() not in table.seats:
            return f"REPLACE needs a role ({', '.join(table.player_roles)}) and an address.", None
        role, address = parts[0].lower(), parts[1].lower()
        seat = table.seats[role]
        old = seat.address
        secret = games.new_secret()  # the old secret dies with the change
        seat.address = address
        seat.secret = secret
        table.session.add(seat)
        self.notices.post(table.session, table, address, role, "You take over a seat", [
            f"The referee has given you the seat '{role}' in {table.game.id} ({table.engine.info.title}).",
            f"Your secret is {secret}. Every report repeats it. Send STATUS or RESEND for the situation."],
            envelope=[f"GAME {table.game.id}", f"ROLE {role}", f"SECRET {secret}"], kind="notice")
        if old:
            self.notices.post(table.session, table, old, role, "Your seat was handed over", [
                f"The referee has handed your seat '{role}' in {table.game.id} to another player. "
                f"Your secret no longer works."], kind="notice")
        return f"{role} is now played from {address}; a new secret was sent there.", {"role": role, "address": address}

    def absent(self, table: Table, argument: str, now: datetime) -> Answer:
        parts = argument.split()
        if len(parts) != 3 or parts[0].lower() not in table.seats:
            return "ABSENT needs a role and two dates: ABSENT axis 2026-07-01 2026-07-14", None
        return record_absence(table, parts[0].lower(), parts[1], parts[2], now)

    def rollback(self, table: Table, argument: str, now: datetime) -> Answer:
        try:
            target = int(argument.lstrip("#"))
        except ValueError:
            return "ROLLBACK needs the log number to go back to (STATUS shows the current one).", None
        entries = table.log()
        setup = next((e.seq for e in entries if e.kind == "setup"), None)
        if setup is None or not setup <= target < table.game.last_seq:
            return f"ROLLBACK needs a log number between {setup} and {table.game.last_seq - 1}.", None
        replayed = self.replayer.replay(table.game.id, upto=target)
        if not replayed.ok:
            return f"ROLLBACK refused: the log does not replay cleanly ({replayed.mismatches[0]}).", None
        voided = 0
        for entry in entries:
            if entry.seq > target and entry.kind in ("answer", "report", "hold"):
                entry.void = True
                table.session.add(entry)
                voided += 1
        table.state = replayed.state
        # The dice go on from where they are, so no voided roll is ever rolled again.
        counters = {k: max(v, replayed.counters.get(k, 0)) for k, v in table.counters.items()}
        table.counters = counters
        for seat in table.players():
            seat.deadlines_json = "{}"
            seat.asked_json = "[]"
            table.session.add(seat)
        table.game.status = "running" if table.engine.outcome(table.state) is None else "over"
        table.game.phase_label = table.engine.phase_label(table.state)
        return (f"{table.game.id} is back at log #{target} ({table.game.phase_label}); {voided} later entries "
                f"are voided but kept."), {"to": target, "counters": counters}


def shift_deadlines(table: Table, delta: timedelta) -> None:
    """Every open deadline of the game moves by `delta`."""
    for seat in table.players():
        deadlines = {key: (datetime.fromisoformat(due) + delta).isoformat()
                     for key, due in json.loads(seat.deadlines_json or "{}").items()}
        seat.deadlines_json = dumps(deadlines)
        table.session.add(seat)
    if table.game.next_deadline:
        table.game.next_deadline = table.game.next_deadline + delta
