"""What every game's Board shares: the state it wraps, the scenario, the dice and the events.

A game's rules modules work on a Board: a working copy of the JSON state with the scenario, the
random source and the events being emitted, and a vocabulary that reads as prose.  The words both
games use for the same thing are defined here once:

* ``emit(kind, ...)``     an event, with who may learn it;
* ``remember(kind, ...)`` a public action of the current phase, for the map's highlights;
* ``roll(n, purpose)`` / ``d6(purpose)``  dice from the game's verifiable Rng; ``shuffle``, ``choice``
  and ``random_below`` for the other draws; ``salt`` for a committed secret;
* ``fail(message)``       refuse the order being applied (IllegalOrder), state unchanged;
* ``turn``, ``options``   the current turn and the game's rule options.

Games add their own words in the same style: ``is_on_map(piece)`` (a piece in play on the map),
``lose_step(piece, why)`` (one step lost; event ``step_lost``).  Dice appear in event data as
``die`` (one, ``Die.to_json()``) or ``dice`` (a list); a modified or summed result is ``total``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, NoReturn, TypeVar

from moderator.core.commitments import SALT_BOUND, SALT_STREAM, salt_text
from moderator.core.contract import Event
from moderator.core.errors import IllegalOrder
from moderator.core.frames import FrameStack
from moderator.core.rng import Die, Rng

Sc = TypeVar("Sc")
"""A game's scenario model."""
T = TypeVar("T")


class BoardBase(FrameStack, Generic[Sc]):
    """A game state being read or changed by the rules, with its scenario, dice and events."""

    def __init__(self, data: Any, scenario: Sc, rng: Rng | None = None):
        self.data = data
        self.scenario = scenario
        self.rng = rng
        self.events: list[Event] = []

    # ---------------------------------------------------------------- events

    def emit(self, kind: str, visible_to: Iterable[str] | None = None, hidden_from: Iterable[str] = (),
             **data: Any) -> None:
        self.events.append(Event(kind, data, tuple(visible_to) if visible_to is not None else None,
                                 tuple(hidden_from)))

    def remember(self, kind: str, **data: Any) -> None:
        """A public action of the current phase, for the map's highlights (moves, combats, fire)."""
        self.data.setdefault("recent", []).append(dict(data, kind=kind))

    # ---------------------------------------------------------------- dice

    def _dice(self) -> Rng:
        if self.rng is None:
            raise RuntimeError("rolling dice needs the game's Rng (a read-only board has none)")
        return self.rng

    def roll(self, count: int, purpose: str) -> list[Die]:
        return self._dice().dice(count, purpose)

    def d6(self, purpose: str) -> Die:
        return self._dice().d6(purpose)

    def shuffle(self, items: Sequence[T], purpose: str, stream: str) -> list[T]:
        """The items in a verifiable random order (a deck shuffled)."""
        return self._dice().shuffle(items, purpose, stream=stream)

    def choice(self, items: Sequence[T], purpose: str, stream: str) -> T:
        """One of the items, drawn verifiably."""
        chosen: T = self._dice().choice(items, purpose, stream=stream)
        return chosen

    def random_below(self, bound: int, stream: str, purpose: str) -> int:
        """A verifiable random number from 0 to bound - 1."""
        return self._dice().below(bound, stream=stream, purpose=purpose).value

    def salt(self, purpose: str) -> tuple[str, list[Any]]:
        """A committed secret's salt (core/commitments.py): 16 hex digits drawn verifiably, secret
        until the seed is revealed, with the draw's [stream, counter] for `verify`."""
        draw = self._dice().below(SALT_BOUND, stream=SALT_STREAM, purpose=purpose)
        return salt_text(draw.value), [draw.stream, draw.counter]

    # ---------------------------------------------------------------- refusing

    @staticmethod
    def fail(message: str, suggestions: Iterable[str] = ()) -> NoReturn:
        """Refuse the order being applied; raises IllegalOrder."""
        raise IllegalOrder(message, tuple(suggestions))

    # ---------------------------------------------------------------- simple fields

    @property
    def turn(self) -> int:
        return int(self.data["turn"])

    @property
    def options(self) -> Mapping[str, Any]:
        return self.data["options"]  # type: ignore[no-any-return]
