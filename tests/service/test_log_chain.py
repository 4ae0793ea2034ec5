"""The log is a hash chain (core/chain.py) whose head every report prints; migration 0009 chains
the logs of games already under way the same way, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from alembic import command
from sqlalchemy import inspect
from sqlmodel import select

from moderator.core.chain import entry_hash, log_key, payload_digest
from moderator.store.db import alembic_config
from moderator.store.models import Game, LogEntry
from tests.conftest import make_app, outbox_rows, seat_duel, text_of


def chain_of(app, game_id: str) -> tuple[list[tuple[int, str]], str]:
    with app.db.session() as session:
        entries = session.exec(select(LogEntry).where(LogEntry.game_id == game_id).order_by(LogEntry.seq)).all()
        return [(e.seq, e.entry_hash) for e in entries], session.get(Game, game_id).log_head


def test_each_entry_commits_to_the_one_before_and_the_game_keeps_the_head(seated):
    seated.send("north", "REST\n")
    with seated.app.db.session() as session:
        game = session.get(Game, seated.game_id)
        entries = session.exec(select(LogEntry).where(LogEntry.game_id == seated.game_id)
                               .order_by(LogEntry.seq)).all()
        key = log_key(game.id, bytes.fromhex(game.seed_hex))
        previous = game.commitment
        for entry in entries:
            digest = payload_digest(json.loads(entry.payload_json))
            assert entry.entry_hash == entry_hash(key, previous, entry.seq, entry.kind, entry.role, digest)
            previous = entry.entry_hash
        assert game.log_head == previous and len(entries) == game.last_seq > 3


def test_every_report_prints_the_head_of_the_log_before_it_and_the_draw_counters(seated):
    seated.send("north", "REST\n")
    report = next(r for r in reversed(outbox_rows(seated.app)) if r.kind == "report")
    text = " ".join(text_of(report.raw).split())
    with seated.app.db.session() as session:
        before = session.exec(select(LogEntry).where(LogEntry.game_id == seated.game_id,
                                                     LogEntry.seq == report.log_seq - 1)).one()
    assert f"Log head: #{report.log_seq - 1} {before.entry_hash}" in text
    assert "Next draws: " in text


def test_0009_chains_the_logs_already_there_as_the_moderator_does(db_url, tmp_path):
    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    seated.send("north", "REST\n")
    seated.send("south", "ATTACK\n")
    chained, head = chain_of(app, seated.game_id)
    config = alembic_config(app.db.engine)

    command.downgrade(config, "0007")
    assert "entry_hash" not in {c["name"] for c in inspect(app.db.engine).get_columns("log_entry")}
    assert "log_head" not in {c["name"] for c in inspect(app.db.engine).get_columns("game")}
    app.db.dispose()  # the ORM's cached statements name the dropped columns

    command.upgrade(config, "head")
    assert chain_of(app, seated.game_id) == (chained, head)
    assert head == chained[-1][1] and len({h for _, h in chained}) == len(chained)


def test_turn_replay_names_an_entry_changed_in_the_database(seated):
    """A join's payload replays to nothing, so only the chain can tell that it was changed."""
    assert seated.app.replayer.replay(seated.game_id).ok
    with seated.app.db.session() as session:
        join = session.exec(select(LogEntry).where(LogEntry.game_id == seated.game_id,
                                                   LogEntry.kind == "join")).first()
        payload = json.loads(join.payload_json)
        join.payload_json = json.dumps(dict(payload, name="Someone Else"), sort_keys=True, separators=(",", ":"))
        session.add(join)
        session.commit()
        seq = join.seq
    mismatches = seated.app.replayer.replay(seated.game_id).mismatches
    assert mismatches == [f"#{seq}: its hash does not match its content and the entry before it"]
