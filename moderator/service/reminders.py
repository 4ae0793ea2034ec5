"""Reminders before deadlines (DESIGN §4): one mail per seat when a threshold is crossed, naming
every decision still owed and its deadline in the player's own time zone."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlmodel import select

from moderator.service.reports import local_time
from moderator.service.table import dumps, load_table
from moderator.service.turns import envelope_lines
from moderator.store.models import Game


def send_reminders(app) -> int:
    now = app.clock.now()
    thresholds = sorted(app.settings.deadlines.reminders_hours, reverse=True)
    sent = 0
    with app.db.session() as session:
        game_ids = list(session.exec(select(Game.id).where(Game.status == "running")))
    for game_id in game_ids:
        with app.db.session() as session:
            table = load_table(session, app.registry, game_id, for_update=True)
            pending = {d.key: d for d in table.engine.pending(table.state)}
            for seat in table.players():
                deadlines = json.loads(seat.deadlines_json or "{}")
                reminded = json.loads(seat.reminded_json or "{}")
                due_now = []
                for key, due in deadlines.items():
                    if key not in pending:
                        continue
                    when = datetime.fromisoformat(due)
                    crossed = [h for h in thresholds if now >= when - timedelta(hours=h) and now < when]
                    if crossed and min(crossed) not in reminded.get(key, []):
                        due_now.append((key, when, min(crossed)))
                if not due_now:
                    continue
                lines = []
                for key, when, hours in sorted(due_now, key=lambda item: item[1]):
                    decision = pending[key]
                    lines.append(f"[{key}] {decision.prompt} Due {local_time(when, seat.timezone)}; "
                                 f"if you do not answer: {decision.default}.")
                    reminded.setdefault(key, []).append(hours)
                seat.reminded_json = dumps(reminded)
                session.add(seat)
                app.mailroom._notice(session, table, seat.address, seat.role, "Reminder: orders due",
                                     ["The moderator is still waiting for your answer:"] + lines +
                                     ["Send RESEND for your last report, or answer with the lines below."],
                                     envelope=envelope_lines(table.game.id, seat.role, table.game.phase_label,
                                                             seat.secret), kind="notice")
                sent += 1
    return sent
