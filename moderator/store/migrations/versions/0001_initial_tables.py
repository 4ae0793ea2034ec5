"""initial tables

Revision ID: 0001
Revises: 
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    # One helper per table, in the order Alembic generated them (a table before those that refer to it).
    _create_game()
    _create_inbound_mail()
    _create_outbox()
    _create_log_entry()
    _create_quarantine()
    _create_seat()
    _create_snapshot()
    _create_submission()


def _create_game() -> None:
    op.create_table('game',
        sa.Column('id', AutoString(length=64), nullable=False),
        sa.Column('engine', AutoString(length=32), nullable=False),
        sa.Column('scenario', AutoString(length=64), nullable=False),
        sa.Column('options_json', sa.Text(), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.Column('seed_hex', AutoString(length=64), nullable=False),
        sa.Column('commitment', AutoString(length=64), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('referee_address', AutoString(length=320), nullable=False),
        sa.Column('referee_secret_hash', AutoString(length=128), nullable=False),
        sa.Column('phase_label', AutoString(length=64), nullable=False),
        sa.Column('last_seq', sa.Integer(), nullable=False),
        sa.Column('rng_counters_json', sa.Text(), nullable=False),
        sa.Column('settings_json', sa.Text(), nullable=False),
        sa.Column('ready_at', UTCDateTime(), nullable=True),
        sa.Column('next_deadline', UTCDateTime(), nullable=True),
        sa.Column('result_json', sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_next_deadline'), ['next_deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_status'), ['status'], unique=False)


def _create_inbound_mail() -> None:
    op.create_table('inbound_mail',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('message_id', AutoString(length=998), nullable=False),
        sa.Column('content_hash', AutoString(length=64), nullable=False),
        sa.Column('source', AutoString(length=255), nullable=False),
        sa.Column('sender', AutoString(length=320), nullable=False),
        sa.Column('subject', sa.Text(), nullable=False),
        sa.Column('raw', sa.LargeBinary(), nullable=False),
        sa.Column('received_at', UTCDateTime(), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.Column('outcome', sa.Text(), nullable=False),
        sa.Column('game_id', AutoString(length=64), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('content_hash')
    )
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_mail_message_id'), ['message_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_mail_status'), ['status'], unique=False)


def _create_outbox() -> None:
    op.create_table('outbox',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', AutoString(length=64), nullable=False),
        sa.Column('recipient', AutoString(length=320), nullable=False),
        sa.Column('message_id', AutoString(length=255), nullable=False),
        sa.Column('subject', sa.Text(), nullable=False),
        sa.Column('kind', AutoString(length=16), nullable=False),
        sa.Column('raw', sa.LargeBinary(), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('next_attempt_at', UTCDateTime(), nullable=True),
        sa.Column('handed_at', UTCDateTime(), nullable=True),
        sa.Column('sent_at', UTCDateTime(), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=False),
        sa.Column('log_seq', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('message_id')
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_status'), ['status'], unique=False)


def _create_log_entry() -> None:
    op.create_table('log_entry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', AutoString(length=64), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', AutoString(length=32), nullable=False),
        sa.Column('role', AutoString(length=32), nullable=False),
        sa.Column('payload_json', sa.Text(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'seq')
    )
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_log_entry_game_id'), ['game_id'], unique=False)


def _create_quarantine() -> None:
    op.create_table('quarantine',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('inbound_id', sa.Integer(), nullable=False),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('released', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mail.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('quarantine', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_quarantine_inbound_id'), ['inbound_id'], unique=False)


def _create_seat() -> None:
    op.create_table('seat',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', AutoString(length=64), nullable=False),
        sa.Column('role', AutoString(length=32), nullable=False),
        sa.Column('kind', AutoString(length=16), nullable=False),
        sa.Column('address', AutoString(length=320), nullable=False),
        sa.Column('name', AutoString(length=120), nullable=False),
        sa.Column('timezone', AutoString(length=64), nullable=False),
        sa.Column('secret', AutoString(length=64), nullable=False),
        sa.Column('invite_token_hash', AutoString(length=128), nullable=False),
        sa.Column('contribution', AutoString(length=256), nullable=False),
        sa.Column('joined_at', UTCDateTime(), nullable=True),
        sa.Column('plan_json', sa.Text(), nullable=False),
        sa.Column('asked_json', sa.Text(), nullable=False),
        sa.Column('deadlines_json', sa.Text(), nullable=False),
        sa.Column('last_report_seq', sa.Integer(), nullable=False),
        sa.Column('last_report_message_id', AutoString(length=255), nullable=False),
        sa.Column('submitted_at', UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'role')
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_address'), ['address'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_game_id'), ['game_id'], unique=False)


def _create_snapshot() -> None:
    op.create_table('snapshot',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', AutoString(length=64), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('label', AutoString(length=64), nullable=False),
        sa.Column('state', sa.Text(), nullable=False),
        sa.Column('rng_counters_json', sa.Text(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'seq')
    )
    with op.batch_alter_table('snapshot', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_snapshot_game_id'), ['game_id'], unique=False)


def _create_submission() -> None:
    op.create_table('submission',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', AutoString(length=64), nullable=False),
        sa.Column('role', AutoString(length=32), nullable=False),
        sa.Column('inbound_id', sa.Integer(), nullable=True),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('receipt', sa.Text(), nullable=False),
        sa.Column('accepted', sa.Boolean(), nullable=False),
        sa.Column('dry_run', sa.Boolean(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mail.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_submission_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    # ### commands auto generated by Alembic - please adjust! ###
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_submission_game_id'))

    op.drop_table('submission')
    with op.batch_alter_table('snapshot', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_snapshot_game_id'))

    op.drop_table('snapshot')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_game_id'))
        batch_op.drop_index(batch_op.f('ix_seat_address'))

    op.drop_table('seat')
    with op.batch_alter_table('quarantine', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quarantine_inbound_id'))

    op.drop_table('quarantine')
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_log_entry_game_id'))

    op.drop_table('log_entry')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_status'))
        batch_op.drop_index(batch_op.f('ix_outbox_game_id'))

    op.drop_table('outbox')
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_mail_status'))
        batch_op.drop_index(batch_op.f('ix_inbound_mail_message_id'))

    op.drop_table('inbound_mail')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_status'))
        batch_op.drop_index(batch_op.f('ix_game_next_deadline'))

    op.drop_table('game')
    # ### end Alembic commands ###
