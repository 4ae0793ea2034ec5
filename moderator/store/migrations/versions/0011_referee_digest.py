"""game: how far the referee's last digest reached (the log entry, the newest quarantined message)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09
"""
import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games created before have had no digest: the first one covers the whole log and lists every
    # quarantined message as new.
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("digest_seq", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("digest_inbound_id", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    # SQLite drops the columns in place (3.35 and later): the batch mode's copy of the table could
    # not drop the game table, which the seats, the log and the snapshots refer to.
    for column in ("digest_inbound_id", "digest_seq"):
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE game DROP COLUMN {column}")
        else:
            op.drop_column("game", column)
