"""Rule clauses: the combat procedure (L264-296), Combat Support cards in a combat (L212-214, L489-517),
armor, AT markers, AT ditches and pioneers (L236-260, L348-352), the reconstructed steps 5-6
(ruling R-WIN: casualties, winner, ties), the marker effects (R-BUNKER, R-MINES, R-MOD, R-ARMOR,
R-PIONEER), exhaustion (L316-326) and the battery assault (L338-344, ruling R-BATTERY).

Most combats are an Axis attack from A10 into A11, both clear areas without a trench or a river
between them, so that only the clause under test changes the dice. Dice are scripted in the order the
engine rolls them: anti-armor dice, the attacker's, the defender's, then pioneer self-loss rolls."""

import pytest

from tests.games.vmt.harness import Position


def setup(layout: str, phase: str = "axis", axis=(), soviet=(), options=None) -> Position:
    """Only these blocks on the map; each area holding blocks is controlled by their side."""
    pos = Position(options=options).clear().place(layout)
    for entry in pos.state["blocks"].values():
        if entry["status"] == "map":
            pos.control(entry["area"], entry["side"])
    pos.hand("axis", *axis).hand("soviet", *soviet)
    return pos.phase(phase)


def axis_attack(layout: str, origin: str = "A10", target: str = "A11", axis=(), soviet=(), options=None,
                assets: str = "") -> Position:
    """An Axis group attack from `origin` into `target`, stopped at the attacker's Combat Support."""
    pos = setup(layout, "axis", ("assault",) + tuple(axis), soviet, options)
    pos.order("axis", "ASSAULT GROUP " + origin)
    pos.order("axis", assets or "ASSETS NONE")
    pos.order("axis", f"MOVE {' '.join(pos.board.blocks_in(origin, 'axis'))} TO {target}")
    assert pos.top()["kind"] == "combat"
    return pos


def soviet_attack(layout: str, origin: str, target: str, axis=(), soviet=(), options=None) -> Position:
    pos = setup(layout, "soviet", axis, ("assault",) + tuple(soviet), options)
    pos.order("soviet", "ASSAULT GROUP " + origin)
    pos.order("soviet", "ASSETS NONE")
    pos.order("soviet", f"MOVE {' '.join(pos.board.blocks_in(origin, 'soviet'))} TO {target}")
    assert pos.top()["kind"] == "combat"
    return pos


def fight(pos: Position, dice, attacker_cards: str = "NONE", defender_cards: str = "NONE") -> None:
    """Commit the cards face down, attacker first (L214), and roll the scripted dice."""
    attacker = pos.top()["attacker"]
    defender = pos.top()["defender"]
    pos.order(attacker, "SUPPORT " + attacker_cards)
    pos.order(defender, "SUPPORT " + defender_cards, dice=dice)


def roll(pos: Position) -> dict:
    return pos.last("combat_roll")


# ================================================================ Combat Support cards (L212-214)


def test_support_cards_are_committed_face_down_attacker_first_then_defender():
    """L214, L270-272: "First the attacker ... plays FACEDOWN as many Combat Support Cards as desired,
    then the defender does the same. Once the defender has committed their cards ... the attacker
    cannot change their mind"; both sides then reveal simultaneously."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("axis_field_artillery",), soviet=("mortars",))
    assert [d.kind for d in pos.pending("axis")] == ["support"] and pos.pending("soviet") == []
    pos.order("axis", "SUPPORT AXIS_FIELD_ARTILLERY")
    public = [e for e in pos.events if e.kind == "support_committed"][-1]
    assert public.data == {"side": "axis", "count": 1, "area": "A11"} and public.visible_to is None
    private = [e for e in pos.events if e.kind == "support_committed_cards"][-1]
    assert private.visible_to == ("axis",) and private.data["cards"] == ["axis_field_artillery"]
    assert pos.pending("axis") == []  # committed: nothing more to add or take back
    (ask,) = pos.pending("soviet")
    assert ask.kind == "support" and "1 card(s) face down" in ask.prompt
    pos.order("soviet", "SUPPORT MORTARS", dice=[1] * 4 + [1] * 3)
    assert pos.last("revealed")["cards"] == {"axis": ["axis_field_artillery"], "soviet": ["mortars"]}


def test_field_artillery_and_mortars_add_dice_and_several_cards_are_cumulative():
    """L214 ("several cards of the same type ... their effects being cumulative"), L290, L489 (Axis
    Field Artillery: +3 dice), L507 (Mortars: +2 dice)."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("axis_field_artillery", "axis_field_artillery"),
                      soviet=("mortars", "mortars"))
    fight(pos, [1] * 7 + [1] * 5, "AXIS_FIELD_ARTILLERY AXIS_FIELD_ARTILLERY", "MORTARS MORTARS")
    assert pos.dice("axis") == 7 and pos.parts("axis").count(("axis field artillery", 3)) == 2
    assert pos.dice("soviet") == 5 and pos.parts("soviet").count(("mortars", 2)) == 2


def test_axis_field_artillery_supports_a_defence_and_mortars_an_attack():
    """L489: Axis Field Artillery "can be used in attack or in defense"; L507: Mortars likewise."""
    pos = soviet_attack("A11: 25/54 | A10: 24/32", "A11", "A10", axis=("axis_field_artillery",),
                        soviet=("mortars",))
    fight(pos, [1] * 3 + [1] * 4, "MORTARS", "AXIS_FIELD_ARTILLERY")
    assert pos.dice("soviet") == 3 and ("mortars", 2) in pos.parts("soviet")
    assert pos.dice("axis") == 4 and ("axis field artillery", 3) in pos.parts("axis")


def test_only_one_field_artillery_card_when_romanian_blocks_attack():
    """L489: "If a combat involves Romanian blocks, then the Axis player cannot use more than 1 Field
    Artillery card to support their troops"."""
    pos = axis_attack("A10: 1RM/1 | A11: 25/54", axis=("axis_field_artillery", "axis_field_artillery"))
    pos.illegal("axis", "SUPPORT AXIS_FIELD_ARTILLERY AXIS_FIELD_ARTILLERY",
                because=r"with Romanian blocks in the combat, at most one Field Artillery card")
    fight(pos, [1] * 4 + [1], "AXIS_FIELD_ARTILLERY")
    assert pos.dice("axis") == 4


def test_only_one_field_artillery_card_when_romanian_blocks_defend():
    """L489: the limit holds for any combat that involves Romanian blocks, in defence too."""
    pos = soviet_attack("A11: 25/54 | A10: 18R/18", "A11", "A10",
                        axis=("axis_field_artillery", "axis_field_artillery"))
    pos.order("soviet", "SUPPORT NONE")
    pos.illegal("axis", "SUPPORT AXIS_FIELD_ARTILLERY AXIS_FIELD_ARTILLERY",
                because=r"with Romanian blocks in the combat, at most one Field Artillery card")


def test_two_field_artillery_cards_without_romanians():
    """L214, L489: without Romanian blocks the Axis may commit several Field Artillery cards."""
    pos = soviet_attack("A11: 25/54 | A10: 24/32", "A11", "A10",
                        axis=("axis_field_artillery", "axis_field_artillery"))
    fight(pos, [1] + [1] * 7, "NONE", "AXIS_FIELD_ARTILLERY AXIS_FIELD_ARTILLERY")
    assert pos.dice("axis") == 7


def test_the_support_options_offer_two_copies_of_a_card_held_twice():
    """L214: "You can play several cards of the same type in a single combat, with their effects being
    cumulative, but you must always observe the limit for markers": a hand with two Mortars lists
    SUPPORT MORTARS MORTARS, with a Bunker every set of the three cards; a hand with two 88mm lists one
    88mm only (at most one per combat, L501)."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("88mm", "88mm", "axis_field_artillery"),
                      soviet=("mortars", "mortars", "bunker"))
    (axis,) = pos.pending("axis")
    assert axis.options == ("SUPPORT NONE", "SUPPORT 88MM", "SUPPORT AXIS_FIELD_ARTILLERY",
                            "SUPPORT 88MM AXIS_FIELD_ARTILLERY")
    pos.order("axis", "SUPPORT NONE")
    (soviet,) = pos.pending("soviet")
    assert soviet.options == ("SUPPORT NONE", "SUPPORT BUNKER", "SUPPORT MORTARS", "SUPPORT BUNKER MORTARS",
                              "SUPPORT MORTARS MORTARS", "SUPPORT BUNKER MORTARS MORTARS")
    pos.order("soviet", "SUPPORT MORTARS MORTARS", dice=[1] + [1] * 5)  # Axis 1 die; Soviet 1 + 2 + 2
    assert pos.parts("soviet").count(("mortars", 2)) == 2 and pos.dice("soviet") == 5


def test_goliath_and_88mm_are_played_only_when_attacking():
    """L495 (Goliath: "when attacking only"), L501 (88mm: "when attacking")."""
    pos = soviet_attack("A11: 25/54 | A10: 24/32", "A11", "A10", axis=("goliath", "88mm"))
    pos.order("soviet", "SUPPORT NONE")
    pos.illegal("axis", "SUPPORT GOLIATH", because=r"GOLIATH is played only when attacking")
    pos.illegal("axis", "SUPPORT 88MM", because=r"88MM is played only when attacking")


def test_minefield_and_bunker_are_played_only_when_defending():
    """L513, L517: Minefield and Bunker are played by the Soviet player "when defending"."""
    pos = soviet_attack("A11: 25/54 | A10: 24/32", "A11", "A10", soviet=("minefield", "bunker"))
    pos.illegal("soviet", "SUPPORT MINEFIELD", because=r"MINEFIELD is played only when defending")
    pos.illegal("soviet", "SUPPORT BUNKER", because=r"BUNKER is played only when defending")


def test_at_most_one_88mm_card_per_combat():
    """L501: "There can be only one Bunker marker in a given area, so the Axis player cannot play more
    than one 88mm card per combat"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("88mm", "88mm"))
    pos.illegal("axis", "SUPPORT 88MM 88MM", because=r"at most one 88mm card per combat")


def test_at_most_one_minefield_card_per_combat_and_none_where_a_minefield_lies():
    """L513: "if there is already a Minefield marker in the area ... the Soviet player cannot play a
    Minefield card in that combat, and no more than one Minefield card can be played per combat"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("minefield", "minefield"))
    pos.order("axis", "SUPPORT NONE")
    pos.illegal("soviet", "SUPPORT MINEFIELD MINEFIELD", because=r"at most one MINEFIELD card per combat")
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("minefield",))
    pos.marker("A11", "minefield")
    pos.order("axis", "SUPPORT NONE")
    pos.illegal("soviet", "SUPPORT MINEFIELD", because=r"A11 already has a minefield marker")


def test_at_most_one_bunker_card_per_combat_and_none_where_a_bunker_stands():
    """L517: no Bunker card where a Bunker marker already is, and no more than one per combat."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("bunker", "bunker"))
    pos.order("axis", "SUPPORT NONE")
    pos.illegal("soviet", "SUPPORT BUNKER BUNKER", because=r"at most one BUNKER card per combat")
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("bunker",))
    pos.marker("A11", "bunker")
    pos.order("axis", "SUPPORT NONE")
    pos.illegal("soviet", "SUPPORT BUNKER", because=r"A11 already has a bunker marker")


def test_a_minefield_card_places_a_minefield_and_an_at_marker():
    """L246, L513: the Minefield card places "one Minefield and one AT marker in the area where the
    combat is taking place"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("minefield",))
    fight(pos, [1, 1], "NONE", "MINEFIELD")
    placed = [e["marker"] for e in pos.kinds("marker_placed") if e["area"] == "A11"]
    assert placed == ["minefield", "at"]
    assert pos.board.marker("A11", "minefield") and pos.board.marker("A11", "at")


def test_a_bunker_card_places_a_bunker_and_an_at_marker_and_the_bunker_cancels_an_axis_hit():
    """L517: the Bunker card places one Bunker and one AT marker; ruling R-BUNKER (L310): "The Soviet
    player can nullify an Axis hit because he has a 'bunkers' marker"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("bunker",))
    fight(pos, [5] + [5], "NONE", "BUNKER")
    assert [e["marker"] for e in pos.kinds("marker_placed")] == ["bunker", "at"]
    assert roll(pos)["cancelled"] == {"axis": 1, "soviet": 0}
    assert roll(pos)["hits"] == {"axis": 0, "soviet": 1}
    assert pos.sp("25/54") == 3 and pos.sp("24/32") == 2


def test_goliath_removes_a_minefield_already_on_the_map():
    """L495: Goliath enables the Axis player, when attacking, "to remove from the map a Soviet
    Minefield marker"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("goliath",)).marker("A11", "minefield")
    fight(pos, [5, 1], "GOLIATH")
    assert pos.last("marker_removed") == {"area": "A11", "marker": "minefield", "by": "goliath"}
    assert roll(pos)["cancelled"]["axis"] == 0 and roll(pos)["hits"]["axis"] == 1


def test_goliath_cancels_a_minefield_played_in_the_same_combat():
    """L495: "If there was no Minefield marker and, in the same combat, the Soviet player plays a
    Combat Support card to place a Minefield, then the Goliath card cancels placement of the
    Minefield"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("goliath",), soviet=("minefield",))
    fight(pos, [5, 1], "GOLIATH", "MINEFIELD")
    assert pos.last("marker_cancelled") == {"area": "A11", "marker": "minefield", "by": "goliath"}
    assert not pos.board.marker("A11", "minefield")
    assert roll(pos)["hits"]["axis"] == 1


def test_88mm_removes_a_bunker_and_cancels_one_played_in_the_same_combat():
    """L501: the 88mm card removes a Soviet Bunker marker; if the Soviet plays a Bunker card in the
    same combat, "the 88mm card cancels placement of the Bunker"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("88mm",)).marker("A11", "bunker")
    fight(pos, [5, 1], "88MM")
    assert pos.last("marker_removed") == {"area": "A11", "marker": "bunker", "by": "88mm"}
    assert roll(pos)["hits"]["axis"] == 1
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("88mm",), soviet=("bunker",))
    fight(pos, [5, 1], "88MM", "BUNKER")
    assert pos.last("marker_cancelled")["marker"] == "bunker" and not pos.board.marker("A11", "bunker")
    assert roll(pos)["hits"]["axis"] == 1


def test_a_cancelled_minefield_or_bunker_still_places_its_at_marker():
    """L495, L501, L513, L517: Goliath "cancels placement of the Minefield" and 88mm "cancels placement
    of the Bunker"; the card's other marker, the AT gun (L246, L513, L517), is not cancelled."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("goliath",), soviet=("minefield",))
    fight(pos, [5, 1], "GOLIATH", "MINEFIELD")
    assert pos.board.marker("A11", "at")
    pos = axis_attack("A10: 24/32 | A11: 25/54", axis=("88mm",), soviet=("bunker",))
    fight(pos, [5, 1], "88MM", "BUNKER")
    assert pos.board.marker("A11", "at")


@pytest.mark.parametrize("effect, dice, soviet_dice, cancelled", [
    ("cancel_hit", 1, 1, 1),   # default: like the Bunker, one Axis hit cancelled
    ("extra_die", 1, 2, 0),    # +1 Soviet die
    ("none", 1, 1, 0),
])
def test_minefield_effect_option(effect, dice, soviet_dice, cancelled):
    """Ruling R-MINES: the Minefield's effect is not stated (L232, L242, L513); option minefield_effect:
    cancel_hit (default) | extra_die | none, for a Soviet defender in the area."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", options={"minefield_effect": effect}).marker("A11", "minefield")
    fight(pos, [5] * dice + [1] * soviet_dice)
    assert pos.dice("soviet") == soviet_dice
    assert roll(pos)["cancelled"]["axis"] == cancelled
    assert roll(pos)["hits"]["axis"] == 1 - cancelled


# ================================================================ step 3: the number of dice (L274-290)


def test_one_die_per_block_and_no_extra_die_for_equal_strength():
    """L276: each player rolls 1 die per block in the combat; L278: only the player with MORE SP
    present rolls an additional die (6 SP against 6 SP: nobody)."""
    pos = axis_attack("A10: 24/32 50/123 | A11: 25/54 25/31")
    fight(pos, [1, 1] + [1, 1])
    assert pos.parts("axis") == [("blocks", 2)] and pos.parts("soviet") == [("blocks", 2)]


def test_the_side_with_more_strength_points_rolls_one_more_die():
    """L278: "The player with MORE Strength Points present in the combat rolls 1 additional die"."""
    pos = axis_attack("A10: 24/31 | A11: 25/54")  # 4 SP against 3
    fight(pos, [1, 1] + [1])
    assert pos.parts("axis") == [("blocks", 1), ("more strength points", 1)]
    assert pos.dice("soviet") == 1


def test_the_456th_nkvd_gives_the_soviet_one_more_die():
    """L276: "the presence of the 456th NKVD Regiment in a combat gives the Soviet player 1 additional
    die in that combat"."""
    pos = axis_attack("A10: 24/32 | A11: 456NKVD")
    fight(pos, [1] + [1, 1])
    assert pos.parts("soviet") == [("blocks", 1), ("456th NKVD", 1)]


def test_one_die_less_when_all_attackers_crossed_a_river():
    """L282: "If all attackers crossed a river and/or Ferry crossing arrow ... you must subtract 1 die
    from the attacker's total" (B01 to A11 is the Chernaya river; A11 is clear)."""
    pos = axis_attack("B01: 24/32 50/123 | A11: 25/54 25/31", origin="B01")
    fight(pos, [1] + [1, 1])
    assert pos.parts("axis") == [("blocks", 2), ("all attackers crossed a river or ferry", -1)]
    assert pos.dice("axis") == 1


def test_no_river_penalty_when_one_attacker_came_over_land():
    """L282: the die is lost only if ALL attackers crossed the river."""
    pos = setup("B01: 24/32 | A10: 24/102 | A11: 25/54 25/31", axis=("assault",))
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/32 TO A11")
    pos.order("axis", "MOVE 24/102 TO A11")
    pos.order("axis", "RESOLVE A11")
    fight(pos, [1, 1] + [1, 1])
    assert pos.parts("axis") == [("blocks", 2)]


def test_soviet_attackers_across_a_river_lose_a_die_like_the_axis():
    """Ruling R-RIVER: L282's "(this can only be done by the Germans)" restates the ferry restriction of
    L380, so "If all attackers crossed a river ... you must subtract 1 die from the attacker's total"
    holds for a Soviet attack too (B01 to A11 is the Chernaya river; A11 is clear)."""
    pos = soviet_attack("B01: 25/54 25/31 | A11: 24/32", "B01", "A11")
    fight(pos, [1, 1] + [1])
    assert pos.parts("soviet") == [("blocks", 2), ("more strength points", 1),
                                   ("all attackers crossed a river or ferry", -1)]
    assert pos.dice("soviet") == 2


def test_soviet_attacks_across_a_river_forbidden_by_option():
    """Ruling R-RIVER, option soviet_river_attack=forbidden: the parenthesis of L282 read as a
    restriction, Soviet blocks may not attack across a river; they still move across one into an area
    without enemy blocks, and the attack is not offered."""
    pos = setup("B01: 25/54 25/31 | A11: 24/32", "soviet", soviet=("assault",),
                options={"soviet_river_attack": "forbidden"})
    pos.order("soviet", "ASSAULT GROUP B01")
    pos.order("soviet", "ASSETS NONE")
    assert not any("TO A11" in o for o in pos.pending("soviet")[0].options)
    pos.illegal("soviet", "MOVE 25/54 25/31 TO A11",
                because=r"Soviet blocks may not attack across a river \(game option soviet_river_attack=forbidden\)")
    pos.order("soviet", "MOVE 25/54 TO A14")  # across the Chernaya too, into an empty area
    assert pos.where("25/54") == "A14"


def test_soviet_attacks_across_a_river_keep_their_dice_by_option():
    """Ruling R-RIVER, option soviet_river_attack=no_penalty: L282's die is lost by the Germans only; the
    Axis still loses it."""
    options = {"soviet_river_attack": "no_penalty"}
    pos = soviet_attack("B01: 25/54 25/31 | A11: 24/32", "B01", "A11", options=options)
    fight(pos, [1, 1, 1] + [1])
    assert pos.parts("soviet") == [("blocks", 2), ("more strength points", 1)]
    pos = axis_attack("B01: 24/32 50/123 | A11: 25/54 25/31", origin="B01", options=options)
    fight(pos, [1] + [1, 1])
    assert ("all attackers crossed a river or ferry", -1) in pos.parts("axis")


def test_one_die_less_for_an_axis_attack_across_a_ferry_arrow():
    """L282, L380: "The effect of moving into the combat area via a crossing arrow is the same as for
    attacking across a river: the attacker rolls 1d6 fewer in that combat"."""
    pos = axis_attack("A10: 24/32 50/123 | C02: 25/54 25/31", target="C02")
    fight(pos, [1] + [1, 1])
    assert pos.parts("axis") == [("blocks", 2), ("all attackers crossed a river or ferry", -1)]


def test_rough_terrain_and_river_penalties_are_cumulative():
    """L280 ("the terrain effects are cumulative"), L282, L283: A03 to A08 crosses the Belbek into a
    rough area: 3 blocks + 1 (SP) - 1 (river) - 1 (rough) = 2 dice."""
    pos = axis_attack("A03: 24/31 24/32 50/121 | A08: 25/54", origin="A03", target="A08")
    fight(pos, [1, 1] + [1])
    assert pos.parts("axis") == [("blocks", 3), ("more strength points", 1),
                                 ("all attackers crossed a river or ferry", -1), ("rough terrain", -1)]
    assert pos.dice("axis") == 2


def test_a_player_never_rolls_fewer_than_one_die():
    """L274: "a player cannot roll less than one die in combat" (1 block - river - rough = -1 -> 1)."""
    pos = axis_attack("A03: 24/32 | A08: 25/54 25/31", origin="A03", target="A08")
    fight(pos, [1] + [1, 1, 1])
    assert sum(n for _, n in pos.parts("axis")) == -1 and pos.dice("axis") == 1


def test_stug_adds_one_die_and_cancels_one_soviet_hit():
    """L252, L288: a StuG III assault-gun counter subtracts one hit from those inflicted by the Soviets
    and adds one extra die to the Axis dice."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS ARMOR STUGA A10")
    fight(pos, [1, 1] + [5])
    assert pos.parts("axis") == [("blocks", 1), ("StuG assault guns", 1)]
    assert roll(pos)["dice"]["axis"]["modified"] == [1, 1]  # no "+1 to one die" for a StuG
    assert roll(pos)["cancelled"]["soviet"] == 1 and roll(pos)["hits"]["soviet"] == 0
    assert pos.sp("24/32") == 3


def test_soviet_pioneers_add_one_die_and_roll_for_self_loss():
    """L260, L287: a Soviet Pioneer counter in the combat gives the Soviet player 1 additional die;
    in step 5 its owner rolls 1d6 and on 5-6 it loses a step (2 -> 1)."""
    pos = axis_attack("A10: 24/32 | A11: 25/54").asset("SPIOA", "A11")
    fight(pos, [1] + [1, 1] + [5])
    assert pos.parts("soviet") == [("blocks", 1), ("Soviet pioneers", 1)]
    assert pos.last("pioneer_roll") == {"area": "A11", "asset": "SPIOA", "die": [5, "dice", 3], "hit": True}
    assert pos.asset_at("SPIOA") == ("map", "A11", 1)


def test_a_one_step_pioneer_hit_by_its_self_loss_roll_is_eliminated():
    """L260: "if already was on its 1-step side then it is permanently eliminated from play"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54").asset("SPIOA", "A11", steps=1)
    fight(pos, [1] + [1, 1] + [6])
    assert pos.asset_at("SPIOA") == ("eliminated", None, 0)


def test_axis_pioneers_remove_a_minefield_even_one_just_placed_and_then_roll():
    """L260, L312: Axis Pioneers, in step 2, cause a Mines marker in the combat area to be removed -
    "even one just placed by the Soviet player"; then, having acted, they roll 1d6 for self-loss."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("minefield",),
                      assets="ASSETS PIONEER APIOA A10")
    fight(pos, [5] + [1] + [3], "NONE", "MINEFIELD")
    assert pos.last("marker_removed") == {"area": "A11", "marker": "minefield", "by": "APIOA"}
    assert roll(pos)["hits"]["axis"] == 1  # no minefield left to cancel the hit
    assert pos.last("pioneer_roll")["asset"] == "APIOA" and pos.asset_at("APIOA")[2] == 2


def test_axis_pioneers_that_removed_no_minefield_do_not_roll_unless_the_option_says_so():
    """Ruling R-PIONEER (L260 "In both cases", L312 "since he acted by removing the mines"): option
    pioneer_roll=acted (default): the Axis pioneer rolls only if it removed a minefield; =always:
    every pioneer in the combat rolls."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS PIONEER APIOA A10")
    fight(pos, [1] + [1])
    assert pos.kinds("pioneer_roll") == []
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS PIONEER APIOA A10",
                      options={"pioneer_roll": "always"})
    fight(pos, [1] + [1] + [6])
    assert pos.last("pioneer_roll")["hit"] is True and pos.asset_at("APIOA")[2] == 1


# ================================================================ step 4: hits and modifiers (L292-296, L366)


def test_each_five_or_six_is_a_hit():
    """L292: "Each result of 5 or 6 is a HIT"."""
    pos = axis_attack("A10: 24/32 50/123 | A11: 25/54 25/31")
    fight(pos, [5, 4] + [6, 3])
    assert roll(pos)["hits"] == {"axis": 1, "soviet": 1}


def test_pz3_adds_one_to_one_die_and_cancels_one_soviet_hit():
    """L252, L294: the Pz-III "has the same effects as the Soviet Armor counters": +1 to one die after
    all dice are rolled, and one enemy hit subtracted."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS ARMOR PZ3 A10")
    fight(pos, [4] + [5])
    assert roll(pos)["dice"]["axis"]["modified"] == [5]
    assert roll(pos)["hits"] == {"axis": 1, "soviet": 0} and roll(pos)["cancelled"]["soviet"] == 1


def test_soviet_t26_adds_one_to_one_die_and_cancels_one_axis_hit():
    """L252, L294: Soviet Armor (T-26) subtracts one hit from those inflicted by the enemy and adds
    +1 to the result of one Soviet die."""
    pos = axis_attack("A10: 24/32 | A11: 25/54").asset("T26A", "A11")
    fight(pos, [5] + [4])
    assert roll(pos)["dice"]["soviet"]["modified"] == [5]
    assert roll(pos)["hits"] == {"axis": 0, "soviet": 1} and roll(pos)["cancelled"]["axis"] == 1


def test_soviet_defenders_add_one_to_one_die_in_an_intact_soviet_trench():
    """L296, L360: "Soviet defenders add 1 (+1) to one die, after all dice are rolled, if the combat
    takes place in an undamaged Soviet Trench Area" (A10 has a Soviet trench)."""
    pos = axis_attack("A11: 24/32 | A10: 25/54 25/31", origin="A11", target="A10")
    fight(pos, [1] + [4, 4, 1])
    assert roll(pos)["dice"]["soviet"]["modified"] == [5, 4, 1]
    assert roll(pos)["dice"]["soviet"]["notes"] == ["+1 to one die (Soviet trench)"]


def test_no_trench_bonus_once_the_soviet_trench_is_out_of_order():
    """L370: a trench put out of order provides "no benefit to Soviet blocks in defense even if
    recaptured by the Soviets"."""
    pos = axis_attack("A11: 24/32 | A10: 25/54 25/31", origin="A11", target="A10").disabled("A10")
    fight(pos, [1] + [4, 4, 1])
    assert roll(pos)["dice"]["soviet"]["modified"] == [4, 4, 1]


def test_the_soviet_trench_helps_only_soviet_defenders():
    """L296 ("Soviet defenders"; "Each side can only benefit from their own Trench Areas"): Soviets
    attacking into a Soviet trench area get no +1, nor do Axis blocks defending there."""
    pos = soviet_attack("A11: 25/54 | A10: 24/32", "A11", "A10")
    fight(pos, [4] + [4])
    assert roll(pos)["dice"]["soviet"]["modified"] == [4]
    assert roll(pos)["dice"]["axis"]["modified"] == [4]


def test_trench_and_armor_give_plus_one_to_two_dice():
    """L296: "if the Soviet player is defending in an undamaged Soviet Trench Area and has an Armor
    counter they can add +1 to two dice"."""
    pos = axis_attack("A11: 24/32 | A10: 25/54 25/31", origin="A11", target="A10").asset("T26A", "A10")
    fight(pos, [1] + [4, 4, 1])
    assert roll(pos)["dice"]["soviet"]["modified"] == [5, 5, 1]
    assert roll(pos)["hits"]["soviet"] == 2


def test_with_one_die_only_one_plus_one_modifier_applies():
    """L296: "However, if the Soviet player only rolls 1 die then only one of these modifiers can be
    applied" (a 3 with trench and armor stays a miss at 4)."""
    pos = axis_attack("A11: 24/31 24/32 | A10: 25/54", origin="A11", target="A10").asset("T26A", "A10")
    fight(pos, [1, 1, 1] + [3])
    assert pos.dice("soviet") == 1
    assert roll(pos)["dice"]["soviet"]["modified"] == [4] and roll(pos)["hits"]["soviet"] == 0


def test_axis_defenders_in_an_axis_trench_add_one_to_every_die():
    """L366: German and Romanian defenders in areas with Axis Trenches "Add +1 to ALL dice rolled,
    applied after all dice have been rolled" (A03 has an Axis trench)."""
    pos = soviet_attack("A08: 25/54 | A03: 24/32 50/123", "A08", "A03")
    fight(pos, [1] + [4, 3, 1])
    assert roll(pos)["dice"]["axis"]["modified"] == [5, 4, 2]
    assert roll(pos)["dice"]["axis"]["notes"] == ["+1 to every die (Axis trench)"]
    assert roll(pos)["hits"]["axis"] == 1


def test_soviet_blocks_in_an_axis_trench_get_no_trench_bonus():
    """L296 "Each side can only benefit from their own Trench Areas"; L364-366: the Axis trench is for
    German and Romanian defenders."""
    pos = axis_attack("A01: 24/32 | A03: 25/54", origin="A01", target="A03")
    fight(pos, [1] + [4])
    assert roll(pos)["dice"]["soviet"]["modified"] == [4] and roll(pos)["dice"]["soviet"]["notes"] == []


def test_cancellation_removes_the_defenders_six_first_sparing_an_exhaustion():
    """L310, ruling R-MOD: "The Axis player can nullify a Soviet hit since he has an 'armored' marker
    ... He chooses the die with a result of '6' and thus also prevents one of his blocks from being
    'Exhausted'" - only uncancelled 6s exhaust."""
    pos = axis_attack("A10: 24/32 50/123 | A11: 25/54 25/31", assets="ASSETS ARMOR STUGA A10")
    fight(pos, [1, 1, 1] + [6, 5])
    assert roll(pos)["hits"]["soviet"] == 1 and roll(pos)["sixes"] == 0
    pos.order("axis", "HITS 24/32")
    assert not pos.exhausted("24/32") and not pos.exhausted("50/123")


# ================================================================ step 2: armor, AT guns, AT ditches


def test_an_at_marker_fires_one_die_at_axis_armor_and_a_hit_flips_it():
    """L246: if an AT marker is present and the Axis has an Armor counter, "the Soviet player rolls 1d6
    and inflicts a hit on the Armor marker on result of 5 or 6"; L236: the first hit flips it."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS ARMOR PZ3 A10").marker("A11", "at")
    fight(pos, [5] + [4] + [1])
    shot = pos.last("anti_armor")
    assert (shot["reason"], shot["target"], shot["hit"]) == ("AT gun", "PZ3", True)
    assert pos.asset_at("PZ3") == ("map", "A11", 1)
    assert roll(pos)["dice"]["axis"]["modified"] == [5]  # a flipped counter keeps its effect (R-ARMOR)


def test_an_at_marker_does_nothing_without_axis_armor_and_absorbs_no_hit():
    """L246: the AT roll needs Axis Armor in the combat; "AT markers cannot absorb any hit inflicted on
    the blocks they are stacked with"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54").marker("A11", "at")
    fight(pos, [5] + [1])
    assert pos.kinds("anti_armor") == []
    assert roll(pos)["hits"]["axis"] == 1 and roll(pos)["cancelled"]["axis"] == 0
    assert pos.sp("25/54") == 2


def test_armor_against_armor_both_roll_one_die():
    """L252: "If both sides have Armor counters present in a combat, then both players roll 1d6 to see
    if they inflict casualties on the enemy armor"; a hit on 5 or 6 flips the counter."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS ARMOR PZ3 A10").asset("T26A", "A11")
    fight(pos, [2, 6] + [1] + [1])
    shots = {s["side"]: s for s in pos.kinds("anti_armor")}
    assert shots["soviet"]["target"] == "PZ3" and not shots["soviet"]["hit"]
    assert shots["axis"]["target"] == "T26A" and shots["axis"]["hit"]
    assert pos.asset_at("T26A")[2] == 1 and pos.asset_at("PZ3")[2] == 2


def test_at_and_armor_roll_two_dice_and_an_eliminated_armor_gives_no_benefit():
    """L252: with both AT and Armor the Soviet rolls 2d6 and "could inflict up to 2 steps of losses on
    the Axis Armor counter, potentially eliminating it"; ruling R-ARMOR: all anti-armor dice are rolled
    then applied, and an eliminated counter gives no later benefit (no StuG die, no cancellation)."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", assets="ASSETS ARMOR STUGA A10").asset("T26A", "A11")
    pos.marker("A11", "at")
    fight(pos, [5, 6, 1] + [1] + [5])
    assert [(s["side"], s["hit"]) for s in pos.kinds("anti_armor")] == [("soviet", True), ("soviet", True),
                                                                       ("axis", False)]
    assert pos.asset_at("STUGA") == ("eliminated", None, 0)
    assert pos.parts("axis") == [("blocks", 1)]  # no StuG die any more
    assert roll(pos)["cancelled"]["soviet"] == 0  # and no cancellation


def test_armor_is_unharmed_by_hits_on_its_blocks():
    """L236: "A counter can be damaged in combat, but is not affected by any hits suffered by the
    block(s) it accompanies"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54 25/31 25/287", assets="ASSETS ARMOR PZ3 A10")
    fight(pos, [1] + [5, 5, 1, 1])
    assert pos.sp("24/32") == 2 and pos.asset_at("PZ3")[2] == 2


def test_armor_crossing_an_at_ditch_against_the_teeth_draws_one_more_soviet_die():
    """L352: "The Soviet player rolls one additional d6 during step 2 ... if ... there is an attacking
    Axis Armor counter that crossed the AT ditch boundary (against the 'teeth') to enter the combat
    area" (A06|A07, teeth from A06)."""
    pos = axis_attack("A06: 24/32 | A07: 25/54", origin="A06", target="A07", assets="ASSETS ARMOR STUGA A06")
    fight(pos, [5] + [1] + [1])
    shot = pos.last("anti_armor")
    assert shot["reason"] == "AT ditch" and shot["hit"] and pos.asset_at("STUGA")[2] == 1


def test_no_ditch_die_crossing_with_the_teeth_or_over_a_normal_boundary():
    """L352: "There is no effect on combat if the attacking Armor crosses the AT ditch in the direction
    of the 'teeth' or if the Armor marker enters the combat area through a normal boundary"."""
    pos = axis_attack("A07: 24/32 | A06: 25/54", origin="A07", target="A06", assets="ASSETS ARMOR STUGA A07")
    fight(pos, [1] + [1])
    assert pos.kinds("anti_armor") == []
    pos = axis_attack("A12: 24/32 | A07: 25/54", origin="A12", target="A07", assets="ASSETS ARMOR STUGA A12")
    fight(pos, [1] + [1])
    assert pos.kinds("anti_armor") == []


def test_ditch_at_gun_and_soviet_armor_make_up_to_three_anti_armor_dice():
    """L352: the ditch die "is cumulative with the presence of a Soviet Armor counter and AT marker. So,
    the Soviet player could roll up to 3d6 for AT fire in a single combat" (B05|B07, teeth from B05)."""
    pos = axis_attack("B05: 24/32 | B07: 25/54", origin="B05", target="B07", assets="ASSETS ARMOR PZ3 B05")
    pos.asset("T26A", "B07").marker("B07", "at")
    fight(pos, [1, 1, 1, 1] + [1] + [1])
    shots = pos.kinds("anti_armor")
    assert sorted(s["reason"] for s in shots if s["side"] == "soviet") == ["AT ditch", "AT gun", "armor T26A"]
    assert [s["target"] for s in shots if s["side"] == "axis"] == ["T26A"]


def test_the_ditch_counts_for_the_border_the_armor_crossed():
    """L352: what matters is that the Armor counter "crossed the AT ditch boundary ... to enter the
    combat area"; here a block enters A07 over a normal boundary first, then the armor with a second
    group across the ditch from A06."""
    pos = setup("A12: 24/31 | A06: 24/32 | A07: 25/54", axis=("assault",))
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS ARMOR STUGA A06")
    pos.order("axis", "MOVE 24/31 TO A07")
    pos.order("axis", "MOVE 24/32 TO A07 WITH STUGA")
    pos.order("axis", "RESOLVE A07")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[1] + [1, 1, 1] + [1])
    assert [s["reason"] for s in pos.kinds("anti_armor")] == ["AT ditch"]


def test_the_at_markers_supplied_are_the_most_on_the_map():
    """L246: "The number of AT markers supplied with the game is the maximum number of ATs that can be
    on map at the same time" (6 on the countersheet): a Minefield card then places its Minefield only."""
    pos = axis_attack("A10: 24/32 | A11: 25/54", soviet=("minefield",))
    for area in ("B01", "B02", "B03", "B05", "B06", "B07"):
        pos.marker(area, "at")
    fight(pos, [1, 1], "NONE", "MINEFIELD")
    assert pos.board.marker("A11", "minefield") and not pos.board.marker("A11", "at")
    assert pos.last("marker_short") == {"area": "A11", "marker": "at"}


# ================================================================ step 5: casualties (ruling R-WIN)


def test_the_first_hit_goes_to_a_block_with_the_most_sp():
    """L312, ruling R-WIN: "One of the German 4-step blocks must suffer the first hit. The other can be
    assigned as the Axis player wishes"."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 25/54 25/31 25/287")
    fight(pos, [1, 1] + [5, 5, 1, 1])
    pos.illegal("axis", "HITS 24/32 24/31", because=r"the first hit must go to a block with the most SP \(4\)")
    pos.order("axis", "HITS 24/31 24/32")
    assert (pos.sp("24/31"), pos.sp("24/32")) == (3, 2)


def test_the_first_hit_on_the_strongest_block_need_not_be_the_exhausting_six():
    """Ruling R-WIN step 5 (L312, L320): "The first hit goes to a block with the most SP ...; the
    defender's uncancelled modified 6s go to different attacking blocks and exhaust them; the rest as
    the owner wishes". With a 6 and a 5 against a 4-SP and a 3-SP block, the 4-SP block may take the
    first (ordinary) hit and the 3-SP block the 6: HITS names the 6s first, here 24/32."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 25/54 25/31 25/287")
    fight(pos, [1, 1] + [6, 5, 1, 1])
    pos.order("axis", "HITS 24/32 24/31")
    assert (pos.sp("24/31"), pos.sp("24/32")) == (3, 2)
    assert pos.exhausted("24/32") and not pos.exhausted("24/31")


def test_hits_beyond_the_strength_present_are_lost_but_still_count():
    """Ruling R-WIN: hits beyond the SP present are lost, but count for the winner (L314)."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 3NI=1")
    fight(pos, [5, 5, 6] + [1])
    assert pos.where("3NI") is None
    assert pos.last("combat_result")["hits"] == {"axis": 0, "soviet": 3}


# ================================================================ exhaustion (L316-326)


def test_the_defenders_sixes_hit_different_attacking_blocks_and_exhaust_them():
    """L320: "Each hit by the defender caused by a modified roll of 6 must to be applied to a different
    attacking block, if possible. In addition to suffering a casualty, each block to which a 6 result
    is applied becomes Exhausted"."""
    pos = axis_attack("A10: 24/31 24/32 50/123 | A11: 25/54 25/31 25/287")
    fight(pos, [1, 1, 1, 1] + [6, 6, 1])
    assert roll(pos)["sixes"] == 2
    pos.illegal("axis", "HITS 24/31 24/31",
                because=r"the first 2 block\(s\) you name take the 6s and must be different blocks")
    pos.order("axis", "HITS 24/31 50/123")
    assert pos.exhausted("24/31") and pos.exhausted("50/123") and not pos.exhausted("24/32")


def test_more_sixes_than_attackers_exhausts_them_all_and_the_rest_are_ordinary_hits():
    """L320: "If the attacker has fewer blocks than modified 6s rolled by the defender, then all
    attacker's blocks suffer a casualty and are Exhausted then the attacker applies the rest of hits
    as casualties to blocks of the attacker's choosing"."""
    pos = axis_attack("A10: 24/31 50/121 | A11: 25/54 25/31 25/287")
    fight(pos, [1, 1] + [6, 6, 6, 1])
    pos.order("axis", "HITS 24/31 50/121 50/121")
    assert pos.exhausted("24/31") and pos.exhausted("50/121")
    assert (pos.sp("24/31"), pos.sp("50/121")) == (3, 2)


@pytest.mark.parametrize("die, modified", [(5, 6), (6, 7)])
def test_a_modified_six_exhausts(die, modified):
    """L320 ("a modified roll of 6"), L366, ruling R-MOD: an Axis defender's 5 raised by its trench
    becomes a 6 that exhausts the Soviet attacker; a 6 raised to 7 counts as a 6."""
    pos = soviet_attack("A08: 25/54 | A03: 24/32", "A08", "A03")
    fight(pos, [1] + [die])
    assert roll(pos)["dice"]["axis"]["modified"] == [modified] and roll(pos)["sixes"] == 1
    assert roll(pos)["hits"]["axis"] == 1
    assert pos.exhausted("25/54") and pos.sp("25/54") == 2


def test_a_defenders_plus_one_goes_on_a_five_to_make_an_exhausting_six():
    """Ruling R-MOD: "a '+1 to one die' goes on a 4 (making a hit), or for a defender on a 5 (making an
    exhausting 6)"; here the Soviet trench's +1 (L296) with no 4 rolled."""
    pos = axis_attack("A11: 24/32 50/123 | A10: 25/54 25/31", origin="A11", target="A10")
    fight(pos, [1, 1] + [1, 5])
    assert roll(pos)["dice"]["soviet"]["modified"] == [1, 6] and roll(pos)["sixes"] == 1
    pos.order("axis", "HITS 50/123")
    assert pos.exhausted("50/123") and not pos.exhausted("24/32")


def test_the_attackers_sixes_never_exhaust_defenders():
    """L310 ("the defenders are never 'Exhausted'"), L320: only the defender's 6s exhaust."""
    pos = axis_attack("A10: 24/32 | A11: 25/54 25/31")
    fight(pos, [6] + [1, 1, 1])
    pos.order("soviet", "HITS 25/54")
    assert not pos.exhausted("25/54") and pos.sp("25/54") == 2


def test_an_exhausted_block_defends_normally():
    """L322: "While face down and Exhausted a block can defend normally"."""
    pos = axis_attack("A10: 24/32 | A11: 25/54* 25/31*")
    fight(pos, [1] + [1, 1, 1])
    assert pos.parts("soviet") == [("blocks", 2), ("more strength points", 1)]


def test_exhausted_blocks_rally_only_by_passing():
    """L144, L324: "Exhausted blocks can only be rallied by declaring a PASS"; playing cards and ending
    the phase rallies nobody, and a Pass rallies only the passing side's blocks."""
    pos = setup("A04: 24/31* 24/32 | A08: 25/54*", axis=("assault", "assault"))
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "DONE")
    pos.order("axis", "END")
    assert pos.exhausted("24/31")
    pos.phase("axis")
    pos.order("axis", "PASS")
    assert not pos.exhausted("24/31") and pos.exhausted("25/54")
    assert pos.last("pass")["rallied"] == 1


# ================================================================ step 6: the winner (ruling R-WIN)


def test_the_side_that_suffered_more_hits_loses_and_retreats():
    """L314, ruling R-WIN: "The Soviet side has suffered more casualties and must withdraw"."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 25/54 25/31")
    fight(pos, [5, 5, 1] + [5, 1])
    pos.order("axis", "HITS 24/31")
    pos.order("soviet", "HITS 25/54 25/31")
    assert pos.last("combat_result") == {"area": "A11", "winner": "axis", "attacker": "axis",
                                         "hits": {"axis": 1, "soviet": 2}}
    assert [d.kind for d in pos.pending("soviet")] == ["retreat"]


def test_a_beaten_attacker_goes_back_to_the_area_it_came_from():
    """L270: "attacking blocks must retreat to the area they came from"."""
    pos = setup("A04: 24/31 | A09: 24/32 | A08: 25/54 25/31", axis=("assault",))
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A08")
    pos.order("axis", "MOVE 24/32 TO A08")
    pos.order("axis", "RESOLVE A08")
    fight(pos, [1, 1] + [5, 1])  # Axis 2 +1 (7 SP to 6) -1 (rough); Soviet 2, the trench makes the 5 a 6
    pos.order("axis", "HITS 24/31")
    assert pos.last("combat_result")["winner"] == "soviet"
    assert (pos.where("24/31"), pos.where("24/32")) == ("A04", "A09")


def test_a_tie_goes_to_the_attacker_by_default_and_to_the_defender_by_option():
    """Ruling R-WIN: without a trench to decide, option tie_winner: attacker (default) | defender."""
    pos = axis_attack("A10: 24/32 | A11: 25/54")
    fight(pos, [5] + [5])
    assert pos.last("combat_result")["winner"] == "axis"
    pos = axis_attack("A10: 24/32 | A11: 25/54", options={"tie_winner": "defender"})
    fight(pos, [5] + [5])
    assert pos.last("combat_result")["winner"] == "soviet"
    assert pos.where("24/32") == "A10"


def test_soviet_defenders_win_ties_in_an_intact_soviet_trench():
    """L362: Soviet defenders in areas with Soviet Trenches "Win ties in combat" - but not once the
    trench is out of order (L370)."""
    pos = axis_attack("A11: 24/32 | A10: 25/54", origin="A11", target="A10")
    fight(pos, [5] + [5])
    assert pos.last("combat_result")["winner"] == "soviet"
    pos = axis_attack("A11: 24/32 | A10: 25/54", origin="A11", target="A10").disabled("A10")
    fight(pos, [5] + [5])
    assert pos.last("combat_result")["winner"] == "axis"


def test_axis_defenders_win_ties_in_an_axis_trench():
    """L368: German and Romanian defenders in Axis Trenches "Win ties in combat"."""
    pos = soviet_attack("A08: 25/54 | A03: 24/32", "A08", "A03")
    fight(pos, [5] + [3])  # the trench makes the Axis 3 a 4: no hit; 1 against 0 - Soviet wins
    assert pos.last("combat_result")["winner"] == "soviet"
    pos = soviet_attack("A08: 25/54 | A03: 24/32", "A08", "A03")
    fight(pos, [5] + [4])  # 4 + 1 = 5: one hit each, a tie
    assert pos.last("combat_result")["winner"] == "axis"


def test_when_both_sides_are_wiped_out_nobody_wins_and_control_stays():
    """Ruling R-WIN: "if both are [eliminated], nobody wins and control does not change"."""
    pos = axis_attack("A10: 24/32=1 | A11: 25/54=1")
    fight(pos, [5] + [5])
    assert pos.last("combat_result")["winner"] is None
    assert pos.state["control"]["A11"] == "soviet" and pos.state["control"]["A10"] == "axis"


def test_wiping_out_the_defenders_wins_the_area_and_puts_its_soviet_trench_out_of_order():
    """Ruling R-WIN ("A side whose blocks are all eliminated loses"), L390 (control changes when the
    defenders are gone and the attacker remains), L370 (the Soviet trench is put out of order)."""
    pos = axis_attack("A11: 24/31 | A10: 25/54=1", origin="A11", target="A10")
    fight(pos, [5, 1] + [6])
    assert pos.last("combat_result")["winner"] == "axis"
    assert pos.state["control"]["A10"] == "axis" and "A10" in pos.state["trench_disabled"]
    assert pos.where("24/31") == "A10"


# ================================================================ the battery assault (L338-344)


def test_storming_an_empty_battery_rolls_one_die_per_block_against_two_and_one_hit_destroys_it():
    """L338-344: with no Soviet block in a battery area, an Assault attacks the battery with blocks
    already there; the battery rolls 2d6, the Axis 1d6 per block (no SP, terrain or river die - ruling
    R-BATTERY), no Combat Support cards are played, and one hit destroys the battery and gives the Axis
    the area at once."""
    pos = setup("A05: 24/31 24/32", axis=("assault", "axis_field_artillery"))
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT GROUP A05")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "STORM A05", dice=[5, 1] + [1, 1])
    assert pos.parts("axis") == [("blocks", 2)] and pos.parts("soviet") == [("battery", 2)]
    assert pos.kinds("support_committed") == []  # no support card asked
    assert pos.last("battery_assault") == {"area": "A05", "hits": 1, "destroyed": True}
    assert "A05" in pos.state["batteries_destroyed"] and pos.state["control"]["A05"] == "axis"


def test_moving_into_an_empty_battery_area_attacks_the_battery():
    """L338: "A battery can be attacked by activating blocks already in the area and/or by moving blocks
    into the batteries area"."""
    pos = setup("A06: 24/31 | A05: 24/32", axis=("assault",))
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A05")
    pos.order("axis", "RESOLVE A05", dice=[1, 1] + [1, 1])
    assert pos.last("combat")["battery"] is True and pos.dice("axis") == 2
    assert pos.last("battery_assault")["destroyed"] is False
    assert pos.state["control"]["A05"] == "soviet"  # an undestroyed battery keeps its area (L332)


def test_a_failed_battery_assault_needs_no_retreat_and_the_batterys_six_exhausts():
    """L343: "The Axis player blocks do not have to retreat if they do not destroy the batteries";
    ruling R-BATTERY: the battery's hits are casualties and its 6s exhaust."""
    pos = setup("A05: 24/31", axis=("assault",))
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT GROUP A05")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "STORM A05", dice=[1] + [6, 1])
    assert pos.where("24/31") == "A05" and pos.sp("24/31") == 3 and pos.exhausted("24/31")
    assert "A05" not in pos.state["batteries_destroyed"]


def test_exhausted_blocks_take_no_part_in_a_battery_assault_and_are_not_affected():
    """L322: "If Exhausted blocks are stacked with other Axis blocks that attack an intact Soviet
    Battery, they do not take part in the combat nor are affected by it in any way"."""
    pos = setup("A05: 24/31 24/32*", axis=("assault",))
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT GROUP A05")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "STORM A05", dice=[1] + [5, 5])
    assert pos.parts("axis") == [("blocks", 1)]
    assert pos.sp("24/32") == 3 and pos.sp("24/31") == 2


def test_armor_helps_a_battery_assault():
    """L341: "The Axis player rolls 1d6 per block in the area and can benefit from an Armor counter, if
    there is one present" (a StuG: one more die and one battery hit cancelled)."""
    pos = setup("A05: 24/31", axis=("assault",))
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT GROUP A05")
    pos.order("axis", "ASSETS ARMOR STUGA A05")
    pos.order("axis", "STORM A05", dice=[1, 1] + [5, 1])
    assert pos.parts("axis") == [("blocks", 1), ("StuG assault guns", 1)]
    assert roll(pos)["cancelled"]["soviet"] == 1 and pos.sp("24/31") == 4


def test_a_counterattack_window_follows_a_battery_assault():
    """L160, L192, ruling R-BATTERY: a battery assault is a combat, after which the opponent may
    Counterattack."""
    pos = setup("A05: 24/31 | A06: 25/54", axis=("assault",), soviet=("counterattack",))
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT GROUP A05")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "STORM A05", dice=[5] + [1, 1])
    assert [d.kind for d in pos.pending("soviet")] == ["counterattack"]
