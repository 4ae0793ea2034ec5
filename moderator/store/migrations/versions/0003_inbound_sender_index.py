"""an index for the per-sender rate limit

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_inbound_mail_sender_received_at", "inbound_mail", ["sender", "received_at"])


def downgrade() -> None:
    op.drop_index("ix_inbound_mail_sender_received_at", table_name="inbound_mail")
