"""Reminders before deadlines (DESIGN §4): one mail per seat when a question's reminder time comes,
naming every decision still owed and its deadline in the player's own time zone.

A question is reminded of once, `reminder_lead` hours before its deadline: the largest of the
club's `reminders_hours` that falls in the second half of the question's window, else half the
window (a 48-hour question 24 hours before, a 24-hour reaction 2 hours before with the default
thresholds 24 and 2).  Never in the first half of the window, so never in the minute the question
is asked; never before the report that asks it has gone to the player (the seat's `asked`).  The
hand-played VMT game got a reminder with every 24-hour reaction question, sometimes before the
report that asked it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from moderator.clock import Clock
from moderator.core.contract import Decision
from moderator.registry import Registry
from moderator.service.cadence import short_time
from moderator.service.entropy import REVEAL_REMINDED, reminder_lead
from moderator.service.notices import Notices
from moderator.service.reports import local_time
from moderator.service.table import Table, dumps, load_table
from moderator.service.turns import deadline_hours, envelope_lines
from moderator.settings import DeadlineSettings
from moderator.store import games as stored
from moderator.store.db import Database
from moderator.store.models import Seat


class Reminders:
    """Sends the reminders that are due; needs the database, the clock, the games, notices and the
    deadline settings (each class's hours, a game's own, and the reminder thresholds)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, notices: Notices,
                 deadlines: DeadlineSettings):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.notices = notices
        self.deadlines = deadlines

    def send_due(self) -> int:
        """Remind every seat with a question whose reminder time has come; returns how many mails."""
        now = self.clock.now()
        sent = 0
        with self.database.session() as session:
            game_ids = stored.running_game_ids(session)
        for game_id in game_ids:
            with self.database.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                pending = {d.key: d for d in table.engine.pending(table.state)}
                game_settings = json.loads(table.game.settings_json or "{}")
                for seat in table.players():
                    sent += self._remind(table, seat, pending, game_settings, now)
        return sent

    def lead(self, decision: Decision, game_settings: dict[str, Any]) -> timedelta:
        """How long before its deadline a question is reminded of (module docstring)."""
        window = deadline_hours(self.deadlines, game_settings, decision)
        return timedelta(hours=reminder_lead(window, self.deadlines.reminders_hours))

    def _remind(self, table: Table, seat: Seat, pending: Mapping[str, Decision], game_settings: dict[str, Any],
                now: datetime) -> int:
        deadlines = json.loads(seat.deadlines_json or "{}")
        reminded = json.loads(seat.reminded_json or "{}")
        asked = set(json.loads(seat.asked_json or "[]"))  # the questions a report has put to the player
        due_now = []
        for key, due in deadlines.items():
            if key not in pending or key not in asked or key in reminded:
                continue
            when = datetime.fromisoformat(due)
            lead = self.lead(pending[key], game_settings)
            if when - lead <= now < when:
                due_now.append((key, when, lead.total_seconds() / 3600))
        if not due_now:
            return 0
        lines = []
        for key, when, hours in sorted(due_now, key=lambda item: item[1]):
            decision = pending[key]
            lines.append(f"[{key}] {decision.prompt} Due {local_time(when, seat.timezone)}; "
                         f"if you do not answer: {decision.default}.")
            reminded[key] = [hours]
        # a question answered or past is never asked again (a new question has a new key): forget it
        seat.reminded_json = dumps({key: value for key, value in reminded.items()
                                    if key in deadlines or key == REVEAL_REMINDED})
        table.session.add(seat)
        first = min(when for _key, when, _hours in due_now)
        self.notices.post(table.session, table, seat.address, seat.role,
                          f"reminder: your move is due {short_time(first, seat.timezone)}",
                          ["The moderator is still waiting for your answer:", *lines,
                           "Send RESEND for your last report, or answer with the lines below. This is the only "
                           "reminder of these questions."],
                          envelope=envelope_lines(table.game.id, seat.role, table.game.phase_label, seat.secret),
                          kind="notice")
        return 1
