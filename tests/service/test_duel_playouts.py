"""Random playouts of the Duel test game: no crash, no dead end, no leak of the other side's secrets."""

import pytest

from moderator.core.contract import OBSERVER
from moderator.service.reports import compose_report
from tests.conftest import make_app
from tests.playout import random_playout
from tests.testgame.duel import ROLES, engine


@pytest.mark.parametrize("seed", range(200))
def test_random_playout_reaches_an_outcome(seed):
    result = random_playout(engine, seed)
    assert engine.outcome(result.state) is not None


def _report_text(app, state, role, events):
    payload = {"role": role, "address": f"{role}@x.test", "seq": 1, "message_id": "<m@x>",
               "date": "2026-01-01T00:00:00+00:00", "subject": "s", "heading": "h", "commitment": "c",
               "observer": role == OBSERVER}
    return compose_report(engine, app.environment, app.addressing, "g", state, events, payload).text


@pytest.mark.parametrize("seed", range(20))
def test_no_report_shows_the_other_sides_hand_or_face_down_card(tmp_path, seed):
    app = make_app(tmp_path)

    def check(state, role, text, events):
        for viewer in ROLES + (OBSERVER,):
            visible = [e for e in events if e.is_visible_to(viewer)]
            report = _report_text(app, state, viewer, visible)
            revealed = {str(e.data.get("card")) for e in visible if "card" in e.data}
            revealed |= {s["card"] for e in visible if e.kind == "clash" for s in e.data["sides"].values()}
            revealed |= {c["card"] for c in engine.view(state, viewer).get("discard", [])}
            for owner in ROLES:
                if owner == viewer:
                    continue
                for secret in engine.secrets(state, owner) - revealed:
                    assert secret not in report, (viewer, owner, secret)
            view = engine.view(state, viewer)
            assert "hands" not in view and "commits" not in view

    random_playout(engine, seed, on_step=check)
