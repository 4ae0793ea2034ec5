"""Random playouts of whole VMT games with legal random answers (DESIGN §12).

Each of 200 games is played to its end.  At the end of every action phase, and at every combat,
the text report of each role (both sides and an observer) is rendered from that role's view and
the events it may see, and checked: no enemy block on the map is named unless an event that role
saw named it (combat reveals, eliminations, arrivals); no hand, face-down card or secret set-up of
the other side is in its view.
"""

from __future__ import annotations

import re

import pytest

from moderator.core.contract import OBSERVER, Event
from moderator.games.vmt.engine import engine
from moderator.registry import Registry
from moderator.service.reports import report_text
from tests.conftest import make_app
from tests.playout import names_in, random_playout

ROLES = ("axis", "soviet", OBSERVER)
GAMES = 200


def mentioned(text: str, name: str) -> bool:
    # "[dice#138]" is a die counter, not the 138th Brigade.
    return re.search(r"(?<![\w/#])" + re.escape(name) + r"(?![\w/])", text) is not None


class LeakChecker:
    def __init__(self, app):
        self.app = app
        self.seen: dict[str, list[Event]] = {role: [] for role in ROLES}
        self.reports = 0

    def __call__(self, state, role, text, events):
        for viewer in ROLES:
            self.seen[viewer] += [e for e in events if e.is_visible_to(viewer)]
        # Checked at the end of every phase: the report then covers every event of the phase.
        if not any(e.kind in ("phase_end", "setup_revealed", "game_over") for e in events):
            return
        for viewer in ROLES:
            self.check(state, viewer)
            self.seen[viewer] = []

    def check(self, state, viewer):
        visible = self.seen[viewer]
        payload = {"role": viewer, "observer": viewer == OBSERVER, "address": "x@y", "seq": 1,
                   "message_id": "<m@x>", "date": "2026-01-01T00:00:00+00:00", "subject": "s", "heading": "h",
                   "commitment": "c" * 64}
        text = report_text(engine, self.app.environment, self.app.addressing, "vmt-test", state, visible, payload)
        self.reports += 1
        allowed = set().union(*(names_in(e.data) for e in visible)) if visible else set()
        view = engine.view(state, viewer)
        for side in ("axis", "soviet"):
            if side == viewer:
                continue
            for block, entry in state["blocks"].items():
                if entry["side"] == side and entry["status"] == "map" and block not in allowed:
                    assert not mentioned(text, block), (viewer, block, "named in a report without being seen")
            assert "hands" not in view
            assert not any(f"{side}_blocks" in area for area in view["areas"]), (viewer, side)
            if view["combat"]:
                assert f"{side}_cards" not in view["combat"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("vmt"), registry=Registry([engine]))


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_ends_without_leaks(app, seed):
    checker = LeakChecker(app)
    result = random_playout(engine, seed, on_step=checker)
    outcome = engine.outcome(result.state)
    assert outcome is not None and outcome.reason
    assert checker.reports >= 3 * 26


@pytest.mark.parametrize("seed", range(3))
def test_random_free_setup_game_ends_without_leaks(app, seed):
    """The same with the secret free set-up: set-ups filed face down, revealed together."""
    checker = LeakChecker(app)
    result = random_playout(engine, 1000 + seed, options={"setup": "free"}, on_step=checker)
    assert engine.outcome(result.state) is not None
    assert set(result.state["setup_commitments"]) == {"axis", "soviet"}


def test_the_leak_check_fails_on_a_leaking_view(app, monkeypatch):
    """The check itself must be able to fail: a view that shows the enemy's blocks is caught."""
    import moderator.games.vmt.views as views

    original = views._block_view

    def leaky_build(board, role):
        view = original_build(board, role)
        for area in view["areas"]:
            for side in ("axis", "soviet"):
                area[f"{side}_blocks"] = [original(board, b) for b in board.blocks_in(area["id"], side)]
        return view

    original_build = views.build_view
    monkeypatch.setattr(views, "build_view", leaky_build)
    monkeypatch.setattr("moderator.games.vmt.engine.build_view", leaky_build)
    with pytest.raises(AssertionError, match="named in a report|'axis', 'soviet'|'soviet', 'axis'"):
        random_playout(engine, 0, on_step=LeakChecker(app))
