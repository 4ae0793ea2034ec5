"""Defects found when a whole VMT game was played by hand by mail as the Soviet (notes/hand-vmt.md,
D2-D15): each test sets up what the tester met and reads what a player would read."""

from __future__ import annotations

from moderator.core.plans import Plan, parse_body
from moderator.core.rng import RngRecord
from moderator.core.runner import Runner
from moderator.games.vmt.board import Board
from moderator.games.vmt.conditions import evaluate
from moderator.games.vmt.engine import engine
from moderator.games.vmt.scenario import scenario_named
from moderator.games.vmt.sequence import end_turn
from moderator.service.cadence import answered_entry
from moderator.service.standing import answered_line
from moderator.service.turns import describe_outcome
from tests.conftest import flat
from tests.games.vmt.harness import Position


def fresh_campaign() -> dict:
    return engine.setup("campaign", {}, RngRecord("d13", bytes(32), ["axis", "soviet"]).rng())


# ---------------------------------------------------------------- D13: the game-over line


def test_the_game_over_line_states_the_vp_once_and_cites_no_line():
    """D13: "Soviet wins (more VP at the end of the last turn: Axis -3, Soviet 12 (L427); axis VP -3,
    soviet VP 12)": the VP twice and a line number.  The reason names why (L427); the score, the VP."""
    state = fresh_campaign()
    board = Board(state, scenario_named("campaign"))
    state["turn"] = len(board.scenario.meta.turns)
    end_turn(board)
    line = describe_outcome(engine.outcome(state))
    assert line == "Soviet wins (more VP at the end of the last turn; axis VP 0, soviet VP 12)."


# ---------------------------------------------------------------- D6, D11: standing support orders


def soviet_attack_on_a09(*soviet_cards: str, defending_cards: tuple[str, ...] = ()) -> Position:
    """79NI (4 SP) in A08 attacks the Axis 50/121 in A09; the Soviet's support question is open."""
    pos = Position().clear().place("A08: 79NI | A09: 50/121")
    pos.control("A08", "soviet").control("A09", "axis")
    pos.hand("soviet", "assault", *soviet_cards).hand("axis", *defending_cards).phase("soviet")
    pos.play("soviet", "ASSAULT GROUP A08")
    pos.order("soviet", "MOVE 79NI TO A09")
    [support] = pos.pending("soviet")
    assert support.kind == "support" and "you attack" in support.prompt
    return pos


def standing(pos: Position, role: str, *lines: str) -> Plan:
    body = parse_body(list(enumerate(lines, 1)), engine.grammar, engine.lexicon(pos.state, role), ["support"])
    assert not body.has_errors, body.lines
    return Plan(standing=body.standing)


def support_step(pos: Position, *lines: str):
    rng = RngRecord("d6", bytes(32), ["axis", "soviet"]).rng()
    result = Runner(engine).advance(pos.state, {"soviet": standing(pos, "soviet", *lines)}, rng)
    return next(s for s in result.steps if s.kind == "support" and s.role == "soviet")


def test_defending_and_attacking_tell_which_side_of_the_combat_a_support_question_is_about():
    """D11: a standing support order could not be limited to defence ("IF DEFENDING")."""
    pos = soviet_attack_on_a09("mortars", "bunker")
    step = support_step(pos, "STANDING support IF DEFENDING: SUPPORT BUNKER",
                        "STANDING support IF ATTACKING: SUPPORT MORTARS")
    assert (step.text, step.source, step.unfit) == ("SUPPORT MORTARS", "standing", "")
    [question] = pos.pending("soviet")
    assert evaluate("ATTACKING", engine.view(pos.state, "soviet"), question, ())
    assert not evaluate("DEFENDING", engine.view(pos.state, "soviet"), question, ())


def test_the_defender_s_support_question_is_defending():
    pos = soviet_attack_on_a09("mortars")
    pos.order("soviet", "SUPPORT NONE")
    [question] = pos.pending("axis")
    view = engine.view(pos.state, "axis")
    assert question.kind == "support"
    assert evaluate("DEFENDING", view, question, ()) and not evaluate("ATTACKING", view, question, ())


def test_help_lists_the_defending_and_attacking_tests(tmp_path):
    from moderator.registry import Registry
    from moderator.service.reports import help_text
    from tests.conftest import make_app

    text = help_text(make_app(tmp_path, registry=Registry([engine])).environment, engine)
    assert "DEFENDING" in text and "you defend in the combat being asked about" in " ".join(text.split())
    assert "ATTACKING" in text and "you attack in the combat being asked about" in " ".join(text.split())


def test_a_standing_support_order_not_legal_for_the_question_is_reported_with_the_reason():
    """D6: as attacker, 'STANDING support IF HOLD BUNKER: SUPPORT BUNKER' was passed over and the report
    said only "(You committed: nothing.)": SUPPORT NONE was the only legal answer, and answers without a
    choice were left out of ANSWERED FOR YOU even when a standing order of the player's did not fit."""
    pos = soviet_attack_on_a09("bunker")
    [question] = pos.pending("soviet")
    assert list(question.options) == ["SUPPORT NONE"]  # Bunker defends only: no choice
    step = support_step(pos, "STANDING support IF HOLD BUNKER: SUPPORT BUNKER")
    assert step.text == "SUPPORT NONE" and step.unfit == "STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER"
    assert step.unfit_reason == "BUNKER is played only when defending"
    entry = answered_entry(step)
    line = flat(answered_line({"source": step.source, "text": step.text, **entry}))
    assert line == ("Your standing order STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER was not legal for this "
                    "question (BUNKER is played only when defending), so the game's standing default SUPPORT "
                    "NONE answered: Combat in A09: commit Combat Support cards face down (you attack) (the only legal "
                    "answer).")


def test_an_answer_without_choice_and_no_unfit_standing_order_is_still_not_reported():
    pos = soviet_attack_on_a09("bunker")
    step = support_step(pos)
    assert step.text == "SUPPORT NONE" and not step.unfit and answered_entry(step) == {}
