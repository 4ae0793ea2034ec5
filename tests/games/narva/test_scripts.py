"""A Narva script's activation is a round (GameInfo.opening_kinds, core/script_order.py): the lines
written for a segment that ended by itself do not stay queued into the next activation (issue 12,
the hand-played game's 023, 053: a stale MOVE DONE / ATTACK DONE carried on into later turns)."""

from __future__ import annotations

from moderator.core.plans import Plan, parse_body
from moderator.core.rng import Rng
from moderator.core.runner import Runner
from moderator.games.narva.engine import engine
from tests.games.narva.drive import asked, command_phase
from tests.games.narva.helpers import position


def run_script(board, text: str):
    """The Soviet script `text`, filed for the questions open now, run as far as it goes."""
    state = board.data
    kinds = sorted({spec.kind for spec in engine.grammar.specs})
    body = parse_body(list(enumerate(text.splitlines(), 1)), engine.grammar, engine.lexicon(state, "soviet"), kinds)
    assert not body.has_errors
    plan = Plan(script=body.script, fresh=tuple(d.key for d in engine.pending(state) if d.role == "soviet"))
    advance = Runner(engine).advance(state, {"soviet": plan}, Rng(b"d" * 32), may_answer=lambda d: d.role == "soviet")
    return plan, advance


def test_narva_activations_open_with_the_hq_question():
    assert engine.info.opening_kinds == ("hq",)


def test_a_segment_that_ends_by_itself_leaves_nothing_queued_for_the_next_activation():
    """No enemy in reach: the attack segment ends by itself, and the next chit's HQ question ends the round."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122"})
    command_phase(board, ["2SH-1"], ["2SH-2"])
    assert asked(board) == ["hq"]
    plan, advance = run_script(board, "ACTIVATE 109\nMOVE 381 TO 2121\nMOVE DONE\nATTACK DONE")
    fates = {line.text: status for _, line, status, _ in advance.script_log}
    assert fates == {"ACTIVATE 109/HQ": "ran", "MOVE 109/381 TO 2121": "ran", "MOVE DONE": "ran",
                     "ATTACK DONE": "not used"}
    assert plan.script == []
    (_, line, why), = advance.unused
    assert line.text == "ATTACK DONE" and "before a hq question opened the next round" in why


def test_the_next_activation_s_lines_stay_queued_behind_the_stale_ones():
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122"})
    command_phase(board, ["2SH-1"], ["2SH-2"])
    _, advance = run_script(board, "ACTIVATE 109\nMOVE DONE\nATTACK DONE\nPASS\nREADY")
    fates = [(line.text, status) for _, line, status, _ in advance.script_log]
    assert fates[:4] == [("ACTIVATE 109/HQ", "ran"), ("MOVE DONE", "ran"), ("ATTACK DONE", "not used"),
                         ("PASS", "ran")]
    assert ("hq", "PASS", "script") in [(s.kind, s.text, s.source) for s in advance.steps]
