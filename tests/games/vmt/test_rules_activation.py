"""Rule clauses: Assault cards and activation (L166-180, L192-194, L435), Coordinated Assault
(L182-200), asset placement and movement (L224-234, L254, L378), exhaustion and attacking (L322),
the ferry attack ban (L380) and the Counterattack reaction window (L160, L192, L439; ruling R-CA).

Each test restates one clause, builds the smallest position and plays it as a player would."""


from tests.games.vmt.harness import Position


def axis_turn(layout: str, *cards: str, soviet_cards: tuple[str, ...] = (), options=None) -> Position:
    """The Axis action phase with just these blocks on the map; every area holding Soviet blocks
    is Soviet-controlled, every area holding Axis blocks Axis-controlled."""
    pos = Position(options=options).clear().place(layout)
    for _block, entry in pos.state["blocks"].items():
        if entry["status"] == "map":
            pos.control(entry["area"], entry["side"])
    pos.hand("axis", *cards).hand("soviet", *soviet_cards)
    return pos.phase("axis")


def soviet_turn(layout: str, *cards: str, axis_cards: tuple[str, ...] = (), options=None) -> Position:
    pos = Position(options=options).clear().place(layout)
    for _block, entry in pos.state["blocks"].items():
        if entry["status"] == "map":
            pos.control(entry["area"], entry["side"])
    pos.hand("soviet", *cards).hand("axis", *axis_cards)
    return pos.phase("soviet")


def no_support_fight(pos: Position, attacker: str, dice: list[int]) -> None:
    """Both sides commit no Combat Support card; the dice are the attacker's, then the defender's."""
    defender = "soviet" if attacker == "axis" else "axis"
    pos.order(attacker, "SUPPORT NONE")
    pos.order(defender, "SUPPORT NONE", dice=dice)


# ---------------------------------------------------------------- a) a group of 1-3 blocks from one area


def test_group_activation_takes_every_block_of_one_area_whatever_its_division():
    """L172: an Assault card moves a group of 1 to 3 blocks from the same area, "regardless of the
    divisional affiliation of the blocks: the blocks just have to begin stacked in the same area"."""
    pos = axis_turn("A04: 24/31 50/121 213 | A09: 24/32 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    played = pos.last("card_played")
    assert played["card"] == "assault" and played["mode"] == "group" and played["blocks"] == 3
    assert pos.top()["blocks"] == ["213", "24/31", "50/121"]  # three divisions' worth, one area
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 24/32 TO A08",
                because=r"24/32 is not activated by this card")  # same division, other area: not in the group


def test_group_moves_to_several_areas_and_its_attack_is_fought_at_once_before_the_rest_move():
    """L172: "You can simply move, or move and attack with some of the blocks and then move other
    blocks to other adjacent areas and/or initiate new attacks"; L266: a combat is resolved at the
    instant a block moves into an enemy-occupied area (ruling R-COORD: a group fights at once)."""
    pos = axis_turn("A04: 24/31 50/121 213 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 213 TO A01")
    pos.order("axis", "MOVE 24/31 TO A08")
    combat = pos.top()
    assert combat["kind"] == "combat" and combat["area"] == "A08"  # no RESOLVE needed
    assert [e["block"] for e in combat["attackers"]] == ["24/31"]
    # Axis 1 die (1 block, 4 SP > 3: +1, rough: -1); Soviet 1 die, +1 for the trench on its 1.
    no_support_fight(pos, "axis", [5, 1])
    pos.order("soviet", "RETREAT TO A12")
    pos.order("soviet", "COUNTERATTACK NONE")
    pos.order("axis", "MOVE 50/121 TO A09")  # the rest of the group moves after the combat
    assert (pos.where("213"), pos.where("24/31"), pos.where("50/121")) == ("A01", "A08", "A09")


def test_a_block_moves_only_once_per_card():
    """L164, L194: a block acts once per card ("blocks can only move ONE area with each Assault card");
    to act again it needs another card."""
    pos = axis_turn("A04: 24/31 213", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 213 TO A01")
    pos.illegal("axis", "MOVE 213 TO A03", because=r"213 has already moved with this card")


def test_ordinary_blocks_move_one_area_with_an_assault():
    """L194: "Usually blocks can only move ONE area with each Assault card"."""
    pos = axis_turn("A01: 24/31", "assault")
    pos.order("axis", "ASSAULT GROUP A01")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 24/31 TO A09 VIA A04",
                because=r"only two-area movers may move two areas with an Assault")
    assert "24/31" in pos.top()["blocks"] and pos.where("24/31") == "A01"


def test_two_area_mover_attacks_the_enemy_in_the_second_area_it_enters():
    """L194, L266, L435: blocks with the two-area symbol (28/49, 28/83, 7NI, 9NI) move up to TWO
    areas "and even attack enemy blocks located in the second area they enter"."""
    pos = axis_turn("A01: 28/49 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT GROUP A01")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 28/49 TO A08 VIA A04")
    combat = pos.top()
    assert combat["kind"] == "combat" and combat["area"] == "A08"
    assert combat["attackers"][0]["block"] == "28/49" and combat["attackers"][0]["origin"] == "A01"
    assert pos.state["control"]["A04"] == "axis"


def test_soviet_two_area_mover_moves_two_areas():
    """L194: the Soviet 7NI and 9NI are two-area movers too."""
    pos = soviet_turn("C04: 7NI 8NI | A10: 24/31", "assault", "assault")
    pos.order("soviet", "ASSAULT GROUP C04")
    pos.order("soviet", "ASSETS NONE")
    pos.order("soviet", "MOVE 7NI TO C06 VIA C03")
    assert pos.where("7NI") == "C06"
    pos.illegal("soviet", "MOVE 8NI TO C06 VIA C03",
                because=r"only two-area movers may move two areas with an Assault")


def test_a_move_stops_in_the_first_enemy_occupied_area():
    """L194, L266: a two-area mover attacks in the second area it enters; entering enemy blocks is
    a combat at once, so it cannot move through an enemy-occupied area."""
    pos = axis_turn("A01: 28/49 | A04: 25/54", "assault")
    pos.control("A09", "axis")
    pos.order("axis", "ASSAULT GROUP A01")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 28/49 TO A09 VIA A04", because=r"A04 holds enemy blocks: movement stops there")


# ---------------------------------------------------------------- b) a whole division


def test_division_activation_takes_the_division_and_the_non_divisional_blocks_stacked_with_it():
    """L176, L435: "Activate ALL the blocks belonging to ONE DIVISION regardless of which areas they
    occupy PLUS ALL the NON-DIVISIONAL blocks stacked with them"; the Division's marker goes on the
    card. Other divisions' blocks stacked with it and non-divisional blocks elsewhere stay put."""
    pos = axis_turn("A04: 24/31 213 50/121 | A09: 24/32 | A01: 420", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    assert pos.last("card_played")["divisions"] == ["24"]
    assert pos.top()["blocks"] == ["213", "24/31", "24/32"]
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 50/121 TO A03", because=r"50/121 is not activated by this card")
    pos.illegal("axis", "MOVE 420 TO A03", because=r"420 is not activated by this card")


def test_division_blocks_from_several_areas_join_one_attack_and_wait_for_resolve():
    """L186, L192: with a divisional activation "you can wait to move all the blocks you want into the
    combat area before resolving the combat", and "move blocks from several areas to attack the same
    enemy occupied area. You decide when to stop moving blocks and resolve a combat"."""
    pos = axis_turn("A04: 24/31 | A09: 24/32 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A08")
    assert pos.top()["kind"] == "activation" and "A08" in pos.top()["pending"]  # no combat yet
    pos.order("axis", "MOVE 24/32 TO A08")
    pos.order("axis", "RESOLVE A08")
    combat = pos.top()
    assert combat["kind"] == "combat"
    assert {e["block"]: e["origin"] for e in combat["attackers"]} == {"24/31": "A04", "24/32": "A09"}
    assert pos.last("combat")["origins"] == ["A04", "A09"]


def test_a_non_attacking_move_may_not_end_over_the_stacking_limit():
    """L95, L190: 3 blocks is the stacking limit; only an attack may over-stack, temporarily."""
    pos = axis_turn("A04: 24/31 | A09: 50/121 50/122 50/123", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 24/31 TO A09", because=r"A09 would hold more than 3 of your blocks \(stacking limit\)")


# ---------------------------------------------------------------- Coordinated Assault


def test_coordinated_assault_needs_a_division_stacked_with_the_activated_ones():
    """L190: a second Assault card activates a second division "as long as you have blocks from every
    activated division stacked together in the same area"."""
    pos = axis_turn("A04: 24/31 50/121 | A03: 22/16 | A08: 25/54", "assault", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.illegal("axis", "COORDINATE 22",
                because=r"division 22 cannot join this Coordinated Assault: it needs blocks stacked with every "
                        r"activated division.*\(rulebook: Coordinated Assault\)")
    pos.order("axis", "COORDINATE 50")
    assert pos.last("coordinated")["division"] == "50" and pos.last("coordinated")["card"] == "assault"
    assert pos.top()["divisions"] == ["24", "50"]
    assert pos.state["hands"]["axis"] == []  # the second card was played


def test_coordinated_assault_needs_another_card():
    """L190: each further division needs another Assault card played."""
    pos = axis_turn("A04: 24/31 50/121 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    assert [d.kind for d in pos.pending("axis")] == ["assets"]  # no card left: no coordination offered


def test_coordinated_assault_has_at_most_three_divisions():
    """L190: "You can coordinate a maximum of three divisions as you can only stack 3 blocks per area"."""
    pos = axis_turn("A04: 24/31 50/121 22/16 | A08: 25/54", "assault", "assault", "assault", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50")
    pos.order("axis", "COORDINATE 22")
    assert pos.top()["divisions"] == ["24", "50", "22"]
    assert [d.kind for d in pos.pending("axis")] == ["assets"]  # a fourth Assault is still held
    assert [pos.state["cards"][c] for c in pos.state["hands"]["axis"]] == ["assault"]


def test_each_coordinated_assault_card_allows_its_own_asset_placement():
    """L200: "Each card also allows him to place an 'engineer' and an 'armored' marker on the board"."""
    pos = axis_turn("A04: 24/31 50/121 | A09: 24/32 | A08: 25/54", "assault", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50")
    pos.order("axis", "ASSETS ARMOR PZ3 A04 PIONEER APIOA A04")
    pos.order("axis", "ASSETS ARMOR STUGA A09 PIONEER APIOB A09")
    assert [d.kind for d in pos.pending("axis")] == ["move"]  # two cards, two placements, no third
    assert pos.asset_at("PZ3") == ("map", "A04", 2) and pos.asset_at("STUGA") == ("map", "A09", 2)


def test_coordinated_attack_over_stacks_and_the_winner_keeps_at_most_three():
    """L190: "an attacker can temporarily over stack for combat. At the end of combat, if victorious,
    the attacker can leave up to 3 blocks in the combat area but must return the rest of the blocks to
    their original areas"."""
    pos = axis_turn("A09: 24/31 50/121 | B04: 24/32 50/122 | A13: 25/54", "assault", "assault")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 50/121 TO A13")
    pos.order("axis", "MOVE 24/32 50/122 TO A13")
    assert len(pos.board.blocks_in("A13", "axis")) == 4
    pos.order("axis", "RESOLVE A13")
    # Axis 4 blocks +1 (15 SP > 3) -1 (rough) = 4 dice; Soviet 1 die.
    no_support_fight(pos, "axis", [5, 1, 1, 1, 1])
    assert pos.dice("axis") == 4
    pos.order("soviet", "RETREAT TO A12")
    pos.illegal("axis", "KEEP 24/31 50/121 24/32 50/122", because=r"name at most 3 of your blocks in A13")
    pos.order("axis", "KEEP 24/31 50/121 24/32")
    assert sorted(pos.board.blocks_in("A13", "axis")) == ["24/31", "24/32", "50/121"]
    assert pos.where("50/122") == "B04"  # home, where it came from
    assert pos.last("returned") == {"area": "A13", "side": "axis", "count": 1, "origins": ["B04"]}


# ---------------------------------------------------------------- placing assets


def test_an_assault_places_one_armor_and_one_pioneer_with_friendly_blocks_in_any_areas():
    """L178, L228, L435: ONE Armor AND ONE Pioneer counter, each with any friendly block; they need not
    go to the same area, and may go with blocks that will not move."""
    pos = axis_turn("A04: 24/31 | A09: 50/121 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS ARMOR STUGA A04 PIONEER APIOA A09")
    assert pos.asset_at("STUGA") == ("map", "A04", 2)
    assert pos.asset_at("APIOA") == ("map", "A09", 2)  # with a block that is not activated
    assert [d.kind for d in pos.pending("axis")] == ["move"]  # one placement per card


def test_an_asset_must_be_placed_with_a_friendly_block():
    """L228, L232: counters go into areas with your own block(s); they are never alone."""
    pos = axis_turn("A04: 24/31", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.illegal("axis", "ASSETS ARMOR PZ3 A01",
                because=r"an asset goes with your blocks, and you have none in A01")


def test_one_armor_counter_per_area_all_axis_armor_being_one_type():
    """L178, L234: an area may not already contain a counter of the type; "different Axis Armor
    counters are considered a single type"."""
    pos = axis_turn("A04: 24/31", "assault").asset("STUGA", "A04")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.illegal("axis", "ASSETS ARMOR PZ3 A04",
                because=r"A04 already has your armor counter: one of each type per area")
    pos.order("axis", "ASSETS PIONEER APIOA A04")  # a Pioneer is another type: allowed
    assert pos.asset_at("APIOA") == ("map", "A04", 2)


def test_a_reactive_counterattack_places_no_assets():
    """L228, L439: a Counterattack played as a Reaction "DOES NOT ALLOW the player to place new Armor
    nor Pioneer counters"."""
    pos = axis_turn("A04: 24/31 | A08: 25/54 | A12: 25/31", "assault", soviet_cards=("counterattack",))
    pos.order("axis", "ASSAULT GROUP A04 TO A08")
    no_support_fight(pos, "axis", [1, 1])  # Axis 1 die (4 SP vs 3, rough), Soviet 1 die: no hit
    window = pos.pending("soviet")[0]
    assert window.kind == "counterattack"
    pos.order("soviet", "COUNTERATTACK GROUP A12")
    assert pos.top()["reaction"] is True and pos.top()["assets_left"] == 0
    assert [d.kind for d in pos.pending("soviet")] == ["move"]  # straight to moving: no assets asked
    assert pos.asset_at("T26A")[0] == "pool"


def test_a_counterattack_played_as_an_assault_in_ones_own_phase_places_assets():
    """L439 ("it can be used ... as an Assault"), ruling R-CA: played in one's own phase it is an
    Assault in every respect, assets included."""
    pos = axis_turn("A04: 24/31", "counterattack")
    pos.order("axis", "ASSAULT GROUP A04 USING COUNTERATTACK")
    assert pos.last("card_played")["card"] == "counterattack"
    pos.order("axis", "ASSETS ARMOR PZ3 A04")
    assert pos.asset_at("PZ3") == ("map", "A04", 2)


# ---------------------------------------------------------------- moving assets


def test_two_armor_counters_may_not_join_in_one_attacked_area():
    """L190: "at all times an attacker must observe the restriction on having no more than one armor and
    pioneer marker in the same area" (L234)."""
    pos = axis_turn("A04: 24/31 | A09: 24/32 | A08: 25/54", "assault").asset("PZ3", "A04").asset("STUGA", "A09")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A08 WITH PZ3")
    pos.illegal("axis", "MOVE 24/32 TO A08 WITH STUGA",
                because=r"A08 already has your armor counter PZ3: one of each type per area")


def test_an_asset_left_without_blocks_follows_the_last_blocks_out():
    """L232: Armor and Pioneer counters cannot be left alone in an area (ruling R-ORDER: the asset
    follows the last blocks to leave)."""
    pos = axis_turn("A04: 24/31", "assault").asset("PZ3", "A04").asset("APIOA", "A04")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "MOVE 24/31 TO A09")
    assert pos.asset_at("PZ3")[1] == "A09" and pos.asset_at("APIOA")[1] == "A09"


def test_when_a_group_splits_the_owner_decides_which_blocks_the_asset_stays_with():
    """L230: "If they are stacked with blocks and the group splits up, the owner decides which blocks
    they remain with"."""
    pos = axis_turn("A04: 24/31 50/121", "assault").asset("PZ3", "A04")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "MOVE 24/31 TO A09")
    assert pos.asset_at("PZ3")[1] == "A04"  # not taken: stays with 50/121
    pos.order("axis", "MOVE 50/121 TO A01 WITH PZ3")
    assert pos.asset_at("PZ3")[1] == "A01"


def test_assets_cannot_be_picked_up_on_the_way():
    """L230: "The only condition to move blocks and counters together is that they must BEGIN their
    activation in the same area. You cannot 'pick up' or 'drop off' during movement"."""
    pos = axis_turn("A01: 28/49 | A04: 50/121 | A08: 25/54", "assault").asset("PZ3", "A04")
    pos.order("axis", "ASSAULT GROUP A01")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 28/49 TO A08 VIA A04 WITH PZ3", because=r"PZ3 is not with your blocks in A01")
    assert pos.asset_at("PZ3")[1] == "A04"


def test_an_asset_that_arrived_this_activation_leaves_only_with_a_later_activation():
    """L230: "These counters can enter an area with some blocks and, in a following activation, move
    out of the area together with a block that starts in the area" - not in the same activation."""
    pos = axis_turn("A04: 24/31 | A09: 24/32", "assault", "assault").asset("PZ3", "A04")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A09 WITH PZ3")
    pos.illegal("axis", "MOVE 24/32 TO A13 WITH PZ3",
                because=r"PZ3 did not begin this activation in A09: an asset moves only with the blocks it began with")
    pos.order("axis", "DONE")
    pos.order("axis", "ASSAULT GROUP A09")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/32 TO A13 WITH PZ3")  # the following activation: allowed
    assert pos.asset_at("PZ3")[1] == "A13"


def test_armor_cannot_use_a_ferry_arrow_but_pioneers_can():
    """L254, L378: "An Armor counter cannot accompany friendly blocks moving ... along the Ferry
    crossing arrows"; "The blocks can be accompanied by Pioneer counters but not by Armor counters"."""
    pos = axis_turn("A10: 24/31 24/32 | C02: 3NI", "assault")
    pos.asset("PZ3", "A10").asset("APIOA", "A10")
    pos.order("axis", "ASSAULT GROUP A10")
    pos.illegal("axis", "MOVE 24/31 TO C02 WITH PZ3",
                because=r"PZ3 is armor and cannot use a ferry arrow \(rulebook: Armor\)")
    pos.order("axis", "MOVE 24/31 TO C02 WITH APIOA")
    assert pos.top()["kind"] == "combat" and pos.asset_at("APIOA")[1] == "C02"
    assert pos.asset_at("PZ3")[1] == "A10"


def test_the_last_block_cannot_cross_a_ferry_when_armor_would_be_left_alone():
    """L232, L254: armor may neither be left alone nor cross a ferry arrow, so the last block of an
    area with armor cannot leave by ferry."""
    pos = axis_turn("A10: 24/31 | C02: 3NI", "assault").asset("STUGA", "A10")
    pos.order("axis", "ASSAULT GROUP A10")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 24/31 TO C02", because=r"STUGA is armor and cannot use a ferry arrow \(rulebook: Armor\)")


def test_only_axis_blocks_attack_across_a_ferry_arrow():
    """L380: "Only Axis blocks, not Soviet, can move using crossing arrows to initiate combat"."""
    pos = soviet_turn("C02: 3NI 25/54 | A10: 24/31", "assault")
    pos.order("soviet", "ASSAULT GROUP C02")
    pos.order("soviet", "ASSETS NONE")
    pos.illegal("soviet", "MOVE 3NI TO A10",
                because=r"only Axis blocks may attack across a ferry arrow \(rulebook: Ferry\)")


# ---------------------------------------------------------------- exhausted blocks (L322)


def test_an_exhausted_block_cannot_attack_alone_or_with_others_but_may_move():
    """L322: an Exhausted block "is unable to attack, so it cannot enter enemy-occupied areas alone or
    when accompanying other blocks"; it may still move elsewhere."""
    pos = axis_turn("A04: 24/31* 24/32 | A08: 25/54", "assault")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 24/31 TO A08", because=r"24/31 is exhausted and cannot attack \(rulebook: Exhaustion\)")
    pos.illegal("axis", "MOVE 24/31 24/32 TO A08",
                because=r"24/31 is exhausted and cannot attack \(rulebook: Exhaustion\)")
    pos.order("axis", "MOVE 24/31 TO A09")
    assert pos.where("24/31") == "A09" and pos.exhausted("24/31")


# ---------------------------------------------------------------- the Counterattack window


def test_counterattack_window_opens_after_each_combat_and_the_activation_then_resumes():
    """L160, L192, L439: the opponent may play a Counterattack "immediately after every combat has
    been resolved"; the combat (and the Counterattack) halts the activation of the rest of the blocks,
    and "Once the activation has been completed then the opponent's turn resumes"."""
    pos = axis_turn("A04: 24/31 | A09: 24/32 | A08: 25/54 | A13: 25/31 | A12: 25/287",
                    "assault", soviet_cards=("counterattack",))
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A08")
    pos.order("axis", "RESOLVE A08")
    no_support_fight(pos, "axis", [1, 1])  # no hit: a tie, won by the defender in its trench (L362)
    window = pos.pending("soviet")
    assert [d.kind for d in window] == ["counterattack"] and window[0].interrupts == "axis"
    assert pos.pending("axis") == []  # the Axis activation waits
    pos.order("soviet", "COUNTERATTACK GROUP A12")
    assert pos.top()["side"] == "soviet" and pos.top()["reaction"] is True
    pos.order("soviet", "MOVE 25/287 TO A06")
    pos.order("soviet", "DONE")
    assert pos.where("25/287") == "A06"
    # The Axis activation resumes: 24/32 has not moved yet and may attack.
    assert [d.kind for d in pos.pending("axis")] == ["move"]
    pos.order("axis", "MOVE 24/32 TO A13")
    pos.order("axis", "RESOLVE A13")
    assert pos.top()["kind"] == "combat" and pos.top()["area"] == "A13"


def test_the_window_opens_whatever_is_held_and_needs_a_counterattack_card_to_play():
    """L439, ruling R-CA: the window opens after every combat whatever the player holds (so it tells
    nothing); a Counterattack needs the card."""
    pos = axis_turn("A04: 24/31 | A08: 25/54 | A12: 25/31", "assault", soviet_cards=("assault",))
    pos.order("axis", "ASSAULT GROUP A04 TO A08")
    no_support_fight(pos, "axis", [1, 1])
    window = pos.pending("soviet")[0]
    assert window.kind == "counterattack" and window.options == ("COUNTERATTACK NONE",)
    pos.illegal("soviet", "COUNTERATTACK GROUP A12", because=r"you hold no Counterattack card")


def test_a_combat_started_by_a_counterattack_opens_no_further_window():
    """L439, ruling R-CA: a Counterattack is played "immediately after a combat has been resolved" by
    the phasing player; combats the Counterattack itself starts open no further window."""
    pos = axis_turn("A04: 24/31 | A08: 25/54 | A09: 24/32 | A13: 25/31", "assault", "counterattack",
                    soviet_cards=("counterattack",))
    pos.order("axis", "ASSAULT GROUP A04 TO A08")
    no_support_fight(pos, "axis", [1, 1])
    pos.order("soviet", "COUNTERATTACK GROUP A13 TO A09")
    assert pos.top()["kind"] == "combat" and pos.top()["attacker"] == "soviet"
    # Soviet 1 die (3 vs 3 SP, rough -1 -> min 1); Axis 1 die: no hit, the attacker wins the tie.
    no_support_fight(pos, "soviet", [1, 1])
    pos.order("axis", "RETREAT AUTO")
    assert pos.last("combat_over")["attacker"] == "soviet"
    assert all(d.kind != "counterattack" for d in pos.pending())
    assert [d.kind for d in pos.pending("axis")] == ["card"]  # back to the Axis phase


def test_a_reactive_counterattack_coordinates_only_with_further_counterattack_cards():
    """L439, ruling R-CA: a reactive Counterattack "has the same effect as playing an ASSAULT card"
    but coordinates only with further Counterattack cards (an Assault card is no Reaction)."""
    pos = axis_turn("A04: 24/31 | A08: 25/54 | A12: 25/31 95/90", "assault",
                    soviet_cards=("counterattack", "assault"))
    pos.order("axis", "ASSAULT GROUP A04 TO A08")
    no_support_fight(pos, "axis", [1, 1])
    pos.order("soviet", "COUNTERATTACK DIVISION 25")
    assert [d.kind for d in pos.pending("soviet")] == ["move"]  # no coordination offered
    assert [pos.state["cards"][c] for c in pos.state["hands"]["soviet"]] == ["assault"]
