"""HELP's examples are orders a player can send (issue 12): every example of every game parses as an
order of its kind and is legal in some position, found in random games of the game (with its rule
options) or in the positions of the rule tests (the worked examples, a rebuild, an advance ...).

When an example is not found, the failure lists orders of the same form that were legal, to choose
a better example from.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from moderator.core.contract import Engine
from moderator.core.errors import OrderError
from moderator.core.rng import Rng, RngRecord
from tests.kit.games import EVERY, active_choice, game_id

#: The random games played, first with the default rules (each other rule option is then played with
#: the first seed, then the next seed ...), until every example is found.  Narva's fourth game is a long
#: one, in which its commonest examples are legal.
SEEDS = {"narva": (4, 5, 0)}
DEFAULT_SEEDS = (0, 1, 2, 3)
#: Answers per random game at most (the examples of a game are usually all found well before).
STEPS = 4000
#: A name an example uses in place of a secret one (Skirmish's unit names are secrets, §3.1: its
#: examples name a unit no side has), and the kind of name it stands for.
PLACEHOLDERS = {"skirmish": ("Scouts", "unit")}

Check = Callable[[Any], None]


class Prover:
    """Tries the examples not yet proven at every question of every position it is shown."""

    def __init__(self, engine: Engine[Any]):
        self.engine = engine
        self.todo = {(spec.kind, spec.form, example) for spec in engine.grammar.specs for example in spec.examples}
        self.proven: set[tuple[str, str, str]] = set()
        self.seen: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)

    @property
    def done(self) -> bool:
        return self.proven == self.todo

    def __call__(self, state: Any) -> None:
        engine = self.engine
        for decision in engine.pending(state):
            lexicon = engine.lexicon(state, decision.role)
            for kind, form, example in self.todo - self.proven:
                if kind == decision.kind and any(self.legal(state, decision.role, text, kind, form)
                                                 for text in self.readings(example, lexicon)):
                    self.proven.add((kind, form, example))
            open_forms = {(kind, form) for kind, form, _ in self.todo - self.proven if kind == decision.kind}
            if open_forms:  # what was legal instead, for the failure message
                for order in engine.legal_orders(state, decision):
                    if (order.kind, order.form) in open_forms:
                        self.seen[(order.kind, order.form)][engine.grammar.render(order)] += 1

    def readings(self, example: str, lexicon: Any) -> list[str]:
        """The example, or with its placeholder name replaced by each name of that kind the player has."""
        placeholder = PLACEHOLDERS.get(self.engine.info.id)
        if placeholder is None or placeholder[0] not in example.split():
            return [example]
        name, kind = placeholder
        return [example.replace(name, own) for own in lexicon.names.get(kind, {})]

    def legal(self, state: Any, role: str, text: str, kind: str, form: str) -> bool:
        engine = self.engine
        try:
            order = engine.grammar.parse(text, engine.lexicon(state, role), kinds=[kind])
            if (order.kind, order.form) != (kind, form):
                return False
            engine.apply(state, role, order, Rng(b"examples".ljust(32, b".")))
        except OrderError:
            return False
        return True

    def play(self, seed: int, options: dict[str, Any], scenario: str | None = None) -> None:
        """A random game (answers chosen as the kit's playouts choose them), shown at every question."""
        engine = self.engine
        pick = random.Random(seed)
        rng = RngRecord(f"examples-{seed}", seed.to_bytes(32, "big"), ["a", "b"]).rng()
        state = engine.setup(engine.info.scenario(scenario).name, options, rng)
        for _ in range(STEPS):
            decisions = engine.pending(state)
            if not decisions or self.done:
                return
            self(state)
            decision = pick.choice(decisions)
            order = active_choice(pick, engine.legal_orders(state, decision))
            state, _ = engine.apply(state, decision.role, order, rng)

    def missing(self) -> str:
        lines = []
        for kind, form, example in sorted(self.todo - self.proven):
            legal = ", ".join(text for text, _ in self.seen[(kind, form)].most_common(4)) or "none seen"
            lines.append(f"{example!r} ({kind}/{form}) was legal nowhere; legal of that form: {legal}")
        return "\n".join(lines)


def option_sets(engine: Engine[Any]) -> list[dict[str, Any]]:
    """The defaults, then each other choice of each rule option once (free set-up, fog off ...)."""
    return [{}] + [{spec.name: choice} for spec in engine.info.options for choice in spec.choices
                   if choice != spec.default]


def tours(engine: Engine[Any]) -> Iterable[Callable[[Check], None]]:
    """The rule tests' positions where a game's rarer examples are legal."""
    if engine.info.id == "vmt":
        from tests.games.vmt.examples_tour import TOURS as VMT_TOURS

        return VMT_TOURS
    if engine.info.id == "narva":
        from tests.games.narva.examples_tour import TOURS as NARVA_TOURS

        return NARVA_TOURS
    return ()


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_every_help_example_parses_and_is_legal_in_some_position(engine):
    prover = Prover(engine)
    for tour in tours(engine):
        tour(prover)
    for seed in SEEDS.get(engine.info.id, DEFAULT_SEEDS):
        for options in option_sets(engine):
            if not prover.done:
                prover.play(seed, options)
        for scenario in engine.info.scenarios[1:]:  # the four-player game's orders (GIVE) are asked only there
            if not prover.done:
                prover.play(seed, {}, scenario.name)
    assert prover.done, "HELP examples that are never legal:\n" + prover.missing()
