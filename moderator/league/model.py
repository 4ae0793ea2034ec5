"""What a league is, as plain values (issue 15): its format, its policies, and the results it keeps.

A league is declared once, when it is made: its games (one or several, each with its scenario and
rule options, and the schedule of which round plays which: league/games.py), the format, how many
rounds and how long each lasts, the tie-breaks that order its standings, what happens to a game still
running when its round's time is out, and what happens to a seat nobody takes over.  These values
are pure: the store keeps them as columns and JSON, the pairing and standings modules read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from moderator.core.errors import ModeratorError

Format = Literal["round-robin", "double-round-robin", "swiss", "ladder"]
FORMATS: tuple[Format, ...] = ("round-robin", "double-round-robin", "swiss", "ladder")

#: A game still running when its round's time is out: the referee adjudicates it, or the engine's
#: score at that point decides it (declared when the league is made).
TimeoutPolicy = Literal["adjudicate", "score"]
TIMEOUT_POLICIES: tuple[TimeoutPolicy, ...] = ("adjudicate", "score")

TieBreak = Literal["buchholz", "sonneborn-berger", "head-to-head", "wins"]
TIE_BREAKS: tuple[TieBreak, ...] = ("buchholz", "sonneborn-berger", "head-to-head", "wins")

#: A seat no reserve took over by the offer's deadline: forfeited, left to the referee, or played on
#: by the game's bot so that the game finishes.
Fallback = Literal["forfeit", "adjudicate", "bot"]
FALLBACKS: tuple[Fallback, ...] = ("forfeit", "adjudicate", "bot")

#: How a pairing ended, from the first-named member's side: a win, a draw, a loss, or a bye.
Result = Literal["first", "second", "draw", "bye", "pending"]


#: A member's reliability is judged only once this many of their decisions are on record.
RECORD_DECISIONS = 5


class LeagueError(ModeratorError):
    """A league command or declaration cannot be used; the message says why."""


class PairingImpossible(LeagueError):
    """No pairing of this round keeps the format's rules (no rematch, one bye each)."""


@dataclass(frozen=True)
class DeclaredGame:
    """One of a league's games: the registered game's id, its scenario (None: the first) and its rule options."""

    engine: str
    scenario: str | None = None
    options: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Declaration:
    """Everything declared when a league is made; `check` raises LeagueError on a bad value (the games
    themselves are checked against the registry when the league is made, league/games.py)."""

    name: str
    games: tuple[DeclaredGame, ...]
    # The games' keys (a game's id, or id:scenario for a game declared twice), round after round in a
    # cycle that repeats; empty: the games in the order declared (league/games.py).
    schedule: tuple[str, ...] = ()
    format: Format = "swiss"
    rounds: int = 3
    round_days: float = 14.0
    signup_days: float = 7.0
    timeout: TimeoutPolicy = "adjudicate"
    tie_breaks: tuple[TieBreak, ...] = ("buchholz", "sonneborn-berger", "head-to-head")
    turn_hours: float | None = None  # per-turn deadline of the league's games (None: the house default)
    nmr_limit: int = 3  # missed deadlines in one game before the seat is offered to reserves
    reserve_hours: float = 48.0  # how long an offer to reserves stays open
    fallback: Fallback = "forfeit"
    # A sign-up criterion from the reliability ledger: the share of deadlines a member met in the
    # club's league games (checked once they have RECORD_DECISIONS decisions on record; 0: none).
    min_reliability: float = 0.0
    # Minutes after a deadline of the league's games before its default is applied (None: the house's).
    grace_minutes: float | None = None
    # A pairing criterion from the same ledger: members on record below this share are paired among
    # themselves where the format allows (Swiss), and flagged to the referee each round (0: not used).
    pair_reliability: float = 0.0

    def check(self) -> None:
        """Raises LeagueError naming the first value that cannot be used."""
        if not self.games:
            raise LeagueError("a league plays at least one game")
        if self.format not in FORMATS:
            raise LeagueError(f"format must be one of {', '.join(FORMATS)}, not '{self.format}'")
        if self.timeout not in TIMEOUT_POLICIES:
            raise LeagueError(f"timeout must be one of {', '.join(TIMEOUT_POLICIES)}, not '{self.timeout}'")
        if self.fallback not in FALLBACKS:
            raise LeagueError(f"fallback must be one of {', '.join(FALLBACKS)}, not '{self.fallback}'")
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown:
            raise LeagueError(f"unknown tie-break '{unknown[0]}'; use {', '.join(TIE_BREAKS)}")
        if self.rounds < 1 or self.round_days <= 0 or self.signup_days < 0:
            raise LeagueError("a league needs at least one round, of a positive number of days")
        if self.nmr_limit < 1:
            raise LeagueError("the NMR limit must be at least 1")
        if not (0.0 <= self.min_reliability <= 1.0 and 0.0 <= self.pair_reliability <= 1.0):
            raise LeagueError("the reliability asked for is a share of deadlines met, from 0 to 1")
        if self.grace_minutes is not None and self.grace_minutes < 0:
            raise LeagueError("the grace after a deadline is a number of minutes, 0 or more")


@dataclass(frozen=True)
class Entrant:
    """A member as pairing sees them: an id, a seed (1 is the top) and a rating."""

    member_id: int
    seed: int
    rating: float = 1500.0
    reliable: bool = True  # False: below the league's pairing reliability (paired among themselves)


@dataclass(frozen=True)
class Pairing:
    """One game of a round: `first` plays the game's first side, `second` the other; no second is a bye."""

    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None


@dataclass(frozen=True)
class Played:
    """A finished pairing, as standings read it (`result` from `first`'s side)."""

    round: int
    first: int
    second: int | None
    result: Result

    def points_of(self, member_id: int) -> float | None:
        """The points `member_id` took from this pairing (1, ½ or 0), or None when they were not in it."""
        if member_id not in (self.first, self.second) or self.result == "pending":
            return None
        if self.result == "bye":
            return 1.0
        if self.result == "draw":
            return 0.5
        won = "first" if member_id == self.first else "second"
        return 1.0 if self.result == won else 0.0

    def opponent_of(self, member_id: int) -> int | None:
        return self.second if member_id == self.first else self.first
