"""Filing a message's orders into a seat's plan: when a new script replaces the queued one, and
when it only answers the questions asked now (issue 12: "answering a question keeps the rest of a
queued script unless the player says otherwise; a script is never dropped without the receipt
saying so and how to get it back").

* CONTINUE in the message: the queued script resumes where CONTINUE stands (as always).
* A message with no script line (standing or keyed orders only) leaves the queued script alone.
* SCRIPT CLEAR in the message: the queued script is dropped; the message's orders are the script.
* Otherwise, when every script line of the message is used by a question open for the seat now
  (an answer to what the last report asked) and the queued script waits for a later question, the
  queued script stays after those lines.  Any other message replaces it (that is how a player
  revises orders), and its receipt lists the dropped lines and how to get them back.

Whether the lines are used by the questions open now is found by running them on a copy of the
game with throwaway dice, answering only the seat's own open questions (no one else's plan is
read, nothing is kept).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from moderator.core.contract import Engine
from moderator.core.plans import AgendaLine, ParsedBody, Plan, ScriptLine
from moderator.core.rng import Rng
from moderator.core.runner import Runner, merge_standing, period_of

#: Dry runs (the probe below, CHECK) roll with this key, never the game's: they cannot preview its dice.
DRY_RUN_KEY = hashlib.sha256(b"moderator-dry-run/v1").digest()


def dry_run_rng() -> Rng:
    return Rng(DRY_RUN_KEY)


@dataclass
class Filing:
    """A seat's plan after a message, and where the message's lines went in it (for the receipt)."""

    plan: Plan
    positions: dict[int, int] = field(default_factory=dict)  # a script line's number -> its index in plan.script
    agenda_lines: frozenset[int] = frozenset()  # the numbers of the message's keyed (ON) lines
    kept: list[str] = field(default_factory=list)  # the queued lines kept after the message's answer
    dropped: list[str] = field(default_factory=list)  # the queued lines the message replaced

    def notes(self, check: bool = False) -> list[str]:
        """What the receipt (or a CHECK, in the conditional) says about the script the seat had queued."""
        if self.dropped:
            if check:
                return [f"Sent as it is, this message would replace the script you have queued and drop: "
                        f"{' / '.join(self.dropped)}. To keep it, put the line CONTINUE where it should resume."]
            return [f"This message's orders replace the script you had queued, so these lines were dropped: "
                    f"{' / '.join(self.dropped)}. To get them back, send them again (copy them from here); to "
                    f"keep a queued script when you send new orders, put the line CONTINUE where it should "
                    f"resume."]
        if self.kept:
            would = "would go on" if check else "goes on"
            return [f"This message answers what you are asked now, so the script you had queued {would} after "
                    f"it: {' / '.join(self.kept)}. (To drop it instead, send SCRIPT CLEAR.)"]
        return []


def used_now(engine: Engine[Any], state: Any, role: str, plan: Plan, script: Sequence[ScriptLine]) -> int:
    """How many lines of `script` the questions open for `role` now would use (a line held at one of
    those questions counts: it was meant for it), on a copy with throwaway dice."""
    open_keys = {d.key for d in engine.pending(state) if d.role == role}
    if not open_keys or not script:
        return 0
    probe = Plan(script=list(script), standing=list(plan.standing), agenda=list(plan.agenda))
    advance = Runner(engine).advance(state, {role: probe}, dry_run_rng(),
                                     may_answer=lambda d: d.role == role and d.key in open_keys)
    return len(script) if advance.holds else len(script) - len(probe.script)


def file_orders(engine: Engine[Any], state: Any, role: str, plan: Plan, body: ParsedBody,
                continue_at: int | None, clear: bool) -> Filing:
    """The seat's plan once the message is filed (module docstring): its script, agenda and standing."""
    queued = list(plan.script)
    mine = list(body.script)
    kept: list[ScriptLine] = []
    if continue_at is not None:
        before = [line for line in mine if line.line_no < continue_at]
        after = [line for line in mine if line.line_no > continue_at]
        script = before + queued + after
        resumed = len(before) + len(queued)
        positions = {line.line_no: index for index, line in enumerate(before)}
        positions.update({line.line_no: resumed + index for index, line in enumerate(after)})
    elif not mine and not clear:  # standing or keyed orders only: the script is not theirs to drop
        script, positions = queued, {}
    else:
        answers = bool(queued) and not clear and bool(mine) \
            and used_now(engine, state, role, plan, mine) == len(mine) \
            and not used_now(engine, state, role, plan, queued)
        kept = queued if answers else []
        script = mine + kept
        positions = {line.line_no: index for index, line in enumerate(mine)}
    dropped = [] if continue_at is not None or kept or script is queued else [line.render() for line in queued]
    agenda = stamp_agenda(engine, state, body.agenda) if body.agenda_given else plan.agenda
    filed = merge_standing(Plan(script=script, standing=plan.standing, agenda=agenda), body.standing,
                           body.clear_kinds)
    return Filing(filed, positions, frozenset(line.line_no for line in body.agenda),
                  [line.render() for line in kept], dropped)


def stamp_agenda(engine: Engine[Any], state: Any, agenda: Sequence[AgendaLine]) -> list[AgendaLine]:
    """The message's keyed orders, marked with the game's current period so they expire with it."""
    period = period_of(engine, state)
    return [replace(line, period=period) for line in agenda]


def standing_only(plan: Plan, body: ParsedBody) -> Plan:
    """The seat's plan with only the message's standing orders taken (a reply to an older report)."""
    return merge_standing(plan, body.standing, body.clear_kinds)
