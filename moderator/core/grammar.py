"""A small declarative order grammar shared by every game (DESIGN §4, "The text format").

A game describes each order by a syntax string; the same metadata parses lines, renders the
canonical echo, and writes HELP.  Syntax elements:

* ``WORD``             a keyword (case-insensitive; an unambiguous prefix is accepted)
* ``<name:type>``      a slot resolved through the game's lexicon (areas, blocks, cards, …)
* ``<name:type...>``   one or more values of that type
* ``<name:A|B|C>``     one of the listed words, stored under ``name``
* ``<name:int>``       an integer
* ``[ … ]``            an optional group

Names are resolved exactly, then by alias, then by unambiguous prefix; a miss suggests the nearest
legal names.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from moderator.core.errors import ParseError

Value = str | int | tuple[str, ...] | None
#: A name type with no more names than this (a hand of cards) is listed whole when a name is not found.
SMALL_TABLE = 12


@dataclass(frozen=True)
class Order:
    """A parsed order: its kind (the decision kind it answers), its form, and its slot values."""

    kind: str
    form: str
    args: tuple[tuple[str, Value], ...] = ()

    def get(self, name: str, default: Value = None) -> Value:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def values(self, name: str) -> tuple[str, ...]:
        value = self.get(name)
        if value is None:
            return ()
        if isinstance(value, tuple):
            return value
        return (str(value),)

    @classmethod
    def make(cls, kind: str, form: str, **args: Value) -> Order:
        return cls(kind, form, tuple((k, v) for k, v in args.items() if v is not None))


# ---------------------------------------------------------------- syntax elements


@dataclass(frozen=True)
class _Keyword:
    word: str


@dataclass(frozen=True)
class _Slot:
    name: str
    type: str
    many: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Optional:
    items: tuple[Any, ...]


_TOKEN = re.compile(r"->|\[|\]|<[^>]+>|[^\s\[\]<>]+")


def _compile(syntax: str) -> tuple[Any, ...]:
    stack: list[list[Any]] = [[]]
    for piece in _TOKEN.findall(syntax):
        if piece == "[":
            stack.append([])
        elif piece == "]":
            group = stack.pop()
            stack[-1].append(_Optional(tuple(group)))
        elif piece.startswith("<"):
            name, _, kind = piece[1:-1].partition(":")
            many = kind.endswith("...")
            kind = kind.removesuffix("...")
            if "|" in kind or kind.isupper():  # <mode:ATTACK|INTERDICT>, or a single word <x:WORD>
                stack[-1].append(_Slot(name, "choice", many, tuple(kind.split("|"))))
            else:
                stack[-1].append(_Slot(name, kind or "word", many))
        else:
            stack[-1].append(_Keyword(piece.upper()))
    if len(stack) != 1:
        raise ValueError(f"unbalanced [ ] in syntax {syntax!r}")
    return tuple(stack[0])


@dataclass(frozen=True)
class OrderSpec:
    """One form of one order kind, with help text and examples for HELP."""

    kind: str
    form: str
    syntax: str
    help: str
    examples: tuple[str, ...] = ()

    @cached_property
    def elements(self) -> tuple[Any, ...]:
        return _compile(self.syntax)

    @cached_property
    def first_keyword(self) -> str | None:
        first = self.elements[0] if self.elements else None
        return first.word if isinstance(first, _Keyword) else None


@dataclass(frozen=True)
class ConditionSpec:
    """A test a script guard or standing order may use; evaluated only on the role's own view."""

    name: str
    params: str
    help: str


# ---------------------------------------------------------------- lexicon


@dataclass
class Lexicon:
    """The names a role may use, by type: canonical name → aliases."""

    names: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    _exact: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)

    def add(self, type_: str, canonical: str, aliases: Iterable[str] = ()) -> None:
        aliases = tuple(aliases)
        self.names.setdefault(type_, {})[canonical] = aliases
        exact = self._exact.setdefault(type_, {})
        for name in (canonical, *aliases):
            exact.setdefault(_spelling(name), canonical)
        exact[_spelling(canonical)] = canonical

    def lookup(self, type_: str, token: str) -> str | None:
        """The canonical name for an exact name or alias, or None (fast, no suggestions); case,
        hyphens and underscores do not count (Heavy-Artillery is HEAVY_ARTILLERY)."""
        return self._exact.get(type_, {}).get(_spelling(token))

    def resolve(self, type_: str, token: str) -> str:
        table = self.names.get(type_, {})
        wanted = token.casefold()
        found = self.lookup(type_, token)
        if found is not None:
            return found
        prefixed = {c for c, aliases in table.items()
                    if c.casefold().startswith(wanted) or any(a.casefold().startswith(wanted) for a in aliases)}
        if len(prefixed) == 1 and len(wanted) >= 2:
            return prefixed.pop()
        pool = [c for c in table] + [a for aliases in table.values() for a in aliases]
        near = difflib.get_close_matches(token, pool, n=3, cutoff=0.6)
        if not near:
            near = difflib.get_close_matches(token.upper(), [p.upper() for p in pool], n=3, cutoff=0.6)
        if len(prefixed) > 1:
            raise ParseError(f"'{token}' could be any of {', '.join(sorted(prefixed))}",
                             tuple(sorted(prefixed))[:3])
        if not near and 0 < len(table) <= SMALL_TABLE:
            # Nothing close, but few names to choose from (a hand of cards): name them all.
            raise ParseError(f"no {type_} '{token}' (yours: {', '.join(table)})")
        raise ParseError(f"no {type_} '{token}'", tuple(dict.fromkeys(near)))


def _spelling(name: str) -> str:
    """A name as the lexicon compares it: case folded, hyphen and space written as underscore."""
    return name.casefold().replace("-", "_").replace(" ", "_")


# ---------------------------------------------------------------- grammar


def tokenize(line: str) -> list[str]:
    """Split an order line into tokens; commas separate like spaces, '->' stands alone."""
    line = line.replace(",", " ").replace("->", " -> ")
    return line.split()


class _Fail(Exception):
    """Where a form stopped matching and why; `weak` when a keyword was expected and the word there is
    nothing like it (so another form's reading of that word, "no unit '30Tk'", explains better)."""

    def __init__(self, position: int, error: ParseError, weak: bool = False):
        self.position = position
        self.error = error
        self.weak = weak

    def beats(self, other: _Fail | None) -> bool:
        """Whether this failure explains the line better than `other`: it got further, or as far with a
        reason that is not a weak keyword miss."""
        return other is None or (self.position, not self.weak) > (other.position, not other.weak)


class Grammar:
    """The orders of one game, with condition names for guards and standing orders."""

    def __init__(self, specs: Sequence[OrderSpec], conditions: Sequence[ConditionSpec] = (),
                 kind_titles: Mapping[str, str] | None = None):
        self.specs = tuple(specs)
        self.conditions = {c.name.upper(): c for c in conditions}
        self.kind_titles = dict(kind_titles or {})
        keywords = {spec.first_keyword for spec in self.specs}
        if None in keywords:
            raise ValueError("every order form must begin with a keyword")
        self.keywords = sorted(k for k in keywords if k)

    # ---- parsing

    def parse(self, line: str, lexicon: Lexicon, kinds: Iterable[str] | None = None) -> Order:
        """Parse one order line; raise ParseError naming the problem and the nearest fix."""
        tokens = tokenize(line)
        if not tokens:
            raise ParseError("empty order")
        wanted = set(kinds) if kinds is not None else None
        head = tokens[0].upper()
        exact = [k for k in self.keywords if k == head]
        prefixed = [k for k in self.keywords if k.startswith(head)] if len(head) >= 2 else []
        candidates = exact or prefixed
        if not candidates:
            near = difflib.get_close_matches(head, self.keywords, n=3, cutoff=0.5)
            raise ParseError(f"unknown order '{tokens[0]}'", tuple(near))
        if len(candidates) > 1:
            raise ParseError(f"'{tokens[0]}' could be {', '.join(candidates)}", tuple(candidates[:3]))
        keyword = candidates[0]
        specs = [s for s in self.specs if s.first_keyword == keyword]
        if wanted is not None:
            # Forms of the kinds being asked come first; others still parse, so the caller can
            # say "this does not answer the question" instead of "cannot read it".
            specs.sort(key=lambda s: s.kind not in wanted)
        best: _Fail | None = None
        for spec in specs:
            try:
                args = _Matcher(tokens, lexicon).match(spec.elements)
                return Order(spec.kind, spec.form, tuple(args.items()))
            except _Fail as fail:
                if fail.beats(best):
                    best = fail
        assert best is not None
        forms = "; ".join(s.syntax for s in specs)
        error = best.error
        raise ParseError(str(error), error.suggestions, hint=f"the form is: {forms}")

    # ---- rendering

    def spec(self, kind: str, form: str) -> OrderSpec:
        for spec in self.specs:
            if spec.kind == kind and spec.form == form:
                return spec
        raise KeyError(f"{kind}/{form}")

    def render(self, order: Order) -> str:
        """The canonical text of an order; parse(render(order)) == order."""
        spec = self.spec(order.kind, order.form)
        args = dict(order.args)
        return " ".join(self._render_seq(spec.elements, args))

    def _render_seq(self, elements: Sequence[Any], args: dict[str, Value]) -> list[str]:
        out: list[str] = []
        for element in elements:
            if isinstance(element, _Keyword):
                out.append(element.word)
            elif isinstance(element, _Optional):
                if self._names_in(element.items) & {k for k, v in args.items() if v is not None}:
                    out.extend(self._render_seq(element.items, args))
            else:
                value = args.get(element.name)
                if value is None:
                    continue
                if isinstance(value, tuple):
                    out.extend(value)
                else:
                    out.append(str(value))
        return out

    def _names_in(self, elements: Sequence[Any]) -> set[str]:
        names: set[str] = set()
        for element in elements:
            if isinstance(element, _Slot):
                names.add(element.name)
            elif isinstance(element, _Optional):
                names |= self._names_in(element.items)
        return names

    # ---- help

    def help_sections(self) -> list[tuple[str, list[OrderSpec]]]:
        sections: dict[str, list[OrderSpec]] = {}
        for spec in self.specs:
            sections.setdefault(spec.kind, []).append(spec)
        return [(self.kind_titles.get(kind, kind), specs) for kind, specs in sections.items()]


#: How alike a word must be to the keyword expected there to be read as a misspelling of it ('DOEN' for DONE).
_NEAR_KEYWORD = 0.6
#: The most words one name may be written in ('Superheavy Artillery', 'Red Square', '16th Panzer Division').
_LONGEST_NAME = 4


class _Matcher:
    """One attempt to match a line's tokens against one order form (backtracking, longest lists first)."""

    def __init__(self, tokens: list[str], lexicon: Lexicon):
        self.tokens = tokens
        self.lexicon = lexicon
        self.deep: list[_Fail] = []  # failures inside optional groups, which may explain best

    def match(self, elements: Sequence[Any]) -> dict[str, Value]:
        args: dict[str, Value] = {}
        end = self.seq(elements, 0, 0, args)
        if end != len(self.tokens):
            # An optional group that failed further in explains better ("no area 'A8'") than
            # "unexpected 'TO A8'".
            # So does what was expected at the first word left over ("expected 'WITH' but found 'WIHT'"),
            # or a name misspelt in a list there ("no block '5O/122'; did you mean '50/122'?").
            deeper = [f for f in self.deep if f.position >= end]
            if deeper:
                raise max(deeper, key=lambda f: (f.position, bool(f.error.suggestions)))
            raise _Fail(end, ParseError(f"unexpected '{' '.join(self.tokens[end:])}'"))
        return args

    def seq(self, elements: Sequence[Any], i: int, pos: int, args: dict[str, Value]) -> int:
        """Match elements[i:] from token `pos`; return the position after them; raises _Fail."""
        if i == len(elements):
            return pos
        element = elements[i]
        if isinstance(element, _Keyword):
            self.keyword(element, pos)
            return self.seq(elements, i + 1, pos + 1, args)
        if isinstance(element, _Optional):
            return self.optional(element, elements, i, pos, args)
        assert isinstance(element, _Slot)
        if pos >= len(self.tokens):
            raise _Fail(pos, ParseError(f"missing {element.name}"))
        if not element.many:
            value, width = self.value_at(element, pos)
            args[element.name] = value
            return self.seq(elements, i + 1, pos + width, args)
        return self.many(element, elements, i, pos, args)

    def value_at(self, element: _Slot, pos: int) -> tuple[Value, int]:
        """The value at token `pos` and how many words it took: people write 'Heavy Artillery' or
        'Red Square' for the names HEAVY_ARTILLERY and RedSquare, so a name may span words."""
        if element.type not in ("int", "choice", "word"):
            for width in range(min(_LONGEST_NAME, len(self.tokens) - pos), 1, -1):
                words = self.tokens[pos:pos + width]
                for joiner in ("_", ""):
                    found = self.lexicon.lookup(element.type, joiner.join(words))
                    if found is not None:
                        return found, width
        return _value(element, self.tokens[pos], pos, self.lexicon), 1

    def keyword(self, element: _Keyword, pos: int) -> None:
        if pos >= len(self.tokens):
            raise _Fail(pos, ParseError(f"missing '{element.word}'"))
        token = self.tokens[pos].upper()
        if token != element.word and not (len(token) >= 2 and element.word.startswith(token)
                                           and element.word not in ("->",)):
            unlike = difflib.SequenceMatcher(None, token, element.word).ratio() < _NEAR_KEYWORD
            raise _Fail(pos, ParseError(f"expected '{element.word}' but found '{self.tokens[pos]}'"), weak=unlike)

    def optional(self, element: _Optional, elements: Sequence[Any], i: int, pos: int,
                 args: dict[str, Value]) -> int:
        trial = dict(args)
        try:
            inner_end = self.seq(element.items, 0, pos, trial)
            end = self.seq(elements, i + 1, inner_end, trial)
            args.clear()
            args.update(trial)
            return end
        except _Fail as with_group:
            self.deep.append(with_group)
            try:
                return self.seq(elements, i + 1, pos, args)
            except _Fail as without:
                raise (with_group if with_group.position >= without.position else without) from None

    def many(self, element: _Slot, elements: Sequence[Any], i: int, pos: int, args: dict[str, Value]) -> int:
        """One or more values: the longest run that still lets the rest of the form match."""
        values, ends, last_error = self.run_of_values(element, elements, pos)
        for count in range(len(values), 0, -1):
            trial = dict(args)
            trial[element.name] = tuple(values[:count])
            try:
                result = self.seq(elements, i + 1, ends[count - 1], trial)
                args.clear()
                args.update(trial)
                return result
            except _Fail as fail:
                # At the same word, a misspelt name with a near match explains better than the keyword
                # the rest of the form expected there ("no block '50/12x'; did you mean '50/121'?").
                if last_error is None or fail.position > last_error.position or (
                        fail.position == last_error.position and not last_error.error.suggestions):
                    last_error = fail
        assert last_error is not None
        raise last_error

    def run_of_values(self, element: _Slot, elements: Sequence[Any],
                      pos: int) -> tuple[list[str], list[int], _Fail | None]:
        """The values from `pos` on that `element` accepts, stopping at a keyword of the rest of the form,
        with the token position after each value."""
        values: list[str] = []
        ends: list[int] = []
        last_error: _Fail | None = None
        end = pos
        while end < len(self.tokens):
            if values and element.type not in ("int", "choice", "word") \
                    and self.lexicon.lookup(element.type, self.tokens[end]) is None \
                    and self.tokens[end].upper() in _keywords_of(elements):
                break  # a keyword of the rest of the form ends the list; no need to explain it
            try:
                value, width = self.value_at(element, end)
            except _Fail as fail:
                last_error = fail
                if values:
                    self.deep.append(fail)  # the list may end here; if nothing else fits, this says why
                break
            values.append(str(value))
            end += width
            ends.append(end)
        if not values:
            raise last_error or _Fail(pos, ParseError(f"missing {element.name}"))
        return values, ends, last_error


def _keywords_of(elements: Sequence[Any]) -> set[str]:
    words: set[str] = set()
    for element in elements:
        if isinstance(element, _Keyword):
            words.add(element.word)
        elif isinstance(element, _Optional):
            words |= _keywords_of(element.items)
    return words


def _value(slot: _Slot, token: str, pos: int, lexicon: Lexicon) -> Value:
    if slot.type == "int":
        try:
            return int(token)
        except ValueError:
            raise _Fail(pos, ParseError(f"{slot.name} must be a number, not '{token}'")) from None
    if slot.type == "choice":
        upper = token.upper()
        hits = [c for c in slot.choices if c == upper] or \
               [c for c in slot.choices if len(upper) >= 2 and c.startswith(upper)]
        if len(hits) == 1:
            return hits[0]
        near = difflib.get_close_matches(upper, slot.choices, n=3, cutoff=0.5)
        raise _Fail(pos, ParseError(f"{slot.name} must be one of {'|'.join(slot.choices)}, not '{token}'",
                                    tuple(near)))
    if slot.type == "word":
        return token
    try:
        return lexicon.resolve(slot.type, token)
    except ParseError as error:
        raise _Fail(pos, error) from None
