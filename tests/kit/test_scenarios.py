"""Every scenario of every registered game loads and passes its game's validator (DESIGN §11)."""

from __future__ import annotations

import pytest

from moderator.core.errors import ModeratorError
from tests.kit.games import EVERY, game_id


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_every_scenario_validates(engine):
    for scenario in engine.info.scenarios:
        engine.check_scenario(scenario.name)


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_an_unknown_scenario_is_refused(engine):
    with pytest.raises(ModeratorError):
        engine.check_scenario("no-such-scenario")
