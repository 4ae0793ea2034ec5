"""Random playouts of whole Across the Narva games with legal random answers (DESIGN §12).

100 games with fog of war on are played from set-up to the end (turn 12 or a sudden death).  At
the start of every turn, and at the end, each role's text report is rendered from its own view and
the events it may see, and checked: no unit hidden beneath the top of an enemy stack is named
unless an event in that report named it (an announced attack reveals both stacks, 2.1.3A); every
enemy stack in a view shows only its top unit.  Every order the engine calls legal must apply,
and parse(render(order)) must give the order back (tests/playout.py).
"""

from __future__ import annotations

import random
import re

import pytest

from moderator.core.contract import OBSERVER, Event
from moderator.games.narva.engine import engine
from moderator.registry import Registry
from moderator.service.reports import report_text
from tests.conftest import make_app
from tests.playout import names_in, random_playout

ROLES = ("german", "soviet", OBSERVER)
GAMES = 100


def mentioned(text: str, unit_id: str) -> bool:
    return re.search(r"(?<![\w/])" + re.escape(unit_id) + r"(?![\w/])", text) is not None


def active_choice(pick: random.Random, orders: list):
    """Prefer doing something: activate rather than pass, move and attack rather than stop."""
    doing = [o for o in orders if o.form not in ("pass", "done", "none")]
    if doing and pick.random() < 0.85:
        return pick.choice(doing)
    return pick.choice(orders)


class LeakChecker:
    def __init__(self, app):
        self.app = app
        self.seen: dict[str, list[Event]] = {role: [] for role in ROLES}
        self.reports = 0
        self.hidden_checked = 0

    def __call__(self, state, role, text, events):
        for viewer in ROLES:
            self.seen[viewer] += [e for e in events if e.is_visible_to(viewer)]
        if not any(e.kind in ("turn_begins", "game_over") for e in events):
            return
        for viewer in ROLES:
            self.check(state, viewer)
            self.seen[viewer] = []

    def check(self, state, viewer):
        visible = self.seen[viewer]
        payload = {"role": viewer, "observer": viewer == OBSERVER, "address": "x@y", "seq": 1,
                   "message_id": "<m@x>", "date": "2026-01-01T00:00:00+00:00", "subject": "s", "heading": "h",
                   "commitment": "c" * 64}
        text = report_text(engine, self.app.environment, self.app.addressing, "narva-test", state, visible, payload)
        self.reports += 1
        allowed = set().union(*(names_in(e.data) for e in visible)) if visible else set()
        view = engine.view(state, viewer)
        allowed |= {hq for hq in view["last_hq"].values() if hq}  # the HQ last activated is public (4.1.2D)
        for side in ("german", "soviet"):
            if side == viewer:
                continue
            for hex_id, stack in view["hexes"].items():
                if stack["side"] == side:
                    assert len(stack["units"]) == 1, (viewer, hex_id, "an enemy stack shows more than its top")
            for uid in engine.secrets(state, side) - allowed:
                self.hidden_checked += 1
                assert not mentioned(text, uid), (viewer, uid, "a hidden unit is named in a report")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("narva"), registry=Registry([engine]))


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_with_fog_ends_without_leaks(app, seed):
    checker = LeakChecker(app)
    result = random_playout(engine, seed, on_step=checker, choose=active_choice)
    outcome = engine.outcome(result.state)
    assert outcome is not None and outcome.reason
    assert checker.reports >= 3  # at least the final reports (a sudden death may end turn 1)
    assert any(e.kind == "combat" for e in result.events), "a random game should see at least one combat"


@pytest.mark.parametrize("seed", range(3))
def test_random_game_without_fog_ends(seed):
    result = random_playout(engine, 500 + seed, options={"fog": "off"}, choose=active_choice)
    assert engine.outcome(result.state) is not None


def test_the_leak_check_fails_on_a_leaking_view(app, monkeypatch):
    """The check itself must be able to fail: a report naming every enemy unit is caught."""
    import moderator.games.narva.views as views

    original = views.build_view

    def leaky(board, role):
        view = original(board, role)
        for hex_id, stack in view["hexes"].items():
            stack["units"] = [views.unit_card(board, u) for u in board.units_at(hex_id)]
        return view

    monkeypatch.setattr(views, "build_view", leaky)
    checker = LeakChecker(app)
    with pytest.raises(AssertionError):
        random_playout(engine, 7, on_step=checker, choose=active_choice)


@pytest.mark.parametrize("options", [{"corps_choice": "own_army"}, {"rp_timing": "bank"}, {"free_move_hq": "any"},
                                     {"ezoc_retreat_loss": "owner"}, {"fog_stack_height": "hidden"}],
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_a_random_game_ends_under_every_rule_option(app, options):
    """Each option of RULINGS.md plays a whole game without a crash or a dead end (and without leaks)."""
    checker = LeakChecker(app)
    result = random_playout(engine, 900, options=options, on_step=checker, choose=active_choice)
    assert engine.outcome(result.state) is not None
    assert result.state["options"][next(iter(options))] == next(iter(options.values()))
