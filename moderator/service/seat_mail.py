"""A seat's message, once the mailroom knows it comes from the seat's player with the seat's
secret: the player's commands (listed in mail/commands.py), then the orders (DESIGN §4)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from jinja2 import Environment
from sqlmodel import Session

from moderator.clock import Clock
from moderator.core.contract import Decision, Engine
from moderator.core.errors import ParseError
from moderator.core.human import YesNo, closest_answer, kinds_of_line, yes_no_answers, yes_no_word
from moderator.core.plans import AgendaLine, ParsedBody, Plan, ScriptLine, parse_body
from moderator.core.runner import Runner
from moderator.mail.compose import make_message_id
from moderator.mail.envelope import Envelope
from moderator.mail.hygiene import Letter
from moderator.service.absences import record_absence
from moderator.service.entropy import EntropyDesk, is_revealing
from moderator.service.filing import Filing, dry_run_rng, file_orders, standing_only
from moderator.service.options import every_answer, options_text
from moderator.service.owed import next_decision_of, status_text
from moderator.service.receipt_lines import Fate, mark, mark_all, script_fates, settle_lines, summary
from moderator.service.replies import Outcome, Replies, receipt_of
from moderator.service.reports import Addressing, help_text
from moderator.service.resends import earlier_copy, normalised_orders, remember_taken, resend_verdict
from moderator.service.stale_replies import Answered, answered_report, stale_notes
from moderator.service.table import Table, dumps
from moderator.service.turns import RunResult, TurnRunner
from moderator.settings import DeadlineSettings
from moderator.store import outbox as outbox_rows
from moderator.store.models import InboundMail, Outbox, Seat, Submission

#: Commands that change how the orders of the same message are taken, not answered apart.
ORDER_MODIFIERS = ("CHECK", "CONTINUE", "NOTIFY", "SCRIPT")
#: Commands answered after the orders written beside them (issue 12: "ACTIVATE 109 / OPTIONS" lost the
#: orders); the others (RESEND, VACATION ...) still leave a message's orders unread.
AFTER_ORDERS = ("HELP", "STATUS", "OPTIONS")
#: NOTIFY's choices, and what each means (said back in the receipt).
NOTIFY_CHOICES = {
    "TURN": "when something is asked of you and at the end of each game turn",
    "EVERY": ("whenever something happens in the game, except while a question you were mailed waits for your "
              "answer: what happens meanwhile comes with the mail your answer brings"),
    "ASKED": "only when something is asked of you (and at the end of the game)",
}


@dataclass
class Said:
    """A command's answer: a titled text for the one reply to the message (empty: none), and any
    mail it sends besides (RESEND's report, the reports of a game the last reveal started)."""

    title: str
    text: str = ""
    mails: list[Outbox] = field(default_factory=list)
    reason: str = ""  # for the outcome, when the text is empty


#: A player's command: its answer (the message's orders, if any, are not read).
Answer = Callable[[Session, InboundMail, Envelope, Table, Seat], Said]


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
        #: Answered once the game has started.
        self.answers: Mapping[str, Answer] = {"STATUS": self.status, "OPTIONS": self.options, "RESEND": self.resend,
                                              "VACATION": self.vacation}

    @property
    def handled(self) -> frozenset[str]:
        """Every command this desk knows (a test compares it with mail/commands.py)."""
        return frozenset([*self.answers_always, *self.answers, *ORDER_MODIFIERS])

    def handle(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope, table: Table,
               seat: Seat) -> Outcome:
        """Answer the message's commands, or take its orders."""
        game = table.game
        commands = list(dict.fromkeys(c for _, c, _ in envelope.commands))
        forming = game.status == "forming"
        answering = [name for name in commands
                     if name in self.answers_always or (name in self.answers and not forming)]
        if answering and self.orders_beside(table, seat, envelope, answering):
            return self.orders_then_commands(session, inbound, letter, envelope, table, seat, answering)
        if answering:
            later = [name for name in commands if name in self.answers] if forming else []
            return self.answer_commands(session, inbound, envelope, table, seat, answering, later)
        return self.take(session, inbound, letter, envelope, table, seat)

    @staticmethod
    def orders_beside(table: Table, seat: Seat, envelope: Envelope, answering: list[str]) -> bool:
        """Whether the message's orders run before its commands are answered: only HELP, STATUS and
        OPTIONS wait for them, CHECK keeps its dry run, and prose alone beside a command is no order."""
        if table.game.status not in ("running", "paused") or envelope.has("CHECK"):
            return False
        if not set(answering) <= set(AFTER_ORDERS):
            return False
        return any(not line.ignored for line in read_orders(table, seat, envelope).lines)

    def take(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope, table: Table,
             seat: Seat) -> Outcome:
        """Take the message's orders, unless the game is not running them or they are for another phase."""
        game = table.game
        if game.status == "forming":
            revealing = " and every player has revealed their entropy" if is_revealing(table) else ""
            return self.replies.receipt(session, letter, envelope, table,
                                        [f"The game has not started yet: it starts when every seat is taken"
                                         f"{revealing}."])
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

    def orders_then_commands(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope,
                             table: Table, seat: Seat, names: list[str]) -> Outcome:
        """The message's orders taken as any orders are, then its HELP/STATUS/OPTIONS answered in a reply
        that follows the receipt, so that OPTIONS lists what is asked once the orders have run."""
        taken = self.take(session, inbound, letter, envelope, table, seat)
        answered = self.answer_commands(session, inbound, envelope, table, seat, names, [], orders_read=True)
        return Outcome(taken.status, f"{taken.reason}; then {answered.reason}", taken.game_id,
                       [*taken.replies, *answered.replies], taken.released)

    def answer_commands(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat,
                        names: list[str], later: list[str], orders_read: bool = False) -> Outcome:
        """Every command of the message answered, in the order written, in one reply (issue 12: HELP and
        OPTIONS in one message lost OPTIONS); RESEND's report goes as it is."""
        answers = {**self.answers_always, **self.answers}
        said = [answers[name](session, inbound, envelope, table, seat) for name in names]
        texted = [item for item in said if item.text]
        notes = [f"{', '.join(later)}: answered once the game has started; nothing was done."] if later else []
        if envelope.order_lines and not orders_read:
            notes.append(f"This message held commands, so its other lines ({len(envelope.order_lines)}) were not "
                         f"read as orders: send orders in a message of their own (CHECK with orders is a dry run).")
        replies: list[Outbox] = []
        if texted or notes:
            if len(texted) == 1 and not notes:
                title, body = texted[0].title, texted[0].text
            else:
                title = " and ".join(item.title for item in texted) or "Your commands"
                body = "\n".join([*(part for item in texted for part in _section(item)),
                                  *(textwrap.fill(note, 72) for note in notes), ""])
            replies.append(self.replies.text(session, table, seat, title, body, "command").replies[0])
        for item in said:
            replies += item.mails
        reason = "; ".join(item.title if item.text else item.reason for item in said)
        return Outcome("command", reason, table.game.id, replies)

    # ------------------------------------------------------------------ commands

    def help(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat) -> Said:
        return Said("Help", help_text(self.environment, table.engine))

    def entropy_commit(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
                       seat: Seat) -> Said:
        said = self.entropy.commit(table, seat, envelope.argument("ENTROPY-COMMIT") or "", self.clock.now())
        return Said("Entropy commitment", said + "\n")

    def entropy_reveal(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table,
                       seat: Seat) -> Said:
        said, reports = self.entropy.reveal(table, seat, envelope.argument("ENTROPY-REVEAL") or "", self.clock.now())
        return Said("Entropy revealed", said + "\n", reports)

    def status(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat) -> Said:
        return Said("Status", status_text(table, seat, self.clock.now()))

    def options(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat) -> Said:
        return Said("Options", options_text(table.engine, table.state, seat.role))

    def resend(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat) -> Said:
        last = outbox_rows.by_message_id(session, seat.last_report_message_id)
        if last is None:
            return Said("Resend", "There is no report to send again yet.\n")
        now = self.clock.now()
        message_id = make_message_id("resend", table.game.id, seat.role, inbound.id or 0,
                                     self.addressing.domain, salt=now.isoformat())
        raw = replace_header(last.raw, "Message-ID", message_id)
        row = outbox_rows.queue_mail(session, game_id=table.game.id, recipient=seat.address, message_id=message_id,
                                     subject=last.subject, kind="report", raw=raw, created_at=now,
                                     next_attempt_at=now)
        return Said("Resend", mails=[row], reason="report sent again")

    def vacation(self, session: Session, inbound: InboundMail, envelope: Envelope, table: Table, seat: Seat) -> Said:
        now = self.clock.now()
        dates = (envelope.argument("VACATION") or "").split()
        if len(dates) != 2:
            message = "VACATION needs two dates: VACATION 2026-07-01 2026-07-14"
        else:
            message, logged = record_absence(table, seat.role, dates[0], dates[1], now)
            if logged is not None:
                table.append("control", seat.role, dict({"command": "VACATION"}, **logged), now)
        return Said("Vacation", message + "\n")

    # ------------------------------------------------------------------ orders

    def orders(self, session: Session, inbound: InboundMail, letter: Letter, envelope: Envelope, table: Table,
               seat: Seat) -> Outcome:
        """Read the orders; refuse them all if a line cannot be read; else file them and run the game."""
        body = read_orders(table, seat, envelope)
        receipt = receipt_of(letter, body.lines)
        if body.has_errors:
            bad = [str(line.line_no) for line in body.lines if not line.ok]
            receipt["verdict"] = (f"Nothing was applied, because line{'s' if len(bad) > 1 else ''} "
                                  f"{', '.join(bad)} could not be read. Fix {'them' if len(bad) > 1 else 'it'} "
                                  f"and send the whole message again.")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        if body.lines and all(line.ignored for line in body.lines) and not envelope.commands:
            receipt["verdict"] = ("Your message held no orders: every line of it reads as a note to the referee (a "
                                  "greeting, a sign-off), so nothing was done. Write one order per line (HELP lists "
                                  "them, with examples); a line that begins with an order word is read as an order.")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        if envelope.has("NOTIFY"):
            note = set_notify(seat, envelope.argument("NOTIFY") or "")
            receipt["notes"].append(note)
            if not body.lines or not note.startswith("From now on"):
                receipt["verdict"] = "" if not body.lines else "Nothing was applied: fix the NOTIFY line first."
                return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        continue_at = next((n for n, c, _ in envelope.commands if c == "CONTINUE"), None)
        clear = script_clear(envelope, receipt)
        if envelope.has("CHECK"):
            check(table, seat, body, continue_at, clear, receipt)
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        answered = answered_report(session, table, seat, letter)
        if answered is not None:  # a reply to an older report (service/stale_replies.py)
            return self._stale(session, inbound, letter, table, seat, body, receipt, answered)
        orders = normalised_orders(body, envelope)
        earlier = earlier_copy(session, table, seat, letter, orders)
        if earlier is not None:  # the same orders sent again (service/resends.py): taken once
            receipt["verdict"] = resend_verdict(table, seat, earlier)
            mark_all(receipt, "not applied", "a resend: these orders were taken before")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        now = self.clock.now()
        filing = file_orders(table.engine, table.state, seat.role, table.plan(seat.role), body, continue_at, clear)
        table.save_plan(seat.role, filing.plan)
        receipt["notes"].extend(filing.notes())
        receipt.update(standing_said(filing))
        seat.submitted_at = now
        submission = Submission(game_id=table.game.id, role=seat.role, inbound_id=inbound.id,
                                body=letter.text[:64000], receipt=dumps(receipt), accepted=True, created_at=now)
        outcome = self._run_or_wait(session, table, seat, receipt, now, filing)
        session.add(remember_taken(submission, table, seat, orders))
        return outcome

    def _stale(self, session: Session, inbound: InboundMail, letter: Letter, table: Table, seat: Seat,
               body: ParsedBody, receipt: dict[str, Any], answered: Answered) -> Outcome:
        """A reply to an older report: only its standing orders are taken; the game runs if there are any."""
        receipt["notes"].extend(stale_notes(answered, table, seat))
        mark_all(receipt, "not applied", answered.reason())
        filing = standing_only(table.engine, seat.role, table.plan(seat.role), body)
        for line in receipt["lines"]:
            if str(line.get("canonical") or "").startswith("STANDING"):
                mark(line, Fate("filed", filing.standing_why.get(line["line_no"], "in force from now on")))
        if not body.standing_changes:
            receipt["verdict"] = summary(receipt)
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        now = self.clock.now()
        receipt.update(standing_said(filing))
        table.save_plan(seat.role, filing.plan)
        session.add(Submission(game_id=table.game.id, role=seat.role, inbound_id=inbound.id,
                               body=letter.text[:64000], receipt=dumps(receipt), accepted=True, created_at=now))
        return self._run_or_wait(session, table, seat, receipt, now, filing)

    def _run_or_wait(self, session: Session, table: Table, seat: Seat, receipt: dict[str, Any],
                     now: datetime, filing: Filing) -> Outcome:
        """Run the game on the orders just filed, unless it is paused or a change of mind may come."""
        game = table.game
        waiting = len(filing.plan.script)
        if game.status == "paused":
            settle_lines(receipt, filing.positions, [Fate("queued", "the referee has paused the game")] * waiting,
                         filing.agenda_lines, set(), standing_why=filing.standing_why, keyed_why=keyed_why(filing))
            receipt["verdict"] = (f"{summary(receipt)} The referee has paused the game; your orders wait until it "
                                  f"resumes.")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        delay = timedelta(minutes=self.deadlines.change_of_mind_minutes)
        if delay:
            game.ready_at = now + delay
            session.add(game)
            when = f"after a short change-of-mind delay, at {now + delay:%H:%M} UTC"
            settle_lines(receipt, filing.positions, [Fate("queued", f"runs {when}")] * waiting,
                         filing.agenda_lines, set(), standing_why=filing.standing_why, keyed_why=keyed_why(filing))
            # A new message's ON lines are added to the keyed orders (core/agenda.py): only ON CLEAR drops them.
            keyed = " (its ON lines are added to your keyed orders; ON CLEAR drops those)" if filing.agenda_lines \
                else ""
            receipt["verdict"] = (f"{summary(receipt)} Your orders run {when}; until then a new message "
                                  f"replaces them{keyed}.")
            return self.replies.seat_receipt(session, table, seat, receipt, "receipt")
        result = self.turns.run(table, now, receipts={seat.role: receipt},
                                settle=lambda result, plans: settle_run(table, seat.role, filing, receipt, result,
                                                                        plans))
        mine = [h for h in result.holds if h.role == seat.role]
        applied = sum(1 for s in result.steps if s.role == seat.role and s.source in ("script", "agenda"))
        return Outcome("applied", f"{applied} order(s) applied, {len(mine)} hold(s)", game.id, result.reports)


def read_orders(table: Table, seat: Seat, envelope: Envelope) -> ParsedBody:
    """The message's order lines, read with the seat's names; YES and NO mean what is asked now."""
    engine = table.engine
    kinds = sorted({spec.kind for spec in engine.grammar.specs})
    yes_no = yes_no_now(table, seat) if any(yes_no_word(text.strip().rstrip(".!"), engine.grammar)
                                            for _, text in envelope.order_lines) else None
    body = parse_body(envelope.order_lines, engine.grammar, engine.lexicon(table.state, seat.role), kinds, yes_no)
    return with_closest_answers(table, seat, body) if body.has_errors else body


def with_closest_answers(table: Table, seat: Seat, body: ParsedBody) -> ParsedBody:
    """A line that cannot be read and is meant for a question asked now is told that question's
    closest legal answer (the grammar has already named the closest names)."""
    engine = table.engine
    asked = [d for d in engine.pending(table.state) if d.role == seat.role]
    lines = []
    for line in body.lines:
        kinds = kinds_of_line(line.source, engine.grammar) if not line.ok else set()
        decision = next((d for d in asked if d.kind in kinds), None)
        if decision is not None:
            near = closest_answer(line.source, every_answer(engine, table.state, decision))
            if near:
                line = replace(line, error=f"{line.error}; the closest answer to what you are asked now: '{near[0]}'")
        lines.append(line)
    body.lines = lines
    return body


def yes_no_now(table: Table, seat: Seat) -> YesNo:
    """What YES and NO stand for in the questions asked of the seat now (their legal answers)."""
    engine = table.engine
    questions = []
    for decision in engine.pending(table.state):
        if decision.role == seat.role:
            answers = [engine.grammar.render(order) for order in engine.legal_orders(table.state, decision)]
            questions.append((decision.prompt, list(dict.fromkeys([*decision.options, *answers]))))
    return yes_no_answers(questions)


def script_clear(envelope: Envelope, receipt: dict[str, Any]) -> bool:
    """SCRIPT CLEAR: drop the queued script (anything else after SCRIPT is said back, and ignored)."""
    if not envelope.has("SCRIPT"):
        return False
    if (envelope.argument("SCRIPT") or "").strip().upper() == "CLEAR":
        return True
    receipt["notes"].append("SCRIPT is written SCRIPT CLEAR (drop your queued script); that line was ignored.")
    return False


def settle_run(table: Table, role: str, filing: Filing, receipt: dict[str, Any], result: RunResult,
               plans: dict[str, Plan]) -> None:
    """Once the run is done: what became of each line of the message, and the receipt's verdict."""
    log = [(line, status, why) for who, line, status, why in result.script_log if who == role]
    fates = script_fates(filing.plan.script, plans[role].script, log, waits_for(table, role))
    settle_lines(receipt, filing.positions, fates, filing.agenda_lines,
                 keyed_used(filing, [line for who, line in result.keyed_used if who == role]),
                 standing_why=filing.standing_why, keyed_why=keyed_why(filing, plans[role].agenda))
    receipt["verdict"] = summary(receipt)


def keyed_used(filing: Filing, used: Sequence[AgendaLine]) -> set[int]:
    """The message's ON lines whose agenda line a question used (each line is used once)."""
    left = list(used)
    found = set()
    for number, line in (filing.keyed.stands_for.items() if filing.keyed else ()):
        if line in left:
            left.remove(line)
            found.add(number)
    return found


def keyed_why(filing: Filing, agenda: Sequence[AgendaLine] = ()) -> dict[int, str]:
    """What an ON CLEAR did, or that an ON line waited already, by line number (core/agenda.py); for an
    ON line still on `agenda` (the seat's, after the run) that a question came for and the engine refused,
    the reason (core/runner.py), so the receipt does not say only that it waits."""
    if filing.keyed is None:
        return {}
    why = dict(filing.keyed.effects)
    refused = {line: line.refused for line in agenda if line.refused}
    for number, line in filing.keyed.stands_for.items():
        if line in refused:
            why[number] = f"its question came, but it was not legal then: {refused[line]}; it waits for a later one"
    return why


def waits_for(table: Table, role: str, past_the_check: bool = False) -> Callable[[ScriptLine], str]:
    """A queued line's reason: the kind of question it waits for (in the grammar's words); in a CHECK that
    stopped at another player's question, first that the line lies past it (hand-vmt.md D3: DONE 'would
    wait' for the very question it answers, and nothing said the check went no further)."""
    engine = table.engine
    lexicon = engine.lexicon(table.state, role)
    past = "past where the check stopped; " if past_the_check else ""

    titles = engine.grammar.kind_titles
    opening = " or ".join(titles.get(kind, kind) for kind in engine.info.opening_kinds)

    def reason(line: ScriptLine) -> str:
        if line.is_stop:
            return f"{past}ends the script there"
        try:
            kind = engine.grammar.parse(line.text, lexicon).kind
        except ParseError:
            return f"{past}waits for a later question"
        if line.in_round:  # a round's own line (core/script_order.py): it lapses with the round
            return (f"{past}waits for: {titles.get(kind, kind)}, in this round only (it lapses at the next question "
                    f"\"{opening}\", or when the turn ends)")
        return f"{past}waits for: {titles.get(kind, kind)}"
    return reason


def set_notify(seat: Seat, argument: str) -> str:
    """NOTIFY: how often the seat is mailed; the sentence the receipt says back."""
    choice = argument.strip().upper()
    if choice not in NOTIFY_CHOICES:
        return f"NOTIFY takes one of {', '.join(NOTIFY_CHOICES)} (e.g. NOTIFY ASKED); nothing was changed."
    seat.notify = choice.lower()
    return f"From now on you get mail {NOTIFY_CHOICES[choice]} (NOTIFY {choice})."


def check(table: Table, seat: Seat, body: ParsedBody, continue_at: int | None, clear: bool,
          receipt: dict[str, Any]) -> None:
    """CHECK: what each line would do if sent now, from a run on a copy with throwaway dice that stops
    at the first question that is not the sender's (issue 13: no one else's plan is read)."""
    engine, role = table.engine, seat.role
    filing = file_orders(engine, table.state, role, table.plan(role), body, continue_at, clear)
    trial = replace(filing.plan, script=list(filing.plan.script), standing=list(filing.plan.standing),
                    agenda=list(filing.plan.agenda))
    advance = Runner(engine).advance(table.state, {role: trial}, dry_run_rng(), may_answer=lambda d: d.role == role)
    log = [(line, status, why) for who, line, status, why in advance.script_log if who == role]
    asked = [d for d in advance.waiting if d.role == role]
    others = [d for d in advance.waiting if d.role != role]
    fates = script_fates(filing.plan.script, trial.script, log, waits_for(table, role, bool(others) and not asked))
    settle_lines(receipt, filing.positions, fates, filing.agenda_lines,
                 keyed_used(filing, [line for who, line in advance.keyed_used if who == role]), check=True,
                 standing_why=filing.standing_why, keyed_why=keyed_why(filing))
    receipt["notes"].extend(filing.notes(check=True))
    receipt.update(standing_said(filing, check=True))
    then = f" You would then be asked: {'; '.join(d.prompt.rstrip('.') for d in asked)}." if asked else ""
    receipt["verdict"] = (f"CHECK only: nothing was applied. {summary(receipt, check=True)}{then}"
                          f"{where_the_check_stopped(engine, others, bool(asked))} Its dice are not the game's, so "
                          f"later results may differ.")


def where_the_check_stopped(engine: Engine[Any], others: Sequence[Decision], asked: bool) -> str:
    """Where a CHECK's dry run stopped: at another player's question (it answers none: issue 13, no one
    else's plan is read), named by its public facts only, so the answer is the same whatever that player
    holds; or at the sender's own.  Empty when nothing is open (the game would end)."""
    if asked:
        return " The check stops there, at your own question."
    if not others:
        return ""
    named = " and ".join(dict.fromkeys(next_decision_of(engine, d) for d in others))
    return (f" The check stopped at {named}: it never answers for another player. Your lines still waiting "
            f"would be taken in order when play reaches them.")


def standing_said(filing: Filing, check: bool = False) -> dict[str, list[str]]:
    """The receipt's `standing` (what is in force for each kind the message touched), only when there is
    some: a receipt's logged form stays as it was for a message that filed no standing order."""
    said = filing.standing_notes(check)
    return {"standing": said} if said else {}


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


def _section(said: Said) -> list[str]:
    """One command's answer in a reply that carries several: its title underlined, then its text."""
    return [said.title.upper(), "=" * len(said.title), said.text.rstrip("\n"), ""]
