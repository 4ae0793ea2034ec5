"""The engine contract every game implements (DESIGN §3), written down whole.

Everything the services, the runner, the reports, the archive, the demo and the tests call on an
engine is declared in `Engine` below; nothing is probed for with ``hasattr``/``getattr``.  What a
game has in common with the others (the engine body, the frame machine, board basics, the bot
skeleton) lives once in `moderator.core` (`engine_base`, `frames`, `board`, `bots`), so a game
writes only its rules.

An engine is pure: it never reads a clock, a file after construction, a database or a global
random source.  Randomness comes only from the `Rng` handed to `setup` and `apply`.

The moderator speaks to an engine in small, atomic answers.  A whole Action Phase is a sequence of
decisions ("which card?", "which blocks move where?", "done moving?") so that the legal answers to
each can be listed or tested, a script of many orders can be fed one decision at a time, random
playouts can pick among the legal answers, and a deadline default is always a legal answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from moderator.core.errors import ModeratorError, UnknownGame

if TYPE_CHECKING:  # pragma: no cover - typing only
    from moderator.core.bots import Brain
    from moderator.core.grammar import Grammar, Lexicon, Order
    from moderator.core.rng import Rng

JSON = dict[str, Any]
#: An option may carry a label after two spaces and a parenthesis ("RETREAT TO C03  (1 loss)"): not part of the order.
OPTION_LABEL = "  ("
View = Mapping[str, Any]
"""What one role may see, built field by field from an allow-list (reports render only views)."""

OBSERVER = "observer"
REFEREE = "referee"

#: Deadline classes a decision may carry; the deployment's settings turn a class into hours.
DEADLINE_CLASSES = ("setup", "phase", "reaction")

S = TypeVar("S")
"""A game's state: a TypedDict (or dataclass) that round-trips through JSON."""


@dataclass(frozen=True)
class Decision:
    """One question the engine waits on: who answers, what kind of order answers it, and how.

    `options` lists the canonical legal answers when they are few enough to print; otherwise the
    engine's `legal_orders` tests or samples them.  `secret` answers are committed face down and
    never echoed to anyone but their author until the engine reveals them.  `interrupts` names the
    role whose phase this decision suspends (a reaction).  `context` holds facts the deciding role
    may see at this moment, for standing orders to test.
    """

    key: str
    role: str
    kind: str
    prompt: str
    default: str
    options: tuple[str, ...] = ()
    secret: bool = False
    deadline: str = "phase"
    interrupts: str | None = None
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Event:
    """Something that happened, with the roles allowed to learn it.

    `visible_to` None means everybody (observers too); `hidden_from` removes roles from that,
    for the public half of an event whose private half goes to one role only.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None
    hidden_from: tuple[str, ...] = ()

    def is_visible_to(self, role: str) -> bool:
        if role == REFEREE:
            return True
        if role in self.hidden_from:
            return False
        return self.visible_to is None or role in self.visible_to

    def to_json(self) -> JSON:
        raw: JSON = {"kind": self.kind, "data": dict(self.data), "visible_to": self.visible_to}
        if self.hidden_from:
            raw["hidden_from"] = list(self.hidden_from)
        return raw

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        seen = raw.get("visible_to")
        return cls(raw["kind"], raw.get("data", {}), tuple(seen) if seen is not None else None,
                   tuple(raw.get("hidden_from", ())))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: str | None  # None means a draw
    reason: str
    score: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OptionSpec:
    """A rule option players may choose when a game is created (rulings with alternatives)."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str


@dataclass(frozen=True)
class ScenarioInfo:
    name: str
    title: str
    roles: tuple[str, ...]
    description: str = ""
    #: A game of teams: each side's name and the roles (seats) it holds, e.g. two players a side in
    #: four-player Stalingrad.  Empty: every role is a side of its own.  A game with teams names the
    #: winning side (not a role) in its Outcome.
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def sides(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each side and its roles: the declared teams, or one side for each role."""
        return self.teams or tuple((role, (role,)) for role in self.roles)


@dataclass(frozen=True)
class StandingDefault:
    """A standing order the game files for every seat unless the player files their own.

    Games use these so that a player who never writes a defence policy is not asked after every
    combat; a player who wants to be asked files `STANDING <kind> ASK`.
    """

    kind: str
    answer: str  # canonical order text, or "ASK"
    roles: tuple[str, ...] = ()  # the roles ever asked questions of this kind (empty: every role)

    def applies_to(self, role: str) -> bool:
        return not self.roles or role in self.roles


class OptionError(ModeratorError):
    """A game was asked for with an option it does not have, or a value the option does not take."""


@dataclass(frozen=True)
class GameInfo:
    """Everything about a game that is not its rules: names, scenarios, roles, options, defaults."""

    id: str
    title: str
    scenarios: tuple[ScenarioInfo, ...]
    options: tuple[OptionSpec, ...] = ()
    standing_defaults: tuple[StandingDefault, ...] = ()
    deadline_classes: tuple[str, ...] = DEADLINE_CLASSES
    state_version: int = 1
    #: When a player who is asked nothing hears how the game went on: at the end of each game turn
    #: (`progress` changes) or of each phase (`phase_label` changes); players may choose otherwise.
    report_every: Literal["turn", "phase"] = "turn"
    #: Whether a mail that carries the whole map carries the detail image too: False when the detail
    #: is only a close-up of what the whole map shows (it would double a report's pictures for nothing).
    detail_with_whole_map: bool = True
    #: The kinds of question that open a new round of a player's questions within a phase (VMT's
    #: `card`: each card played opens an activation with its own Coordinated Assault, Armor and
    #: Pioneer and move questions).  With them, a running script answers a question with the first
    #: line of its kind in the current round, not only with its head (core/script_order.py).
    opening_kinds: tuple[str, ...] = ()
    #: The kinds of question a player is asked only within a round of their own once it is open (Narva:
    #: an activation's attach, move, attack and advance questions).  Lines of these kinds written right
    #: after a line a question took belong to that round: when their question does not come (the
    #: segment ended by itself), they lapse at the next opening question or when the period ends
    #: (core/script_order.py).  Empty: such lines wait for their question, however late.
    round_kinds: tuple[str, ...] = ()

    def scenario(self, name: str | None = None) -> ScenarioInfo:
        """The named scenario (the first when `name` is None); raises UnknownGame."""
        if name is None:
            return self.scenarios[0]
        for scenario in self.scenarios:
            if scenario.name == name:
                return scenario
        names = ", ".join(s.name for s in self.scenarios)
        raise UnknownGame(f"{self.id} has no scenario '{name}' (scenarios: {names})")

    def roles(self, scenario: str | None = None) -> tuple[str, ...]:
        return self.scenario(scenario).roles

    def chosen_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value: the defaults, overridden by `given`; raises OptionError."""
        specs = {spec.name: spec for spec in self.options}
        chosen = {name: spec.default for name, spec in specs.items()}
        for name, value in given.items():
            spec = specs.get(name)
            if spec is None:
                raise OptionError(f"{self.id} has no option '{name}' (options: {', '.join(specs) or 'none'})")
            chosen[name] = _option_value(spec, value)
        return chosen


def _option_value(spec: OptionSpec, value: Any) -> Any:
    """`value` as one of the option's choices (a command line gives "False" for False)."""
    if not spec.choices or value in spec.choices:
        return value
    for choice in spec.choices:
        if str(choice).lower() == str(value).lower():
            return choice
    raise OptionError(f"option {spec.name} must be one of {', '.join(map(str, spec.choices))}")


class Engine(Protocol[S]):
    """What the core needs from a game; `S` is the game's state type.  See module docstring."""

    info: GameInfo
    grammar: Grammar
    templates_dir: Path | None
    """Extra Jinja templates (a game's own report layout), searched after the shared ones."""

    # ---------------------------------------------------------------- playing

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> S:
        """The initial state; `options` holds every option (GameInfo.chosen_options)."""
        ...

    def pending(self, state: S) -> list[Decision]:
        """Who must decide what now; empty when the game is over."""
        ...

    def legal_orders(self, state: S, decision: Decision) -> list[Order]:
        """Legal answers to a pending decision (all of them, or a sample when they are too many)."""
        ...

    def answers(self, state: S, decision: Decision) -> list[str]:
        """Every legal answer to a pending decision as a line a player may copy (OPTIONS): complete where
        `options` and `legal_orders` are short or a sample, so it may take longer than they do."""
        ...

    def apply(self, state: S, role: str, order: Order, rng: Rng) -> tuple[S, list[Event]]:
        """A new state after `role` answers; raises IllegalOrder (the input state is unchanged)."""
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def score_now(self, state: S) -> Outcome | None:
        """Who the rules put ahead if the game stopped now (a league round's time-out decides an
        unfinished game by it), or None for a game whose rules give no such measure."""
        ...

    # ---------------------------------------------------------------- what players see

    def view(self, state: S, role: str) -> View:
        """Everything `role` (a seat, OBSERVER or REFEREE) may see now."""
        ...

    def lexicon(self, state: S, role: str) -> Lexicon:
        """The names `role` may use in orders now (areas, units, cards held ...)."""
        ...

    def condition(self, name: str, view: View, decision: Decision, args: Sequence[str]) -> bool:
        """A guard test of a script or standing order, read from the deciding role's view only."""
        ...

    def narrate(self, event: Event, role: str) -> str:
        """One event as report prose for `role` (already filtered by Event.is_visible_to)."""
        ...

    def map_png(self, view: View) -> bytes | None:
        """The whole map as `view` sees it, or None for a game without a map."""
        ...

    def map_detail_png(self, view: View) -> bytes | None:
        """A close-up of where this report's action was, or None."""
        ...

    # ---------------------------------------------------------------- where the game stands

    def phase_label(self, state: S) -> str:
        """A short code of the phase, written in a PHASE envelope line (``T3-AXIS``)."""
        ...

    def phase_title(self, state: S) -> str:
        """The phase in words, for report headings."""
        ...

    def progress(self, state: S) -> tuple[int, int]:
        """(turn now, last turn)."""
        ...

    def period(self, state: S) -> str | None:
        """The period keyed (ON) orders belong to and expire with (e.g. the turn), or None."""
        ...

    # ---------------------------------------------------------------- storing, testing, demo

    def dump_state(self, state: S) -> str: ...

    def load_state(self, text: str) -> S:
        """The state from `dump_state`'s text; raises ValueError for another state version."""
        ...

    def secrets(self, state: S, role: str) -> set[str]:
        """Names only `role` may know now (hidden blocks, cards held): leak tests look for them."""
        ...

    def check_scenario(self, name: str) -> None:
        """Load and validate the named scenario's data; raises ScenarioError listing the problems."""
        ...

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        """Demo players by role that read their report mails and write orders as a person would."""
        ...

    def reference_tables(self) -> list[str]:
        """Lines of the game's tables a player needs to read reports and plan (a CRT the rulebook does
        not print), for the HELP mail; none for most games."""
        ...


