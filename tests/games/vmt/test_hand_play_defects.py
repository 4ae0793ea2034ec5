"""Defects found when a whole VMT game was played by hand by mail as the Axis (issue 12): each test
names the mail that showed it and the rule it rests on."""

from __future__ import annotations

from moderator.core.contract import Event
from moderator.games.vmt.engine import engine
from moderator.games.vmt.frames import options_as_orders
from tests.games.vmt.harness import Position


def on_map(layout: str, *axis_cards: str, soviet_cards: tuple[str, ...] = (), options=None) -> Position:
    """Only these blocks on the map, each area held by the side whose blocks are in it; hands as given."""
    pos = Position(options=options).clear().place(layout)
    for entry in pos.state["blocks"].values():
        if entry["status"] == "map":
            pos.control(entry["area"], entry["side"])
    return pos.hand("axis", *axis_cards).hand("soviet", *soviet_cards)


def narrated(pos: Position, kind: str, role: str = "axis") -> str:
    event = [e for e in pos.events if e.kind == kind][-1]
    return engine.narrate(event, role)


def soviet_phase_with_air_window(layout: str, *axis_cards: str, options=None) -> Position:
    """The Soviet action phase at the window before its next card (ruling R-AIR)."""
    pos = on_map(layout, *axis_cards, soviet_cards=("assault",), options=options).phase("soviet")
    pos.top()["air_window"] = True
    return pos


# ---------------------------------------------------------------- 1. IF AREA (mails 043, 054, 081)


def test_area_fits_only_a_question_about_that_area_not_the_last_combat_s():
    """Ruling R-AIR: the window "before the next Soviet card" is about no area (its Air Strike may go
    anywhere, L453), so `STANDING air IF AREA A12: ...` must not answer it because the last combat was in
    A12 (mail 054 spent an Air Strike there); the entry window for A12 is about A12."""
    pos = soviet_phase_with_air_window("A09: 24/31 | A12: 25/54 | C05: 7NI", "air_strike")
    pos.state["last_combat"] = {"area": "A12", "attacker": "axis", "winner": "soviet", "battery": False}
    (window,) = pos.pending("axis")
    assert window.kind == "air" and window.prompt.startswith("Before the next Soviet card")
    view = engine.view(pos.state, "axis")
    assert not engine.condition("AREA", view, window, ["A12"])
    pos.order("axis", "AIRSTRIKE NONE")
    pos.auto = ()
    pos.play("soviet", "ASSAULT GROUP C05 TO C04")
    (entry,) = pos.pending("axis")
    assert entry.context["area"] == "C04" and engine.condition("AREA", view, entry, ["C04"])


# ---------------------------------------------------------------- 2. cancelled hits (mails 012, 027, 050)


def stug_attack(soviet_die: int) -> Position:
    """50/121 50/122 with STUGB attack 25/54 in A06 (rough, Soviet trench): Axis 3 dice (2 blocks, more SP
    +1, rough -1, StuG +1, L274-290), all 1s; the Soviet's one die, +1 for the trench (L296)."""
    pos = on_map("A08: 50/121 50/122 | A06: 25/54", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A08")
    pos.order("axis", "ASSETS ARMOR STUGB A08")
    pos.order("axis", "MOVE 50/121 50/122 TO A06 WITH STUGB")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[1, 1, 1, soviet_die])
    return pos


def test_a_cancellation_is_told_only_when_it_took_a_hit_and_names_what_took_it():
    """L252: the StuG "subtract[s] one hit from the hit inflicted by the Soviets". With no Soviet hit
    nothing was cancelled (mail 012 said "Soviet 0 hit(s) (1 Soviet hit(s) cancelled)")."""
    missed = narrated(stug_attack(soviet_die=1), "combat_roll")
    assert "Hits scored: Axis 0 hit(s), Soviet 0 hit(s)." in missed and "cancel" not in missed
    hit = stug_attack(soviet_die=4)  # 4 + 1 (trench) = 5: a hit, which the StuG takes away
    assert hit.last("combat_roll")["cancelled"] == {"axis": 0, "soviet": 1}
    assert "Soviet 0 hit(s) (1 Soviet hit cancelled by the Axis STUGB)" in narrated(hit, "combat_roll")


# ---------------------------------------------------------------- 3. assets in a retreat (mail 016)


def test_a_beaten_attacker_s_counters_go_home_with_the_blocks_they_came_with():
    """L230 ("They always have to remain with at least one block"; they move with blocks that began in
    the same area) and L270 ("attacking blocks must retreat to the area they came from"): STUGB and APIOB
    attacked from A08 with division 50, so they go back to A08, not with the 22nd to A03 (mail 016)."""
    pos = on_map("A08: 50/121 50/122 22/65 | A03: 22/16 22/47 | A06: 25/54", "assault", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT DIVISION 50")
    pos.order("axis", "COORDINATE 22")
    pos.order("axis", "ASSETS ARMOR STUGB A08 PIONEER APIOB A08")
    pos.order("axis", "MOVE 50/121 50/122 TO A06 WITH STUGB APIOB")
    pos.order("axis", "MOVE 22/16 22/47 TO A06")
    pos.order("axis", "RESOLVE A06")
    pos.order("axis", "SUPPORT NONE")
    # Axis 5 dice (4 blocks, more SP +1, rough -1, StuG +1): no hit; the Soviet's 6 is cancelled by the
    # StuG: a tie, which the defender in its intact trench wins (L362).
    pos.order("soviet", "SUPPORT NONE", dice=[1, 1, 1, 1, 1, 6])
    assert pos.last("combat_result")["winner"] == "soviet"
    assert (pos.where("50/121"), pos.where("22/16")) == ("A08", "A03")
    assert pos.asset_at("STUGB")[:2] == ("map", "A08") and pos.asset_at("APIOB")[:2] == ("map", "A08")


# ---------------------------------------------------------------- 4. complete Air Strike options (mail 018)


def test_interdiction_options_list_every_area_without_a_marker_and_the_relocations():
    """L453: the marker goes "in any area on the map"; L457: with both markers on the map the Axis may
    withdraw either to relocate it. Mail 018 listed only the areas near Soviet blocks."""
    pos = soviet_phase_with_air_window("A04: 50/121 | C05: 7NI", "air_strike", "air_strike")
    pos.marker("A11", "interdiction")
    (window,) = pos.pending("axis")
    interdicted = {o.split()[2] for o in window.options if o.startswith("AIRSTRIKE INTERDICT")}
    assert interdicted == set(pos.board.geo.areas) - {"A11"}  # A01 and A04, far from any Soviet, too
    assert not any("REMOVING" in o for o in window.options)  # one marker of two: nothing to relocate
    pos.illegal("axis", "AIRSTRIKE INTERDICT A04 REMOVING A11", because=r"REMOVING relocates one of the "
                r"Interdiction markers when all 2 are on the map")
    pos.order("axis", "AIRSTRIKE INTERDICT A04")
    pos.top()["air_window"] = True
    (window,) = pos.pending("axis")
    assert {"AIRSTRIKE INTERDICT A01 REMOVING A04", "AIRSTRIKE INTERDICT A01 REMOVING A11"} <= set(window.options)
    assert len(options_as_orders(pos.board, window)) == len(window.options)  # each one an order


# ---------------------------------------------------------------- 5. NONE the only answer (mail 038)


def test_a_window_without_its_card_is_still_asked_and_says_why_none_is_the_only_answer():
    """L439 (a Counterattack needs the card), ruling R-WINDOW: the window after an Axis combat is asked of a
    Soviet who filed ASK whatever he holds, or its wait would tell the Axis that he holds the card (DESIGN
    §4); mail 038 offered COUNTERATTACK NONE alone without a word, so the question now says why."""
    pos = on_map("A04: 24/31 | A08: 25/54 | A12: 25/31", "assault", soviet_cards=("assault",)).phase("axis")
    pos.order("axis", "ASSAULT GROUP A04 TO A08")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[1, 1])
    (window,) = pos.pending("soviet")
    assert window.kind == "counterattack" and window.options == ("COUNTERATTACK NONE",)
    assert "You hold no Counterattack card, so NONE is your only answer" in window.prompt
    pos = on_map("A04: 24/31 | A08: 25/54 | A12: 25/31", "assault", soviet_cards=("counterattack",)).phase("axis")
    pos.order("axis", "ASSAULT GROUP A04 TO A08")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[1, 1])
    (window,) = pos.pending("soviet")
    assert "COUNTERATTACK GROUP A12" in window.options and "You hold no" not in window.prompt


def test_a_retreat_into_an_interdicted_area_asks_the_axis_nothing_whatever_it_holds():
    """L457: the marker already there attacks the retreating block; a second Interdiction there is no answer
    (one marker of a type per area, L234) and an attack is only on blocks entering an Axis area (L455).
    Even an Air Strike allows nothing but NONE, as both players see: no question (ruling R-WINDOW)."""
    for axis_cards in (("assault", "air_strike"), ("assault",)):
        pos = on_map("A10: 24/31 24/32 | A11: 25/54", *axis_cards).marker("A12", "interdiction").phase("axis")
        pos.auto = ()
        pos.order("axis", "ASSAULT GROUP A10")
        pos.order("axis", "MOVE 24/31 24/32 TO A11")
        pos.order("axis", "SUPPORT NONE")
        pos.order("soviet", "SUPPORT NONE", dice=[5, 1, 1] + [1])
        pos.order("soviet", "RETREAT TO A12", dice=[1])  # the Interdiction die
        assert pos.last("interdiction")["area"] == "A12"
        assert [(d.role, d.kind) for d in pos.pending()] == [("soviet", "counterattack")]


# ---------------------------------------------------------------- 6. several cards to discard (mails 002, 005)


def test_the_discard_options_say_that_several_cards_may_be_named():
    """L124 (Initial Bombardment a): "discard as many cards from their hand as desired") and L144 (a Pass
    likewise, and withdraws assets): one option names every card, labelled "any one or more of them"."""
    pos = Position()
    pos.hand("axis", "88mm", "assault", "assault", "air_strike", "redeployment")
    (discard,) = pos.pending("axis")
    assert discard.options == ("DISCARD NONE", "DISCARD 88MM ASSAULT ASSAULT REDEPLOYMENT  (any one or more of them)")
    pos.order("axis", "DISCARD ASSAULT 88MM")
    assert pos.last("bombard_discard")["cards"] == ["assault", "88mm"]
    pos = on_map("A04: 50/121", "assault", "88mm").asset("STUGB", "A04").phase("axis")
    (card,) = pos.pending("axis")
    assert {"PASS DISCARD 88MM ASSAULT  (any one or more of them)", "PASS WITHDRAW STUGB",
            "PASS DISCARD 88MM ASSAULT WITHDRAW STUGB  (any of the cards, any of the counters)"} <= set(card.options)
    assert len(options_as_orders(pos.board, card)) == len(card.options)


# ---------------------------------------------------------------- 7. text slips (mails 007, 036, 061)


def test_battery_assault_marker_and_superheavy_texts_read_as_english():
    """Mail 036 "the battery ofA07"; mail 007 "A INTERDICTION marker"; mail 061 said Superheavy
    Artillery's one hit fell "at random among the Soviet blocks" when L471 puts the first on the battery."""
    pos = on_map("C08: 132/436 | C03: 7NI", "assault").phase("axis")
    pos.order("axis", "ASSAULT GROUP C08")
    pos.order("axis", "STORM C08", dice=[6, 1, 1])
    assert "attacks the battery of C08 with 1 block(s)" in narrated(pos, "combat")
    pos = on_map("A04: 50/121 | A07: 172/514", "air_strike", "superheavy_artillery").phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT A11")
    assert narrated(pos, "marker_placed") == "An Interdiction marker is placed in A11."
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A07", dice=[6, 1, 1])
    assert narrated(pos, "bombardment").endswith("hits on 6+: 1, on the battery.")
    pos = on_map("A04: 50/121 | A05: 172/514 172/747", "superheavy_artillery").phase("axis")
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A05", dice=[6, 6, 1])
    assert narrated(pos, "bombardment").endswith(
        "hits on 6+: 2, the first on the battery, the other 1 at random among the Soviet blocks there.")


def test_marker_articles():
    """'An AT marker', 'A Bunker marker' (mail 007's "A INTERDICTION" and the like "A AT", "A BUNKER")."""
    placed = [engine.narrate(Event("marker_placed", {"marker": kind, "area": "A06"}), "axis")
              for kind in ("at", "bunker", "minefield", "interdiction")]
    assert placed == ["An AT marker is placed in A06.", "A Bunker marker is placed in A06.",
                      "A Minefield marker is placed in A06.", "An Interdiction marker is placed in A06."]
