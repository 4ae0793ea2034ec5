"""The league office (issue 15): a league is declared, members sign up (by mail or by the referee),
withdraw, are removed or seeded; each change is made in the caller's transaction.

Secrets: a league has a sign-up token (announced by the club), a referee secret, and each member a
secret of their own; only hashes are stored, and each is shown once, when it is made.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session

from moderator.clock import Clock
from moderator.league.games import declared_games, every_side, games_json, keys_of, resolved
from moderator.league.model import RECORD_DECISIONS, Declaration, LeagueError
from moderator.registry import Registry
from moderator.service.games import new_secret, token_hash
from moderator.store import leagues as stored
from moderator.store.db import Database
from moderator.store.league_tables import League, LeagueMember


@dataclass(frozen=True)
class CreatedLeague:
    league_id: str
    signup_token: str  # announced to the club: `JOIN LEAGUE <token>`
    referee_secret: str


@dataclass(frozen=True)
class SignUp:
    """What a member gives when signing up (every field but the address may be left out)."""

    address: str
    name: str = ""
    timezone: str = "UTC"
    availability: int = 1
    sides: tuple[str, ...] = ()
    reserve_only: bool = False  # only to take over seats, not to be paired


def member_secret_hash(league_id: str, address: str, secret: str) -> str:
    return token_hash(f"{league_id}/{address.lower()}/{secret.strip().upper()}")


def declaration_of(league: League) -> Declaration:
    """The declaration a league row was made from (its sign-up already closed: no sign-up days left)."""
    games = declared_games(league)
    keys = keys_of(games)
    return Declaration(league.name, tuple(games), tuple(keys[i] for i in json.loads(league.schedule_json or "[]")),
                       league.format, league.rounds, league.round_days, 0.0, league.timeout,  # type: ignore[arg-type]
                       tuple(t for t in league.tie_breaks.split(",") if t),  # type: ignore[misc]
                       league.turn_hours, league.nmr_limit, league.reserve_hours, league.fallback,  # type: ignore[arg-type]
                       league.min_reliability, league.grace_minutes, league.pair_reliability)


def shares_on_record(session: Session, addresses: Sequence[str]) -> dict[str, float]:
    """The share of deadlines met by each address with at least RECORD_DECISIONS decisions on record
    (a newcomer has no record and is judged by none)."""
    ledgers = stored.ledgers(session, [address.lower() for address in addresses])
    return {address: ledger.met_share or 0.0 for address, ledger in ledgers.items()
            if ledger.answers + ledger.missed >= RECORD_DECISIONS}


def unreliable(session: Session, league: League, addresses: Sequence[str]) -> set[str]:
    """The addresses on record below the league's pairing reliability (none when it asks for none)."""
    if not league.pair_reliability:
        return set()
    return {address for address, share in shares_on_record(session, addresses).items()
            if share < league.pair_reliability}


class LeagueOffice:
    """Declares leagues and keeps their members; needs the database, the clock and the games."""

    def __init__(self, database: Database, clock: Clock, registry: Registry):
        self.database = database
        self.clock = clock
        self.registry = registry

    def declare(self, declaration: Declaration, league_id: str, referee_address: str) -> CreatedLeague:
        """Make a league open for sign-up; raises LeagueError (a bad declaration, games that do not seat
        alike, a taken id) or UnknownGame / OptionError (a game or its options)."""
        declaration.check()
        games, schedule = resolved(self.registry, declaration)
        token, referee_secret = new_secret(), new_secret()
        now = self.clock.now()
        with self.database.session() as session:
            if stored.league(session, league_id) is not None:
                raise LeagueError(f"there is already a league '{league_id}'")
            session.add(League(
                id=league_id, name=declaration.name, games_json=games_json(games),
                schedule_json=json.dumps(schedule), format=declaration.format,
                rounds=declaration.rounds, round_days=declaration.round_days,
                signup_deadline=now + timedelta(days=declaration.signup_days), timeout=declaration.timeout,
                tie_breaks=",".join(declaration.tie_breaks), turn_hours=declaration.turn_hours,
                nmr_limit=declaration.nmr_limit, reserve_hours=declaration.reserve_hours,
                fallback=declaration.fallback, min_reliability=declaration.min_reliability,
                grace_minutes=declaration.grace_minutes, pair_reliability=declaration.pair_reliability,
                referee_address=referee_address.lower(),
                referee_secret_hash=member_secret_hash(league_id, "referee", referee_secret),
                signup_token_hash=token_hash(token), created_at=now))
        return CreatedLeague(league_id, token, referee_secret)

    # ------------------------------------------------------------------ members

    def sign_up(self, session: Session, league: League, entry: SignUp, by_referee: bool = False
                ) -> tuple[LeagueMember, str]:
        """A new member and their secret; raises LeagueError when the sign-up is closed (to all but
        the referee, who may add members to a Swiss or ladder league still running), the address is
        already a member, or the time zone or sides are unknown."""
        if league.status == "over" or (league.status == "running" and not (
                by_referee and league.format in ("swiss", "ladder")) and not entry.reserve_only):
            raise LeagueError(f"the sign-up of league {league.id} is closed")
        if stored.member_by_address(session, league.id, entry.address) is not None:
            raise LeagueError(f"{entry.address} is already a member of league {league.id}")
        self._check_zone(entry.timezone)
        if not by_referee:
            self._check_reliability(session, league, entry.address)
        sides = self.checked_sides(league, entry.sides)
        # Once a league of teams has formed them, a newcomer can only stand in for a team member.
        reserve = entry.reserve_only or (league.status == "running" and bool(json.loads(league.teams_json or "[]")))
        secret = new_secret()
        member = LeagueMember(league_id=league.id, address=entry.address.lower(), name=entry.name[:120],
                              timezone=entry.timezone, availability=max(0, entry.availability),
                              sides=",".join(sides), secret_hash=member_secret_hash(league.id, entry.address, secret),
                              status="reserve" if reserve else "active", reserve=reserve,
                              joined_at=self.clock.now())
        session.add(member)
        session.flush()
        if league.format == "ladder" and league.status == "running" and member.status == "active":
            league.ladder_json = json.dumps(json.loads(league.ladder_json) + [member.id])  # joins at the bottom
            session.add(league)
        return member, secret

    @staticmethod
    def _check_reliability(session: Session, league: League, address: str) -> None:
        """Raises LeagueError when the league asks for a record the member's ledger falls short of."""
        share = shares_on_record(session, [address]).get(address.lower())
        if not league.min_reliability or share is None:
            return
        if share < league.min_reliability:
            raise LeagueError(f"this league asks members to have met {league.min_reliability:.0%} of their "
                              f"deadlines in the club's league games, and your record shows {share:.0%} "
                              f"(the referee may still add you)")

    @staticmethod
    def _check_zone(zone: str) -> None:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise LeagueError(f"'{zone}' is not a time zone name; use one like Europe/Madrid or UTC") from None

    def checked_sides(self, league: League, sides: Sequence[str]) -> list[str]:
        """The preferred sides, each a side of one of the league's games (round 1 honours the first that
        its game has); raises LeagueError naming the unknown one."""
        known = every_side(self.registry, league)
        wanted = [side.lower() for side in sides]
        unknown = [side for side in wanted if side not in known]
        if unknown:
            where = "this game" if len(declared_games(league)) == 1 else "the league's games"
            raise LeagueError(f"'{unknown[0]}' is not a side of {where}; the sides are {', '.join(known)}")
        return wanted

    def seed(self, session: Session, league: League, address: str, seed: int) -> LeagueMember:
        """Set a member's seed (1 is the top); raises LeagueError once the league has started."""
        if league.status != "signup":
            raise LeagueError("seeds are set before the league starts")
        member = self.member(session, league, address)
        member.seed = max(0, seed)
        session.add(member)
        return member

    def leave(self, session: Session, league: League, address: str, status: str) -> LeagueMember:
        """A member withdraws (or the referee removes them); raises LeagueError for a stranger."""
        member = self.member(session, league, address)
        if member.status in ("withdrawn", "removed"):
            raise LeagueError(f"{address} has already left league {league.id}")
        member.status = status
        member.reserve = False
        session.add(member)
        # A team keeps its rung while anyone of it is left (a team wholly gone forfeits its games).
        if league.format == "ladder" and member.id is not None and not json.loads(league.teams_json or "[]"):
            league.ladder_json = json.dumps([m for m in json.loads(league.ladder_json) if m != member.id])
            session.add(league)
        return member

    @staticmethod
    def member(session: Session, league: League, address: str) -> LeagueMember:
        member = stored.member_by_address(session, league.id, address)
        if member is None:
            raise LeagueError(f"{address} is not a member of league {league.id}")
        return member

    def start_now(self, session: Session, league: League) -> None:
        """Close the sign-up now: the next pass of the jobs starts round 1; raises LeagueError unless signing up."""
        if league.status != "signup":
            raise LeagueError(f"league {league.id} has already started")
        league.signup_deadline = self.clock.now()
        session.add(league)

    def is_due(self, league: League, now: datetime) -> bool:
        deadline = league.signup_deadline
        if deadline.tzinfo is None:
            deadline = deadline.replace(tzinfo=now.tzinfo)
        return league.status == "signup" and deadline <= now
