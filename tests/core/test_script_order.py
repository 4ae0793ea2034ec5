"""A question takes the first queued line of its kind in the current round (core/script_order.py).

The scripts are the ones the hand-played VMT game checked (S12, S23, S34), run on the game's states
at those moments (tests/hand_vmt/, taken from that game's snapshots): read from its head only, each
held the rest of the script at a line written for a question that came later or never, and the
default answered in between.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.core.plans import Plan, ScriptLine, parse_body
from moderator.core.rng import Rng, RngRecord
from moderator.core.runner import Runner
from moderator.registry import product_registry
from tests.testgame.duel import engine as duel

VMT = product_registry().get("vmt")
STATES = Path(__file__).parent.parent / "hand_vmt"

S12 = """REDEPLOY GROUP A08
MOVE 50/123 TO A04
DONE
ASSAULT GROUP A03 USING COUNTERATTACK
MOVE 22/65 TO A08
DONE
ASSAULT DIVISION 50
ASSETS NONE
COORDINATE 22 USING COUNTERATTACK
MOVE 50/121 50/122 TO A06 WITH STUGB APIOB
MOVE 22/65 TO A06
MOVE 22/16 22/47 TO A06
RESOLVE A06
SUPPORT 88MM"""
S23 = """REINFORCE NONE
PLAY HEAVY_ARTILLERY A07
ASSAULT DIVISION 22
COORDINATE 50
ASSETS NONE
ASSETS NONE
MOVE 22/16 22/47 TO A07 WITH STUGB APIOB
MOVE 22/65 50/122 TO A07
RESOLVE A07
SUPPORT AXIS_FIELD_ARTILLERY 88MM"""
S34 = """DONE
REDEPLOY GROUP A10
MOVE 132/436 TO C02
MOVE 132/437 TO C01 VIA C02
DONE
ASSAULT GROUP A06
ASSETS NONE
MOVE 22/65 TO A07
DONE"""


def state_of(name: str):
    return VMT.load_state((STATES / f"{name}.json").read_text())


def filed(state, text: str, role: str = "axis") -> Plan:
    """The script as a message filed now would be: its lines from line 5 on, written for the questions
    open now (service/filing.py)."""
    kinds = sorted({spec.kind for spec in VMT.grammar.specs})
    body = parse_body(list(enumerate(text.splitlines(), 5)), VMT.grammar, VMT.lexicon(state, role), kinds)
    assert not body.has_errors, [line.error for line in body.lines if line.error]
    return Plan(script=body.script, fresh=tuple(d.key for d in VMT.pending(state) if d.role == role))


def run(state, plan: Plan, role: str = "axis"):
    """The run a CHECK makes: the role's questions only."""
    return Runner(VMT).advance(state, {role: plan}, Rng(b"d" * 32), may_answer=lambda d: d.role == role)


def fates(advance) -> dict[int, str]:
    return {line.line_no: status for _, line, status, _ in advance.script_log}


def test_s12_coordinate_written_after_assets_is_used_by_the_question_asked_first():
    advance = run(state_of("s12-T2-AXIS"), filed(state_of("s12-T2-AXIS"), S12))
    assert fates(advance) == {number: "ran" for number in range(5, 19)}
    used = [(s.kind, s.text, s.source) for s in advance.steps]
    assert ("coordinate", "COORDINATE 22 USING COUNTERATTACK", "script") in used
    assert used.index(("coordinate", "COORDINATE 22 USING COUNTERATTACK", "script")) < \
        used.index(("assets", "ASSETS NONE", "script"))
    # the first assault's Armor and Pioneer question does not reach past the next card line (a new round)
    assert ("assets", "ASSETS NONE", "game-standing") in used
    assert not [d for d in advance.waiting if d.role == "axis"]


def test_s23_a_second_assets_line_is_passed_over_and_the_moves_run():
    advance = run(state_of("s23-T3-AXIS"), filed(state_of("s23-T3-AXIS"), S23))
    said = fates(advance)
    assert said[9] == "ran" and said[11] == "ran"  # the move after the second ASSETS NONE ran
    assert said[12] == "held"  # a move the rules refuse (the real game held it too), not the ASSETS line
    assert said[10] == "not run"


def test_s34_assets_for_an_empty_pool_expires_at_the_next_card_question_not_used():
    state = state_of("s34-T5-AXIS")
    plan = filed(state, S34)
    advance = run(state, plan)
    said = fates(advance)
    assert said == {**{n: "ran" for n in (5, 6, 7, 8, 9, 10, 12, 13)}, 11: "not used"}
    (role, line, why), = advance.unused
    assert (role, line.text) == ("axis", "ASSETS NONE") and "before a card question opened the next round" in why
    assert [d.kind for d in advance.waiting if d.role == "axis"] == ["card"] and plan.script == []


def test_a_line_passed_over_waits_for_its_question_until_the_round_ends():
    state = state_of("s34-T5-AXIS")
    plan = filed(state, S34.rsplit("\n", 1)[0])  # without the last DONE: the activation waits for a move
    advance = run(state, plan)
    assert [(line.text, line.passed) for line in plan.script] == [("ASSETS NONE", "move")]
    assert 11 not in fates(advance) and [d.kind for d in advance.waiting if d.role == "axis"] == ["move"]


def test_a_script_at_rest_is_read_from_its_head_only():
    """Not filed for the questions open now and not running in this phase: S12's card question does not
    take the REDEPLOY line behind an ASSETS line (it would, were the script running)."""
    state = state_of("s12-T2-AXIS")
    plan = filed(state, "ASSETS NONE\n" + S12)
    at_rest = Plan(script=list(plan.script))
    advance = run(state, at_rest)
    assert advance.steps == [] and [line.text for line in at_rest.script][:2] == ["ASSETS NONE", "REDEPLOY GROUP A08"]
    running = run(state, plan)
    assert fates(running)[5] == "not used" and fates(running)[6] == "ran"  # the card line opens a round


def test_a_stop_not_reached_is_a_wall():
    state = state_of("s12-T2-AXIS")
    plan = filed(state, "REDEPLOY GROUP A08\nASSETS NONE\nSTOP\nMOVE 50/123 TO A04")
    advance = run(state, plan)
    assert fates(advance) == {5: "ran"} and [line.line_no for line in plan.script] == [6, 7, 8]
    assert [d.kind for d in advance.waiting if d.role == "axis"] == ["move"]  # the MOVE behind STOP is not read
    without = filed(state, "REDEPLOY GROUP A08\nASSETS NONE\nMOVE 50/123 TO A04")
    assert fates(run(state, without))[7] == "ran"


def test_a_game_with_no_opening_kind_reads_scripts_from_their_head():
    state = duel.setup(duel.info.scenario().name, {}, RngRecord("order", bytes(32), ["a", "b"]).rng())
    card = state["hands"]["north"][0]
    body = parse_body([(1, f"COMMIT {card}"), (2, "ATTACK")], duel.grammar, duel.lexicon(state, "north"),
                      ["act", "commit", "react"])
    plan = Plan(script=body.script, fresh=tuple(d.key for d in duel.pending(state)))
    advance = Runner(duel).advance(state, {"north": plan}, Rng(b"e" * 32), may_answer=lambda d: d.role == "north")
    assert advance.steps == [] and len(plan.script) == 2


@pytest.mark.parametrize("script", [S12, S23, S34])
def test_every_line_has_one_fate_or_is_still_queued(script):
    name = {S12: "s12-T2-AXIS", S23: "s23-T3-AXIS", S34: "s34-T5-AXIS"}[script]
    plan = filed(state_of(name), script)
    advance = run(state_of(name), plan)
    told = [line.line_no for _, line, _, _ in advance.script_log] + [line.line_no for line in plan.script]
    assert sorted(told) == list(range(5, 5 + len(script.splitlines())))


def test_a_line_passed_over_keeps_what_became_of_it_in_the_stored_plan_and_expires_with_its_phase():
    from moderator.core import script_order

    plan = Plan(script=[ScriptLine(11, "ASSETS NONE", passed="move", phase="T5-AXIS"), ScriptLine(12, "DONE")],
                running="T5-AXIS", fresh=("f1.0.axis.move",))
    again = Plan.from_json(plan.to_json())
    assert [(s.passed, s.phase) for s in again.script] == [("move", "T5-AXIS"), ("", "")]
    assert (again.running, again.fresh) == ("T5-AXIS", ("f1.0.axis.move",))
    assert script_order.past_phase(again.script, "T5-AXIS") == []
    (gone,) = script_order.past_phase(again.script, "T5-SOVIET")
    assert gone.line_no == 11 and [s.line_no for s in again.script] == [12]


class WithRoundKinds:
    """VMT as if it named `round_kinds` (GameInfo): the engine itself, with those kinds in its info."""

    def __init__(self, engine, kinds: tuple[str, ...]):
        from dataclasses import replace

        self._engine = engine
        self.info = replace(engine.info, round_kinds=kinds)

    def __getattr__(self, name):
        return getattr(self._engine, name)


def test_the_lines_after_a_used_one_that_only_its_round_asks_are_stamped_up_to_another_kind():
    """S34's open move question takes the first DONE: the second DONE (a move line, so this round's)
    is stamped with the phase (VMT has no periods); the stamp stops at SUPPORT NONE, which other
    questions than this round's may take, so the DONE after it is not the round's.  A game that names
    no round kinds stamps nothing."""
    state = state_of("s34-T5-AXIS")
    (move,) = [d.key for d in VMT.pending(state) if d.role == "axis"]
    text = "DONE\nDONE\nSUPPORT NONE\nDONE"
    plan = filed(state, text)
    Runner(WithRoundKinds(VMT, ("move",))).advance(state, {"axis": plan}, Rng(b"d" * 32),
                                                   may_answer=lambda d: d.key == move)
    assert [(line.line_no, line.in_round) for line in plan.script] == [(6, "T5-AXIS"), (7, ""), (8, "")]
    again = Plan.from_json(plan.to_json())  # the stamp is kept with the stored plan
    assert [line.in_round for line in again.script] == ["T5-AXIS", "", ""]
    plain = filed(state, text)
    Runner(VMT).advance(state, {"axis": plain}, Rng(b"d" * 32), may_answer=lambda d: d.key == move)
    assert [line.in_round for line in plain.script] == ["", "", ""]


def test_a_round_s_stale_line_lapses_at_the_next_opening_question_even_behind_the_line_that_answers_it():
    """A message answers the card question ("REDEPLOY GROUP A10") and its receipt keeps the queued
    script after it: a DONE stamped by the last round.  Read after the card line it would end the
    redeploy's moves at once; it lapses at the card question instead, and is reported unused."""
    state = state_of("s34-T5-AXIS")
    plan = Plan(script=[ScriptLine(5, "DONE"), ScriptLine(6, "REDEPLOY GROUP A10"),
                        ScriptLine(7, "DONE", in_round="T4-AXIS")],
                fresh=tuple(d.key for d in VMT.pending(state) if d.role == "axis"))
    advance = run(state, plan)
    assert fates(advance)[5] == "ran" and fates(advance)[6] == "ran" and fates(advance)[7] == "not used"
    (_, line, why), = advance.unused
    assert line.line_no == 7 and why == "its question did not come before a card question opened the next round"
    assert ("move", "DONE", "script") not in [(s.kind, s.text, s.source) for s in advance.steps[1:]]
