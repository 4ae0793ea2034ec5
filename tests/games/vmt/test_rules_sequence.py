"""Sequence of Play (L118-154), Initial Bombardment (L122-136), Playing Command Cards (L156-164,
L208-222), Pass (L144, L324), refills (L146, L150), Reinforcements (L406-423) and Victory
(L425-429), one clause per test."""

from tests.games.vmt.harness import Position

BOMBARD_HAND = ("assault", "assault", "redeployment", "goliath", "air_strike", "heavy_artillery",
                "superheavy_artillery", "counterattack")


def bombardment() -> Position:
    """A new game at the Initial Bombardment, the Axis holding a known hand."""
    pos = Position()
    assert pos.pending("axis")[0].kind == "discard"
    pos.hand("axis", *BOMBARD_HAND)
    return pos


# ---------------------------------------------------------------- Initial Bombardment (L122-136)


def test_bombardment_a_discard_any_but_air_heavy_superheavy():
    """L124: in the Initial Bombardment the Axis may discard as many cards as desired, but not Air
    Strike, Heavy Artillery or Superheavy Artillery."""
    pos = bombardment()
    for card in ("AIR_STRIKE", "HEAVY_ARTILLERY", "SUPERHEAVY_ARTILLERY"):
        pos.illegal("axis", f"DISCARD ASSAULT {card}",
                    because=rf"{card} may not be discarded in the Initial Bombardment")
    pos.order("axis", "DISCARD ASSAULT ASSAULT REDEPLOYMENT GOLIATH")
    assert pos.last("bombard_discard")["cards"] == ["assault", "assault", "redeployment", "goliath"]


def test_bombardment_b_draws_as_many_as_discarded():
    """L126: then the Axis draws as many cards as were discarded (back to 8 in hand)."""
    pos = bombardment()
    deck_top = pos.state["decks"]["axis"][-3:]
    pos.order("axis", "DISCARD ASSAULT REDEPLOYMENT GOLIATH")
    hand = pos.state["hands"]["axis"]
    assert len(hand) == 8
    assert set(deck_top) <= set(hand)  # the three cards drawn from the deck


def test_bombardment_c_plays_only_air_heavy_superheavy():
    """L128: the Axis may then play as many Air Strike, Heavy and Superheavy Artillery cards as
    desired, and no other card."""
    pos = bombardment()
    pos.order("axis", "DISCARD NONE")
    pos.illegal("axis", "ASSAULT GROUP A04",
                because=r"in the Initial Bombardment only Air Strike, Heavy and Superheavy Artillery may be played")
    pos.illegal("axis", "PASS", because=r"the Initial Bombardment has no Pass")
    pos.order("axis", "PLAY HEAVY_ARTILLERY B08", dice=[6, 1, 1, 1])  # B08: intact Soviet trench
    assert pos.last("bombardment")["hits"] == 1
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A07", dice=[1, 2, 3])
    pos.order("axis", "PLAY AIR_STRIKE INTERDICT C04")
    assert pos.board.markers_on_map("interdiction") == ["C04"]
    assert pos.pending("axis")[0].kind == "card"  # still in step c) until END


def test_bombardment_d_e_reshuffle_discards_and_plays_then_refill_to_8():
    """L130-132: the discarded and played cards are reshuffled into the Axis deck; then the Axis
    draws up to 8 cards."""
    pos = bombardment()
    hand_ids = dict(zip(BOMBARD_HAND, pos.state["hands"]["axis"], strict=True))
    pos.order("axis", "DISCARD GOLIATH")
    pos.order("axis", "PLAY HEAVY_ARTILLERY B08", dice=[1, 1, 1, 1])
    pos.order("axis", "PLAY SUPERHEAVY_ARTILLERY A07", dice=[1, 1, 1])
    assert len(pos.state["discards"]["axis"]) == 3
    pos.order("axis", "END")
    assert pos.last("bombard_reshuffle")["cards"] == 3
    assert pos.state["discards"]["axis"] == []
    in_play = pos.state["decks"]["axis"] + pos.state["hands"]["axis"]
    for card in ("goliath", "heavy_artillery", "superheavy_artillery"):
        assert hand_ids[card] in in_play
    assert len(pos.state["hands"]["axis"]) == 8


def test_bombardment_f_then_the_axis_first_action_phase():
    """L134, L108: after the bombardment play resumes with the Axis player's first turn."""
    pos = bombardment()
    pos.order("axis", "DISCARD NONE")
    pos.order("axis", "END")
    assert pos.state["turn"] == 1 and pos.state["phase_side"] == "axis"
    decision = pos.pending("axis")[0]
    assert decision.kind == "card" and "PASS" in decision.options
    assert pos.pending("soviet") == []


def test_bombardment_soviet_refills_only_after_the_first_axis_phase():
    """Ruling R-BOMBARD (L122-136, L146): Fighter Cover may answer a bombardment Air Strike; the
    Soviet refills only after the first Axis action phase, with the normal refill (L146)."""
    pos = Position(auto=("air", "escort"))
    pos.hand("axis", "air_strike", "assault", "assault", "assault", "assault", "assault", "assault", "assault")
    pos.hand("soviet", "fighter_cover", "assault", "assault", "assault", "assault", "mortars")
    pos.order("axis", "DISCARD NONE")
    pos.order("axis", "PLAY AIR_STRIKE ATTACK A08")
    pos.order("soviet", "COVER")
    assert pos.last("strike_cancelled")["area"] == "A08"
    pos.order("axis", "END")
    assert len(pos.state["hands"]["soviet"]) == 5  # not refilled after the bombardment
    pos.play("axis", "ASSAULT GROUP A01 TO A03")
    pos.order("axis", "END")
    assert len(pos.state["hands"]["soviet"]) == 6  # refilled after the first Axis phase


# ---------------------------------------------------------------- action phases (L138-154)


def test_action_phase_play_as_many_cards_as_desired_then_end():
    """L142, L162: in the Action Phase the player plays as many cards as desired, one after the
    other, and ends the phase when they do not want to play more."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A09: 24/31 | B08: 109/361")
    pos.hand("axis", "assault", "assault", "heavy_artillery")
    pos.phase("axis")
    pos.order("axis", "PLAY HEAVY_ARTILLERY B08", dice=[1, 1, 1, 1])
    pos.play("axis", "ASSAULT GROUP A04 TO A01")
    pos.play("axis", "ASSAULT GROUP A09 TO A04")
    assert (pos.where("50/121"), pos.where("24/31")) == ("A01", "A04")
    assert pos.pending("axis")[0].kind == "card" and pos.pending("axis")[0].default == "END"
    pos.order("axis", "END")
    assert pos.last("phase_end") == {"side": "axis", "turn": 1, "passed": False}
    assert pos.state["phase_side"] == "soviet"


def test_pass_and_play_are_exclusive_choices():
    """L140, L144: the player either plays cards or passes: no Pass after a card is played, and
    ending a phase without a card is a Pass."""
    pos = Position().clear()
    pos.place("A04: 50/121")
    pos.hand("axis", "assault", "assault")
    pos.phase("axis")
    pos.illegal("axis", "END", because=r"you have not played a card this phase: PASS instead")
    pos.play("axis", "ASSAULT GROUP A04 TO A01")
    pos.illegal("axis", "PASS", because=r"you already played a card this phase; END it instead of passing")


def test_pass_discards_rallies_exhausted_and_withdraws_assets():
    """L144, L324, L230: on a Pass the player plays no card, may discard any cards, every exhausted
    block of theirs stands up again, and Armor/Pioneer counters may be withdrawn, set aside on
    their 2-step side."""
    pos = Position().clear()
    pos.place("A04: 50/121* 50/122* | A09: 24/31 | A08: Perekop*")
    pos.asset("PZ3", "A04", steps=1).asset("APIOA", "A09", steps=2)
    pos.hand("axis", "goliath", "88mm", "assault")
    pos.phase("axis")
    pos.order("axis", "PASS DISCARD GOLIATH 88MM WITHDRAW PZ3")
    passed = pos.last("pass")
    assert passed == {"side": "axis", "discarded": ["goliath", "88mm"], "rallied": 2, "withdrawn": ["PZ3"]}
    assert not pos.exhausted("50/121") and not pos.exhausted("50/122")
    assert pos.exhausted("Perekop")  # only the passing player's blocks rally
    assert pos.state["assets"]["PZ3"] == {"side": "axis", "type": "pz3", "steps": 2, "area": None, "status": "pool"}
    assert pos.state["assets"]["APIOA"]["area"] == "A09"  # not withdrawn: stays
    assert pos.cards("axis", "discards") == ["88mm", "goliath"]
    assert pos.last("phase_end")["passed"] is True


def test_soviet_pass_rallies_soviet_blocks_and_withdraws_soviet_assets():
    """L150, L144: the Soviet resolves their phase in the same manner: a Soviet Pass rallies every
    exhausted Soviet block and may withdraw Soviet Armor/Pioneer counters and discard cards."""
    pos = Position().clear()
    pos.place("A08: Perekop* 25/54* | A04: 50/121*")
    pos.asset("T26A", "A08", steps=1)
    pos.hand("soviet", "mortars", "assault")
    pos.phase("soviet")
    pos.order("soviet", "PASS DISCARD MORTARS WITHDRAW T26A")
    assert pos.last("pass") == {"side": "soviet", "discarded": ["mortars"], "rallied": 2, "withdrawn": ["T26A"]}
    assert not pos.exhausted("Perekop") and not pos.exhausted("25/54") and pos.exhausted("50/121")
    assert (pos.state["assets"]["T26A"]["status"], pos.state["assets"]["T26A"]["steps"]) == ("pool", 2)


def test_pass_cannot_withdraw_what_is_not_on_the_map():
    """L144: only the passing player's assets on the map can be withdrawn (not one in the pool)."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: Perekop")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.illegal("axis", "PASS WITHDRAW STUGA", because=r"STUGA is not one of your assets on the map")


def test_after_the_axis_phase_both_players_refill():
    """L146: after the Axis turn BOTH players fill their hands: the Axis to 8, the Soviet to 6."""
    pos = Position().clear()
    pos.place("A04: 50/121")
    pos.hand("axis", "assault", "assault", "assault")
    pos.hand("soviet", "mortars", "bunker")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A04 TO A01")
    assert len(pos.state["hands"]["axis"]) == 2
    pos.order("axis", "END")
    assert len(pos.state["hands"]["axis"]) == 8
    assert len(pos.state["hands"]["soviet"]) == 6
    assert {e["side"]: e["count"] for e in pos.kinds("drew")} == {"axis": 6, "soviet": 4}


def test_after_the_soviet_phase_both_players_refill():
    """L150: the Soviet resolves their phase like the Axis; after it BOTH players refill."""
    pos = Position().clear()
    pos.place("C03: 7NI")
    pos.hand("axis", "assault")
    pos.hand("soviet", "assault", "mortars")
    pos.phase("soviet")
    pos.play("soviet", "ASSAULT GROUP C03 TO C06")
    pos.order("soviet", "END")
    assert len(pos.state["hands"]["axis"]) == 8
    assert len(pos.state["hands"]["soviet"]) == 6


def test_the_turn_advances_after_the_soviet_phase_only():
    """L120, L154: the Axis phase is followed by the Soviet phase of the same turn; every time the
    Soviet phase ends the turn marker advances one space."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.phase("axis", turn=4)
    pos.order("axis", "PASS", dice=[6])  # the Soviet reinforcement roll opens the Soviet phase
    assert (pos.state["turn"], pos.state["phase_side"]) == (4, "soviet")
    pos.order("soviet", "PASS")
    assert (pos.state["turn"], pos.state["phase_side"]) == (5, "axis")
    assert pos.last("turn_end")["turn"] == 4


# ---------------------------------------------------------------- playing cards (L156-164, L208-222)


def test_a_card_is_completed_before_the_next_card():
    """L160: you must complete the actions allowed by the card just played before playing a new
    Command Card."""
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 | B08: 109/361")
    pos.hand("axis", "assault", "heavy_artillery")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "MOVE 50/121 TO A01")
    assert [d.kind for d in pos.pending("axis")] == ["move"]
    pos.refused("axis", "PLAY HEAVY_ARTILLERY B08",
                because=r"'PLAY HEAVY_ARTILLERY B08' does not answer: Activation: move your activated blocks")
    pos.order("axis", "DONE")
    pos.order("axis", "PLAY HEAVY_ARTILLERY B08", dice=[1, 1, 1, 1])
    assert pos.last("bombardment")["area"] == "B08"


def test_a_block_may_act_several_times_in_one_phase():
    """L164: one block, group or division can act several times in an Action Phase, each time
    activated by another card."""
    pos = Position().clear()
    pos.place("A04: 50/121")
    pos.hand("axis", "assault", "assault", "redeployment")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A04 TO A01")
    pos.play("axis", "ASSAULT GROUP A01 TO A02")
    pos.order("axis", "REDEPLOY GROUP A02")
    pos.order("axis", "MOVE 50/121 TO A09 VIA A03 A04")
    assert pos.where("50/121") == "A09"


def test_dual_counterattack_played_as_an_assault_in_own_phase():
    """L222, L439 (ruling R-CA): a dual card is played as either of its types, chosen when played;
    a Counterattack played as an Assault in one's own phase is an Assault, assets included."""
    pos = Position().clear()
    pos.place("A04: 50/121")
    pos.hand("axis", "counterattack")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A04 USING COUNTERATTACK")
    played = pos.last("card_played")
    assert played["card"] == "counterattack" and played["reaction"] is False
    assert pos.pending("axis")[0].kind == "assets"
    pos.order("axis", "ASSETS ARMOR STUGA A04")
    assert pos.state["assets"]["STUGA"]["area"] == "A04"
    assert pos.cards("axis", "discards") == ["counterattack"]


def test_counterattack_reaction_right_after_an_enemy_combat():
    """L158, L160, L439: the opponent may play a Counterattack immediately after a combat of the
    phasing player; it activates like an Assault but places no Armor or Pioneer (L228), and when it
    is completed the phasing player's turn resumes."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A03: 22/16 | A09: 24/31 | A08: 3NI | A12: 25/31 25/287")
    pos.control("A08", "soviet")
    pos.hand("axis", "assault", "assault")
    pos.hand("soviet", "counterattack")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A04 TO A08")
    pos.order("axis", "SUPPORT NONE")
    # Axis: 1 block + 1 (4 SP against 2) - 1 rough = 1 die; Soviet 1 die (+1 trench).
    pos.order("soviet", "SUPPORT NONE", dice=[6, 1])
    assert pos.last("combat_result")["winner"] == "axis"
    assert pos.sp("3NI") == 1
    pos.order("soviet", "RETREAT TO A12")
    window = pos.pending("soviet")[0]
    assert window.kind == "counterattack" and window.interrupts == "axis"
    pos.order("soviet", "COUNTERATTACK GROUP A12")
    top = pos.top()
    assert top["kind"] == "activation" and top["reaction"] is True
    assert [d.kind for d in pos.pending("soviet")] == ["move"]  # no asset placement (L228, L439)
    pos.order("soviet", "MOVE 25/31 TO A06")
    pos.order("soviet", "DONE")
    assert pos.pending("axis")[0].kind == "card" and pos.state["phase_side"] == "axis"
    assert pos.cards("soviet", "discards") == ["counterattack"]


def test_counterattack_combats_open_no_further_window():
    """Ruling R-CA (L439): combats started by a reactive Counterattack open no new Counterattack
    window; the phasing player simply resumes."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: 3NI | A12: 25/31")
    pos.control("A08", "soviet")
    pos.hand("axis", "assault", "counterattack")
    pos.hand("soviet", "counterattack")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A04 TO A08")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[6, 1])
    pos.order("soviet", "COUNTERATTACK GROUP A12 TO A08")
    pos.order("soviet", "SUPPORT NONE")
    # Soviet 25/31 (3 SP) attacks 50/121 (4 SP) in rough A08: 1 - 1 rough = 0 -> 1 die; Axis 2 dice.
    pos.order("axis", "SUPPORT NONE", dice=[1] + [5, 1])
    assert pos.last("combat_result")["winner"] == "axis"
    assert pos.where("25/31") == "A12"  # the beaten attacker went back where it came from
    assert pos.last("combat_over")["attacker"] == "soviet"
    assert [d.kind for d in pos.pending()] == ["card"] and pos.pending("axis")


# ---------------------------------------------------------------- reinforcements (L406-423)


def test_soviet_reinforcement_roll_only_from_turn_2():
    """L414: from the second turn on the Soviet rolls 1d6 at the beginning of their phase; in the
    first turn there is no roll."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.phase("axis", turn=1)
    pos.order("axis", "PASS")  # no die is scripted: none may be rolled
    assert pos.kinds("soviet_reinforcement_roll") == []
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.phase("axis", turn=2)
    pos.order("axis", "PASS", dice=[3])
    roll = pos.last("soviet_reinforcement_roll")
    assert roll["die"][0] == 3 and roll["success"] is False and roll["brigade"] is None
    assert pos.pending("soviet")[0].kind == "card"


def test_soviet_reinforcement_on_1_or_2_the_138th_then_the_142nd_on_an_anchor():
    """L414: a 1 or 2 brings ONE brigade, placed on an anchor area (C02, C06); the first success
    brings the 138th, the second the 142nd."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.phase("axis", turn=2)
    pos.order("axis", "PASS", dice=[2])
    assert pos.last("soviet_reinforcement_roll")["brigade"] == "138"
    decision = pos.pending("soviet")[0]
    assert decision.kind == "place" and set(decision.options) == {"PLACE 138 C02", "PLACE 138 C06"}
    pos.illegal("soviet", "PLACE 138 C03",
                because=r"138 cannot arrive in C03: a Soviet brigade arrives in an anchor area .*with room")
    pos.order("soviet", "PLACE 138 C06")
    assert pos.where("138") == "C06"
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NONE")
    pos.order("axis", "PASS", dice=[1])
    assert pos.last("soviet_reinforcement_roll")["brigade"] == "142"
    pos.order("soviet", "PLACE 142 C02")
    assert pos.where("142") == "C02" and pos.state["turn"] == 3
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NONE")
    pos.order("axis", "PASS")  # both brigades have arrived: no more rolls (no die scripted)
    assert len(pos.kinds("soviet_reinforcement_roll")) == 2 and pos.pending("soviet")[0].kind == "card"


def test_soviet_reinforcement_not_on_an_axis_controlled_or_full_anchor():
    """L414: the brigade cannot be placed on an area that is Axis controlled or already holds three
    Soviet blocks; with no such anchor the success is wasted and the same brigade waits (R-REINF)."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C02: 95/90 95/161 95/241")
    pos.control("C06", "axis")
    pos.phase("axis", turn=2)
    pos.order("axis", "PASS", dice=[1])
    roll = pos.last("soviet_reinforcement_roll")
    assert roll["success"] is True and roll["wasted"] is True and roll["brigade"] == "138"
    assert pos.where("138") is None and pos.pending("soviet")[0].kind == "card"
    pos.place("C01: 95/241")  # room again in C02
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NONE")
    pos.order("axis", "PASS", dice=[2])
    assert pos.last("soviet_reinforcement_roll")["brigade"] == "138"  # the same brigade
    assert pos.pending("soviet")[0].options == ("PLACE 138 C02",)


def test_soviet_reinforcement_acts_in_the_phase_it_arrives():
    """L414: a reinforcing block can act normally during the phase in which it is placed."""
    pos = Position().clear()
    pos.place("A04: 50/121")
    pos.hand("soviet", "assault")
    pos.phase("axis", turn=2)
    pos.order("axis", "PASS", dice=[1])
    pos.order("soviet", "PLACE 138 C06")
    pos.play("soviet", "ASSAULT GROUP C06 TO C07")
    assert pos.where("138") == "C07"


def test_axis_reinforcements_from_turn_3_before_any_card():
    """L423: beginning with the third turn the Axis may bring ONE group, as the first action of
    the phase before playing any card; in turn 2 there is no such choice."""
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.phase("soviet", turn=1)
    pos.order("soviet", "PASS")
    assert pos.state["turn"] == 2 and pos.pending("axis")[0].kind == "card"
    pos = Position().clear()
    pos.place("A04: 50/121 | C03: 7NI")
    pos.phase("soviet", turn=2)
    pos.order("soviet", "PASS")
    decision = pos.pending("axis")[0]
    assert pos.state["turn"] == 3 and decision.kind == "reinforce"
    assert "4th Romanian Mountain Division" in decision.prompt


def test_axis_reinforcement_groups_in_fixed_order_for_their_vp_cost():
    """L112, L416-421: the groups enter in the order 4th Romanian Mountain (-1 VP), 46th Infantry
    (-2 VP), 420th Regiment (-1 VP), one per turn; the cost is subtracted when they are placed."""
    pos = Position().clear()
    pos.place("C03: 7NI")
    pos.phase("soviet", turn=2)
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NEXT")
    assert pos.last("axis_reinforcement")["blocks"] == ["4RM/8", "4RM/9"]
    assert pos.vp("axis") == -1 and pos.vp("soviet") == 12  # the payment may go below 0 (R-REINF)
    pos.order("axis", "PLACE 4RM/8 A01")
    pos.order("axis", "PLACE 4RM/9 A04")  # together or separately (L423)
    assert (pos.where("4RM/8"), pos.where("4RM/9")) == ("A01", "A04")
    pos.order("axis", "PASS", dice=[6])  # 6: no Soviet reinforcement
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NEXT")  # turn 4: the next group, the 46th
    assert pos.last("axis_reinforcement")["blocks"] == ["46/46", "46/72", "46/97"]
    assert pos.vp("axis") == -3


def test_axis_reinforcements_only_on_map_edge_areas_with_room():
    """L423: reinforcing blocks are placed in North, East and South map-edge areas where they can
    legally stack (3 per area), never elsewhere."""
    pos = Position().clear()
    pos.place("A01: 213 132/436 132/437 | C03: 7NI")
    pos.phase("soviet", turn=2)
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NEXT")
    decision = pos.pending("axis")[0]
    areas = {o.split()[-1] for o in decision.options}
    assert areas == {"A04", "A09", "A13", "B04", "B11"}  # edge areas; A01 is full
    pos.illegal("axis", "PLACE 4RM/8 A01",
                because=r"4RM/8 cannot arrive in A01: Axis reinforcements arrive in "
                        r"a North, East or South map-edge area with room and no enemy blocks")
    pos.illegal("axis", "PLACE 4RM/8 A03",
                because=r"4RM/8 cannot arrive in A03: Axis reinforcements arrive in "
                        r"a North, East or South map-edge area with room and no enemy blocks")


def test_axis_reinforcements_act_in_the_phase_they_arrive():
    """L423: reinforcing blocks can act normally during the phase in which they are placed."""
    pos = Position().clear()
    pos.place("C03: 7NI")
    pos.hand("axis", "assault")
    pos.phase("soviet", turn=2)
    pos.order("soviet", "PASS")
    pos.order("axis", "REINFORCE NEXT")
    pos.order("axis", "PLACE 4RM/8 A04")
    pos.order("axis", "PLACE 4RM/9 A04")
    pos.play("axis", "ASSAULT GROUP A04 TO A03")
    assert (pos.where("4RM/8"), pos.where("4RM/9")) == ("A03", "A03")


# ---------------------------------------------------------------- victory (L425-429, L112)


def test_vp_track_starts_soviet_12_axis_0_and_moves_with_control():
    """L102-103, L112, L429: the Soviet starts with 12 VP and the Axis with 0; each time a side takes
    control of a VP area of the other, its VP move from one total to the other."""
    pos = Position().clear()
    pos.place("A11: 50/121 | A07: 345/1163")
    pos.control("A11", "axis")
    pos.hand("axis", "assault", "assault")
    pos.hand("soviet", "assault")
    assert (pos.vp("axis"), pos.vp("soviet")) == (0, 12)
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A11 TO A10")  # A10: 1 VP, empty
    assert pos.last("control") == {"area": "A10", "side": "axis", "vp": 1}
    assert (pos.vp("axis"), pos.vp("soviet")) == (1, 11)
    pos.play("axis", "ASSAULT GROUP A10 TO A11")  # A10 stays Axis, empty
    pos.order("axis", "END")
    pos.play("soviet", "ASSAULT GROUP A07 TO A10")  # the Soviet takes it back
    assert pos.state["control"]["A10"] == "soviet"
    assert (pos.vp("axis"), pos.vp("soviet")) == (0, 12)


def test_end_of_last_turn_more_vp_wins():
    """L427: at the end of the last turn (turn 13, July 12-14) the player with more VP, counting
    the VP the Axis lost for reinforcements, wins."""
    pos = Position().clear()
    pos.place("A10: 50/121 | C04: 7NI")
    for area in ("C01", "C02", "A10"):  # 2 + 3 + 1 = 6 of 12
        pos.control(area, "axis")
    pos.paid(1)
    pos.phase("soviet", turn=13)
    pos.order("soviet", "PASS")
    result = pos.state["result"]
    assert result["winner"] == "soviet" and (result["axis_vp"], result["soviet_vp"]) == (5, 6)
    assert pos.last("game_over")["turn"] == 13


def test_end_of_last_turn_equal_vp_is_a_draw():
    """L114, L427: equal VP at the end of the last turn is a draw."""
    pos = Position().clear()
    pos.place("A10: 50/121 | C04: 7NI")
    for area in ("C01", "C02", "A10"):
        pos.control(area, "axis")
    pos.phase("soviet", turn=13)
    pos.order("soviet", "PASS")
    result = pos.state["result"]
    assert result["winner"] is None and (result["axis_vp"], result["soviet_vp"]) == (6, 6)


def test_no_victory_check_before_the_last_turn():
    """L427: VP decide only at the end of the last turn; at the end of an earlier turn the game goes
    on even with the Axis ahead."""
    pos = Position().clear()
    pos.place("A10: 50/121 | C04: 7NI")
    for area in ("C01", "C02", "A10", "B01"):
        pos.control(area, "axis")
    pos.phase("soviet", turn=12)
    pos.order("soviet", "PASS")
    assert pos.state["result"] is None and pos.state["turn"] == 13


def test_automatic_decisive_victory_at_end_of_any_turn():
    """L427: the game ends early if the Axis controls every VP area at the end of any turn (after
    the Soviet phase): an automatic decisive victory."""
    pos = Position().clear()
    pos.place("C02: 50/121 | C09: 7NI")
    pos.destroyed("A05", "A07", "B09", "C08")
    for area in ("A05", "A07", "A10", "B01", "B06", "B09", "C01", "C02", "C08"):
        pos.control(area, "axis")
    pos.phase("axis", turn=5)
    pos.order("axis", "PASS", dice=[6])
    assert pos.state["result"] is None  # checked after the Soviet phase only
    pos.order("soviet", "PASS")
    result = pos.state["result"]
    assert result["winner"] == "axis" and "decisive" in result["reason"] and result["turn"] == 5


def test_undestroyed_battery_vp_always_count_for_the_soviet():
    """L332 (ruling R-VICTORY): the VP of an area with an undestroyed battery always count for the
    Soviet, so it blocks the automatic victory."""
    pos = Position().clear()
    pos.place("C02: 50/121 | C09: 7NI")
    pos.destroyed("A05", "A07", "B09")  # C08 still stands
    for area in ("A05", "A07", "A10", "B01", "B06", "B09", "C01", "C02", "C08"):
        pos.control(area, "axis")
    assert (pos.vp("axis"), pos.vp("soviet")) == (11, 1)
    pos.phase("soviet", turn=5)
    pos.order("soviet", "PASS")
    assert pos.state["result"] is None and pos.state["turn"] == 6
