"""The lobby: a game is created with an invitation mailed to each seat, and a player takes a seat
by answering `JOIN <token>`; the game starts when every seat is taken."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session

from moderator.clock import Clock
from moderator.mail.compose import thread_root
from moderator.mail.envelope import Envelope
from moderator.mail.hygiene import Letter
from moderator.registry import Registry
from moderator.service import games as game_service
from moderator.service.entropy import (
    COMMIT_REVEAL,
    EntropyDesk,
    commit_invitation,
    contribution_paragraphs,
    entropy_at_join,
    join_refusal,
)
from moderator.service.notices import Notices
from moderator.service.referee_mail import RefereeMail
from moderator.service.replies import Outcome, Replies
from moderator.service.reports import Addressing
from moderator.service.standing import ASKED_FIRST, CHANGE_NOTE, standing_in_force
from moderator.service.table import Table, load_table
from moderator.service.turns import TurnRunner, envelope_lines
from moderator.store import games as stored
from moderator.store import inbound as inbound_rows
from moderator.store.db import Database
from moderator.store.models import Game, InboundMail


def standing_paragraphs(table: Table, role: str) -> list[str]:
    """The standing orders a new player starts with (the game's defaults), each with how to change it,
    and whether they are asked instead until their first orders (Plan.ask_first)."""
    in_force = standing_in_force(table.engine, role, [])
    if not in_force:
        return []
    lines = [f"{s.kind} ({s.title}): {s.text}. To change: {s.change}" for s in in_force]
    if table.plan(role).ask_first:
        return [ASKED_FIRST + " After that, unless you file your own, these standing orders answer those "
                f"questions without a round trip (every report lists them). {CHANGE_NOTE}", *lines]
    return ["Unless you file your own, these standing orders answer questions for you without a round trip "
            f"(every report lists them again). {CHANGE_NOTE}", *lines]


class Lobby:
    """Creates games and seats players; needs the database, the clock, the games, the addressing,
    notices, the turn runner (the game's first run when the last seat is taken) and the referee's
    mail (the referee's welcome and the observers' invitations)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, addressing: Addressing,
                 notices: Notices, turns: TurnRunner, referee: RefereeMail,
                 entropy: EntropyDesk, ask_new_players: bool = True):
        self.database = database
        self.ask_new_players = ask_new_players
        self.clock = clock
        self.registry = registry
        self.addressing = addressing
        self.notices = notices
        self.replies = Replies(notices)
        self.turns = turns
        self.referee = referee
        self.entropy = entropy

    def create_game(self, engine_id: str, scenario: str | None = None, options: Mapping[str, Any] | None = None,
                    addresses: Mapping[str, str] | None = None, referee_address: str = "",
                    settings: Mapping[str, Any] | None = None, observers: Mapping[str, str] | None = None,
                    invite: bool = True) -> game_service.CreatedGame:
        """Create a game; with `invite`, mail each seat that has an address its invitation.
        Raises UnknownGame or OptionError."""
        with self.database.session() as session:
            created = game_service.create_game(session, self.registry, self.clock.now(), engine_id, scenario,
                                               options, addresses, referee_address, settings,
                                               observers=observers)
            if invite:
                self._invite(session, created, addresses or {})
            return created

    def _invite(self, session: Session, created: game_service.CreatedGame, addresses: Mapping[str, str]) -> None:
        """Mail each seat with an address its invitation, each observer theirs, the referee a welcome."""
        table = load_table(session, self.registry, created.game_id)
        self.referee.welcome(session, table, created.referee_secret)
        for observer in table.observers():
            self.referee.invite_observer(session, table, observer)
        for role, token in created.invitations.items():
            address = addresses.get(role)
            if not address:
                continue
            title = f"Invitation: play {table.engine.info.title} as {role.replace('_', ' ').title()}"
            committing = game_service.entropy_mode(table.game) == COMMIT_REVEAL
            entropy = [commit_invitation()] if committing else []
            self.notices.post(session, table, address, role, title, [
                f"You are invited to play {table.engine.info.title} as '{role}' in game {created.game_id}.",
                f"To take the seat, reply with the line 'JOIN {token}'. You may add lines "
                f"'NAME <your name>', 'TZ <your time zone, e.g. Europe/Madrid>'"
                + (" and 'ENTROPY <any words you like>' (mixed into the dice)." if not committing else "."),
                *entropy,
                f"The moderator has committed to its secret dice seed: {created.commitment}.",
            ], kind="notice", message_id=thread_root(created.game_id, role, self.addressing.domain))

    def join(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope) -> Outcome:
        """JOIN <token>: take the invited seat (NAME, TZ and ENTROPY lines optional)."""
        now = self.clock.now()
        invited = game_service.find_invitation(session, envelope.join_token or "")
        if invited is None:
            if stored.is_known_address(session, letter.sender):
                return self.replies.receipt(session, letter, envelope, None,
                                            ["That invitation token is unknown or was already used."])
            assert inbound.id is not None
            reason = "JOIN with an unknown or used token from a stranger"
            inbound_rows.quarantine(session, inbound.id, reason, now)
            return Outcome("quarantined", reason)
        if envelope.game and envelope.game != invited.game_id:
            return self.replies.receipt(session, letter, envelope, None,
                                        [f"That invitation is for game {invited.game_id}, not {envelope.game}."])
        tz = envelope.join_tz or "UTC"
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            return self.replies.receipt(session, letter, envelope, None,
                                        [f"'{tz}' is not a time zone name; use one like Europe/Madrid or UTC."])
        game = session.get(Game, invited.game_id)
        committing = game is not None and game_service.entropy_mode(game) == COMMIT_REVEAL
        if committing and (refusal := join_refusal(envelope)) is not None:
            return self.replies.receipt(session, letter, envelope, None, [refusal])
        taken = entropy_at_join(envelope, [text for _, text in letter.lines()], committing)
        table, secret = game_service.seat_player(session, self.registry, invited, letter.sender, now,
                                                 envelope.join_name or letter.sender_name, tz, taken.contribution,
                                                 taken.commitment, ask_first=self.ask_new_players)
        seat = table.seats[invited.role]
        paragraphs = [
            f"Welcome to {table.game.id} ({table.engine.info.title}). You hold the seat '{seat.role}'.",
            f"Your secret is {secret}. Every order message needs it; every report repeats it in its "
            f"'How to answer' block, so replying to a report is enough.",
        ]
        if committing:
            paragraphs += self.entropy.joined(table, seat, now)
        else:
            paragraphs += contribution_paragraphs(taken.contribution, taken.written, table.game.commitment)
            paragraphs.append(self._start_if_seated(table, now))
        paragraphs += standing_paragraphs(table, seat.role)
        title = f"Welcome: you hold the {seat.role.replace('_', ' ').title()} seat"
        reply = self.notices.post(session, table, seat.address, seat.role, title, paragraphs,
                                  envelope=envelope_lines(table.game.id, seat.role, "", secret)[:3], kind="notice")
        seat.last_report_message_id = reply.message_id
        session.add(seat)
        replies = [reply]
        if table.game.status == "running":
            replies += self.turns.run(table, now, report_all=True).reports
        return Outcome("joined", f"{seat.role} joined {table.game.id}", table.game.id, replies)

    @staticmethod
    def _start_if_seated(table: Table, now: datetime) -> str:
        """Start a plain game when its last seat is taken; what the welcome says about it."""
        if game_service.all_seated(table):
            game_service.start(table, now)
            return "Every seat is now taken: the game starts. Your first report follows."
        waiting = [s.role for s in table.players() if s.joined_at is None]
        return f"The game starts when every seat is taken (still open: {', '.join(waiting)})."
