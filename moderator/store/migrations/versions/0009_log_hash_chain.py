"""log: a hash chain over every game's log, its head kept on the game (issue 13)

Each log entry gets `entry_hash`, an HMAC-SHA256 keyed from the game's seed over the hash of the
entry before it, its seq, kind, role and the digest of its payload (moderator/core/chain.py says
why and how); the game keeps the newest hash as `log_head`, which every report prints.  The entries of games already under way are
chained here, voided ones too, in seq order from the game's seed commitment.  The payloads are
rewritten in the canonical form the hash is taken over (the same JSON, keys sorted).  The
construction is written out here, not imported, so this migration keeps meaning what it meant.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""
from __future__ import annotations

import hashlib
import hmac
import json

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

LOG_TAG = b"moderator-log/v1"


def _framed(text: str) -> bytes:
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def _canonical(payload_json: str) -> str:
    return json.dumps(json.loads(payload_json), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _hash(key: bytes, previous: str, seq: int, kind: str, role: str, canonical: str) -> str:
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    message = _framed(previous) + seq.to_bytes(8, "big") + _framed(kind) + _framed(role) + _framed(digest)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _chain_every_game() -> None:
    bind = op.get_bind()
    for game_id, commitment, seed_hex in bind.execute(sa.text("SELECT id, commitment, seed_hex FROM game")).fetchall():
        key = hmac.new(bytes.fromhex(seed_hex), LOG_TAG + _framed(game_id), hashlib.sha256).digest()
        head = ""
        rows = bind.execute(sa.text("SELECT id, seq, kind, role, payload_json FROM log_entry WHERE game_id = :game "
                                    "ORDER BY seq"), {"game": game_id}).fetchall()
        for entry_id, seq, kind, role, payload_json in rows:
            canonical = _canonical(payload_json)
            head = _hash(key, head or commitment, seq, kind, role or "", canonical)
            bind.execute(sa.text("UPDATE log_entry SET entry_hash = :hash, payload_json = :payload WHERE id = :id"),
                         {"hash": head, "payload": canonical, "id": entry_id})
        bind.execute(sa.text("UPDATE game SET log_head = :head WHERE id = :id"), {"head": head, "id": game_id})


def upgrade() -> None:
    with op.batch_alter_table("log_entry") as batch:
        batch.add_column(sa.Column("entry_hash", AutoString(length=64), nullable=False, server_default=""))
    op.add_column("game", sa.Column("log_head", AutoString(length=64), nullable=False, server_default=""))
    _chain_every_game()


def downgrade() -> None:
    # Not in batch mode: on SQLite that would copy the game table and drop the old one, which the
    # other tables' foreign keys forbid; SQLite drops a column in place since 3.35.
    op.drop_column("game", "log_head")
    with op.batch_alter_table("log_entry") as batch:
        batch.drop_column("entry_hash")
