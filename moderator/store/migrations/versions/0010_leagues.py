"""league tables: leagues, members, rounds, pairings, reserve offers, ratings, reliability (issue 15)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

TABLES = ("reserve_offer", "league_game", "league_round", "league_member", "reliability", "rating", "league")


def upgrade() -> None:
    _create_league()
    _create_club_tables()
    _create_members_and_rounds()
    _create_games_and_offers()


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)


def _create_league() -> None:
    op.create_table('league',
        sa.Column('id', AutoString(length=64), nullable=False),
        sa.Column('name', AutoString(length=200), nullable=False),
        sa.Column('engine', AutoString(length=32), nullable=False),
        sa.Column('scenario', AutoString(length=64), nullable=False),
        sa.Column('options_json', sa.Text(), nullable=False),
        sa.Column('format', AutoString(length=24), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('round_days', sa.Float(), nullable=False),
        sa.Column('signup_deadline', UTCDateTime(), nullable=False),
        sa.Column('timeout', AutoString(length=16), nullable=False),
        sa.Column('tie_breaks', AutoString(length=200), nullable=False),
        sa.Column('turn_hours', sa.Float(), nullable=True),
        sa.Column('nmr_limit', sa.Integer(), nullable=False),
        sa.Column('reserve_hours', sa.Float(), nullable=False),
        sa.Column('fallback', AutoString(length=16), nullable=False),
        sa.Column('min_reliability', sa.Float(), nullable=False),
        sa.Column('referee_address', AutoString(length=320), nullable=False),
        sa.Column('referee_secret_hash', AutoString(length=128), nullable=False),
        sa.Column('signup_token_hash', AutoString(length=128), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.Column('current_round', sa.Integer(), nullable=False),
        sa.Column('ladder_json', sa.Text(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_league_signup_token_hash'), 'league', ['signup_token_hash'], unique=False)
    op.create_index(op.f('ix_league_status'), 'league', ['status'], unique=False)


def _create_club_tables() -> None:
    op.create_table('rating',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('address', AutoString(length=320), nullable=False),
        sa.Column('scope', AutoString(length=32), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('deviation', sa.Float(), nullable=False),
        sa.Column('volatility', sa.Float(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('address', 'scope')
    )
    op.create_index(op.f('ix_rating_address'), 'rating', ['address'], unique=False)
    op.create_table('reliability',
        sa.Column('address', AutoString(length=320), nullable=False),
        sa.Column('answers', sa.Integer(), nullable=False),
        sa.Column('missed', sa.Integer(), nullable=False),
        sa.Column('answer_seconds', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('dropped', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('address')
    )


def _create_members_and_rounds() -> None:
    op.create_table('league_member',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', AutoString(length=64), nullable=False),
        sa.Column('address', AutoString(length=320), nullable=False),
        sa.Column('name', AutoString(length=120), nullable=False),
        sa.Column('timezone', AutoString(length=64), nullable=False),
        sa.Column('availability', sa.Integer(), nullable=False),
        sa.Column('sides', AutoString(length=120), nullable=False),
        sa.Column('secret_hash', AutoString(length=128), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.Column('reserve', sa.Boolean(), nullable=False),
        sa.Column('joined_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['league.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'address')
    )
    op.create_index(op.f('ix_league_member_address'), 'league_member', ['address'], unique=False)
    op.create_index(op.f('ix_league_member_league_id'), 'league_member', ['league_id'], unique=False)
    op.create_table('league_round',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', AutoString(length=64), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('starts_at', UTCDateTime(), nullable=False),
        sa.Column('ends_at', UTCDateTime(), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['league.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'number')
    )
    op.create_index(op.f('ix_league_round_league_id'), 'league_round', ['league_id'], unique=False)


def _create_games_and_offers() -> None:
    op.create_table('league_game',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', AutoString(length=64), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('first_id', sa.Integer(), nullable=False),
        sa.Column('second_id', sa.Integer(), nullable=True),
        sa.Column('game_id', AutoString(length=64), nullable=True),
        sa.Column('result', AutoString(length=16), nullable=False),
        sa.Column('how', AutoString(length=16), nullable=False),
        sa.Column('waiting', AutoString(length=16), nullable=False),
        sa.Column('substitutes_json', sa.Text(), nullable=False),
        sa.Column('finished_at', UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['first_id'], ['league_member.id'], ),
        sa.ForeignKeyConstraint(['league_id'], ['league.id'], ),
        sa.ForeignKeyConstraint(['second_id'], ['league_member.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_league_game_game_id'), 'league_game', ['game_id'], unique=False)
    op.create_index(op.f('ix_league_game_league_id'), 'league_game', ['league_id'], unique=False)
    op.create_table('reserve_offer',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', AutoString(length=64), nullable=False),
        sa.Column('league_game_id', sa.Integer(), nullable=False),
        sa.Column('role', AutoString(length=32), nullable=False),
        sa.Column('leaving', AutoString(length=320), nullable=False),
        sa.Column('offered_to_json', sa.Text(), nullable=False),
        sa.Column('status', AutoString(length=16), nullable=False),
        sa.Column('taken_by', AutoString(length=320), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['league_game_id'], ['league_game.id'], ),
        sa.ForeignKeyConstraint(['league_id'], ['league.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_reserve_offer_league_id'), 'reserve_offer', ['league_id'], unique=False)
