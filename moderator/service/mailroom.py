"""Inbound mail, from raw bytes to a changed game (DESIGN §2, §4, §6).

`receive` stores the raw bytes (keyed by content hash and Message-ID) and processes them in one
transaction: hygiene, envelope, authentication, commands or orders, the run of the game, the
outbox.  The mailbox keeps its copy until that transaction has committed, so a crash loses
nothing (the next poll reads the message again) and applies nothing twice.  If the code fails,
the message is stored again in a fresh transaction, quarantined for the referee, and the daemon
carries on.  (`store_raw` + `process` do the same in two steps, for stored mail.)

Automatic mail (bounces, auto-replies, lists, our own) and mail from strangers get no reply
(no backscatter).  A message that fails authentication changes nothing; the seat's owner is told.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import traceback
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import bindparam
from sqlmodel import Session, and_, func, or_, select

from moderator.core.plans import Plan, parse_body
from moderator.core.runner import period_of
from moderator.core.runner import Runner, merge_standing
from moderator.core.rng import Rng, new_seed
from moderator.mail.envelope import Envelope, read_envelope
from moderator.mail.hygiene import Letter, quoted_lines, read_headers, read_letter
from moderator.mail.compose import make_message_id, thread_headers, thread_root
from moderator.service import games as game_service
from moderator.service.outbox import queue_mail
from moderator.service.reports import compose_notice, help_text
from moderator.service.table import Table, dumps, load_table, lock_before_reading, secret_hash
from moderator.service.turns import envelope_lines, phase_title
from moderator.store.models import Game, InboundMail, Outbox, Quarantine, Seat, Submission


# The statements run for every message, built once with bind parameters (composing a statement
# through the ORM costs more than SQLite takes to run it).
SAME_CONTENT = select(InboundMail.id).where(InboundMail.content_hash == bindparam("digest"))
# The same message delivered twice through a server differs in its Received lines: the
# Message-ID from the same sender recognises it.
SAME_CONTENT_OR_MESSAGE = select(InboundMail.id).where(or_(
    InboundMail.content_hash == bindparam("digest"),
    and_(InboundMail.message_id == bindparam("message_id"), InboundMail.sender == bindparam("sender"))))
MESSAGES_FROM_SINCE = select(func.count()).select_from(InboundMail).where(
    InboundMail.sender == bindparam("sender"), InboundMail.received_at >= bindparam("since"))
SEAT_OF_ADDRESS = select(Seat.id).where(Seat.address == bindparam("address")).limit(1)
GAME_OF_REFEREE = select(Game.id).where(Game.referee_address == bindparam("address")).limit(1)


def _ask(session: Session, statement, **params):
    """Run a query for plain values on the session's connection: it loads no objects, so the
    ORM's bookkeeping (a third of the time of such a query) is not needed."""
    return session.connection().execute(statement, params)


@dataclass
class Outcome:
    """What happened to one inbound message (for logs, tests and `mail process --dry-run`)."""

    status: str  # applied | receipt | quarantined | duplicate | command | joined
    reason: str = ""
    game_id: str = ""
    replies: list[Outbox] = field(default_factory=list)


class Mailroom:
    def __init__(self, app):
        self.app = app

    # ------------------------------------------------------------------ intake

    def store_raw(self, raw: bytes, source: str) -> int | None:
        """Keep the raw bytes in a transaction of their own; return the row id, or None if known."""
        with self.app.db.session() as session:
            row = self._store(session, raw, source)
            return row.id if row is not None else None

    def _store(self, session: Session, raw: bytes, source: str) -> InboundMail | None:
        digest = hashlib.sha256(raw).hexdigest()
        letter = read_headers(raw)  # headers only: the body is read in `process`
        if letter.message_id:
            same = _ask(session, SAME_CONTENT_OR_MESSAGE, digest=digest, message_id=letter.message_id[:998],
                        sender=letter.sender[:320])
        else:
            same = _ask(session, SAME_CONTENT, digest=digest)
        if same.first():
            return None
        row = InboundMail(message_id=letter.message_id[:998], content_hash=digest, source=source[:255],
                          sender=letter.sender[:320], subject=letter.subject, raw=raw,
                          received_at=self.app.clock.now())
        session.add(row)
        session.flush()
        if all(obj is row for obj in session.identity_map.values()):
            lock_before_reading(session)  # this insert came before reading any other row
        return row

    def was_quarantined(self, raw: bytes) -> bool:
        digest = hashlib.sha256(raw).hexdigest()
        with self.app.db.session() as session:
            row = session.exec(select(InboundMail).where(InboundMail.content_hash == digest)).first()
            return row is not None and row.status == "quarantined"

    def receive(self, raw: bytes, source: str = "") -> Outcome:
        """Store and process a message in one transaction.

        The caller's copy (the IMAP inbox, the Maildir) stays until this returns, so a crash
        before the commit loses nothing: the next poll reads the message again.  If the code
        fails, the rollback takes the row with it and the message is stored again, quarantined.
        """
        try:
            with self.app.db.session() as session:
                inbound = self._store(session, raw, source)
                if inbound is None:
                    return Outcome("duplicate", "this exact message was already received")
                return self._process_row(session, inbound)
        except Exception as error:  # the code failed: keep the mail for the referee
            inbound_id = self.store_raw(raw, source)
            if inbound_id is None:
                return Outcome("duplicate", "this exact message was already received")
            return self._quarantine_failed(inbound_id, error)

    def dry_run(self, raw: bytes, source: str = "") -> Outcome:
        """Route a message as `process` would, then roll everything back (the replies are returned)."""
        from sqlmodel import Session as _Session

        with _Session(self.app.db.engine, expire_on_commit=False) as session:
            letter = read_letter(raw, set(), max_bytes=1)
            inbound = InboundMail(message_id=letter.message_id[:998], content_hash=hashlib.sha256(raw).hexdigest(),
                                  source=source, sender=letter.sender, subject=letter.subject, raw=raw,
                                  received_at=self.app.clock.now())
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
            with self.app.db.session() as session:
                inbound = session.get(InboundMail, inbound_id)
                if inbound is None or inbound.status != "new":
                    return Outcome("duplicate", "already processed")
                return self._process_row(session, inbound)
        except Exception as error:  # the code failed: keep the mail for the referee
            return self._quarantine_failed(inbound_id, error)

    def _process_row(self, session: Session, inbound: InboundMail) -> Outcome:
        outcome = self._route(session, inbound)
        inbound.status = "quarantined" if outcome.status == "quarantined" else "done"
        inbound.outcome = f"{outcome.status}: {outcome.reason}"[:2000]
        inbound.game_id = outcome.game_id
        session.add(inbound)
        return outcome

    def _quarantine_failed(self, inbound_id: int, error: Exception) -> Outcome:
        reason = f"processing failed: {type(error).__name__}: {error}\n{traceback.format_exc(limit=-8)}"
        with self.app.db.session() as session:
            inbound = session.get(InboundMail, inbound_id)
            if inbound is not None:
                inbound.status = "quarantined"
                inbound.outcome = reason[:2000]
                session.add(inbound)
                session.add(Quarantine(inbound_id=inbound_id, reason=reason, created_at=self.app.clock.now()))
        return Outcome("quarantined", reason)

    # ------------------------------------------------------------------ routing

    def _quarantine(self, session: Session, inbound: InboundMail, reason: str, game_id: str = "") -> Outcome:
        session.add(Quarantine(inbound_id=inbound.id, reason=reason, created_at=self.app.clock.now()))
        return Outcome("quarantined", reason, game_id)

    def _known_sender(self, session: Session, address: str) -> bool:
        if not address:
            return False
        if _ask(session, SEAT_OF_ADDRESS, address=address).first():
            return True
        return bool(_ask(session, GAME_OF_REFEREE, address=address).first())

    def _route(self, session: Session, inbound: InboundMail) -> Outcome:
        settings = self.app.settings
        letter = read_letter(inbound.raw, {settings.orders_address.lower()}, settings.max_message_bytes)
        if letter.automatic:
            if letter.dsn_recipients:
                self._record_bounce(session, letter)
            return self._quarantine(session, inbound, f"automatic mail, never answered: {letter.automatic}")
        if not letter.sender:
            return self._quarantine(session, inbound, "no usable sender address")
        if self._over_rate(session, letter.sender):
            return self._quarantine(session, inbound, f"more than {settings.rate_limit_per_hour} messages "
                                                      f"an hour from {letter.sender}")
        envelope = read_envelope(letter.lines(), letter.subject)
        _fill_from_quote(envelope, letter.text)
        if envelope.join_token:
            return self._join(session, inbound, letter, envelope)
        known = self._known_sender(session, letter.sender)
        if not known:
            outcome = self._quarantine(session, inbound, f"unknown sender {letter.sender}")
            self._tell_owner_if_claimed(session, letter, envelope)
            return outcome
        if letter.too_large or not letter.has_text:
            why = ("Your message was too large to read. Send your orders as plain text in the body "
                   "of the mail." if letter.too_large else
                   "Your message had no text we could read (no text part, or an empty one). Write your "
                   "orders as plain text in the body of the mail.")
            return self._reply_receipt(session, inbound, letter, envelope, None, [why])
        if not envelope.game:
            return self._reply_receipt(session, inbound, letter, envelope, None,
                                       ["Your message does not say which game it is for. Start it with "
                                        "'GAME <game id>' (for example 'GAME vmt-0001'), then ROLE and SECRET."]
                                       + self._your_games(session, letter.sender))
        game = session.get(Game, envelope.game)
        if game is None:
            return self._reply_receipt(session, inbound, letter, envelope, None,
                                       [f"There is no game '{envelope.game}'."] + self._your_games(session, letter.sender))
        if envelope.role == "referee":
            return self._referee(session, inbound, letter, envelope, game)
        table = load_table(session, self.app.registry, game.id, for_update=True)
        if not envelope.role or envelope.role not in table.seats or table.seats[envelope.role].kind != "player":
            roles = ", ".join(table.player_roles)
            what = f"no role '{envelope.role}'" if envelope.role else "no ROLE line"
            return self._reply_receipt(session, inbound, letter, envelope, table,
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
            return self._reply_receipt(session, inbound, letter, envelope, table,
                                       [f"Your message {problem}, so nothing was done. The secret for this "
                                        f"seat is in your welcome mail and at the end of every report."])
        return self._seat_message(session, inbound, letter, envelope, table, seat)

    # ------------------------------------------------------------------ a seat's message

    def _seat_message(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope,
                      table: Table, seat: Seat) -> Outcome:
        now = self.app.clock.now()
        game = table.game
        commands = [c for _, c, _ in envelope.commands]
        if "HELP" in commands:
            return self._reply_text(session, inbound, letter, table, seat, "Help",
                                    help_text(self.app.environment, table.engine), "command")
        if game.status == "forming":
            return self._reply_receipt(session, inbound, letter, envelope, table,
                                       ["The game has not started yet: it starts when every seat is taken."])
        if "STATUS" in commands:
            return self._reply_text(session, inbound, letter, table, seat, "Status",
                                    self.status_text(table, seat), "command")
        if "RESEND" in commands:
            return self._resend(session, inbound, table, seat)
        if "VACATION" in commands:
            from moderator.service.controls import record_absence

            dates = (envelope.argument("VACATION") or "").split()
            if len(dates) != 2:
                message = "VACATION needs two dates: VACATION 2026-07-01 2026-07-14"
            else:
                message, logged = record_absence(self.app, table, seat.role, dates[0], dates[1], now)
                if logged is not None:
                    table.append("control", seat.role, dict({"command": "VACATION"}, **logged), now)
            return self._reply_text(session, inbound, letter, table, seat, "Vacation", message + "\n", "command")
        if game.status == "over":
            return self._reply_receipt(session, inbound, letter, envelope, table,
                                       ["The game is over; no more orders are taken. Send RESEND for the "
                                        "final report."])
        if envelope.phase and envelope.phase.upper() != game.phase_label.upper():
            return self._reply_receipt(session, inbound, letter, envelope, table,
                                       [f"Your orders are for phase {envelope.phase}, but the game is now in "
                                        f"phase {game.phase_label}. Nothing was applied. Check the latest "
                                        f"report and send orders for {game.phase_label} (or leave out PHASE)."])
        engine = table.engine
        lexicon = engine.lexicon(table.state, seat.role)
        kinds = sorted({spec.kind for spec in engine.grammar.specs})
        body = parse_body(envelope.order_lines, engine.grammar, lexicon, kinds)
        receipt = self._receipt(letter, envelope, body.lines)
        if body.has_errors:
            bad = [str(line.line_no) for line in body.lines if not line.ok]
            receipt["verdict"] = (f"Nothing was applied, because line{'s' if len(bad) > 1 else ''} "
                                  f"{', '.join(bad)} could not be read. Fix {'them' if len(bad) > 1 else 'it'} "
                                  f"and send the whole message again.")
            return self._send_receipt(session, inbound, table, seat, receipt, "receipt")
        continue_at = next((n for n, c, _ in envelope.commands if c == "CONTINUE"), None)
        if "CHECK" in commands:
            receipt["verdict"] = self._dry_run(table, seat, body, continue_at)
            return self._send_receipt(session, inbound, table, seat, receipt, "receipt")
        plan = table.plan(seat.role)
        if continue_at is not None:
            before = [line for line in body.script if line.line_no < continue_at]
            after = [line for line in body.script if line.line_no > continue_at]
            script = before + plan.script + after
        else:
            script = body.script
        agenda = stamp_agenda(table, body) if body.agenda_given else plan.agenda
        plan = merge_standing(Plan(script=script, standing=plan.standing, agenda=agenda), body.standing,
                              body.clear_kinds)
        table.save_plan(seat.role, plan)
        seat.submitted_at = now
        session.add(Submission(game_id=game.id, role=seat.role, inbound_id=inbound.id, body=letter.text[:64000],
                               receipt=dumps(receipt), accepted=True, created_at=now))
        if game.status == "paused":
            receipt["verdict"] = "Accepted. The referee has paused the game; your orders wait until it resumes."
            return self._send_receipt(session, inbound, table, seat, receipt, "receipt")
        delay = timedelta(minutes=self.app.settings.deadlines.change_of_mind_minutes)
        if delay:
            game.ready_at = now + delay
            session.add(game)
            receipt["verdict"] = ("Accepted. Your orders run after a short change-of-mind delay, at "
                                  f"{now + delay:%H:%M} UTC; until then a new message replaces them.")
            return self._send_receipt(session, inbound, table, seat, receipt, "receipt")
        receipt["verdict"] = "Accepted."
        result = self.app.turns.run(table, now, receipts={seat.role: receipt})
        mine = [h for h in result.holds if h.role == seat.role]
        applied = sum(1 for s in result.steps if s.role == seat.role and s.source in ("script", "agenda"))
        return Outcome("applied", f"{applied} order(s) applied, {len(mine)} hold(s)", game.id, result.reports)

    def _dry_run(self, table: Table, seat: Seat, body, continue_at: int | None) -> str:
        """Run the orders on a copy with throwaway dice: say which lines would run, reveal nothing."""
        plan = table.plan(seat.role)
        script = list(body.script) if continue_at is None else list(body.script) + plan.script
        agenda = stamp_agenda(table, body) if body.agenda_given else plan.agenda
        plans = {role: (Plan(script=script, standing=merge_standing(plan, body.standing, body.clear_kinds).standing,
                             agenda=list(agenda))
                        if role == seat.role else Plan(standing=table.plan(role).standing,
                                                       agenda=table.plan(role).agenda))
                 for role in table.player_roles}
        # Throwaway key: a check must never preview the real dice.
        advance = Runner(table.engine).advance(table.state, plans, Rng(new_seed()))
        used = [s for s in advance.steps if s.role == seat.role and s.source in ("script", "agenda")]
        held = [h for h in advance.holds if h.role == seat.role]
        parts = [f"CHECK only: nothing was applied. {len(used)} of your orders would run now"]
        if held:
            parts.append(f"; line {held[0].line_no} would be held: {held[0].reason}")
        left = len(plans[seat.role].script)
        if left:
            parts.append(f"; {left} line(s) would wait for later questions")
        parts.append(". Dice in a check are not the game's dice, so later results may differ.")
        return "".join(parts)

    # ------------------------------------------------------------------ joining

    def _join(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope) -> Outcome:
        now = self.app.clock.now()
        seat = game_service.find_invitation(session, envelope.join_token or "")
        if seat is None:
            if self._known_sender(session, letter.sender):
                return self._reply_receipt(session, inbound, letter, envelope, None,
                                           ["That invitation token is unknown or was already used."])
            return self._quarantine(session, inbound, "JOIN with an unknown or used token from a stranger")
        if envelope.game and envelope.game != seat.game_id:
            return self._reply_receipt(session, inbound, letter, envelope, None,
                                       [f"That invitation is for game {seat.game_id}, not {envelope.game}."])
        tz = envelope.join_tz or "UTC"
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            return self._reply_receipt(session, inbound, letter, envelope, None,
                                       [f"'{tz}' is not a time zone name; use one like Europe/Madrid or UTC."])
        contribution = envelope.join_entropy or hashlib.sha256(inbound.raw).hexdigest()[:32]
        table, secret = game_service.seat_player(session, self.app.registry, seat, letter.sender, now,
                                                 envelope.join_name or letter.sender_name, tz, contribution)
        seat = table.seats[seat.role]
        paragraphs = [
            f"Welcome to {table.game.id} ({table.engine.info.title}). You hold the seat '{seat.role}'.",
            f"Your secret is {secret}. Every order message needs it; every report repeats it in its "
            f"'How to answer' block, so replying to a report is enough.",
            f"Your contribution to the dice: '{contribution}'. It is mixed with the moderator's seed, "
            f"whose commitment is {table.game.commitment}; the seed is revealed when the game ends.",
        ]
        if game_service.all_seated(table):
            game_service.start(table, now)
            paragraphs.append("Every seat is now taken: the game starts. Your first report follows.")
        else:
            waiting = [s.role for s in table.players() if s.joined_at is None]
            paragraphs.append(f"The game starts when every seat is taken (still open: {', '.join(waiting)}).")
        reply = self._notice(session, table, seat.address, seat.role, "Welcome", paragraphs,
                             envelope=envelope_lines(table.game.id, seat.role, "", secret)[:3], kind="notice")
        seat.last_report_message_id = reply.message_id
        session.add(seat)
        replies = [reply]
        if table.game.status == "running":
            result = self.app.turns.run(table, now, report_all=True)
            replies += result.reports
        return Outcome("joined", f"{seat.role} joined {table.game.id}", table.game.id, replies)

    # ------------------------------------------------------------------ referee

    def _referee(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope,
                 game: Game) -> Outcome:
        if letter.sender != game.referee_address:
            return self._quarantine(session, inbound, f"{letter.sender} wrote as the referee of {game.id}", game.id)
        if not envelope.secret or secret_hash(game.id, "referee", envelope.secret) != game.referee_secret_hash:
            return self._reply_receipt(session, inbound, letter, envelope, None,
                                       ["Referee commands need the referee's SECRET; nothing was done."])
        table = load_table(session, self.app.registry, game.id, for_update=True)
        lines = []
        for _, command, argument in envelope.commands:
            lines.append(self.app.controls.apply(table, command, argument, source="mail"))
        if not lines:
            lines = ["No referee command found. Commands: PAUSE, RESUME, FORCE, EXTEND <hours>, "
                     "ANNOUNCE <text>, PREVIEW, STATUS."]
        self._notice(session, table, letter.sender, "referee", "Referee", lines, kind="receipt")
        return Outcome("command", "; ".join(lines), game.id)

    # ------------------------------------------------------------------ replies

    def _receipt(self, letter: Letter, envelope: Envelope, lines) -> dict[str, Any]:
        shown = []
        for line in lines:
            shown.append({"line_no": line.line_no, "source": line.source.strip(), "canonical": line.canonical,
                          "error": line.error, "ok": line.ok})
        return {"text_source": letter.text_source, "problems": list(letter.problems), "lines": shown,
                "verdict": "", "notes": [], "date": ""}

    def _reply_receipt(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope,
                       table: Table | None, paragraphs: list[str]) -> Outcome:
        receipt = {"text_source": letter.text_source, "problems": list(letter.problems), "lines": [],
                   "verdict": "", "notes": [], "date": ""}
        game_id = table.game.id if table else ""
        reply = self._notice(session, table, letter.sender, envelope.role or "player", "Your message",
                             paragraphs, receipt=receipt, kind="receipt")
        return Outcome("receipt", " ".join(paragraphs)[:500], game_id, [reply])

    def _send_receipt(self, session: Session, inbound: InboundMail, table: Table, seat: Seat,
                      receipt: dict[str, Any], kind: str) -> Outcome:
        reply = self._notice(session, table, seat.address, seat.role, "Receipt", [], receipt=receipt, kind=kind,
                             envelope=envelope_lines(table.game.id, seat.role, table.game.phase_label, seat.secret))
        return Outcome("receipt", receipt.get("verdict", ""), table.game.id, [reply])

    def _reply_text(self, session: Session, inbound: InboundMail, letter: Letter, table: Table, seat: Seat,
                    title: str, text: str, status: str) -> Outcome:
        reply = self._notice(session, table, seat.address, seat.role, title, [], kind=status, body=text)
        return Outcome("command", title, table.game.id, [reply])

    def _notice(self, session: Session, table: Table | None, recipient: str, role: str, title: str,
                paragraphs: list[str], receipt: dict[str, Any] | None = None, envelope: list[str] | None = None,
                kind: str = "notice", body: str | None = None, message_id: str | None = None) -> Outbox:
        now = self.app.clock.now()
        addressing = self.app.addressing
        game_id = table.game.id if table else "moderator"
        # Notices are not replayed, so a random part is fine (and needs no query).
        message_id = message_id or make_message_id(kind, game_id, role, 0, addressing.domain,
                                                   salt=secrets.token_hex(8))
        subject = f"[{game_id}/{role}] {table.engine.info.title}" if table else f"{addressing.orders_name}: {title}"
        heading = f"{game_id}: {title}" if table else title
        in_reply_to = ""
        if table and role in table.seats:
            root = thread_root(table.game.id, role, addressing.domain)
            in_reply_to = table.seats[role].last_report_message_id or (root if message_id != root else "")
        outgoing = compose_notice(self.app.environment, addressing, recipient, subject, heading, paragraphs,
                                  message_id, now, receipt, envelope or [], in_reply_to,
                                  f"<{game_id}.{addressing.domain}>" if table else "")
        if table and role in table.seats:
            root = thread_root(game_id, role, addressing.domain)
            outgoing.references = tuple(dict.fromkeys(r for r in (root, in_reply_to) if r and r != message_id))
            outgoing.extra_headers = thread_headers(root, subject)
        if body is not None:
            outgoing.text = body
        return queue_mail(session, game_id=table.game.id if table else "", recipient=recipient,
                          message_id=message_id, subject=subject, kind=kind, raw=outgoing.to_bytes(),
                          created_at=now, next_attempt_at=now)

    def _resend(self, session: Session, inbound: InboundMail, table: Table, seat: Seat) -> Outcome:
        last = session.exec(select(Outbox).where(Outbox.message_id == seat.last_report_message_id)).first()
        if last is None:
            return self._reply_text(session, inbound, None, table, seat, "Resend",  # type: ignore[arg-type]
                                    "There is no report to send again yet.\n", "command")
        now = self.app.clock.now()
        message_id = make_message_id("resend", table.game.id, seat.role, inbound.id or 0,
                                     self.app.addressing.domain, salt=now.isoformat())
        raw = _replace_header(last.raw, "Message-ID", message_id)
        row = queue_mail(session, game_id=table.game.id, recipient=seat.address, message_id=message_id,
                         subject=last.subject, kind="report", raw=raw, created_at=now, next_attempt_at=now)
        return Outcome("command", "report sent again", table.game.id, [row])

    def status_text(self, table: Table, seat: Seat) -> str:
        engine = table.engine
        pending = engine.pending(table.state)
        lines = [f"{table.game.id}: {engine.info.title}", f"Phase: {phase_title(engine, table.state)} "
                 f"({table.game.phase_label})", f"Status: {table.game.status}", ""]
        deadlines = {}
        for other in table.players():
            deadlines.update(json.loads(other.deadlines_json or "{}"))
        if pending:
            lines.append("Waiting for:")
            for decision in pending:
                due = deadlines.get(decision.key)
                when = f" (by {datetime.fromisoformat(due):%Y-%m-%d %H:%M} UTC)" if due else ""
                what = decision.prompt if decision.role == seat.role else "a decision"
                lines.append(f"  - {decision.role}: {what}{when}")
        else:
            lines.append("Nobody owes an answer now.")
        plan = table.plan(seat.role)
        if plan.script:
            lines += ["", "Your queued script:"] + [f"  {s.render()}" for s in plan.script]
        if plan.agenda:
            lines += ["", "Your keyed orders for this turn:"] + [f"  {a.render()}" for a in plan.agenda]
        if plan.standing:
            lines += ["", "Your standing orders:"] + [f"  {s.render()}" for s in plan.standing]
        lines += ["", f"Seed commitment: {table.game.commitment}"]
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ strangers and owners

    def _your_games(self, session: Session, address: str) -> list[str]:
        seats = session.exec(select(Seat).where(Seat.address == address)).all()
        if not seats:
            return []
        return ["Your seats: " + ", ".join(f"{s.game_id} as {s.role}" for s in seats) + "."]

    def _tell_owner_if_claimed(self, session: Session, letter: Letter, envelope: Envelope) -> None:
        if not (envelope.game and envelope.role):
            return
        game = session.get(Game, envelope.game)
        if game is None:
            return
        seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.role == envelope.role)).first()
        if seat is None or not seat.address:
            return
        table = load_table(session, self.app.registry, game.id)
        self._notify_owner(session, table, table.seats[seat.role], letter)

    def _notify_owner(self, session: Session, table: Table, seat: Seat, letter: Letter) -> None:
        self._notice(session, table, seat.address, seat.role, "A message for your seat",
                     [f"A message claiming to be for your seat in {table.game.id} arrived from {letter.sender} "
                      f"(subject: '{letter.subject[:80]}'). Orders count only from your registered address "
                      f"with your secret, so it changed nothing. The referee keeps a copy."], kind="notice")

    def _record_bounce(self, session: Session, letter: Letter) -> None:
        now = self.app.clock.now()
        for address in letter.dsn_recipients:
            for seat in session.exec(select(Seat).where(Seat.address == address)):
                table = load_table(session, self.app.registry, seat.game_id)
                table.append("control", seat.role, {"bounce": address, "subject": letter.subject[:200]}, now)

    def _over_rate(self, session: Session, sender: str) -> bool:
        since = self.app.clock.now() - timedelta(hours=1)
        count = _ask(session, MESSAGES_FROM_SINCE, sender=sender, since=since).scalar_one()
        return count > self.app.settings.rate_limit_per_hour


def _fill_from_quote(envelope: Envelope, text: str) -> None:
    """A plain reply quotes the report's envelope: take GAME, ROLE and SECRET from it if missing.

    PHASE is never taken from a quote: an old report's phase would refuse standing orders sent
    in reply to it.
    """
    if envelope.game and envelope.role and envelope.secret:
        return
    for line in quoted_lines(text):
        words = line.split()
        if len(words) >= 2 and words[0].upper() in {"GAME", "ROLE", "SECRET"}:
            key = words[0].lower()
            if getattr(envelope, key) is None:
                value = words[1].lower() if key != "secret" else words[1]
                setattr(envelope, key, value)


def _replace_header(raw: bytes, name: str, value: str) -> bytes:
    head, sep, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    out = []
    for line in lines:
        if line.lower().startswith(name.lower().encode() + b":"):
            out.append(f"{name}: {value}".encode())
        else:
            out.append(line)
    return b"\r\n".join(out) + sep + body


def stamp_agenda(table: Table, body) -> list:
    """The message's keyed orders, marked with the game's current period so they expire with it."""
    from dataclasses import replace as _replace

    period = period_of(table.engine, table.state)
    return [_replace(line, period=period) for line in body.agenda]
