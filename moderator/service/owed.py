"""Who owes which decision by when: the STATUS answer of a player and of the referee, and the
referee's digest (issue 12, "The referee and observers").

A reader sees their own questions in full (the prompt, the default).  Of another role's question
they see only what is public: the role, the kind of question with the grammar's title for it,
whether it is a reaction, and when it is due.  A prompt is written for the role that answers it
and may name what only that role knows (a hand, a hidden block), and the options may be built
from a hand, so neither is ever shown to anyone else (the referee included).  Times are in the
reader's time zone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moderator.core.contract import Decision, Engine
from moderator.render.texts import wrap
from moderator.service.cadence import short_time
from moderator.service.table import Table
from moderator.store.models import Seat

#: The settings key (game settings) of the time zone the referee reads times in.
REFEREE_TIMEZONE = "referee_timezone"


@dataclass(frozen=True)
class Owed:
    """One open question: the public facts about it, and (for its own role only) the prompt."""

    role: str
    kind: str
    title: str  # what questions of this kind are about (the grammar's title), public
    due: datetime | None  # None: no deadline runs (the referee's call)
    reaction: bool  # it interrupts another role's phase
    prompt: str  # private to `role`
    default: str  # private to `role` (a default may be a hidden choice)


def owed_decisions(table: Table) -> list[Owed]:
    """Every question open now, the earliest due first (no deadline last)."""
    deadlines: dict[str, str] = {}
    for seat in table.players():
        deadlines.update(json.loads(seat.deadlines_json or "{}"))
    return open_questions(table.engine, table.state, deadlines)


def open_questions(engine: Engine[Any], state: Any, deadlines: Mapping[str, str]) -> list[Owed]:
    """Every question open in `state`, the earliest due first (no deadline last); `deadlines` by decision key."""
    found = []
    for decision in engine.pending(state):
        due = deadlines.get(decision.key)
        found.append(Owed(decision.role, decision.kind, engine.grammar.kind_titles.get(decision.kind, decision.kind),
                          datetime.fromisoformat(due) if due else None, decision.interrupts is not None,
                          decision.prompt, decision.default))
    return sorted(found, key=lambda owed: (owed.due is None, owed.due or datetime.min, owed.role))


def owed_line(owed: Owed, reader: str, tz: str, now: datetime | None = None) -> str:
    """One line for `reader` (a role, or REFEREE): the whole question if it is theirs, else its public facts."""
    who = role_title(owed.role)
    when = "no deadline runs (the referee's call)" if owed.due is None else f"due {short_time(owed.due, tz)}"
    if owed.due is not None and now is not None and owed.due <= now:
        when += " (passed: the default applies at the next run)"
    if owed.role == reader:
        return f"You ({who}): {owed.prompt} {when[0].upper()}{when[1:]}; if you do not answer: {owed.default}."
    asked = "a reaction" if owed.reaction else "a decision"
    return f"{who} owes {asked} on {kind_named(owed.kind, owed.title)}, {when}."


def kind_named(kind: str, title: str) -> str:
    """A kind of question as a reader who is not asked it sees it: `"Retreat" (retreat)`."""
    return f'"{kind}"' if title == kind else f'"{title}" ({kind})'


def next_decision_of(engine: Engine[Any], decision: Decision) -> str:
    """Another role's open question as its public facts name it (the role, whether it is a reaction, the
    grammar's title for its kind: what STATUS shows), never its prompt or options, which may name what
    only that role knows: `the Axis's next reaction, on "Air Strike (reaction)" (air)`."""
    asked = "reaction" if decision.interrupts is not None else "decision"
    title = engine.grammar.kind_titles.get(decision.kind, decision.kind)
    return f"the {role_title(decision.role)}'s next {asked}, on {kind_named(decision.kind, title)}"


def owed_lines(owed: Sequence[Owed], reader: str, tz: str, now: datetime | None = None) -> list[str]:
    """The reader's own questions first, then the others'; "Nobody owes an answer now." when none is open."""
    if not owed:
        return ["Nobody owes an answer now."]
    ordered = [o for o in owed if o.role == reader] + [o for o in owed if o.role != reader]
    return [owed_line(o, reader, tz, now) for o in ordered]


def role_title(role: str) -> str:
    return role.replace("_", " ").title()


def referee_timezone(table: Table) -> str:
    """The referee's time zone: the game setting `referee_timezone`, UTC when none was given."""
    settings: dict[str, Any] = json.loads(table.game.settings_json or "{}")
    return str(settings.get(REFEREE_TIMEZONE) or "UTC")


def headline(table: Table) -> list[str]:
    """The game, its phase in words and its status, as the first lines of a STATUS answer."""
    return [f"{table.game.id}: {table.engine.info.title}", wrap(f"Phase: {phase_words(table)}", "       "),
            f"Status: {table.game.status}"]


def score_line(table: Table) -> list[str]:
    """Where the score stands, as the game counts it (its reports print the same: VP on the track);
    none for a game without such a measure.  (Asked by hand: STATUS gave no VP.)"""
    if table.state is None or table.game.status != "running":
        return []
    score = table.engine.score_now(table.state)
    if score is None or not score.score:
        return []
    return [wrap("Score now: " + ", ".join(f"{name} {value}" for name, value in score.score.items()), "       ", "")]


def phase_words(table: Table) -> str:
    """The phase in words with its label for a PHASE line: `turn 3 (June 13-15), Axis action phase (T3-AXIS)`."""
    title, label = table.engine.phase_title(table.state), table.game.phase_label
    return title if label == title else f"{title} ({label})"


def status_text(table: Table, seat: Seat, now: datetime | None = None) -> str:
    """A player's STATUS: the phase, who owes which decision by when (their own in full), their plans."""
    lines = [*headline(table), *score_line(table), "", f"WHO OWES WHAT (times in {seat.timezone or 'UTC'})"]
    lines += [wrap(line, "    ", "  - ") for line in owed_lines(owed_decisions(table), seat.role, seat.timezone, now)]
    plan = table.plan(seat.role)
    if plan.script:
        lines += ["", "Your queued script:"] + [f"  {s.render()}" for s in plan.script]
    if plan.agenda:
        lines += ["", "Your keyed orders for this turn:"] + [f"  {a.render()}" for a in plan.agenda]
    if plan.standing:
        lines += ["", "Your standing orders:"] + [f"  {s.render()}" for s in plan.standing]
    lines += ["", f"Seed commitment: {table.game.commitment}"]
    return "\n".join(lines) + "\n"
