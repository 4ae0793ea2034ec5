"""The league tables (issue 15); migration 0010 creates them, 0012 adds the grace and the pairing reliability,
0013 turns a league's one game into a list of games and a schedule.

A league's declaration is kept as columns; its members, rounds and pairings as rows; ratings and
the reliability ledger belong to the club (keyed by address), not to one league.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class League(SQLModel, table=True):
    __tablename__ = "league"

    id: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=200)
    # The league's games, [{engine, scenario, options}] in the order declared, and the schedule (their
    # places, round after round in a cycle; [] plays them in the order declared): league/games.py; 0013.
    games_json: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))
    schedule_json: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))
    format: str = Field(max_length=24)  # round-robin|double-round-robin|swiss|ladder
    rounds: int
    round_days: float
    signup_deadline: datetime
    timeout: str = Field(max_length=16)  # adjudicate|score
    tie_breaks: str = Field(default="", max_length=200)  # comma-separated, in order
    turn_hours: float | None = None
    nmr_limit: int = 3
    reserve_hours: float = 48.0
    fallback: str = Field(default="forfeit", max_length=16)  # forfeit|adjudicate|bot
    min_reliability: float = 0.0  # share of deadlines met asked of a member signing up (0: none)
    grace_minutes: float | None = None  # after a deadline of the league's games (None: the house's); 0012
    pair_reliability: float = 0.0  # members below this share of deadlines met are paired among themselves; 0012
    referee_address: str = Field(default="", max_length=320)
    referee_secret_hash: str = Field(default="", max_length=128)
    signup_token_hash: str = Field(default="", max_length=128, index=True)
    status: str = Field(default="signup", max_length=16, index=True)  # signup|running|over
    current_round: int = 0
    ladder_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # member ids, top first
    # A game with several seats a side: the teams formed at the start, member ids, the captain first; 0012.
    teams_json: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))
    created_at: datetime


class LeagueMember(SQLModel, table=True):
    __tablename__ = "league_member"
    __table_args__ = (UniqueConstraint("league_id", "address"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: str = Field(foreign_key="league.id", index=True, max_length=64)
    address: str = Field(max_length=320, index=True)
    name: str = Field(default="", max_length=120)
    timezone: str = Field(default="UTC", max_length=64)
    availability: int = 1  # league games at once
    sides: str = Field(default="", max_length=120)  # preferred sides, best first, comma-separated
    secret_hash: str = Field(default="", max_length=128)
    seed: int = 0  # 0: not seeded by the referee (seeded by rating at the start)
    status: str = Field(default="active", max_length=16)  # active|reserve|withdrawn|removed
    reserve: bool = False  # volunteers to take over seats
    joined_at: datetime


class LeagueRound(SQLModel, table=True):
    __tablename__ = "league_round"
    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: str = Field(foreign_key="league.id", index=True, max_length=64)
    number: int
    starts_at: datetime
    ends_at: datetime
    status: str = Field(default="running", max_length=16)  # running|over


class LeagueGame(SQLModel, table=True):
    """One pairing of a round: its game (none for a bye), its members by side, and its result."""

    __tablename__ = "league_game"

    id: int | None = Field(default=None, primary_key=True)
    league_id: str = Field(foreign_key="league.id", index=True, max_length=64)
    round: int
    first_id: int = Field(foreign_key="league_member.id")
    second_id: int | None = Field(default=None, foreign_key="league_member.id")
    game_id: str | None = Field(default=None, max_length=64, index=True)
    result: str = Field(default="pending", max_length=16)  # pending|first|second|draw|bye
    how: str = Field(default="", max_length=16)  # played|score|adjudicated|forfeit|bye|bot (a bot held a seat)
    waiting: str = Field(default="", max_length=16)  # ""|adjudication: the referee's RESULT is awaited
    # Who actually sits in each seat when a reserve took one over: {role: address}.
    substitutes_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    finished_at: datetime | None = None


class ReserveOffer(SQLModel, table=True):
    """A seat offered to reserves: the first of `offered_to` to ACCEPT before `expires_at` takes it."""

    __tablename__ = "reserve_offer"

    id: int | None = Field(default=None, primary_key=True)
    league_id: str = Field(foreign_key="league.id", index=True, max_length=64)
    league_game_id: int = Field(foreign_key="league_game.id")
    role: str = Field(max_length=32)
    leaving: str = Field(max_length=320)  # the address giving the seat up
    offered_to_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    status: str = Field(default="open", max_length=16)  # open|taken|expired
    taken_by: str = Field(default="", max_length=320)
    created_at: datetime
    expires_at: datetime


class Rating(SQLModel, table=True):
    """A club member's rating for one game (`scope` is the game's id) or overall ("*")."""

    __tablename__ = "rating"
    __table_args__ = (UniqueConstraint("address", "scope"),)

    id: int | None = Field(default=None, primary_key=True)
    address: str = Field(max_length=320, index=True)
    scope: str = Field(max_length=32)
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    mu: float = 25.0  # OpenSkill, for games played by teams
    sigma: float = 25.0 / 3.0
    games: int = 0
    updated_at: datetime | None = None


class Reliability(SQLModel, table=True):
    """A member's ledger across the club's league games: deadlines met and missed, and answer times."""

    __tablename__ = "reliability"

    address: str = Field(primary_key=True, max_length=320)
    answers: int = 0  # decisions answered by the player before their deadline
    missed: int = 0  # decisions defaulted because the deadline passed (NMR)
    answer_seconds: float = 0.0  # summed time from being asked to answering
    games: int = 0
    dropped: int = 0  # seats given up (withdrawn, removed, or over the NMR limit)

    @property
    def average_hours(self) -> float | None:
        return self.answer_seconds / self.answers / 3600 if self.answers else None

    @property
    def met_share(self) -> float | None:
        asked = self.answers + self.missed
        return self.answers / asked if asked else None
