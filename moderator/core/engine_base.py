"""The engine body every game shares: metadata from `GameInfo`, JSON state with a version, and
the contract's optional features answered as "none" (no map, no periods, no secrets, no bots).

A game subclasses `EngineBase` (or `frames.FrameStackEngine`, which adds the decision machinery)
and overrides what its rules have; the contract (`contract.Engine`) is then met in full, so the
services never need to ask an engine whether it has a method.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic

from moderator.core.contract import OPTION_LABEL, Decision, Event, GameInfo, Outcome, S, View

if TYPE_CHECKING:  # pragma: no cover - typing only
    from moderator.core.bots import Brain
    from moderator.core.grammar import Grammar, Lexicon, Order
    from moderator.core.rng import Rng


class EngineBase(ABC, Generic[S]):
    """Defaults for the contract's members that only some games need."""

    info: GameInfo
    grammar: Grammar
    templates_dir: Path | None = None

    # ---------------------------------------------------------------- what every game writes

    @abstractmethod
    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> S: ...

    @abstractmethod
    def pending(self, state: S) -> list[Decision]: ...

    @abstractmethod
    def legal_orders(self, state: S, decision: Decision) -> list[Order]: ...

    @abstractmethod
    def apply(self, state: S, role: str, order: Order, rng: Rng) -> tuple[S, list[Event]]: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def view(self, state: S, role: str) -> View: ...

    @abstractmethod
    def lexicon(self, state: S, role: str) -> Lexicon: ...

    @abstractmethod
    def condition(self, name: str, view: View, decision: Decision, args: Sequence[str]) -> bool: ...

    @abstractmethod
    def narrate(self, event: Event, role: str) -> str: ...

    @abstractmethod
    def phase_label(self, state: S) -> str: ...

    @abstractmethod
    def progress(self, state: S) -> tuple[int, int]: ...

    # ---------------------------------------------------------------- defaults

    def answers(self, state: S, decision: Decision) -> list[str]:
        """The decision's options, then the legal orders they do not list (a game whose lists are a
        sample answers this itself)."""
        listed = [option.split(OPTION_LABEL)[0] for option in decision.options]
        legal = [self.grammar.render(order) for order in self.legal_orders(state, decision)]
        return list(dict.fromkeys([*decision.options, *(a for a in legal if a not in listed)]))

    def phase_title(self, state: S) -> str:
        return self.phase_label(state)

    def period(self, state: S) -> str | None:
        """No periods: keyed orders never expire."""
        return None

    def map_png(self, view: View) -> bytes | None:
        return None

    def map_detail_png(self, view: View) -> bytes | None:
        return None

    def secrets(self, state: S, role: str) -> set[str]:
        return set()

    def check_scenario(self, name: str) -> None:
        """A game without scenario files has nothing to check beyond the scenario's name."""
        self.info.scenario(name)

    def score_now(self, state: S) -> Outcome | None:
        """No measure of an unfinished game: a league's referee adjudicates it instead."""
        return None

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        """No game-specific demo players: the demo's random players answer from the report's options."""
        return {}

    def reference_tables(self) -> list[str]:
        """No tables beyond the rulebook's: HELP lists orders and tests only."""
        return []

    # ---------------------------------------------------------------- state as JSON

    def dump_state(self, state: S) -> str:
        return json.dumps(state, sort_keys=True, separators=(",", ":"))

    def load_state(self, text: str) -> S:
        state = json.loads(text)
        version = state.get("version") if isinstance(state, dict) else None
        if version != self.info.state_version:
            raise ValueError(f"{self.info.title} state version {version} is not {self.info.state_version}")
        return state  # type: ignore[no-any-return]
