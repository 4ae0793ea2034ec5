"""The referee's and the observers' mail (issue 12, "The referee and observers").

The referee gets a welcome when the game is created (the referee secret, stored nowhere but as a
hash, and the referee commands by mail from mail/commands.py), then one digest when the game
starts, one at the end of each game turn and one when it ends: who owes which decision by when,
what was answered for a player without their writing it, the missed deadlines, and the mail kept
in quarantine for the game.  A digest is rendered from public facts only (the observer's events,
the questions' public facts, see service/owed.py) and the moderator's own records, so nothing a
player hides (a hand, a hidden block) can reach it.

Observers get an invitation that says what they will receive; it never asks for orders, and their
reports carry no questions and no envelope (service/reports.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from jinja2 import Environment
from sqlmodel import Session

from moderator.core.contract import OBSERVER, REFEREE
from moderator.mail.commands import REFEREE as REFEREE_AUDIENCE
from moderator.mail.commands import commands_for
from moderator.mail.compose import thread_root
from moderator.mail.echo import clip
from moderator.render.texts import render, wrap
from moderator.service.cadence import Mark, missed_deadline, short_time
from moderator.service.notices import Notices
from moderator.service.owed import (
    REFEREE_TIMEZONE,
    headline,
    kind_named,
    owed_decisions,
    owed_lines,
    phase_words,
    referee_timezone,
    role_title,
)
from moderator.service.reports import narrate
from moderator.service.table import Table
from moderator.store import inbound as inbound_rows
from moderator.store.inbound import Kept
from moderator.store.models import Outbox, Seat

#: The outbox kind of a digest.
DIGEST = "digest"
DIGEST_TEMPLATE = "mail/referee_digest.txt.j2"
#: At most this many quarantined messages are listed in a digest (the newest); the count says the rest.
KEPT_SHOWN = 10
#: How much of a stranger's sender, subject or of a quarantine reason a digest quotes.
QUOTED_CHARS = 100
#: How a logged answer came about, for the referee.
SOURCES = {"game-standing": "the game's standing defaults", "standing": "their own standing orders"}

__all__ = ["DIGEST", "REFEREE_TIMEZONE", "RefereeMail", "Turn", "referee_status_text"]


@dataclass(frozen=True)
class Turn:
    """What a run did to the game's turns: the digest goes out when one of these is true."""

    opening: bool  # the game's first run (every seat taken)
    ended: int | None  # the game turn that ended in the run, if one did
    finished: bool  # the game ended

    @classmethod
    def of(cls, table: Table, started_at: Mark | None, opening: bool, finished: bool) -> Turn:
        if started_at is None or not started_at.passed(Mark.of(table.engine, table.state), "turn"):
            return cls(opening, None, finished)
        return cls(opening, started_at.turn, finished)

    @property
    def worth_a_digest(self) -> bool:
        return self.opening or self.ended is not None or self.finished


class RefereeMail:
    """Writes the referee's welcome and digests and the observers' invitations; needs notices and templates."""

    def __init__(self, notices: Notices, environment: Environment):
        self.notices = notices
        self.environment = environment

    # ------------------------------------------------------------------ at creation

    def welcome(self, session: Session, table: Table, secret: str) -> Outbox | None:
        """The referee's welcome with the referee secret and the commands (None: the game has no referee)."""
        game = table.game
        if not game.referee_address:
            return None
        heading = f"{game.id}: you referee this game"
        seats = [{"title": role_title(s.role),
                  "state": f"{s.address}, invited" if s.address else "no address (its invitation token was printed "
                                                                      "when the game was created)"}
                 for s in table.players()]
        text = render(self.environment, "mail/referee_welcome.txt.j2", heading=heading, game_id=game.id,
                      title=table.engine.info.title, scenario=game.scenario, secret=secret, seats=seats,
                      observers=[(s.role, s.address) for s in table.observers()],
                      referee_address=game.referee_address, orders_address=self.notices.addressing.orders_address,
                      commands=referee_commands(), commitment=game.commitment)
        return self.notices.post(session, table, game.referee_address, REFEREE,
                                 f"you referee {table.engine.info.title}", [], kind="notice", body=text,
                                 message_id=thread_root(game.id, REFEREE, self.notices.addressing.domain))

    def invite_observer(self, session: Session, table: Table, seat: Seat) -> Outbox:
        """An observer's invitation: what they will read, and that nothing is asked of them."""
        game = table.game
        players = ", ".join(role_title(role) for role in table.player_roles)
        who = f"the referee ({game.referee_address})" if game.referee_address else "whoever created the game"
        paragraphs = [
            f"You are invited to watch game {game.id} ({table.engine.info.title}) as the observer '{seat.role}'.",
            f"Nothing is asked of you and there is nothing to answer. When every seat ({players}) is taken, "
            f"you get a report at the start of the game and at the end of each game turn, with what everyone "
            f"may see: the public events and dice, the map, the result. A player's hand or hidden blocks are "
            f"never shown to you.",
            f"The moderator takes no orders from observers. To stop the reports, write to {who}.",
            f"The moderator has committed to its secret dice seed: {game.commitment}. It is revealed when "
            f"the game ends, so that anyone can check every roll.",
        ]
        return self.notices.post(session, table, seat.address, seat.role, "you are invited to watch", paragraphs,
                                 kind="notice",
                                 message_id=thread_root(game.id, seat.role, self.notices.addressing.domain))

    # ------------------------------------------------------------------ after a run

    def after_run(self, table: Table, now: datetime, turn: Turn) -> Outbox | None:
        """The digest, when the run started the game, ended a game turn or ended the game (else None)."""
        game = table.game
        if not game.referee_address or not turn.worth_a_digest:
            return None
        kept = inbound_rows.quarantined_for_game(table.session, game.id)
        context = self.digest_context(table, now, turn, kept)
        row = self.notices.post(table.session, table, game.referee_address, REFEREE, context["title"], [],
                                kind=DIGEST, body=render(self.environment, DIGEST_TEMPLATE, **context))
        game.digest_seq = game.last_seq
        game.digest_inbound_id = max([game.digest_inbound_id, *(item.inbound_id for item in kept)])
        table.session.add(game)
        return row

    def digest_text(self, table: Table, now: datetime, turn: Turn, kept: Sequence[Kept]) -> str:
        """The text of the digest `after_run` would mail now."""
        return render(self.environment, DIGEST_TEMPLATE, **self.digest_context(table, now, turn, kept))

    def digest_context(self, table: Table, now: datetime, turn: Turn, kept: Sequence[Kept]) -> dict[str, Any]:
        """Everything a digest shows (since the last one): public facts and the moderator's records,
        never a hidden one."""
        engine = table.engine
        tz = referee_timezone(table)
        since = table.game.digest_seq
        recent = [(role, payload) for _seq, role, payload in table.answers_after(since)]
        fresh = {item.inbound_id for item in kept if item.inbound_id > table.game.digest_inbound_id}
        shown = [{"inbound_id": item.inbound_id, "fresh": item.inbound_id in fresh,
                  "when": short_time(item.received_at, tz), "sender": clip(item.sender, QUOTED_CHARS),
                  "subject": clip(item.subject, QUOTED_CHARS),
                  "reason": clip(item.reason.splitlines()[0] if item.reason else "", QUOTED_CHARS)}
                 for item in list(kept)[-KEPT_SHOWN:]]
        missed = missed_deadlines(table, since)
        title = digest_title(table, turn, sum(m[1] for m in missed), len(fresh))
        return dict(
            title=title, heading=f"{table.game.id}: {title}", situation=situation(table, turn), tz=tz,
            owed=owed_lines(owed_decisions(table), REFEREE, tz, now), opening=turn.opening,
            defaulted=defaulted_lines(table, recent), standing=standing_lines(table, recent),
            totals=", ".join(f"{role} {total}" for role, _recent, total in missed),
            kept=list(kept), shown=shown, fresh=len(fresh),
            orders_address=self.notices.addressing.orders_address, game_id=table.game.id,
            commands=[command.usage for command in commands_for(REFEREE_AUDIENCE)],
            events=[narrate(engine, event, OBSERVER) for event in table.events_since(since, OBSERVER)],
        )


def referee_commands() -> list[str]:
    """The referee's commands, `usage: help` each (from mail/commands.py), for a narrow screen."""
    return [f"{command.usage}: {command.help_for(REFEREE_AUDIENCE)}" for command in commands_for(REFEREE_AUDIENCE)]


def defaulted_lines(table: Table, answers: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """The questions whose deadline passed unanswered, by role and kind, with the default applied.

    The default is public (every report narrates it), face down when the question was secret.
    """
    grammar = table.engine.grammar
    counted: Counter[tuple[str, str, str]] = Counter()
    for role, payload in answers:
        if missed_deadline(payload):  # not a default taken because a standing order did not fit
            shown = "(face down)" if payload.get("secret") else str(payload.get("text", ""))
            counted[(role, str(payload.get("kind", "")), shown)] += 1
    return [f"{role_title(role)}: {kind_named(kind, grammar.kind_titles.get(kind, kind))}, the default {shown}"
            + (f" ({times} times)." if times > 1 else ".") for (role, kind, shown), times in counted.items()]


def standing_lines(table: Table, answers: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """The questions standing orders answered, by role, by whose order, and by kind with how often.

    What a standing order answered is not named: the order may test a hand.
    """
    grammar = table.engine.grammar
    counted: dict[tuple[str, str], Counter[str]] = {}
    for role, payload in answers:
        source = payload.get("source", "")
        if source in ("standing", "game-standing"):
            kind = str(payload.get("kind", ""))
            counted.setdefault((role, source), Counter())[grammar.kind_titles.get(kind, kind)] += 1
    lines = []
    for role in table.player_roles:
        for source in ("standing", "game-standing"):
            kinds = counted.get((role, source))
            if kinds:
                listed = ", ".join(title if times == 1 else f"{times} x {title}" for title, times in kinds.items())
                lines.append(f"{role_title(role)}, by {SOURCES[source]}: {listed}.")
    return lines


def missed_deadlines(table: Table, since: int) -> list[tuple[str, int, int]]:
    """(role, deadline defaults after log entry `since`, deadline defaults in the game) for each player."""
    defaults = [(seq, role) for seq, role, payload in table.answers_after(0) if missed_deadline(payload)]
    return [(role_title(role), sum(1 for seq, who in defaults if who == role and seq > since),
             sum(1 for _seq, who in defaults if who == role)) for role in table.player_roles]


def referee_status_text(table: Table, now: datetime) -> str:
    """The referee's STATUS: the phase, who owes which decision by when (never a prompt, which may
    name what only its player knows), the missed deadlines, the mail kept, the newest log entry."""
    tz = referee_timezone(table)
    kept = inbound_rows.quarantined_for_game(table.session, table.game.id)
    missed = ", ".join(f"{role} {total}" for role, _recent, total in missed_deadlines(table, 0))
    lines = [*headline(table), f"Log: newest entry #{table.game.last_seq} (for ROLLBACK)", "",
             f"WHO OWES WHAT (times in {tz})"]
    lines += [wrap(line, "    ", "  - ") for line in owed_lines(owed_decisions(table), REFEREE, tz, now)]
    lines += ["", f"Missed deadlines in the game: {missed}.",
              f"Mail kept in quarantine for this game: {len(kept)}"
              + (f" ({', '.join(f'#{k.inbound_id}' for k in kept[-KEPT_SHOWN:])}; the digest says what each is; "
                 f"RELEASE <number> reads one as if it had just arrived, DISMISS <number> drops it)." if kept else ".")]
    return "\n".join(lines)


def situation(table: Table, turn: Turn) -> str:
    """Where the game stands, in public words: the turn, the phase, the status or the result."""
    engine = table.engine
    total = engine.progress(table.state)[1]
    outcome = engine.outcome(table.state)
    if outcome is not None:
        winner = "a draw" if outcome.winner is None else f"{role_title(outcome.winner)} wins"
        return f"The game is over: {winner} ({outcome.reason})."
    now = f"{phase_words(table)}; the game has {total} turns"
    paused = " The game is paused: nothing runs until RESUME." if table.game.status == "paused" else ""
    if turn.opening:
        return f"Every seat is taken and the game has started: {now}.{paused}"
    return f"Turn {turn.ended} has ended. Now: {now}.{paused}"


def digest_title(table: Table, turn: Turn, missed: int, fresh: int) -> str:
    """`Turn 3 digest: 1 missed deadline, 2 new mails in quarantine` (the subject says what needs a look)."""
    engine = table.engine
    outcome = engine.outcome(table.state)
    if outcome is not None:
        base = "final digest: " + ("a draw" if outcome.winner is None else f"{role_title(outcome.winner)} wins")
    elif turn.opening:
        base = "the game has started"
    else:
        base = f"Turn {turn.ended} digest"
    extras = []
    if missed:
        extras.append(f"{missed} missed deadline{'s' if missed > 1 else ''}")
    if fresh:
        extras.append(f"{fresh} new mail{'s' if fresh > 1 else ''} in quarantine")
    return base + (": " + ", ".join(extras) if extras else "")
