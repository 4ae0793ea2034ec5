"""The static league page (issue 15): standings, every round's pairings with each game's title, status
and a link to its archive, the reliability ledger, and the `.ics` calendars, written into one
directory that opens from disk (like the game archive, service/archive_html.py).  A league of several
games shows each member's rating in each game beside the overall one."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment
from sqlmodel import Session

from moderator.clock import Clock, as_utc
from moderator.league.letters import when
from moderator.league.model import LeagueError
from moderator.league.report import LeagueView, build_view, summary
from moderator.league.schedule import Deadline, calendar
from moderator.league.standings import Row
from moderator.registry import Registry
from moderator.render.texts import render
from moderator.service.archive_html import HtmlArchive
from moderator.store import games as stored_games
from moderator.store import leagues as stored
from moderator.store.db import Database
from moderator.store.league_tables import LeagueMember, Rating
from moderator.store.models import Game

TIE_NAMES = {"buchholz": "Buchholz", "sonneborn-berger": "S-B", "head-to-head": "H2H", "wins": "Wins"}


def calendar_name(member: LeagueMember) -> str:
    """A member's calendar file: not guessable from the member's number alone."""
    tag = hashlib.sha256(f"{member.league_id}/{member.address}".encode()).hexdigest()[:10]
    return f"calendars/{member.id}-{tag}.ics"


class LeaguePage:
    """Writes a league's page; needs the database, the games, the templates, the HTML archive (each
    finished game's archive is linked from the page) and the clock."""

    def __init__(self, database: Database, registry: Registry, environment: Environment, archive: HtmlArchive,
                 clock: Clock):
        self.database = database
        self.registry = registry
        self.environment = environment
        self.archive = archive
        self.clock = clock

    def write(self, league_id: str, out: Path) -> Path:
        """Write the page of `league_id` into `out`; returns its index.html.  Raises LeagueError for an
        unknown league."""
        out.mkdir(parents=True, exist_ok=True)
        with self.database.session() as session:
            league = stored.league(session, league_id)
            if league is None:
                raise LeagueError(f"there is no league '{league_id}'")
            view = build_view(session, self.registry, league)
            calendars = self._calendars(session, view)
        links = self._archives(view, out)
        (out / "calendars").mkdir(exist_ok=True)
        for name, feed in calendars.items():
            (out / name).write_bytes(feed)
        index = out / "index.html"
        index.write_text(render(self.environment, "league/index.html.j2", **self._context(view, links)))
        return index

    def _archives(self, view: LeagueView, out: Path) -> dict[str, str]:
        """Each finished game's archive (written once), linked from the page by its game id."""
        links = {}
        for line in view.games:
            if line.game_id is None:
                continue
            target = out / "games" / line.game_id
            if line.status == "over" and not (target / "index.html").exists():
                self.archive.write(line.game_id, target)
            if (target / "index.html").exists():
                links[line.game_id] = f"games/{line.game_id}/index.html"
        return links

    def _context(self, view: LeagueView, links: dict[str, str]) -> dict[str, Any]:
        info = summary(view)
        rounds = []
        for number in range(1, view.league.current_round + 1):
            held = next((r for r in view.rounds if r.number == number), None)
            games = [dict(vars(line), link=links.get(line.game_id or ""), deadline=when(line.deadline)
                          if line.deadline else "") for line in view.round_games(number)]
            plays = view.plays(number)
            rounds.append({"number": number, "current": number == view.league.current_round
                           and view.league.status == "running", "games": games,
                           "title": plays.title, "sides": [_side_name(side) for side in plays.sides],
                           "starts": when(as_utc(held.starts_at)) if held else "",
                           "ends": when(as_utc(held.ends_at)) if held else ""})
        rated = list(view.game_titles.items()) if view.several else []
        return {"info": info, "sides": [_side_name(side) for side in view.sides],
                "rows": [self._row(view, row) for row in view.table],
                "rated_games": rated,
                "tie_names": TIE_NAMES, "rounds": list(reversed(rounds)),
                "ladder": [view.name(m) for m in view.ladder] if view.league.format == "ladder" else [],
                "reliability": self._ledger(view), "written": when(self.clock.now()),
                "signup_deadline": when(as_utc(view.league.signup_deadline))}

    @staticmethod
    def _row(view: LeagueView, row: Row) -> dict[str, Any]:
        member = view.members[row.member_id]
        rating = view.ratings.get(member.address)
        breaks = [t for t in view.league.tie_breaks.split(",") if t]
        return {"place": row.place, "name": view.name(row.member_id), "points": f"{row.points:g}",
                "record": f"{row.wins}-{row.draws}-{row.losses}", "left": member.status in ("withdrawn", "removed"),
                "breaks": [f"{row.tie_breaks.get(b, 0.0):g}" for b in breaks],
                "sides": [row.side_record(side) for side in view.sides],
                "rating": _rating_text(view, row.member_id, rating),
                "game_ratings": [_rating_text(view, row.member_id, view.game_ratings[engine].get(member.address),
                                              engine) for engine in view.game_ratings] if view.several else []}

    @staticmethod
    def _ledger(view: LeagueView) -> list[dict[str, Any]]:
        lines = []
        for member in view.members.values():
            ledger = view.ledgers.get(member.address)
            average = ledger.average_hours if ledger else None
            lines.append({"name": member.name or member.address, "reserve": member.status == "reserve",
                          "games": ledger.games if ledger else 0, "met": ledger.answers if ledger else 0,
                          "missed": ledger.missed if ledger else 0, "dropped": ledger.dropped if ledger else 0,
                          "average": f"{average:.1f} h" if average is not None else "-",
                          "calendar": calendar_name(member)})
        return lines

    def _calendars(self, session: Session, view: LeagueView) -> dict[str, bytes]:
        """The league's calendar of round ends, and each member's with their games' deadlines too."""
        stamp = self.clock.now()
        league = view.league
        rounds = [Deadline(f"{league.id}-round-{r.number}@moderator", _utc(r.ends_at),
                           f"{league.name}: round {r.number} ends", f"Round {r.number} plays "
                           f"{view.plays(r.number).title}.") for r in view.rounds]
        feeds = {"league.ics": calendar(league.name, rounds, stamp)}
        for member in view.members.values():
            mine = list(rounds) + self._game_deadlines(session, view, member)
            feeds[calendar_name(member)] = calendar(f"{league.name}: {member.name or member.address}", mine, stamp)
        return feeds

    @staticmethod
    def _game_deadlines(session: Session, view: LeagueView, member: LeagueMember) -> list[Deadline]:
        """Every open decision's deadline in the member's running games of the league."""
        deadlines = []
        for line in view.games:
            if line.game_id is None or line.status in ("over", "bye"):
                continue
            game = session.get(Game, line.game_id)
            if game is None or game.status != "running":
                continue
            for seat in stored_games.seats_of_address(session, member.address):
                if seat.game_id != game.id:
                    continue
                for key, due in json.loads(seat.deadlines_json or "{}").items():
                    deadlines.append(Deadline(f"{game.id}-{seat.role}-{key}@moderator",
                                              _utc(datetime.fromisoformat(due)),
                                              f"{line.title}, {game.id}: your {seat.role} orders are due",
                                              f"Decision {key}"))
        return deadlines


def _rating_text(view: LeagueView, member_id: int, rating: Rating | None, engine: str | None = None) -> str:
    """A member's Glicko-2 rating and deviation, or a team's OpenSkill strength (league/report.py), overall;
    in one game (`engine`) the figure alone, so that a column a game keeps the table narrow."""
    if view.teams:
        skill = view.team_skill(member_id, engine)
        return "-" if skill is None else f"{skill:.1f}" if engine else f"{skill:.1f} (OpenSkill)"
    if not rating or not rating.games:
        return "-"
    return f"{rating.rating:.0f}" if engine else f"{rating.rating:.0f} ± {rating.deviation:.0f}"


def _side_name(side: str) -> str:
    """A side or a seat as a heading: "soviet_guards" reads "Soviet Guards", "north/red" "North/Red"."""
    return side.replace("_", " ").title()


def _utc(moment: datetime) -> datetime:
    stamped = as_utc(moment)
    assert stamped is not None
    return stamped
