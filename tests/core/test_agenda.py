"""Keyed orders (ON lines): used once by the first decision they fit, in the order written, expiring
with the game's period (DESIGN §4, as generalised for games with drawn activations)."""

from dataclasses import replace

from moderator.core.agenda import merge_agenda
from moderator.core.plans import ASK, Plan, Standing, parse_body
from moderator.core.plans import Test as StandingTest
from moderator.core.rng import RngRecord
from moderator.core.runner import Runner
from tests.refusals import refusal
from tests.testgame.duel import GRAMMAR, engine

SEED = bytes(32)


def fresh():
    rng = RngRecord("t", SEED, ["a", "b"]).rng()
    return engine.setup("standard", {}, rng), rng


def parsed(state, role, text):
    body = parse_body(list(enumerate(text.strip().split("\n"), 1)), GRAMMAR, engine.lexicon(state, role),
                      ["act", "commit", "react"])
    assert not body.has_errors, body.lines
    return body


def test_on_lines_parse_into_the_agenda_with_kind_guard_and_canonical_text():
    state, _ = fresh()
    body = parsed(state, "north", "on hp_below 3: rest\nON ANY: attack\nATTACK")
    assert body.agenda_given
    assert [(a.kind, a.text, a.guard) for a in body.agenda] == [
        ("act", "REST", (StandingTest("HP_BELOW", ("3",)),)), ("act", "ATTACK", ())]
    assert [s.text for s in body.script] == ["ATTACK"]
    assert body.agenda[0].render() == "ON HP_BELOW 3: REST"


def test_on_clear_alone_replaces_the_agenda_with_nothing():
    state, _ = fresh()
    body = parsed(state, "north", "ON CLEAR")
    assert body.agenda_given and body.agenda == []


def test_a_bad_on_line_is_reported_with_its_line_number():
    state, _ = fresh()
    body = parse_body([(4, "ON HP_BELOW 3 REST")], GRAMMAR, engine.lexicon(state, "north"), ["act"])
    assert body.has_errors and body.lines[0].line_no == 4 and "':' or THEN" in body.lines[0].error


def low_and_high(state, role):
    cards = sorted(state["hands"][role], key=lambda c: state["cards"][c])
    assert state["cards"][cards[0]] < 4 <= state["cards"][cards[-1]], "the seed must deal a low and a high card"
    return cards[0], cards[-1], cards[1]


def run_counter_agenda(agenda_text):
    """North attacks; south commits its middle card, then its keyed orders answer the reaction window."""
    state, rng = fresh()
    low, high, middle = low_and_high(state, "south")
    north = parsed(state, "north", f"ATTACK\nCOMMIT {state['hands']['north'][0]}").script
    south = parsed(state, "south", f"COMMIT {middle}").script
    agenda = parsed(state, "south", agenda_text.format(low=low, high=high)).agenda
    plans = {"north": Plan(script=north), "south": Plan(script=south, agenda=agenda)}
    return Runner(engine).advance(state, plans, rng), plans, rng, (low, high)


def test_the_first_legal_keyed_order_is_used_and_consumed_and_illegal_ones_wait():
    result, plans, _, (_low, high) = run_counter_agenda("ON ANY: COUNTER {low}\nON ANY: COUNTER {high}")
    react = [s for s in result.steps if s.kind == "react"]
    assert [(s.text, s.source, s.line_no) for s in react] == [(f"COUNTER {high}", "agenda", 2)]
    assert [a.line_no for a in plans["south"].agenda] == [1]  # a value-1 card cannot counter: it waits


def test_the_low_keyed_counter_waits_because_the_game_refuses_a_counter_below_4():
    """The line that waits is refused by the Duel's counter rule (a counter needs a card of 4 or more),
    not for another reason: at the same window, COUNTER with the low card is refused for that rule."""
    state, rng = fresh()
    low, _, middle = low_and_high(state, "south")
    north = parsed(state, "north", f"ATTACK\nCOMMIT {state['hands']['north'][0]}").script
    south = parsed(state, "south", f"COMMIT {middle}").script
    plans = {"north": Plan(script=north), "south": Plan(script=south, standing=[Standing("react", ASK)])}
    result = Runner(engine).advance(state, plans, rng)
    assert [d.kind for d in result.waiting] == ["react"]
    order = GRAMMAR.parse(f"COUNTER {low}", engine.lexicon(result.state, "south"), kinds=["react"])
    refusal(lambda: engine.apply(result.state, "south", order, rng), because=r"a counter needs 4 or more$")


def test_a_false_guard_keeps_the_line_for_later_and_falls_through_to_asking():
    state, rng = fresh()
    body = parsed(state, "north", "ON HP_BELOW 3: REST")
    plans = {"north": Plan(agenda=body.agenda)}
    result = Runner(engine).advance(state, plans, rng)
    assert result.steps == [] and [d.role for d in result.waiting] == ["north"]
    assert len(plans["north"].agenda) == 1


def test_an_illegal_keyed_order_changes_nothing_not_even_the_dice():
    with_bad, _, rng_bad, _ = run_counter_agenda("ON ANY: COUNTER {low}\nON ANY: COUNTER {high}")
    clean, _, rng_clean, _ = run_counter_agenda("ON ANY: COUNTER {high}")
    assert engine.dump_state(with_bad.state) == engine.dump_state(clean.state)
    assert rng_bad.counters == rng_clean.counters


def test_keyed_orders_expire_when_the_period_ends_and_the_runner_says_which():
    state, rng = fresh()
    body = parsed(state, "north", "ON ANY: REST\nON HP_BELOW 1: REST")
    agenda = [replace(a, period=engine.period(state)) for a in body.agenda]
    plans = {"north": Plan(agenda=agenda)}
    result = Runner(engine).advance(state, plans, rng)
    # north rests in round 1 (line 1); round 2 begins with south to act, and line 2 expires unused
    assert result.steps[0].text == "REST" and result.steps[0].source == "agenda"
    assert result.state["round"] == 2
    assert [(role, line.line_no) for role, line in result.expired] == [("north", 2)]
    assert plans["north"].agenda == []


def test_plan_json_round_trip_keeps_the_agenda():
    state, _ = fresh()
    body = parsed(state, "north", "ON HP_BELOW 3: REST")
    plan = Plan(agenda=[replace(body.agenda[0], period="R1", refused="not legal then")])
    assert Plan.from_json(plan.to_json()) == plan
    assert Plan.from_json(plan.to_json()).agenda[0].refused == "not legal then"


# ------------------------------------------------------------------ a message's ON lines add to the agenda


def merged(state, agenda, text):
    """The agenda after a message `text` (core/agenda.py), in round 1."""
    body = parsed(state, "north", text)
    return merge_agenda(agenda, body.agenda_changes, "R1")


def test_a_message_s_on_lines_are_added_to_those_filed_before_not_put_in_their_place():
    """notes/hand-narva.md, turn 8: ON lines filed at READY were dropped by a later message with one ON line."""
    state, _ = fresh()
    first = merged(state, [], "ON HP_BELOW 3: REST\nON LOST: ATTACK")
    second = merged(state, first.agenda, "ON HP_BELOW 2: ATTACK")
    assert [a.render() for a in second.agenda] == ["ON HP_BELOW 3: REST", "ON LOST: ATTACK", "ON HP_BELOW 2: ATTACK"]
    assert second.kept == ("ON HP_BELOW 3: REST", "ON LOST: ATTACK") and second.dropped == ()
    assert all(a.period == "R1" for a in second.agenda)


def test_a_line_the_same_as_one_waiting_is_not_added_twice_but_one_written_twice_in_a_message_waits_twice():
    state, _ = fresh()
    first = merged(state, [], "ON ANY: REST\nON ANY: REST")
    assert [a.line_no for a in first.agenda] == [1, 2]  # written twice: wanted twice
    again = merged(state, first.agenda, "ON ANY: REST\nON HP_BELOW 3 AND LOST: ATTACK")
    assert [a.line_no for a in again.agenda] == [1, 2, 2]  # its line 1 is the waiting line 1; line 2 is new
    assert again.stands_for[1] is first.agenda[0] and "not added twice" in again.effects[1]
    thrice = merged(state, again.agenda, "ON ANY: REST\nON ANY: REST\nON ANY: REST\nON LOST AND HP_BELOW 3: ATTACK")
    assert [a.render() for a in thrice.agenda].count("ON ANY: REST") == 3
    assert [a.render() for a in thrice.agenda].count("ON HP_BELOW 3 AND LOST: ATTACK") == 1  # tests in any order


def test_a_line_of_an_ended_period_is_no_reason_not_to_add_the_same_line_now():
    state, _ = fresh()
    old = merged(state, [], "ON ANY: REST").agenda
    now = merge_agenda([replace(old[0], period="R0")], parsed(state, "north", "ON ANY: REST").agenda_changes, "R1")
    assert [a.period for a in now.agenda] == ["R0", "R1"] and now.kept == ()  # R0's expires in the runner


def test_on_clear_drops_what_was_filed_before_wherever_it_stands_and_on_clear_with_a_test_only_those():
    state, _ = fresh()
    filed = merged(state, [], "ON ANY: REST\nON LOST: ATTACK\nON LOST: REST").agenda
    cleared = merged(state, filed, "ON HP_BELOW 2: REST\nON CLEAR")
    assert [a.render() for a in cleared.agenda] == ["ON HP_BELOW 2: REST"]
    assert cleared.dropped == ("ON ANY: REST", "ON LOST: ATTACK", "ON LOST: REST") and cleared.effects[2] == \
        "dropped 3 keyed orders"
    some = merged(state, filed, "ON CLEAR LOST")
    assert [a.render() for a in some.agenda] == ["ON ANY: REST"]
    assert some.dropped == ("ON LOST: ATTACK", "ON LOST: REST")
    assert [a.render() for a in merged(state, filed, "ON CLEAR ANY").agenda] == ["ON LOST: ATTACK", "ON LOST: REST"]
    assert merged(state, filed, "ON CLEAR HP_BELOW 2").effects[1] == "you had no such keyed order"


def test_on_clear_with_an_unknown_test_cannot_be_read():
    state, _ = fresh()
    body = parse_body([(1, "ON CLEAR HOLDING 4")], GRAMMAR, engine.lexicon(state, "north"), ["act"])
    assert body.has_errors and "unknown test 'HOLDING'" in body.lines[0].error


def test_a_keyed_order_refused_at_its_question_keeps_the_reason_and_the_answer_in_its_place_names_it():
    """notes/hand-narva.md, defect 2: the engine's reason for refusing the player's own keyed order is
    kept on the line (for its expiry) and on the answer that took its place (for the report)."""
    result, plans, _, (low, _high) = run_counter_agenda("ON ANY: COUNTER {low}")
    react = next(s for s in result.steps if s.kind == "react")
    assert (react.text, react.source) == ("NONE", "game-standing")
    reason = f"{low} has value 1; a counter needs 4 or more"  # the seed deals south a 1 (low_and_high)
    assert react.keyed_unfit == ((f"line 1: ON ANY: COUNTER {low}", reason),)
    assert [(a.line_no, a.refused) for a in plans["south"].agenda] == [(1, reason)]  # it waits, with the reason
