"""The reserve pool and the reliability ledger (issue 15).

A seat is offered to reserves when its player leaves the league (withdraws or is removed) or passes
the league's NMR limit (that many deadlines missed in the game).  The offer goes to the reserves with
room for another game (their AVAILABILITY) ordered by how close their rating is to the leaving
player's, three at a time; the first to ACCEPT before the offer's deadline takes the seat (a new
address and secret: the old secret dies, through the referee's REPLACE) and everyone concerned is
told.  Nobody by the deadline: the league's declared fallback, a forfeit of the seat or the
referee's adjudication, or the game's bot playing the seat on (league/botseats.py), the bot of the
game the seat is in, whichever of the league's games its round plays.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlmodel import Session

from moderator.clock import Clock, as_utc
from moderator.league import teams
from moderator.league.botseats import BotSeats, is_bot
from moderator.league.games import seating_of
from moderator.league.letters import Letters
from moderator.league.model import LeagueError
from moderator.league.outcomes import missed_since, result_of, stop_game
from moderator.league.ratings import OVERALL
from moderator.registry import Registry
from moderator.service.controls import Controls
from moderator.service.notices import Notices
from moderator.service.table import Table, load_table
from moderator.service.turns import TurnRunner
from moderator.store import games as stored_games
from moderator.store import leagues as stored
from moderator.store.league_tables import League, LeagueGame, LeagueMember, ReserveOffer
from moderator.store.models import Game

OFFERED_AT_ONCE = 3


class Reserves:
    """Offers seats to reserves and hands them over; needs the clock, the games, the notices, the
    league's letters, the referee controls (REPLACE, PAUSE), the turn runner (the new holder's report) and
    the bot seats (the "bot" fallback)."""

    def __init__(self, clock: Clock, registry: Registry, notices: Notices, letters: Letters, controls: Controls,
                 turns: TurnRunner, bots: BotSeats):
        self.clock = clock
        self.registry = registry
        self.notices = notices
        self.letters = letters
        self.controls = controls
        self.turns = turns
        self.bots = bots

    # ------------------------------------------------------------------ when a seat is left

    def check(self, session: Session, league: League, now: datetime) -> None:
        """Offer the seats whose players passed the NMR limit; apply the fallback to expired offers."""
        roles = seating_of(self.registry, league, league.current_round).every_role
        for row in stored.games(session, league.id, league.current_round):
            if row.result != "pending" or row.game_id is None or row.waiting:
                continue
            game = session.get(Game, row.game_id)
            if game is None or game.status != "running":
                continue
            for role in roles:
                latest = stored.offer_for_seat(session, row.id or 0, role)
                if latest is not None and latest.status == "open":
                    continue
                since = as_utc(latest.created_at) if latest is not None else None
                seat = stored_games.seat_of_role(session, game.id, role)
                if seat is not None and is_bot(seat.address):
                    continue  # the bot plays on whatever it misses: the seat was already given up
                if missed_since(session, game.id, role, since) >= league.nmr_limit:
                    why = f"its player missed {league.nmr_limit} deadlines"
                    self.offer(session, league, row, role, seat.address if seat else "", why, now)
        for offer in stored.offers(session, league.id, "open"):
            expires = as_utc(offer.expires_at)
            if expires is not None and expires <= now:
                self._expire(session, league, offer, now)

    def vacate(self, session: Session, league: League, member: LeagueMember, now: datetime) -> list[str]:
        """A member left: offer each seat they hold in a running game; returns the games."""
        games = []
        seating = seating_of(self.registry, league, league.current_round)
        formed = teams.teams_of(league)
        place = teams.team_with(formed, member.id or 0) or (member.id, 0)  # (who is paired, the member's seat)
        for row in stored.games(session, league.id, league.current_round):
            if row.result != "pending" or row.game_id is None or place[0] not in (row.first_id, row.second_id):
                continue
            role = seating.roles[0 if row.first_id == place[0] else 1][place[1]]
            self.offer(session, league, row, role, member.address, "its player left the league", now)
            games.append(row.game_id)
        return games

    def offer(self, session: Session, league: League, row: LeagueGame, role: str, leaving: str, why: str,
              now: datetime) -> ReserveOffer:
        """Offer the seat to the best-placed reserves, or apply the fallback at once when there are none."""
        ledger = stored.reliability(session, leaving)
        ledger.dropped += 1
        session.add(ledger)
        assert row.id is not None and row.game_id is not None
        offer = ReserveOffer(league_id=league.id, league_game_id=row.id, role=role, leaving=leaving,
                             created_at=now, expires_at=now + timedelta(hours=league.reserve_hours))
        chosen = self.candidates(session, league, row, leaving)[:OFFERED_AT_ONCE]
        offer.offered_to_json = json.dumps(chosen)
        session.add(offer)
        session.flush()
        assert offer.id is not None
        for address in chosen:
            self.letters.offer(session, league, address, offer.id, row.game_id, role, why, offer.expires_at)
        self.letters.to_referee(session, league, f"seat {role} of {row.game_id} offered", [
            f"The seat '{role}' of {row.game_id} is free ({why}); it was offered to "
            f"{', '.join(chosen) or 'nobody (no reserve has room)'}."])
        if not chosen:
            self._expire(session, league, offer, now)
        return offer

    def candidates(self, session: Session, league: League, row: LeagueGame, leaving: str) -> list[str]:
        """Reserves with room for another game, nearest in rating to the leaving player first."""
        table = load_table(session, self.registry, row.game_id or "")
        sitting = {seat.address for seat in table.players()} | {leaving}
        pool = [m for m in stored.members(session, league.id, ["active", "reserve"])
                if (m.reserve or m.status == "reserve") and m.address not in sitting]
        ratings = stored.ratings(session, [m.address for m in pool] + [leaving], OVERALL)
        target = ratings[leaving].rating if leaving in ratings else 1500.0
        roomy = [m for m in pool if m.id is not None and stored.running_games_of(session, [m.id]) < m.availability]
        roomy.sort(key=lambda m: (abs((ratings[m.address].rating if m.address in ratings else 1500.0) - target), m.id))
        return [m.address for m in roomy]

    # ------------------------------------------------------------------ answers and deadlines

    def accept(self, session: Session, league: League, member: LeagueMember, offer_id: int, now: datetime) -> str:
        """The reserve takes the seat; raises LeagueError when the offer is not theirs or no longer open."""
        offer = session.get(ReserveOffer, offer_id)
        if offer is None or offer.league_id != league.id or member.address not in json.loads(offer.offered_to_json):
            raise LeagueError(f"there is no offer {offer_id} for you in league {league.id}")
        if offer.status != "open":
            raise LeagueError(f"offer {offer_id} is closed: the seat was {offer.status}")
        row = session.get(LeagueGame, offer.league_game_id)
        assert row is not None and row.game_id is not None
        table = load_table(session, self.registry, row.game_id, for_update=True)
        answer = self.controls.apply(table, "REPLACE", f"{offer.role} {member.address}", source="league")
        offer.status, offer.taken_by = "taken", member.address
        session.add(offer)
        substitutes = json.loads(row.substitutes_json)
        substitutes[offer.role] = member.address
        row.substitutes_json = json.dumps(substitutes)
        session.add(row)
        if table.game.status == "running":
            self.turns.run(table, now, report_all=True)  # the new holder gets the situation at once
        self._tell_others(session, league, offer, member.address)
        return f"You now hold the seat '{offer.role}' in {row.game_id}: {answer}"

    def _tell_others(self, session: Session, league: League, offer: ReserveOffer, taker: str) -> None:
        for address in json.loads(offer.offered_to_json):
            if address != taker:
                self.letters.post(session, league, address, f"offer {offer.id} taken",
                                  [f"The seat of offer {offer.id} was taken by another reserve. Thank you."])
        self.letters.post(session, league, offer.leaving, "your seat was taken over",
                          [f"Your seat '{offer.role}' was taken over by a reserve; your secret there no longer works."])
        self.letters.to_referee(session, league, f"offer {offer.id} taken", [
            f"{taker} took over the seat '{offer.role}' (offer {offer.id}) from {offer.leaving}."])

    def _expire(self, session: Session, league: League, offer: ReserveOffer, now: datetime) -> None:
        """Nobody took the seat: forfeit it, leave the game to the referee, or hand the seat to the game's
        bot, as the league declared."""
        offer.status = "expired"
        session.add(offer)
        row = session.get(LeagueGame, offer.league_game_id)
        if row is None or row.game_id is None or row.result != "pending":
            return
        if league.fallback == "bot":
            self.bots.take_over(session, league, row, offer.role, now)
            return
        table = load_table(session, self.registry, row.game_id, for_update=True)
        seating = seating_of(self.registry, league, row.round)
        sides = seating.names
        if league.fallback == "forfeit":
            winner = seating.other_side(offer.role)
            stop_game(table, self.notices, winner, f"no reserve took over the seat '{offer.role}': it is forfeited",
                      now)
            row.result, row.how = result_of(winner, sides), "forfeit"
        else:
            self.await_adjudication(table, league, row, f"no reserve took over the seat '{offer.role}'")
        session.add(row)

    def await_adjudication(self, table: Table, league: League, row: LeagueGame, why: str) -> None:
        """Pause the game and ask the league's referee for its result."""
        row.waiting = "adjudication"
        table.session.add(row)
        if table.game.status == "running":
            self.controls.apply(table, "PAUSE", "", source="league")
        sides = " or ".join(seating_of(self.registry, league, row.round).names)
        self.letters.to_referee(table.session, league, f"adjudicate {table.game.id}", [
            f"Game {table.game.id} needs your adjudication: {why}.",
            f"Reply with 'LEAGUE {league.id}', 'ROLE referee', your league SECRET and "
            f"'RESULT {table.game.id} <{sides}|DRAW>'."])
