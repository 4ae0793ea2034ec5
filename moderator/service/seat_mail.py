"""A seat's message, once the mailroom knows it comes from the seat's player with the seat's
secret: the player's commands (listed in mail/commands.py), then the orders (DESIGN §4)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from jinja2 import Environment
from sqlmodel import Session

from moderator.clock import Clock
from moderator.core.plans import AgendaLine, ParsedBody, Plan, parse_body
from moderator.core.rng import Rng, new_seed
from moderator.core.runner import Runner, merge_standing, period_of
from moderator.mail.compose import make_message_id
from moderator.mail.envelope import Envelope
from moderator.mail.hygiene import Letter
from moderator.service.absences import record_absence
from moderator.service.entropy import EntropyDesk, is_revealing
from moderator.service.owed import status_text
from moderator.service.replies import Outcome, Replies, receipt_of
from moderator.service.reports import Addressing, help_text
from moderator.service.resends import earlier_copy, normalised_orders, remember_taken, resend_verdict
from moderator.service.table import Table, dumps
from moderator.service.turns import TurnRunner
from moderator.settings import DeadlineSettings
from moderator.store import outbox as outbox_rows
from moderator.store.models import InboundMail, Seat, Submission

#: A player's command: answers the message alone (nothing else in it is read).
Answer = Callable[[Session, InboundMail, Envelope, Table, Seat], Outcome]
#: Commands that change how the orders of the same message are taken, not answered apart.
ORDER_MODIFIERS = ("CHECK", "CONTINUE", "NOTIFY")
#: NOTIFY's choices, and what each means (said back in the receipt).
NOTIFY_CHOICES = {
    "TURN": "when something is asked of you and at the end of each game turn",
    "EVERY": "whenever something happens in the game",
    "ASKED": "only when something is asked of you (and at the end of the game)",
}


class SeatDesk:
    """Answers a seat's commands and takes its orders; needs the clock, the addressing, the
    templates, the replies, the turn runner and the deadline settings (the change-of-mind delay)."""

    def __init__(self, clock: Clock, addressing: Addressing, environment: Environment, replies: Replies,
                 turns: TurnRunner, deadlines: DeadlineSettings, entropy: EntropyDesk):
        self.clock = clock
        self.addressing = addressing
        self.environment = environment
        self.replies = replies
        self.turns = turns
        self.deadlines = deadlines
        self.entropy = entropy
        #: Answered even before the game starts.
        self.answers_always: Mapping[str, Answer] = {"HELP": self.help, "ENTROPY-COMMIT": self.entropy_commit,
                                                     "ENTROPY-REVEAL": self.entropy_reveal}
        #: Answered once the game has started, in this order of precedence.
        self.answers: Mapping[str, Answer] = {"STATUS": self.status, "RESEND": self.resend,
                                              "VACATION": self.vacation}

    @property
    def handled(self) -> frozenset[str]:
        """Every command this desk knows (a test compares it with mail/commands.py)."""
        return frozenset([*self.answers_always, *self.answers, *ORDER_MODIFIERS])

    def handle(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope, table: Table,
               seat: Seat) -> Outcome:
        """Answer the message's command, or take its orders."""
        game = table.game
        commands = [c for _, c, _ in envelope.commands]
        for name, answer in self.answers_always.items():
            if name in commands:
                return answer(session, inbound, envelope, table, seat)
        if game.status == "forming":
            revealing = " and every player has revealed their entropy" if is_revealing(table) else ""
            return self.replies.receipt(session, letter, envelope, table,
                                        [f"The game has not started yet: it starts when every seat is taken"
                                         f"{revealing}."])
        for name, answer in self.answers.items():
            if name in commands:
                return answer(session, inbound, envelope, table, seat)
        if game.status == "over":
            return self.replies.receipt(session, letter, envelope, table,
                                        ["The game is over; no more orders are taken. Send RESEND for the "
                                         "final report."])
        if envelope.phase and envelope.phase.upper() != game.phase_label.upper():
            return self.replies.receipt(session, letter, envelope, table,
                                        [f"Your orders are for phase {envelope.phase}, but the game is now in "
                                         f"phase {game.phase_label}. Nothing was applied. Check the latest "
                                         f"report and send orders for {game.phase_label} (or leave out PHASE)."])
        return self.orders(session, inbound, letter, envelope, table, seat)

    # ------------------------------------------------------------------ commands

    def help(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat) -> Outcome:
        return self.replies.text(session, table, seat, "Help", help_text(self.environment, table.engine), "command")

    def entropy_commit(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
                       seat: Seat) -> Outcome:
        said = self.entropy.commit(table, seat, envelope.argument("ENTROPY-COMMIT") or "", self.clock.now())
        return self.replies.text(session, table, seat, "Entropy commitment", said + "\n", "command")

    def entropy_reveal(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
                       seat: Seat) -> Outcome:
        said, reports = self.entropy.reveal(table, seat, envelope.argument("ENTROPY-REVEAL") or "", self.clock.now())
        outcome = self.replies.text(session, table, seat, "Entropy revealed", said + "\n", "command")
        outcome.replies += reports
        return outcome

    def status(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
               seat: Seat) -> Outcome:
        return self.replies.text(session, table, seat, "Status", status_text(table, seat, self.clock.now()), "command")

    def resend(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
               seat: Seat) -> Outcome:
        last = outbox_rows.by_message_id(session, seat.last_report_message_id)
        if last is None:
            return self.replies.text(session, table, seat, "Resend", "There is no report to send again yet.\n",
                                     "command")
        now = self.clock.now()
        message_id = make_message_id("resend", table.game.id, seat.role, inbound.id or 0,
                                     self.addressing.domain, salt=now.isoformat())
        raw = replace_header(last.raw, "Message-ID", message_id)
        row = outbox_rows.queue_mail(session, game_id=table.game.id, recipient=seat.address, message_id=message_id,
                                     subject=last.subject, kind="report", raw=raw, created_at=now,
                                     next_attempt_at=now)
        return Outcome("command", "report sent again", table.game.id, [row])

    def vacation(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
                 seat: Seat) -> Outcome:
        now = self.clock.now()
        dates = (envelope.argument("VACATION") or "").split()
        if len(dates) != 2:
            message = "VACATION needs two dates: VACATION 2026-07-01 2026-07-14"
        else:
            message, logged = record_absence(table, seat.role, dates[0], dates[1], now)
            if logged is not None:
                table.append("control", seat.role, dict({"command": "VACATION"}, **logged), now)
        return self.replies.text(session, table, seat, "Vacation", message + "\n", "command")

    # ------------------------------------------------------------------ orders

    def orders(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope, table: Table,
               seat: Seat) -> Outcome:
        """Read the orders; refuse them all if a line cannot be read; else file them and run the game."""
        engine = table.engine
        kinds = sorted({spec.kind for spec in engine.grammar.specs})
        body = parse_body(envelope.order_lines, engine.grammar, engine.lexicon(table.state, seat.role), kinds)
        receipt = receipt_of(letter, body.lines)
        if body.has_errors:
            bad = [str(line.line_no) for line in body.lines if not line.ok]
            receipt["verdict"] = (f"Nothing was applied, because line{'s' if len(bad) > 1 else ''} "
                                  f"{', '.join(bad)} could not be read. Fix {'them' if len(bad) > 1 else 'it'} "
                                  f"and send the whole message again.")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        if envelope.has("NOTIFY"):
            note = set_notify(seat, envelope.argument("NOTIFY") or "")
            receipt["notes"].append(note)
            if not body.lines or not note.startswith("From now on"):
                receipt["verdict"] = "" if not body.lines else "Nothing was applied: fix the NOTIFY line first."
                return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        continue_at = next((n for n, c, _ in envelope.commands if c == "CONTINUE"), None)
        if envelope.has("CHECK"):
            receipt["verdict"] = check(table, seat, body, continue_at)
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        orders = normalised_orders(body, envelope)
        earlier = earlier_copy(session, table, seat, letter, orders)
        if earlier is not None:  # the same orders sent again (service/resends.py): taken once
            receipt["verdict"] = resend_verdict(table, seat, earlier)
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        now = self.clock.now()
        file_orders(table, seat, body, continue_at)
        seat.submitted_at = now
        submission = Submission(game_id=table.game.id, role=seat.role, inbound_id=inbound.id,
                                body=letter.text[:64000], receipt=dumps(receipt), accepted=True, created_at=now)
        outcome = self._run_or_wait(session, table, seat, receipt, now)
        session.add(remember_taken(submission, table, seat, orders))
        return outcome

    def _run_or_wait(self, session: Session, table: Table, seat: Seat, receipt: dict[str, Any],
                     now: datetime) -> Outcome:
        """Run the game on the orders just filed, unless it is paused or a change of mind may come."""
        game = table.game
        if game.status == "paused":
            receipt["verdict"] = "Accepted. The referee has paused the game; your orders wait until it resumes."
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        delay = timedelta(minutes=self.deadlines.change_of_mind_minutes)
        if delay:
            game.ready_at = now + delay
            session.add(game)
            receipt["verdict"] = ("Accepted. Your orders run after a short change-of-mind delay, at "
                                  f"{now + delay:%H:%M} UTC; until then a new message replaces them.")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        receipt["verdict"] = "Accepted."
        result = self.turns.run(table, now, receipts={seat.role: receipt})
        mine = [h for h in result.holds if h.role == seat.role]
        applied = sum(1 for s in result.steps if s.role == seat.role and s.source in ("script", "agenda"))
        return Outcome("applied", f"{applied} order(s) applied, {len(mine)} hold(s)", game.id, result.reports)


def set_notify(seat: Seat, argument: str) -> str:
    """NOTIFY: how often the seat is mailed; the sentence the receipt says back."""
    choice = argument.strip().upper()
    if choice not in NOTIFY_CHOICES:
        return f"NOTIFY takes one of {', '.join(NOTIFY_CHOICES)} (e.g. NOTIFY ASKED); nothing was changed."
    seat.notify = choice.lower()
    return f"From now on you get mail {NOTIFY_CHOICES[choice]} (NOTIFY {choice})."


def file_orders(table: Table, seat: Seat, body: ParsedBody, continue_at: int | None) -> None:
    """The message's orders replace the seat's script (CONTINUE keeps the queued one where it
    stands), its keyed orders the seat's agenda (when it has any), and merge into its standing orders."""
    plan = table.plan(seat.role)
    if continue_at is not None:
        before = [line for line in body.script if line.line_no < continue_at]
        after = [line for line in body.script if line.line_no > continue_at]
        script = before + plan.script + after
    else:
        script = body.script
    agenda = stamp_agenda(table, body) if body.agenda_given else plan.agenda
    table.save_plan(seat.role, merge_standing(Plan(script=script, standing=plan.standing, agenda=agenda),
                                              body.standing, body.clear_kinds))


def check(table: Table, seat: Seat, body: ParsedBody, continue_at: int | None) -> str:
    """CHECK: run the orders on a copy with throwaway dice; say which lines would run, reveal nothing."""
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


def stamp_agenda(table: Table, body: ParsedBody) -> list[AgendaLine]:
    """The message's keyed orders, marked with the game's current period so they expire with it."""
    period = period_of(table.engine, table.state)
    return [replace(line, period=period) for line in body.agenda]


def replace_header(raw: bytes, name: str, value: str) -> bytes:
    """`raw` with the header `name` set to `value` (a RESEND's new Message-ID)."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    out = []
    for line in head.split(b"\r\n"):
        if line.lower().startswith(name.lower().encode() + b":"):
            out.append(f"{name}: {value}".encode())
        else:
            out.append(line)
    return b"\r\n".join(out) + sep + body
