"""One meaning for the guard tests every game shares (issue 11): TURN n is that turn, TURN n+ is
that turn or later, in every registered game."""

from __future__ import annotations

import pytest

from moderator.core.conditions import turn_test
from moderator.core.contract import Decision
from moderator.core.errors import ParseError
from moderator.core.plans import parse_body
from moderator.core.rng import RngRecord
from moderator.registry import product_registry

REGISTRY = product_registry()


def test_turn_n_is_that_turn_and_turn_n_plus_is_that_turn_or_later():
    assert turn_test(3, ["3"]) and not turn_test(4, ["3"]) and not turn_test(2, ["3"])
    assert turn_test(3, ["3+"]) and turn_test(9, ["3+"]) and not turn_test(2, ["3+"])


@pytest.mark.parametrize("args", [[], ["x"], ["3", "4"], ["+"]])
def test_a_malformed_turn_test_is_refused_with_its_form(args):
    with pytest.raises(ParseError, match="TURN"):
        turn_test(1, args)


@pytest.mark.parametrize("engine", list(REGISTRY), ids=lambda e: e.info.id)
def test_every_game_reads_turn_the_same_way(engine):
    scenario = engine.info.scenario().name
    rng = RngRecord("g", bytes(32), ["a", "b"]).rng()
    state = engine.setup(scenario, engine.info.chosen_options({}), rng)
    role = engine.info.roles(scenario)[0]
    view = engine.view(state, role)
    turn, _ = engine.progress(state)
    decision = Decision("k", role, "any", "?", "")
    assert engine.condition("TURN", view, decision, [str(turn)])
    assert not engine.condition("TURN", view, decision, [str(turn + 1)])
    assert engine.condition("TURN", view, decision, [f"{turn}+"])
    assert not engine.condition("TURN", view, decision, [f"{turn + 1}+"])


@pytest.mark.parametrize("engine", list(REGISTRY), ids=lambda e: e.info.id)
def test_turn_n_plus_reads_as_one_test_in_a_standing_order(engine):
    kind, default = engine.info.standing_defaults[0].kind, engine.info.standing_defaults[0].answer
    state = engine.setup(engine.info.scenario().name, engine.info.chosen_options({}),
                         RngRecord("g", bytes(32), ["a", "b"]).rng())
    role = engine.info.roles()[0]
    body = parse_body([(1, f"STANDING {kind} IF TURN 3+: {default}")], engine.grammar, engine.lexicon(state, role),
                      [d.kind for d in engine.info.standing_defaults])
    assert [line.error for line in body.lines] == [None]
    (standing,) = body.standing
    assert [(t.name, t.args) for t in standing.guard] == [("TURN", ("3+",))]
