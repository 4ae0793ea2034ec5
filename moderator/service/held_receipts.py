"""Receipts that waited for a report that did not come: sent alone once their time is up.

The receipt of orders that were all accepted rides on the sender's next report (one mail instead
of two); when no report follows within `receipt_hold_minutes`, this job mails it as a notice.
"""

from __future__ import annotations

from datetime import timedelta

from moderator.clock import Clock
from moderator.registry import Registry
from moderator.service.cadence import held_since, take_held_receipts
from moderator.service.notices import Notices
from moderator.service.receipt_lines import catch_up
from moderator.service.table import load_table
from moderator.service.turns import envelope_lines
from moderator.store import games as stored
from moderator.store.db import Database


class HeldReceipts:
    """Sends the receipts whose wait is over; needs the database, the clock, the games, notices and the wait."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, notices: Notices, hold_minutes: float):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.notices = notices
        self.hold = timedelta(minutes=hold_minutes)

    def send_due(self) -> int:
        """Mail every receipt that has waited its time; returns how many mails."""
        now = self.clock.now()
        sent = 0
        with self.database.session() as session:
            game_ids = stored.games_holding_receipts(session)
        for game_id in game_ids:
            with self.database.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                for seat in table.players():
                    since = held_since(seat)
                    if since is None or since + self.hold > now:
                        continue
                    receipts = take_held_receipts(seat)
                    catch_up(receipts, table.entries_of(seat.role, seat.last_report_seq, "answer"),
                             table.entries_of(seat.role, seat.last_report_seq, "hold"))
                    table.session.add(seat)
                    self.notices.post(table.session, table, seat.address, seat.role, "orders received", [],
                                      receipt=receipts, kind="receipt",
                                      envelope=envelope_lines(table.game.id, seat.role, table.game.phase_label,
                                                              seat.secret))
                    sent += 1
        return sent
