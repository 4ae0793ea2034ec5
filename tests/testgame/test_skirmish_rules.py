"""Skirmish's rules (§n of its rulebook, the docstring of tests/testgame/skirmish) and rulings
(tests/testgame/skirmish/RULINGS.md), one test per clause; every refusal asserts the rule it is about.

Positions are built by `position` (the units named, where they stand, everything else off the map)
and played from order text through the engine, with the dice fixed by `rolls`.  The map
(tests/testgame/skirmish/data/map.yaml): Farm-Mill, Farm-Orchard, Mill-Orchard, Mill-Chapel,
Orchard-Ford, Orchard-Ridge, Ford-Ridge, Chapel-Ridge, Chapel-Bridge, Ridge-Bridge; VP areas Mill,
Ford, Chapel.  Red: Lancers 3, Grenadiers 2, Fusiliers 1, Rifles 2; blue: Hussars 3, Dragoons 2,
Pikemen 1, Guards 2.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from moderator.core.contract import OBSERVER, REFEREE, Event
from moderator.core.errors import ParseError, WrongDecision
from moderator.core.grammar import Lexicon
from moderator.core.rng import Die, Rng, RngRecord
from tests.refusals import refusal
from tests.testgame.skirmish.engine import engine
from tests.testgame.skirmish.orders import EXAMPLE_UNIT, GRAMMAR
from tests.testgame.skirmish.scenario import Unit, scenario_named, validate_scenario

SCENARIO = scenario_named("standard")
RULINGS = Path(__file__).parent / "skirmish" / "RULINGS.md"


class FixedDice(Rng):
    """The game's Rng with its d6 results taken from a list, in order (the draws stay recorded)."""

    def __init__(self, rolls: Iterable[int]):
        super().__init__(bytes(32))
        self.rolls = list(rolls)

    def d6(self, purpose: str = "", stream: str = "dice") -> Die:
        drawn = super().d6(purpose, stream)
        return Die(self.rolls.pop(0), drawn.stream, drawn.counter) if self.rolls else drawn


def position(units: Mapping[str, str], strength: Mapping[str, int] | None = None,
             control: Mapping[str, str | None] | None = None, tie: str = "fall_back") -> dict[str, Any]:
    """Turn 1, red to move, with exactly these units on the map (unit -> area)."""
    state = engine.setup("standard", {"tie": tie}, RngRecord("t", bytes(32), ["a", "b"]).rng())
    for unit, record in state["units"].items():
        record["area"] = units.get(unit)
        record["strength"] = (strength or {}).get(unit, record["strength"])
    state["control"].update(control or {})
    return state


def play(state: dict[str, Any], role: str, *lines: str,
         rolls: Iterable[int] = ()) -> tuple[dict[str, Any], list[Event]]:
    """Each line answered by `role` through the engine, as a mail would be; the state and every event."""
    dice = FixedDice(rolls)
    events: list[Event] = []
    for line in lines:
        kinds = [d.kind for d in engine.pending(state) if d.role == role]
        order = GRAMMAR.parse(line, engine.lexicon(state, role), kinds=kinds)
        state, new = engine.apply(state, role, order, dice)
        events += new
    return state, events


def where(state: dict[str, Any], unit: str) -> str | None:
    return state["units"][unit]["area"]


def asked(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d.role, d.kind) for d in engine.pending(state)]


def kinds(events: list[Event], role: str) -> list[str]:
    return [e.kind for e in events if e.is_visible_to(role)]


# ---------------------------------------------------------------- §2, §3: the scenario data


def test_2_3_the_standard_scenario_is_valid():
    assert validate_scenario(SCENARIO) == []
    assert len(SCENARIO.areas) == 7 and SCENARIO.vp_areas() == ("Mill", "Ford", "Chapel")


@pytest.mark.parametrize(("change", "problem"), [
    (lambda s: {"units": s.units + (Unit(id="Scouts", side="red", strength=1, area="Farm"),)},
     r"red has 5 units, the rulebook gives each side 3 or 4 \(§3\)"),
    (lambda s: {"units": tuple(u.model_copy(update={"area": "Bridge"}) if u.id == "Lancers" else u for u in s.units)},
     r"red unit Lancers sets up in Bridge, which blue controls \(§3\)"),
    (lambda s: {"areas": s.areas[:5]}, r"5 areas, the rulebook has 6 to 8 \(§2\)"),
    (lambda s: {"borders": tuple(b for b in s.borders if "Bridge" not in b.areas)}, r"not connected to Farm: Bridge"),
])
def test_2_3_the_validator_states_the_data_s_rules(change, problem):
    broken = SCENARIO.model_copy(update=change(SCENARIO))
    assert any(re.search(problem, p) for p in validate_scenario(broken)), validate_scenario(broken)


def test_every_value_needs_its_provenance():
    """A unit whose strength says nothing of where it comes from is reported (core/provenance.Record)."""
    bare = Unit(id="Scouts", side="red", strength=1, area="Farm",
                src={"side": "reconstructed: test", "area": "reconstructed: test"})
    broken = SCENARIO.model_copy(update={"units": SCENARIO.units[:3] + (bare,) + SCENARIO.units[4:]})
    assert "units.yaml unit Scouts: field 'strength' has no provenance in src" in validate_scenario(broken)


# ---------------------------------------------------------------- §5 movement


def test_5_1_a_unit_moves_to_an_adjacent_area_and_control_follows_7():
    state, events = play(position({"Rifles": "Orchard"}), "red", "MOVE Rifles TO Ford")
    assert where(state, "Rifles") == "Ford" and state["control"]["Ford"] == "red"
    assert asked(state) == [("red", "move")]  # one unit at a time, until DONE
    assert kinds(events, "red") == ["moved", "control"]


def test_5_1_a_move_to_an_area_not_adjacent_is_refused():
    state = position({"Lancers": "Farm"})
    refused = refusal(lambda: play(state, "red", "MOVE Lancers TO Chapel"), r"adjacent area \(§5\.1\): not Chapel")
    assert "MOVE Lancers TO Mill" in refused.suggestions


def test_ruling_S_ONCE_a_unit_moves_once_a_phase():
    state, _ = play(position({"Lancers": "Farm"}), "red", "MOVE Lancers TO Mill")
    refusal(lambda: play(state, "red", "MOVE Lancers TO Chapel"), r"moves once a phase \(ruling S-ONCE\)")


def test_5_a_side_moves_only_its_own_units():
    """Blue's units are not even names red may write (§3.1): the order does not parse."""
    refusal(lambda: play(position({"Lancers": "Farm", "Hussars": "Bridge"}), "red", "MOVE Hussars TO Chapel"),
            r"no unit 'Hussars'", error=ParseError)


def test_4_only_the_active_side_moves():
    refusal(lambda: play(position({"Lancers": "Farm", "Hussars": "Bridge"}), "blue", "DONE"),
            r"nothing is asked of the blue player", error=WrongDecision)


# ---------------------------------------------------------------- §6 battles


def test_6_1_6_2_the_lower_total_loses_a_step_on_its_strongest_unit_and_retreats():
    """Grenadiers (2) roll 5: 7; Dragoons (2) roll 3: 5.  Blue loses a step and must retreat."""
    state = position({"Grenadiers": "Mill", "Dragoons": "Chapel", "Hussars": "Bridge"})
    state, events = play(state, "red", "MOVE Grenadiers TO Chapel", "DONE", rolls=[5, 3])
    battle = next(e for e in events if e.kind == "battle").data
    assert (battle["rolls"]["red"]["total"], battle["rolls"]["blue"]["total"], battle["loser"]) == (7, 5, "blue")
    assert state["units"]["Dragoons"]["strength"] == 1
    assert asked(state) == [("blue", "retreat")]  # the loser decides, in red's phase
    assert engine.pending(state)[0].interrupts == "red"


def test_6_2_the_strongest_unit_takes_the_step_and_between_equals_the_first_listed_ruling_S_EQUAL():
    state = position({"Grenadiers": "Mill", "Rifles": "Mill", "Fusiliers": "Mill", "Hussars": "Chapel"},
                     control={"Chapel": "blue"})
    state, _ = play(state, "red", "MOVE Grenadiers TO Chapel", "MOVE Rifles TO Chapel", "DONE", rolls=[1, 6])
    # red 1 + 4 = 5 loses to blue 6 + 3 = 9; Grenadiers and Rifles are both 2: Grenadiers is listed first
    assert (state["units"]["Grenadiers"]["strength"], state["units"]["Rifles"]["strength"]) == (1, 2)


def test_6_2_a_unit_of_strength_1_that_loses_a_step_is_eliminated():
    state = position({"Fusiliers": "Orchard", "Pikemen": "Ridge", "Guards": "Bridge"})
    state, events = play(state, "red", "MOVE Fusiliers TO Ridge", "DONE", rolls=[1, 6])
    assert where(state, "Fusiliers") is None
    lost = [e.data for e in events if e.kind == "step_lost" and e.is_visible_to("red")]
    assert lost == [{"side": "red", "unit": "Fusiliers", "area": "Ridge", "result": "eliminated", "strength": 0,
                     "why": "lost the battle in Ridge (§6.2)"}]
    assert state["control"]["Ridge"] == "blue"


def test_6_2_on_a_tie_nobody_loses_and_the_attacker_falls_back_ruling_S_TIE():
    state = position({"Grenadiers": "Mill", "Dragoons": "Chapel"})
    state, _ = play(state, "red", "MOVE Grenadiers TO Chapel", "DONE", rolls=[3, 3])
    assert state["units"]["Grenadiers"]["strength"] == 2 and state["units"]["Dragoons"]["strength"] == 2
    assert asked(state) == [("red", "retreat")]  # the attacker falls back: red decides where
    state, _ = play(state, "red", "RETREAT TO Mill")
    assert where(state, "Grenadiers") == "Mill" and state["control"]["Chapel"] == "blue"


def test_6_2_on_a_tie_with_the_option_stand_both_stay_and_fight_again_next_phase_ruling_S_TIE():
    state = position({"Grenadiers": "Mill", "Dragoons": "Chapel"}, tie="stand")
    state, _ = play(state, "red", "MOVE Grenadiers TO Chapel", "DONE", rolls=[3, 3])
    assert where(state, "Grenadiers") == "Chapel" == where(state, "Dragoons")
    assert state["control"]["Chapel"] == "blue" and asked(state) == [("blue", "move")]
    state, events = play(state, "blue", "DONE", rolls=[6, 1])  # blue attacks now: 6 + 2 against 1 + 2
    assert next(e for e in events if e.kind == "battle").data["attacker"] == "blue"
    assert state["units"]["Grenadiers"]["strength"] == 1


# ---------------------------------------------------------------- §6.3 retreats


def lost_at_ridge(**extra_units: str) -> dict[str, Any]:
    """Red's Rifles lose in the Ridge (1 + 2 against 6 + 1) and must retreat."""
    state = position({"Rifles": "Orchard", "Pikemen": "Ridge", **extra_units})
    state, _ = play(state, "red", "MOVE Rifles TO Ridge", "DONE", rolls=[1, 6])
    return state


def test_6_3_the_loser_retreats_to_an_area_it_controls_or_that_is_empty_and_holds_no_enemy():
    state = lost_at_ridge(Guards="Ford", Hussars="Bridge")
    # Orchard: red's own; Ford: blue units; Chapel: blue's and empty (empty counts); Bridge: blue units
    retreat = engine.pending(state)[0]
    assert (retreat.role, retreat.options) == ("red", ("RETREAT TO Orchard", "RETREAT TO Chapel", "RETREAT AUTO"))
    refusal(lambda: play(state, "red", "RETREAT TO Ford"), r"adjacent area you control or that is empty.*\(§6\.3\)")
    state, _ = play(state, "red", "RETREAT AUTO")
    assert where(state, "Rifles") == "Orchard"  # AUTO: the side's own area before an empty one


def test_6_3_the_other_side_sees_how_many_units_retreat_not_which():
    state = lost_at_ridge()
    _, events = play(state, "red", "RETREAT TO Orchard")
    seen = [e.data for e in events if e.kind == "retreated" and e.is_visible_to("blue")]
    assert seen == [{"side": "red", "count": 1, "origin": "Ridge", "area": "Orchard"}]


def test_ruling_S_NOWHERE_units_with_no_area_to_retreat_to_are_eliminated():
    """Guards (2) hold the Farm; its only neighbours, the Mill and the Orchard, hold red units.  Lancers
    attack from the Mill (Grenadiers stay): 6 + 3 against 1 + 2.  The Guards, down to 1, cannot retreat."""
    state = position({"Guards": "Farm", "Lancers": "Mill", "Grenadiers": "Mill", "Rifles": "Orchard"},
                     control={"Farm": "blue"})
    state, events = play(state, "red", "MOVE Lancers TO Farm", "DONE", rolls=[6, 1])
    assert where(state, "Guards") is None and asked(state) == [("blue", "move")]  # nobody was asked
    assert [e.data["why"] for e in events if e.kind == "step_lost" and e.is_visible_to("blue")] == [
        "lost the battle in Farm (§6.2)", "no area to retreat to from Farm (ruling S-NOWHERE)"]
    assert state["control"]["Farm"] == "red"  # §7: red now stands there alone


# ---------------------------------------------------------------- §4, §7, §8: the sequence and victory


def all_done(state: dict[str, Any]) -> tuple[dict[str, Any], list[Event]]:
    """Every phase ends with DONE until the game is over (§4: 4 turns, red then blue)."""
    events: list[Event] = []
    while engine.pending(state):
        role = engine.pending(state)[0].role
        state, new = play(state, role, "DONE")
        events += new
    return state, events


def test_4_a_turn_is_the_red_phase_then_the_blue_phase_for_4_turns_then_8_victory():
    state, events = all_done(position({"Lancers": "Farm", "Hussars": "Bridge"}, control={"Ford": "red"}))
    phases = [(e.data["turn"], e.data["side"]) for e in events if e.kind == "phase_begins"]
    assert phases == [(1, "blue"), (2, "red"), (2, "blue"), (3, "red"), (3, "blue"), (4, "red"), (4, "blue")]
    assert engine.outcome(state).winner == "red"  # Mill and Ford against the Chapel
    assert engine.outcome(state).reason == "red controls more VP areas (2 to 1) (§8)"


def test_8_equal_vp_areas_are_a_draw_and_4_2_each_phase_ends_with_the_vp_standing():
    state, events = all_done(position({"Lancers": "Farm", "Hussars": "Bridge"}))
    assert engine.outcome(state).winner is None
    assert [e.data["vp"] for e in events if e.kind == "phase_over"][-1] == {"red": 1, "blue": 1}


def test_7_a_side_takes_control_the_moment_its_units_stand_alone():
    state, events = play(position({"Rifles": "Orchard", "Pikemen": "Ford"}, control={"Ford": "blue"}), "red",
                         "MOVE Rifles TO Ford")
    assert state["control"]["Ford"] == "blue"  # both sides there: nobody alone yet
    state, events = play(state, "red", "DONE", rolls=[6, 1])  # Pikemen (1) eliminated: red alone
    assert state["control"]["Ford"] == "red" and "control" in kinds(events, "blue")


# ---------------------------------------------------------------- §3.1: what each side sees


def test_3_1_a_side_sees_its_own_units_and_only_counts_of_the_enemy():
    state = position({"Lancers": "Farm", "Rifles": "Farm", "Hussars": "Bridge"})
    red = engine.view(state, "red")
    assert [u["id"] for u in red["units"] if u["area"]] == ["Lancers", "Rifles"]
    bridge = next(a for a in red["areas"] if a["id"] == "Bridge")
    assert bridge["counts"] == {"red": 0, "blue": 1} and bridge["units"] == []
    assert "Hussars" not in json.dumps(red) and engine.view(state, OBSERVER)["units"] == []
    assert {u["id"] for u in engine.view(state, REFEREE)["units"] if u["area"]} == {"Lancers", "Rifles", "Hussars"}
    assert engine.secrets(state, "blue") == {"Hussars", "Dragoons", "Pikemen", "Guards"}


def test_3_1_the_other_side_learns_that_a_unit_moved_and_where_not_which():
    _, events = play(position({"Lancers": "Farm"}), "red", "MOVE Lancers TO Mill")
    assert [e.data for e in events if e.is_visible_to("blue")] == [{"side": "red", "origin": "Farm", "area": "Mill"}]


def test_3_1_decision_prompts_name_no_unit():
    """Skirmish's prompts name no unit: the guide's example game keeps what a side hides out of its
    questions (since issue 13 a defaulted prompt reaches only its owner as well,
    moderator/service/turns.defaulted_events)."""
    from tests.playout import random_playout

    prompts: set[str] = set()

    def collect(state: Any, role: str, text: str, events: list[Event]) -> None:
        prompts.update(d.prompt + " " + d.default for d in engine.pending(state))

    for seed in range(10):
        random_playout(engine, seed, on_step=collect)
    assert any("must retreat" in p for p in prompts)
    for unit in SCENARIO.units:
        assert not [p for p in prompts if unit.id in p], unit.id


# ---------------------------------------------------------------- orders, guards, state


def test_the_help_examples_are_valid_orders_and_name_no_real_unit():
    lexicon: Lexicon = engine.lexicon(position({}), REFEREE)
    lexicon.add("unit", EXAMPLE_UNIT)
    assert EXAMPLE_UNIT not in {u.id for u in SCENARIO.units}
    for spec in GRAMMAR.specs:
        for example in spec.examples:
            order = GRAMMAR.parse(example, lexicon)
            assert (order.kind, order.form) == (spec.kind, spec.form) and GRAMMAR.render(order) == example


def test_guards_read_the_deciding_side_s_view_and_turn_means_what_it_means_in_every_game():
    state = position({"Rifles": "Orchard", "Pikemen": "Ford"})
    view, decision = engine.view(state, "red"), engine.pending(state)[0]
    assert engine.condition("TURN", view, decision, ["1"]) and not engine.condition("TURN", view, decision, ["2+"])
    assert engine.condition("ENEMY", view, decision, ["Crossing"])  # the Ford by its alias
    assert engine.condition("HOLD", view, decision, ["Mill"]) and not engine.condition("HOLD", view, decision, ["Ford"])
    refusal(lambda: engine.condition("HOLD", view, decision, ["Nowhere"]), r"no area 'Nowhere'", error=ParseError)
    state = lost_at_ridge()
    assert engine.condition("AREA", engine.view(state, "red"), engine.pending(state)[0], ["Ridge"])


def test_the_state_is_plain_json_with_a_version():
    state = lost_at_ridge()
    assert engine.load_state(engine.dump_state(state)) == state
    with pytest.raises(ValueError, match="state version 2 is not 1"):
        engine.load_state(engine.dump_state(dict(state, version=2)))


def test_a_refused_order_leaves_the_state_unchanged():
    state = position({"Lancers": "Farm"})
    before = engine.dump_state(state)
    refusal(lambda: play(state, "red", "MOVE Lancers TO Ford"), r"adjacent area \(§5\.1\): not Ford")
    assert engine.dump_state(state) == before


# ---------------------------------------------------------------- the rulings and the bot


def test_the_bots_play_skirmish_to_its_end_by_mail(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from moderator import cli
    from moderator.app import App
    from moderator.registry import Registry

    monkeypatch.setattr(cli._State, "factory", lambda settings=None, clock=None, **_: App(
        settings, registry=Registry([engine]), clock=clock))
    out = tmp_path / "demo"
    result = CliRunner().invoke(cli.app_cli, ["demo", "--game", "skirmish", "--out", str(out), "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "finished" in result.output and "verifies" in result.output
    reports = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default).get_body(("plain",)).get_content()
               for p in sorted((out / "mail" / "sent" / "red@players.demo").glob("*/*"))]
    assert any("THE RESULT" in text for text in reports)
    assert any(re.search(r"(?:ran|queued) +MOVE \w+ TO \w+", text) for text in reports)  # the red bot's own moves
    assert any("BATTLE in" in text for text in reports)
