"""Feeds an engine from the seats' scripts and standing orders until someone must be asked.

This is the one place where "few round trips" (DESIGN §4) is implemented, for every game:

* each pending decision is answered, in this order, by the first queued line of the role's script
  of the decision's kind (past lines of other kinds only while the script runs, which passes them
  over until their own question comes or can no longer come: core/script_order.py), by the first
  keyed order on the role's agenda that fits it
  (its kind, its tests, and legal now), by the role's standing orders (the player's own, then the
  game's defaults), or else it waits for the player;
* keyed orders belong to the game's current period (engines may define ``period(state)``, e.g. the
  turn); when the period changes, unused ones expire and the player is told;
* a script line that no longer fits is not guessed around: the rest of the script is held, the
  player is told why, and the decision waits for them;
* a standing order whose answer is illegal at that moment is passed over for the next standing
  order that holds (the player's, then the game's), or gives the decision's default at once (never
  ASK), exactly as fast as a declined reaction, so how long a window stays open never tells the
  opponent what a player holds (the "no timing leaks" rule).

The runner is pure: it takes state, plans and an Rng and returns the new state with the steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Literal

from moderator.core import script_order
from moderator.core.contract import Decision, Engine, Event, View
from moderator.core.errors import IllegalOrder, OrderError, ParseError
from moderator.core.grammar import Order
from moderator.core.human import closest_answer, kinds_of_line
from moderator.core.plans import ASK, AgendaLine, Plan, ScriptLine, Standing, Test
from moderator.core.rng import Draw, Rng


class Look(Enum):
    """What `Runner._use_line` says besides answered (True), held (False) or not this script (None):
    look at the next line, or at the same place again (the line there was skipped)."""

    NEXT = "next"
    AGAIN = "again"


@dataclass(frozen=True)
class Step:
    """One answer applied to the engine, with what it caused."""

    role: str
    decision: str
    kind: str
    text: str
    source: str  # script | standing | game-standing | default | reply
    events: tuple[Event, ...] = ()
    draws: tuple[Draw, ...] = ()
    line_no: int | None = None
    secret: bool = False
    #: the question answered and the options it listed (the report tells a player when a standing
    #: order or a default answered a question that had a real choice)
    prompt: str = ""
    options: tuple[str, ...] = ()
    #: when the default answered because a standing order no longer fitted: that order as the
    #: player reads it, and whose it was ("standing": theirs, "game-standing": the game's)
    unfit: str = ""
    unfit_source: str = ""
    #: and why its answer was refused then, in the refusal's own words ("BUNKER is played only when defending")
    unfit_reason: str = ""
    #: the player's keyed orders whose tests held but which the engine refused for this question, each
    #: as the player wrote it ("line 20: ON ...") with the engine's reason, when a standing order or a
    #: default answered in their place
    keyed_unfit: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Hold:
    """A script stopped because a line no longer fits; the player is told why."""

    role: str
    line_no: int
    text: str
    reason: str
    held: tuple[str, ...]


@dataclass
class Advance:
    state: object
    steps: list[Step] = field(default_factory=list)
    holds: list[Hold] = field(default_factory=list)
    waiting: list[Decision] = field(default_factory=list)
    skipped: list[tuple[str, int, str]] = field(default_factory=list)
    expired: list[tuple[str, AgendaLine]] = field(default_factory=list)
    #: keyed orders used up, in order: role, line (a receipt says which of its ON lines ran)
    keyed_used: list[tuple[str, AgendaLine]] = field(default_factory=list)
    #: script lines passed over whose question can no longer come (core/script_order.py): role, line, why
    unused: list[tuple[str, ScriptLine, str]] = field(default_factory=list)
    #: every line that left a script, in order: role, line, what became of it (ran, skipped, held, not
    #: run, not used) and why
    script_log: list[tuple[str, ScriptLine, str, str]] = field(default_factory=list)


def period_of(engine: Engine[Any], state: object) -> str | None:
    """The engine's current period for keyed orders (None when the game has none)."""
    return engine.period(state)


class Runner:
    def __init__(self, engine: Engine[Any]):
        self.engine = engine
        self._cached_view: tuple[object, str, View] | None = None
        self._defaults: dict[str, list[Standing]] = {}
        for default in engine.info.standing_defaults:
            self._defaults.setdefault(default.kind, []).append(Standing(default.kind, default.answer))

    # ------------------------------------------------------------------ public

    def advance(self, state: object, plans: dict[str, Plan], rng: Rng, max_steps: int = 100_000,
                may_answer: Callable[[Decision], bool] | None = None) -> Advance:
        """Answer every decision the plans can answer; return the state and what waits.

        With `may_answer`, only the decisions it accepts are answered; the others wait (a dry run
        stops at the first question that is not its sender's, so no one else's plan is consulted).
        """
        result = Advance(state)
        blocked: set[str] = set()  # decisions that must be asked this round
        for _ in range(max_steps):
            decisions = self.engine.pending(result.state)
            if not decisions:
                result.waiting = []
                return result
            self._expire(result, plans)
            progressed = False
            for decision in decisions:
                if decision.key in blocked or (may_answer is not None and not may_answer(decision)):
                    continue
                plan = plans.setdefault(decision.role, Plan())
                if self._try_answer(decision, plan, rng, result, blocked):
                    progressed = True
                    break
            if not progressed:
                result.waiting = [d for d in decisions]
                return result
        raise RuntimeError("the game did not settle: more than max_steps answers in one advance")

    def apply_default(self, state: object, decision: Decision, rng: Rng) -> tuple[object, Step]:
        """Apply a decision's declared default (a deadline passed)."""
        order = self._parse(state, decision, decision.default)
        new_state, events = self.engine.apply(state, decision.role, order, rng)
        step = Step(decision.role, decision.key, decision.kind, self.engine.grammar.render(order),
                    "default", tuple(events), tuple(rng.take_draws()), secret=decision.secret,
                    prompt=decision.prompt, options=decision.options)
        return new_state, step

    def apply_text(self, state: object, decision: Decision, text: str, rng: Rng,
                   source: str = "reply") -> tuple[object, Step]:
        """Apply one order given as text to a decision (used by replay and by referee tools)."""
        order = self._parse(state, decision, text)
        if order.kind != decision.kind:
            raise IllegalOrder(f"'{text}' does not answer: {decision.prompt}")
        new_state, events = self.engine.apply(state, decision.role, order, rng)
        step = Step(decision.role, decision.key, decision.kind, self.engine.grammar.render(order),
                    source, tuple(events), tuple(rng.take_draws()), secret=decision.secret,
                    prompt=decision.prompt, options=decision.options)
        return new_state, step

    # ------------------------------------------------------------------ internals

    def _parse(self, state: object, decision: Decision, text: str) -> Order:
        lexicon = self.engine.lexicon(state, decision.role)
        return self.engine.grammar.parse(text, lexicon, kinds=[decision.kind])

    def _view(self, state: object, role: str) -> View:
        """The role's view of this state, built once however many guards read it (the state object is
        kept, so a new state can never be mistaken for the cached one)."""
        cached = self._cached_view
        if cached is None or cached[0] is not state or cached[1] != role:
            cached = self._cached_view = (state, role, self.engine.view(state, role))
        return cached[2]

    def _guard_holds(self, state: object, decision: Decision, guard: Sequence[Test]) -> bool:
        if not guard:
            return True
        view = self._view(state, decision.role)
        for test in guard:
            value = self.engine.condition(test.name, view, decision, test.args)
            if value == test.negated:
                return False
        return True

    def _try_answer(self, decision: Decision, plan: Plan, rng: Rng, result: Advance,
                    blocked: set[str]) -> bool:
        """Answer `decision` from the script, then the agenda, then standing orders; False if it waits."""
        answered = self._answer_from_script(decision, plan, rng, result, blocked)
        if answered is not None:
            return answered
        refused = self._answer_from_agenda(decision, plan, rng, result)
        if isinstance(refused, bool):
            return True
        return self._answer_from_standing(decision, plan, rng, result, refused)

    def _answer_from_script(self, decision: Decision, plan: Plan, rng: Rng, result: Advance,
                            blocked: set[str]) -> bool | None:
        """The first queued line of the question's kind in the current round (core/script_order.py:
        past lines of other kinds only while the script runs), skipping lines whose guard is false;
        None when the script does not speak to this question (it goes on to keyed and standing orders)."""
        phase = self.engine.phase_label(result.state)
        if decision.kind in self.engine.info.opening_kinds:
            ended = script_order.round_ended(plan.script)
            if plan.running == phase and decision.key not in plan.fresh:
                ended += script_order.round_over(plan.script, self._opens_round)
            ended += script_order.last_rounds(plan.script)  # a round's own lines, in any phase
            for line in ended:
                self._unused(result, decision.role, line, script_order.ROUND_ENDED.format(kind=decision.kind))
        running = bool(self.engine.info.opening_kinds) and (plan.running == phase or decision.key in plan.fresh)
        index = 0
        while index < len(plan.script):
            if not script_order.readable(plan.script, index, running, self._opens_round):
                return None  # read from its head only, or past a STOP or the next round's first line
            line = plan.script[index]
            outcome: bool | Look | None = Look.NEXT
            if line.is_stop or (line.guard and not running and decision.kind not in self._kinds(line)):
                outcome = self._at_guard(decision, plan, result, index, blocked)  # an IF read at the head, as ever
            elif decision.kind in self._kinds(line):
                outcome = self._use_line(decision, plan, rng, result, blocked, index, phase)
            if not isinstance(outcome, Look):
                return outcome
            index += outcome is Look.NEXT
        return None

    def _use_line(self, decision: Decision, plan: Plan, rng: Rng, result: Advance, blocked: set[str], index: int,
                  phase: str) -> bool | Look:
        """`plan.script[index]` answers the decision, or is skipped (AGAIN), or speaks to another kind
        of question after all (NEXT), or is held (False)."""
        state, line = result.state, plan.script[index]
        guard = self._read_guard(decision, plan, result, index, blocked)
        if guard is not True:
            return guard
        try:
            order = self._parse(state, decision, line.text)
        except ParseError as error:
            return self._held(decision, plan, result, line, error.explain(), blocked)
        if order.kind != decision.kind:
            return Look.NEXT  # a form of another kind with the same first word (VMT's PLACE)
        try:
            new_state, events = self.engine.apply(state, decision.role, order, rng)
        except IllegalOrder as error:
            rng.take_draws()
            return self._held(decision, plan, result, line, error.explain() + closest_legal_hint(error, line.text,
                                                                                          decision), blocked)
        plan.script.pop(index)
        info = self.engine.info
        if decision.kind in info.opening_kinds:  # a new round: the lines before it are the last one's
            for earlier in plan.script[:index]:
                self._unused(result, decision.role, earlier, script_order.ROUND_ENDED.format(kind=decision.kind))
            del plan.script[:index]
            index = 0
        else:
            script_order.pass_over(plan.script, index, decision.kind, phase)
        if decision.kind in info.opening_kinds or decision.kind in info.round_kinds:
            # the round's lines written after this one lapse with it if their question never comes
            script_order.mark_round(plan.script, index, self._of_round, period_of(self.engine, state) or phase)
        plan.running, plan.fresh = phase, ()
        self._log(result, decision.role, line, "ran", "")
        self._record(result, new_state, decision, order, "script", events, rng, line.line_no)
        return True

    def _at_guard(self, decision: Decision, plan: Plan, result: Advance, index: int,
                  blocked: set[str]) -> bool | Look | None:
        """A STOP the script has got to, or a guarded line at the head of a script read from its head
        only: its IF is read now, at whatever question comes.  False: the line is skipped (AGAIN); true:
        STOP ends the script, an order waits for its question (NEXT: nothing after the head is read)."""
        line = plan.script[index]
        guard = self._read_guard(decision, plan, result, index, blocked)
        if guard is not True:
            return guard
        if not line.is_stop:
            return Look.NEXT
        self._stop(decision, plan, result, line)
        return None

    def _read_guard(self, decision: Decision, plan: Plan, result: Advance, index: int,
                    blocked: set[str]) -> bool | Look:
        """True when the IF of `plan.script[index]` holds now; else the line is skipped (AGAIN), or held
        (False) when its test cannot be read."""
        line = plan.script[index]
        try:
            guard_ok = self._guard_holds(result.state, decision, line.guard)
        except OrderError as error:
            return self._held(decision, plan, result, line, error.explain(), blocked)
        if not guard_ok:
            self._log(result, decision.role, plan.script.pop(index), "skipped", "its IF did not hold")
            return Look.AGAIN
        return True

    def _opens_round(self, line: ScriptLine) -> bool:
        """A line that answers a question of an opening kind (GameInfo.opening_kinds): it begins a round."""
        return bool(self._kinds(line) & set(self.engine.info.opening_kinds))

    def _of_round(self, line: ScriptLine) -> bool:
        """A line that answers a question asked within a round (GameInfo.round_kinds)."""
        return bool(self._kinds(line) & set(self.engine.info.round_kinds))

    def _kinds(self, line: ScriptLine) -> set[str]:
        """The kinds of question a script line may answer (by its first word)."""
        return set() if line.is_stop else kinds_of_line(line.text, self.engine.grammar)

    def _answer_from_agenda(self, decision: Decision, plan: Plan, rng: Rng,
                            result: Advance) -> Literal[True] | tuple[tuple[str, str], ...]:
        """Keyed orders, in the order written: the first that fits and is legal is used up (True).
        Else the lines whose tests held but which the engine refused, each with its reason (the
        player's own order judged on the game as it stands, as a held script line is), which the line
        also keeps for its expiry: whoever answers instead names them (issue 12)."""
        refused: list[tuple[str, str]] = []
        for index, line in enumerate(plan.agenda):
            if line.kind != decision.kind:
                continue
            counters = dict(rng.counters)
            try:
                if not self._guard_holds(result.state, decision, line.guard):
                    continue
                order = self._parse(result.state, decision, line.text)
                new_state, events = self.engine.apply(result.state, decision.role, order, rng)
            except OrderError as error:
                # Not legal now (a unit already moved, a path blocked): it may fit a later question.
                rng.take_draws()
                rng.counters = counters
                plan.agenda[index] = replace(line, refused=error.explain())
                refused.append((f"line {line.line_no}: {line.render()}", error.explain()))
                continue
            del plan.agenda[index]
            result.keyed_used.append((decision.role, line))
            self._record(result, new_state, decision, order, "agenda", events, rng, line.line_no)
            return True
        return tuple(refused)

    def _answer_from_standing(self, decision: Decision, plan: Plan, rng: Rng, result: Advance,
                              refused: tuple[tuple[str, str], ...] = ()) -> bool:
        """Standing orders, the player's own first, then the game's; ASK makes the decision wait.

        A standing order whose tests hold but whose answer is not legal now is passed over for the
        next one that holds (the player's unconditional order after an IF, then the game's); when none
        is left, or the next is ASK, the decision's default answers at once (module docstring: no
        timing leak).  The answer keeps the first order passed over, for the player's report."""
        state = result.state
        unfit: tuple[str, str, str] = ("", "", "")
        for standing, source in self._standing_for(decision, plan):
            if not self._guard_holds(state, decision, standing.guard):
                continue
            if standing.answer == ASK:
                if unfit[0]:
                    break  # an order that did not fit never makes the decision wait
                return False
            counters = dict(rng.counters)
            try:
                order = self._parse(state, decision, standing.answer)
                new_state, events = self.engine.apply(state, decision.role, order, rng)
            except OrderError as error:  # (not `refused`: that names the keyed lines refused before)
                rng.take_draws()
                rng.counters = counters
                unfit = unfit if unfit[0] else (standing.render(), source, str(error))
                continue
            self._record(result, new_state, decision, order, source, events, rng, standing.line_no or None, unfit,
                         refused)
            return True
        if not unfit[0]:
            return False
        # Same speed as declining: the default now.  The player's report says which standing order did
        # not fit, so "default" is not a deadline here.
        order = self._parse(state, decision, decision.default)
        new_state, events = self.engine.apply(state, decision.role, order, rng)
        self._record(result, new_state, decision, order, "default", events, rng, None, unfit, refused)
        return True

    def _held(self, decision: Decision, plan: Plan, result: Advance, line: ScriptLine, reason: str,
              blocked: set[str]) -> bool:
        """The script stops at `line`; the decision must be asked this round."""
        self._hold(decision, plan, result, line, reason)
        blocked.add(decision.key)
        return False

    def _stop(self, decision: Decision, plan: Plan, result: Advance, line: ScriptLine) -> None:
        """`STOP` ends the script here; what follows it (and any line passed over) is held and reported."""
        plan.script.remove(line)
        self._log(result, decision.role, line, "ran", "the script stopped here")
        if plan.script:
            result.holds.append(Hold(decision.role, line.line_no, "STOP", "your script says STOP here",
                                     tuple(s.render() for s in plan.script)))
        for other in plan.script:
            self._log(result, decision.role, other, "not run", "after STOP")
        plan.script.clear()

    def _expire(self, result: Advance, plans: dict[str, Plan]) -> None:
        """Keyed orders of a period that ended, script lines passed over in a phase that ended, and a
        round's own lines (core/script_order.py) left from a period that ended."""
        period = period_of(self.engine, result.state)
        phase = self.engine.phase_label(result.state)
        for role, plan in plans.items():
            keep = [line for line in plan.agenda if line.period is None or line.period == period]
            if len(keep) != len(plan.agenda):
                result.expired.extend((role, line) for line in plan.agenda if line not in keep)
                plan.agenda[:] = keep
            for line in script_order.past_phase(plan.script, phase):
                self._unused(result, role, line, script_order.PHASE_ENDED)
            if period is not None:
                for line in script_order.past_period(plan.script, period):
                    self._unused(result, role, line, script_order.PERIOD_ENDED)

    @staticmethod
    def _log(result: Advance, role: str, line: ScriptLine, status: str, why: str) -> None:
        """What became of a line that left a script (receipts are written from this)."""
        result.script_log.append((role, line, status, why))
        if status == "skipped":
            result.skipped.append((role, line.line_no, line.render()))

    def _unused(self, result: Advance, role: str, line: ScriptLine, why: str) -> None:
        """A line passed over whose question can no longer come: it leaves the script, not used."""
        result.unused.append((role, line, why))
        self._log(result, role, line, "not used", why)

    def _standing_for(self, decision: Decision, plan: Plan) -> Iterator[tuple[Standing, str]]:
        for standing in plan.standing:
            if standing.kind == decision.kind:
                yield standing, "standing"
        if plan.ask_first:
            return  # a new player is asked until they first write or let a deadline pass (Plan.ask_first)
        for standing in self._defaults.get(decision.kind, ()):
            yield standing, "game-standing"

    def _record(self, result: Advance, new_state: object, decision: Decision, order: Order, source: str,
                events: list[Event], rng: Rng, line_no: int | None, unfit: tuple[str, str, str] = ("", "", ""),
                refused: tuple[tuple[str, str], ...] = ()) -> None:
        result.state = new_state
        result.steps.append(Step(decision.role, decision.key, decision.kind, self.engine.grammar.render(order),
                                 source, tuple(events), tuple(rng.take_draws()), line_no, decision.secret,
                                 decision.prompt, decision.options, *unfit, refused))

    def _hold(self, decision: Decision, plan: Plan, result: Advance, line: ScriptLine, reason: str) -> None:
        others = [s for s in plan.script if s is not line]
        plan.script.clear()
        result.holds.append(Hold(decision.role, line.line_no, line.render(), reason, tuple(s.render() for s in others)))
        self._log(result, decision.role, line, "held", reason)
        for other in others:
            self._log(result, decision.role, other, "not run", f"line {line.line_no} was held")


def closest_legal_hint(error: OrderError, text: str, decision: Decision) -> str:
    """`; the closest legal answer now: 'X'` when the error names no alternative and the question lists its
    answers (compared without case, as the receipt's suggestions are: human.closest_answer)."""
    if error.suggestions or not decision.options:
        return ""
    near = closest_answer(text, [o.split("  (")[0] for o in decision.options])
    return f"; the closest legal answer now: '{near[0]}'" if near else ""
