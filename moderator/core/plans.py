"""Scripts and standing orders: how one e-mail answers many decisions (DESIGN §4).

A player's message body, after the envelope, is read line by line into a `Plan`:

* an order line joins the *script*; each decision takes the script's first line of its kind in the
  current round (core/script_order.py), one decision at a time, until a line stops fitting (then
  the rest is held and the player told why);
* ``IF <test> [AND <test>…]: <order>`` guards a script line; a false guard skips it;
* ``STOP`` ends the script there (useful as ``IF LOST: STOP``);
* ``STANDING <kind> [IF <test>…]: <order>|ASK`` files a standing order that answers every
  future decision of that kind whose tests hold; ``ASK <kind>`` is short for
  ``STANDING <kind>: ASK``.  A seat holds a list of them for each kind: a new one is added to it,
  and replaces only the order of its kind with the same tests (an unconditional one the
  unconditional one).  They are tried with the IF orders first, in the order filed, and the
  unconditional one last (it is the catch-all), whenever it was filed.  ``STANDING <kind> FIRST IF
  <test>…: <order>`` puts an IF order ahead of the kind's others; the receipt of an IF order filed
  after others says which are tried before it and gives that line.  ``STANDING <kind> [IF <test>…]:
  CLEAR`` withdraws the one order with those tests, ``STANDING CLEAR <kind>`` (or ``STANDING <kind>
  CLEAR``) every order of the kind, ``STANDING CLEAR`` every standing order; then the game's defaults answer
  (``merge_standing``; the receipt says what is in force for each kind the message touched);
* ``ON <test> [AND <test>…]: <order>`` files a *keyed order* on the seat's agenda: it answers the
  first decision of its kind, at any later moment of the current period (a game's turn), whose
  tests hold and for which it is legal, and is then used up.  Games whose decisions come in an
  order nobody can foresee (Across the Narva draws command chits from a cup) are played this way:
  "ON CHIT 2SH: ACTIVATE 109", "ON HQ 109: MOVE 381 TO 2223".  A message's ON lines are added to
  the seat's agenda (core/agenda.py: one the same as a line waiting is not added twice);
  ``ON CLEAR`` empties it, ``ON CLEAR <test> [AND <test>…]`` drops the lines with those tests;
  lines left unused when the period ends expire.

Tests are the game's named conditions, evaluated only on the deciding role's own view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from moderator.core.errors import ParseError
from moderator.core.grammar import Grammar, Lexicon, tokenize
from moderator.core.human import OrderWords, YesNo, looks_like_order, yes_no_word

ASK = "ASK"


@dataclass(frozen=True)
class Test:
    name: str
    args: tuple[str, ...] = ()
    negated: bool = False

    def render(self) -> str:
        text = " ".join((self.name, *self.args))
        return f"NOT {text}" if self.negated else text


@dataclass(frozen=True)
class ScriptLine:
    """One line of a script.  A line passed over (core/script_order.py: a question took a line written
    after it) keeps the kind of that question and the phase it happened in; two lines are the same
    line whatever became of them."""

    line_no: int
    text: str  # canonical text of the order, or "STOP"
    guard: tuple[Test, ...] = ()
    passed: str = field(default="", compare=False)  # the kind of the question that passed it over; "": not passed
    phase: str = field(default="", compare=False)  # the phase it was passed over in
    #: the period (or, in a game without periods, the phase) of the round it belongs to, once a
    #: question took a line of that round before it; "": no round has reached it (core/script_order.py)
    in_round: str = field(default="", compare=False)

    @property
    def is_stop(self) -> bool:
        return self.text == "STOP"

    def to_json(self) -> dict[str, Any]:
        raw: dict[str, Any] = {"line_no": self.line_no, "text": self.text, "guard": [asdict(t) for t in self.guard]}
        if self.passed:
            raw.update(passed=self.passed, phase=self.phase)
        if self.in_round:
            raw["in_round"] = self.in_round
        return raw

    def render(self) -> str:
        if not self.guard:
            return self.text
        return "IF " + " AND ".join(t.render() for t in self.guard) + ": " + self.text


@dataclass(frozen=True)
class Standing:
    kind: str
    answer: str  # canonical order text, or ASK
    guard: tuple[Test, ...] = ()
    line_no: int = 0
    #: written `STANDING <kind> FIRST IF …`: filed ahead of the seat's other orders of its kind.  Only the
    #: message's line carries it (its receipt echoes it); the order filed is tried where it was put.
    first: bool = field(default=False, compare=False)

    def render(self) -> str:
        guard = (" IF " + " AND ".join(t.render() for t in self.guard)) if self.guard else ""
        first = " FIRST" if self.first else ""
        return f"STANDING {self.kind.upper()}{first}{guard}: {self.answer}"

    def written(self) -> str:
        """The line as a player would write it (the kind in lower case, as HELP and the reports write it)."""
        return "STANDING " + self.kind + self.render().removeprefix("STANDING " + self.kind.upper())


@dataclass(frozen=True)
class Withdraw:
    """A withdrawal of standing orders: of every kind (`kind` None), of one kind (`guard` None), or the
    one order of `kind` whose tests are `guard` (`()`: the unconditional one)."""

    kind: str | None
    guard: tuple[Test, ...] | None = None
    line_no: int = 0

    def matches(self, standing: Standing) -> bool:
        if self.kind is None:
            return True
        if standing.kind != self.kind:
            return False
        return self.guard is None or same_tests(standing.guard, self.guard)

    def render(self) -> str:
        if self.kind is None:
            return "STANDING CLEAR"
        if self.guard is None:
            return f"STANDING CLEAR {self.kind.upper()}"
        return Standing(self.kind, "CLEAR", self.guard).render()


def same_tests(a: Sequence[Test], b: Sequence[Test]) -> bool:
    """Two guards with the same tests, in whatever order they were written."""
    return frozenset(a) == frozenset(b)


@dataclass(frozen=True)
class AgendaLine:
    """A keyed order: used once, by the first decision of its kind whose tests hold and that takes it."""

    line_no: int
    kind: str
    text: str  # canonical order text
    guard: tuple[Test, ...] = ()
    period: str | None = None  # the game's period (turn) it was filed for; None = no expiry
    #: why the engine refused it the last time a question of its kind came whose tests held ("": never
    #: refused); said when the line expires unused (a line is the same line whatever became of it)
    refused: str = field(default="", compare=False)

    def render(self) -> str:
        if not self.guard:
            return f"ON ANY: {self.text}"
        return "ON " + " AND ".join(t.render() for t in self.guard) + ": " + self.text

    def to_json(self) -> dict[str, Any]:
        raw: dict[str, Any] = {"line_no": self.line_no, "kind": self.kind, "text": self.text, "period": self.period,
                               "guard": [asdict(t) for t in self.guard]}
        if self.refused:  # only when set: a plan without refusals keeps its stored form
            raw["refused"] = self.refused
        return raw


@dataclass(frozen=True)
class AgendaClear:
    """``ON CLEAR``: every keyed order dropped (`guard` None), or ``ON CLEAR <test>…`` those whose tests
    are `guard` (``ON CLEAR ANY``: those written ``ON ANY``)."""

    guard: tuple[Test, ...] | None = None
    line_no: int = 0

    def matches(self, line: AgendaLine) -> bool:
        return self.guard is None or same_tests(line.guard, self.guard)

    def render(self) -> str:
        if self.guard is None:
            return "ON CLEAR"
        return "ON CLEAR " + (" AND ".join(t.render() for t in self.guard) if self.guard else "ANY")


@dataclass
class Plan:
    """What a seat has filed: a script waiting to run, its keyed orders and its standing orders."""

    script: list[ScriptLine] = field(default_factory=list)
    standing: list[Standing] = field(default_factory=list)
    agenda: list[AgendaLine] = field(default_factory=list)
    #: the phase in which the script last answered a question: while it lasts, a question may take a
    #: line written after lines of other kinds (core/runner.py)
    running: str = ""
    #: the questions open when the script was filed (its lines were written for them): they may too
    fresh: tuple[str, ...] = ()
    #: a new player's questions are asked, not answered by the game's standing defaults, until the
    #: player first files orders or first lets a deadline pass (service/turns.py, docs/design-notes.md)
    ask_first: bool = False

    def to_json(self) -> dict[str, Any]:
        raw: dict[str, Any] = {
            "script": [line.to_json() for line in self.script],
            "standing": [{"kind": s.kind, "answer": s.answer, "line_no": s.line_no,
                          "guard": [asdict(t) for t in s.guard]} for s in self.standing],
        }
        if self.agenda:
            raw["agenda"] = [a.to_json() for a in self.agenda]
        if self.running:
            raw["running"] = self.running
        if self.fresh:
            raw["fresh"] = list(self.fresh)
        if self.ask_first:
            raw["ask_first"] = True
        return raw

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> Plan:
        if not raw:
            return cls()

        def tests(items: list[dict[str, Any]]) -> tuple[Test, ...]:
            return tuple(Test(t["name"], tuple(t["args"]), t["negated"]) for t in items)

        return cls(
            [ScriptLine(s["line_no"], s["text"], tests(s["guard"]), s.get("passed", ""), s.get("phase", ""),
                        s.get("in_round", ""))
             for s in raw.get("script", [])],
            [Standing(s["kind"], s["answer"], tests(s["guard"]), s.get("line_no", 0))
             for s in raw.get("standing", [])],
            [AgendaLine(a["line_no"], a["kind"], a["text"], tests(a["guard"]), a.get("period"), a.get("refused", ""))
             for a in raw.get("agenda", [])],
            raw.get("running", ""), tuple(raw.get("fresh", ())), bool(raw.get("ask_first", False)),
        )


@dataclass(frozen=True)
class StandingMerge:
    """What a message did to a seat's standing orders, for its receipt: the kinds it touched, the
    orders it replaced (kind, old, new) and withdrew (kind, old), as `render` writes them, and what
    each of its lines did (by line number)."""

    kinds: tuple[str, ...] = ()
    replaced: tuple[tuple[str, str, str], ...] = ()
    withdrawn: tuple[tuple[str, str], ...] = ()
    effects: tuple[tuple[int, str], ...] = ()


def merge_standing(plan: Plan, changes: Sequence[Standing | Withdraw]) -> tuple[Plan, StandingMerge]:
    """A seat's standing orders after a message's (module docstring): each change in the order
    written; a new order takes the place of the one of its kind with the same tests, or joins the
    list (at its end, or, written FIRST, ahead of the kind's other orders); withdrawals remove what they
    match.  Within a kind the unconditional order goes last, whenever it was filed: it is the catch-all,
    and tried before an IF order it would leave that order nothing to answer."""
    standing = list(plan.standing)
    kinds: list[str] = []
    replaced: list[tuple[str, str, str]] = []
    withdrawn: list[tuple[str, str]] = []
    effects: list[tuple[int, str]] = []
    # The orders this message filed, each with its effect's index, and those written FIRST: told apart from
    # equal orders filed before by identity (`is`), as an order re-sent equals the one it replaces.
    placed: list[tuple[Standing, int]] = []
    firsts: list[Standing] = []
    for change in changes:
        if isinstance(change, Withdraw):
            gone = [s for s in standing if change.matches(s)]
            kinds += [change.kind] if change.kind else [s.kind for s in gone]
            withdrawn += [(s.kind, s.render()) for s in gone]
            standing = [s for s in standing if not change.matches(s)]
            effects.append((change.line_no, f"withdrew {len(gone)} standing order{'s' if len(gone) > 1 else ''}"
                            if gone else "you had no such standing order"))
            continue
        kinds.append(change.kind)
        order = replace(change, first=False)  # FIRST says where to put it; the order filed is the same order
        same = [s for s in standing if s.kind == order.kind and same_tests(s.guard, order.guard)]
        old = [s.render() for s in same if s.render() != order.render()]
        replaced += [(order.kind, text, order.render()) for text in old]
        placed.append((order, len(effects)))
        effects.append((change.line_no, f"in force from now on, in place of {' / '.join(old)}" if old else
                        "in force already" if same else "in force from now on"))
        if change.first and change.guard:  # it goes to the end, then ahead with the others written FIRST
            firsts.append(order)
            standing = [s for s in standing if s not in same]
            standing.append(order)
        elif same:
            standing[standing.index(same[0])] = order
            standing = [s for s in standing if s not in same[1:]]
        else:
            standing.append(order)
    # Stable: the catch-all of each kind last; the orders written FIRST ahead of the kind's others, in the
    # order written; the rest of the IF orders in the order filed.
    standing.sort(key=lambda s: (not s.guard, not _among(s, firsts)))
    filed_now = [order for order, _ in placed]
    for order, at in placed:
        if _among(order, standing):
            line_no, said = effects[at]
            effects[at] = (line_no, said + _place_note(order, standing, _among(order, firsts), filed_now))
    merged = StandingMerge(tuple(dict.fromkeys(kinds)), tuple(replaced), tuple(withdrawn), tuple(effects))
    return replace(plan, standing=standing), merged


def _among(order: Standing, orders: Sequence[Standing]) -> bool:
    """Whether this very order (not an equal one) is in `orders`."""
    return any(other is order for other in orders)


def _place_note(order: Standing, standing: Sequence[Standing], first: bool, filed_now: Sequence[Standing]) -> str:
    """Where a newly filed IF order is tried among its kind's (hand-played VMT, D12: a new order, put after one
    filed earlier that answers whenever both hold, could never be used and nobody said so).  The orders of
    the same message are not named: the player wrote them in the order they are tried."""
    if not order.guard:
        return ""
    if first:
        return f"; tried first of your {order.kind} orders"
    ahead = [s for s in standing[:next(i for i, s in enumerate(standing) if s is order)]
             if s.kind == order.kind and s.guard and not _among(s, filed_now)]
    if not ahead:
        return ""
    # Several are counted, not named: the receipt lists the kind's orders in the order tried under the
    # lines, and naming them on each of three new lines made S35's receipt a page long.
    which = (f"{ahead[0].render()}, filed before, which answers instead whenever its tests hold too"
             if len(ahead) == 1 else f"the {len(ahead)} {order.kind} orders with IF filed before it (listed "
             f"below), any of which answers instead when its tests hold too")
    return f"; tried after {which} (to try this one first, send {replace(order, first=True).written()})"


@dataclass(frozen=True)
class LineResult:
    """The receipt entry for one line of a message."""

    line_no: int
    source: str
    canonical: str | None = None
    error: str | None = None
    note: str | None = None
    ignored: bool = False  # prose (a greeting, a sign-off): not an order, holds nothing back

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class ParsedBody:
    script: list[ScriptLine] = field(default_factory=list)
    #: standing orders filed and withdrawn, in the order written (they are merged in that order)
    standing_changes: list[Standing | Withdraw] = field(default_factory=list)
    #: keyed orders filed and dropped (ON CLEAR), in the order written (core/agenda.py merges them so)
    agenda_changes: list[AgendaLine | AgendaClear] = field(default_factory=list)
    lines: list[LineResult] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(not line.ok for line in self.lines)

    @property
    def agenda(self) -> list[AgendaLine]:
        """The keyed orders the message files."""
        return [change for change in self.agenda_changes if isinstance(change, AgendaLine)]

    @property
    def agenda_given(self) -> bool:
        """Whether the message has ON lines (ON CLEAR included)."""
        return bool(self.agenda_changes)

    @property
    def standing(self) -> list[Standing]:
        """The standing orders the message files."""
        return [change for change in self.standing_changes if isinstance(change, Standing)]


def _split_guard(text: str) -> tuple[str, str]:
    """'IF A AND B: ORDER' -> ('A AND B', 'ORDER'); also accepts 'IF A THEN ORDER' (and 'ON ...')."""
    body = text[2:].strip()
    if ":" in body:
        condition, _, rest = body.partition(":")
        return condition.strip(), rest.strip()
    upper = body.upper()
    at = upper.find(" THEN ")
    if at < 0:
        raise ParseError("a guard needs ':' or THEN before the order, e.g. 'IF LOST: STOP'")
    return body[:at].strip(), body[at + 6:].strip()


def parse_tests(text: str, grammar: Grammar) -> tuple[Test, ...]:
    tests: list[Test] = []
    for part in _split_and(text):
        tokens = tokenize(part)
        negated = bool(tokens) and tokens[0].upper() == "NOT"
        if negated:
            tokens = tokens[1:]
        if not tokens:
            raise ParseError("empty test in a guard")
        name = tokens[0].upper()
        if name not in grammar.conditions:
            import difflib

            near = difflib.get_close_matches(name, list(grammar.conditions), n=3, cutoff=0.5)
            raise ParseError(f"unknown test '{tokens[0]}'", tuple(near))
        tests.append(Test(name, tuple(t.upper() for t in tokens[1:]), negated))
    return tuple(tests)


def _split_and(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    for token in text.split():
        if token.upper() == "AND":
            parts.append(" ".join(current))
            current = []
        else:
            current.append(token)
    parts.append(" ".join(current))
    return [p for p in parts if p.strip()] or [""]


def parse_body(lines: Sequence[tuple[int, str]], grammar: Grammar, lexicon: Lexicon,
               standing_kinds: Sequence[str], yes_no: YesNo | None = None) -> ParsedBody:
    """Read every order line (never stopping at the first bad one) into a ParsedBody.

    Prose (core/human.py) is kept as an ignored line; YES and NO stand for the orders `yes_no` gives.
    """
    body = ParsedBody()
    kinds = {k.upper(): k for k in standing_kinds}
    words = OrderWords.of(grammar, lexicon, standing_kinds)
    for line_no, raw in lines:
        text = _order_text(raw)
        single = yes_no_word(text, grammar)
        if single:
            body.lines.append(_yes_no_line(line_no, raw, single, yes_no or YesNo(), grammar, lexicon, body))
        elif not looks_like_order(raw, words):
            body.lines.append(LineResult(line_no, raw, note="not an order, ignored", ignored=True))
        else:
            body.lines.append(_parse_line(line_no, raw, text, grammar, lexicon, kinds, body))
    return body


def _order_text(raw: str) -> str:
    """The line as an order: a full stop or an exclamation mark at its end is a writer's habit."""
    return raw.strip().rstrip(".!").rstrip()


def _yes_no_line(line_no: int, raw: str, word: str, yes_no: YesNo, grammar: Grammar, lexicon: Lexicon,
                 body: ParsedBody) -> LineResult:
    """YES or NO alone: the order it stands for now joins the script, or the line cannot be read."""
    order_text, problem = yes_no.answer(word)
    if order_text is None:
        return LineResult(line_no, raw, error=problem)
    try:
        canonical = grammar.render(grammar.parse(order_text, lexicon))
    except ParseError as error:  # an answer the engine lists is always readable; said, not raised
        return LineResult(line_no, raw, error=f"{word} stands for {order_text}, which cannot be read: {error}")
    body.script.append(ScriptLine(line_no, canonical))
    return LineResult(line_no, raw, canonical, note=f"{word} stands for {canonical}")


def _parse_line(line_no: int, raw: str, text: str, grammar: Grammar, lexicon: Lexicon, kinds: dict[str, str],
                body: ParsedBody) -> LineResult:
    """One line meant as an order: a script line, a guarded one, STOP, a standing or a keyed order."""
    upper = text.upper()
    try:
        if upper == "STOP":
            body.script.append(ScriptLine(line_no, "STOP"))
            return LineResult(line_no, raw, "STOP")
        if upper.startswith("STANDING ") or upper.startswith("ASK "):
            return _parse_standing(line_no, raw, text, grammar, lexicon, kinds, body)
        if upper.startswith("ON "):
            if upper.split()[:2] == ["ON", "CLEAR"] and ":" not in text:  # ON CLEAR [<test>...]
                clear = _agenda_clear(line_no, text.split(None, 2)[2:], grammar)
                body.agenda_changes.append(clear)
                return LineResult(line_no, raw, clear.render())
            condition, order_text = _split_guard(text)
            guard = () if condition.upper() == "ANY" else parse_tests(condition, grammar)
            order = grammar.parse(order_text, lexicon)
            keyed = AgendaLine(line_no, order.kind, grammar.render(order), guard)
            body.agenda_changes.append(keyed)
            return LineResult(line_no, raw, keyed.render())
        if upper.startswith("IF "):
            condition, order_text = _split_guard(text)
            guard = parse_tests(condition, grammar)
            canonical = "STOP" if order_text.upper() == "STOP" else grammar.render(grammar.parse(order_text, lexicon))
            line = ScriptLine(line_no, canonical, guard)
            body.script.append(line)
            return LineResult(line_no, raw, line.render())
        canonical = grammar.render(grammar.parse(text, lexicon))
        body.script.append(ScriptLine(line_no, canonical))
        return LineResult(line_no, raw, canonical)
    except ParseError as error:
        return LineResult(line_no, raw, error=error.explain())


def _agenda_clear(line_no: int, tests: Sequence[str], grammar: Grammar) -> AgendaClear:
    """`ON CLEAR` (every keyed order), `ON CLEAR ANY` (those written ON ANY) or `ON CLEAR <test>…`."""
    if not tests:
        return AgendaClear(None, line_no)
    condition = tests[0].strip()
    return AgendaClear(() if condition.upper() == "ANY" else parse_tests(condition, grammar), line_no)


def _parse_standing(line_no: int, raw: str, text: str, grammar: Grammar, lexicon: Lexicon,
                    kinds: dict[str, str], body: ParsedBody) -> LineResult:
    """A STANDING or ASK line: a standing order filed, or standing orders withdrawn (CLEAR)."""
    tokens = text.split(None, 1)
    head = tokens[0].upper()
    rest = tokens[1] if len(tokens) > 1 else ""
    change: Standing | Withdraw
    if head == "ASK":
        change = Standing(_kind(rest.strip(), kinds), ASK, (), line_no)
    elif rest.upper().split()[:1] == ["CLEAR"]:  # STANDING CLEAR [<kind>]
        what = rest[5:].strip()
        change = Withdraw(_kind(what, kinds) if what else None, None, line_no)
    elif ":" not in rest and len(rest.split()) == 2 and rest.split()[1].upper() == "CLEAR":  # STANDING <kind> CLEAR
        change = Withdraw(_kind(rest.split()[0], kinds), None, line_no)
    else:
        change = _standing_order(line_no, rest, grammar, lexicon, kinds)
    body.standing_changes.append(change)
    return LineResult(line_no, raw, change.render())


def _standing_order(line_no: int, rest: str, grammar: Grammar, lexicon: Lexicon,
                    kinds: dict[str, str]) -> Standing | Withdraw:
    """`<kind> [FIRST] [IF <test>…]: <order>|ASK|CLEAR` (what follows STANDING)."""
    if ":" not in rest:
        raise ParseError("a standing order reads 'STANDING <kind> [IF <test>]: <order>|ASK|CLEAR'")
    head_part, _, answer = rest.partition(":")
    head_tokens = head_part.split(None, 1)
    if not head_tokens:
        raise ParseError("a standing order names its kind: 'STANDING <kind> [IF <test>]: <order>|ASK|CLEAR'")
    kind = _kind(head_tokens[0], kinds)
    condition = head_tokens[1].strip() if len(head_tokens) > 1 else ""
    first = condition.upper().split()[:1] == ["FIRST"]
    condition = condition[5:].strip() if first else condition
    guard: tuple[Test, ...] = ()
    if condition:
        if not condition.upper().startswith("IF "):
            raise ParseError(f"expected IF after the kind '{kind}', found '{condition}'")
        guard = parse_tests(condition[3:], grammar)
    answer = answer.strip()
    if first and not guard:
        # Refused rather than filed last in silence: the player asked for a place it cannot have.
        raise ParseError(f"FIRST puts an order with IF ahead of your other {kind} orders; one without IF is "
                         f"always tried last (it answers whatever the others leave), so it takes no FIRST")
    if first and answer.upper() == "CLEAR":
        raise ParseError(f"FIRST places an order; to withdraw one write 'STANDING {kind} IF <test>: CLEAR'")
    if answer.upper() == "CLEAR":
        return Withdraw(kind, guard, line_no)
    if answer.upper() == ASK:
        return Standing(kind, ASK, guard, line_no, first)
    order = grammar.parse(answer, lexicon)
    if order.kind != kind:
        raise ParseError(f"'{answer}' is a {order.kind} order and cannot answer {kind} questions")
    return Standing(kind, grammar.render(order), guard, line_no, first)


def _kind(word: str, kinds: dict[str, str]) -> str:
    upper = word.upper()
    if upper in kinds:
        return kinds[upper]
    hits = [k for k in kinds if len(upper) >= 2 and k.startswith(upper)]
    if len(hits) == 1:
        return kinds[hits[0]]
    import difflib

    near = difflib.get_close_matches(upper, list(kinds), n=3, cutoff=0.5)
    raise ParseError(f"no decision kind '{word}' (kinds: {', '.join(sorted(kinds)).lower()})",
                     tuple(n.lower() for n in near))
