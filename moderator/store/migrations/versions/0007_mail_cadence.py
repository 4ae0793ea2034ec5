"""seat: how often the player is mailed (NOTIFY), receipts held for the next report, the turn of the last whole map

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("notify", AutoString(length=8), nullable=False, server_default="turn"))
        batch.add_column(sa.Column("held_receipts_json", sa.Text(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("last_map_turn", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("last_map_turn")
        batch.drop_column("held_receipts_json")
        batch.drop_column("notify")
