"""Positions for the rule tests of The Hell of Stalingrad: a fresh game whose table is rearranged, orders
applied as text through the grammar, every choice nobody scripts answered by its default."""

from __future__ import annotations

from typing import Any

from moderator.core.frames import new_frame
from moderator.core.grammar import Lexicon
from moderator.core.rng import Die, RngRecord
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.engine import engine
from moderator.games.stalingrad.scenario import SIDES
from moderator.games.stalingrad.setup import empty_district


def rng(seed: int = 1):
    return RngRecord(f"t{seed}", seed.to_bytes(32, "big"), ["a", "b"]).rng()


def fresh(seed: int = 1, **options: Any) -> dict[str, Any]:
    return engine.setup("siege", options, rng(seed))


def board(state: dict[str, Any], seed: int = 2) -> Board:
    return engine.make_board(state, rng(seed))


def carnage_with(**wanted: Any) -> str:
    """The first Carnage Card whose fields have the wanted values (hold given as effect texts)."""
    s = board(fresh()).scenario
    for card in s.carnage:
        fields = {"intensity": card.intensity, "initiative": card.initiative, "sniper": card.sniper,
                  "hold": [e.text() for e in card.hold]}
        if all(fields[k] == v for k, v in wanted.items()):
            return card.id
    raise KeyError(wanted)


def battle_position(building: str, district: str, german: dict[str, int | None], soviet: dict[str, int | None],
                    seed: int = 1, **options: Any) -> dict[str, Any]:
    """A game at turn 1 about to fight at `building` (placed in `district`) with these formations (id -> leader
    level or None); every other formation off the table, hands kept."""
    state = fresh(seed, **options)
    state["turn"] = 1
    state["districts"][district] = empty_district(building)
    for record in state["formations"].values():
        record.update(at="deck", depleted=False, leader=None)
    for side, formations in (("german", german), ("soviet", soviet)):
        state["sides"][side]["formation_deck"] = [f for f in state["sides"][side]["formation_deck"]
                                                  if f not in formations]
        for f, leader in formations.items():
            state["formations"][f].update(at=district, leader=leader)
    state["stack"] = []
    state["assaults"] = {district: []}
    state["battle"] = None
    b = board(state)
    b.push(new_frame(state, "turn", stage="battles", demotes=0, depleted_arrivals=[], consolidated=[],
                     assaulted=True))
    return state


def apply(state: dict[str, Any], role: str, text: str, seed: int = 3) -> tuple[dict[str, Any], list[Any]]:
    """Apply `text` for `role`; an opponent's Intercept window open before it is answered INTERCEPT NONE."""
    while not text.upper().startswith("INTERCEPT"):
        window = next((d for d in engine.pending(state) if d.kind == "intercept"), None)
        if window is None:
            break
        state, _ = engine.apply(state, window.role, engine.grammar.parse("INTERCEPT NONE", Lexicon(),
                                                                          kinds=["intercept"]), rng(seed))
    decisions = [d for d in engine.pending(state) if d.role == role]
    assert decisions, f"nothing is asked of {role}: {engine.pending(state)}"
    kinds = [d.kind for d in decisions]
    order = engine.grammar.parse(text, engine.lexicon(state, role), kinds=kinds)
    return engine.apply(state, role, order, rng(seed))


def if_asked(state: dict[str, Any], role: str, kind: str, text: str) -> dict[str, Any]:
    """Apply `text` if a decision of `kind` is asked of `role` (a choice with one option answers itself)."""
    if any(d.role == role and d.kind == kind for d in engine.pending(state)):
        state, _ = apply(state, role, text)
    return state


def defaults(state: dict[str, Any], stop: tuple[str, ...] = ("action", "holdpick"), seed: int = 4,
             limit: int = 500) -> tuple[dict[str, Any], list[Any]]:
    """Answer every pending decision with its default until one of the `stop` kinds is asked."""
    events: list[Any] = []
    for n in range(limit):
        pending = engine.pending(state)
        if not pending or any(d.kind in stop for d in pending):
            return state, events
        decision = pending[0]
        order = engine.grammar.parse(decision.default, engine.lexicon(state, decision.role), kinds=[decision.kind])
        state, new = engine.apply(state, decision.role, order, rng(seed + n))
        events += new
    raise AssertionError("defaults did not settle")


def units(state: dict[str, Any], district: str, side: str) -> dict[str, int]:
    return board(state).cores_on(district, side)


def fixed_dice(values: list[list[int]]):
    """A Board.roll replacement returning the given rolls in turn (for break tests with known dice)."""
    queue = [list(v) for v in values]

    def roll(self: Board, count: int, purpose: str) -> list[Die]:
        wanted = queue.pop(0)
        assert len(wanted) == count, (wanted, count, purpose)
        return [Die(v, "dice", n) for n, v in enumerate(wanted)]
    return roll


SIDES = SIDES
