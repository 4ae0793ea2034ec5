"""The rulebook's worked battle whole (§Example rounds 1-11, the Break Test and the Aftermath) in the advanced
game: Collecting Tongues intercepted by Hauptmann Meunch, Dig or Die!, Von Loringhoven's +2 dice and wasted
Kills, Rat's War with a 2nd action playing Tania Chernova who steals a die and wounds Von Loringhoven, the
last Hold, and the Break Test of 4 dice against 4, a Bloody Slaughter, 5 against 4 and a Soviet Victory.
Round 10 reads "decides instead to play his hero" (ruling S-45); the Aftermath's list names Militia Surrender,
which was never played, and this replay does not discard it (ruling S-47)."""

from __future__ import annotations

import pytest

from moderator.games.stalingrad.board import Board
from tests.games.stalingrad.harness import apply, carnage_with, defaults, fixed_dice, if_asked, units
from tests.games.stalingrad.test_battle_example import HANDS, in_hand, play_rounds_1_to_6

ADVANCED_HANDS = {"german": [*HANDS["german"], "HauptmannMeunch.1", "VonLoringhoven.1"],
                  "soviet": [*HANDS["soviet"], "CollectingTongues.1", "RatsWar.1", "TaniaChernova.1"]}


@pytest.fixture(scope="module")
def after_round_10():
    state, _ = play_rounds_1_to_6(ADVANCED_HANDS, [carnage_with(sniper="hit")], game="advanced")
    # Round 7: Collecting Tongues (value 0) on the 92nd; the German intercepts with Hauptmann Meunch: the card is
    # discarded unresolved, his Motor draws a card and his sniper shot kills the Soviet Recon (no Carnage card).
    in_hand(state, "soviet", "CollectingTongues.1")
    state, _ = apply(state, "soviet", "PLAY CollectingTongues.1 ON 92Bde")
    in_hand(state, "german", "HauptmannMeunch.1")
    state, events = apply(state, "german", "INTERCEPT HauptmannMeunch.1")
    state, more = apply(state, "german", "SNIPE Recon")
    state, _ = defaults(state)
    seen = {"intercept": [e.kind for e in events + more], "after_intercept": state["battle"]["active"],
            "tongues_discarded": "CollectingTongues.1" in state["sides"]["soviet"]["discard"]}
    # Round 8: Dig or Die! sacrifices the Rifle; three buckets.
    in_hand(state, "soviet", "DigOrDie.1")
    state, _ = apply(state, "soviet", "PLAY DigOrDie.1 ON 92Bde")
    state, _ = defaults(state)
    # Round 9: Von Loringhoven: +2 Break dice; three Panzers whose Kills find only shielded Forts.
    in_hand(state, "german", "VonLoringhoven.1")
    state, _ = apply(state, "german", "PLAY VonLoringhoven.1")
    state, _ = defaults(state)
    seen["after_9"] = (units(state, "B", "german"), units(state, "B", "soviet"))
    # Round 10: Rat's War takes Collecting Tongues back; the 2nd action plays Tania Chernova, who steals a die and
    # wounds Von Loringhoven (a Hit: the German discards a card).
    in_hand(state, "soviet", "RatsWar.1")
    state, _ = apply(state, "soviet", "PLAY RatsWar.1 ON 92Bde")
    state = if_asked(state, "soviet", "ratswar", "RETRIEVE CollectingTongues.1")
    state, _ = defaults(state)
    in_hand(state, "soviet", "TaniaChernova.1")
    german_hand = len(state["sides"]["german"]["hand"])
    state, _ = apply(state, "soviet", "PLAY TaniaChernova.1")
    state, _ = apply(state, "soviet", "SNIPE HERO VonLoringhoven.1")
    state, _ = defaults(state)
    seen["tania"] = (len(state["sides"]["german"]["hand"]) - german_hand, state["battle"]["heroes"])
    return state, seen


def test_round_7_the_intercept(after_round_10):
    """§Heroes Intercept and §Example round 7: the intercepted card is discarded, the Soviet acts next (S-48)."""
    _, seen = after_round_10
    assert "intercepted" in seen["intercept"] and "hero_enters" in seen["intercept"]
    assert seen["after_intercept"] == "soviet" and seen["tongues_discarded"]


def test_round_9_von_loringhoven(after_round_10):
    german, soviet = after_round_10[1]["after_9"]
    assert german == {"Armor": 5, "Grenadier": 3, "Recon": 1} and soviet == {"Fort": 3}


def test_round_10_rats_war_and_tania(after_round_10):
    state, seen = after_round_10
    change, heroes = seen["tania"]
    assert "CollectingTongues.1" in state["sides"]["soviet"]["hand"] and change == -1
    assert heroes["VonLoringhoven.1"]["wounds"] == 1 and state["battle"]["hero_dice"] == {"german": 2, "steal": 1}


def test_round_11_and_the_break_test_of_the_example(after_round_10, monkeypatch):
    """§Example: German 4 dice (formation, unit, inferno, two hero dice, one stolen), Soviet 4 (formation, two
    Defensive, the stolen one); 3,3,4,5 against 1,2,2,5 is a Bloody Slaughter; the German's four unshielded units
    die, the Soviet's three Forts are immune; the German has more units and gains a die; 1,1,3,5,6 against
    2,3,6,6: two Soviet sixes win.  Aftermath: the heroes go to the Discard Piles, Von Loringhoven healed."""
    state = after_round_10[0]
    state, _ = apply(state, "german", "HOLD")
    monkeypatch.setattr(Board, "roll", fixed_dice([[3, 3, 4, 5], [1, 2, 2, 5], [1, 1, 3, 5, 6], [2, 3, 6, 6]]))
    state, events = apply(state, "german", "TAKE FIRST")
    state, more = defaults(state)
    events += more
    dice = next(e.data for e in events if e.kind == "break_dice")
    assert (dice["german"], dice["soviet"]) == (4, 4)
    assert dice["sources"]["german"] == {"formation": 1, "heroes": 2, "inferno": 1, "stolen": -1, "unit": 1}
    assert [e.data["result"] for e in events if e.kind == "break_roll"] == ["slaughter", "soviet"]
    assert next(e.data for e in events if e.kind == "slaughter_die")["side"] == "german"
    assert units(state, "B", "german") == {"Armor": 5} and units(state, "B", "soviet") == {"Fort": 3}
    assert {"VonLoringhoven.1", "HauptmannMeunch.1"} <= set(state["sides"]["german"]["discard"])
    assert "TaniaChernova.1" in state["sides"]["soviet"]["discard"]
    assert "MilitiaSurrender.1" not in state["sides"]["german"]["discard"]
