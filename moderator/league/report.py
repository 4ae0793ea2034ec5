"""A league as its members read it (issue 15): the standings with names, every round's pairings with
each game's title and status, ratings and reliability.  The standings mail and the league page both
show this.

The standings count every game of the league alike (a win is a point whichever game it was won in);
their side columns are seat positions, named by the sides that sit there in the league's games
("Axis/German" and "Soviet" for VMT and Narva), as the pairing evens them (league/games.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from statistics import fmean
from typing import Any

from sqlmodel import Session

from moderator.league.games import declared_games, game_of_round, seat_labels, seating_of_game, title_of
from moderator.league.model import Played
from moderator.league.ratings import OVERALL
from moderator.league.standings import Row, standings
from moderator.league.teams import teams_of, unit
from moderator.registry import Registry
from moderator.store import leagues as stored
from moderator.store.league_tables import League, LeagueGame, LeagueMember, LeagueRound, Rating, Reliability
from moderator.store.models import Game

RESULT_WORDS = {"first": "1-0", "second": "0-1", "draw": "½-½", "bye": "bye", "pending": ""}


@dataclass(frozen=True)
class RoundGame:
    """The game a round plays, as members read it: its id, its title and its two sides (first, second)."""

    engine: str
    title: str
    sides: tuple[str, str]


@dataclass
class GameLine:
    """One pairing as shown: who plays which side, the game, where it stands, and its result."""

    round: int
    first: str
    second: str | None
    game_id: str | None
    status: str  # the game's status and phase, "bye", or "adjudication awaited"
    result: str
    how: str
    deadline: datetime | None
    title: str = ""  # the game's title (a league of several games plays a different one from round to round)
    sides: tuple[str, str] = ("first", "second")  # the game's sides: `first` plays the first


@dataclass
class LeagueView:
    league: League
    title: str  # every game's title: "Von Manstein's Triumph and Across the Narva"
    sides: tuple[str, str]  # the seat positions, named by the sides that sit there (league/games.py)
    members: dict[int, LeagueMember]
    table: list[Row]
    rounds: list[LeagueRound]
    games: list[GameLine]
    ratings: dict[str, Rating]
    game_ratings: dict[str, dict[str, Rating]]  # by game id, then address
    game_titles: dict[str, str]  # by game id
    ledgers: dict[str, Reliability]
    ladder: list[int]
    teams: dict[int, list[int]] = field(default_factory=dict)  # by captain, in a league of teams
    schedule: dict[int, RoundGame] = field(default_factory=dict)  # the game of each round, by number

    def plays(self, number: int) -> RoundGame:
        """The game round `number` plays."""
        return self.schedule[max(number, 1)]

    @property
    def several(self) -> bool:
        """Whether the league plays more than one game (the page then shows a rating for each)."""
        return len(self.game_ratings) > 1

    def name(self, member_id: int | None) -> str:
        """A member's name, or a team's (its members' names) for the captain who stands for it."""
        if member_id is None:
            return "bye"
        return " & ".join(self.members[i].name or self.members[i].address for i in unit(self.teams, member_id))

    def team_skill(self, captain: int, engine: str | None = None) -> float | None:
        """A team's strength shown in the standings: its rated members' mean OpenSkill ordinal (μ − 3σ),
        overall or in one game (`engine`)."""
        ratings = self.ratings if engine is None else self.game_ratings[engine]
        held = [ratings[self.members[i].address] for i in unit(self.teams, captain)
                if self.members[i].address in ratings and ratings[self.members[i].address].games]
        return fmean(r.mu - 3.0 * r.sigma for r in held) if held else None

    def round_games(self, number: int) -> list[GameLine]:
        return [line for line in self.games if line.round == number]

    @property
    def in_play(self) -> list[LeagueMember]:
        """The members in the standings: everyone who was paired or may still be."""
        return [m for m in self.members.values() if m.status != "reserve"]


def played_of(rows: list[LeagueGame]) -> list[Played]:
    return [Played(row.round, row.first_id, row.second_id, row.result) for row in rows]  # type: ignore[arg-type]


def build_view(session: Session, registry: Registry, league: League, through: int | None = None) -> LeagueView:
    """Everything about `league` the mail and the page show; the standings count the rounds up to
    `through` (None: every result in, the current round's byes and finished games too)."""
    members = {m.id: m for m in stored.members(session, league.id) if m.id is not None}
    rows = stored.games(session, league.id)
    sides = seat_labels(registry, league)
    formed = teams_of(league)
    in_play = [(m.id, m.seed or 10_000 + m.id) for m in members.values() if m.status != "reserve" and m.id
               and (not formed or m.id in formed)]  # a team stands in the standings as its captain
    counted = [row for row in rows if through is None or row.round <= through]
    table = standings(in_play, played_of(counted), [t for t in league.tie_breaks.split(",") if t],  # type: ignore[misc]
                      sides)
    addresses = [m.address for m in members.values()]
    engines = list(dict.fromkeys(game.engine for game in declared_games(league)))
    view = LeagueView(league, titles(registry, league), sides, members, table,
                      stored.rounds(session, league.id), [], stored.ratings(session, addresses, OVERALL),
                      {engine: stored.ratings(session, addresses, engine) for engine in engines},
                      {engine: registry.get(engine).info.title for engine in engines},
                      stored.ledgers(session, addresses), json.loads(league.ladder_json), formed,
                      _schedule(registry, league))
    view.games = [_line(session, view, row) for row in rows]
    return view


def titles(registry: Registry, league: League) -> str:
    """Every game of the league by its title: "A", "A and B", "A, B and C"."""
    named = [title_of(registry, game) for game in declared_games(league)]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _schedule(registry: Registry, league: League) -> dict[int, RoundGame]:
    """The game of every round of the league (a round robin's count is known once it starts)."""
    schedule = {}
    for number in range(1, max(league.rounds, league.current_round, 1) + 1):
        game = game_of_round(league, number)
        schedule[number] = RoundGame(game.engine, title_of(registry, game), seating_of_game(registry, game).names)
    return schedule


def _line(session: Session, view: LeagueView, row: LeagueGame) -> GameLine:
    game = session.get(Game, row.game_id) if row.game_id else None
    if row.second_id is None:
        status = "bye"
    elif row.waiting == "adjudication":
        status = "adjudication awaited"
    elif game is None:
        status = "invitations follow"
    elif game.status == "over":
        status = "over"
    else:
        status = f"{game.status}, {game.phase_label}" if game.phase_label else game.status
    plays = view.plays(row.round)
    return GameLine(row.round, view.name(row.first_id), view.name(row.second_id) if row.second_id else None,
                    row.game_id, status, RESULT_WORDS.get(row.result, row.result), row.how,
                    game.next_deadline if game is not None and game.status == "running" else None,
                    plays.title, plays.sides)


def table_lines(view: LeagueView) -> list[str]:
    """The standings as fixed-width text lines (a mail is read in a monospaced font as often as not)."""
    breaks = [t for t in view.league.tie_breaks.split(",") if t]
    short = {"buchholz": "Buch", "sonneborn-berger": "S-B", "head-to-head": "H2H", "wins": "Wins"}
    width = max([len(view.name(r.member_id)) for r in view.table] + [6])
    head = f"{'#':>3}  {'Member':<{width}}  {'Pts':>4}  {'W-D-L':>7}" + "".join(f"  {short[b]:>5}" for b in breaks)
    labels = [side.replace("_", " ").title() for side in view.sides]  # "Axis/German" for a seat of two games
    widths = [max(9, len(label)) for label in labels]
    head += "".join(f"  {label:>{wide}}" for label, wide in zip(labels, widths, strict=True)) + "  Rating"
    lines = [head, "-" * len(head)]
    for row in view.table:
        member = view.members[row.member_id]
        rating = view.ratings.get(member.address)
        left = " (left)" if member.status in ("withdrawn", "removed") else ""
        line = (f"{row.place:>3}  {view.name(row.member_id):<{width}}  {_points(row.points):>4}  "
                f"{f'{row.wins}-{row.draws}-{row.losses}':>7}")
        line += "".join(f"  {_points(row.tie_breaks.get(b, 0.0)):>5}" for b in breaks)
        line += "".join(f"  {row.side_record(side):>{wide}}" for side, wide in zip(view.sides, widths, strict=True))
        skill = view.team_skill(row.member_id) if view.teams else None
        if view.teams:
            line += f"  {skill:6.1f}" if skill is not None else "       -"
        else:
            line += f"  {rating.rating:6.0f}" if rating is not None and rating.games else "       -"
        lines.append(line + left)
    return lines


def _points(value: float) -> str:
    whole = int(value)
    return f"{whole}½" if value - whole == 0.5 and whole else "½" if value == 0.5 else f"{value:g}"


def pairing_lines(view: LeagueView, number: int) -> list[str]:
    """A round's pairings as text: first side's member, second side's, the game's title, id and state."""
    lines = []
    for line in view.round_games(number):
        if line.second is None:
            lines.append(f"  {line.first}: bye (1 point)")
            continue
        first, second = (side.replace("_", " ").title() for side in line.sides)
        outcome = f"  {line.result}" if line.result else ""
        where = f"{line.game_id}, {line.status}" if line.game_id else line.status
        lines.append(f"  {line.first} ({first}) v {line.second} ({second}): {line.title}, {where}{outcome}")
    return lines


def summary(view: LeagueView) -> dict[str, Any]:
    """The league's declaration in words, for the mail and the page."""
    league = view.league
    return {"name": league.name, "id": league.id, "game": view.title, "format": league.format,
            "rounds": league.rounds, "round_days": league.round_days, "timeout": league.timeout,
            "tie_breaks": [t for t in league.tie_breaks.split(",") if t], "nmr_limit": league.nmr_limit,
            "fallback": league.fallback, "status": league.status, "current_round": league.current_round,
            "min_reliability": league.min_reliability, "grace_minutes": league.grace_minutes,
            "pair_reliability": league.pair_reliability}
