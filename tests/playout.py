"""Random playouts with legal random answers, shared by every game's tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from moderator.core.contract import Engine, Event
from moderator.core.rng import RngRecord


@dataclass
class Playout:
    state: Any
    steps: int = 0
    events: list[Event] = field(default_factory=list)


def random_playout(engine: Engine, seed: int, scenario: str | None = None, options: dict | None = None,
                   max_steps: int = 200_000, on_step: Callable[[Any, str, str, list[Event]], None] | None = None,
                   choose: Callable[[random.Random, list], Any] | None = None) -> Playout:
    """Play to the end choosing uniformly among pending decisions and their legal orders."""
    scenario = scenario or engine.info.scenario().name
    pick = random.Random(seed)
    rng = RngRecord(f"playout-{seed}", seed.to_bytes(32, "big"), ["p1", "p2"]).rng()
    state = engine.setup(scenario, options or {}, rng)
    result = Playout(state)
    for _ in range(max_steps):
        decisions = engine.pending(state)
        if not decisions:
            assert engine.outcome(state) is not None, "no decision pending but no outcome either"
            result.state = state
            return result
        decision = pick.choice(decisions)
        orders = engine.legal_orders(state, decision)
        assert orders, f"dead end: no legal order for {decision}"
        order = (choose or (lambda r, items: r.choice(items)))(pick, orders)
        text = engine.grammar.render(order)
        reparsed = engine.grammar.parse(text, engine.lexicon(state, decision.role), kinds=[decision.kind])
        assert reparsed == order, f"parse(render(order)) != order for {text!r}"
        state, events = engine.apply(state, decision.role, order, rng)
        result.steps += 1
        result.events.extend(events)
        if on_step:
            on_step(state, decision.role, text, events)
    raise AssertionError(f"no end after {max_steps} steps")


def names_in(node) -> set[str]:
    """Every string anywhere in an event's data (what that event named), for the leak checks."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            found |= names_in(key) | names_in(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            found |= names_in(value)
    elif isinstance(node, str):
        found.add(node)
    return found
