"""Referee controls, by mail and by CLI.  Every control is logged in the game's history."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.core.rng import Rng, new_seed
from moderator.core.runner import Runner
from moderator.service.table import Table, dumps

HELP = ("Referee commands: PAUSE, RESUME, FORCE (apply every open default now), EXTEND <hours>, "
        "ANNOUNCE <text>, PREVIEW (what the orders at hand would do, with throwaway dice), "
        "ROLLBACK <log number>, REPLACE <role> <address>, ABSENT <role> <from YYYY-MM-DD> <to YYYY-MM-DD>, "
        "STATUS.")


class Controls:
    def __init__(self, app):
        self.app = app

    def apply(self, table: Table, command: str, argument: str = "", source: str = "cli") -> str:
        now = self.app.clock.now()
        command = command.upper()
        game = table.game
        handler = getattr(self, f"_{command.lower()}", None)
        if handler is None:
            return f"Unknown referee command {command}. {HELP}"
        message, logged = handler(table, argument, now)
        if logged is not None:
            table.session.add(game)
            table.append("control", "referee", dict({"command": command, "argument": argument, "source": source},
                                                     **logged), now)
            if command == "ROLLBACK":
                table.snapshot(game.phase_label, now)
                self.app.turns.run(table, now, report_all=True)  # everyone gets the restored situation
        return message

    # ------------------------------------------------------------------ the commands

    def _status(self, table, argument, now):
        game = table.game
        return f"{game.id}: {game.status}, phase {game.phase_label}, log at #{game.last_seq}.", None

    def _pause(self, table, argument, now):
        table.game.status = "paused"
        return f"{table.game.id} is paused; orders are accepted but nothing runs until RESUME.", {}

    def _resume(self, table, argument, now):
        table.game.status = "running"
        return f"{table.game.id} resumes.", {}

    def _extend(self, table, argument, now):
        try:
            hours = float(argument or "24")
        except ValueError:
            return f"EXTEND needs a number of hours, not '{argument}'.", None
        shift_deadlines(table, timedelta(hours=hours))
        return f"Every open deadline of {table.game.id} moves {hours:g} hours later.", {"hours": hours}

    def _force(self, table, argument, now):
        result = self.app.turns.run(table, now, force_defaults=True)
        return (f"{table.game.id} was run now: {len(result.steps)} answer(s) applied, "
                f"{len(result.defaulted)} by default."), {}

    def _announce(self, table, argument, now):
        if not argument:
            return "ANNOUNCE needs the text to send.", None
        seats = table.players() + table.observers()
        for seat in seats:
            self.app.mailroom._notice(table.session, table, seat.address, seat.role,
                                      "Announcement from the referee", [argument], kind="notice")
        return f"Announcement sent to {len(seats)} seat(s).", {}

    def _preview(self, table, argument, now):
        """What the orders and standing orders at hand would do now, with throwaway dice."""
        plans = {role: table.plan(role) for role in table.player_roles}
        advance = Runner(table.engine).advance(table.state, plans, Rng(new_seed()))
        lines = [f"PREVIEW of {table.game.id} (nothing applied; dice are not the game's):"]
        lines += [f"  {s.role}: {s.text} [{s.source}]" for s in advance.steps if not s.secret]
        lines += [f"  {s.role}: (a face-down answer)" for s in advance.steps if s.secret]
        lines += [f"  held: {h.role} line {h.line_no}: {h.reason}" for h in advance.holds]
        lines.append("  then waiting for: " + (", ".join(f"{d.role} ({d.kind})" for d in advance.waiting) or "nobody"))
        return "\n".join(lines), None

    def _replace(self, table, argument, now):
        from moderator.service.games import new_secret

        parts = argument.split()
        if len(parts) != 2 or parts[0].lower() not in table.seats:
            return f"REPLACE needs a role ({', '.join(table.player_roles)}) and an address.", None
        role, address = parts[0].lower(), parts[1].lower()
        seat = table.seats[role]
        old = seat.address
        secret = new_secret()  # the old secret dies with the change
        seat.address = address
        seat.secret = secret
        table.session.add(seat)
        self.app.mailroom._notice(table.session, table, address, role, "You take over a seat", [
            f"The referee has given you the seat '{role}' in {table.game.id} ({table.engine.info.title}).",
            f"Your secret is {secret}. Every report repeats it. Send STATUS or RESEND for the situation."],
            envelope=[f"GAME {table.game.id}", f"ROLE {role}", f"SECRET {secret}"], kind="notice")
        if old:
            self.app.mailroom._notice(table.session, table, old, role, "Your seat was handed over", [
                f"The referee has handed your seat '{role}' in {table.game.id} to another player. "
                f"Your secret no longer works."], kind="notice")
        return f"{role} is now played from {address}; a new secret was sent there.", {"role": role, "address": address}

    def _absent(self, table, argument, now):
        parts = argument.split()
        if len(parts) != 3 or parts[0].lower() not in table.seats:
            return "ABSENT needs a role and two dates: ABSENT axis 2026-07-01 2026-07-14", None
        return record_absence(self.app, table, parts[0].lower(), parts[1], parts[2], now)

    def _rollback(self, table, argument, now):
        from moderator.service.replay import replay_game

        try:
            target = int(argument.lstrip("#"))
        except ValueError:
            return "ROLLBACK needs the log number to go back to (STATUS shows the current one).", None
        entries = table.log()
        setup = next((e.seq for e in entries if e.kind == "setup"), None)
        if setup is None or not setup <= target < table.game.last_seq:
            return f"ROLLBACK needs a log number between {setup} and {table.game.last_seq - 1}.", None
        replayed = replay_game(self.app, table.game.id, upto=target)
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
    for seat in table.players():
        deadlines = {key: (datetime.fromisoformat(due) + delta).isoformat()
                     for key, due in json.loads(seat.deadlines_json or "{}").items()}
        seat.deadlines_json = dumps(deadlines)
        table.session.add(seat)
    if table.game.next_deadline:
        table.game.next_deadline = table.game.next_deadline + delta


def record_absence(app, table: Table, role: str, start: str, end: str, now: datetime) -> tuple[str, dict | None]:
    """An absence moves the seat's deadlines that fall inside it past its end (plus the time lost)."""
    seat = table.seats[role]
    try:
        zone = ZoneInfo(seat.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    try:
        first = datetime.fromisoformat(start).replace(tzinfo=zone)
        last = datetime.fromisoformat(end).replace(tzinfo=zone) + timedelta(days=1)
    except ValueError:
        return "Dates are written YYYY-MM-DD, e.g. 2026-07-01 2026-07-14.", None
    if last <= first:
        return "The absence must end after it starts.", None
    absences = json.loads(seat.absences_json or "[]")
    absences.append([first.astimezone(timezone.utc).isoformat(), last.astimezone(timezone.utc).isoformat()])
    seat.absences_json = dumps(absences)
    moved = {}
    for key, due in json.loads(seat.deadlines_json or "{}").items():
        moved[key] = push_past_absences(datetime.fromisoformat(due), now, absences).isoformat()
    seat.deadlines_json = dumps(moved)
    table.session.add(seat)
    return (f"{role} is away from {start} to {end}; deadlines falling then move past the absence.",
            {"role": role, "from": start, "to": end})


def push_past_absences(due: datetime, opened: datetime, absences: list[list[str]]) -> datetime:
    """A deadline keeps the time the player had before an absence: the overlap is added after it."""
    for start, end in absences:
        first, last = datetime.fromisoformat(start), datetime.fromisoformat(end)
        overlap = min(due, last) - max(opened, first)
        if overlap.total_seconds() > 0:
            due = due + overlap
    return due
