"""The league services wired together (issue 15): the App builds one `Leagues` from its collaborators
and hands its desk to the mailroom and its `run_due` to the jobs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jinja2 import Environment

from moderator.clock import Clock
from moderator.league.botseats import BotSeats
from moderator.league.letters import Letters
from moderator.league.mail import LeagueDesk
from moderator.league.office import LeagueOffice
from moderator.league.page import LeaguePage
from moderator.league.reserves import Reserves
from moderator.league.rounds import GameMaker, RoundKeeper
from moderator.registry import Registry
from moderator.service.archive_html import HtmlArchive
from moderator.service.controls import Controls
from moderator.service.notices import Notices
from moderator.service.turns import TurnRunner
from moderator.store.db import Database


class Leagues:
    """The office, the rounds, the reserves, the desk and the page of every league; needs the
    database, the clock, the games, the lobby's game maker, the notices, the referee controls, the
    turn runner, the templates, the HTML archive, the orders address, where pages are written, and the
    mailroom's door for the bot seats' mail (`receive`)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, make_game: GameMaker,
                 notices: Notices, controls: Controls, turns: TurnRunner, environment: Environment,
                 archive: HtmlArchive, orders_address: str, pages_dir: Path,
                 receive: Callable[[bytes], object] | None = None):
        self.pages_dir = pages_dir
        self.letters = Letters(notices, orders_address)
        self.office = LeagueOffice(database, clock, registry)
        self.bots = BotSeats(database, clock, registry, controls, turns, self.letters, orders_address, receive)
        self.reserves = Reserves(clock, registry, notices, self.letters, controls, turns, self.bots)
        self.page = LeaguePage(database, registry, environment, archive, clock)
        self.rounds = RoundKeeper(database, clock, registry, make_game, notices, self.office, self.reserves,
                                  self.letters, on_round_end=self.write_page)
        self.desk = LeagueDesk(clock, registry, self.office, self.rounds, self.reserves, self.letters)

    def run_due(self) -> list[str]:
        """Move the rounds on, then let the bot seats answer what their games asked."""
        done = self.rounds.run_due()
        played = self.bots.play()
        return done + ([f"bot seats sent {played} mail(s)"] if played else [])

    def write_page(self, league_id: str, out: Path | None = None) -> Path:
        """Write the league's page (by default under the data directory's leagues/<id>/)."""
        return self.page.write(league_id, out or self.pages_dir / league_id)
