"""The league queries (issue 15): every SQL the league services use is here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlmodel import Session, col, select

from moderator.store.league_tables import (
    League,
    LeagueGame,
    LeagueMember,
    LeagueRound,
    Rating,
    Reliability,
    ReserveOffer,
)

PLAYING = ("active",)


def league(session: Session, league_id: str, for_update: bool = False) -> League | None:
    query = select(League).where(League.id == league_id)
    if for_update:
        query = query.with_for_update()
    return session.exec(query).first()


def league_by_token(session: Session, token_hash: str) -> League | None:
    return session.exec(select(League).where(League.signup_token_hash == token_hash)).first()


def leagues_with_status(session: Session, statuses: Sequence[str]) -> list[League]:
    return list(session.exec(select(League).where(col(League.status).in_(statuses)).order_by(col(League.id))))


def all_leagues(session: Session) -> list[League]:
    return list(session.exec(select(League).order_by(col(League.created_at))))


def members(session: Session, league_id: str, statuses: Sequence[str] | None = None) -> list[LeagueMember]:
    query = select(LeagueMember).where(LeagueMember.league_id == league_id)
    if statuses is not None:
        query = query.where(col(LeagueMember.status).in_(statuses))
    return list(session.exec(query.order_by(col(LeagueMember.id))))


def member_by_address(session: Session, league_id: str, address: str) -> LeagueMember | None:
    return session.exec(select(LeagueMember).where(LeagueMember.league_id == league_id,
                                                   LeagueMember.address == address.lower())).first()


def is_league_address(session: Session, address: str) -> bool:
    """Whether `address` is a member or the referee of some league (their mail is read, not quarantined)."""
    if session.exec(select(LeagueMember.id).where(LeagueMember.address == address.lower())).first() is not None:
        return True
    return session.exec(select(League.id).where(League.referee_address == address.lower())).first() is not None


def rounds(session: Session, league_id: str) -> list[LeagueRound]:
    return list(session.exec(select(LeagueRound).where(LeagueRound.league_id == league_id)
                             .order_by(col(LeagueRound.number))))


def round_of(session: Session, league_id: str, number: int) -> LeagueRound | None:
    return session.exec(select(LeagueRound).where(LeagueRound.league_id == league_id,
                                                  LeagueRound.number == number)).first()


def games(session: Session, league_id: str, round_number: int | None = None) -> list[LeagueGame]:
    query = select(LeagueGame).where(LeagueGame.league_id == league_id)
    if round_number is not None:
        query = query.where(LeagueGame.round == round_number)
    return list(session.exec(query.order_by(col(LeagueGame.round), col(LeagueGame.id))))


def game_by_game_id(session: Session, game_id: str) -> LeagueGame | None:
    return session.exec(select(LeagueGame).where(LeagueGame.game_id == game_id)).first()


def running_games_of(session: Session, member_ids: Iterable[int]) -> int:
    """How many unfinished league games these member rows play in (a reserve's load)."""
    ids = list(member_ids)
    rows = session.exec(select(LeagueGame).where(LeagueGame.result == "pending",
                                                 col(LeagueGame.first_id).in_(ids) | col(LeagueGame.second_id)
                                                 .in_(ids)))
    return len(list(rows))


def ratings(session: Session, addresses: Iterable[str], scope: str) -> dict[str, Rating]:
    wanted = list(addresses)
    rows = session.exec(select(Rating).where(col(Rating.address).in_(wanted), Rating.scope == scope))
    return {row.address: row for row in rows}


def all_ratings(session: Session, scope: str) -> list[Rating]:
    return list(session.exec(select(Rating).where(Rating.scope == scope).order_by(col(Rating.rating).desc())))


def rating_row(session: Session, address: str, scope: str) -> Rating:
    """The member's rating row for `scope`, created at the defaults if there is none yet."""
    row = session.exec(select(Rating).where(Rating.address == address, Rating.scope == scope)).first()
    if row is None:
        row = Rating(address=address, scope=scope)
        session.add(row)
    return row


def reliability(session: Session, address: str) -> Reliability:
    """The member's ledger, created empty if there is none yet."""
    row = session.get(Reliability, address)
    if row is None:
        row = Reliability(address=address)
        session.add(row)
    return row


def ledgers(session: Session, addresses: Iterable[str]) -> dict[str, Reliability]:
    rows = session.exec(select(Reliability).where(col(Reliability.address).in_(list(addresses))))
    return {row.address: row for row in rows}


def offers(session: Session, league_id: str, status: str | None = None) -> list[ReserveOffer]:
    query = select(ReserveOffer).where(ReserveOffer.league_id == league_id)
    if status is not None:
        query = query.where(ReserveOffer.status == status)
    return list(session.exec(query.order_by(col(ReserveOffer.id))))


def offer_for_seat(session: Session, league_game_id: int, role: str) -> ReserveOffer | None:
    return session.exec(select(ReserveOffer).where(ReserveOffer.league_game_id == league_game_id,
                                                   ReserveOffer.role == role)
                        .order_by(col(ReserveOffer.id).desc())).first()
