"""Reminders before deadlines, with an injected clock (service/reminders.py): one a question, in the
second half of its window, never before the report that asks it.  The hand-played VMT game got
"reminder: your move is due" in the minute each 24-hour reaction question was asked (mails 017, 021,
023 …), sometimes before the report itself."""

from __future__ import annotations

import json

from moderator.service.table import load_table
from moderator.settings import DeadlineSettings
from moderator.store.models import Seat
from tests.conftest import flat, make_app, outbox_rows, seat_duel, text_of


def reminders_to(seated, role: str) -> list[str]:
    return [flat(text_of(r.raw)) for r in outbox_rows(seated.app)
            if r.recipient == seated.addresses[role] and "reminder" in r.subject]


def open_reaction(seated) -> None:
    """North attacks and both commit: south's 24-hour reaction question (the Duel's 'react') is open."""
    north, south = seated.state()["hands"]["north"][0], seated.state()["hands"]["south"][0]
    seated.send("south", "ASK react\n")
    seated.send("north", f"ATTACK\nCOMMIT {north}\n")
    seated.send("south", f"COMMIT {south}\n")
    assert any(d.kind == "react" for d in pending(seated))


def pending(seated):
    with seated.app.db.session() as session:
        table = load_table(session, seated.app.registry, seated.game_id)
        return table.engine.pending(table.state)


def test_a_24_hour_reaction_question_is_not_reminded_of_when_asked_nor_in_its_first_half(seated):
    app = seated.app
    open_reaction(seated)
    assert app.send_reminders() == 0 and reminders_to(seated, "south") == []  # asked this minute
    app.clock.advance(hours=12)
    assert app.send_reminders() == 0  # half-way
    app.clock.advance(hours=9, minutes=59)
    assert app.send_reminders() == 0  # 2 hours and a minute left
    app.clock.advance(minutes=2)
    assert app.send_reminders() == 1
    (said,) = reminders_to(seated, "south")
    assert "Counter the attack" in said and "This is the only reminder" in said
    app.clock.advance(minutes=30)
    assert app.send_reminders() == 0  # at most one


def test_the_reminder_goes_at_half_the_window_when_no_threshold_falls_in_its_second_half(tmp_path):
    seated = seat_duel(make_app(tmp_path, deadlines=DeadlineSettings(reminders_hours=[30.0])))
    app = seated.app
    app.clock.advance(hours=23, minutes=59)
    assert app.send_reminders() == 0
    app.clock.advance(minutes=2)
    assert app.send_reminders() == 1  # a 48-hour question, reminded 24 hours before (30 is in its first half)


def test_no_reminder_before_the_report_that_asks_the_question(seated):
    app = seated.app
    with app.db.session() as session:  # the question is open, but no report has asked it yet
        seat = session.get(Seat, next(s.id for s in load_table(session, app.registry, seated.game_id).players()
                                      if s.role == "north"))
        asked = json.loads(seat.asked_json or "[]")
        assert asked
        seat.asked_json = "[]"
        session.add(seat)
        session.commit()
    app.clock.advance(hours=47)
    assert app.send_reminders() == 0 and reminders_to(seated, "north") == []
