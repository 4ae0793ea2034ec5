"""Deadlines and defaults with an injected clock: nothing sleeps, the clock moves."""

import json

from sqlmodel import select

from moderator.store.models import Game, Seat
from tests.conftest import flat, outbox_rows, text_of


def _deadlines(app, game_id, role):
    with app.db.session() as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.role == role)).one()
        return json.loads(seat.deadlines_json)


def test_a_missed_decision_takes_its_default_and_everyone_is_told(seated):
    app = seated.app
    due = _deadlines(app, seated.game_id, "north")
    assert list(due) == ["r1.act"]
    app.clock.advance(hours=47)
    assert app.run_due() == []  # not yet due (phase deadlines are 48 hours)
    app.clock.advance(hours=2)
    assert app.run_due() == [seated.game_id]
    state = seated.state()
    assert state["round"] == 2 and state["active"] == "south"  # north's default was REST
    last = {role: flat(text_of([r for r in outbox_rows(app) if r.recipient == address][-1].raw))
            for role, address in seated.addresses.items()}
    assert "North did not answer in time (ATTACK or REST?); the default was applied: REST" in last["north"]
    # The other side learns whose deadline passed and what kind of question it was, never the
    # prompt (written for its owner, it may name what only the owner sees) nor the answer.
    assert "North did not answer in time; their default answer was applied (question: Your turn)." in last["south"]
    assert "ATTACK or REST?" not in last["south"].split("did not answer in time")[1][:200]


def test_a_secret_default_is_told_only_to_its_owner(seated):
    app = seated.app
    seated.send("north", f"ATTACK\nCOMMIT {seated.state()['hands']['north'][0]}\n")
    app.clock.advance(hours=49)
    app.run_due()
    south = [r for r in outbox_rows(app) if r.recipient == "south@players.test"][-1]
    north = [r for r in outbox_rows(app) if r.recipient == "north@players.test"][-1]
    assert "South did not answer in time" in flat(text_of(south.raw))
    assert "COMMIT" in flat(text_of(south.raw)).split("did not answer in time")[1][:120]
    assert "South did not answer in time; their default answer was applied (question: Face-down commitment)." \
        in flat(text_of(north.raw))
    assert "default was applied: COMMIT" not in flat(text_of(north.raw))


def test_reaction_window_stays_open_the_same_time_whatever_the_hand(seated):
    """South asks to be asked about reactions; the window closes at the same deadline either way."""
    app = seated.app
    seated.send("south", "ASK react\n")
    state = seated.state()
    seated.send("north", f"ATTACK\nCOMMIT {state['hands']['north'][0]}\n")
    seated.send("south", f"COMMIT {state['hands']['south'][0]}\n")
    due = _deadlines(app, seated.game_id, "south")
    assert list(due) == ["r1.react"]
    opened = app.clock.now()
    from datetime import datetime
    assert (datetime.fromisoformat(due["r1.react"]) - opened).total_seconds() == 24 * 3600
    app.clock.advance(hours=23)
    app.run_due()
    assert seated.state()["phase"] == "react"  # still waiting: no early close, whatever south holds
    app.clock.advance(hours=2)
    app.run_due()
    assert seated.state()["phase"] != "react"


def test_deadlines_are_shown_in_each_players_time_zone(app):
    from tests.mailmaker import player_mail
    created = app.create_game("duel", addresses={"north": "n@x.test", "south": "s@x.test"})
    app.receive(player_mail("n@x.test", f"JOIN {created.invitations['north']}\nTZ America/New_York\n"))
    outcome = app.receive(player_mail("s@x.test", f"JOIN {created.invitations['south']}\nTZ Asia/Tokyo\n"))
    reports = {r.recipient: text_of(r.raw) for r in outcome.replies if r.kind == "report"}
    assert " EST;" in reports["n@x.test"] and " JST;" not in reports["n@x.test"]
    assert "Nothing is asked of you now" in reports["s@x.test"]


def test_extend_moves_every_open_deadline(seated):
    from moderator.service.table import load_table
    app = seated.app
    before = _deadlines(app, seated.game_id, "north")["r1.act"]
    with app.db.session() as session:
        table = load_table(session, app.registry, seated.game_id)
        app.controls.apply(table, "EXTEND", "12")
    after = _deadlines(app, seated.game_id, "north")["r1.act"]
    from datetime import datetime
    assert (datetime.fromisoformat(after) - datetime.fromisoformat(before)).total_seconds() == 12 * 3600


def test_a_grace_period_holds_the_default_back_after_the_deadline(seated):
    app = seated.app
    app.settings.deadlines.grace_minutes = 30
    app.clock.advance(hours=48, minutes=1)  # past the deadline, inside the grace
    app.run_due()
    assert seated.state()["round"] == 1 and seated.state()["active"] == "north"
    seated.send("north", "REST\n")  # still accepted, and run: no default
    state = seated.state()
    assert state["active"] == "south"
    assert not any("did not answer in time" in text_of(r.raw) for r in outbox_rows(app))


def test_a_grace_period_ends_in_the_default(seated):
    app = seated.app
    app.settings.deadlines.grace_minutes = 30
    app.clock.advance(hours=48, minutes=29)
    app.run_due()
    assert seated.state()["active"] == "north"
    app.clock.advance(minutes=2)
    app.run_due()
    assert seated.state()["active"] == "south"  # north's default (REST) was applied
    assert "North did not answer in time" in flat(text_of(outbox_rows(app)[-1].raw))


def test_orders_run_early_after_the_change_of_mind_delay_and_a_new_message_replaces_them(seated):
    app = seated.app
    app.settings.deadlines.change_of_mind_minutes = 10
    outcome = seated.send("north", "REST\n")
    assert "change-of-mind delay" in flat(text_of(outcome.replies[0].raw))
    app.run_due()
    assert seated.state()["phase"] == "act"  # nothing runs during the delay
    app.clock.advance(minutes=5)
    hand = seated.state()["hands"]["north"]
    seated.send("north", f"ATTACK\nCOMMIT {hand[0]}\n")  # changed my mind: this replaces REST
    app.clock.advance(minutes=9)
    app.run_due()
    assert seated.state()["phase"] == "act"  # the delay starts again from the newer message
    app.clock.advance(minutes=1)
    app.run_due()
    state = seated.state()
    assert state["phase"] == "commit" and "north" in state["commits"]  # ATTACK ran, long before the deadline
    with app.db.session() as session:
        assert session.get(Game, seated.game_id).ready_at is None


def test_observers_get_the_observer_view_by_mail_and_never_a_hand(app):
    import re

    from tests.conftest import player_mail

    created = app.create_game("duel", addresses={"north": "n@players.test", "south": "s@players.test"},
                              observers={"club": "club@players.test"})
    secrets = {}
    for role, address in (("north", "n@players.test"), ("south", "s@players.test")):
        outcome = app.receive(player_mail(address, f"JOIN {created.invitations[role]}\n"))
        secrets[role] = re.search(r"Your secret is ([A-Z0-9]{4}-[A-Z0-9]{4})", text_of(outcome.replies[0].raw)).group(1)
    from moderator.service.table import load_table

    with app.db.session() as session:
        state = load_table(session, app.registry, created.game_id).state
    north_card = state["hands"]["north"][0]
    app.receive(player_mail("n@players.test", f"GAME {created.game_id}\nROLE north\nSECRET {secrets['north']}\n"
                                              f"ATTACK\nCOMMIT {north_card}\n"))
    to_club = [text_of(r.raw) for r in outbox_rows(app) if r.recipient == "club@players.test"]
    assert to_club, "the observer got no report"
    players_mail = [text_of(r.raw) for r in outbox_rows(app) if r.recipient == "n@players.test"]
    assert any(north_card in text for text in players_mail)  # the card ids do appear in mail (north's own)
    for text in to_club:
        assert secrets["north"] not in text and secrets["south"] not in text  # no seat's secret
        assert "GAME " not in text or "ROLE north" not in text  # no envelope to write with
        for card in state["hands"]["north"] + state["hands"]["south"]:  # C00..C17: hands and the commit
            assert card not in text, f"the observer saw card {card}"
