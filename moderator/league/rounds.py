"""A league's rounds (issue 15), run by the same jobs as the games.

When the sign-up closes the members are seeded (the referee's seeds first, then by club rating) and
round 1 is paired.  Each round's games are created through the lobby at the round's start, in the
game the league's schedule gives the round (league/games.py), so every player gets the house's
invitation; a round ends when all its games have ended, or when its time runs out (the league's
declared policy then decides the games still running, by the score of their own game's engine).
At a round's end the ratings are updated (for the round's game and overall), every member is
mailed the standings, and the next round is paired, or the league is over.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from statistics import fmean

from sqlmodel import Session

from moderator.clock import Clock, as_utc
from moderator.league import pairing, teams
from moderator.league.botseats import is_bot
from moderator.league.games import Seating, game_of_round, seating_of, seating_of_game, team_size
from moderator.league.letters import Letters
from moderator.league.model import Entrant, LeagueError, Pairing
from moderator.league.office import LeagueOffice, unreliable
from moderator.league.outcomes import finished_result, record_ledger, result_of, score_at_timeout, stop_game
from moderator.league.ratings import OVERALL, Glicko, RatedGame, Skill, glicko_period, team_game
from moderator.league.report import build_view, played_of
from moderator.league.reserves import Reserves
from moderator.league.schedule import round_end
from moderator.registry import Registry
from moderator.service.games import CreatedGame
from moderator.service.notices import Notices
from moderator.service.table import load_table
from moderator.store import leagues as stored
from moderator.store.db import Database
from moderator.store.league_tables import League, LeagueGame, LeagueMember, LeagueRound
from moderator.store.models import Game

#: Creates a game and mails its invitations (the lobby's create_game).
GameMaker = Callable[..., CreatedGame]


class RoundKeeper:
    """Starts, watches and closes rounds; needs the database, the clock, the games, the lobby's game
    maker, the notices, the league office, the reserves and the letters; `on_round_end` is told each
    league whose round ended (the league page is written then)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, make_game: GameMaker,
                 notices: Notices, office: LeagueOffice, reserves: Reserves, letters: Letters,
                 on_round_end: Callable[[str], object] | None = None):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.make_game = make_game
        self.notices = notices
        self.office = office
        self.reserves = reserves
        self.letters = letters
        self.on_round_end = on_round_end

    def run_due(self) -> list[str]:
        """Start the leagues whose sign-up closed and move every running league on; returns what happened."""
        now = self.clock.now()
        with self.database.session() as session:
            starting = [lg.id for lg in stored.leagues_with_status(session, ["signup"]) if self.office.is_due(lg, now)]
            running = [lg.id for lg in stored.leagues_with_status(session, ["running"])]
        done = []
        for league_id in starting:
            done += self.begin(league_id, now)
        for league_id in running:
            done += self.advance(league_id, now)
        return done

    # ------------------------------------------------------------------ the start

    def begin(self, league_id: str, now: datetime) -> list[str]:
        """Seed the members (and form the teams of a game of teams) and pair round 1; a league with too few
        members for two sides waits a day more."""
        with self.database.session() as session:
            league = self._league(session, league_id)
            active = stored.members(session, league_id, ["active"])
            size = team_size(self.registry, league)
            if len(active) < 2 * size:
                league.signup_deadline = now + timedelta(days=1)
                session.add(league)
                self.letters.to_referee(session, league, "sign-up extended", [
                    f"League {league.name} has {len(active)} member(s); it needs {2 * size} to start. "
                    f"The sign-up stays open one more day."])
                return [f"{league_id}: too few members, sign-up extended"]
            ratings = stored.ratings(session, [m.address for m in active], OVERALL)
            active.sort(key=lambda m: (m.seed or 10**6, -(ratings[m.address].rating if m.address in ratings
                                                           else 1500.0), m.id))
            for seed, member in enumerate(active, start=1):
                member.seed = seed
                session.add(member)
            if size > 1:
                active = self._form_teams(session, league, active, size)
            if league.format in ("round-robin", "double-round-robin"):
                league.rounds = len(pairing.round_robin([m.id for m in active if m.id],
                                                        league.format == "double-round-robin"))
            league.ladder_json = json.dumps([m.id for m in active])
            league.status = "running"
            self._pair(session, league, 1, now)
        self._open_games(league_id)
        return [f"{league_id}: round 1 started"]

    def _form_teams(self, session: Session, league: League, seeded: list[LeagueMember], size: int
                    ) -> list[LeagueMember]:
        """Teams by a snake draft over the seeds (league/teams.py); members left over become reserves.
        Returns the captains, who stand for their teams, best team first."""
        formed, left = teams.form([m.id for m in seeded if m.id is not None], size)
        league.teams_json = json.dumps(formed)
        by_id = {m.id: m for m in seeded}
        for member_id in left:
            member = by_id[member_id]
            member.status, member.reserve = "reserve", True
            session.add(member)
            self.letters.post(session, league, member.address, "you are a reserve", [
                f"League {league.name} plays in teams of {size}, and the members did not divide evenly: you "
                f"are a reserve, first to be offered a seat a team member leaves."])
        names = [" & ".join(by_id[i].name or by_id[i].address for i in team) for team in formed]
        self.letters.to_referee(session, league, "teams formed", [
            f"League {league.name} plays in teams of {size}: {'; '.join(names)}."])
        return [by_id[team[0]] for team in formed]

    def _league(self, session: Session, league_id: str) -> League:
        league = stored.league(session, league_id, for_update=True)
        if league is None:
            raise LeagueError(f"there is no league '{league_id}'")
        return league

    def _pairings(self, session: Session, league: League, number: int) -> list[Pairing]:
        """The format's pairings for round `number`."""
        if league.format in ("round-robin", "double-round-robin"):
            captains = teams.teams_of(league)
            starters = sorted((m for m in stored.members(session, league.id) if m.seed and m.status != "reserve"
                               and (not captains or m.id in captains)), key=lambda m: m.seed)
            schedule = pairing.round_robin([m.id for m in starters if m.id], league.format == "double-round-robin")
            return schedule[number - 1]
        if league.format == "ladder":
            return pairing.ladder_round(json.loads(league.ladder_json), number)
        pairings = pairing.swiss_round(self._entrants(session, league), played_of(stored.games(session, league.id)))
        return self._preferred(session, league, pairings)

    def _entrants(self, session: Session, league: League) -> list[Entrant]:
        """Who a Swiss round pairs: the active members, or the teams with a member still active (a team's
        rating the mean of its members', unreliable if any member is)."""
        members = {m.id: m for m in stored.members(session, league.id) if m.id is not None}
        formed = teams.teams_of(league)
        units = [m for m in members.values() if m.status == "active"] if not formed else \
            [members[c] for c, team in formed.items() if any(members[i].status == "active" for i in team)]
        addresses = {u.id: [members[i].address for i in teams.unit(formed, u.id or 0)] for u in units}
        everyone = [a for team in addresses.values() for a in team]
        ratings = stored.ratings(session, everyone, OVERALL)
        doubtful = unreliable(session, league, everyone)
        return [Entrant(u.id, u.seed or 10_000 + u.id,
                        fmean(ratings[a].rating if a in ratings else 1500.0 for a in addresses[u.id]),
                        not doubtful.intersection(addresses[u.id])) for u in units if u.id is not None]

    def _preferred(self, session: Session, league: League, pairings: Sequence[Pairing]) -> list[Pairing]:
        """In round 1 (no sides to even out yet) the members' preferred sides decide who plays which: each
        member's first wish that round 1's game has (a member may name sides of every game of the league)."""
        if league.current_round > 0:
            return list(pairings)
        sides = seating_of(self.registry, league, 1).names
        wishes = {m.id: next((side for side in m.sides.split(",") if side in sides), "")
                  for m in stored.members(session, league.id)}
        out = []
        for p in pairings:
            if p.second is not None and (wishes[p.first] == sides[1] or wishes[p.second] == sides[0]) \
                    and wishes[p.first] != sides[0] and wishes[p.second] != sides[1]:
                p = Pairing(p.second, p.first)
            out.append(p)
        return out

    def _pair(self, session: Session, league: League, number: int, now: datetime) -> None:
        """Pair round `number` and keep its rows; a pairing with a member who left is forfeited to the other."""
        pairings = self._pairings(session, league, number)
        league.current_round = number
        session.add(league)
        session.add(LeagueRound(league_id=league.id, number=number, starts_at=now,
                                ends_at=round_end(now, league.round_days)))
        members = stored.members(session, league.id)
        left = {m.id for m in members if m.status in ("withdrawn", "removed")}
        formed = teams.teams_of(league)
        gone = {m.id for m in members if m.id is not None and all(i in left for i in teams.unit(formed, m.id))}
        for p in pairings:
            row = LeagueGame(league_id=league.id, round=number, first_id=p.first, second_id=p.second)
            if p.second is None:
                row.result, row.how, row.finished_at = "bye", "bye", now
            elif p.first in gone or p.second in gone:
                row.result = "draw" if p.first in gone and p.second in gone else \
                    "second" if p.first in gone else "first"
                row.how, row.finished_at = "forfeit", now
            session.add(row)
        session.flush()

    def _open_games(self, league_id: str) -> None:
        """Create the games of the current round that have none yet (idempotent), then mail everyone."""
        with self.database.session() as session:
            league = self._league(session, league_id)
            rows = [r for r in stored.games(session, league_id, league.current_round)
                    if r.game_id is None and r.result == "pending"]
            members = {m.id: m for m in stored.members(session, league_id)}
        if not rows:
            return
        game = game_of_round(league, league.current_round)
        seating = seating_of_game(self.registry, game)
        formed = teams.teams_of(league)
        secrets = {}
        settings: dict[str, object] = {}
        if league.turn_hours:
            settings["deadline_hours"] = {"phase": league.turn_hours, "setup": league.turn_hours}
        if league.grace_minutes is not None:  # the league's own grace after each deadline of its games
            settings["grace_minutes"] = league.grace_minutes
        for row in rows:
            first, second = ([members[i].address for i in teams.unit(formed, member_id)]
                             for member_id in (row.first_id, row.second_id or 0))
            created = self.make_game(game.engine, game.scenario, game.options,
                                     addresses=seating.seats(first, second),
                                     referee_address=league.referee_address, settings=settings)
            secrets[created.game_id] = created.referee_secret
            with self.database.session() as session:
                stored_row = session.get(LeagueGame, row.id)
                assert stored_row is not None
                stored_row.game_id = created.game_id
                session.add(stored_row)
        with self.database.session() as session:
            self._announce(session, self._league(session, league_id), secrets)

    def _announce(self, session: Session, league: League, secrets: dict[str, str]) -> None:
        view = build_view(session, self.registry, league)
        number = league.current_round
        current = stored.round_of(session, league.id, number)
        assert current is not None
        sides = view.plays(number).sides
        for row in stored.games(session, league.id, number):
            for unit_id, side, other in ((row.first_id, sides[0], row.second_id),
                                         (row.second_id, sides[1], row.first_id)):
                for member_id in teams.unit(view.teams, unit_id) if unit_id is not None else []:
                    if view.members[member_id].status not in ("active",):
                        continue
                    game_id = row.game_id if row.second_id is not None else None
                    self.letters.round_started(session, view, number, view.members[member_id], game_id, side,
                                               view.name(other), current.ends_at)
        active = [m for m in view.members.values() if m.status == "active"]
        doubtful = unreliable(session, league, [m.address for m in active])
        self.letters.referee_round(session, view, number, secrets,
                                   sorted(view.name(m.id) for m in active if m.address in doubtful))

    # ------------------------------------------------------------------ while a round runs

    def advance(self, league_id: str, now: datetime) -> list[str]:
        """Collect results, handle dropouts and the round's time; close the round when every game is decided."""
        self._open_games(league_id)  # games a crash left uncreated at the round's start
        with self.database.session() as session:
            league = self._league(session, league_id)
            self._collect(session, league, now)
            self.reserves.check(session, league, now)
            current = stored.round_of(session, league_id, league.current_round)
            assert current is not None
            ends_at = as_utc(current.ends_at)
            if ends_at is not None and ends_at <= now:
                self._time_out(session, league, now)
            if any(row.result == "pending" for row in stored.games(session, league_id, league.current_round)):
                return []
            number = league.current_round
            self._close(session, league, current, now)
            opened = league.status == "running"
        if opened:
            self._open_games(league_id)
        if self.on_round_end is not None:
            self.on_round_end(league_id)
        return [f"{league_id}: round {number} ended"]

    def _collect(self, session: Session, league: League, now: datetime) -> None:
        """Results of the round's games that ended; their players' reliability ledgers."""
        seating = seating_of(self.registry, league, league.current_round)
        sides = seating.names
        formed = teams.teams_of(league)
        for row in stored.games(session, league.id, league.current_round):
            if row.game_id is None or row.finished_at is not None:
                continue
            game = session.get(Game, row.game_id)
            if game is None or game.status != "over":
                continue
            table = load_table(session, self.registry, row.game_id)
            if row.result == "pending":
                row.result = finished_result(table, sides) or "draw"
                row.how = row.how or "played"
            row.finished_at = now
            session.add(row)
            members = {m.id: m.address for m in stored.members(session, league.id)}
            holders = seating.seats(*([members[i] for i in teams.unit(formed, unit_id)]
                                      for unit_id in (row.first_id, row.second_id or 0)))
            everyone = {a for a in set(holders.values()) | {seat.address for seat in table.players()} if not is_bot(a)}
            ledger = {address: stored.reliability(session, address) for address in everyone if address}
            record_ledger(ledger, table, holders)
            for entry in ledger.values():
                session.add(entry)

    def _time_out(self, session: Session, league: League, now: datetime) -> None:
        """The round's time is out: each game still running is decided by the declared policy (the score
        is the round's game's own: `score_at_timeout` asks the engine the game was made with)."""
        sides = seating_of(self.registry, league, league.current_round).names
        for row in stored.games(session, league.id, league.current_round):
            if row.result != "pending" or row.game_id is None or row.waiting:
                continue
            table = load_table(session, self.registry, row.game_id, for_update=True)
            outcome = score_at_timeout(table) if league.timeout == "score" else None
            if outcome is not None:
                stop_game(table, self.notices, outcome.winner, "the round's time ran out; the game's score at "
                          f"this point decides it: {outcome.reason}", now)
                row.result, row.how = result_of(outcome.winner, sides), "score"
                session.add(row)
            else:
                self.reserves.await_adjudication(table, league, row, "the round's time ran out")

    def record_result(self, session: Session, league: League, game_id: str, side: str, now: datetime) -> str:
        """The referee's RESULT for a league game; raises LeagueError for a game or side not in the league."""
        row = stored.game_by_game_id(session, game_id.lower())
        if row is None or row.league_id != league.id:
            raise LeagueError(f"{game_id} is not a game of league {league.id}")
        sides = seating_of(self.registry, league, row.round).names
        winner = None if side.lower() == "draw" else side.lower()
        if winner is not None and winner not in sides:
            raise LeagueError(f"RESULT needs a side ({', '.join(sides)}) or DRAW")
        table = load_table(session, self.registry, row.game_id or "", for_update=True)
        if table.game.status != "over":
            stop_game(table, self.notices, winner, "adjudicated by the league's referee", now)
        row.result, row.how, row.waiting = result_of(winner, sides), "adjudicated", ""
        session.add(row)
        verdict = f"{winner} wins" if winner else "a draw"
        return f"{game_id}: {verdict}, recorded; the round closes when all its games are decided."

    # ------------------------------------------------------------------ the end of a round

    def _close(self, session: Session, league: League, current: LeagueRound, now: datetime) -> None:
        """Rate the round, move the ladder, mail the standings; pair the next round or end the league."""
        self._collect(session, league, now)
        current.status = "over"
        session.add(current)
        rows = stored.games(session, league.id, current.number)
        self._rate(session, league, current.number, rows, now)
        if league.format == "ladder":
            league.ladder_json = json.dumps(pairing.ladder_after(json.loads(league.ladder_json), played_of(rows)))
        final = current.number >= league.rounds
        if final:
            league.status = "over"
        else:
            self._pair(session, league, current.number + 1, now)
        session.add(league)
        session.flush()
        self.letters.standings(session, build_view(session, self.registry, league, through=current.number),
                               current.number, final)

    def _rate(self, session: Session, league: League, number: int, rows: Sequence[LeagueGame], now: datetime) -> None:
        """One Glicko-2 rating period per round, for the round's game and overall (OpenSkill for games of
        teams); byes, forfeits and games a bot finished are not rated."""
        members: dict[int | None, LeagueMember] = {m.id: m for m in stored.members(session, league.id)}
        game = game_of_round(league, number)
        seating = seating_of_game(self.registry, game)
        sides = seating.names
        rated = [row for row in rows if row.second_id is not None and row.how not in ("forfeit", "bye", "bot")
                 and row.result != "pending"]
        if seating.team_size > 1:
            self._rate_teams(session, league, game.engine, seating, rated, members, now)
            return
        games = []
        for row in rated:
            substitutes = json.loads(row.substitutes_json)
            first = substitutes.get(sides[0], members[row.first_id].address)
            second = substitutes.get(sides[1], members[row.second_id].address)
            games.append(RatedGame(first, second, {"first": 1.0, "second": 0.0}.get(row.result, 0.5)))
        players = {g.first for g in games} | {g.second for g in games}
        for scope in (game.engine, OVERALL):
            kept = {address: stored.rating_row(session, address, scope) for address in players}
            before = {a: Glicko(r.rating, r.deviation, r.volatility) for a, r in kept.items()}
            for address, rating in glicko_period(before, games).items():
                held = kept[address]
                held.rating, held.deviation, held.volatility = rating.rating, rating.deviation, rating.volatility
                held.games += sum(1 for g in games if address in (g.first, g.second))
                held.updated_at = now
                session.add(held)

    def _rate_teams(self, session: Session, league: League, engine: str, seating: Seating,
                    rows: Sequence[LeagueGame], members: dict[int | None, LeagueMember], now: datetime) -> None:
        """Each game of teams rated with OpenSkill, every seat's player (a reserve who took one over
        included) for the game (`engine`) and overall."""
        formed = teams.teams_of(league)
        for row in rows:
            seats = seating.seats(*([members[i].address for i in teams.unit(formed, unit_id)]
                                    for unit_id in (row.first_id, row.second_id or 0)))
            seats |= json.loads(row.substitutes_json)
            ranks = {"first": [1, 2], "second": [2, 1]}.get(row.result, [1, 1])
            for scope in (engine, OVERALL):
                kept = [[stored.rating_row(session, seats[role], scope) for role in side] for side in seating.roles]
                after = team_game([[Skill(r.mu, r.sigma) for r in side] for side in kept], ranks)
                for held, skill in zip((r for side in kept for r in side), (k for side in after for k in side),
                                       strict=True):
                    held.mu, held.sigma, held.games, held.updated_at = skill.mu, skill.sigma, held.games + 1, now
                    session.add(held)
