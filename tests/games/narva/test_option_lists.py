"""Across the Narva's questions list every answer a player may give (issue 12): each question's
options and OPTIONS (`engine.answers`) hold every order the engine's own legal list holds (targets
included), never cut, and every answer listed is one the engine takes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from moderator.core.errors import OrderError
from moderator.core.rng import Rng, RngRecord
from moderator.games.narva.engine import engine
from moderator.service.options import options_text

#: Listed answers applied per question (a move question may list 600).
TRIED = 12


def answers_are_legal_and_complete(state, decision) -> int:
    """Checks one question; returns how many answers it lists."""
    listed = engine.answers(state, decision)
    assert len(listed) == len(set(listed))
    plain = {answer.split("  (")[0] for answer in listed}
    for order in engine.legal_orders(state, decision):
        assert engine.grammar.render(order) in plain, (decision.kind, engine.grammar.render(order))
    for option in decision.options:
        assert option in listed
    lexicon = engine.lexicon(state, decision.role)
    for text in random.Random(decision.key).sample(sorted(plain), min(TRIED, len(plain))):
        try:
            order = engine.grammar.parse(text, lexicon, kinds=[decision.kind])
            engine.apply(state, decision.role, order, Rng(b"o" * 32))
        except OrderError as error:
            pytest.fail(f"{decision.kind}: listed answer {text!r} is refused: {error}")
    return len(listed)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_question_of_a_random_game_lists_every_legal_answer(seed):
    pick = random.Random(seed)
    rng = RngRecord(f"options-{seed}", seed.to_bytes(32, "big"), ["a"]).rng()
    state = engine.setup("campaign", {}, rng)
    seen: Counter[str] = Counter()
    most: Counter[str] = Counter()
    for _ in range(600):
        decisions = engine.pending(state)
        if not decisions:
            break
        decision = pick.choice(decisions)
        if seen[decision.kind] < 6:
            seen[decision.kind] += 1
            most[decision.kind] = max(most[decision.kind], answers_are_legal_and_complete(state, decision))
        state, _ = engine.apply(state, decision.role, pick.choice(engine.legal_orders(state, decision)), rng)
    assert {"hq", "move", "attack", "ready"} <= set(seen)
    assert most["move"] > 20  # every reachable hex of every unit, where the decision lists MOVE DONE only


def test_options_mail_lists_every_move_and_the_report_says_how_to_see_them():
    pick = random.Random(5)
    rng = RngRecord("moves", (5).to_bytes(32, "big"), ["a"]).rng()
    state = engine.setup("campaign", {}, rng)
    for _ in range(400):
        decision = pick.choice(engine.pending(state))
        if decision.kind == "move":
            break
        state, _ = engine.apply(state, decision.role, pick.choice(engine.legal_orders(state, decision)), rng)
    assert decision.kind == "move"
    assert "OPTIONS lists every hex each unit can reach" in decision.prompt and " more." not in decision.prompt
    text = options_text(engine, state, decision.role)
    moves = engine.answers(state, decision)
    listed = set()
    for line in text.splitlines():
        if line.strip().startswith("MOVE "):
            combos = [""]
            for word in line.split():
                combos = [f"{c} {w}".strip() for c in combos for w in word.split("|")]
            listed |= set(combos)
    assert set(moves) == listed and len(listed) > 20
