"""A club for the league tests: a league of the Duel test game, members who write by mail, and a
referee; the clock is the app's injected ManualClock, moved to each next deadline."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from moderator.app import App
from moderator.core.contract import Outcome
from moderator.league.model import Declaration, DeclaredGame
from moderator.registry import Registry
from moderator.store import leagues as stored
from moderator.store.models import Game, Outbox
from tests.conftest import outbox_rows, text_of
from tests.mailmaker import player_mail
from tests.testgame.duel import DuelEngine

REFEREE = "ref@club.test"
SECRET = re.compile(r"Your league secret is ([A-Z0-9]{4}-[A-Z0-9]{4})")
INVITATION = re.compile(r"'JOIN ([A-Z0-9]{4}-[A-Z0-9]{4})'")


class ScoringDuel(DuelEngine):
    """Duel with a verdict on an unfinished game (more hit points is ahead), for the "score" time-out."""

    def score_now(self, state: dict[str, Any]) -> Outcome:
        hp = state["hp"]
        if hp["north"] == hp["south"]:
            return Outcome(None, "equal hit points when time ran out", dict(hp))
        return Outcome(max(hp, key=hp.get), "more hit points when time ran out", dict(hp))


def scoring_registry() -> Registry:
    return Registry([ScoringDuel()])


@dataclass
class Club:
    app: App
    league_id: str
    token: str
    referee_secret: str
    secrets: dict[str, str] = field(default_factory=dict)
    seen: int = 0  # outbox rows already read for invitations

    @classmethod
    def found(cls, app: App, league_id: str = "cup", engine: str = "duel", **declared) -> Club:
        """A league of `engine` (or of the `games` declared) open for sign-up."""
        declaration = Declaration(**{"name": "Duel Cup", "games": (DeclaredGame(engine),), "rounds": 3,
                                     "round_days": 10.0, "signup_days": 2.0, **declared})
        created = app.leagues.office.declare(declaration, league_id, REFEREE)
        return cls(app, league_id, created.signup_token, created.referee_secret)

    def join(self, address: str, extra: str = ""):
        outcome = self.app.receive(player_mail(address, f"JOIN LEAGUE {self.token}\nNAME {address.split('@')[0]}\n"
                                                        f"TZ Europe/Madrid\n{extra}"))
        if outcome.status == "joined":
            self.secrets[address] = SECRET.search(text_of(outcome.replies[0].raw)).group(1)
        return outcome

    def member(self, address: str, body: str):
        head = f"LEAGUE {self.league_id}\nSECRET {self.secrets[address]}\n"
        return self.app.receive(player_mail(address, head + body))

    def referee(self, body: str, secret: str | None = None):
        return self.app.receive(player_mail(REFEREE, f"LEAGUE {self.league_id}\nROLE referee\n"
                                                     f"SECRET {secret or self.referee_secret}\n{body}"))

    def answer_invitations(self, skip: frozenset[str] = frozenset()) -> int:
        """Each member takes the seat of every new invitation mailed to them (as a person would)."""
        rows = outbox_rows(self.app)
        answered = 0
        for row in rows[self.seen:]:
            token = INVITATION.search(text_of(row.raw))
            if token and row.recipient not in skip:
                outcome = self.app.receive(player_mail(row.recipient, f"JOIN {token.group(1)}\n"))
                assert outcome.status == "joined", outcome.reason
                answered += 1
        self.seen = len(rows)
        return answered

    def league(self):
        with self.app.db.session() as session:
            return stored.league(session, self.league_id)

    def games(self, round_number: int | None = None):
        with self.app.db.session() as session:
            return stored.games(session, self.league_id, round_number)

    def next_deadline(self):
        """The earliest moment anything in the league is due: a game's deadline or the round's end."""
        with self.app.db.session() as session:
            league = stored.league(session, self.league_id)
            moments = [league.signup_deadline] if league.status == "signup" else []
            current = stored.round_of(session, self.league_id, league.current_round)
            if current is not None:
                moments.append(current.ends_at)
            for row in stored.games(session, self.league_id, league.current_round):
                game = session.get(Game, row.game_id) if row.game_id else None
                if game is not None and game.next_deadline is not None and game.status == "running":
                    moments.append(game.next_deadline)
            for offer in stored.offers(session, self.league_id, "open"):
                moments.append(offer.expires_at)
        from moderator.clock import as_utc

        return min(as_utc(m) for m in moments) if moments else None

    def run(self, max_steps: int = 2000, skip: frozenset[str] = frozenset(), on_step=None) -> None:
        """Tick, take seats, and jump to the next deadline until the league is over."""
        for _ in range(max_steps):
            self.app.tick()
            self.answer_invitations(skip)
            if on_step is not None:
                on_step(self)
            if self.league().status == "over":
                return
            due = self.next_deadline()
            clock = self.app.clock
            if due is not None and due > clock.now():
                clock.set(due + timedelta(seconds=1))
            else:
                clock.advance(minutes=10)
        raise AssertionError("the league did not finish")


def mails_to(app: App, address: str, contains: str = "") -> list[str]:
    return [text_of(r.raw) for r in outbox_rows(app) if r.recipient == address and contains in text_of(r.raw)]


def last_mail(app: App, address: str) -> str:
    rows: list[Outbox] = [r for r in outbox_rows(app) if r.recipient == address]
    return text_of(rows[-1].raw)
