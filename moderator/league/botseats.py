"""Bot seats (issue 15): when no reserve takes over a seat by the offer's deadline and the league
declared the "bot" fallback, the game's bot plays the seat on so that the game finishes.

The bot is the house's, not a club member: its address is on the in-house domain (store/outbox.py),
which the postman never sends to.  The seat is handed over by the referee's REPLACE, as to a reserve
(the old secret dies); the bot then reads its mail from the outbox and answers through the mailroom
as any player does, writing what the game's demo Brain (core/bots.py) makes of the newest report,
or a RandomBrain's answers for a game without one.  The game counts for the league as played, its
result from the board; `how` says "bot" and the game is not rated, since a program held one side.
"""

from __future__ import annotations

import email
import email.policy
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from sqlmodel import Session

from moderator.clock import Clock
from moderator.core.bots import Brain, RandomBrain, ReportMail, read_report
from moderator.league.letters import Letters
from moderator.registry import Registry
from moderator.service.controls import Controls
from moderator.service.table import load_table
from moderator.service.turns import TurnRunner
from moderator.store import leagues as stored
from moderator.store import outbox as mail_rows
from moderator.store.db import Database
from moderator.store.league_tables import League, LeagueGame
from moderator.store.models import Game, Outbox

BOT_DOMAIN = mail_rows.IN_HOUSE_DOMAIN
#: What a report says that a receipt or a notice does not (as the demo's players tell them apart).
REPORT_MARK = "THE SITUATION"


def bot_address(game_id: str, role: str) -> str:
    """The bot's address for one seat: one address per seat, so its mail never mixes two games."""
    return f"{role}.{game_id}@{BOT_DOMAIN}".lower()


def is_bot(address: str) -> bool:
    return address.lower().endswith("@" + BOT_DOMAIN)


@dataclass(frozen=True)
class BotMail:
    """One mail the bot read: to which seat, and what it said."""

    address: str
    game_id: str
    subject: str
    message_id: str
    text: str


class BotSeats:
    """Hands seats to the game's bot and plays them; needs the database, the clock, the games, the
    referee controls (REPLACE), the turn runner (the bot's first report), the letters, the orders
    address, and `receive`, the mailroom's door for a raw mail (set once the mailroom is built)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, controls: Controls, turns: TurnRunner,
                 letters: Letters, orders_address: str, receive: Callable[[bytes], object] | None = None):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.controls = controls
        self.turns = turns
        self.letters = letters
        self.orders_address = orders_address
        self.receive = receive

    def take_over(self, session: Session, league: League, row: LeagueGame, role: str, now: datetime) -> str:
        """Give the seat to the bot (a REPLACE, so the old secret dies) and send it the situation; the
        referee and the other seat are told.  Returns the bot's address."""
        assert row.game_id is not None
        address = bot_address(row.game_id, role)
        table = load_table(session, self.registry, row.game_id, for_update=True)
        self.controls.apply(table, "REPLACE", f"{role} {address}", source="league")
        substitutes = json.loads(row.substitutes_json)
        substitutes[role] = address
        row.substitutes_json, row.how = json.dumps(substitutes), "bot"
        session.add(row)
        if table.game.status == "running":
            self.turns.run(table, now, report_all=True)
        others = [seat.address for seat in table.players() if seat.role != role and seat.address]
        for other in others:
            self.letters.post(session, league, other, f"a bot plays on in {row.game_id}", [
                f"No reserve took over the seat '{role}' in {row.game_id}, so the game's bot plays it on, "
                f"as the league declared. Play on as before: the game counts for the standings, unrated."])
        self.letters.to_referee(session, league, f"bot seat in {row.game_id}", [
            f"No reserve took over the seat '{role}' in {row.game_id}: the game's bot plays it from {address}."])
        return address

    # ------------------------------------------------------------------ playing

    def play(self) -> int:
        """Read the in-house mail and answer each seat's newest report; returns the mails sent.  Mail
        for a seat no longer played (the game over, the league gone) is read and left."""
        if self.receive is None:
            return 0
        with self.database.session() as session:
            unread = mail_rows.unread_in_house(session)
            if not unread:
                return 0
            mail_rows.mark_sent(session, [row.id for row in unread if row.id is not None], self.clock.now())
            newest = newest_reports([_read(row) for row in unread])
            brains = {address: self._brain(session, mail.game_id, address) for address, mail in newest.items()}
        sent = 0
        for address, mail in sorted(newest.items()):
            report = _report(mail)
            brain = brains[address]
            if brain is None or not report.decisions or not report.envelope:
                continue
            orders = brain.orders(report, random.Random(f"{mail.message_id}/{address}"))
            if orders:
                self.receive(self._reply(address, mail, report.envelope + [""] + orders))
                sent += 1
        return sent

    def _brain(self, session: Session, game_id: str, address: str) -> Brain | None:
        """The bot of the seat's game (the engine and scenario it was made with), while the seat is still
        the bot's in a running league game."""
        row = stored.game_by_game_id(session, game_id)
        game = session.get(Game, game_id)
        if row is None or game is None or game.status == "over" or address not in json.loads(row.substitutes_json
                                                                                             ).values():
            return None
        role = next(r for r, a in json.loads(row.substitutes_json).items() if a == address)
        # The game's own bot: a league of several games plays a different game from round to round.
        engine = self.registry.get(game.engine)
        return engine.bots(game.scenario or engine.info.scenario().name).get(role) or RandomBrain()

    def _reply(self, address: str, mail: BotMail, lines: Sequence[str]) -> bytes:
        message = EmailMessage(policy=email.policy.SMTP)
        message["From"] = f"League Bot <{address}>"
        message["To"] = self.orders_address
        message["Subject"] = mail.subject if mail.subject.lower().startswith("re:") else f"Re: {mail.subject}"
        message["Date"] = format_datetime(self.clock.now())
        message["Message-ID"] = make_msgid(domain=BOT_DOMAIN)
        message["In-Reply-To"] = mail.message_id
        message["References"] = mail.message_id
        message.set_content("\n".join(lines) + "\n")
        return message.as_bytes()


def _read(row: Outbox) -> BotMail:
    message = email.message_from_bytes(row.raw, policy=email.policy.default)
    body = message.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    return BotMail(row.recipient, row.game_id, str(message["Subject"] or ""), str(message["Message-ID"] or ""), text)


def newest_reports(mails: Sequence[BotMail]) -> dict[str, BotMail]:
    """Each seat's newest report (an older one's questions were asked again, or passed)."""
    newest: dict[str, BotMail] = {}
    for mail in mails:
        if REPORT_MARK in mail.text and mail.game_id:
            newest[mail.address] = mail
    return newest


def _report(mail: BotMail) -> ReportMail:
    envelope, decisions = read_report(mail.text)
    return ReportMail(mail.text, mail.subject, mail.message_id, envelope, decisions)
