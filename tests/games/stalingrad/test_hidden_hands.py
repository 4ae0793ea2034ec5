"""Hidden hands stay hidden (§Commanders A): a role's report is the same, byte for byte, whatever the other
role holds (non-interference), and it names none of the other role's cards."""

from __future__ import annotations

import pytest

from moderator.core.contract import OBSERVER
from moderator.games.stalingrad.engine import engine
from moderator.registry import Registry
from moderator.service.reports import report_text
from tests.conftest import make_app
from tests.games.stalingrad.harness import apply, battle_position, defaults

PAYLOAD = {"address": "x@y", "seq": 1, "message_id": "<m@x>", "date": "2026-01-01T00:00:00+00:00", "subject": "s",
           "heading": "h", "commitment": "c" * 64}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("stalingrad"), registry=Registry([engine]))


def render(app, state, role):
    payload = dict(PAYLOAD, role=role, observer=role == OBSERVER)
    return report_text(engine, app.environment, app.addressing, "g", state, [], payload).encode()


def mid_battle():
    state = battle_position("RedSquare", "B", {"71ID": 0, "14Pz": 1}, {"10NKVD": 0, "138RD": 0})
    state, _ = apply(state, "german", "FIGHT RedSquare")
    return defaults(state)[0]


def swapped(state, side):
    """The same game with `side`'s hand replaced by other cards of its deck (the same number)."""
    other = dict(state, sides=dict(state["sides"]))
    record = dict(state["sides"][side])
    size = len(record["hand"])
    record["hand"], record["deck"] = record["deck"][:size], record["hand"] + record["deck"][size:]
    other["sides"][side] = record
    assert set(record["hand"]).isdisjoint(state["sides"][side]["hand"])
    return other


@pytest.mark.parametrize(("viewer", "owner"), [("soviet", "german"), ("german", "soviet"), (OBSERVER, "german")])
def test_a_report_does_not_change_with_the_other_hand(app, viewer, owner):
    state = mid_battle()
    assert render(app, state, viewer) == render(app, swapped(state, owner), viewer)


def test_the_owner_sees_the_change_and_the_opponent_sees_no_card_of_it(app):
    """The check can fail: the owner's own report does change, and names his cards."""
    state = mid_battle()
    text = render(app, state, "german").decode()
    assert render(app, state, "german") != render(app, swapped(state, "german"), "german")
    assert all(card in text for card in state["sides"]["german"]["hand"])
    soviet = render(app, state, "soviet").decode()
    assert not any(card in soviet for card in state["sides"]["german"]["hand"])
    assert engine.secrets(state, "german") == set(state["sides"]["german"]["hand"])
