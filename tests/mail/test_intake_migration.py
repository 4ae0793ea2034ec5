"""Migration 0006 (issue 12): the size of a message kept only in part, and what recognises resent
orders; up and down on SQLite and PostgreSQL, with the rows already there kept."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect
from sqlmodel import select

from moderator.store.db import alembic_config
from moderator.store.models import InboundMail, Submission
from tests.conftest import make_app, seat_duel
from tests.mailmaker import player_mail

NEW_COLUMNS = {"inbound_mail": {"size"}, "submission": {"orders", "phase", "open_json"}}


def _columns(app, table: str) -> set[str]:
    return {column["name"] for column in inspect(app.db.engine).get_columns(table)}


def test_0006_goes_down_and_up_again_keeping_the_rows(db_url, tmp_path):
    app = make_app(tmp_path, db_url)
    seated = seat_duel(app)
    seated.send("north", "REST\n")
    big = player_mail("north@players.test", "x" * 3_000_000)
    assert app.receive(big).status == "receipt"
    with app.db.session() as session:
        messages = len(session.exec(select(InboundMail)).all())
        assert session.exec(select(Submission)).one().orders == "REST"
    config = alembic_config(app.db.engine)

    command.downgrade(config, "0005")
    for table, columns in NEW_COLUMNS.items():
        assert not columns & _columns(app, table)
    app.db.dispose()  # the ORM's cached statements name the dropped columns

    command.upgrade(config, "head")
    for table, columns in NEW_COLUMNS.items():
        assert columns <= _columns(app, table)
    with app.db.session() as session:
        rows = session.exec(select(InboundMail).order_by(InboundMail.id)).all()
        assert len(rows) == messages and rows[-1].size == 0 and len(rows[-1].raw) == 65_536
        submission = session.exec(select(Submission)).one()
        # orders taken before the upgrade carry nothing to compare with: none is taken for a resend
        assert (submission.orders, submission.phase, submission.open_json) == ("", "", "[]")
