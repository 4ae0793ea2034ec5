"""One test per rule clause of The Hell of Stalingrad's basic game, each citing its section or ruling."""

from __future__ import annotations

import pytest

from moderator.core.errors import IllegalOrder
from moderator.games.stalingrad import actions, effects
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.campaign import burn_militia, disgrace, reinforce, turn_campaign_cards
from moderator.games.stalingrad.engine import engine
from moderator.games.stalingrad.strategy import end_turn
from moderator.games.stalingrad.tracks import add_buckets, add_fires
from tests.games.stalingrad.harness import apply, battle_position, board, defaults, fresh


def in_battle(german=None, soviet=None, building="RedSquare", district="B", **options):
    state = battle_position(building, district, german or {"71ID": 0}, soviet or {"10NKVD": 0}, **options)
    state, _ = apply(state, "german", f"FIGHT {building}")
    state, _ = defaults(state)
    return state


def run(b: Board, items):
    """Resolve effect items on a board with every choice answered AUTO."""
    effects.queue_effects(b, items)
    while b.top()["kind"] == "effects":
        frame = b.top()
        handler = effects.Effects()
        if not handler.step(b, frame):
            item = frame["queue"].pop(0)
            options = effects.choices(b, item)
            effects.resolve_choice(b, item, effects.auto_choice(b, item, options))


def item(icon, side, district="B", unit=None, n=1, **flags):
    return dict(icon=icon, unit=unit, n=n, side=side, why="test", district=district, anywhere=False, **flags)


def test_setup_deals_hands_formations_and_decks():
    """§Basic Game set-up, §Commanders A: four Starting Formations with Lv. 0 leaders; hands of the hand size;
    the Hourglass moved to turn 1 by the first Strategy Phase."""
    from moderator.games.stalingrad.engine import INFO
    from moderator.games.stalingrad.scenario import scenario_named
    from moderator.games.stalingrad.setup import initial_state
    from tests.games.stalingrad.harness import rng
    state = initial_state(scenario_named("siege"), "siege", INFO.chosen_options({}), rng(5))
    staging = [f for f, r in state["formations"].items() if r["side"] == "german" and r["at"] == "staging"]
    assert len(staging) == 4 and all(state["formations"][f]["leader"] == 0 for f in staging)
    assert len(state["sides"]["german"]["formation_deck"]) == 14
    assert state["turn"] == 0 and len(state["sides"]["german"]["hand"]) == 5  # Paulus' hand size (ruling S-73)
    assert len(state["sides"]["soviet"]["hand"]) == 4
    assert len(state["building_deck"]) == 20 + 6  # ruling S-01: six Volga Cards
    assert fresh()["turn"] >= 1  # §Strategy 1: the first Strategy Phase moves the Hourglass


def test_four_volga_cards_option():
    assert len(fresh(volga_cards="4")["building_deck"]) == 24  # ruling S-01 alternative


def test_kill_takes_only_unshielded_units_and_is_lost_against_shields():
    """§Destroying: a Kill destroys an unshielded unit of the defender's choice; against only shielded units it
    is lost (ruling S-70)."""
    b = board(in_battle())
    b.district("B")["units"]["soviet"] = {"T34": 1, "Assault": 1}
    run(b, [item("kill", "german"), item("kill", "german")])
    assert b.cores_on("B", "soviet") == {"Fort": 1}


def test_precision_kill_takes_a_shielded_unit():
    """§Destroying: a Precision Kill destroys any unit of the attacker's choice."""
    b = board(in_battle())
    b.district("B")["units"]["soviet"] = {"T34": 1, "Assault": 1}
    run(b, [item("pkill", "german")])
    assert b.cores_on("B", "soviet") == {"Rifle": 1}  # AUTO targets shielded units first


def test_spillover_when_the_defender_has_no_units():
    """§Destroying Spillover (ruling S-16): a Kill with no defending units may advance the Fire Counter."""
    b = board(in_battle())
    b.district("B")["units"]["soviet"], fire = {}, b.district("B")["fire"]
    run(b, [item("kill", "german")])
    assert b.district("B")["fire"] == fire + 1


def test_no_spillover_in_a_break_test():
    b = board(in_battle())
    b.district("B")["units"]["soviet"], fire = {}, b.district("B")["fire"]
    run(b, [item("kill", "german", no_spill=True)])
    assert b.district("B")["fire"] == fire


def test_a_soviet_vanguard_kill_waits_for_german_units():
    """§Battle 1 (ruling S-17): a Soviet vanguard Kill with no German unit waits for the German vanguards."""
    b = board(in_battle())
    b.district("B")["units"]["german"] = {}
    fire, bucket = b.district("B")["fire"], b.district("B")["bucket"]
    run(b, [item("kill", "soviet", defer=True)])
    assert b.battle["deferred"] and b.battle["deferred"][0]["icon"] == "kill"
    assert (b.district("B")["fire"], b.district("B")["bucket"]) == (fire, bucket)
    spill = dict(item("spill", "soviet", defer=True), held="kill")
    assert "SPILL HOLD" in effects.choices(b, spill)
    effects.resolve_choice(b, spill, "SPILL BUCKET")  # or he takes the Spillover now
    assert b.district("B")["bucket"] == bucket + 1


def test_a_sniper_shot_at_a_unit_draws_no_card():
    """§Sniper: an unshielded unit targeted dies automatically; no Carnage Card."""
    b = board(in_battle())
    b.district("B")["units"]["soviet"] = {"Assault": 1}
    deck = len(b.data["carnage"])
    b.battling("soviet") and b.kill_leader("10NKVD", "test")
    run(b, [item("sniper", "german")])
    assert b.cores_on("B", "soviet") == {} and len(b.data["carnage"]) == deck


def test_a_sniper_shot_at_a_leader_draws_a_carnage_card():
    """§Sniper, §Carnage A: the defender discards; a Hit or Hideous Death kills the leader."""
    b = board(in_battle())
    b.data["carnage"].insert(0, next(c.id for c in b.scenario.carnage if c.sniper == "hit"))
    hand = len(b.side("soviet")["hand"])
    run(b, [item("sniper", "german")])
    assert b.leader("10NKVD") is None and len(b.side("soviet")["hand"]) == hand - 1


def test_terror_tactics_apply_then_the_unit_flips():
    """§Units: an elite unit's Terror Tactic, then its core side; a core unit does not flip (§On Buildings B)."""
    b = board(in_battle())
    b.district("B")["units"] = {"german": {}, "soviet": {"Assault": 2}}
    run(b, [item("add", "german", unit="HeavyMG"), item("add", "german", unit="Grenadier")])
    assert b.cores_on("B", "german") == {"Grenadier": 2} and b.cores_on("B", "soviet") == {}


def test_an_empty_unit_pile_loses_the_add():
    """Ruling S-78: no counter left, nothing is added."""
    b = board(in_battle())
    b.side("german")["pile"]["Panzer"] = 0
    b.side("german")["pile"]["StuG"] = 0
    run(b, [item("add", "german", unit="Armor")])
    assert "Armor" not in b.cores_on("B", "german")


def test_fire_track_inferno_den_and_buckets():
    """§Tracking B and C examples: a fire into the Den becomes an Inferno and a new Fire Counter starts; a
    bucket into the Den discards an Inferno (ruling S-15), or with none sends the Fire Counter back."""
    b = board(in_battle())
    record = b.district("B")
    record.update(fire=5, bucket=4, infernos=0)
    add_fires(b, "B", 2, "test")
    assert (record["fire"], record["infernos"]) == (1, 1)
    add_buckets(b, "B", 2, "test")
    assert (record["bucket"], record["infernos"]) == (0, 0)
    record.update(bucket=5)
    add_buckets(b, "B", 1, "test")
    assert record["fire"] == 0


def test_deplete_once_a_round_and_destroyed_when_depleted_again():
    """§Deplete A: full to depleted, depleted to destroyed, never twice in a round; a unique one goes to the Ash
    Heap (Burning Skull, ruling S-11)."""
    b = board(in_battle(soviet={"10NKVD": 0, "35Gd": 0}))
    effects.deplete_formation(b, "10NKVD", "test")
    assert effects.deplete_targets(b, "german") == ["35Gd"]
    b.battle["depleted_round"] = []
    effects.deplete_formation(b, "10NKVD", "test")
    assert b.where("10NKVD") == "ash"


@pytest.mark.parametrize(("option", "executed"), [("as_many", 1), ("all_or_nothing", 0)])
def test_machine_gun_depletion_short_of_rifles_retreats(option, executed):
    """§Soviet Cards D, ruling S-09: too few Rifles: the formation retreats and its Commissar dies."""
    b = board(in_battle(soviet={"Militia1": 0}, machine_gun=option))
    b.district("B")["units"]["soviet"] = {"Assault": 1}
    effects.deplete_formation(b, "Militia1", "test")
    assert b.where("Militia1") == "staging" and b.leader("Militia1") is None
    assert b.cores_on("B", "soviet").get("Rifle", 0) == 1 - executed


def test_red_star_adds_an_elite_unit():
    b = board(in_battle(soviet={"92Bde": 0}))
    b.district("B")["units"]["soviet"] = {}
    effects.deplete_formation(b, "92Bde", "test")
    run(b, [])
    assert b.cores_on("B", "soviet") == {"Rifle": 1}  # the Molotov flipped


def test_supply_reaches_a_formation_on_the_staging_line():
    """§Deplete B, ruling S-32: any depleted formation in play; no lost leader comes back."""
    b = board(in_battle())
    b.data["formations"]["35Gd"].update(at="staging", depleted=True, leader=None)
    assert effects.supply_targets(b, "soviet") == ["35Gd"]
    run(b, [item("supply", "soviet")])
    assert not b.is_depleted("35Gd") and b.leader("35Gd") is None


def test_overrun_exceeds_the_concentration_and_applies_the_vanguard():
    """§Overrun: a Staging Line formation joins the battle; its vanguard applies."""
    b = board(in_battle())
    b.data["formations"]["138RD"].update(at="staging", leader=0)
    run(b, [item("overrun", "soviet")])
    assert "138RD" in b.battling("soviet") and b.cores_on("B", "soviet").get("Rifle", 0) >= 2


def test_sacrifice_needs_rifles_on_the_building():
    """§Brutality: without enough Rifles the card cannot be played."""
    b = board(in_battle())
    b.district("B")["units"]["soviet"] = {}
    b.side("soviet")["hand"].append("DigOrDie.1")
    assert not actions.card_ok_on(b, "soviet", "DigOrDie.1", "10NKVD")
    b.district("B")["units"]["soviet"] = {"Assault": 1}
    assert actions.card_ok_on(b, "soviet", "DigOrDie.1", "10NKVD")


def test_reload_draws_up_to_the_hand_size_and_a_full_hand_draws_nothing():
    """§Commanders B, ruling S-37."""
    state = in_battle()
    b = board(state)
    b.battle["active"], b.battle["acted"] = "german", False
    hand = list(state["sides"]["german"]["hand"])
    state, _ = apply(state, "german", f"RELOAD DISCARD {hand[0]} {hand[1]}")
    assert len(state["sides"]["german"]["hand"]) == 5 and hand[0] in state["sides"]["german"]["discard"]


def test_a_fire_bucket_hold_card_gives_each_side_its_own():
    """§Carnage C: the German takes the fire, the Soviet the bucket."""
    b = board(in_battle())
    b.battle["hold_card"] = next(c.id for c in b.scenario.carnage if [e.icon for e in c.hold] == ["fire", "bucket"])
    assert actions.hold_options(b, "german") == ["TAKE FIRST"] and actions.hold_options(b, "soviet") == ["TAKE SECOND"]


def test_the_hold_counter_starts_short_of_the_break_test():
    """Ruling S-13: an Intensity at or past the Break Test space leaves one Hold to make."""
    state = in_battle()
    assert state["districts"]["B"]["hold"] < 4


def test_intensity_fires_option_off():
    """Ruling S-18 alternative: no fires from the Intensity."""
    state = in_battle(intensity_fires="off")
    assert state["districts"]["B"]["fire"] == 0 and state["districts"]["B"]["infernos"] == 0


def test_the_immediate_soviet_victory():
    """§Battle 4 note, ruling S-20: no German formation and unit left: a Soviet win without a Break Test."""
    state = in_battle()
    b = board(state)
    b.battle["active"], b.battle["acted"] = "soviet", False
    b.district("B")["units"]["german"] = {}
    b.data["formations"]["71ID"]["depleted"] = True
    state["sides"]["soviet"]["hand"].append("Counterattack.1")
    state, events = apply(state, "soviet", "PLAY Counterattack.1 ON 10NKVD")
    state, more = defaults(state, stop=())
    kinds = [e.kind for e in events + more]
    kinds = kinds[:kinds.index("battle_over")]
    assert "routed" in kinds and "break_dice" not in kinds


def test_the_determination_die():
    """§Battle 5 E: the German with no other die rolls one; a Bloody Slaughter with it is a Soviet Victory."""
    from moderator.games.stalingrad.breaktest import pools
    b = board(in_battle())
    b.data["formations"]["71ID"]["depleted"] = True
    b.district("B")["units"] = {"german": {}, "soviet": {"Assault": 1}}
    b.district("B")["infernos"] = 0
    dice, source, pity = pools(b)
    assert pity and dice["german"] == 1 and source["german"]["determination"] == 1


def test_the_german_must_assault():
    """§Strategy 6, ruling S-53: ending the maneuvers without an assault loses."""
    state = fresh()
    while state["stack"][-1]["stage"] != "assault":
        d = engine.pending(state)[0]
        state, _ = apply(state, d.role, d.default)
    state, _ = apply(state, "german", "ASSAULT DONE")
    assert state["result"]["winner"] == "soviet"


def test_concentration_and_defending_only_assaulted_buildings():
    """§Buildings C, §Strategy 6: no more formations than the Concentration Level; the Soviet defends only
    assaulted buildings."""
    state = fresh()
    while state["stack"][-1]["stage"] != "assault":
        d = engine.pending(state)[0]
        state, _ = apply(state, d.role, d.default)
    b = board(state)
    building, conc = b.district("A")["building"], b.building_of("A").concentration
    staging = b.formations_at("staging", "german")
    with pytest.raises(IllegalOrder, match="Concentration"):
        apply(state, "german", f"ASSAULT {building} WITH {' '.join(staging[:conc + 1])}")
    state, _ = apply(state, "german", f"ASSAULT {building} WITH {staging[0]}")
    state, _ = apply(state, "german", "ASSAULT DONE")
    other = board(state).district("B")["building"]
    with pytest.raises(IllegalOrder, match="assaults"):
        apply(state, "soviet", f"DEFEND {other} WITH {board(state).formations_at('staging', 'soviet')[0]}")


def test_victory_at_the_end_of_the_last_turn():
    """§Basic Game: a Building Card left at the end is a Soviet victory; none left a German one."""
    b = board(fresh())
    b.data["turn"] = 3
    end_turn(b)
    assert b.data["result"]["winner"] == "soviet"
    b = board(fresh())
    b.data["turn"] = 3
    for d in "ABCD":
        b.district(d).update(building=None, volga=True, closed=True)
    end_turn(b)
    assert b.data["result"]["winner"] == "german"


def test_campaign_hourglass_disgrace_and_effects():
    """§Campaign B-C and effects: the Soviet hourglass advances the turn; a disgrace flips Paulus once (ruling
    S-65); Execute All Commissars; Burn Militia Brigade; Discard Hand."""
    b = board(fresh())
    b.side("soviet")["campaign"] = ["S2"] + b.side("soviet")["campaign"]
    b.side("german")["campaign"] = ["G7"] + b.side("german")["campaign"]
    turn, hand = b.turn, list(b.side("german")["hand"])
    turn_campaign_cards(b)
    assert b.turn == turn + 1 and b.side("german")["hand"] == [] and b.side("german")["discard"][-len(hand):] == hand
    disgrace(b, "german")
    assert b.side("german")["commander"] == "Seydlitz"
    disgrace(b, "german")
    assert b.side("german")["commander"] == "Seydlitz"
    b.data["formations"]["Militia1"].update(at="staging", depleted=True)
    burn_militia(b)
    assert b.where("Militia1") == "ash"


def test_reinforcements_count_and_leader_cap():
    """§Strategy 3, rulings S-12, S-58: buildings in play + the Reinforcement Number; no leader past 13."""
    b = board(fresh())
    deck = len(b.side("german")["formation_deck"])
    b.side("german")["campaign_card"] = "G2"  # Reinforcement Number 2
    b.data["turn"] = 2
    reinforce(b, "german", depleted=False)
    assert deck - len(b.side("german")["formation_deck"]) == 4 + 2
    assert b.leaders_in_play("german") <= 13


def test_spellings_of_the_same_formation_are_accepted():
    """Rulings S-46 and S-49: "Army Reserves" is the Army Reserve."""
    state = fresh()
    assert engine.lexicon(state, "soviet").resolve("formation", "ArmyReserves") == "Reserve"


def test_a_soviet_vanguard_elite_s_kill_also_waits():
    """§Battle 1: the Terror Tactic of a unit a Soviet vanguard adds is the vanguard's fire: it may wait."""
    b = board(in_battle())
    b.district("B")["units"]["german"] = {}
    run(b, [item("add", "soviet", unit="Assault", defer=True)])
    assert [d["icon"] for d in b.battle["deferred"]] == ["kill"]


def test_campaign_demote_general_is_asked_of_the_german_before_the_reinforcements():
    """§Campaign Effects, Demote General (§Strategy 2 before §Strategy 3): a German Campaign Card with
    "demote x2" asks the German twice which General it demotes; a Lv. 1 General flips to Lv. 0, a Lv. 0
    General dies.  (The question used to be skipped: the stage moved on before it was asked.)"""
    state = fresh()
    state["sides"]["german"]["campaign"] = ["G8"] + [c for c in state["sides"]["german"]["campaign"] if c != "G8"]
    state, _ = defaults(state, stop=("demote",), limit=3000)
    asked = [d for d in engine.pending(state) if d.kind == "demote"]
    assert asked and asked[0].role == "german" and asked[0].default == "DEMOTE AUTO"
    chosen = asked[0].options[0].split()[1]
    level = state["formations"][chosen]["leader"]
    arrivals = len(state["sides"]["german"]["formation_deck"])
    state, _ = apply(state, "german", f"DEMOTE {chosen}")
    assert state["formations"][chosen]["leader"] == (0 if level == 1 else None)
    assert len(state["sides"]["german"]["formation_deck"]) == arrivals  # no reinforcement before the demotions
    assert [d.kind for d in engine.pending(state) if d.role == "german"] == ["demote"]  # the second of x2
    state, _ = apply(state, "german", "DEMOTE AUTO")
    assert not any(d.kind == "demote" for d in engine.pending(state))
