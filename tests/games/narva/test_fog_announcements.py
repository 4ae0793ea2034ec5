"""Fog of war in what is announced (2.1.3B, ruling N-57; issue 13): every announcement reaches a
role through the same per-role filter as the events, and non-interference holds: two positions
that differ only in what the German player hides (which unit lies beneath a top counter, which
unit of a stack carries the marker) give the Soviet and the observer the same mail, byte for byte.

Each test also checks that the German's own mail does differ, so the swap really changed a secret.
"""

from __future__ import annotations

from typing import Any

import pytest

from moderator.core.contract import OBSERVER, Event
from moderator.core.frames import new_frame
from moderator.core.runner import Runner
from moderator.games.narva.barrage import start_barrages
from moderator.games.narva.board import Board
from moderator.games.narva.engine import engine
from moderator.registry import Registry
from moderator.service.turns import defaulted_events
from tests.conftest import make_app
from tests.games.narva.helpers import answer, fresh_rng, position, settle
from tests.kit.noninterference import mail_for, report_lines

WATCHERS = ("soviet", OBSERVER)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("narva-fog"), registry=Registry([engine]))


def stacked(units: dict[str, str], **kw: Any) -> Board:
    """A fog-of-war position whose stacks keep the order the units are listed in (the first on top)."""
    board = position(units, turn=2, options={"fog": "on"}, **kw)
    for seq, uid in enumerate(units, start=1):
        board.data["units"][uid]["seq"] = seq
    board.changed()
    return board


def assert_same_for_watchers(app, worlds: list[tuple[Any, list[Event]]]) -> None:
    for role in WATCHERS:
        first, second = (mail_for(engine, app, state, events, role) for state, events in worlds)
        assert first == second, (role, report_lines(first), report_lines(second))
    mine = [mail_for(engine, app, state, events, "german") for state, events in worlds]
    assert mine[0] != mine[1], "the German's own mail should differ: the swap changed nothing"


# ---------------------------------------------------------------- a hidden unit rebuilt (11.2)


def rebuilt_world(hidden_reduced: str) -> tuple[Any, list[Event]]:
    """Two German stacks of two; one hidden unit is reduced and a replacement point rebuilds it."""
    board = stacked({"61/162G": "2332", "61/176G": "2332", "61/151G": "2030", "61/61F": "2030",
                     "109/381": "2432"}, reduced=[hidden_reduced])
    board.data["rp"] = 1
    board.push(new_frame(board.data, "rebuild", lose_rest=True))
    settle(board)
    answer(board, f"REBUILD {board.unit(hidden_reduced).name}")
    assert not board.is_reduced(hidden_reduced)
    return board.data, list(board.events)


def test_a_hidden_unit_flipped_to_full_strength_is_not_named_to_the_other_side(app):
    """176G (beneath 162G in 2332) or 61F (beneath 151G in 2030) is rebuilt: the Soviets learn that a
    hidden unit was flipped, not which one nor where (N-57)."""
    worlds = [rebuilt_world("61/176G"), rebuilt_world("61/61F")]
    assert_same_for_watchers(app, worlds)
    soviet = report_lines(mail_for(engine, app, *worlds[0], "soviet"))
    assert "A German unit hidden in a stack is flipped to full strength (11.2)." in " ".join(soviet.split())
    assert "176G" not in soviet


def test_a_top_unit_flipped_to_full_strength_is_seen_by_both_sides(app):
    board = stacked({"61/162G": "2332", "61/176G": "2332", "109/381": "2432"}, reduced=["61/162G"])
    board.data["rp"] = 1
    board.push(new_frame(board.data, "rebuild", lose_rest=True))
    settle(board)
    answer(board, "REBUILD 162G")
    seen = [e.data for e in board.events if e.kind == "rebuilt" and e.is_visible_to("soviet")]
    assert seen == [{"unit": "61/162G", "hex": "2332", "how": "flipped to full strength"}]


# ---------------------------------------------------------------- a defaulted question after a barrage


def barrage_world(third: str) -> tuple[Any, list[Event]]:
    """A Soviet barrage (die 6: D1) on a German stack of three; the German was asked which unit takes
    the loss (162G and 176G tie as strongest) and did not answer in time: the default applies.  The
    stack's third, hidden unit is `third`."""
    board = stacked({"61/162G": "2332", "61/176G": "2332", third: "2332", "109/381": "2432"}, rolls=[6])
    start_barrages(board, "soviet", 1, "chit")
    settle(board)
    answer(board, "BARRAGE 2332")
    pending = engine.pending(board.data)
    assert [d.kind for d in pending] == ["loss"]
    decision = pending[0]
    assert board.unit(third).name in decision.prompt  # the prompt, written for the German, lists the stack
    state, step = Runner(engine).apply_default(board.data, decision, fresh_rng())
    return state, [*board.events, *defaulted_events(decision, step.text), *step.events]


def test_a_defaulted_question_tells_the_other_side_nothing_its_prompt_holds(app):
    """The losses prompt names every unit of the barraged stack (162G, 176G and the hidden third):
    announced to everyone, it told the Soviets what fog hides.  Now they hear whose deadline passed
    and which kind of question it was; the step lost is told by the game's own event (N-57: a
    barrage reveals the units that lost steps)."""
    worlds = [barrage_world("61/61F"), barrage_world("61/161Pio")]
    assert_same_for_watchers(app, worlds)
    soviet = " ".join(report_lines(mail_for(engine, app, *worlds[0], "soviet")).split())
    assert "German did not answer in time; their default answer was applied (question: " in soviet
    assert "61F" not in soviet
    german = " ".join(report_lines(mail_for(engine, app, *worlds[0], "german")).split())
    assert "German did not answer in time (barrage on 2332: take 1 step loss" in german


# ---------------------------------------------------------------- a marker covers the top unit's face


def marked_world(marked: str) -> tuple[Any, list[Event]]:
    board = stacked({"61/162G": "2332", "61/176G": "2332", "109/381": "2432"}, supply={marked: "oos"})
    return board.data, []


def test_a_supply_marker_covers_the_top_face_whichever_unit_it_stems_from(app):
    """An OOS marker on the stack in 2332 stems from its top unit (162G) or from the unit beneath
    (176G): the Soviets see the marker on top in both cases, and not the face under it (N-57)."""
    worlds = [marked_world("61/162G"), marked_world("61/176G")]
    assert_same_for_watchers(app, worlds)
    for role in WATCHERS:
        views = [engine.view(state, role) for state, _ in worlds]
        assert views[0] == views[1]
        assert views[0]["hexes"]["2332"]["units"] == [] and views[0]["hexes"]["2332"]["marker"] == "OOS"


def test_without_a_marker_the_enemy_sees_the_top_unit_s_face():
    board = stacked({"61/162G": "2332", "61/176G": "2332", "109/381": "2432"})
    stack = engine.view(board.data, "soviet")["hexes"]["2332"]
    assert [u["id"] for u in stack["units"]] == ["61/162G"] and stack["marker"] is None and stack["height"] == 2


def test_a_unit_returning_to_a_hidden_hq_is_seen_arriving_but_the_hq_stays_hidden():
    """162G leaves the (public) eliminated box for the 61st HQ's hex (11.2B); the HQ lies beneath
    151G there, so the Soviets see 162G join the stack in 2030, not which HQ it joined (N-57)."""
    board = stacked({"61/151G": "2030", "61/HQ": "2030", "61/162G": "2332", "109/381": "2432"})
    board.data["units"]["61/162G"].update(where="eliminated", hex=None)
    board.changed()
    board.data["rp"] = 1
    board.push(new_frame(board.data, "rebuild", lose_rest=True))
    settle(board)
    answer(board, "REBUILD 162G")
    seen = [e.data for e in board.events if e.kind == "rebuilt" and e.is_visible_to("soviet")]
    mine = [e.data for e in board.events if e.kind == "rebuilt" and e.is_visible_to("german")]
    assert seen == [{"unit": "61/162G", "hex": "2030", "how": "returned reduced to the map"}]
    assert mine == [{"unit": "61/162G", "hex": "2030", "how": "returned reduced with 61 HQ"}]
