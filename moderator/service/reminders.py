"""Reminders before deadlines (DESIGN §4): one mail per seat when a threshold is crossed, naming
every decision still owed and its deadline in the player's own time zone."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from moderator.clock import Clock
from moderator.core.contract import Decision
from moderator.registry import Registry
from moderator.service.cadence import short_time
from moderator.service.notices import Notices
from moderator.service.reports import local_time
from moderator.service.table import Table, dumps, load_table
from moderator.service.turns import envelope_lines
from moderator.store import games as stored
from moderator.store.db import Database
from moderator.store.models import Seat


class Reminders:
    """Sends the reminders that are due; needs the database, the clock, the games, notices and
    the hours before a deadline at which to remind."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, notices: Notices,
                 hours_before: Sequence[float]):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.notices = notices
        self.thresholds = sorted(hours_before, reverse=True)

    def send_due(self) -> int:
        """Remind every seat that crossed a threshold since the last time; returns how many mails."""
        now = self.clock.now()
        sent = 0
        with self.database.session() as session:
            game_ids = stored.running_game_ids(session)
        for game_id in game_ids:
            with self.database.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                pending = {d.key: d for d in table.engine.pending(table.state)}
                for seat in table.players():
                    sent += self._remind(table, seat, pending, now)
        return sent

    def _remind(self, table: Table, seat: Seat, pending: Mapping[str, Decision], now: datetime) -> int:
        deadlines = json.loads(seat.deadlines_json or "{}")
        reminded = json.loads(seat.reminded_json or "{}")
        due_now = []
        for key, due in deadlines.items():
            if key not in pending:
                continue
            when = datetime.fromisoformat(due)
            crossed = [h for h in self.thresholds if now >= when - timedelta(hours=h) and now < when]
            if crossed and min(crossed) not in reminded.get(key, []):
                due_now.append((key, when, min(crossed)))
        if not due_now:
            return 0
        lines = []
        for key, when, hours in sorted(due_now, key=lambda item: item[1]):
            decision = pending[key]
            lines.append(f"[{key}] {decision.prompt} Due {local_time(when, seat.timezone)}; "
                         f"if you do not answer: {decision.default}.")
            reminded.setdefault(key, []).append(hours)
        seat.reminded_json = dumps(reminded)
        table.session.add(seat)
        first = min(when for _key, when, _hours in due_now)
        self.notices.post(table.session, table, seat.address, seat.role,
                          f"reminder: your move is due {short_time(first, seat.timezone)}",
                          ["The moderator is still waiting for your answer:", *lines,
                           "Send RESEND for your last report, or answer with the lines below."],
                          envelope=envelope_lines(table.game.id, seat.role, table.game.phase_label, seat.secret),
                          kind="notice")
        return 1
