"""Filing a message's orders into a seat's plan: when a new script replaces the queued one, and
when it only answers the questions asked now (issue 12: "answering a question keeps the rest of a
queued script unless the player says otherwise; a script is never dropped without the receipt
saying so and how to get it back").

* CONTINUE in the message: the queued script resumes where CONTINUE stands (as always).
* A message with no script line (standing or keyed orders only) leaves the queued script alone.
* A message's keyed (ON) lines are added to those filed before (core/agenda.py); only ON CLEAR drops
  those, and the receipt lists what it dropped and what still waits.
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

from moderator.core.agenda import AgendaMerge, merge_agenda
from moderator.core.contract import Engine
from moderator.core.plans import ASK, ParsedBody, Plan, ScriptLine, StandingMerge, merge_standing
from moderator.core.rng import Rng
from moderator.core.runner import Runner, period_of
from moderator.service.standing import is_conditional

#: Dry runs (the probe below, CHECK) roll with this key, never the game's: they cannot preview its dice.
DRY_RUN_KEY = hashlib.sha256(b"moderator-dry-run/v1").digest()


def dry_run_rng() -> Rng:
    return Rng(DRY_RUN_KEY)


@dataclass(frozen=True)
class KindInForce:
    """One kind of question whose standing orders a message filed or withdrew: what answers it now."""

    kind: str
    title: str
    orders: tuple[str, ...]  # the seat's own, in the order tried
    default: str  # the game's default answer, or ASK
    replaced: tuple[str, ...] = ()
    withdrawn: tuple[str, ...] = ()

    def note(self, check: bool) -> str:
        """`Your standing orders for air (…) are now, tried in this order: … This message replaced: …`."""
        kind, title, orders = self.kind, self.title, self.orders
        if len(orders) > 1:
            said = [f"Your standing orders for {kind} ({title}) {'would be' if check else 'are now'}, tried in "
                    f"this order: {' / '.join(orders)}."]
        elif orders:
            said = [f"Your standing order for {kind} ({title}) {'would be' if check else 'is now'}: {orders[0]}."]
        else:
            answer = "you are asked" if self.default == ASK else f"the game's default {self.default} answers"
            said = [f"You {'would have' if check else 'have'} no standing order for {kind} ({title}) "
                    f"{'then' if check else 'now'}: {answer}."]
        said += [f"This message {'would replace' if check else 'replaced'}: {' / '.join(self.replaced)}."] \
            if self.replaced else []
        said += [f"It {'would withdraw' if check else 'withdrew'}: {' / '.join(self.withdrawn)}."] \
            if self.withdrawn else []
        if orders and all(is_conditional(order) for order in orders):
            # The game's default answers after them (core/runner.py): it is the last line tried.
            fallback = "you are asked" if self.default == ASK else f"the game's default {self.default} answers"
            said += [f"When {'none of them holds' if len(orders) > 1 else 'its tests do not hold'}, {fallback}."]
        first = f" ('STANDING {kind} FIRST IF <test>: …' files one ahead of the others)" if len(orders) > 1 else ""
        said += [f"(A new STANDING {kind} line adds to these{first}, or replaces the one with the same IF; "
                 f"'STANDING {kind} IF <test>: CLEAR' withdraws one, 'STANDING CLEAR {kind}' all.)"] if orders else []
        return " ".join(said)


@dataclass
class Filing:
    """A seat's plan after a message, and where the message's lines went in it (for the receipt)."""

    plan: Plan
    positions: dict[int, int] = field(default_factory=dict)  # a script line's number -> its index in plan.script
    #: each keyed (ON) line's number -> the number of the agenda line that stands for it (its own, or
    #: that of the same line filed before: core/agenda.py)
    agenda_lines: dict[int, int] = field(default_factory=dict)
    keyed: AgendaMerge | None = None  # what the message did to the keyed orders
    kept: list[str] = field(default_factory=list)  # the queued lines kept after the message's answer
    dropped: list[str] = field(default_factory=list)  # the queued lines the message replaced
    standing: list[KindInForce] = field(default_factory=list)  # each kind the message's standing lines touched
    standing_why: dict[int, str] = field(default_factory=dict)  # a standing line's number -> what it did

    def standing_notes(self, check: bool = False) -> list[str]:
        """What the receipt (or a CHECK, in the conditional) says about the standing orders the message
        filed or withdrew: what is in force for each kind it touched (the receipt's `standing`, which is
        no remark: a receipt that says only this may still wait for the seat's next report)."""
        return [kind.note(check) for kind in self.standing]

    def notes(self, check: bool = False) -> list[str]:
        """What the receipt (or a CHECK, in the conditional) says about the script the seat had queued,
        then about the keyed orders filed before the message."""
        return self.script_notes(check) + self.keyed_notes(check)

    def keyed_notes(self, check: bool = False) -> list[str]:
        """The keyed orders an ON CLEAR dropped, with the way back, and those filed before that still wait
        beside the message's ON lines (issue 12: no filed order dropped, or kept, in silence)."""
        keyed = self.keyed
        if keyed is None:
            return []
        said = []
        if keyed.dropped:
            said.append(f"ON CLEAR {'would drop' if check else 'dropped'} these keyed orders: "
                        f"{' / '.join(keyed.dropped)}. To get one back, send it again (copy it from here).")
        if keyed.stands_for and keyed.kept:
            said.append(f"This message's ON lines {'would be' if check else 'were'} added to the keyed orders you "
                        f"had filed for this turn, which still wait: {' / '.join(keyed.kept)}. (ON CLEAR drops "
                        f"them all, ON CLEAR <test> those with that test.)")
        return said

    def script_notes(self, check: bool = False) -> list[str]:
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
    probe = Plan(script=list(script), standing=list(plan.standing), agenda=list(plan.agenda), running=plan.running,
                 fresh=tuple(sorted(open_keys)))
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
    keyed = merge_agenda(plan.agenda, body.agenda_changes, period_of(engine, state))
    # The message's lines were written for the questions open now: those may take a line past the
    # script's head (core/script_order.py), as may any question while the script runs.
    fresh = tuple(sorted(d.key for d in engine.pending(state) if d.role == role)) if script is not queued \
        else plan.fresh
    # Orders filed: from now on the game's standing defaults answer what the player's own orders do not.
    filed, merged = merge_standing(replace(plan, script=script, agenda=keyed.agenda, fresh=fresh, ask_first=False),
                                   body.standing_changes)
    return Filing(filed, positions, {number: line.line_no for number, line in keyed.stands_for.items()}, keyed,
                  [line.render() for line in kept], dropped, standing_notes(engine, role, filed, merged),
                  dict(merged.effects))


def standing_only(engine: Engine[Any], role: str, plan: Plan, body: ParsedBody) -> Filing:
    """The seat's plan with only the message's standing orders taken (a reply to an older report)."""
    filed, merged = merge_standing(replace(plan, ask_first=False), body.standing_changes)
    return Filing(filed, standing=standing_notes(engine, role, filed, merged), standing_why=dict(merged.effects))


def standing_notes(engine: Engine[Any], role: str, plan: Plan, merged: StandingMerge) -> list[KindInForce]:
    """For each kind a message filed or withdrew standing orders of: what is in force after it, in the
    order tried, and what it replaced and withdrew (issue 12: nothing changed in silence)."""
    defaults = {d.kind: d.answer for d in engine.info.standing_defaults if d.applies_to(role)}
    return [KindInForce(kind, engine.grammar.kind_titles.get(kind, kind),
                        tuple(s.render() for s in plan.standing if s.kind == kind), defaults.get(kind, ASK),
                        tuple(old for of, old, _ in merged.replaced if of == kind),
                        tuple(old for of, old in merged.withdrawn if of == kind))
            for kind in merged.kinds]
