"""league: one or several games and the schedule of which round plays which (issue 15), in place of
the one game a league had

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-10
"""
import json

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

OLD_COLUMNS = ("engine", "scenario", "options_json")
NEW_COLUMNS = ("games_json", "schedule_json")
LEAGUE = sa.table("league", sa.column("id", sa.String), sa.column("engine", sa.String),
                  sa.column("scenario", sa.String), sa.column("options_json", sa.Text),
                  sa.column("games_json", sa.Text), sa.column("schedule_json", sa.Text))


def upgrade() -> None:
    # A league made before plays its one game every round: a list of one game and no schedule.
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("games_json", sa.Text(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("schedule_json", sa.Text(), nullable=False, server_default="[]"))
    bind = op.get_bind()
    for row in bind.execute(sa.select(LEAGUE.c.id, LEAGUE.c.engine, LEAGUE.c.scenario, LEAGUE.c.options_json)):
        game = {"engine": row.engine, "scenario": row.scenario or None, "options": json.loads(row.options_json or "{}")}
        bind.execute(LEAGUE.update().where(LEAGUE.c.id == row.id).values(games_json=json.dumps([game], sort_keys=True)))
    _drop(OLD_COLUMNS)


def downgrade() -> None:
    # Only a league of one game fits the old columns: a league of several is not cut down to its first.
    bind = op.get_bind()
    rows = list(bind.execute(sa.select(LEAGUE.c.id, LEAGUE.c.games_json)))
    counts = {row.id: len(json.loads(row.games_json or "[]")) for row in rows}
    several = [league_id for league_id, count in counts.items() if count != 1]
    if several:
        raise RuntimeError(f"league {several[0]} plays {counts[several[0]]} games; a database before 0013 keeps "
                           f"one game a league, so it cannot go down")
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("engine", sa.String(length=32), nullable=False, server_default=""))
        batch.add_column(sa.Column("scenario", sa.String(length=64), nullable=False, server_default=""))
        batch.add_column(sa.Column("options_json", sa.Text(), nullable=False, server_default="{}"))
    for row in rows:
        [game] = json.loads(row.games_json)
        bind.execute(LEAGUE.update().where(LEAGUE.c.id == row.id).values(
            engine=game["engine"], scenario=game.get("scenario") or "",
            options_json=json.dumps(game.get("options", {}), sort_keys=True)))
    _drop(NEW_COLUMNS)


def _drop(columns: tuple[str, ...]) -> None:
    # SQLite drops the columns in place (3.35 and later), as in 0011 and 0012: the members, rounds and
    # offers refer to the league table, which a batch-mode copy could not drop.
    for column in columns:
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE league DROP COLUMN {column}")
        else:
            op.drop_column("league", column)
