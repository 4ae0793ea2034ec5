"""The advanced game's rules (§Advanced, §Heroes), one test per card effect or hero rule."""

from __future__ import annotations

from moderator.games.stalingrad import actions
from moderator.games.stalingrad.heroes import snipe_hero
from tests.games.stalingrad.harness import apply, battle_position, board, defaults, fresh, if_asked, units


def advanced_battle(german=None, soviet=None, active="german", hand=()):
    state = battle_position("RedSquare", "B", german or {"71ID": 0, "14Pz": None}, soviet or {"10NKVD": 0},
                            game="advanced")
    state, _ = apply(state, "german", "FIGHT RedSquare")
    state, _ = defaults(state)
    b = board(state)
    b.battle["active"], b.battle["acted"] = active, False
    b.side(active)["hand"] += [c for c in hand if c not in b.side(active)["hand"]]
    for c in hand:
        if c in b.side(active)["deck"]:
            b.side(active)["deck"].remove(c)
    return state


def test_the_advanced_game_lasts_six_turns_with_45_card_decks():
    """§Advanced: all 45 Combat Cards in each deck; the game lasts until the 6th turn."""
    state = fresh(game="advanced")
    record = state["sides"]["german"]
    assert len(record["deck"]) + len(record["hand"]) + len(record["discard"]) == 45
    assert board(state).last_turn == 6


def test_promote_flips_a_general_and_leads_a_leaderless_formation():
    """§Advanced Promote (rulings S-40, S-67): Command Vacancies promotes four times, then a 2nd action."""
    state = advanced_battle(hand=["CommandVacancies.1"])
    state, _ = apply(state, "german", "PLAY CommandVacancies.1 ON 71ID")
    for target in ("71ID", "14Pz", "14Pz"):
        state = if_asked(state, "german", "promote", f"PROMOTE {target}")
    state, _ = defaults(state)
    assert state["formations"]["71ID"]["leader"] == 1 and state["formations"]["14Pz"]["leader"] == 1
    assert state["battle"]["active"] == "german" and state["battle"]["second"] == "used"  # ruling S-26


def test_stalins_ghost_makes_the_next_costly_card_free():
    """§Advanced Stalin's Ghost (rulings S-61, S-62)."""
    state = advanced_battle(soviet={"Militia1": 0}, active="soviet", hand=["StalinsGhost.1", "TankAmbush.1"])
    b = board(state)
    b.battle["spent"]["Militia1"] = 1
    assert not actions.card_ok_on(b, "soviet", "TankAmbush.1", "Militia1")
    state, _ = apply(state, "soviet", "PLAY StalinsGhost.1 ON Militia1")
    state, _ = defaults(state)
    assert state["battle"]["ghost"] and actions.card_ok_on(board(state), "soviet", "TankAmbush.1", "Militia1")
    state, _ = apply(state, "soviet", "PLAY TankAmbush.1 ON Militia1")
    assert not state["battle"]["ghost"]


def test_last_stand_depletes_one_of_each_and_resets_the_fire():
    """§Advanced Last Stand: one Soviet and one German formation depleted; the Fire Counter to the Ruins."""
    state = advanced_battle(active="soviet", hand=["LastStand.1"])
    state["districts"]["B"].update(fire=4, infernos=1)
    state, _ = apply(state, "soviet", "PLAY LastStand.1 ON 10NKVD")
    state = if_asked(state, "soviet", "deplete", "DEPLETE 71ID")
    state, _ = defaults(state)
    assert state["formations"]["10NKVD"]["depleted"] and state["formations"]["71ID"]["depleted"]
    assert (state["districts"]["B"]["fire"], state["districts"]["B"]["infernos"]) == (0, 1)


def test_militia_surrender_executes_rifles_anywhere_and_gives_the_german_a_2nd_action():
    """§Advanced Militia Surrender (ruling S-06): 2 discards, any 4 Rifles in play, the German's 2nd action."""
    state = advanced_battle(hand=["MilitiaSurrender.1"])
    state["districts"]["B"]["units"]["soviet"] = {"Assault": 2}
    state["districts"]["A"]["units"]["soviet"] = {"Molotov": 3}
    hand = len(state["sides"]["soviet"]["hand"])
    state, _ = apply(state, "german", "PLAY MilitiaSurrender.1 ON 71ID")
    state, _ = defaults(state)
    assert units(state, "B", "soviet") == {} and units(state, "A", "soviet") == {"Rifle": 1}
    assert len(state["sides"]["soviet"]["hand"]) == max(0, hand - 2) and state["battle"]["active"] == "german"


def test_brutal_flanking_and_forced_march():
    """§Advanced Brutal Flanking (the Soviet hand discarded, 3 Panzers) and Forced March (a new formation with
    a Lv. 0 General overruns)."""
    state = advanced_battle(hand=["BrutalFlanking.1", "ForcedMarch.1"])
    state, _ = apply(state, "german", "PLAY BrutalFlanking.1 ON 14Pz")
    state, _ = defaults(state)
    assert state["sides"]["soviet"]["hand"] == [] and units(state, "B", "german").get("Armor", 0) >= 3
    board(state).battle["active"] = "german"
    state["battle"]["acted"] = False
    before = set(state["battle"]["formations"]["german"])
    state, _ = apply(state, "german", "PLAY ForcedMarch.1 ON 71ID")
    state, _ = defaults(state)
    (new,) = set(state["battle"]["formations"]["german"]) - before
    assert state["formations"][new]["leader"] == 0 and state["formations"][new]["at"] == "B"


def test_collecting_tongues_shows_the_german_hand_to_the_soviet_only():
    """§Advanced Collecting Tongues (ruling S-64): the Soviet sees the hand and chooses the discard."""
    state = advanced_battle(active="soviet", hand=["CollectingTongues.1"])
    german = sorted(state["sides"]["german"]["hand"])
    state, _ = apply(state, "soviet", "PLAY CollectingTongues.1 ON 10NKVD")
    state, events = apply(state, "german", "INTERCEPT NONE")  # the window opens whatever the hand holds
    shown = [e for e in events if e.kind == "hand_shown"]
    assert any(e.is_visible_to("soviet") and e.data.get("cards") == german for e in shown)
    assert all("cards" not in e.data for e in shown if e.is_visible_to("observer"))
    state = if_asked(state, "soviet", "tongues", f"TONGUES {german[-1]}")
    assert german[-1] in state["sides"]["german"]["discard"]


def test_a_hero_hit_twice_dies_and_goes_to_the_ash_heap():
    """§Heroes Killing a Hero: the first Hit wounds, the second kills; the Ash Heap."""
    state = advanced_battle(hand=["OberstSelle.1"])
    state, _ = apply(state, "german", "PLAY OberstSelle.1")
    state, _ = defaults(state)
    assert state["districts"]["B"]["infernos"] >= 1  # ruling S-27: a German hero adds an Inferno
    b = board(state)
    hit = next(c.id for c in b.scenario.carnage if c.sniper == "hit")
    b.data["carnage"][0:0] = [hit, hit]
    snipe_hero(b, "soviet", "OberstSelle.1", "test")
    assert b.battle["heroes"]["OberstSelle.1"]["wounds"] == 1
    snipe_hero(b, "soviet", "OberstSelle.1", "test")
    assert "OberstSelle.1" not in b.battle["heroes"] and "OberstSelle.1" in b.data["ash"]


def test_a_hero_plays_without_formations():
    """Ruling S-36: a side with no formation in the battle may still play a hero."""
    state = advanced_battle(active="soviet", hand=["YakovPavlov.1"])
    state["formations"]["10NKVD"]["at"] = "staging"
    state["districts"]["B"]["infernos"] = 1
    b = board(state)
    assert ("YakovPavlov.1", "") in actions.playable(b, "soviet") and not b.battling("soviet")
    state, _ = apply(state, "soviet", "PLAY YakovPavlov.1")
    state, _ = defaults(state)
    assert state["districts"]["B"]["infernos"] == 0  # the Soviet hero removes one (ruling S-27)


def test_the_bot_writes_a_battle_script_with_heroes_and_intercepts():
    """The demo player plays a hero without a formation and intercepts when it holds an Intercept hero."""
    import random

    from moderator.core.bots import AskedDecision, ReportMail
    from moderator.games.stalingrad.bot import StalingradBrain
    from moderator.games.stalingrad.scenario import scenario_named

    text = ("  B Red Square [RedSquare] ruin hell, concentration 3, defense 2\n"
            "BATTLE for Red Square (district B), round 3, German to act; 2 Hold(s) left to the Break Test\n"
            "  German 71ID: 1 card(s) left; played nothing\n")
    action = AskedDecision("f1.0.german.action", "Action round", ["PLAY AssaultSquads.1 ON 71ID",
                                                                   "PLAY VonLoringhoven.1", "RELOAD", "HOLD"], "HOLD")
    window = AskedDecision("f2.0.german.intercept", "x", ["INTERCEPT NONE", "INTERCEPT HauptmannMeunch.1"],
                           "INTERCEPT NONE")
    brain = StalingradBrain("german", scenario_named("siege"), filed=True)
    lines = brain.orders(ReportMail(text, "s", "m", [], [action, window]), random.Random(1))
    assert lines == ["IF AT RedSquare: PLAY AssaultSquads.1 ON 71ID", "IF AT RedSquare: PLAY VonLoringhoven.1",
                     "IF AT RedSquare: HOLD", "IF AT RedSquare: HOLD", "INTERCEPT HauptmannMeunch.1"]
