"""A question whose deadline passed is announced to every role, and the announcement goes through the
same per-role filter as the events (service/turns.defaulted_events; issue 13): played over random
games of every game, no role other than the one asked reads a name only the asked role knows.

Prompts are written for the role asked and may name such things (Narva's losses after a barrage
list the whole hidden stack under fog, by the units' short names): the test counts them, so it would
fail if the announcement told the prompt to everyone, as it did before.  A secret is looked for under
its id and its short name (the part after the last "/" when it holds a digit: Narva's 61/162G is
162G in prompts).
"""

from __future__ import annotations

import pytest

from moderator.core.contract import OBSERVER
from moderator.service.reports import narrate
from moderator.service.turns import defaulted_events
from tests.kit.games import EVERY, game_id, settings_for
from tests.kit.leaks import mentioned
from tests.playout import random_playout

SEEDS = 3


def short_forms(name: str) -> set[str]:
    """A secret's id, and its short name when that is a unit number ("HQ" alone names no unit)."""
    short = name.rsplit("/")[-1]
    return {name, short} if any(c.isdigit() for c in short) else {name}


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_a_defaulted_question_tells_the_other_roles_nothing_only_its_owner_knows(engine):
    roles = engine.info.roles()
    checked = 0
    prompts_naming_secrets = 0

    def on_step(state, role, text, events):
        nonlocal checked, prompts_naming_secrets
        for decision in engine.pending(state):
            secrets = {form for name in engine.secrets(state, decision.role) for form in short_forms(name)}
            prompts_naming_secrets += any(mentioned(decision.prompt, name) for name in secrets)
            announced = defaulted_events(decision, decision.default)
            for viewer in (*roles, OBSERVER):
                if viewer == decision.role:
                    continue
                told = " ".join(narrate(engine, e, viewer) for e in announced if e.is_visible_to(viewer))
                assert told, (viewer, "is not told that the deadline passed")
                for name in secrets:
                    checked += 1
                    assert not mentioned(told, name), (viewer, decision.role, name, told)

    options = {"setup": "free"} if engine.info.id == "vmt" else None
    for seed in range(SEEDS):
        random_playout(engine, seed, options=options, on_step=on_step, choose=settings_for(engine).choose)
    if engine.info.id == "narva":
        assert checked and prompts_naming_secrets, "no prompt named a secret: the test would prove nothing"
