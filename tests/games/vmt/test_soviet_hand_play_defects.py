"""Defects found when a whole VMT game was played by hand by mail as the Soviet (notes/hand-vmt.md,
D2-D15): each test sets up what the tester met and reads what a player would read."""

from __future__ import annotations

from moderator.core.contract import Event
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


# ---------------------------------------------------------------- D8, D10: a group's retreat, told once


def axis_beaten_in_a13_with_room_for_one_in_a15() -> Position:
    """The A13 combat of the hand play: three Axis blocks (1 SP each after the combat) lose A13; the only
    legal retreat, A15, holds two Axis blocks and lies under Soviet fire from A14 (room for one)."""
    pos = Position().clear().place("A12: 79NI 25/287 Perekop | A14: 25/54 | A13: 50/121 50/122 50/123 | "
                                   "A15: 24/31 24/32")
    for area, side in (("A12", "soviet"), ("A14", "soviet"), ("A13", "axis"), ("A15", "axis"),
                       ("A08", "soviet"), ("A09", "soviet"), ("B04", "soviet")):
        pos.control(area, side)
    for block, sp in (("50/121", 2), ("50/122", 2), ("50/123", 1)):
        pos.state["blocks"][block]["sp"] = sp
    pos.hand("soviet", "assault").hand("axis").phase("soviet")
    pos.play("soviet", "ASSAULT GROUP A12 TO A13")
    pos.order("soviet", "SUPPORT NONE")
    pos.order("axis", "SUPPORT NONE", dice=[5, 5, 1, 1, 1, 1])  # two Soviet hits, none on the Soviet
    pos.order("axis", "HITS AUTO")
    [retreat] = pos.pending("axis")
    assert retreat.kind == "retreat"
    return pos


def told(pos: Position, since: int, role: str = "soviet") -> list[str]:
    return [engine.narrate(e, role) for e in pos.events[since:] if e.is_visible_to(role)]


def test_a_retreat_with_room_for_one_block_is_told_as_one_retreat_and_the_rest_eliminated_for_want_of_room():
    """D8: "Axis: 1 block(s) retreat from A13 to A15; extra losses: enemy field of fire." three times: the
    first block died of its field-of-fire loss, which freed room in A15 for the next, and so on.  One
    retreat (L206, L298): one block goes to A15 and dies of the group's loss; the others had no room."""
    pos = axis_beaten_in_a13_with_room_for_one_in_a15()
    since = len(pos.events)
    pos.order("axis", "RETREAT AUTO")
    lines = told(pos, since)
    assert lines[:4] == [
        "Axis: 1 of 3 block(s) retreat from A13 to A15 (no room there for the other 2: they are eliminated); "
        "extra losses: enemy field of fire.",
        "Axis block 50/121 is eliminated in A15 (retreat: enemy field of fire).",
        "Axis block 50/122 is eliminated in A13 (no room to retreat).",
        "Axis block 50/123 is eliminated in A13 (no room to retreat).",
    ]
    assert len([e for e in pos.events[since:] if e.kind == "retreat"]) == 1


def test_a_written_retreat_leaving_blocks_without_room_eliminates_them_as_its_option_says():
    """The option reads 'RETREAT 50/121 TO A15 (1: enemy field of fire; 50/122 eliminated, no room; ...)':
    it does as it says, not ask again once 50/121's loss frees room."""
    pos = axis_beaten_in_a13_with_room_for_one_in_a15()
    [retreat] = pos.pending("axis")
    assert any(o.startswith("RETREAT 50/121 TO A15") and "50/122 eliminated, no room" in o for o in retreat.options)
    pos.order("axis", "RETREAT 50/121 TO A15")
    assert [pos.where(b) for b in ("50/121", "50/122", "50/123")] == [None, None, None]
    assert not pos.pending("axis") or pos.pending("axis")[0].kind != "retreat"


def test_a_step_lost_retreating_that_eliminates_a_block_is_told_once():
    """D10: "Soviet block 25/54 is eliminated in A08 (retreat: enemy field of fire). / Soviet loses a step
    retreating into A08 (enemy field of fire), eliminating a block. / (Your 25/54 took that loss; now 0.)"."""
    pos = axis_beaten_in_a13_with_room_for_one_in_a15()
    since = len(pos.events)
    pos.order("axis", "RETREAT AUTO")
    for role in ("axis", "soviet"):
        about = [line for line in told(pos, since, role)
                 if "loses a step" in line or "took that loss" in line or "50/121 is eliminated" in line]
        assert about == ["Axis block 50/121 is eliminated in A15 (retreat: enemy field of fire)."]


# ---------------------------------------------------------------- D2, D13: smaller things said wrong


def test_an_initial_bombardment_discarding_nothing_draws_none():
    """D2: "the Axis discards nothing and draws as many"."""
    nothing = Event("bombard_discard", {"cards": []})
    two = Event("bombard_discard", {"cards": ["assault", "mortars"]})
    assert engine.narrate(nothing, "soviet") == "Initial Bombardment: the Axis discards no card and draws none."
    assert engine.narrate(two, "soviet") == "Initial Bombardment: the Axis discards Assault, Mortars and draws as many."


def test_no_card_is_drawn_once_the_last_turn_s_soviet_phase_ends_the_game():
    """D13: the game-over report still said "Soviet draws 1 card(s)": ruling R-END, the refill of L150 after
    the last Soviet phase can change nothing once L427 decides the game."""
    pos = Position().hand("soviet", "assault").hand("axis", "assault")
    last = len(pos.board.scenario.meta.turns)
    pos.phase("soviet", turn=last)
    since = len(pos.events)
    pos.order("soviet", "PASS")
    assert engine.outcome(pos.state) is not None
    assert [e.kind for e in pos.events[since:] if e.kind in ("drew", "drew_cards")] == []
    assert (pos.cards("soviet", "hands"), pos.cards("axis", "hands")) == (["assault"], ["assault"])
    [end] = [e for e in pos.events[since:] if e.kind == "phase_end"]
    assert engine.narrate(end, "soviet") == ("The Soviet action phase ends (passed). The game ends with this turn, "
                                             "so nobody refills a hand.")


def test_the_turn_before_the_last_still_refills_both_hands():
    pos = Position().hand("soviet", "assault").hand("axis", "assault")
    pos.phase("soviet", turn=len(pos.board.scenario.meta.turns) - 1)
    since = len(pos.events)
    pos.order("soviet", "PASS")
    assert engine.outcome(pos.state) is None
    assert {e.data["side"] for e in pos.events[since:] if e.kind == "drew"} == {"axis", "soviet"}
    [end] = [e for e in pos.events[since:] if e.kind == "phase_end"]
    assert engine.narrate(end, "soviet").endswith("Both players refill their hands.")
