"""inbound_mail.size: the size of a message kept only in part; submission: what recognises resent orders

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows stored before keep size 0 ("as raw": they were all stored whole), and submissions before
    # carry no normalised orders, so no message is taken for a resend of one of them.
    with op.batch_alter_table("inbound_mail") as batch:
        batch.add_column(sa.Column("size", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("submission") as batch:
        batch.add_column(sa.Column("orders", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("phase", AutoString(length=64), nullable=False, server_default=""))
        batch.add_column(sa.Column("open_json", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    # SQLite drops the columns in place (3.35 and later): the batch mode's copy of the table could
    # not drop inbound_mail, which the quarantine and the submissions refer to.
    for table, column in (("submission", "open_json"), ("submission", "phase"), ("submission", "orders"),
                          ("inbound_mail", "size")):
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        else:
            op.drop_column(table, column)
