"""The players' entropy, mixed into the key of the dice (DESIGN §5; docs/design-notes.md, "What each
player adds to the dice").

Plain, the default.  A player's ``ENTROPY <words>`` line at JOIN is their contribution.  Without one
it is derived from what the player wrote and from nothing else: the lines of the message as read
(decoded from their charset and transfer encoding; quoted text, the signature and blank lines left
out), each in Unicode NFC with its runs of white space made one space, joined by line feeds; the
contribution is the first 32 hex digits of their SHA-256.  Headers (Received, Message-ID, Date,
written by servers the operator may run) play no part, so the operator cannot grind it; the welcome
echoes the contribution with the lines it came from, so the player can check it.

Commit and reveal (the game option ``entropy=commit-reveal``).  Each player joins with
``ENTROPY-COMMIT <SHA-256 of a secret text>``; once every seat is taken, every player is asked for
``ENTROPY-REVEAL <the text>`` by a deadline; the game starts when the last text is revealed.  Nobody,
the operator and a player who joins last included, can then choose a contribution knowing the
others'.  Declared rule for a player who has not revealed when the deadline passes: that player's
contribution is dropped (it counts as the empty text), the drop is logged and announced to every
seat, and the game starts.  Why that is safe is written in the design note.

Before that, a player who committed and has not revealed gets one reminder (`reminder_lead`
says when; the reminders job sends it), naming the deadline in their time zone, their commitment,
the line to send and the rule above.  One, not one per threshold as a turn's deadline has: the
request went out when the reveals opened, and the cadence (service/cadence.py) mails a seat when
something is newly asked or about to be decided for it, not again for the same question.  Whether
a seat is reminded depends only on whether that seat has revealed.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session

from moderator.clock import Clock, as_utc
from moderator.core.commitments import entropy_commitment, is_commitment
from moderator.mail.envelope import Envelope
from moderator.registry import Registry
from moderator.service import games as game_service
from moderator.service.cadence import short_time
from moderator.service.notices import Notices
from moderator.service.reports import local_time
from moderator.service.table import Table, dumps, load_table
from moderator.service.turns import TurnRunner
from moderator.settings import DeadlineSettings
from moderator.store import games as stored
from moderator.store.db import Database
from moderator.store.models import Outbox, Seat

COMMIT_REVEAL = game_service.ENTROPY_MODES[1]
#: The most characters of a revealed text (a seat keeps up to 256; an ENTROPY line is cut at 200).
REVEAL_MAX_CHARS = 200
#: How many of the lines a default contribution came from the welcome quotes back.
ECHO_LINES = 12
#: The key of a seat's `reminded_json` that marks its reveal reminder as sent (the game has not
#: started, so no decision of the game uses that column yet).
REVEAL_REMINDED = "entropy-reveal"

DROP_RULE = ("If a player has not revealed when the deadline passes, that player's contribution is "
             "dropped (it counts as empty), every seat is told so, and the game starts with the "
             "others' contributions and the moderator's committed seed.")
HOW_TO_COMMIT = ("Choose a secret text that nobody could guess (a dozen random words, or 20 random "
                 "characters), keep it, and send the SHA-256 of it, e.g. the first word printed by "
                 "printf '%s' 'your secret text' | sha256sum (hash the text without spaces at its ends).")


def written_entropy(lines: Sequence[str]) -> tuple[str, list[str]]:
    """A player's default contribution from the lines they wrote (module docstring), and those lines
    as they were hashed."""
    normal = [" ".join(unicodedata.normalize("NFC", line).split()) for line in lines]
    normal = [line for line in normal if line]
    return hashlib.sha256("\n".join(normal).encode("utf-8")).hexdigest()[:32], normal


@dataclass(frozen=True)
class JoinEntropy:
    """What a JOIN gives the dice: a contribution (plain) or a commitment (commit-reveal), and the
    lines a default contribution came from (None when there is none)."""

    contribution: str
    commitment: str
    written: list[str] | None


def entropy_at_join(envelope: Envelope, lines: Sequence[str], committing: bool) -> JoinEntropy:
    """The JOIN's ENTROPY line, or what the player wrote (never the headers); with commit-reveal, the
    commitment (join_refusal has checked it)."""
    if committing:
        return JoinEntropy("", (envelope.argument("ENTROPY-COMMIT") or "").strip().lower(), None)
    if envelope.join_entropy:
        return JoinEntropy(envelope.join_entropy, "", None)
    contribution, written = written_entropy(lines)
    return JoinEntropy(contribution, "", written)


def contribution_paragraphs(contribution: str, written: list[str] | None, seed_commitment: str) -> list[str]:
    """The welcome's word on a plain game's contribution, echoed so the player can check it."""
    said = [f"Your contribution to the dice: '{contribution}'. It is mixed with the moderator's seed, whose "
            f"commitment is {seed_commitment}; the seed is revealed when the game ends."]
    if written is None:
        return said
    shown = written[:ECHO_LINES]
    more = f"\n    ... and {len(written) - len(shown)} more line(s)" if len(written) > len(shown) else ""
    return said + [
        "You sent no ENTROPY line, so your contribution comes from what you wrote and nothing else (no "
        "header, no date): the first 32 hex digits of the SHA-256 of your message's lines as read, each "
        "with its spaces made single, joined by line feeds (quoted text, your signature and blank lines "
        "left out). Those lines were:\n" + "\n".join(f"    {line}" for line in shown) + more]


def commit_invitation() -> str:
    """What an invitation to a commit-reveal game asks for besides JOIN."""
    return (f"This game mixes the players' entropy by commit and reveal. With JOIN, send a line "
            f"'ENTROPY-COMMIT <64 hex digits>'. {HOW_TO_COMMIT} Once every seat is taken you will be asked "
            f"to send 'ENTROPY-REVEAL <your secret text>'. {DROP_RULE}")


def join_refusal(envelope: Envelope) -> str | None:
    """Why a JOIN may not take a seat of a commit-reveal game; None when it may."""
    if envelope.join_entropy:
        return ("This game mixes the players' entropy by commit and reveal: do not send your text now (no "
                "ENTROPY line), only its SHA-256 in a line 'ENTROPY-COMMIT <64 hex digits>'. " + HOW_TO_COMMIT)
    committed = (envelope.argument("ENTROPY-COMMIT") or "").strip().lower()
    if not is_commitment(committed):
        what = "has no ENTROPY-COMMIT line" if not committed else "has an ENTROPY-COMMIT that is not 64 hex digits"
        return (f"Your JOIN {what}, so the seat was not taken. This game mixes the players' entropy by commit "
                f"and reveal: add a line 'ENTROPY-COMMIT <64 hex digits>'. " + HOW_TO_COMMIT)
    return None


def reminder_lead(window_hours: float, reminders_hours: Sequence[float]) -> float:
    """How many hours before a deadline the one reminder goes (the reveal's, a question's): the largest
    of the club's reminder thresholds that falls in the second half of the window (so the reminder
    never follows the request at once), else half the window."""
    inside = [hours for hours in reminders_hours if 0 < hours <= window_hours / 2]
    return max(inside, default=window_hours / 2)


def is_revealing(table: Table) -> bool:
    """Every seat of a commit-reveal game is taken and the game waits for the reveals."""
    return (game_service.entropy_mode(table.game) == COMMIT_REVEAL and table.game.status == "forming"
            and game_service.all_seated(table))


class EntropyDesk:
    """Commitments, reveals and the reveal deadline of games played with entropy=commit-reveal;
    needs the database, the clock, the games, notices, the turn runner (the game's first run) and
    the deadline settings (the reveals get a phase deadline)."""

    def __init__(self, database: Database, clock: Clock, registry: Registry, notices: Notices,
                 turns: TurnRunner, deadlines: DeadlineSettings):
        self.database = database
        self.clock = clock
        self.registry = registry
        self.notices = notices
        self.turns = turns
        self.deadlines = deadlines

    # ------------------------------------------------------------------ joining

    def joined(self, table: Table, seat: Seat, now: datetime) -> list[str]:
        """The welcome's paragraphs on a commitment just taken; when this was the last seat, the
        reveals open (the other players are mailed, the deadline is set)."""
        said = [f"Your entropy commitment: {seat.entropy_commitment}. Keep your secret text: you reveal it "
                f"once every seat is taken. {DROP_RULE}"]
        if not game_service.all_seated(table):
            waiting = [s.role for s in table.players() if s.joined_at is None]
            return said + [f"The game starts once every seat is taken (still open: {', '.join(waiting)}) "
                           f"and every player has revealed."]
        due = self._open_reveals(table, now, but=seat.role)
        return said + [self._reveal_request(due)]

    def _open_reveals(self, table: Table, now: datetime, but: str) -> datetime:
        due = now + timedelta(hours=self.deadlines.phase_hours)
        table.game.next_deadline = due
        table.session.add(table.game)
        table.append("entropy", "", {"reveals_due": due.isoformat()}, now)
        for other in table.players():
            if other.role != but:
                self.notices.post(table.session, table, other.address, other.role, "Reveal your entropy",
                                  [self._reveal_request(due)], kind="notice")
        return due

    @staticmethod
    def _reveal_request(due: datetime) -> str:
        return (f"Every seat is taken and every commitment is in. Reveal your secret text now: send "
                f"'ENTROPY-REVEAL <your secret text>' (with GAME, ROLE and SECRET) by {due:%Y-%m-%d %H:%M} UTC. "
                f"The game starts when every player has revealed. {DROP_RULE}")

    # ------------------------------------------------------------------ the players' commands

    def commit(self, table: Table, seat: Seat, argument: str, now: datetime) -> str:
        """ENTROPY-COMMIT: replace the seat's commitment while seats are still open."""
        if game_service.entropy_mode(table.game) != COMMIT_REVEAL:
            return "This game does not use commit and reveal for its entropy; nothing was changed."
        if table.game.status != "forming" or game_service.all_seated(table):
            return "Every seat is taken, so the commitments are closed; nothing was changed."
        committed = argument.strip().lower()
        if not is_commitment(committed):
            return f"ENTROPY-COMMIT takes 64 hex digits (a SHA-256); nothing was changed. {HOW_TO_COMMIT}"
        seat.entropy_commitment = committed
        table.session.add(seat)
        table.append("entropy", seat.role, {"entropy_commitment": committed}, now)
        return f"Your entropy commitment is now {committed}."

    def reveal(self, table: Table, seat: Seat, argument: str, now: datetime) -> tuple[str, list[Outbox]]:
        """ENTROPY-REVEAL: check the text against the seat's commitment; start the game after the last."""
        if game_service.entropy_mode(table.game) != COMMIT_REVEAL:
            return "This game does not use commit and reveal for its entropy; nothing was changed.", []
        if not is_revealing(table):
            still = "the seats are not all taken yet" if table.game.status == "forming" else "the game has started"
            return f"No reveal is asked now ({still}); nothing was recorded.", []
        if seat.contribution:
            return "You have revealed already; nothing was changed.", []
        text = argument.strip()
        if len(text) > REVEAL_MAX_CHARS:
            return f"A revealed text has at most {REVEAL_MAX_CHARS} characters; nothing was recorded.", []
        digest = entropy_commitment(text)
        if digest != seat.entropy_commitment:
            return (f"That text does not match your commitment: its SHA-256 is {digest}, your commitment is "
                    f"{seat.entropy_commitment}. Nothing was recorded; send the exact text (spaces at its ends "
                    f"do not count) before the deadline."), []
        seat.contribution = text
        table.session.add(seat)
        table.append("entropy", seat.role, {"revealed": text}, now)
        if any(not s.contribution for s in table.players()):
            return "Your text matches your commitment and is recorded. The game starts once all have revealed.", []
        return "Your text matches your commitment and is recorded. Every player has revealed: the game starts.", \
            self._start(table, now)

    # ------------------------------------------------------------------ the reminder

    def remind_due(self) -> int:
        """Remind, once, each player who committed and has not revealed, `reminder_lead` hours
        before the reveal deadline; returns how many mails were queued."""
        now = self.clock.now()
        lead = timedelta(hours=reminder_lead(self.deadlines.phase_hours, self.deadlines.reminders_hours))
        with self.database.session() as session:
            game_ids = stored.revealing_game_ids(session)
        sent = 0
        for game_id in game_ids:
            with self.database.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                due = as_utc(table.game.next_deadline)
                if due is None or not is_revealing(table) or not due - lead <= now < due:
                    continue
                for seat in table.players():
                    sent += self._remind(table, seat, due)
        return sent

    def _remind(self, table: Table, seat: Seat, due: datetime) -> int:
        reminded = json.loads(seat.reminded_json or "{}")
        if seat.contribution or not seat.entropy_commitment or REVEAL_REMINDED in reminded:
            return 0
        reminded[REVEAL_REMINDED] = [due.isoformat()]
        seat.reminded_json = dumps(reminded)
        table.session.add(seat)
        said = (f"Reminder: the moderator still waits for your entropy reveal, due {local_time(due, seat.timezone)}. "
                f"You committed to {seat.entropy_commitment}; send the secret text whose SHA-256 that is, in a "
                f"line 'ENTROPY-REVEAL <your secret text>' with the lines below. This is the only reminder. "
                f"{DROP_RULE}")
        self.notices.post(table.session, table, seat.address, seat.role,
                          f"reminder: reveal your entropy, due {short_time(due, seat.timezone)}", [said],
                          envelope=[f"GAME {table.game.id}", f"ROLE {seat.role}", f"SECRET {seat.secret}",
                                    "ENTROPY-REVEAL <your secret text>"], kind="notice")
        return 1

    # ------------------------------------------------------------------ the deadline

    def close_due(self) -> list[str]:
        """Games whose reveal deadline passed: drop the missing reveals (DROP_RULE) and start them."""
        now = self.clock.now()
        with self.database.session() as session:
            due = stored.reveal_due_game_ids(session, now)
        started = []
        for game_id in due:
            with self.database.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                if is_revealing(table):
                    self._drop_missing(session, table, now)
                    self._start(table, now)
                    started.append(game_id)
        return started

    def _drop_missing(self, session: Session, table: Table, now: datetime) -> None:
        missing = [s.role for s in table.players() if not s.contribution]
        for role in missing:
            table.append("entropy", role, {"dropped": True, "entropy_commitment": table.seats[role].entropy_commitment},
                         now)
        said = (f"The reveal deadline passed without a reveal from {', '.join(missing)}: as the rule declared "
                f"at the start, {'their contributions are' if len(missing) > 1 else 'that contribution is'} "
                f"dropped (counted as empty). The game starts with the other contributions and the seed the "
                f"moderator committed to.")
        for seat in table.players() + table.observers():
            self.notices.post(session, table, seat.address, seat.role, "Entropy: a reveal is missing", [said],
                              kind="notice")

    def _start(self, table: Table, now: datetime) -> list[Outbox]:
        table.game.next_deadline = None
        game_service.start(table, now)
        return self.turns.run(table, now, report_all=True).reports
