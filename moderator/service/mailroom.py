"""Inbound mail, from raw bytes to a changed game (DESIGN §2, §4, §6).

`receive` stores the raw bytes (keyed by content hash and Message-ID) and processes them in one
transaction: hygiene, envelope, authentication, commands or orders, the run of the game, the
outbox.  The mailbox keeps its copy until that transaction has committed, so a crash loses
nothing (the next poll reads the message again) and applies nothing twice.  If the code fails,
the message is stored again in a fresh transaction, quarantined for the referee, and the daemon
carries on.  (`store_raw` + `process` do the same in two steps, for stored mail.)

Automatic mail (bounces, auto-replies, lists, our own, loops) and mail from strangers get no reply
(no backscatter).  A message that fails authentication changes nothing; the seat's owner is told.
Mail that is too large, too long or has a hostile From header changes nothing either; a registered
sender gets a receipt saying why and naming the limit.  A second copy of a message (the same
Message-ID from the same sender, with the same text) is kept, marked as a duplicate, and not
processed again.  A seat's own message goes on to the seat desk (service/seat_mail.py), a
referee's to the referee controls (service/controls.py).
"""

from __future__ import annotations

import hashlib
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from sqlmodel import Session

from moderator.clock import Clock
from moderator.mail.commands import referee_summary
from moderator.mail.echo import clip, listed
from moderator.mail.envelope import Envelope, read_envelope
from moderator.mail.hygiene import Headers, Letter, ReadLimits, quoted_lines, read_headers, read_letter, same_text
from moderator.registry import Registry
from moderator.service.controls import Controls
from moderator.service.lobby import Lobby
from moderator.service.notices import Notices
from moderator.service.replies import Outcome, Replies
from moderator.service.reports import Addressing
from moderator.service.seat_mail import SeatDesk
from moderator.service.table import Table, load_table, secret_hash
from moderator.store import games as stored
from moderator.store import inbound as inbound_rows
from moderator.store.db import Database
from moderator.store.models import Game, InboundMail, Seat

__all__ = ["MailLimits", "Mailroom", "Outcome"]


@dataclass(frozen=True)
class MailLimits:
    """How much mail the moderator reads (`reading`), how much of a message too large to read it
    keeps (headers first), and how many messages a sender may send an hour."""

    reading: ReadLimits
    kept_bytes: int
    rate_limit_per_hour: int


class OtherDesk(Protocol):
    """A desk for mail that is not about one game (the leagues): it answers a message, or returns None."""

    def route(self, session: Session, letter: Letter) -> Outcome | None: ...


class Mailroom:
    """Takes in mail and routes it; needs the database, the clock, the games, the addressing, the
    limits, notices, and the services a message is handed to (lobby, seat desk, referee controls,
    and the league desk)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, addressing: Addressing,
                 limits: MailLimits, notices: Notices, lobby: Lobby, desk: SeatDesk, controls: Controls,
                 leagues: OtherDesk | None = None):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.addressing = addressing
        self.limits = limits
        self.notices = notices
        self.replies = Replies(notices)
        self.lobby = lobby
        self.desk = desk
        self.controls = controls
        self.leagues = leagues

    # ------------------------------------------------------------------ intake

    def store_raw(self, raw: bytes, source: str) -> int | None:
        """Keep the raw bytes in a transaction of their own; return the row id, or None if known."""
        with self.database.session() as session:
            stored_row = self._store(session, raw, source)
            return stored_row[0].id if stored_row is not None else None

    def _store(self, session: Session, raw: bytes, source: str) -> tuple[InboundMail, list[str]] | None:
        """Store a message; None when these very bytes were stored before (the mailbox's copy is
        read again after a crash).  Another copy of a message stored before (the same Message-ID
        from the same sender) is stored too, as a duplicate when its text is the same; with another
        text it is a new message, and the notes returned say so in its receipt."""
        digest = hashlib.sha256(raw).hexdigest()
        headers = read_headers(raw)  # headers only: the body is read in `process`
        row = self._row(raw, source, digest, headers)
        earlier = inbound_rows.earlier_copies(session, digest, row.message_id, row.sender)
        if any(content_hash == digest for _, content_hash in earlier):
            return None
        notes = []
        if earlier:
            first = inbound_rows.raw_of(session, earlier[0][0])
            if first is not None and (same_text(first[0], raw) or first[1] > len(first[0])):
                row.status = "duplicate"
                row.outcome = (f"duplicate: another copy of message {earlier[0][0]} (the same Message-ID from "
                               f"the same sender, with the same text); kept, not processed again")
            else:
                notes.append("this message has the Message-ID of an earlier one but another text, so it was "
                             "read as a new message")
        session.add(row)
        session.flush()
        if all(obj is row for obj in session.identity_map.values()):
            stored.lock_before_reading(session)  # this insert came before reading any other row
        return row, notes

    def _row(self, raw: bytes, source: str, digest: str, headers: Headers) -> InboundMail:
        """The row that keeps a message: whole, or only its beginning when it is too large to read."""
        kept = raw if len(raw) <= self.limits.reading.max_bytes else raw[:self.limits.kept_bytes]
        return InboundMail(message_id=headers.message_id[:998], content_hash=digest, source=source[:255],
                           sender=headers.sender[:320], subject=headers.subject[:2000], raw=kept, size=len(raw),
                           received_at=self.clock.now())

    def was_quarantined(self, raw: bytes) -> bool:
        with self.database.session() as session:
            row = inbound_rows.by_content(session, hashlib.sha256(raw).hexdigest())
            return row is not None and row.status == "quarantined"

    def receive(self, raw: bytes, source: str = "") -> Outcome:
        """Store and process a message in one transaction.

        The caller's copy (the IMAP inbox, the Maildir) stays until this returns, so a crash
        before the commit loses nothing: the next poll reads the message again.  If the code
        fails, the rollback takes the row with it and the message is stored again, quarantined.
        """
        try:
            with self.database.session() as session:
                stored_row = self._store(session, raw, source)
                if stored_row is None:
                    return Outcome("duplicate", "this exact message was already received")
                inbound, notes = stored_row
                if inbound.status == "duplicate":
                    return Outcome("duplicate", inbound.outcome)
                outcome = self._process_row(session, inbound, notes)
        except Exception as error:  # the code failed: keep the mail for the referee
            inbound_id = self.store_raw(raw, source)
            if inbound_id is None:
                return Outcome("duplicate", "this exact message was already received")
            return self._quarantine_failed(inbound_id, error)
        if outcome.released:  # RELEASE: the kept message is read now, as if it had just arrived
            outcome.replies.extend(reply for read in self.process_stranded() for reply in read.replies)
        return outcome

    def dry_run(self, raw: bytes, source: str = "") -> Outcome:
        """Route a message as `process` would, then roll everything back (the replies are returned)."""
        with Session(self.database.engine, expire_on_commit=False) as session:
            inbound = self._row(raw, source, hashlib.sha256(raw).hexdigest(), read_headers(raw))
            session.add(inbound)
            session.flush()
            try:
                outcome = self._route(session, inbound)
                for reply in outcome.replies:
                    _ = reply.raw, reply.recipient, reply.subject  # load before the rollback
            finally:
                session.rollback()
            return outcome

    def process(self, inbound_id: int) -> Outcome:
        """Process a message stored earlier (one stranded by a crash, or stored by `store_raw`)."""
        try:
            with self.database.session() as session:
                inbound = session.get(InboundMail, inbound_id)
                if inbound is None or inbound.status != "new":
                    return Outcome("duplicate", "already processed")
                return self._process_row(session, inbound)
        except Exception as error:  # the code failed: keep the mail for the referee
            return self._quarantine_failed(inbound_id, error)

    def process_stranded(self) -> list[Outcome]:
        """Messages stored but never processed (a crash between the two steps) are processed now."""
        with self.database.session() as session:
            ids = inbound_rows.unprocessed_ids(session)
        return [self.process(inbound_id) for inbound_id in ids]

    def _process_row(self, session: Session, inbound: InboundMail, notes: Sequence[str] = ()) -> Outcome:
        outcome = self._route(session, inbound, notes)
        inbound.status = "quarantined" if outcome.status == "quarantined" else "done"
        inbound.outcome = f"{outcome.status}: {outcome.reason}"[:2000]
        inbound.game_id = outcome.game_id
        session.add(inbound)
        return outcome

    def _quarantine_failed(self, inbound_id: int, error: Exception) -> Outcome:
        reason = f"processing failed: {type(error).__name__}: {error}\n{traceback.format_exc(limit=-8)}"
        with self.database.session() as session:
            inbound = session.get(InboundMail, inbound_id)
            if inbound is not None:
                inbound.status = "quarantined"
                inbound.outcome = reason[:2000]
                inbound.game_id = self._game_named(session, inbound)  # its referee may RELEASE it once fixed
                session.add(inbound)
                inbound_rows.quarantine(session, inbound_id, reason, self.clock.now())
        return Outcome("quarantined", reason)

    def _game_named(self, session: Session, inbound: InboundMail) -> str:
        """The existing game a message's envelope names, or "" (also when it cannot be read at all)."""
        try:
            letter = read_letter(inbound.raw, {self.addressing.orders_address}, self.limits.reading,
                                 size=inbound.size or None)
            named = read_envelope(letter.lines(), letter.subject).game
        except Exception:  # the message that made the code fail may fail here too: it is kept all the same
            return ""
        return named if named and session.get(Game, named) is not None else ""

    # ------------------------------------------------------------------ routing

    def _quarantine(self, session: Session, inbound: InboundMail, reason: str, game_id: str = "") -> Outcome:
        assert inbound.id is not None  # stored (flushed) before it is routed
        inbound_rows.quarantine(session, inbound.id, reason, self.clock.now())
        return Outcome("quarantined", reason, game_id)

    def _route(self, session: Session, inbound: InboundMail, notes: Sequence[str] = ()) -> Outcome:
        """Who wrote, about which game: strangers and automatic mail are kept unanswered."""
        letter = read_letter(inbound.raw, {self.addressing.orders_address}, self.limits.reading,
                             size=inbound.size or None)
        letter.problems.extend(notes)
        if letter.automatic:
            if letter.dsn_recipients:
                self._record_bounce(session, letter)
            return self._quarantine(session, inbound, f"automatic mail, never answered: {letter.automatic}")
        if not letter.sender:
            return self._quarantine(session, inbound, "no usable sender address")
        if self._over_rate(session, letter.sender):
            return self._quarantine(session, inbound, f"more than {self.limits.rate_limit_per_hour} messages "
                                                      f"an hour from {letter.sender}")
        envelope = read_envelope(letter.lines(), letter.subject)
        fill_from_quote(envelope, letter.text)
        refusal = self._refusal(letter)
        if refusal is None and self.leagues is not None:  # league mail (JOIN LEAGUE, LEAGUE <id>)
            routed = self.leagues.route(session, letter)
            if routed is not None:
                return self._quarantine(session, inbound, routed.reason) if routed.status == "quarantined" else routed
        if envelope.join_token and refusal is None:
            outcome = self.lobby.join(session, inbound, letter, envelope)
            if letter.others and outcome.status == "joined":  # the welcome does not name them
                self.notices.post(session, None, letter.sender, "player", "Your message",
                                  [f"Your JOIN message also named {self._others(letter)}. The moderator writes "
                                   f"only to {letter.sender}, the address that took the seat."], kind="notice")
            return outcome
        if not stored.is_known_address(session, letter.sender):
            # Kept under the game it names, if there is one, so that its referee's digest lists it.
            named = envelope.game if envelope.game and session.get(Game, envelope.game) is not None else ""
            outcome = self._quarantine(session, inbound, f"unknown sender {letter.sender}", named)
            self._tell_owner_if_claimed(session, letter, envelope)
            return outcome
        if refusal is not None:
            return self.replies.receipt(session, letter, envelope, None, [refusal])
        if not envelope.game:
            return self.replies.receipt(session, letter, envelope, None,
                                        ["Your message does not say which game it is for. Start it with "
                                         "'GAME <game id>' (for example 'GAME vmt-0001'), then ROLE and SECRET.",
                                         *self._your_games(session, letter.sender)])
        game = session.get(Game, envelope.game)
        if game is None:
            return self.replies.receipt(session, letter, envelope, None,
                                        [f"There is no game '{envelope.game}'.",
                                         *self._your_games(session, letter.sender)])
        if envelope.role == "referee":
            return self._referee(session, inbound, letter, envelope, game)
        return self._seat(session, inbound, letter, envelope, game)

    def _refusal(self, letter: Letter) -> str | None:
        """Why nothing in a message from a person may be read or acted on, naming the limit; None if it may."""
        limits = self.limits.reading
        if letter.unsafe:
            return letter.unsafe
        if letter.too_large:
            return (f"Your message was too large to read: the limit is {limits.max_bytes / 1_000_000:.1f} MB, "
                    f"and only its first {self.limits.kept_bytes // 1024} KB are kept for the referee. Send "
                    f"your orders as plain text in the body of the mail.")
        if letter.too_long:
            if letter.written_lines > limits.max_lines:
                size = (f"has more than {limits.max_lines} lines to read (quoted text, the signature and blank "
                        f"lines aside); the limit is {limits.max_lines} lines")
            else:
                size = (f"holds more than {limits.max_chars} characters in its lines to read; the limit is "
                        f"{limits.max_chars} characters")
            return (f"Your message {size}, so none of it was read and nothing was done. Send a shorter "
                    f"message, or send it in parts and begin each later part with the line CONTINUE, so "
                    f"that it is added after the part before.")
        if not letter.has_text:
            return ("Your message had no text we could read (no text part, or an empty one). Write your "
                    "orders as plain text in the body of the mail.")
        return None

    def _seat(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope,
              game: Game) -> Outcome:
        """A message for a seat: from the seat's address, with the seat's secret, or nothing is done."""
        table = load_table(session, self.registry, game.id, for_update=True)
        if not envelope.role or envelope.role not in table.seats or table.seats[envelope.role].kind != "player":
            roles = ", ".join(table.player_roles)
            what = f"no role '{envelope.role}'" if envelope.role else "no ROLE line"
            return self.replies.receipt(session, letter, envelope, table,
                                        [f"Game {game.id} has {what}; its roles are {roles}. Add 'ROLE <role>'."])
        seat = table.seats[envelope.role]
        if letter.sender != seat.address:
            outcome = self._quarantine(session, inbound, f"{letter.sender} wrote for seat {game.id}/{seat.role} "
                                                         f"registered to {seat.address}", game.id)
            self._notify_owner(session, table, seat, letter)
            return outcome
        if not envelope.secret or secret_hash(game.id, seat.role, envelope.secret) != \
                secret_hash(game.id, seat.role, seat.secret):
            problem = "has no SECRET line" if not envelope.secret else "carries a wrong SECRET"
            return self.replies.receipt(session, letter, envelope, table,
                                        [f"Your message {problem}, so nothing was done. The secret for this "
                                         f"seat is in your welcome mail and at the end of every report."])
        outcome = self.desk.handle(session, inbound, letter, envelope, table, seat)
        if letter.others and outcome.status == "command":  # a receipt names them; a command's answer does not
            self.notices.post(session, table, seat.address, seat.role, "A message for your seat",
                              [f"A message from your address for your seat in {table.game.id} also named "
                               f"{self._others(letter)}. It was answered only here, at {seat.address}."],
                              kind="notice")
        return outcome

    def _referee(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope,
                 game: Game) -> Outcome:
        if letter.sender != game.referee_address:
            return self._quarantine(session, inbound, f"{letter.sender} wrote as the referee of {game.id}", game.id)
        if not envelope.secret or secret_hash(game.id, "referee", envelope.secret) != game.referee_secret_hash:
            return self.replies.receipt(session, letter, envelope, None,
                                        ["Referee commands need the referee's SECRET; nothing was done."])
        table = load_table(session, self.registry, game.id, for_update=True)
        lines = [self.controls.apply(table, command, argument, source="mail")
                 for _, command, argument in envelope.commands]
        if not lines:
            lines = [f"No referee command found. {referee_summary()}"]
        if letter.others:
            lines.append(f"This message also named {self._others(letter)}; it is answered only here.")
        named = ", ".join(dict.fromkeys(command for _, command, _ in envelope.commands)) or "your message"
        self.notices.post(session, table, letter.sender, "referee", f"answer to {named}", lines, kind="receipt")
        released = any(command == "RELEASE" for _, command, _ in envelope.commands) and any(
            row_id != inbound.id for row_id in inbound_rows.unprocessed_ids(session))
        return Outcome("command", "; ".join(lines), game.id, released=released)

    # ------------------------------------------------------------------ strangers and owners

    def _your_games(self, session: Session, address: str) -> list[str]:
        seats = stored.seats_of_address(session, address)
        if not seats:
            return []
        return ["Your seats: " + ", ".join(f"{s.game_id} as {s.role}" for s in seats) + "."]

    def _tell_owner_if_claimed(self, session: Session, letter: Letter, envelope: Envelope) -> None:
        if not (envelope.game and envelope.role):
            return
        game = session.get(Game, envelope.game)
        if game is None:
            return
        seat = stored.seat_of_role(session, game.id, envelope.role)
        if seat is None or not seat.address:
            return
        table = load_table(session, self.registry, game.id)
        self._notify_owner(session, table, table.seats[seat.role], letter)

    def _notify_owner(self, session: Session, table: Table, seat: Seat, letter: Letter) -> None:
        naming = f" It also named {self._others(letter)}." if letter.others else ""
        self.notices.post(session, table, seat.address, seat.role, "A message for your seat",
                          [f"A message claiming to be for your seat in {table.game.id} arrived from "
                           f"{clip(letter.sender, self.limits.reading.echo_chars)} "
                           f"(subject: '{letter.subject[:80]}').{naming} Orders count only from your registered "
                           f"address with your secret, so it changed nothing. The referee keeps a copy."],
                          kind="notice")

    def _others(self, letter: Letter) -> str:
        """The other addresses a message named, with the header each came in: 'x@y (Reply-To)'."""
        return listed([f"{address} ({header})" for address, header in letter.others], self.limits.reading.echo_chars)

    def _record_bounce(self, session: Session, letter: Letter) -> None:
        now = self.clock.now()
        for address in letter.dsn_recipients:
            for seat in stored.seats_of_address(session, address):
                table = load_table(session, self.registry, seat.game_id)
                table.append("control", seat.role, {"bounce": address, "subject": letter.subject[:200]}, now)

    def _over_rate(self, session: Session, sender: str) -> bool:
        since = self.clock.now() - timedelta(hours=1)
        return inbound_rows.messages_from_since(session, sender, since) > self.limits.rate_limit_per_hour


def fill_from_quote(envelope: Envelope, text: str) -> None:
    """A plain reply quotes the report's envelope: take GAME, ROLE and SECRET from it if missing.

    PHASE is never taken from a quote: an old report's phase would refuse standing orders sent
    in reply to it.
    """
    if envelope.game and envelope.role and envelope.secret:
        return
    for line in quoted_lines(text):
        words = line.split("#", 1)[0].split()
        # Only a line as the report writes it ("  GAME vmt-0001"): upper-case key and one value, so
        # prose that happens to begin with "game" is never read as an envelope.
        if len(words) == 2 and words[0] in {"GAME", "ROLE", "SECRET"}:
            key = words[0].lower()
            if getattr(envelope, key) is None:
                value = words[1].lower() if key != "secret" else words[1]
                setattr(envelope, key, value)
