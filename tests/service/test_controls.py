"""Daemon duties with an injected clock (reminders, vacations) and the referee's controls."""

import email
import email.policy
import json
from datetime import datetime

from sqlmodel import select

from moderator.service.replay import replay_game
from moderator.service.table import load_table
from moderator.store.models import Game, LogEntry, Seat
from tests.conftest import flat, outbox_rows, text_of


def control(seated, command, argument=""):
    app = seated.app
    with app.db.session() as session:
        table = load_table(session, app.registry, seated.game_id, for_update=True)
        return app.controls.apply(table, command, argument)


def test_one_reminder_24_hours_before_a_48_hour_deadline_names_what_is_missing(seated):
    app = seated.app
    before = len(outbox_rows(app))
    app.clock.advance(hours=23)
    assert app.send_reminders() == 0  # 25 hours left
    app.clock.advance(hours=1, minutes=1)
    assert app.send_reminders() == 1
    reminder = outbox_rows(app)[-1]
    assert reminder.recipient == "north@players.test"
    text = flat(text_of(reminder.raw))
    assert "still waiting for your answer" in text and "ATTACK or REST?" in text and "REST" in text
    assert "This is the only reminder of these questions" in text
    assert app.send_reminders() == 0  # once
    app.clock.advance(hours=22)
    assert app.send_reminders() == 0  # at most one reminder a question: none 2 hours before
    assert len(outbox_rows(app)) == before + 1


def test_a_report_carries_an_ics_event_at_the_deadline(seated):
    report = [r for r in outbox_rows(seated.app) if r.recipient == "north@players.test" and r.kind == "report"][-1]
    message = email.message_from_bytes(report.raw, policy=email.policy.default)
    calendars = [p for p in message.walk() if p.get_content_type() == "text/calendar"]
    assert len(calendars) == 1
    body = calendars[0].get_content()
    with seated.app.db.session() as session:
        seat = session.exec(select(Seat).where(Seat.role == "north")).one()
        due = datetime.fromisoformat(json.loads(seat.deadlines_json)["r1.act"])
    assert f"DTSTART:{due:%Y%m%dT%H%M%SZ}" in body
    assert "SUMMARY:duel-0001: your orders are due (north)" in body


def test_a_vacation_moves_the_deadline_past_the_absence(seated):
    app = seated.app
    with app.db.session() as session:
        seat = session.exec(select(Seat).where(Seat.role == "north")).one()
        before = datetime.fromisoformat(json.loads(seat.deadlines_json)["r1.act"])
    now = app.clock.now()
    start, end = now.date().isoformat(), now.date().isoformat()  # away today (a whole day)
    outcome = seated.send("north", f"VACATION {start} {end}\n")
    assert "away" in text_of(outcome.replies[0].raw)
    with app.db.session() as session:
        seat = session.exec(select(Seat).where(Seat.role == "north")).one()
        after = datetime.fromisoformat(json.loads(seat.deadlines_json)["r1.act"])
    assert after > before
    app.clock.set(before)
    app.run_due()
    assert seated.state()["round"] == 1  # not defaulted at the old deadline


def test_replace_a_player_new_address_new_secret_old_secret_dead(seated):
    old_secret = seated.secrets["north"]
    message = control(seated, "REPLACE", "north newcomer@players.test")
    assert "newcomer@players.test" in message
    welcome = outbox_rows(seated.app)[-2]
    assert welcome.recipient == "newcomer@players.test"
    new_secret = text_of(welcome.raw).split("Your secret is ")[1][:9]
    outcome = seated.send("north", "REST\n", secret=old_secret, sender="newcomer@players.test")
    assert outcome.status == "receipt" and "wrong SECRET" in flat(text_of(outcome.replies[0].raw))
    assert seated.send("north", "REST\n", secret=old_secret).status == "quarantined"  # old address
    assert seated.send("north", "REST\n", secret=new_secret, sender="newcomer@players.test").status == "applied"


def test_preview_shows_what_would_run_and_changes_nothing(seated):
    seated.app.controls  # noqa: B018
    before = seated.fingerprint()
    seated.app.clock.advance(minutes=1)
    with seated.app.db.session() as session:
        table = load_table(session, seated.app.registry, seated.game_id)
        from moderator.core.plans import Plan, ScriptLine
        table.save_plan("north", Plan(script=[ScriptLine(1, "REST")]))
        message = seated.app.controls.apply(table, "PREVIEW")
        session.rollback()
    assert "north: REST [script]" in message and "nothing applied" in message
    assert seated.fingerprint() == before


def test_rollback_restores_an_earlier_turn_keeps_history_and_replays(seated):
    app = seated.app
    with app.db.session() as session:
        mark = session.get(Game, seated.game_id).last_seq
    seated.send("north", "REST\n")
    seated.send("south", "REST\n")
    assert seated.state()["round"] == 3
    message = control(seated, "ROLLBACK", str(mark))
    assert "back at log" in message
    assert seated.state()["round"] == 1
    with app.db.session() as session:
        voided = session.exec(select(LogEntry).where(LogEntry.void == True)).all()  # noqa: E712
        controls = session.exec(select(LogEntry).where(LogEntry.kind == "control")).all()
    assert voided and any('"ROLLBACK"' in c.payload_json for c in controls)
    # everyone got the restored situation, and play goes on from it
    assert {r.recipient for r in outbox_rows(app)[-2:]} == {"north@players.test", "south@players.test"}
    assert seated.send("north", "REST\n").status == "applied"
    assert replay_game(app, seated.game_id).ok


def test_referee_commands_are_logged(seated):
    control(seated, "EXTEND", "5")
    control(seated, "ANNOUNCE", "Tournament round 2 starts Monday.")
    with seated.app.db.session() as session:
        commands = [json.loads(e.payload_json)["command"] for e in
                    session.exec(select(LogEntry).where(LogEntry.kind == "control"))]
    assert commands == ["EXTEND", "ANNOUNCE"]
    assert "Tournament round 2" in text_of(outbox_rows(seated.app)[-1].raw)


def test_a_game_with_a_rollback_still_verifies_and_never_reuses_a_voided_roll(seated):
    from moderator.service.archive import export_archive
    from moderator.service.verify import verify_archive
    from tests.service.test_store_and_replay import play_random_game

    app = seated.app
    with app.db.session() as session:
        mark = session.get(Game, seated.game_id).last_seq
    state = seated.state()
    seated.send("north", f"ATTACK\nCOMMIT {state['hands']['north'][0]}\n")
    seated.send("south", f"COMMIT {state['hands']['south'][0]}\n")  # the clash rolls dice
    control(seated, "ROLLBACK", str(mark))
    play_random_game(seated, seed=11)
    archive = export_archive(app.db, app.registry, seated.game_id)
    assert verify_archive(archive, app.registry).problems == []
    counters = [(d["stream"], d["n"]) for d in archive["draws"]]
    assert len(counters) == len(set(counters))  # no (stream, counter) used twice
    assert any(entry.get("void") for entry in archive["log"])
