"""seat: the entropy commitment of a game played with entropy=commit-reveal

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-09
"""
import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("entropy_commitment", AutoString(length=64), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("entropy_commitment")
