"""The map rules: Battery (L328-346), Trenches (L354-372), Ferry (L374-384), Control (L386-394)
and Soviet Demoralization (L396-404), one clause per test."""


from tests.games.vmt.harness import Position

# ---------------------------------------------------------------- Battery (L328-346)


def storm(place: str, dice, exhausted: str = "", armor: str | None = None) -> Position:
    """Axis blocks already in the C08 battery area (clear, no trench, no Soviet block) storm it."""
    pos = Position().clear()
    pos.place(place)
    if armor:
        pos.asset(armor, "C08")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP C08")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "STORM C08", dice=dice)
    return pos


def test_battery_stormed_by_blocks_already_in_the_area_2d6_against_1d6_per_block():
    """L338-342, L344: with no Soviet block in a battery area the Axis may attack the battery with an
    Assault, with blocks already there; the battery rolls 2d6, the Axis 1d6 per block, no Combat
    Support card is played; one hit destroys the battery and the area becomes Axis at once."""
    pos = storm("C08: 132/436 132/437 | C03: 7NI", dice=[5, 1] + [1, 1])
    roll = pos.last("combat_roll")
    assert dict(roll["dice"]["axis"]["parts"]) == {"blocks": 2} and roll["dice"]["axis"]["total"] == 2
    assert dict(roll["dice"]["soviet"]["parts"]) == {"battery": 2}
    assert pos.kinds("support_committed") == []  # no Combat Support cards (L342)
    assert pos.last("battery_assault") == {"area": "C08", "hits": 1, "destroyed": True}
    assert "C08" in pos.state["batteries_destroyed"] and pos.state["control"]["C08"] == "axis"
    assert (pos.vp("axis"), pos.vp("soviet")) == (1, 11)


def test_battery_storm_with_armor():
    """L341: the Axis can benefit from an Armor counter in the battery assault (a StuG adds a die and
    cancels one hit, L252)."""
    pos = storm("C08: 132/436 132/437 | C03: 7NI", dice=[1, 1, 1] + [5, 1], armor="STUGA")
    roll = pos.last("combat_roll")
    assert dict(roll["dice"]["axis"]["parts"]) == {"blocks": 2, "StuG assault guns": 1}
    assert roll["hits"] == {"axis": 0, "soviet": 0} and roll["cancelled"]["soviet"] == 1
    assert (pos.sp("132/436"), pos.sp("132/437")) == (4, 3)


def test_failed_battery_storm_no_retreat_and_no_axis_control():
    """L332, L343: the Axis blocks do not retreat if they fail to destroy the battery, and the Axis
    cannot take control of the area (nor its VP) while the battery stands."""
    pos = storm("C08: 132/436 | C03: 7NI", dice=[4] + [5, 1])
    assert pos.last("battery_assault") == {"area": "C08", "hits": 0, "destroyed": False}
    assert pos.where("132/436") == "C08" and pos.sp("132/436") == 3
    assert pos.state["control"]["C08"] == "soviet" and pos.board.has_battery("C08")
    assert (pos.vp("axis"), pos.vp("soviet")) == (0, 12)


def test_battery_sixes_exhaust_and_exhausted_blocks_stay_out_of_a_battery_assault():
    """L322 (ruling R-BATTERY): exhausted blocks stacked with Axis blocks attacking an intact battery
    take no part and are not affected in any way; the battery's 6s exhaust the attackers."""
    pos = storm("C08: 132/436 132/437* | C03: 7NI", dice=[1] + [6, 6])
    roll = pos.last("combat_roll")
    assert roll["dice"]["axis"]["total"] == 1  # one die: the fresh block only
    assert pos.sp("132/436") == 2 and pos.exhausted("132/436")
    assert pos.sp("132/437") == 3 and pos.exhausted("132/437")


def test_battery_stormed_by_blocks_moving_in_stops_their_movement():
    """L338: a battery can be attacked by moving blocks into its area; entering it is an attack, so
    a two-area mover cannot pass through an undestroyed battery area."""
    pos = Position().clear()
    pos.place("C09: 132/436 | A02: 28/49 | C03: 7NI")
    pos.hand("axis", "assault", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP C09 TO C08", dice=[6] + [1, 1])
    assert pos.last("battery_assault")["destroyed"] is True and pos.where("132/436") == "C08"
    pos.order("soviet", "COUNTERATTACK NONE")  # the window after the battery assault (R-BATTERY)
    pos.order("axis", "ASSAULT GROUP A02")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "MOVE 28/49 TO A10 VIA A05", because=r"entering A05 attacks its battery: movement stops there")


def test_battery_area_with_soviet_blocks_is_an_ordinary_combat():
    """L338: the battery assault is for a battery area with no Soviet block; with Soviet blocks
    there the Axis fights them in an ordinary combat (Combat Support cards asked), and STORM is
    refused."""
    pos = Position().clear()
    pos.place("C09: 132/436 | C08: 109/361")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP C09 TO C08")
    combat = pos.top()
    assert combat["kind"] == "combat" and combat["battery"] is False
    assert pos.pending("axis")[0].kind == "support"
    pos = Position().clear()
    pos.place("C08: 132/436 109/361")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP C08")
    pos.order("axis", "ASSETS NONE")
    pos.illegal("axis", "STORM C08", because=r"C08 has no undestroyed battery without Soviet blocks")


def test_axis_never_retreats_into_an_empty_undestroyed_battery_area():
    """L332: Axis blocks cannot retreat into an empty area with an undestroyed battery, even where
    empty enemy areas are allowed (option retreat_into=friendly_or_empty); a destroyed one is open."""
    for destroyed, expected in ((False, {"A02", "A03", "A08", "A12"}), (True, {"A02", "A03", "A05", "A08", "A12"})):
        pos = Position({"retreat_into": "friendly_or_empty"}).clear()
        pos.place("A06: 50/121 | A12: 25/31 25/54")
        pos.control("A06", "axis").disabled("A06")
        if destroyed:
            pos.destroyed("A05")
        pos.hand("soviet", "assault")
        pos.phase("soviet")
        pos.play("soviet", "ASSAULT GROUP A12 TO A06")
        pos.order("soviet", "SUPPORT NONE")
        # Soviet: 2 blocks + 1 (6 SP against 4) - 1 rough = 2 dice; Axis 1 die.
        pos.order("axis", "SUPPORT NONE", dice=[5, 1] + [1])
        decision = pos.pending("axis")[0]
        assert decision.kind == "retreat"
        assert {o.split()[2] for o in decision.options[1:]} == expected


# ---------------------------------------------------------------- Trenches (L354-372)


def axis_attacks_a08(disabled: bool, axis_die: int, soviet_die: int) -> Position:
    """50/123 (3 SP) attacks 25/54 (3 SP) in A08 (rough, Soviet trench): 1 die each."""
    pos = Position().clear()
    pos.place("A04: 50/123 | A08: 25/54 | A12: 25/31")
    if disabled:
        pos.disabled("A08")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A04 TO A08")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[axis_die, soviet_die])
    return pos


def test_soviet_trench_adds_1_to_one_die_and_wins_ties():
    """L358-362: Soviet defenders in an intact Soviet trench add +1 to one die after rolling and win
    ties in combat."""
    pos = axis_attacks_a08(disabled=False, axis_die=5, soviet_die=4)
    roll = pos.last("combat_roll")
    assert roll["dice"]["soviet"]["modified"] == [5]
    assert roll["dice"]["soviet"]["notes"] == ["+1 to one die (Soviet trench)"]
    assert roll["hits"] == {"axis": 1, "soviet": 1}
    assert pos.last("combat_result")["winner"] == "soviet"  # the tie goes to the trench
    assert pos.where("50/123") == "A04"


def test_disabled_soviet_trench_gives_no_benefit_even_to_recapturing_soviets():
    """L370: a trench put out of order gives no benefit to Soviet defenders, even if the Soviets
    recaptured the area: no +1, and the tie is not theirs (default tie_winner=attacker, R-WIN)."""
    pos = axis_attacks_a08(disabled=True, axis_die=5, soviet_die=5)
    roll = pos.last("combat_roll")
    assert roll["dice"]["soviet"]["modified"] == [5] and roll["dice"]["soviet"]["notes"] == []
    assert roll["hits"] == {"axis": 1, "soviet": 1}
    assert pos.last("combat_result")["winner"] == "axis"


def test_soviet_trench_out_of_order_when_an_axis_block_enters_it_empty():
    """L370: Soviet trenches are put out of order as soon as an Axis block enters the area while no
    Soviet block is present."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A12: 25/31")
    pos.hand("axis", "assault")
    pos.phase("axis")
    assert pos.board.has_intact_trench("A08", "soviet")
    pos.play("axis", "ASSAULT GROUP A04 TO A08")
    assert pos.last("trench_disabled") == {"area": "A08"}
    assert pos.state["trench_disabled"] == ["A08"]


def test_soviet_trench_out_of_order_when_the_axis_wins_and_the_soviets_retreat():
    """L370, L206: the Soviet trench is put out of order when an Axis block wins a combat forcing all
    the Soviet blocks to retreat from the area."""
    pos = Position().clear()
    pos.place("A04: 50/121 | A08: 3NI")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A04 TO A08")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[6] + [1])  # Axis 1+1-1 = 1 die; Soviet 1 die (+1)
    assert pos.last("combat_result")["winner"] == "axis"
    assert pos.state["trench_disabled"] == []  # not yet: the Soviet block is still there
    pos.order("soviet", "RETREAT TO A12")
    assert pos.state["trench_disabled"] == ["A08"] and pos.state["control"]["A08"] == "axis"


def test_soviet_trench_out_of_order_when_axis_enters_an_empty_battery_area():
    """L370: the trench goes out of order as soon as an Axis block enters the area when no Soviet
    blocks are present, also in a battery area whose control stays Soviet (L332)."""
    pos = Position().clear()
    pos.place("A02: 132/436 132/437 | A12: 25/31")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A02")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 132/436 132/437 TO A05", dice=[1, 1] + [1, 1])  # the storm fails
    assert pos.where("132/436") == "A05" and pos.state["control"]["A05"] == "soviet"
    assert "A05" in pos.state["trench_disabled"]


def soviet_attacks_a03(axis_dice) -> Position:
    """25/31 (3 SP) attacks 22/16 and 22/65 (3 SP each) in A03 (clear, Axis trench) across the
    A06|A03 river: Soviet 1 die; Axis 2 blocks + 1 (6 SP against 3) = 3 dice."""
    pos = Position().clear()
    pos.place("A03: 22/16 22/65 | A06: 25/31")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.play("soviet", "ASSAULT GROUP A06 TO A03")
    pos.order("soviet", "SUPPORT NONE")
    pos.order("axis", "SUPPORT NONE", dice=[5] + list(axis_dice))
    if pos.pending("axis") and pos.pending("axis")[0].kind == "hits":
        pos.order("axis", "HITS AUTO")
    return pos


def test_axis_trench_adds_1_to_all_dice():
    """L364-366: German and Romanian defenders in an Axis trench add +1 to ALL dice rolled, after
    rolling."""
    pos = soviet_attacks_a03([4, 4, 1])
    roll = pos.last("combat_roll")
    assert roll["dice"]["axis"]["modified"] == [5, 5, 2]
    assert roll["dice"]["axis"]["notes"] == ["+1 to every die (Axis trench)"]
    assert roll["hits"] == {"soviet": 1, "axis": 2}
    assert pos.last("combat_result")["winner"] == "axis"


def test_axis_trench_wins_ties():
    """L368: Axis defenders in an Axis trench win ties in combat (against the default tie_winner
    attacker, ruling R-WIN)."""
    pos = soviet_attacks_a03([4, 1, 1])
    assert pos.last("combat_roll")["hits"] == {"soviet": 1, "axis": 1}
    assert pos.last("combat_result")["winner"] == "axis"
    assert pos.where("25/31") == "A06"  # the beaten attacker went back


def test_axis_trench_unaffected_by_soviet_occupation():
    """L372: Axis trenches are unaffected by Soviet occupation and give full benefits to defending
    Axis blocks once the area is recaptured."""
    pos = Position().clear()
    pos.place("A06: 25/31 25/54 | A02: 22/16 22/65")
    pos.control("A06", "soviet")
    pos.hand("soviet", "assault", "assault")
    pos.hand("axis", "assault")
    pos.phase("soviet")
    pos.play("soviet", "ASSAULT GROUP A06 TO A03")  # A03 empty: the Soviets take it
    assert pos.state["control"]["A03"] == "soviet"
    pos.order("soviet", "ASSAULT GROUP A03")
    pos.order("soviet", "ASSETS NONE")
    pos.order("soviet", "MOVE 25/54 TO A06")
    pos.order("soviet", "DONE")
    pos.order("soviet", "END")  # turn 2, Axis phase
    pos.hand("axis", "assault")
    pos.play("axis", "ASSAULT GROUP A02 TO A03")
    pos.order("axis", "SUPPORT NONE")
    # Axis 2 blocks + 1 SP = 3 dice (attacking: no trench bonus); Soviet 1 die.
    pos.order("soviet", "SUPPORT NONE", dice=[6, 6, 1] + [1])
    pos.order("soviet", "RETREAT TO A06")
    assert pos.state["control"]["A03"] == "axis"
    pos.order("soviet", "COUNTERATTACK NONE")
    pos.order("axis", "END", dice=[6])  # the Soviet reinforcement roll: nothing
    pos.hand("soviet", "assault")
    pos.play("soviet", "ASSAULT GROUP A06 TO A03")
    pos.order("soviet", "SUPPORT NONE")
    # Soviet 2 blocks - 1 river = 1 die; the Axis defends with 2 blocks + 1 (6 SP against 4).
    pos.order("axis", "SUPPORT NONE", dice=[5] + [4, 4, 4])
    roll = pos.last("combat_roll")
    assert roll["defender"] == "axis" and roll["dice"]["axis"]["modified"] == [5, 5, 5]
    assert roll["dice"]["axis"]["notes"] == ["+1 to every die (Axis trench)"]


# ---------------------------------------------------------------- Ferry (L374-384)


def test_ferry_arrows_connect_areas_for_movement():
    """L376-378: blocks of both sides can move across the crossing arrows (A10-C02, A11-C01) with
    Assault, Redeployment and Counterattack cards."""
    pos = Position().clear()
    pos.place("C02: 7NI | A04: 50/121")
    pos.control("A10", "axis")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.play("soviet", "ASSAULT GROUP C02 TO A10")
    assert pos.where("7NI") == "A10" and pos.state["control"]["A10"] == "soviet"
    pos = Position().clear()
    pos.place("A11: 50/121 | C06: 7NI")
    pos.control("A11", "axis")
    pos.hand("axis", "redeployment")
    pos.phase("axis")
    pos.order("axis", "REDEPLOY GROUP A11")
    pos.order("axis", "MOVE 50/121 TO C01")
    assert pos.where("50/121") == "C01" and pos.last("moved")["via"] == []


def test_armor_cannot_cross_a_ferry_but_pioneers_can():
    """L254, L378: blocks crossing a ferry arrow may be accompanied by Pioneer counters but not by
    Armor counters; an armor counter may not be left alone either (L232)."""
    pos = Position().clear()
    pos.place("A10: 50/121 50/122 | C06: 7NI")
    pos.control("A10", "axis")
    pos.asset("PZ3", "A10").asset("APIOA", "A10")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP A10")  # (A10 already has both asset types: none to place)
    pos.illegal("axis", "MOVE 50/121 TO C02 WITH PZ3",
                because=r"PZ3 is armor and cannot use a ferry arrow \(rulebook: Armor\)")
    pos.order("axis", "MOVE 50/121 TO C02 WITH APIOA")
    assert pos.state["assets"]["APIOA"]["area"] == "C02" and pos.state["assets"]["PZ3"]["area"] == "A10"
    pos.illegal("axis", "MOVE 50/122 TO C02",
                because=r"PZ3 is armor and cannot use a ferry arrow \(rulebook: Armor\)")  # PZ3 would follow


def test_only_axis_blocks_attack_across_a_ferry_arrow():
    """L380: only Axis blocks, not Soviet, may move across a crossing arrow to start a combat."""
    pos = Position().clear()
    pos.place("C02: 7NI | A10: 50/121")
    pos.control("A10", "axis")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.order("soviet", "ASSAULT GROUP C02")
    pos.order("soviet", "ASSETS NONE")
    pos.illegal("soviet", "MOVE 7NI TO A10",
                because=r"only Axis blocks may attack across a ferry arrow \(rulebook: Ferry\)")


def test_axis_attack_across_a_ferry_rolls_one_die_fewer():
    """L380, L282: attacking across a crossing arrow is like attacking across a river: the attacker
    rolls 1d6 fewer when all attackers crossed."""
    pos = Position().clear()
    pos.place("A10: 50/121 | C02: 3NI")
    pos.control("A10", "axis")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP A10 TO C02")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[1] + [1])
    axis = pos.last("combat_roll")["dice"]["axis"]
    assert dict(axis["parts"]) == {"blocks": 1, "more strength points": 1,
                                   "all attackers crossed a river or ferry": -1}
    assert axis["total"] == 1


def test_retreat_across_a_ferry_costs_a_loss_and_eliminates_armor():
    """L254, L382: a group retreating across a crossing arrow suffers one additional loss (per
    group), and an Armor counter with it is permanently eliminated."""
    pos = Position().clear()
    pos.place("C02: 50/121 | C01: Perekop 79NI")
    pos.control("C02", "axis").control("A10", "axis")
    pos.asset("STUGA", "C02")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    pos.play("soviet", "ASSAULT GROUP C01 TO C02")
    pos.order("soviet", "SUPPORT NONE")
    # Soviet 2 blocks + 1 (8 SP against 4) = 3 dice; Axis 1 block + 1 StuG = 2 dice; the StuG
    # cancels one Soviet hit.
    pos.order("axis", "SUPPORT NONE", dice=[5, 5, 1] + [1, 1])
    assert pos.last("combat_result")["winner"] == "soviet" and pos.sp("50/121") == 3
    decision = pos.pending("axis")[0]
    assert decision.kind == "retreat" and decision.options[1:] == ("RETREAT TO A10  (1: ferry crossing)",)
    pos.order("axis", "RETREAT TO A10")
    assert pos.where("50/121") == "A10" and pos.sp("50/121") == 2
    assert pos.state["assets"]["STUGA"]["status"] == "eliminated"
    assert pos.last("retreat")["penalties"] == ["ferry crossing"]


# ---------------------------------------------------------------- Control (L386-394)


def test_initial_control_each_side_its_blocks_and_rear_all_vp_soviet():
    """L388, L112: at the start each side controls the areas of its blocks and its rear areas; all
    VP areas are Soviet."""
    pos = Position()
    control = pos.state["control"]
    for block in pos.board.blocks_of("axis"):
        assert control[pos.where(block)] == "axis"
    for block in pos.board.blocks_of("soviet"):
        assert control[pos.where(block)] == "soviet"
    assert sorted(a for a, s in control.items() if s == "axis") == [
        "A01", "A02", "A03", "A04", "A09", "A13", "A15", "B04", "B10", "B11"]
    assert all(control[a.id] == "soviet" for a in pos.board.scenario.map.areas if a.vp)


def test_control_changes_when_an_enemy_block_enters_an_unoccupied_area():
    """L390: control changes the instant an enemy block is in an area where the controlling side has
    no block, during movement: here a Soviet block enters an empty Axis area."""
    pos = Position().clear()
    pos.place("A06: 25/31 | A04: 50/121")
    pos.hand("soviet", "assault")
    pos.phase("soviet")
    assert pos.state["control"]["A02"] == "axis"
    pos.play("soviet", "ASSAULT GROUP A06 TO A02")
    assert pos.state["control"]["A02"] == "soviet"
    assert pos.last("control") == {"area": "A02", "side": "soviet", "vp": 0}


def test_control_changes_in_the_areas_passed_through():
    """L390: the change is instant, so a two-area mover takes control of the empty enemy area it
    passes through, as well as of the one where it stops."""
    pos = Position().clear()
    pos.place("B11: 28/49 | C06: 7NI")
    pos.control("B10", "soviet")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.order("axis", "ASSAULT GROUP B11")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 28/49 TO B05 VIA B10")
    assert (pos.state["control"]["B10"], pos.state["control"]["B05"]) == ("axis", "axis")


def test_control_changes_after_combat_only_when_the_defenders_are_gone():
    """L390: in combat, control changes when the defending blocks are forced to retreat and the
    attacker still has a block in the area; while both are there it does not."""
    pos = Position().clear()
    pos.place("C04: 50/121 | C05: Perekop")
    pos.control("C04", "axis")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP C04 TO C05")
    assert pos.state["control"]["C05"] == "soviet"
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[5] + [1])
    assert pos.state["control"]["C05"] == "soviet"  # Perekop is still there
    pos.order("soviet", "RETREAT TO B07")
    assert pos.state["control"]["C05"] == "axis"


def test_control_does_not_change_when_the_attacker_loses():
    """L390: a beaten attacker leaves and the defender keeps the area."""
    pos = Position().clear()
    pos.place("C04: 50/121 | C05: Perekop")
    pos.control("C04", "axis")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", "ASSAULT GROUP C04 TO C05")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=[1] + [5])
    assert pos.last("combat_result")["winner"] == "soviet"
    assert pos.where("50/121") == "C04" and pos.state["control"]["C05"] == "soviet"


# ---------------------------------------------------------------- Soviet Demoralization (L396-404)


def soviet_beaten_in(area: str, attacker_area: str, defenders: str, more: str = "",
                     options=None, dice=(5, 1)) -> Position:
    """50/121 (4 SP) attacks from `attacker_area` into `area` (clear, no trench) and wins."""
    pos = Position(options or {}).clear()
    pos.place(f"{attacker_area}: 50/121 | {area}: {defenders}" + (f" | {more}" if more else ""))
    pos.control(attacker_area, "axis")
    pos.hand("axis", "assault")
    pos.phase("axis")
    pos.play("axis", f"ASSAULT GROUP {attacker_area} TO {area}")
    pos.order("axis", "SUPPORT NONE")
    pos.order("soviet", "SUPPORT NONE", dice=list(dice))
    assert pos.last("combat_result")["winner"] == "axis"
    return pos


def test_demoralization_one_loss_retreating_next_to_sevastopol():
    """L400: Soviet blocks retreating into one of the two Sevastopol areas or an area adjacent to
    them suffer ONE additional step loss; elsewhere they do not."""
    pos = soviet_beaten_in("C05", "C04", "Perekop")
    options = dict(o.split("  ") for o in pos.pending("soviet")[0].options[1:])
    assert options["RETREAT TO B06"] == "(1: demoralization near Sevastopol)"  # B06 is next to C01
    assert options["RETREAT TO B07"] == "(0)"
    pos.order("soviet", "RETREAT TO B06")
    assert pos.sp("Perekop") == 4 - 1 - 1
    assert pos.last("retreat")["penalties"] == ["demoralization near Sevastopol"]


def test_demoralization_ferry_crossings_do_not_count_for_adjacency():
    """L384, L400: A11 is linked to Sevastopol (C01) only by a crossing arrow: retreating there is
    not retreating next to Sevastopol."""
    pos = soviet_beaten_in("A11", "A10", "Perekop", more="C06: 7NI")
    options = dict(o.split("  ") for o in pos.pending("soviet")[0].options[1:])
    assert options["RETREAT TO A12"] == "(0)" and options["RETREAT TO A14"] == "(0)"
    assert options["RETREAT TO B01"] == "(1: demoralization near Sevastopol)"


def test_demoralization_is_per_group_and_cumulative_with_ferry_and_field_of_fire():
    """L382, L400-402: the penalties are per group, not per block, and cumulative: retreating across
    a ferry arrow into Sevastopol under enemy fire costs three steps."""
    pos = soviet_beaten_in("A11", "A10", "Perekop 8NI", more="C04: 50/122", dice=(1, 1, 1, 1))
    pos.control("C04", "axis")
    pos.order("soviet", "RETREAT TO C01 LOSSES Perekop Perekop 8NI")
    assert set(pos.last("retreat")["penalties"]) == {"enemy field of fire", "ferry crossing",
                                                    "demoralization near Sevastopol"}
    assert (pos.sp("Perekop"), pos.sp("8NI")) == (2, 2)  # three steps for the group of two


def test_soviet_player_assigns_the_retreat_losses():
    """L404: the Soviet player assigns the losses for retreating as they see fit."""
    pos = soviet_beaten_in("C05", "C04", "Perekop 8NI", dice=(1, 1, 1, 1))
    pos.order("soviet", "RETREAT TO B06 LOSSES 8NI")
    assert (pos.sp("Perekop"), pos.sp("8NI")) == (4, 2)
