"""The tables (DESIGN §9).  Every change to the schema goes through an Alembic migration.

Raw mail is kept before anything reads it; the per-game log is append-only and, with the seed,
reproduces every state and report; the outbox is written in the same transaction as the turn
result that produced it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class Game(SQLModel, table=True):
    __tablename__ = "game"

    id: str = Field(primary_key=True, max_length=64)
    engine: str = Field(max_length=32)
    scenario: str = Field(max_length=64)
    options_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    status: str = Field(default="forming", max_length=16, index=True)  # forming|running|paused|over
    seed_hex: str = Field(max_length=64)  # secret until the game ends
    commitment: str = Field(max_length=64)
    created_at: datetime
    referee_address: str = Field(default="", max_length=320)
    referee_secret_hash: str = Field(default="", max_length=128)
    phase_label: str = Field(default="", max_length=64)
    last_seq: int = 0
    rng_counters_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    settings_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    ready_at: datetime | None = None  # when the next run may happen (change-of-mind delay)
    next_deadline: datetime | None = Field(default=None, index=True)
    result_json: str = Field(default="", sa_column=Column(Text, nullable=False))
    # How far the referee's last digest reached: the log entry, and the newest quarantined message
    # it listed (a later one is new to the referee).
    digest_seq: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    digest_inbound_id: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # The hash of the newest log entry (core/chain.py), printed in every report; empty before the first.
    log_head: str = Field(default="", max_length=64, sa_column_kwargs={"server_default": ""})


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "role"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    role: str = Field(max_length=32)
    kind: str = Field(default="player", max_length=16)  # player|observer
    address: str = Field(default="", max_length=320, index=True)
    name: str = Field(default="", max_length=120)
    timezone: str = Field(default="UTC", max_length=64)
    # Kept in clear like the seed: every report to this seat repeats it so a plain reply works
    # (docs/storage.md says what is stored, in clear or hashed, and who can read it).
    secret: str = Field(default="", max_length=64)
    invite_token_hash: str = Field(default="", max_length=128)
    contribution: str = Field(default="", max_length=256)
    # With the game option entropy=commit-reveal: the SHA-256 the player committed to (64 hex digits)
    # before anyone revealed; `contribution` stays empty until the reveal (service/entropy.py).
    entropy_commitment: str = Field(default="", max_length=64, sa_column_kwargs={"server_default": ""})
    joined_at: datetime | None = None
    plan_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    asked_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # decision keys already prompted
    deadlines_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))  # decision key -> ISO UTC
    last_report_seq: int = 0
    last_report_message_id: str = Field(default="", max_length=255)
    submitted_at: datetime | None = None
    reminded_json: str = Field(default="{}", sa_column=Column(Text, nullable=False, server_default="{}"))
    absences_json: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))
    # How often a player is mailed (NOTIFY): "turn" (asked, and at the end of each game turn), "every"
    # (whenever something happens while the seat owes no answer) or "asked" (only when asked).
    # Observers get "turn".
    notify: str = Field(default="turn", max_length=8, sa_column_kwargs={"server_default": "turn"})
    # Receipts of accepted orders waiting to ride on this seat's next report ([{"receipt", "held_at"}]).
    held_receipts_json: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))
    #: the game turn of the last report that carried the whole map (it comes once per turn: issue 12)
    last_map_turn: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class InboundMail(SQLModel, table=True):
    __tablename__ = "inbound_mail"
    # The per-sender rate limit counts a sender's mail of the last hour on every message.
    __table_args__ = (Index("ix_inbound_mail_sender_received_at", "sender", "received_at"),)

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(default="", max_length=998, index=True)
    content_hash: str = Field(max_length=64, unique=True)
    source: str = Field(default="", max_length=255)  # maildir key, IMAP UID, file name
    sender: str = Field(default="", max_length=320)
    subject: str = Field(default="", sa_column=Column(Text, nullable=False))
    # The message as received; of one too large to read (settings.max_message_bytes) only its
    # first settings.oversized_kept_bytes, so a flood of large mail cannot fill the database.
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    size: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # bytes received (0: as raw)
    received_at: datetime
    status: str = Field(default="new", max_length=16, index=True)  # new|done|quarantined|duplicate
    outcome: str = Field(default="", sa_column=Column(Text, nullable=False))
    game_id: str = Field(default="", max_length=64)


class Quarantine(SQLModel, table=True):
    __tablename__ = "quarantine"

    id: int | None = Field(default=None, primary_key=True)
    inbound_id: int = Field(foreign_key="inbound_mail.id", index=True)
    reason: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime
    released: bool = False


class Submission(SQLModel, table=True):
    __tablename__ = "submission"

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    role: str = Field(max_length=32)
    inbound_id: int | None = Field(default=None, foreign_key="inbound_mail.id")
    body: str = Field(sa_column=Column(Text, nullable=False))
    receipt: str = Field(default="", sa_column=Column(Text, nullable=False))
    accepted: bool = False
    dry_run: bool = False
    created_at: datetime
    # What recognises the same orders sent again (docs/design-notes.md, "Resent orders"): the
    # orders normalised, the phase once they were taken, and the decisions then open for the seat.
    orders: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))
    phase: str = Field(default="", max_length=64, sa_column_kwargs={"server_default": ""})
    open_json: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))


class LogEntry(SQLModel, table=True):
    """Append-only history of a game: answers, joins, controls, report points."""

    __tablename__ = "log_entry"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seq: int
    kind: str = Field(max_length=32)  # setup|join|answer|report|control|hold|reveal
    role: str = Field(default="", max_length=32)
    payload_json: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime
    # A referee's rollback voids later entries instead of deleting them: history stays whole.
    void: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    # The entry's place in the hash chain (core/chain.py): over seq, kind, role, the payload's digest
    # and the previous entry's hash.  The void mark is not hashed (the rollback entries are).
    entry_hash: str = Field(default="", max_length=64, sa_column_kwargs={"server_default": ""})


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshot"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seq: int  # the log seq this state follows
    label: str = Field(default="", max_length=64)
    state: str = Field(sa_column=Column(Text, nullable=False))
    rng_counters_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime


class Outbox(SQLModel, table=True):
    __tablename__ = "outbox"

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(default="", max_length=64, index=True)
    recipient: str = Field(max_length=320)
    message_id: str = Field(max_length=255, unique=True)
    subject: str = Field(default="", sa_column=Column(Text, nullable=False))
    kind: str = Field(default="report", max_length=16)  # report|receipt|prompt|notice
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = Field(default="pending", max_length=16, index=True)  # pending|handed|sent|failed
    attempts: int = 0
    created_at: datetime
    next_attempt_at: datetime | None = None
    handed_at: datetime | None = None
    sent_at: datetime | None = None
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False))
    log_seq: int = 0
    # Tries the mail server was down for: they back off but do not count against MAX_ATTEMPTS.
    outages: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
