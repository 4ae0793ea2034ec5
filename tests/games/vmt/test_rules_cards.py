"""The Cards section (L431-517) outside combat: Assault, Counterattack, Fighter Escort, Fighter
Cover, Air Strike (both modes, Interdiction), Redeployment, Heavy, Superheavy, Soviet Coastal and
Soviet Field Artillery, with asset placement (L178, L228, L234).  One clause per test."""


from tests.games.vmt.harness import Position

NO_AIR_AUTO = ("cover", "escort")  # the test answers the Axis Air Strike windows itself
NO_COVER_AUTO = ("air", "escort")  # the test answers Fighter Cover itself


def total_sp(pos: Position, *blocks: str) -> int:
    return sum(pos.sp(b) for b in blocks)


# ---------------------------------------------------------------- Assault (L166-178, L194, L435)


def test_assault_group_moves_blocks_of_one_area_to_one_or_more_adjacent_areas():
    """L172: an Assault moves a group of 1 to 3 blocks from the same area to one or more adjacent
    areas; moving into an enemy-occupied area starts a combat."""
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 50/123 | A09: 24/31 | A08: 3NI")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A04")
    assert sorted(pos.top()["blocks"]) == ["50/121", "50/122", "50/123"]  # not 24/31 in A09
    pos.order("axis", "MOVE 50/121 TO A01")
    pos.order("axis", "MOVE 50/122 TO A03")
    assert (pos.where("50/121"), pos.where("50/122")) == ("A01", "A03")
    pos.illegal("axis", "MOVE 24/31 TO A13", because=r"24/31 is not activated by this card")
    pos.order("axis", "MOVE 50/123 TO A08")
    combat = pos.top()
    assert combat["kind"] == "combat" and combat["area"] == "A08"
    assert [e["block"] for e in combat["attackers"]] == ["50/123"]


def test_assault_division_activates_division_plus_stacked_non_divisional_blocks():
    """L176, L435: an Assault may activate ALL the blocks of ONE division wherever they are, plus
    the non-divisional blocks stacked with at least one of them; its marker goes on the card."""
    pos = Position().clear()
    pos.place("A04: 50/121 213 22/16 | A09: 50/122 | A13: 50/123")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT DIVISION 50")
    assert pos.last("card_played")["divisions"] == ["50"]
    assert sorted(pos.top()["blocks"]) == ["213", "50/121", "50/122", "50/123"]
    pos = Position().clear()
    pos.place("A04: 50/121 | A01: 213")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT DIVISION 50")
    assert pos.top()["blocks"] == ["50/121"]  # 213 is not stacked with the 50th


def test_assault_moves_one_area_only():
    """L194, L435: with an Assault, blocks usually move only ONE area."""
    pos = Position().clear()
    pos.place("A04: 50/121")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 50/121 TO A02 VIA A01",
                because=r"only two-area movers may move two areas with an Assault")


def test_two_area_movers_move_two_areas_and_attack_in_the_second():
    """L194, L435: blocks with the two-area symbol may move up to TWO areas with an Assault and
    attack the enemy in the second area they enter."""
    pos = Position().clear()
    pos.place("B11: 28/49 | B05: 388/773")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP B11")
    pos.order("axis", "MOVE 28/49 TO B05 VIA B10")
    combat = pos.top()
    assert combat["kind"] == "combat" and combat["area"] == "B05"
    assert combat["attackers"][0]["origin"] == "B11"


def test_two_area_move_stops_in_an_enemy_occupied_first_area():
    """L194, L266: a move ends where it enters enemy blocks (there it attacks); it cannot go on."""
    pos = Position().clear()
    pos.place("B11: 28/49 | B10: 388/773")
    pos.control("B10", "soviet")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP B11")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 28/49 TO B05 VIA B10", because=r"B10 holds enemy blocks: movement stops there")


def test_assault_places_one_armor_and_one_pioneer_before_moving():
    """L178, L228, L435: an Assault places ONE Armor and ONE Pioneer counter, each with friendly
    blocks (not necessarily together, with blocks that move or not), before any block moves."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A09: 24/31 | A08: 3NI")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS ARMOR STUGA A04 PIONEER APIOA A09")
    assert (pos.state["assets"]["STUGA"]["area"], pos.state["assets"]["APIOA"]["area"]) == ("A04", "A09")
    assert pos.last("assets_placed")["assets"] == [{"asset": "STUGA", "type": "stug", "area": "A04"},
                                                   {"asset": "APIOA", "type": "axis_pioneer", "area": "A09"}]
    assert [d.kind for d in pos.pending("axis")] == ["move"]  # one placement per card, then the moves
    pos.order("axis", "MOVE 50/121 TO A01 WITH STUGA")
    assert pos.state["assets"]["STUGA"]["area"] == "A01"


def test_assets_only_with_friendly_blocks_and_one_of_a_type_per_area():
    """L228, L234: an asset goes into an area with the player's blocks, not already containing a
    counter of its type; all Axis armor counts as one type."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A09: 24/31")
    pos.asset("PZ3", "A04").asset("APIOA", "A09")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.illegal("axis", "ASSETS ARMOR STUGA A04",
                because=r"A04 already has your armor counter: one of each type per area")
    pos.illegal("axis", "ASSETS PIONEER APIOB A09",
                because=r"A09 already has your pioneer counter: one of each type per area")
    pos.illegal("axis", "ASSETS ARMOR STUGA A01",
                because=r"an asset goes with your blocks, and you have none in A01")
    pos.order("axis", "ASSETS ARMOR STUGA A09 PIONEER APIOB A04")
    assert pos.board.assets_in("A04") == ["PZ3", "APIOB"] and pos.board.assets_in("A09") == ["STUGA", "APIOA"]


# ---------------------------------------------------------------- Fighter Escort (L443-445)


def strike_answered_by_cover(escort: bool, last_cover: bool = False) -> Position:
    """The Axis plays an Air Strike on Perekop in A08; the Soviet answers with Fighter Cover."""
    pos = Position(auto=("air",) if escort else ("air", "escort"))
    pos.clear().place("A04: 50/121 | A08: Perekop")
    pos.hand("axis", "air_strike", *(["fighter_escort"] if escort else []))
    pos.hand("soviet", "fighter_cover")
    if last_cover:  # the other Fighter Cover was eliminated earlier
        held = pos.state["hands"]["soviet"]
        pos.state["removed"].append(next(c for c, t in pos.state["cards"].items()
                                         if t == "fighter_cover" and c not in held))
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE ATTACK A08")
    pos.order("soviet", "COVER")
    return pos


def test_fighter_escort_negates_fighter_cover_and_eliminates_it():
    """L445 (ruling R-ESCORT): right after a Fighter Cover, the Axis may play Fighter Escort: the
    Cover is negated and eliminated from play, the Escort goes to the Axis discard pile, and the
    Air Strike takes effect."""
    pos = strike_answered_by_cover(escort=True)
    assert pos.pending("axis")[0].kind == "escort"
    pos.order("axis", "ESCORT", dice=[6, 5, 1])  # A08: intact Soviet trench, only the 6 hits
    assert pos.last("bombardment")["hits"] == 1 and pos.sp("Perekop") == 3
    assert pos.removed() == ["fighter_cover"]
    assert pos.cards("axis", "discards") == ["air_strike", "fighter_escort"]
    assert pos.cards("soviet", "discards") == []


def test_fighter_escort_eliminated_with_the_second_and_last_fighter_cover():
    """L445: if the Cover eliminated was the second and last Soviet Fighter Cover, the Escort is also
    eliminated from play instead of going to the Axis discard pile."""
    pos = strike_answered_by_cover(escort=True, last_cover=True)
    pos.order("axis", "ESCORT", dice=[1, 1, 1])
    assert pos.removed() == ["fighter_cover", "fighter_cover", "fighter_escort"]
    assert pos.cards("axis", "discards") == ["air_strike"]


def test_fighter_escort_also_negates_fighter_cover_played_as_an_order():
    """L445 (ruling R-ESCORT): the Escort negates a Fighter Cover played either way; against the
    Order the Interdiction marker stays."""
    pos = Position(auto=("air",))
    pos.clear().place("C03: 7NI")
    pos.marker("C05", "interdiction")
    pos.hand("axis", "fighter_escort")
    pos.hand("soviet", "fighter_cover")
    pos.phase("soviet")
    pos.order("soviet", "PLAY FIGHTER_COVER C05")
    pos.order("axis", "ESCORT")
    assert pos.board.marker("C05", "interdiction") is True
    assert pos.removed() == ["fighter_cover"]


# ---------------------------------------------------------------- Fighter Cover (L447-449, L394)


def test_fighter_cover_reaction_discards_the_air_strike_without_effect():
    """L449: as a Reaction right after the Axis plays an Air Strike, Fighter Cover makes the Air
    Strike be discarded without effect."""
    pos = strike_answered_by_cover(escort=False)  # the Axis holds no Escort
    assert pos.last("strike_cancelled") == {"area": "A08"}
    assert pos.kinds("bombardment") == [] and pos.sp("Perekop") == 4
    assert pos.cards("axis", "discards") == ["air_strike"]
    assert pos.cards("soviet", "discards") == ["fighter_cover"]


def test_fighter_cover_order_removes_an_interdiction_marker_for_later_use():
    """L449: as an Order, Fighter Cover removes an Axis Interdiction marker from the map; the marker
    is available again later (so the Axis again has two to place before relocating)."""
    pos = Position(auto=("air", "cover"))
    pos.clear().place("A04: 50/121 | C03: 7NI")
    pos.hand("axis", "air_strike", "air_strike", "air_strike")
    pos.hand("soviet", "fighter_cover")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C05")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C09")
    pos.order("axis", "END")
    pos.order("soviet", "PLAY FIGHTER_COVER C05")
    pos.order("axis", "ESCORT NONE")
    assert pos.board.markers_on_map("interdiction") == ["C09"]
    assert pos.last("marker_removed") == {"area": "C05", "marker": "interdiction", "by": "Fighter Cover"}
    assert "fighter_cover" in pos.cards("soviet", "discards")
    pos.order("soviet", "END")  # the Axis phase of turn 2 begins
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C11")
    assert pos.board.markers_on_map("interdiction") == ["C09", "C11"]  # no relocation needed


def test_fighter_cover_needs_a_soviet_controlled_airbase():
    """L394, L449 (ruling R-COVER): Fighter Cover cannot be played while every airbase area (C04,
    C07) is Axis controlled: the Air Strike is not answered and the Order is refused; the card stays
    in hand until an airbase is regained, or is discarded on a Pass."""
    pos = Position(auto=("air", "escort"))
    pos.clear().place("C04: 50/121 | C07: 50/122 | C05: 7NI")
    pos.control("C04", "axis").control("C07", "axis")
    pos.marker("C09", "interdiction")
    pos.hand("axis", "air_strike")
    pos.hand("soviet", "fighter_cover", "assault")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE ATTACK C05", dice=[5, 1, 1])  # no Cover window: it strikes
    assert pos.last("bombardment")["hits"] == 1 and pos.sp("7NI") == 3
    pos.order("axis", "END")
    pos.illegal("soviet", "PLAY FIGHTER_COVER C09",
                because=r"Fighter Cover needs a Soviet-controlled airbase")
    pos.order("soviet", "PASS DISCARD FIGHTER_COVER")
    assert pos.cards("soviet", "discards") == ["fighter_cover"]


def test_fighter_cover_playable_with_one_airbase_still_soviet():
    """L394: controlling at least one airbase area is enough for Fighter Cover."""
    pos = Position(auto=("air", "escort"))
    pos.clear().place("C04: 50/121 | C03: 7NI")
    pos.control("C04", "axis")  # C07 is still Soviet
    pos.marker("C09", "interdiction")
    pos.hand("axis", "assault")
    pos.hand("soviet", "fighter_cover")
    pos.phase("soviet")
    pos.order("soviet", "PLAY FIGHTER_COVER C09")
    assert pos.board.markers_on_map("interdiction") == []


# ---------------------------------------------------------------- Air Strike (L451-457)


def test_air_strike_attack_3d6_hits_on_5_or_6_at_random_among_soviet_blocks():
    """L453-455, L361: an Air Strike attack rolls 3d6 on the Soviet blocks of one area; each 5 or 6
    is a loss distributed at random among them (here C05, no trench)."""
    pos = Position().clear()
    pos.place("C04: 50/121 | C05: 7NI 8NI")
    pos.hand("axis", "air_strike")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE ATTACK C05", dice=[5, 6, 4])
    strike = pos.last("bombardment")
    assert (strike["source"], strike["need"], strike["hits"]) == ("Air Strike", 5, 2)
    assert total_sp(pos, "7NI", "8NI") == 7 - 2
    assert len(pos.kinds("step_lost")) == 2
    assert pos.cards("axis", "discards") == ["air_strike"]


def test_air_strike_hits_only_on_6_in_intact_soviet_trenches():
    """L455, L361: if the attacked area has intact Soviet trenches, the Air Strike hits only on 6."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: Perekop")
    pos.hand("axis", "air_strike")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE ATTACK A08", dice=[5, 5, 6])
    assert pos.last("bombardment")["need"] == 6 and pos.sp("Perekop") == 3


def test_air_strike_hits_on_5_in_a_disabled_soviet_trench():
    """L370, L455: a trench put out of order gives no benefit, even to Soviets who recaptured it."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: Perekop")
    pos.disabled("A08")
    pos.hand("axis", "air_strike")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE ATTACK A08", dice=[5, 5, 6])
    assert pos.last("bombardment")["need"] == 5 and pos.sp("Perekop") == 1


def test_air_strike_attack_needs_soviet_blocks_in_the_area():
    """L453: the attack is on enemy blocks in a single area."""
    pos = Position().clear()
    pos.place("C04: 50/121 | C03: 7NI")
    pos.hand("axis", "air_strike")
    pos.phase("axis")
    pos.illegal("axis", "PLAY AIR_STRIKE ATTACK C05", because=r"an Air Strike attack needs Soviet blocks in C05")


def test_air_strike_reaction_before_a_soviet_card():
    """L453 (ruling R-AIR): the Air Strike may be played as a Reaction during the Soviet turn; one
    window is before each Soviet card, the first at the start of the Soviet phase."""
    pos = Position(auto=NO_AIR_AUTO).clear()
    pos.place("A04: 50/121 | C05: 7NI 8NI")
    pos.hand("axis", "air_strike", "air_strike")
    pos.hand("soviet", "assault")
    pos.phase("axis")
    pos.order("axis", "PASS")
    window = pos.pending("axis")[0]
    assert window.kind == "air" and window.interrupts == "soviet"
    pos.order("axis", "AIRSTRIKE ATTACK C05", dice=[5, 1, 1])
    assert pos.last("card_played")["reaction"] is True and total_sp(pos, "7NI", "8NI") == 6
    pos.play("soviet", "ASSAULT GROUP C05 TO C04")
    pos.order("axis", "AIRSTRIKE NONE")  # the window as they enter C04
    window = pos.pending("axis")[0]  # then the window before the next Soviet card
    assert window.kind == "air" and "AIRSTRIKE ATTACK C04" in window.options
    pos.order("axis", "AIRSTRIKE ATTACK C04", dice=[6, 6, 1])
    assert total_sp(pos, "7NI", "8NI") == 4
    assert pos.pending("soviet")[0].kind == "card"


def test_air_strike_reaction_on_soviet_blocks_entering_an_axis_area():
    """L455: as a Reaction the Axis may attack the Soviet blocks entering an Axis-occupied area,
    declared as soon as they enter and before the combat; only the entering blocks are attacked."""
    pos = Position(auto=NO_AIR_AUTO).clear()
    pos.place("A08: 50/121 | A12: 25/31 | A06: 25/54")
    pos.control("A08", "axis").disabled("A08")
    pos.hand("axis", "air_strike")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.order("soviet", "ASSAULT DIVISION 25")
    pos.order("soviet", "MOVE 25/31 TO A08")
    window = pos.pending("axis")[0]
    assert window.kind == "air" and "AIRSTRIKE ATTACK A08" in window.options
    pos.order("axis", "AIRSTRIKE NONE")
    pos.order("soviet", "MOVE 25/54 TO A08")
    pos.order("axis", "AIRSTRIKE ATTACK A08", dice=[5, 5, 5])
    assert pos.where("25/54") is None  # 3 hits, all on the block entering now
    assert pos.sp("25/31") == 3
    assert pos.kinds("combat") == []  # the combat has not begun
    assert pos.pending("soviet")[0].kind == "move"


def test_interdiction_placed_in_any_area_without_dice():
    """L453, L457: the other Air Strike mode places an Interdiction marker in any area."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.hand("axis", "air_strike")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT A01")  # even an Axis rear area, far from any Soviet
    assert pos.board.markers_on_map("interdiction") == ["A01"]
    assert pos.last("marker_placed") == {"area": "A01", "marker": "interdiction"}
    assert pos.last("card_played")["mode"] == "interdict" and pos.cards("axis", "discards") == ["air_strike"]


def test_interdiction_rolls_1d6_per_entering_soviet_block_and_stays():
    """L457: every Soviet block entering an interdicted area is attacked with 1d6, a loss on 5 or 6,
    a die for each block; the marker stays in place."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C04: 7NI 8NI")
    pos.marker("C05", "interdiction")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.order("soviet", "ASSAULT GROUP C04")
    pos.order("soviet", "MOVE 7NI 8NI TO C05", dice=[5, 4])
    rolls = pos.kinds("interdiction")
    assert [(r["die"][0], r["need"], r["hit"]) for r in rolls] == [(5, 5, True), (4, 5, False)]
    assert (pos.sp("7NI"), pos.sp("8NI")) == (3, 3)
    assert pos.board.marker("C05", "interdiction") is True


def test_interdiction_hits_only_on_6_in_an_intact_soviet_trench():
    """L361, L457 (ruling R-INTERDICT): the Interdiction die is an Air Strike die: only a 6 hits in
    an intact Soviet trench area."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A06: 25/31 3NI")
    pos.marker("A12", "interdiction")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.order("soviet", "ASSAULT GROUP A06")
    pos.order("soviet", "MOVE 25/31 3NI TO A12", dice=[5, 6])
    assert [r["need"] for r in pos.kinds("interdiction")] == [6, 6]
    assert (pos.sp("25/31"), pos.sp("3NI")) == (3, 1)


def test_interdiction_placed_as_a_soviet_block_enters_attacks_it_at_once():
    """L457: the marker may be placed at the moment a Soviet block moves into an area, and the moving
    block is attacked immediately."""
    pos = Position(auto=NO_AIR_AUTO).clear()
    pos.place("A04: 50/121 | C04: 7NI")
    pos.hand("axis", "air_strike")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.order("soviet", "ASSAULT GROUP C04")
    pos.order("soviet", "MOVE 7NI TO C05")
    assert pos.pending("axis")[0].options == ("AIRSTRIKE NONE", "AIRSTRIKE INTERDICT C05")  # no blocks to attack
    pos.order("axis", "AIRSTRIKE INTERDICT C05", dice=[6])
    assert pos.board.markers_on_map("interdiction") == ["C05"]
    assert pos.last("interdiction")["hit"] is True and pos.sp("7NI") == 3


def soviet_retreat_to_b07(auto=NO_AIR_AUTO) -> Position:
    """The Axis wins in C05; the beaten Perekop (now 3 SP) retreats to B07 (intact Soviet trench)."""
    pos = Position(auto=auto).clear()
    pos.place("C04: 50/121 | C05: Perekop")
    pos.control("C04", "axis")
    pos.hand("axis", "assault", "air_strike")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP C04 TO C05")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[5] + [1])  # 1 die each (4 SP against 4, clear)
    assert pos.last("combat_result")["winner"] == "axis" and pos.sp("Perekop") == 3
    return pos


def test_interdiction_attacks_soviet_blocks_retreating_into_its_area():
    """L457: an Interdiction marker attacks any Soviet block entering its area by retreat after
    combat."""
    pos = soviet_retreat_to_b07(auto=("air", "cover", "escort"))
    pos.marker("B07", "interdiction")
    pos.order("soviet", "RETREAT TO B07", dice=[6])
    assert pos.last("interdiction") == {"area": "B07", "die": [6, "dice", 0], "need": 6, "hit": True}
    assert pos.where("Perekop") == "B07" and pos.sp("Perekop") == 2


def test_during_a_retreat_only_an_interdiction_may_be_placed():
    """L218, L457 (ruling R-AIR): no Reaction during combat resolution, except that an Interdiction
    may be placed as Soviet blocks retreat into an area; an Air Strike attack is refused there."""
    pos = soviet_retreat_to_b07()
    pos.order("soviet", "RETREAT TO B07")
    window = pos.pending("axis")[0]
    assert window.kind == "air" and window.options == ("AIRSTRIKE NONE", "AIRSTRIKE INTERDICT B07")
    pos.illegal("axis", "AIRSTRIKE ATTACK B07",
                because=r"only an Interdiction can be placed there now")
    pos.order("axis", "AIRSTRIKE INTERDICT B07", dice=[5])
    assert pos.last("interdiction")["hit"] is False and pos.sp("Perekop") == 3


def test_interdiction_limit_two_on_the_map_with_relocation():
    """L457: the Axis cannot have more Interdiction markers on the map than supplied (2); with two
    on the map, playing the card lets the Axis withdraw one to relocate it."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.hand("axis", "air_strike", "air_strike", "air_strike")
    pos.phase("axis")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C05")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C09")
    pos.illegal("axis", "PLAY AIR_STRIKE INTERDICT C09", because=r"C09 is already interdicted")
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C11 REMOVING C05")
    assert pos.board.markers_on_map("interdiction") == ["C09", "C11"]
    assert {"area": "C05", "marker": "interdiction", "by": "relocation"} in pos.kinds("marker_removed")


def test_interdiction_fires_at_every_area_entered_on_a_redeployment():
    """L457 (ruling R-AIR): a marker already on the map attacks Soviet blocks entering its area on
    the way of a longer move (here a Redeployment passing through C06)."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C07: 7NI")
    pos.marker("C06", "interdiction")
    pos.hand("soviet", "redeployment")
    pos.phase("soviet")
    pos.order("soviet", "REDEPLOY GROUP C07")
    pos.order("soviet", "MOVE 7NI TO C02 VIA C06 C03", dice=[5])
    assert pos.last("interdiction")["area"] == "C06"
    assert pos.where("7NI") == "C02" and pos.sp("7NI") == 3


# ---------------------------------------------------------------- Redeployment (L459-461)


def test_redeployment_moves_up_to_four_areas():
    """L461: a Redeployment Order moves the activated blocks up to 4 areas; 5 is too far."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C07: 7NI 8NI")
    pos.hand("soviet", "redeployment")
    pos.phase("soviet")
    pos.order("soviet", "REDEPLOY GROUP C07")
    assert pos.last("card_played")["card"] == "redeployment"
    pos.order("soviet", "MOVE 7NI TO C01 VIA C06 C03 C02")
    assert pos.where("7NI") == "C01"
    pos.illegal("soviet", "MOVE 8NI TO B06 VIA C06 C03 C02 C01", because=r"too far: 5 areas, at most 4")


def test_redeployment_never_enters_enemy_occupied_areas():
    """L461: the blocks may not enter (nor pass through) enemy-occupied areas: no combat."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A03: 22/16 | A08: 3NI")
    pos.hand("axis", "redeployment")
    pos.phase("axis")
    pos.order("axis", "REDEPLOY GROUP A04")
    pos.illegal("axis", "MOVE 50/121 TO A08",
                because=r"a Redeployment never enters an enemy-occupied area \(A08\)")
    pos.illegal("axis", "MOVE 50/121 TO A12 VIA A08", because=r"A08 holds enemy blocks: movement stops there")


def test_redeployment_enters_empty_enemy_areas_and_takes_control():
    """L461, L390 (ruling R-REDEPLOY): the blocks may enter unoccupied enemy-controlled areas, which
    changes their control, also for the areas passed through."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.hand("axis", "redeployment")
    pos.phase("axis")
    pos.order("axis", "REDEPLOY GROUP A04")
    pos.order("axis", "MOVE 50/121 TO A12 VIA A08")
    assert pos.where("50/121") == "A12"
    assert (pos.state["control"]["A08"], pos.state["control"]["A12"]) == ("axis", "axis")


def test_redeployment_axis_never_into_an_empty_undestroyed_battery_area():
    """L332, L461: Axis blocks cannot enter an unoccupied undestroyed Soviet battery area by
    Redeployment; a destroyed battery does not stop them."""
    pos = Position().clear()
    pos.place("A02: 50/121 50/122 | C03: 7NI")
    pos.destroyed("A07")
    pos.hand("axis", "redeployment")
    pos.phase("axis")
    pos.order("axis", "REDEPLOY GROUP A02")
    pos.illegal("axis", "MOVE 50/121 TO A05",
                because=r"Axis blocks cannot enter A05, an empty area with an undestroyed battery, by "
                        r"Redeployment \(rulebook: Battery\)")
    pos.order("axis", "MOVE 50/122 TO A07 VIA A06")
    assert pos.where("50/122") == "A07" and pos.state["control"]["A07"] == "axis"


def test_redeployment_of_a_division_with_its_stacked_non_divisional_blocks():
    """L461: a Redeployment may activate all the blocks of one division plus all non-divisional
    blocks stacked with at least one of them."""
    pos = Position().clear()
    pos.place("A04: 50/121 213 | A09: 50/122 | A01: 22/16 | C03: 7NI")
    pos.hand("axis", "redeployment")
    pos.phase("axis")
    pos.order("axis", "REDEPLOY DIVISION 50")
    assert sorted(pos.top()["blocks"]) == ["213", "50/121", "50/122"]
    assert pos.pending("axis")[0].kind == "move"  # a Redeployment places no assets


def test_redeployment_cannot_pick_up_assets_on_the_way():
    """L461, L230: redeploying blocks cannot pick up or drop off Armor/Pioneer counters in the areas
    they enter; counters that began with them go along."""
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 | A01: 213 | C03: 7NI")
    pos.asset("STUGA", "A01").asset("APIOA", "A04")
    pos.hand("axis", "redeployment")
    pos.phase("axis")
    pos.order("axis", "REDEPLOY GROUP A04")
    pos.illegal("axis", "MOVE 50/121 TO A02 VIA A01 WITH STUGA", because=r"STUGA is not with your blocks in A04")
    pos.order("axis", "MOVE 50/121 TO A02 VIA A01 WITH APIOA")
    assert pos.state["assets"]["APIOA"]["area"] == "A02" and pos.state["assets"]["STUGA"]["area"] == "A01"


# ---------------------------------------------------------------- Heavy Artillery (L463-465)


def test_heavy_artillery_4d6_hits_on_5_or_6_at_random():
    """L465: Heavy Artillery attacks a Soviet-occupied area with 4d6, each 5 or 6 a hit, losses
    distributed at random among the Soviet blocks there."""
    pos = Position().clear()
    pos.place("C04: 50/121 | C05: 7NI 8NI")
    pos.hand("axis", "heavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY HEAVY_ARTILLERY C05", dice=[5, 6, 4, 1])
    shot = pos.last("bombardment")
    assert (shot["source"], len(shot["dice"]), shot["need"], shot["hits"]) == ("Heavy Artillery", 4, 5, 2)
    assert total_sp(pos, "7NI", "8NI") == 5
    assert pos.cards("axis", "discards") == ["heavy_artillery"]


def test_heavy_artillery_only_6_in_intact_soviet_trenches():
    """L361, L465: only a 6 hits if the attacked area has intact Soviet trenches; a disabled
    trench gives no such benefit (L370)."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: Perekop | A12: 25/31")
    pos.disabled("A08")
    pos.hand("axis", "heavy_artillery", "heavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY HEAVY_ARTILLERY A12", dice=[5, 5, 6, 1])
    assert pos.last("bombardment")["need"] == 6 and pos.sp("25/31") == 2
    pos.order("axis", "PLAY HEAVY_ARTILLERY A08", dice=[5, 5, 1, 1])
    assert pos.last("bombardment")["need"] == 5 and pos.sp("Perekop") == 2


def test_heavy_artillery_needs_a_soviet_occupied_area():
    """L465: the target is a Soviet-occupied area."""
    pos = Position().clear()
    pos.place("C04: 50/121 | C03: 7NI")
    pos.hand("axis", "heavy_artillery")
    pos.phase("axis")
    pos.illegal("axis", "PLAY HEAVY_ARTILLERY C05",
                because=r"HEAVY_ARTILLERY cannot target C05: it needs a Soviet-occupied area")


# ---------------------------------------------------------------- Superheavy Artillery (L469-471, L336)


def test_superheavy_first_6_destroys_the_battery_the_rest_hit_blocks():
    """L336, L471: Superheavy Artillery rolls 3d6 against an undestroyed battery area; each 6 is a
    hit, the first destroys the battery and the rest fall at random on the Soviet blocks there."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A07: 172/514 172/747")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A07", dice=[6, 6, 5])
    assert pos.last("bombardment")["hits"] == 2
    assert pos.last("battery_destroyed") == {"area": "A07"}
    assert "A07" in pos.state["batteries_destroyed"]
    assert total_sp(pos, "172/514", "172/747") == 5  # 2 hits: the battery, then one block step
    assert pos.state["control"]["A07"] == "soviet"  # Soviet blocks are still there (L332)


def test_superheavy_gives_control_when_only_axis_blocks_are_in_the_battery_area():
    """L332, L344 (ruling R-BATTERY): a battery destroyed by Superheavy Artillery while only Axis
    blocks are in its area gives the Axis control of the area at once."""
    pos = Position().clear()
    pos.place("A05: 132/436 | C03: 7NI")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    assert pos.state["control"]["A05"] == "soviet"
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A05", dice=[6, 1, 1])
    assert pos.state["control"]["A05"] == "axis" and (pos.vp("axis"), pos.vp("soviet")) == (1, 11)


def test_superheavy_5s_do_not_hit():
    """L471: only results of 6 hit; without a 6 the battery stands and nobody is hit."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A07: 172/514")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A07", dice=[5, 5, 5])
    assert pos.last("bombardment")["hits"] == 0
    assert pos.board.has_battery("A07") and pos.sp("172/514") == 3


def test_superheavy_hits_beyond_the_soviet_steps_are_lost():
    """L471: with fewer Soviet steps than remaining hits, all Soviet blocks are eliminated and the
    remaining hits have no effect; an empty battery area may be targeted too."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A07: 3NI=1")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A07", dice=[6, 6, 6])
    assert pos.where("3NI") is None and "A07" in pos.state["batteries_destroyed"]
    assert len(pos.kinds("step_lost")) == 1
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A05", dice=[6, 1, 1])  # no block there
    assert "A05" in pos.state["batteries_destroyed"]


def test_superheavy_needs_an_undestroyed_battery():
    """L471: the target must contain an undestroyed Soviet battery."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: Perekop | A05: 95/90")
    pos.destroyed("A05")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    pos.illegal("axis", "PLAY SUPERHEAVY_ARTILLERY A08",
                because=r"SUPERHEAVY_ARTILLERY cannot target A08: it needs an area with "
                        r"an undestroyed Soviet battery")
    pos.illegal("axis", "PLAY SUPERHEAVY_ARTILLERY A05",
                because=r"SUPERHEAVY_ARTILLERY cannot target A05: it needs an area with "
                        r"an undestroyed Soviet battery")


def test_superheavy_removed_from_play_when_it_destroys_the_last_battery():
    """L471: if the last battery is destroyed through play of this card, the card is removed from
    play (it does not go to the discard pile)."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C08: 109/361")
    pos.destroyed("A05", "A07", "B09")
    pos.hand("axis", "superheavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY C08", dice=[6, 1, 1])
    assert pos.state["batteries_destroyed"][-1] == "C08"
    assert "superheavy_artillery" in pos.removed()
    assert "superheavy_artillery" not in pos.cards("axis", "discards")


def put_on_top(pos: Position, side: str, card_type: str) -> str:
    deck = pos.state["decks"][side]
    card = next(c for c in deck if pos.state["cards"][c] == card_type)
    deck.remove(card)
    deck.append(card)  # the deck is drawn from its end
    return card


def test_superheavy_drawn_with_no_battery_left_is_removed_and_replaced():
    """L336, L471: if the Axis draws the Superheavy card when no undestroyed battery remains, it is
    removed from play and the Axis draws a replacement."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.destroyed("A05", "A07", "B09", "C08")
    pos.hand("axis", "assault")
    put_on_top(pos, "axis", "superheavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PASS DISCARD ASSAULT")
    assert "superheavy_artillery" in pos.removed()
    assert len(pos.state["hands"]["axis"]) == 8 and "superheavy_artillery" not in pos.cards("axis")


def test_battery_cards_held_when_the_last_battery_falls_are_removed_and_replaced():
    """L336, L346, L471, L477 (ruling R-BATTERY): when the last battery is destroyed, a Superheavy
    card held by the Axis and a Coastal Artillery card held by the Soviet are removed from play and
    each player draws a replacement."""
    pos = Position().clear()
    pos.place("C08: 50/121 | C03: 7NI")
    pos.destroyed("A05", "A07", "B09")
    pos.hand("axis", "assault", "superheavy_artillery")
    pos.hand("soviet", "soviet_coastal_artillery", "mortars")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP C08")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "STORM C08", dice=[5] + [1, 1])
    assert pos.last("battery_assault")["destroyed"] is True
    assert pos.removed() == ["soviet_coastal_artillery", "superheavy_artillery"]
    assert len(pos.state["hands"]["axis"]) == 1 and "superheavy_artillery" not in pos.cards("axis")
    assert len(pos.state["hands"]["soviet"]) == 2 and "soviet_coastal_artillery" not in pos.cards("soviet")


# ---------------------------------------------------------------- Soviet Coastal Artillery (L475-477)


def test_coastal_artillery_2d6_hits_on_5_or_6_even_in_axis_trenches():
    """L477: Coastal Artillery rolls 2d6 against an Axis-occupied area in range; each 5 or 6 is a
    hit, even in an area with Axis trenches; hits fall at random on the Axis blocks there."""
    pos = Position().clear()
    pos.place("A02: 50/121 50/122 | C03: 7NI")
    pos.hand("soviet", "soviet_coastal_artillery")
    pos.phase("soviet")
    pos.order("soviet", "PLAY SOVIET_COASTAL_ARTILLERY A02", dice=[5, 6])
    shot = pos.last("bombardment")
    assert (shot["source"], len(shot["dice"]), shot["need"], shot["hits"]) == ("Coastal Artillery", 2, 5, 2)
    assert total_sp(pos, "50/121", "50/122") == 6


def test_coastal_artillery_range_3_counting_ferry_arrows():
    """L477: the target must be within 3 areas of an undestroyed battery, areas linked by ferry
    arrows counting as adjacent (A05 - A10 - ferry - C02 - C03)."""
    pos = Position().clear()
    pos.place("C03: 50/121 | C09: 50/122 | C06: 7NI")
    pos.destroyed("A07", "B09", "C08")  # only A05 fires
    pos.hand("soviet", "soviet_coastal_artillery", "soviet_coastal_artillery")
    pos.phase("soviet")
    pos.illegal("soviet", "PLAY SOVIET_COASTAL_ARTILLERY C09",
                because=r"SOVIET_COASTAL_ARTILLERY cannot target C09: it needs an "
                        r"Axis-occupied area within 3 areas of an undestroyed battery, "
                        r"ferry arrows counting")  # 4 areas
    pos.order("soviet", "PLAY SOVIET_COASTAL_ARTILLERY C03", dice=[6, 1])
    assert pos.sp("50/121") == 3


def test_coastal_artillery_with_no_target_in_range_is_just_discarded():
    """L477: with no Axis blocks in range the card may be played just to discard it; with a target
    in range it needs one."""
    pos = Position().clear()
    pos.place("B11: 50/121 | C06: 7NI")
    pos.destroyed("A07", "B09", "C08")  # A05 alone: B11 is 5 areas away
    pos.hand("soviet", "soviet_coastal_artillery")
    pos.phase("soviet")
    pos.order("soviet", "PLAY SOVIET_COASTAL_ARTILLERY")  # no die is rolled
    assert pos.last("card_played")["mode"] == "discard"
    assert pos.cards("soviet", "discards") == ["soviet_coastal_artillery"] and pos.sp("50/121") == 4
    pos = Position().clear()
    pos.place("A02: 50/121 | C06: 7NI")
    pos.hand("soviet", "soviet_coastal_artillery")
    pos.phase("soviet")
    pos.illegal("soviet", "PLAY SOVIET_COASTAL_ARTILLERY",
                because=r"name a target: an Axis-occupied area within 3 areas of a battery")


def test_coastal_artillery_drawn_with_no_battery_left_is_removed_and_replaced():
    """L477: if the Soviet draws Coastal Artillery when no undestroyed battery remains, the card is
    removed from play and the Soviet draws a replacement."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.destroyed("A05", "A07", "B09", "C08")
    pos.hand("soviet", "assault")
    put_on_top(pos, "soviet", "soviet_coastal_artillery")
    pos.phase("axis")
    pos.order("axis", "PASS")
    assert set(pos.removed()) == {"soviet_coastal_artillery"}
    assert len(pos.state["hands"]["soviet"]) == 6 and "soviet_coastal_artillery" not in pos.cards("soviet")


# ---------------------------------------------------------------- Soviet Field Artillery (L481-483)


def test_soviet_field_artillery_3d6_anywhere_hits_on_5_or_6():
    """L483: Soviet Field Artillery attacks any Axis-occupied area with 3d6, each 5 or 6 a hit,
    distributed at random among the Axis blocks (also in an area with Soviet trenches)."""
    pos = Position().clear()
    pos.place("B11: 50/121 50/122 | A08: 24/31 | C06: 7NI")
    pos.hand("soviet", "soviet_field_artillery", "soviet_field_artillery")
    pos.phase("soviet")
    pos.order("soviet", "PLAY SOVIET_FIELD_ARTILLERY B11", dice=[5, 6, 1])
    shot = pos.last("bombardment")
    assert (shot["source"], len(shot["dice"]), shot["need"], shot["hits"]) == ("Field Artillery", 3, 5, 2)
    assert total_sp(pos, "50/121", "50/122") == 6
    pos.order("soviet", "PLAY SOVIET_FIELD_ARTILLERY A08", dice=[5, 1, 1])
    assert pos.last("bombardment")["need"] == 5 and pos.sp("24/31") == 3


def test_soviet_field_artillery_only_6_against_printed_axis_trenches():
    """L367, L483: Field Artillery hits only on 6 if the area has Axis trenches printed on it."""
    pos = Position().clear()
    pos.place("A02: 50/121 | C06: 7NI")
    pos.hand("soviet", "soviet_field_artillery")
    pos.phase("soviet")
    pos.order("soviet", "PLAY SOVIET_FIELD_ARTILLERY A02", dice=[5, 5, 6])
    assert pos.last("bombardment")["need"] == 6 and pos.sp("50/121") == 3


def test_soviet_field_artillery_needs_an_axis_occupied_area():
    """L483: the target is an area occupied by Axis blocks."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C06: 7NI")
    pos.hand("soviet", "soviet_field_artillery")
    pos.phase("soviet")
    pos.illegal("soviet", "PLAY SOVIET_FIELD_ARTILLERY A01",
                because=r"SOVIET_FIELD_ARTILLERY cannot target A01: it needs an Axis-occupied area")
