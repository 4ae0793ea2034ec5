"""The store on SQLite and on a real PostgreSQL: migrations, raw mail first, atomic outbox, replay."""

import json
import random

import pytest
from sqlalchemy import inspect
from sqlmodel import select

from moderator.service.replay import replay_game
from moderator.store.models import InboundMail, LogEntry, Outbox
from tests.conftest import make_app, seat_duel
from tests.mailmaker import player_mail

TABLES = {"game", "seat", "inbound_mail", "quarantine", "submission", "log_entry", "snapshot", "outbox",
          "alembic_version"}


def play_random_game(seated, seed: int) -> None:
    """Both players answer every open decision from the options their report lists, by mail."""
    from moderator.demo import read_report
    from tests.conftest import text_of

    pick = random.Random(seed)
    app = seated.app
    seen: set[int] = set()
    for _ in range(400):
        with app.db.session() as session:
            rows = list(session.exec(select(Outbox).where(Outbox.kind == "report").order_by(Outbox.id)))
        fresh = [r for r in rows if r.id not in seen]
        if not fresh:
            app.run_due()
            with app.db.session() as session:
                from moderator.store.models import Game
                if session.get(Game, seated.game_id).status == "over":
                    return
            app.clock.advance(days=5)
            continue
        for row in fresh:
            seen.add(row.id)
            role = "north" if row.recipient.startswith("north") else "south"
            _, decisions = read_report(text_of(row.raw))
            if decisions:
                seated.send(role, "\n".join(pick.choice(d.options) for d in decisions) + "\n")
    raise AssertionError("the game did not end")


def test_migrations_create_every_table_and_are_idempotent(db_url, tmp_path):
    app = make_app(tmp_path, db_url)
    app.migrate()
    assert set(inspect(app.db.engine).get_table_names()) >= TABLES


def test_the_migrations_build_exactly_the_schema_the_models_describe(db_url, tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    app = make_app(tmp_path, db_url)
    with app.db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
    indexes = {i["name"] for i in inspect(app.db.engine).get_indexes("inbound_mail")}
    assert "ix_inbound_mail_sender_received_at" in indexes  # the rate limit's lookup (0003)


def test_raw_mail_is_stored_before_it_is_read(db_url, tmp_path):
    app = make_app(tmp_path, db_url)
    inbound_id = app.mailroom.store_raw(player_mail("x@y.test", "HELLO\n"), "test")
    with app.db.session() as session:
        row = session.get(InboundMail, inbound_id)
        assert row.status == "new" and b"HELLO" in row.raw
    assert app.mailroom.store_raw(player_mail("x@y.test", "HELLO\n"), "again") is not None  # new Message-ID
    # a crash before processing: the next poll finds the stranded message
    outcomes = app.reprocess_stranded()
    assert {o.status for o in outcomes} == {"quarantined"}


def test_outbox_is_written_in_the_same_transaction_as_the_turn(db_url, tmp_path, monkeypatch):
    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    with app.db.session() as session:
        log_before = len(session.exec(select(LogEntry)).all())
        outbox_before = len(session.exec(select(Outbox)).all())
    import moderator.service.turns as turns

    def broken_report(*args, **kwargs):
        raise RuntimeError("renderer crashed after the answers were logged")

    monkeypatch.setattr(turns, "compose_report", broken_report)
    outcome = seated.send("north", "REST\n")
    assert outcome.status == "quarantined"
    with app.db.session() as session:
        assert len(session.exec(select(LogEntry)).all()) == log_before
        assert len(session.exec(select(Outbox)).all()) == outbox_before


def test_replay_reproduces_every_state_and_report_byte_for_byte(db_url, tmp_path):
    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    play_random_game(seated, seed=7)
    result = replay_game(app, seated.game_id)
    assert result.ok, result.mismatches
    assert result.answers > 5 and result.reports_checked > 10 and result.states_checked > 5


def test_replay_notices_a_changed_report(tmp_path):
    app = make_app(tmp_path)
    seated = seat_duel(app)
    seated.send("north", "REST\n")
    with app.db.session() as session:
        row = session.exec(select(Outbox).where(Outbox.kind == "report").order_by(Outbox.id.desc())).first()
        row.raw = row.raw.replace(b"Hit points", b"Hit pointz")
        session.add(row)
    result = replay_game(app, seated.game_id)
    assert any("differs from the one sent" in m for m in result.mismatches)


def test_replay_notices_a_changed_answer(tmp_path):
    app = make_app(tmp_path)
    seated = seat_duel(app)
    seated.send("north", "REST\n")
    with app.db.session() as session:
        entry = session.exec(select(LogEntry).where(LogEntry.kind == "answer")).first()
        payload = json.loads(entry.payload_json)
        payload["text"] = "ATTACK"
        entry.payload_json = json.dumps(payload)
        session.add(entry)
    assert not replay_game(app, seated.game_id).ok


def while_a_referee_holds_the_game(app, game_id: str, meanwhile) -> int:
    """Run `meanwhile()` in another thread while a referee's command holds the game for 0.6 s;
    return the seq of the note the command then logs."""
    import threading
    import time

    from moderator.service.table import load_table

    loaded, note = threading.Event(), []

    def referee_command():
        with app.db.session() as session:
            table = load_table(session, app.registry, game_id, for_update=True)
            loaded.set()
            time.sleep(0.6)  # the other writer arrives meanwhile
            note.append(table.append("control", "referee", {"command": "NOTE"}, app.clock.now()))

    def other_writer():
        loaded.wait()
        meanwhile()

    threads = [threading.Thread(target=referee_command), threading.Thread(target=other_writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return note[0]


def game_log(app, game_id: str) -> list[LogEntry]:
    with app.db.session() as session:
        return list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id).order_by(LogEntry.seq)))


def test_two_writers_of_one_game_are_serialized_so_neither_builds_on_stale_state(db_url, tmp_path):
    """The daemon's poll and turn jobs run in parallel threads (and a referee's CLI command in
    another process): a game loaded to be changed is locked until its transaction commits."""
    import time

    from moderator.service.table import load_table

    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    seen = {}

    def second_writer():
        started = time.perf_counter()
        with app.db.session() as session:
            table = load_table(session, app.registry, seated.game_id, for_update=True)
            seen["waited"] = time.perf_counter() - started
            seen["second"] = table.game.last_seq
            table.append("control", "referee", {"command": "NOTE"}, app.clock.now())

    note = while_a_referee_holds_the_game(app, seated.game_id, second_writer)
    assert seen["second"] == note, seen  # it saw the first writer's entry
    assert seen["waited"] > 0.4, seen
    seqs = [e.seq for e in game_log(app, seated.game_id)]
    assert seqs == list(range(1, note + 2))  # nobody wrote over anybody


def test_a_mail_that_arrives_while_another_writer_holds_its_game_builds_on_that_writers_state(db_url, tmp_path):
    """The mailroom stores a mail before reading anything, so on SQLite it reads its game under
    the write lock and need not read it twice; the store waits while another writer holds the lock."""
    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    seen = {}
    note = while_a_referee_holds_the_game(app, seated.game_id,
                                          lambda: seen.setdefault("outcome", seated.send("north", "REST\n")))
    assert seen["outcome"].status == "applied", seen["outcome"].reason
    entries = game_log(app, seated.game_id)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))  # nobody wrote over anybody
    answer = next(e for e in entries if e.kind == "answer" and e.seq > note)
    assert answer.seq == note + 1  # the order came after the referee's note, seeing it


def test_log_entries_are_written_with_the_transaction_and_a_rollback_takes_them_back(db_url, tmp_path):
    """Appended entries skip the ORM and are written at the session's next flush; they must
    behave like the rest of the transaction: readable before the commit, gone after a rollback."""
    from moderator.service.table import load_table

    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    before = len(game_log(app, seated.game_id))
    with app.db.session() as session:
        table = load_table(session, app.registry, seated.game_id, for_update=True)
        seq = table.append("control", "referee", {"command": "NOTE", "n": 1}, app.clock.now())
        assert [e.seq for e in table.log(seq - 1)] == [seq]  # a query in the transaction sees it
        table.append("control", "referee", {"command": "NOTE", "n": 2}, app.clock.now())
        session.rollback()
        table = load_table(session, app.registry, seated.game_id, for_update=True)
        table.game.phase_label = table.game.phase_label + " "  # something else to write: a flush
        session.add(table.game)
    assert len(game_log(app, seated.game_id)) == before  # neither entry survived the rollback
    with app.db.session() as session:
        table = load_table(session, app.registry, seated.game_id, for_update=True)
        table.append("control", "referee", {"command": "NOTE", "n": 3}, app.clock.now())
    entries = game_log(app, seated.game_id)
    assert len(entries) == before + 1 and json.loads(entries[-1].payload_json)["n"] == 3


def test_mail_queued_in_a_transaction_with_nothing_else_to_write_is_written_at_its_commit(db_url, tmp_path):
    from moderator.store.outbox import queue_mail

    app = make_app(tmp_path, db_url)
    with app.db.session() as session:
        row = queue_mail(session, recipient="ann@x.test", message_id="<alone@demo.test>", subject="alone",
                         raw=b"alone", created_at=app.clock.now(), next_attempt_at=app.clock.now())
        assert row.subject == "alone" and row.status == "pending"
    with app.db.session() as session:
        stored = session.exec(select(Outbox)).all()
    written = [(r.message_id, r.raw, r.status, r.attempts) for r in stored]
    assert written == [("<alone@demo.test>", b"alone", "pending", 0)]


def test_entries_for_a_game_created_in_the_same_transaction_are_written_after_it(db_url, tmp_path):
    """Deferred rows go in after the ORM's own statements of the same flush: the game they
    refer to (a foreign key, enforced on SQLite and PostgreSQL) exists by then."""
    from moderator.service.table import Table
    from moderator.store.models import Game

    app = make_app(tmp_path, db_url)
    with app.db.session() as session:
        game = Game(id="duel-new", engine="duel", scenario="standard", seed_hex="00", commitment="c",
                    created_at=app.clock.now())
        session.add(game)  # not flushed yet
        table = Table(session, game, app.registry.get("duel"), {}, None, {})
        table.append("control", "referee", {"command": "NOTE"}, app.clock.now())
    assert [(e.seq, e.kind) for e in game_log(app, "duel-new")] == [(1, "control")]


def test_deferred_rows_end_with_their_transaction_and_are_refused_inside_a_savepoint(db_url, tmp_path):
    from moderator.store.db import Session
    from moderator.store.outbox import queue_mail

    app = make_app(tmp_path, db_url)
    now = app.clock.now()
    fields = dict(recipient="ann@x.test", subject="s", raw=b"r", created_at=now, next_attempt_at=now)
    with Session(app.db.engine) as session:
        queue_mail(session, message_id="<closed@demo.test>", **fields)
        session.close()  # neither committed nor rolled back
        queue_mail(session, message_id="<kept@demo.test>", **fields)  # the same Session, a new transaction
        session.commit()
    with app.db.session() as session:
        assert [r.message_id for r in session.exec(select(Outbox))] == ["<kept@demo.test>"]
        session.begin_nested()
        with pytest.raises(RuntimeError):
            queue_mail(session, message_id="<inside@demo.test>", **fields)


def test_the_promise_that_a_session_locked_before_reading_ends_with_its_transaction(tmp_path):
    from moderator.store.db import Session
    from moderator.store.games import LOCKED_BEFORE_READING, lock_before_reading

    app = make_app(tmp_path)
    with Session(app.db.engine) as session:
        session.exec(select(LogEntry)).all()
        lock_before_reading(session)
        assert session.info[LOCKED_BEFORE_READING]
        session.commit()
        assert LOCKED_BEFORE_READING not in session.info  # the next transaction must lock again
