"""Referee controls, by mail and by CLI.  Every control is logged in the game's history."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from moderator.service.table import Table, dumps


class Controls:
    def __init__(self, app):
        self.app = app

    def apply(self, table: Table, command: str, argument: str = "", source: str = "cli") -> str:
        now = self.app.clock.now()
        command = command.upper()
        game = table.game
        if command == "PAUSE":
            game.status = "paused"
            message = f"{game.id} is paused; orders are accepted but nothing runs until RESUME."
        elif command == "RESUME":
            game.status = "running"
            message = f"{game.id} resumes."
        elif command == "EXTEND":
            try:
                hours = float(argument or "24")
            except ValueError:
                return f"EXTEND needs a number of hours, not '{argument}'."
            for seat in table.players():
                deadlines = {key: (datetime.fromisoformat(due) + timedelta(hours=hours)).isoformat()
                             for key, due in json.loads(seat.deadlines_json or "{}").items()}
                seat.deadlines_json = dumps(deadlines)
                table.session.add(seat)
            if game.next_deadline:
                game.next_deadline = game.next_deadline + timedelta(hours=hours)
            message = f"Every open deadline of {game.id} moves {hours:g} hours later."
        elif command == "FORCE":
            result = self.app.turns.run(table, now, force_defaults=True)
            message = (f"{game.id} was run now: {len(result.steps)} answer(s) applied, "
                       f"{len(result.defaulted)} by default.")
        elif command == "STATUS":
            return f"{game.id}: {game.status}, phase {game.phase_label}, log at #{game.last_seq}."
        elif command == "ANNOUNCE":
            if not argument:
                return "ANNOUNCE needs the text to send."
            for seat in table.players() + table.observers():
                self.app.mailroom._notice(table.session, table, seat.address, seat.role,
                                          "Announcement from the referee", [argument], kind="notice")
            message = f"Announcement sent to {len(table.players()) + len(table.observers())} seat(s)."
        else:
            return f"Unknown referee command {command}."
        table.session.add(game)
        table.append("control", "referee", {"command": command, "argument": argument, "source": source}, now)
        return message
