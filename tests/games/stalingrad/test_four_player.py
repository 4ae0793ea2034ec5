"""§Four Player, clause by clause, with the rulings that settle what it leaves open (RULINGS.md S-28 to S-31,
S-41, S-81 to S-83): four seats, each with his own commander, hand and formations; the side's questions put to
the seat at the table; the division of formations; battles owned by one seat a side; cards given between
teammates; commanders replaced."""

from __future__ import annotations

import pytest

from moderator.core.errors import IllegalOrder, ParseError
from moderator.games.stalingrad import teams
from moderator.games.stalingrad.engine import engine
from moderator.games.stalingrad.seating import ALL_SEATS, FOUR_PLAYER
from tests.games.stalingrad.harness import apply, board, defaults, rng


def four(seed: int = 1, **options):
    return engine.setup(FOUR_PLAYER, options, rng(seed))


def hand(state, seat):
    return teams.hand_of(board(state), seat)


def commander(state, seat):
    return teams.commander_of(board(state), seat).id


def asked(state):
    return {(d.role, d.kind) for d in engine.pending(state)}


# ---------------------------------------------------------------- ¶1: an advanced game, a commander each


def test_p1_the_four_player_game_is_the_advanced_game():
    """§Four Player ¶1: "run as a normal Advanced Game" (6 turns, all 45 cards a side) whatever `game` says."""
    state = four(game="basic")
    assert state["options"]["game"] == "advanced" and board(state).last_turn == 6
    for side, seats in (("german", ("paulus", "wietersheim")), ("soviet", ("lopatin", "saraev"))):
        held = sum(len(hand(state, seat)) for seat in seats)
        assert held + len(state["sides"][side]["deck"]) == 45


def test_p1_each_player_draws_his_own_commander_s_hand_size():
    """§Four Player ¶1 with §Commanders A: "each player control[s] his own commander ... used to determine a
    player's hand size" (ruling S-81: one Combat Deck a side, Paulus / Lopatin drawing first)."""
    state = four()
    b = board(state)
    for seat in ALL_SEATS:
        assert len(hand(state, seat)) == teams.commander_of(b, seat).hand
    assert [commander(state, seat) for seat in ALL_SEATS] == ["Paulus", "Wietersheim", "Lopatin", "Saraev"]
    assert engine.info.roles(FOUR_PLAYER) == ALL_SEATS


def wietersheim_s_battle(seed: int = 1):
    """Paulus maneuvers nothing, Wietersheim assaults with one of his formations: the battle is his (S-30)."""
    state, _ = defaults(four(seed), stop=("assault",))
    state, _ = apply(state, "paulus", "ASSAULT DONE")
    option = next(d for d in engine.pending(state) if d.kind == "assault").options[0]
    state, _ = apply(state, "wietersheim", option)
    state, _ = apply(state, "wietersheim", "ASSAULT DONE")
    for _ in range(20):
        state, _ = defaults(state, stop=("action",))
        action = next(d for d in engine.pending(state) if d.kind == "action")
        if action.role == "wietersheim":
            return state
        state, _ = apply(state, action.role, "HOLD")
    raise AssertionError("Wietersheim was never asked for an action")


def test_p1_a_reload_fills_the_reloading_player_s_hand_to_his_own_commander_s_size():
    """§Four Player ¶1: the new commander "is referenced when a Reload Action is taken"."""
    state = wietersheim_s_battle()
    assert board(state).seated("german") == "wietersheim"
    discards = " ".join(hand(state, "wietersheim"))
    paulus = list(hand(state, "paulus"))
    state, events = apply(state, "wietersheim", f"RELOAD DISCARD {discards}" if discards else "RELOAD")
    drawn = [e.data["cards"] for e in events
             if e.kind == "drew" and e.data["why"] == "Reload Hand" and "cards" in e.data]
    assert [len(cards) for cards in drawn] == [4] == [teams.commander_of(board(state), "wietersheim").hand]
    assert hand(state, "paulus") == paulus  # Paulus' hand (size 5) waits untouched (ruling S-81)


# ---------------------------------------------------------------- ¶2: the new commanders' replacements


def test_p2_wietersheim_gives_way_to_hube_when_no_panzer_division_is_in_play():
    """§Four Player ¶2 ("replaced by General Hube any time there are no Panzer Divisions on the Staging Line"),
    ruling S-28: checked at the end of each battle and the start of each Strategy Phase from turn 2."""
    state = four()
    b = board(state)
    for f in b.scenario.formations_of("german"):
        if f.kind == "panzer":
            b.data["formations"][f.id]["at"] = "deck"
    b.data["formations"]["14Pz"]["at"] = "staging"
    teams.check_commanders(b)
    assert commander(state, "wietersheim") == "Wietersheim"
    b.data["formations"]["14Pz"]["at"] = "destroyed"
    teams.check_commanders(b)
    assert commander(state, "wietersheim") == "Hube" and commander(state, "paulus") == "Paulus"
    assert [e.data["replacement"] for e in b.events if e.kind == "commander_replaced"] == ["General Hube"]


def test_p2_saraev_is_replaced_when_the_10th_nkvd_goes_to_the_ash_heap_and_only_once():
    """§Four Player ¶2: "Colonel Saraev ... is replaced when the 10th NKVD is sent to the Ash Heap"; a
    replacement stays (§Commanders)."""
    state = four()
    b = board(state)
    b.data["formations"]["16Pz"]["at"] = "staging"
    teams.check_commanders(b)
    assert commander(state, "saraev") == "Saraev"
    b.destroy_formation("10NKVD", "test")
    teams.check_commanders(b)
    teams.check_commanders(b)
    assert commander(state, "saraev") == "Rogatin" and commander(state, "lopatin") == "Lopatin"
    assert sum(e.kind == "commander_replaced" for e in b.events) == 1


def test_p2_no_commander_is_replaced_before_turn_one_s_reinforcements():
    """Ruling S-28: the turn-1 Strategy Phase starts with no Panzer Division in play, Wietersheim stays."""
    state, _ = defaults(four(), stop=("assault",))
    assert commander(state, "wietersheim") == "Wietersheim"


# ---------------------------------------------------------------- ¶3: each player's own formations


def test_p3_the_starting_formations_are_divided_and_the_fixed_ones_go_to_their_owners():
    """§Four Player ¶3 ("the player who has Saraev always uses the 10th NKVD and the player who owns
    Wietersheim always owns the 14th Panzer"), ruling S-29: alternate picks, the one with fewer first."""
    state = four()
    starting = {"71ID": "paulus", "76ID": "wietersheim", "295ID": "paulus", "94ID": "wietersheim",
                "10NKVD": "saraev", "35Gd": "lopatin", "42Bde": "lopatin", "112RD": "saraev"}
    assert {f: state["owners"][f] for f in starting} == starting
    b = board(state)
    for formation, record in b.data["formations"].items():
        record["at"] = "staging" if formation in starting or formation in ("14Pz", "16Pz", "24Pz") else "deck"
    b.data["owners"] = dict(starting)
    teams.divide_formations(b)
    assert [state["owners"][f] for f in ("14Pz", "16Pz", "24Pz")] == ["wietersheim", "paulus", "paulus"]


def test_p3_each_player_maneuvers_only_his_own_formations_paulus_first():
    """§Four Player ¶3 "each player controls their own formations", ruling S-81: the German seats maneuver in
    turn (Paulus first, Wietersheim after Paulus' DONE), then the Soviet seats."""
    state, _ = defaults(four(), stop=("assault",))
    assert asked(state) == {("paulus", "assault")}
    mine = set(teams.owned(board(state), "paulus"))
    options = next(d for d in engine.pending(state) if d.kind == "assault").options
    assert {o.split()[-1] for o in options if o.startswith("ASSAULT ") and "WITH" in o} <= mine
    theirs = next(f for f in teams.owned(board(state), "wietersheim") if board(state).where(f) == "staging")
    target = board(state).district("A")["building"]
    with pytest.raises(IllegalOrder, match="not one of your formations"):
        apply(state, "paulus", f"ASSAULT {target} WITH {theirs}")
    state, _ = apply(state, "paulus", "ASSAULT DONE")
    assert asked(state) == {("wietersheim", "assault")}
    assert "ASSAULT DONE" not in next(d for d in engine.pending(state)).options  # the side must assault (S-53)


def test_p3_no_question_ever_goes_to_a_side_only_to_a_seat():
    state = four(3)
    for _ in range(60):
        pending = engine.pending(state)
        assert pending and {d.role for d in pending} <= set(ALL_SEATS)
        state, _ = engine.apply(state, pending[0].role, engine.legal_orders(state, pending[0])[0], rng(5))


# ---------------------------------------------------------------- ¶4: battles, trades, cards into a battle


def battle_started(seed: int = 1):
    """A four-player game just after its first battle began (everything before answered by default)."""
    state, _ = defaults(four(seed), stop=("give", "action", "holdpick"))
    assert state["battle"] is not None
    return state


def test_p4_each_battle_is_fought_by_the_seat_with_more_formations_there():
    """§Four Player ¶4 "each player only fights one battle at a time", ruling S-30: one owner a side."""
    state = battle_started()
    b = board(state)
    for side, seats in (("german", ("paulus", "wietersheim")), ("soviet", ("lopatin", "saraev"))):
        there = state["battle"]["formations"][side]
        counts = [sum(1 for f in there if state["owners"].get(f) == seat) for seat in seats]
        expected = seats[1] if counts[1] > counts[0] else seats[0]
        assert b.seated(side) == expected, (side, counts)


def test_p4_a_teammate_gives_cards_and_the_owner_plays_them():
    """§Four Player ¶4 "trade cards, and play Combat Cards into each others battles", ruling S-83: GIVE passes
    cards to the battle's owner, who may play them as his own; the opponents learn only how many."""
    state = battle_started()
    givers = [d.role for d in engine.pending(state) if d.kind == "give"]
    assert givers
    giver = givers[0]
    owner = teams.TEAMMATE[giver]
    card = sorted(hand(state, giver))[0]
    state, events = apply(state, giver, f"GIVE {card}")
    assert card in hand(state, owner) and card not in hand(state, giver)
    given = [e for e in events if e.kind == "cards_given"]
    foe = next(s for s in ALL_SEATS if teams.SIDE_OF[s] != teams.SIDE_OF[giver])
    assert [e.data.get("cards") for e in given if e.is_visible_to(owner)] == [[card]]
    assert [e.data.get("count") for e in given if e.is_visible_to(foe)] == [1]
    for other in [d.role for d in engine.pending(state) if d.kind == "give"]:
        state, _ = apply(state, other, "GIVE NONE")
    state, _ = defaults(state, stop=("action",))
    action = next((d for d in engine.pending(state) if d.role == owner and d.kind == "action"), None)
    if action is not None:
        assert any(o.startswith(f"PLAY {card}") for o in action.options) or board(state).scenario.card_of(card).hero


def test_p4_a_card_not_held_cannot_be_given():
    state = battle_started()
    giver = next(d.role for d in engine.pending(state) if d.kind == "give")
    foreign = sorted(hand(state, teams.TEAMMATE[giver]))[0]
    with pytest.raises(ParseError, match=foreign):  # a teammate's card is not a name the giver may use
        apply(state, giver, f"GIVE {foreign}")


def test_p4_the_standing_default_is_to_give_nothing():
    """Ruling S-83: GIVE NONE answers for every seat unless he files otherwise, so nobody is asked unasked."""
    give = next(d for d in engine.info.standing_defaults if d.kind == "give")
    assert give.answer == "GIVE NONE" and set(give.roles) == set(ALL_SEATS)


# ---------------------------------------------------------------- rulings on side-wide effects


def test_s31_a_campaign_discard_hand_empties_both_hands_of_the_side():
    """Ruling S-31: Discard Hand acts on both players of the side (the senior sits at the table)."""
    from moderator.games.stalingrad.campaign import _campaign_effect

    state = four()
    b = board(state)
    _campaign_effect(b, "german", "discard_hand")
    assert hand(state, "paulus") == [] and hand(state, "wietersheim") == []
    assert hand(state, "lopatin") and hand(state, "saraev")


def test_s82_teammates_hands_in_the_report_open_or_closed():
    """Ruling S-82: the view shows the teammate's hand with hands open, only its size with them closed."""
    for hands, shown in (("open", True), ("closed", False)):
        state = four(teammate_hands=hands)
        view = engine.view(state, "wietersheim")
        assert (view["teammate"] is not None) == shown
        seats = {s["seat"]: s for s in view["seats"]}
        assert seats["paulus"]["hand"] == len(hand(state, "paulus"))
        assert {c["id"] for c in view["hand"]} == set(hand(state, "wietersheim"))
