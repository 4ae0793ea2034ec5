"""Keyed orders (ON lines): used once by the first decision they fit, in the order written, expiring
with the game's period (DESIGN §4, as generalised for games with drawn activations)."""

from dataclasses import replace

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
    plan = Plan(agenda=[replace(body.agenda[0], period="R1")])
    assert Plan.from_json(plan.to_json()) == plan
