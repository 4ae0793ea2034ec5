"""The engine contract every game implements (DESIGN §3).

An engine is pure: it never reads a clock, a file after construction, a database or a global
random source.  Randomness comes only from the `Rng` handed to `setup` and `apply`.

The moderator speaks to an engine in small, atomic answers.  A whole Action Phase is a sequence of
decisions ("which card?", "which blocks move where?", "done moving?") so that the legal answers to
each can be listed or tested, a script of many orders can be fed one decision at a time, random
playouts can pick among the legal answers, and a deadline default is always a legal answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover - typing only
    from moderator.core.grammar import Grammar, Lexicon, Order
    from moderator.core.rng import Rng

JSON = dict[str, Any]

OBSERVER = "observer"
REFEREE = "referee"

#: Deadline classes a decision may carry; the game's settings turn a class into hours.
DEADLINE_CLASSES = ("setup", "phase", "reaction")


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
    def from_json(cls, raw: Mapping[str, Any]) -> "Event":
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


@dataclass(frozen=True)
class StandingDefault:
    """A standing order the game files for every seat unless the player files their own.

    Games use these so that a player who never writes a defence policy is not asked after every
    combat; a player who wants to be asked files `STANDING <kind> ASK`.
    """

    kind: str
    answer: str  # canonical order text, or "ASK"


class Engine(Protocol):
    """What the core needs from a game.  See module docstring."""

    id: str
    title: str
    grammar: "Grammar"

    def scenarios(self) -> Sequence[ScenarioInfo]: ...

    def option_specs(self) -> Sequence[OptionSpec]: ...

    def roles(self, scenario: str) -> tuple[str, ...]: ...

    def setup(self, scenario: str, options: Mapping[str, Any], rng: "Rng") -> Any: ...

    def pending(self, state: Any) -> list[Decision]: ...

    def legal_orders(self, state: Any, decision: Decision) -> list["Order"]: ...

    def apply(self, state: Any, role: str, order: "Order", rng: "Rng") -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, role: str) -> JSON: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def lexicon(self, state: Any, role: str) -> "Lexicon": ...

    def phase_label(self, state: Any) -> str: ...

    def standing_defaults(self) -> Sequence[StandingDefault]: ...

    def dump_state(self, state: Any) -> str: ...

    def load_state(self, text: str) -> Any: ...

    def narrate(self, event: Event, role: str) -> str: ...

    def condition(self, name: str, view: JSON, decision: Decision, args: Sequence[str]) -> bool: ...
