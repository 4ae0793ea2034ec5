"""What a role is shown does not depend on the history of the state: two equal states, whose dicts were
filled in different orders (a live game, or the same game read back from its stored JSON, whose keys are
sorted), give the same view and the same report text, byte for byte.  A replayed report must be the one
that was sent."""

from __future__ import annotations

import copy

import pytest

from moderator.games.narva.engine import engine
from moderator.render.texts import make_environment, render
from moderator.settings import REPO_ROOT
from tests.games.narva.helpers import fresh_rng

ENVIRONMENT = make_environment([REPO_ROOT / "templates"])
ROLES = ("german", "soviet", "observer", "referee")


def situation(state, role: str) -> str:
    """The situation part of `role`'s report (text, then HTML), as the report mail renders it."""
    view = engine.view(state, role)
    return "".join(render(ENVIRONMENT, f"games/narva/situation.{kind}.j2", view=view) for kind in ("txt", "html"))


def turned_round(mapping: dict) -> dict:
    return dict(reversed(list(mapping.items())))


def two_histories():
    """A Turn 8 state with two chits on the Turn Record Track (2.5.3E Stavka, 2.5.5 Withdraw 59 Army) and
    two VP hexes held by the Soviets (13.2), and the same state with both dicts filled the other way round."""
    state = engine.setup("campaign", {}, fresh_rng(1))
    state["turn"] = 8
    state["parked"] = {"WITHDRAW-59": 9, "STAVKA": 10}
    soviet = sorted(state["control"])[:2]
    for h in soviet:
        state["control"][h] = "soviet"
    other = copy.deepcopy(state)
    other["parked"] = turned_round(other["parked"])
    other["control"] = turned_round(other["control"])
    assert other == state and list(other["parked"]) != list(state["parked"])
    assert list(other["control"]) != list(state["control"])
    return state, other


@pytest.mark.parametrize("role", ROLES)
def test_equal_states_filled_in_different_orders_give_the_same_report_text(role):
    """Issue 12: "On the Turn Record Track" listed the chits in the order they were parked (2.5.3E, 2.5.5),
    and the VP hexes in the order of the control dict (13.2), so the report of a replay, read from sorted
    JSON, could differ from the one sent."""
    state, other = two_histories()
    text = situation(state, role)
    assert "On the Turn Record Track: STAVKA (turn 10), WITHDRAW-59 (turn 9)" in text
    assert situation(other, role) == text
    assert engine.view(other, role) == engine.view(state, role)
    assert list(engine.view(other, role)["parked"]) == list(engine.view(state, role)["parked"])


def test_a_state_read_back_from_its_stored_json_gives_the_report_that_was_sent():
    state, _ = two_histories()
    stored = engine.load_state(engine.dump_state(state))
    for role in ROLES:
        assert situation(stored, role) == situation(state, role)


def test_11_3_4_the_report_shows_the_boxes_a_prepared_defence_has_lost_not_only_its_shift():
    """Mails 067 and 081 of a game played by hand: after "1 box(es) down the 4SS prepared defence track" twice
    the report still read "4SS 3" - the box's value (the column shift, 11.3.2) had not changed, the steps
    the track can still absorb (2.2.10, 11.3.4B-D) had."""
    state = engine.setup("campaign", {}, fresh_rng(1))
    start = situation(state, "soviet")
    assert "Prepared defences (11.3): 11SS shift 3, 9 of 9 boxes left; 4SS shift 3, 9 of 9 boxes left." in start
    state["pd"].update({"4SS": 2, "11SS": 3})
    text = situation(state, "soviet")
    assert "11SS shift 2, 6 of 9 boxes left; 4SS shift 3, 7 of 9 boxes left." in text
    assert "PD: 11SS shift 2, 6 of 9 boxes left; 4SS shift 3, 7 of 9 boxes left." in text  # the HTML part
