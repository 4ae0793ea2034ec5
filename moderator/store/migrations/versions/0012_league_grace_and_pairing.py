"""league: per-league deadline grace, the reliability below which members are paired among themselves,
and the teams of a league of a game with several seats a side

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

COLUMNS = ("teams_json", "pair_reliability", "grace_minutes")


def upgrade() -> None:
    # Leagues made before keep the house's grace (NULL), pair without looking at reliability (0) and
    # have no teams (every game they could be made for had one seat a side).
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("grace_minutes", sa.Float(), nullable=True))
        batch.add_column(sa.Column("pair_reliability", sa.Float(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("teams_json", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    # SQLite drops the columns in place (3.35 and later), as in 0011: the members, rounds and offers
    # refer to the league table, which a batch-mode copy could not drop.
    for column in COLUMNS:
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE league DROP COLUMN {column}")
        else:
            op.drop_column("league", column)
