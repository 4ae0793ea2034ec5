"""Scripts, standing orders and ASK: the core's "few round trips" (DESIGN §4), on the Duel game."""

from moderator.core.plans import ASK, Plan, Standing, Withdraw, merge_standing, parse_body
from moderator.core.plans import Test as Guard
from moderator.core.rng import RngRecord
from moderator.core.runner import Runner
from tests.testgame.duel import GRAMMAR, engine

SEED = bytes(32)


def fresh():
    rng = RngRecord("t", SEED, ["a", "b"]).rng()
    return engine.setup("standard", {}, rng), rng


def script(state, role, text):
    body = parse_body(list(enumerate(text.strip().split("\n"), 1)), GRAMMAR, engine.lexicon(state, role),
                      ["act", "commit", "react"])
    assert not body.has_errors, body.lines
    return Plan(script=body.script, standing=body.standing)


def test_a_script_answers_successive_decisions_until_someone_else_must_decide():
    state, rng = fresh()
    hand = state["hands"]["north"]
    plans = {"north": script(state, "north", f"ATTACK\nCOMMIT {hand[0]}")}
    result = Runner(engine).advance(state, plans, rng)
    assert [s.text for s in result.steps] == ["ATTACK", f"COMMIT {hand[0]}"]
    assert [d.role for d in result.waiting] == ["south"]  # south must commit: the script waits for nobody else
    assert result.steps[1].secret


def test_a_line_that_no_longer_fits_holds_the_rest_and_says_why():
    state, rng = fresh()
    south_card = state["hands"]["south"][0]
    plans = {"north": script(state, "north", "ATTACK"),
             "south": Plan(script=[])}
    plans["north"].script += script(state, "north", f"COMMIT {state['hands']['north'][0]}").script
    # south tries a card it does not hold, then more orders
    bad = script(state, "south", f"COMMIT {south_card}").script[0]
    plans["south"].script = [bad.__class__(1, "COMMIT C99"), bad.__class__(2, "NONE")]
    result = Runner(engine).advance(state, plans, rng)
    hold = result.holds[0]
    assert hold.role == "south" and hold.line_no == 1
    assert "no card 'C99'" in hold.reason
    assert hold.held == ("NONE",)
    assert plans["south"].script == []
    assert [d.role for d in result.waiting] == ["south"]


def test_guard_false_skips_the_line_and_stop_ends_the_script():
    state, rng = fresh()
    plans = {"north": script(state, "north", "IF LOST: STOP\nIF HP_BELOW 3: REST\nATTACK")}
    result = Runner(engine).advance(state, plans, rng)
    assert result.steps[0].text == "ATTACK"
    assert [line for _, line, _ in result.skipped] == [1, 2]


def test_standing_order_answers_the_reaction_window_and_game_default_is_none():
    state, rng = fresh()
    north, south = state["hands"]["north"], state["hands"]["south"]
    plans = {"north": script(state, "north", f"ATTACK\nCOMMIT {north[0]}"),
             "south": script(state, "south", f"COMMIT {south[0]}")}
    result = Runner(engine).advance(state, plans, rng)
    react = [s for s in result.steps if s.kind == "react"]
    assert react and react[0].source == "game-standing" and react[0].text == "NONE"


def test_ask_makes_the_window_wait_whatever_the_hand():
    """No timing leak: with ASK the window stays open both when south can counter and when it cannot."""
    for can_counter in (True, False):
        state, rng = fresh()
        values = state["cards"]
        strong = [c for c in values if values[c] >= 4]
        weak = [c for c in values if values[c] < 4]
        state["hands"]["south"] = (strong[:1] + weak[:2]) if can_counter else weak[:3]
        state["hands"]["north"] = weak[3:6]
        plans = {"north": script(state, "north", f"ATTACK\nCOMMIT {state['hands']['north'][0]}"),
                 "south": Plan(script=script(state, "south", f"COMMIT {state['hands']['south'][-1]}").script,
                               standing=[Standing("react", ASK)])}
        result = Runner(engine).advance(state, plans, rng)
        assert [d.kind for d in result.waiting] == ["react"], can_counter


def dealt_weak_cards_only():
    """A fresh Duel whose hands hold three weak cards each (south weak[:3], north weak[3:6])."""
    state, rng = fresh()
    weak = [c for c in state["cards"] if state["cards"][c] < 4]
    state["hands"]["south"] = weak[:3]
    state["hands"]["north"] = weak[3:6]
    return state, rng, weak


def test_illegal_standing_answer_defaults_at_once_like_a_declined_window():
    state, rng, weak = dealt_weak_cards_only()
    plans = {"north": script(state, "north", f"ATTACK\nCOMMIT {weak[3]}"),
             "south": Plan(script=script(state, "south", f"COMMIT {weak[0]}").script,
                           standing=[Standing("react", f"COUNTER {weak[1]}")])}
    result = Runner(engine).advance(state, plans, rng)
    react = next(s for s in result.steps if s.kind == "react")
    # passed over for the game's standing default, which says the same as the decision's default
    assert react.text == "NONE" and react.source == "game-standing"
    assert (react.unfit, react.unfit_source) == (f"STANDING REACT: COUNTER {weak[1]}", "standing")
    assert not [d for d in result.waiting if d.kind == "react"]


def test_an_illegal_standing_answer_followed_by_ask_takes_the_default_at_once_never_asks():
    """Asking after an order that did not fit would keep the window open only when the order was not
    legal: the opponent would learn what the player does not hold."""
    state, rng, weak = dealt_weak_cards_only()
    plans = {"north": script(state, "north", f"ATTACK\nCOMMIT {weak[3]}"),
             "south": Plan(script=script(state, "south", f"COMMIT {weak[0]}").script,
                           standing=[Standing("react", f"COUNTER {weak[1]}", (Guard("HP_BELOW", ("99",)),)),
                                     Standing("react", ASK)])}
    result = Runner(engine).advance(state, plans, rng)
    react = next(s for s in result.steps if s.kind == "react")
    assert react.source == "default" and react.unfit_source == "standing"
    assert not [d for d in result.waiting if d.kind == "react"]


def test_merge_standing_replaces_the_unconditional_order_and_clear_withdraws():
    plan = Plan(standing=[Standing("react", "NONE"), Standing("commit", ASK)])
    merged, news = merge_standing(plan, [Standing("react", ASK)])
    assert [(s.kind, s.answer) for s in merged.standing] == [("react", ASK), ("commit", ASK)]
    assert news.replaced == (("react", "STANDING REACT: NONE", "STANDING REACT: ASK"),)
    cleared, news = merge_standing(merged, [Withdraw("react")])
    assert [(s.kind, s.answer) for s in cleared.standing] == [("commit", ASK)]
    assert news.withdrawn == (("react", "STANDING REACT: ASK"),)
    assert merge_standing(merged, [Withdraw(None)])[0].standing == []


def test_parse_body_reports_every_bad_line_not_just_the_first():
    state, _ = fresh()
    body = parse_body([(1, "ATACK"), (2, "REST"), (3, "COMMIT C99"), (4, "STANDING react: NONE"),
                       (5, "STANDING bogus: NONE"), (6, "ASK react"), (7, "IF NOPE: REST")],
                      GRAMMAR, engine.lexicon(state, "north"), ["act", "commit", "react"])
    errors = {line.line_no: line.error for line in body.lines if not line.ok}
    assert set(errors) == {1, 3, 5, 7}
    assert "ATTACK" in errors[1]
    assert "no card 'C99'" in errors[3]
    assert [s.render() for s in body.standing] == ["STANDING REACT: NONE", "STANDING REACT: ASK"]


def test_a_held_line_s_closest_legal_answer_is_found_without_regard_to_case():
    """The hint a held script line gets matches the line as the player wrote it (lower case) against the
    question's options, as the receipt's suggestions do: not whichever option differs least in letter case."""
    from moderator.core.contract import Decision
    from moderator.core.errors import IllegalOrder
    from moderator.core.runner import closest_legal_hint

    decision = Decision("k", "axis", "card", "Play a card, then END.", "END",
                        options=("PLAY AIR_STRIKE ATTACK A08", "END"))
    hint = closest_legal_hint(IllegalOrder("not now"), "end", decision)
    assert hint == "; the closest legal answer now: 'END'"  # compared with case, 'end' was nearer the PLAY line
