"""A Narva script's activation is a round (GameInfo.opening_kinds, core/script_order.py): the lines
written for a segment that ended by itself do not stay queued into the next activation (issue 12,
the hand-played game's 023, 053: a stale MOVE DONE / ATTACK DONE carried on into later turns)."""

from __future__ import annotations

from types import SimpleNamespace

from moderator.core.plans import Plan, ScriptLine, parse_body
from moderator.core.rng import Rng
from moderator.core.runner import Runner
from moderator.games.narva.engine import engine
from moderator.service.filing import file_orders
from moderator.service.seat_mail import waits_for
from tests.games.narva.drive import arrive, asked, command_phase, reinforcement_phase
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


def run_plans(state, plans):
    """Both sides' plans run as far as they go (the game's standing defaults answer the rest)."""
    return Runner(engine).advance(state, plans, Rng(b"d" * 32))


def german_script(state, text: str) -> Plan:
    kinds = sorted({spec.kind for spec in engine.grammar.specs})
    body = parse_body(list(enumerate(text.splitlines(), 1)), engine.grammar, engine.lexicon(state, "german"), kinds)
    assert not body.has_errors
    return Plan(script=body.script, fresh=tuple(d.key for d in engine.pending(state) if d.role == "german"))


def test_8_0B_a_trailing_move_done_after_the_last_reinforcement_moved_lapses_when_the_turn_ends():
    """Hand-play, turn 2: both arrivals moved, so their Movement Segment (8.0B) ended by itself; the
    script's MOVE DONE stayed "queued (waits for: Movement)" into turn 3, where it would have ended the
    first activation's movement.  It now lapses when the turn ends, and the player is told."""
    board = position({}, turn=2)
    arrive(board, "58/220G", 2, "A")
    arrive(board, "58/158Pio", 2, "A")
    reinforcement_phase(board)
    assert asked(board) == ["reroute"]
    plan = german_script(board.data, "REROUTE NONE\nMOVE 220G TO 0430\nMOVE 158Pio TO 0331\nMOVE DONE")
    advance = run_plans(board.data, {"german": plan, "soviet": Plan()})
    fates = {line.text: (status, why) for _, line, status, why in advance.script_log}
    assert fates["MOVE DONE"] == ("not used", "its question did not come before the turn ended")
    assert plan.script == []
    assert advance.state["turn"] == 3


def test_9_0_a_trailing_attack_done_after_the_last_possible_attack_lapses_when_the_turn_ends():
    """Hand-play, turn 7: after the only possible attack the Combat Segment ended by itself and the
    script's ATTACK DONE stayed queued into turn 8 ("the script you had queued goes on after it"),
    where it would have skipped the first activation's combat.  Here 381 attacks 162G (2121), the
    activation's last attack: ATTACK DONE stays queued while the turn lasts, and lapses when it ends,
    before turn 2's first chit is answered."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122", "61/162G": "2121"}, rolls=[3, 3])
    command_phase(board, ["2SH-1"])
    plan, first = run_script(board, "ACTIVATE 109\nMOVE DONE\nATTACK 2121 WITH 381\nATTACK DONE")
    assert [s.kind for s in first.steps if s.source == "script"] == ["hq", "move", "attack"]
    assert [(line.text, line.in_round) for line in plan.script] == [("ATTACK DONE", "T1")]
    # the receipt's "queued" line says how long it waits
    reason = waits_for(SimpleNamespace(engine=engine, state=board.data), "soviet")(plan.script[0])
    assert reason == ('waits for: Combat, in this round only (it lapses at the next question "Command chit: '
                      'which HQ", or when the turn ends)')

    board.data["turn"] = 2  # the turn ends; the next one's first chit is drawn
    command_phase(board, ["2SH-2"])
    advance = Runner(engine).advance(board.data, {"soviet": plan}, Rng(b"d" * 32),
                                     may_answer=lambda d: d.role == "soviet")
    (_, line, why), = advance.unused
    assert line.text == "ATTACK DONE" and why == "its question did not come before the turn ended"
    assert plan.script == []


def test_the_receipt_does_not_say_a_lapsing_line_goes_on_after_the_answer_to_the_hq_question():
    """Hand-play, turn 8: a message answering the HQ question was told "the script you had queued goes
    on after it: ATTACK DONE".  That line, left by the last round, lapses at this very question, so
    the receipt now says the message dropped it."""
    board = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122"})
    command_phase(board, ["2SH-2"])
    assert asked(board) == ["hq"]
    queued = Plan(script=[ScriptLine(9, "ATTACK DONE", in_round="T1")], running="T1-COMMAND")
    kinds = sorted({spec.kind for spec in engine.grammar.specs})
    body = parse_body([(1, "ACTIVATE 109")], engine.grammar, engine.lexicon(board.data, "soviet"), kinds)
    filing = file_orders(engine, board.data, "soviet", queued, body, None, False)
    assert (filing.kept, filing.dropped) == ([], ["ATTACK DONE"])
    assert [line.text for line in filing.plan.script] == ["ACTIVATE 109/HQ"]
