"""Mail commands: HELP, STATUS, CHECK, RESEND, JOIN, CONTINUE, revision, referee controls."""

import itertools

from sqlmodel import select

from moderator.store.models import Game, LogEntry
from tests.conftest import flat, outbox_rows, text_of
from tests.mailmaker import player_mail
from tests.testgame.duel import GRAMMAR


def test_help_is_generated_from_the_grammar(seated):
    outcome = seated.send("north", "HELP\n")
    text = text_of(outcome.replies[0].raw)
    for spec in GRAMMAR.specs:
        assert spec.syntax in text
        for example in spec.examples:
            assert example in text
    for condition in GRAMMAR.conditions:
        assert condition in text
    assert "STANDING <kind>" in text


def test_status_lists_who_owes_what_without_other_sides_details(seated):
    text = flat(text_of(seated.send("south", "STATUS\n").replies[0].raw))
    assert "Phase:" in text and 'North owes a decision on "Your turn" (act), due Sat 03 Jan 12:00 UTC.' in text
    assert "ATTACK or REST?" not in text  # north's prompt is north's


def test_status_shows_the_reader_s_own_question_in_full_in_their_time_zone(seated):
    text = flat(text_of(seated.send("north", "STATUS\n").replies[0].raw))
    assert "WHO OWES WHAT (times in UTC)" in text
    assert "You (North): ATTACK or REST? Due Sat 03 Jan 12:00 UTC; if you do not answer: REST." in text


def test_check_is_a_dry_run(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "CHECK\nATTACK\n")
    text = flat(text_of(outcome.replies[0].raw))
    assert "CHECK only: nothing was applied. Sent now, of your orders 1 would run." in text
    assert "would run ATTACK" in text and "not the game's" in text
    assert seated.fingerprint() == before


def test_resend_sends_the_last_report_again(seated):
    first = [r for r in outbox_rows(seated.app) if r.recipient == "north@players.test" and r.kind == "report"][-1]
    outcome = seated.send("north", "RESEND\n")
    again = outcome.replies[0]
    assert again.message_id != first.message_id
    assert text_of(again.raw) == text_of(first.raw)


def test_join_with_a_used_token_is_refused(app):

    created = app.create_game("duel", addresses={"north": "n@x.test", "south": "s@x.test"})
    token = created.invitations["north"]
    assert app.receive(player_mail("n@x.test", f"JOIN {token}\n")).status == "joined"
    again = app.receive(player_mail("n@x.test", f"JOIN {token}\nNAME twice\n"))
    assert again.status == "receipt" and "unknown or was already used" in flat(text_of(again.replies[0].raw))


def test_join_with_a_bad_time_zone_is_refused(app):
    created = app.create_game("duel", addresses={"north": "n@x.test", "south": "s@x.test"})
    outcome = app.receive(player_mail("n@x.test", f"JOIN {created.invitations['north']}\nTZ Mars/Olympus\n"))
    assert outcome.status == "receipt" and "not a time zone" in text_of(outcome.replies[0].raw)


def test_the_game_starts_when_the_last_seat_is_taken_and_everybody_gets_a_report(seated):
    rows = [r for r in outbox_rows(seated.app) if r.kind == "report"]
    assert {r.recipient for r in rows} == {"north@players.test", "south@players.test"}
    with seated.app.db.session() as session:
        assert session.get(Game, seated.game_id).status == "running"


def test_a_new_script_replaces_the_queued_one_and_continue_keeps_it(seated):
    from moderator.service.table import load_table
    state = seated.state()
    south = state["hands"]["south"]
    # South files orders ahead of time (they wait until south is asked).
    seated.send("south", f"COMMIT {south[0]}\n")
    seated.send("south", f"COMMIT {south[1]}\n")  # revision: replaces the first
    with seated.app.db.session() as session:
        plan = load_table(session, seated.app.registry, seated.game_id).plan("south")
    assert [s.text for s in plan.script] == [f"COMMIT {south[1]}"]
    seated.send("south", "STANDING react: ASK\nCONTINUE\n")
    with seated.app.db.session() as session:
        plan = load_table(session, seated.app.registry, seated.game_id).plan("south")
    assert [s.text for s in plan.script] == [f"COMMIT {south[1]}"]
    assert [s.render() for s in plan.standing] == ["STANDING REACT: ASK"]


def test_referee_commands_by_mail_need_the_referee_secret(seated):
    app = seated.app
    body = f"GAME {seated.game_id}\nROLE referee\nSECRET WRONG-SECR\nPAUSE\n"
    outcome = app.receive(player_mail("ref@players.test", body))
    assert outcome.status == "receipt"
    assert "Referee commands need the referee's SECRET; nothing was done" in flat(text_of(outcome.replies[0].raw))
    with app.db.session() as session:
        assert session.get(Game, seated.game_id).status == "running"
    body = f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\nPAUSE\n"
    assert app.receive(player_mail("ref@players.test", body)).status == "command"
    with app.db.session() as session:
        assert session.get(Game, seated.game_id).status == "paused"
        controls = session.exec(select(LogEntry).where(LogEntry.kind == "control")).all()
    assert any('"PAUSE"' in c.payload_json for c in controls)
    # while paused, orders are accepted but nothing runs
    before = seated.fingerprint()
    outcome = seated.send("north", "REST\n")
    assert "paused" in flat(text_of(outcome.replies[0].raw))
    assert seated.fingerprint() == before
    body = f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\nRESUME\nFORCE\n"
    assert app.receive(player_mail("ref@players.test", body)).status == "command"
    assert seated.state()["round"] == 2  # north's queued REST ran


def test_referee_command_from_another_address_is_quarantined(seated):
    body = f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\nPAUSE\n"
    outcome = seated.app.receive(player_mail("north@players.test", body))
    assert outcome.status == "quarantined"


def test_every_mail_of_a_seat_threads_under_one_root(app):
    """Gmail, Apple Mail and Thunderbird thread by References and a stable subject; Outlook by
    Thread-Topic and Thread-Index; a plain reply goes to the orders address."""
    import email as email_lib
    import email.policy

    created = app.create_game("duel", addresses={"north": "n@x.test", "south": "s@x.test"})
    for role, address in (("north", "n@x.test"), ("south", "s@x.test")):
        app.receive(player_mail(address, f"JOIN {created.invitations[role]}\n"))
    mails = [email_lib.message_from_bytes(r.raw, policy=email.policy.default)
             for r in outbox_rows(app) if r.recipient == "n@x.test"]
    assert len(mails) >= 3  # invitation, welcome, first report
    root = mails[0]["Message-ID"]
    assert root == f"<thread.{created.game_id}.north@demo.test>"
    # Subjects say what each mail is (issue 12); Outlook's Thread-Topic stays the same for the seat.
    assert [m["Subject"] for m in mails] == [
        f"[{created.game_id}] North: Invitation: play Duel (test game) as North",
        f"[{created.game_id}] North: Welcome: you hold the North seat",
        f"[{created.game_id}] Turn 1 North: your move, due Sat 03 Jan 12:00 UTC"]
    assert {m["Thread-Topic"] for m in mails} == {f"[{created.game_id}/north] Duel (test game)"}
    for previous, mail in itertools.pairwise(mails):
        assert mail["In-Reply-To"] == previous["Message-ID"]
        assert mail["References"].split()[0] == root
        assert mail["Thread-Index"] == mails[1]["Thread-Index"] and mail["Thread-Topic"] == mails[0]["Thread-Topic"]
        assert mail["List-Id"] == f"<{created.game_id}.demo.test>"
        assert mail["Reply-To"] == "moderator@demo.test"


def test_status_says_where_the_score_stands_for_a_game_that_counts_one():
    """Played by hand: STATUS named who owed what but not the VP, which every report prints."""
    from types import SimpleNamespace

    from moderator.core.rng import RngRecord
    from moderator.games.vmt.engine import engine as vmt
    from moderator.service.owed import score_line
    from tests.testgame.duel import engine as duel

    for engine, expected in ((vmt, ["Score now: axis VP 0, soviet VP 12"]), (duel, [])):
        rng = RngRecord("status", bytes(32), ["a", "b"]).rng()
        state = engine.setup(engine.info.scenario().name, engine.info.chosen_options({}), rng)
        table = SimpleNamespace(state=state, engine=engine, game=SimpleNamespace(status="running"))
        assert score_line(table) == expected  # type: ignore[arg-type]
    table = SimpleNamespace(state=state, engine=vmt, game=SimpleNamespace(status="over"))
    assert score_line(table) == []  # type: ignore[arg-type]
