"""Rule clauses: step 7, the retreat (reconstructed: ruling R-RETREAT) with its extra losses - enemy field
of fire (ruling R-FIRE), ferry arrows (L382), Soviet demoralization (L396-404), Interdiction (L457) -
the over-stack going home (L190, L206), and what happens to counters and markers when blocks retreat
or die (L232-238, L246, L254; rulings R-DUP, R-ENTRY), control and trenches after the combat (L370,
L390)."""


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


def axis_attack(layout: str, origin: str, target: str, options=None, assets: str = "ASSETS NONE",
                soviet=()) -> Position:
    pos = setup(layout, "axis", ("assault",), soviet, options)
    pos.order("axis", "ASSAULT GROUP " + origin)
    pos.order("axis", assets)
    pos.order("axis", f"MOVE {' '.join(pos.board.blocks_in(origin, 'axis'))} TO {target}")
    return pos


def fight(pos: Position, dice) -> None:
    attacker, defender = pos.top()["attacker"], pos.top()["defender"]
    pos.order(attacker, "SUPPORT NONE")
    pos.order(defender, "SUPPORT NONE", dice=dice)


def beaten_in_a11(layout: str = "", options=None, soviet: str = "25/54", assets: str = "ASSETS NONE") -> Position:
    """Axis 24/31 and 24/32 attack from A10 into A11 (clear, no trench) and win: the Soviet must retreat.
    Axis 3 dice (2 blocks, 7 SP to the Soviet's fewer) roll 5, 1, 1; each Soviet die rolls 1."""
    pos = axis_attack("A10: 24/31 24/32 | A11: " + soviet + (" | " + layout if layout else ""), "A10", "A11",
                      options, assets)
    fight(pos, [5, 1, 1] + [1] * len(pos.top()["defenders"]))
    if pos.pending("soviet") and pos.pending("soviet")[0].kind == "hits":
        pos.order("soviet", "HITS AUTO")
    assert pos.last("combat_result")["winner"] == "axis"
    return pos


def retreat_losses(pos: Position) -> list[str]:
    """Every extra loss of the retreats: a step lost, or (told once, by its elimination) a block lost."""
    return [e["reason"] for e in pos.kinds("retreat_loss")] + \
        [e["cause"].removeprefix("retreat: ") for e in pos.kinds("eliminated") if e["cause"].startswith("retreat: ")]


# ---------------------------------------------------------------- where a loser may go (R-RETREAT)


def test_the_loser_retreats_only_into_adjacent_friendly_areas_free_of_enemy_blocks():
    """Ruling R-RETREAT (L392: "Area control is very important for determining the available areas for
    retreating blocks"): adjacent or across a ferry arrow, not enemy-occupied, controlled by the
    retreating side."""
    pos = beaten_in_a11("C01: 213")
    assert pos.sp("25/54") == 2
    message = pos.illegal("soviet", "RETREAT TO A10",
                          because=r"A10 is not a legal retreat from A11: your side does not control it \(legal")
    # A10 is empty but Axis-controlled
    assert message.endswith("(legal: A07, A12, A14, B01)")  # not C01: Axis-occupied
    pos.illegal("soviet", "RETREAT TO A13",
                because=r"A13 is not a legal retreat from A11: it is neither adjacent "
                        r"to A11 nor linked to it by a ferry arrow")  # not adjacent
    pos.order("soviet", "RETREAT TO A14")
    assert pos.where("25/54") == "A14" and pos.sp("25/54") == 2


def test_a_retreat_never_over_stacks():
    """Ruling R-STACK: "a retreat never over-stacks" (L95: 3 blocks per area)."""
    pos = beaten_in_a11("A14: 95/90 95/161", soviet="25/54 25/31")
    pos.illegal("soviet", "RETREAT TO A14", because=r"A14 has room for only 1 of your blocks")
    pos.order("soviet", "RETREAT 25/54 TO A14")
    pos.order("soviet", "RETREAT 25/31 TO A12")
    assert (pos.where("25/54"), pos.where("25/31")) == ("A14", "A12")


def test_the_retreating_blocks_may_split_up():
    """L206: "The Soviet player decides to split them up by moving them to different zones"."""
    pos = beaten_in_a11(soviet="25/54 25/31")
    pos.order("soviet", "RETREAT 25/31 TO A12")
    assert [d.kind for d in pos.pending("soviet")] == ["retreat"]  # 25/54 still to go
    pos.order("soviet", "RETREAT TO A14")
    assert (pos.where("25/54"), pos.where("25/31")) == ("A14", "A12")


def test_retreat_auto_picks_the_area_with_the_fewest_extra_losses():
    """Ruling R-RETREAT: RETREAT AUTO takes "the fewest steps lost ... to the extra losses" (A12 and A14
    are next to the Axis in A13; A07 is not)."""
    pos = beaten_in_a11("A13: 213")
    pos.control("A14", "axis").control("B01", "axis").control("C01", "axis")
    pos.order("soviet", "RETREAT AUTO")
    assert pos.where("25/54") == "A07" and retreat_losses(pos) == []


def beaten_three(layout: str, options=None) -> Position:
    """Axis 24/31 24/32 50/121 attack from A10 into A11 (clear) and beat 25/54 25/31 109/361; the Soviet
    must retreat.  Axis 4 dice (3 blocks, 11 SP to 9) roll 5, 1, 1, 1; the Soviet's 3 dice roll 1: one hit,
    on a strongest block."""
    pos = axis_attack("A10: 24/31 24/32 50/121 | A11: 25/54 25/31 109/361 | " + layout, "A10", "A11", options)
    fight(pos, [5, 1, 1, 1] + [1, 1, 1])
    pos.order("soviet", "HITS AUTO")
    assert pos.last("combat_result")["winner"] == "axis"
    assert [d.kind for d in pos.pending("soviet")] == ["retreat"]
    return pos


SOVIET_THREE = ("25/54", "25/31", "109/361")


def test_retreat_auto_splits_the_blocks_when_no_area_has_room_for_all():
    """L206: "The Soviet player decides to split them up by moving them to different zones"; ruling
    R-RETREAT: RETREAT AUTO retreats as many blocks as can, with the fewest steps lost, so it splits
    when no legal area has room for all three (A07 and A12 have room for one, A14 for two; A12 and A14
    are next to the Axis in A13; B01 and C01 are Axis-controlled)."""
    pos = beaten_three("A07: 95/90 95/161 | A12: 7NI 79NI | A14: 8NI | A13: 213")
    pos.control("B01", "axis").control("C01", "axis")
    strength = sum(pos.sp(b) for b in SOVIET_THREE)
    pos.order("soviet", "RETREAT AUTO")
    assert pos.kinds("eliminated") == []
    assert sorted(pos.where(b) for b in SOVIET_THREE) == ["A07", "A14", "A14"]
    assert [(e["destination"], e["count"]) for e in pos.kinds("retreat")] == [("A14", 2), ("A07", 1)]
    assert retreat_losses(pos) == ["enemy field of fire"]  # one group under fire, one step
    assert sum(pos.sp(b) for b in SOVIET_THREE) == strength - 1


def test_retreat_auto_splits_rather_than_lose_a_step_in_one_area():
    """Ruling R-RETREAT: a careful player's fewest steps lost come before keeping the blocks together:
    A07 and A12 (room for one each) cost nothing, while A14 (under fire from A15) and B01 (next to
    Sevastopol, L400) would cost a step."""
    pos = beaten_in_a11("A07: 95/90 95/161 | A12: 7NI 79NI | A15: 213", soviet="25/54 25/31")
    pos.control("C01", "axis")
    pos.order("soviet", "RETREAT AUTO")
    assert sorted([pos.where("25/54"), pos.where("25/31")]) == ["A07", "A12"]
    assert retreat_losses(pos) == [] and pos.sp("25/54") + pos.sp("25/31") == 5


def test_retreat_auto_leaves_behind_only_what_no_area_has_room_for_and_the_weakest():
    """Ruling R-RETREAT, L236: a block is eliminated for want of a retreat only when no legal area has room
    for it; the careful player leaves the weakest (A07 and A14 have room for one each, A12 none)."""
    pos = beaten_three("A07: 95/90 95/161 | A12: 7NI 79NI 8NI | A14: 9NI 3NI | A13: 213")
    pos.control("B01", "axis").control("C01", "axis")
    weakest = min(SOVIET_THREE, key=lambda b: (pos.sp(b), b))
    assert pos.sp(weakest) == 2
    pos.order("soviet", "RETREAT AUTO")
    assert [e["block"] for e in pos.kinds("eliminated")] == [weakest]
    assert pos.last("eliminated")["cause"] == "no retreat: no room"
    assert sorted(pos.where(b) for b in SOVIET_THREE if b != weakest) == ["A07", "A14"]
    assert [d.kind for d in pos.pending("soviet")] == ["counterattack"]  # the combat is over


def test_blocks_with_legal_areas_but_no_room_are_eliminated_without_a_question():
    """Ruling R-RETREAT, R-STACK: "a retreat never over-stacks"; when no legal area has room for any of
    the blocks there is nothing to decide: they are eliminated (L236)."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 25/54 | A07: 95/90 95/161 95/241 | A12: 7NI 79NI 8NI "
                      "| A14: 9NI 3NI 25/287", "A10", "A11")
    pos.control("B01", "axis").control("C01", "axis")
    fight(pos, [5, 1, 1] + [1])
    assert pos.where("25/54") is None and pos.last("eliminated")["cause"] == "no retreat"
    assert [d.kind for d in pos.pending("soviet")] != ["retreat"]


def test_a_split_retreat_is_one_order_with_extra_losses_per_group():
    """L206 (the loser may "split them up by moving them to different zones"), ruling R-RETREAT: one
    order names each group and its area with AND; ruling R-FIRE: each group bears its own extra losses,
    and LOSSES names, in each group, who takes them (L404)."""
    pos = beaten_three("A13: 213")
    before = {b: pos.sp(b) for b in SOVIET_THREE}
    assert (pos.sp("25/54"), pos.sp("109/361")) == (2, 3)  # the owner, not the strongest, takes the loss
    pos.order("soviet", "RETREAT 25/54 109/361 TO A14 AND 25/31 TO A07 LOSSES 25/54")
    assert (pos.where("25/54"), pos.where("109/361"), pos.where("25/31")) == ("A14", "A14", "A07")
    assert retreat_losses(pos) == ["enemy field of fire"]  # A14 only; A07 is not under fire
    assert {b: before[b] - pos.sp(b) for b in SOVIET_THREE} == {"25/54": 1, "109/361": 0, "25/31": 0}
    assert [d.kind for d in pos.pending("soviet")] == ["counterattack"]  # the combat is over


def test_the_groups_of_a_split_retreat_go_one_after_another():
    """Ruling R-RETREAT ("The groups go one after another in the order written"), ruling R-AIR: the Axis
    may react as each group enters its area, before the next group moves."""
    pos = beaten_three("")
    pos.auto = ()
    pos.order("soviet", "RETREAT 25/54 TO A12 AND 25/31 109/361 TO A14")
    (window,) = pos.pending("axis")
    assert window.kind == "air" and window.context["area"] == "A12"
    assert (pos.where("25/54"), pos.where("25/31"), pos.where("109/361")) == ("A12", "A11", "A11")
    pos.order("axis", "AIRSTRIKE NONE")
    (window,) = pos.pending("axis")
    assert window.context["area"] == "A14" and (pos.where("25/31"), pos.where("109/361")) == ("A14", "A14")


def test_a_split_retreat_is_refused_as_a_whole_for_any_group():
    """Ruling R-RETREAT, R-STACK: each block once, each group's blocks named, each area with room for
    all the groups going there; LOSSES names only blocks of the order."""
    pos = beaten_three("A12: 7NI 79NI")
    pos.illegal("soviet", "RETREAT 25/54 TO A14 AND 25/54 TO A07", because=r"25/54 is named in two groups")
    pos.illegal("soviet", "RETREAT TO A14 AND 25/31 TO A07", because=r"a split retreat names the blocks of every group")
    pos.illegal("soviet", "RETREAT 25/54 TO A12 AND 25/31 TO A12", because=r"A12 has room for only 1 of your blocks")
    pos.illegal("soviet", "RETREAT 25/54 TO A14 LOSSES 25/31",
                because=r"LOSSES names 25/31, which does not retreat with this order")
    pos.illegal("soviet", "RETREAT 25/54 TO A14 AND 25/31 TO A10",
                because=r"A10 is not a legal retreat from A11: your side does not control it")


def test_the_retreat_options_list_split_retreats_the_best_first():
    """L206, ruling R-RETREAT: the options list every area with room for all the blocks, then split
    retreats, the one RETREAT AUTO takes first, each as an order the grammar reads."""
    pos = beaten_three("A07: 95/90 95/161 | A12: 7NI 79NI | A14: 8NI | A13: 213")
    pos.control("B01", "axis").control("C01", "axis")
    (decision,) = pos.pending("soviet")
    assert decision.options[0] == "RETREAT AUTO"
    splits = decision.options[1:]
    assert splits and all(" AND " in o for o in splits)  # no one area has room for all three
    assert splits[0].endswith("  (1: A14 enemy field of fire)")
    first = splits[0].split("  (")[0]
    pos.order("soviet", first)
    auto = beaten_three("A07: 95/90 95/161 | A12: 7NI 79NI | A14: 8NI | A13: 213")
    auto.control("B01", "axis").control("C01", "axis")
    auto.order("soviet", "RETREAT AUTO")
    assert {b: pos.where(b) for b in SOVIET_THREE} == {b: auto.where(b) for b in SOVIET_THREE}


def test_whole_retreats_are_listed_before_the_splits():
    """Ruling R-RETREAT: "A retreat decision lists every area with room for all the blocks, then the 12
    best splits"; a split may always be written."""
    pos = beaten_in_a11(soviet="25/54 25/31")
    options = pos.pending("soviet")[0].options
    whole = [o for o in options[1:] if " AND " not in o]
    assert [o.split("  (")[0] for o in whole] == ["RETREAT TO A07", "RETREAT TO A12", "RETREAT TO A14",
                                                  "RETREAT TO B01", "RETREAT TO C01"]
    assert options[1:len(whole) + 1] == tuple(whole)
    assert 0 < len(options) - 1 - len(whole) <= 12


def test_empty_enemy_areas_are_open_to_a_retreat_at_one_more_loss_by_option():
    """Ruling R-RETREAT, option retreat_into=friendly_or_empty: "empty enemy-controlled areas allowed,
    at one more step lost"."""
    pos = beaten_in_a11(options={"retreat_into": "friendly_or_empty"})
    pos.order("soviet", "RETREAT TO A10")
    assert pos.where("25/54") == "A10" and pos.sp("25/54") == 1
    assert retreat_losses(pos) == ["retreat into enemy-controlled area"]


def test_a_retreat_into_an_empty_enemy_area_takes_control_of_it():
    """L390: "Control of an area changes at the instant an enemy block is present in an area while it is
    unoccupied by a block of the side that currently controls it" (with option retreat_into=
    friendly_or_empty)."""
    pos = beaten_in_a11(options={"retreat_into": "friendly_or_empty"})
    pos.order("soviet", "RETREAT TO A10")
    assert pos.state["control"]["A10"] == "soviet"


def test_axis_blocks_never_retreat_into_an_empty_undestroyed_battery_area():
    """L332: "Axis blocks cannot retreat into an empty area with an undestroyed [battery] printed on it"
    (ruling R-BATTERY), even where empty enemy areas are allowed (option friendly_or_empty)."""
    pos = setup("A08: 25/54 25/31 | A06: 24/32", "soviet", soviet=("assault",),
                options={"retreat_into": "friendly_or_empty"})
    pos.order("soviet", "ASSAULT GROUP A08")
    pos.order("soviet", "ASSETS NONE")
    pos.order("soviet", "MOVE 25/54 25/31 TO A06")
    # Soviet 2 blocks +1 (6 SP to 3) -1 (rough) = 2 dice; Axis 1 die.
    fight(pos, [5, 1] + [1])
    assert pos.last("combat_result")["winner"] == "soviet"
    pos.illegal("axis", "RETREAT TO A05",
                because=r"A05 is not a legal retreat from A06: .*Axis blocks never "
                        r"retreat into an empty area with an undestroyed battery")
    pos.illegal("axis", "RETREAT TO A07",
                because=r"A07 is not a legal retreat from A06: .*Axis blocks never "
                        r"retreat into an empty area with an undestroyed battery")
    pos.order("axis", "RETREAT TO A02")
    assert pos.where("24/32") == "A02"


def soviet_beats_a06(options=None) -> Position:
    """The Soviet attacks 24/32 in A06 from A08 and wins; the Axis 50/121 holds A05, whose undestroyed
    battery keeps it Soviet-controlled (L332).  Soviet 2 blocks + 1 (6 SP to 3) - 1 (rough) = 2 dice."""
    pos = setup("A08: 25/54 25/31 | A06: 24/32 | A05: 50/121", "soviet", soviet=("assault",), options=options)
    pos.control("A05", "soviet")
    pos.order("soviet", "ASSAULT GROUP A08")
    pos.order("soviet", "ASSETS NONE")
    pos.order("soviet", "MOVE 25/54 25/31 TO A06")
    fight(pos, [5, 1] + [1])
    assert pos.last("combat_result")["winner"] == "soviet"
    return pos


def test_an_axis_loser_may_retreat_into_an_undestroyed_battery_area_that_holds_axis_blocks():
    """L332: "Axis blocks cannot retreat into an empty area with an undestroyed [battery]": only empty
    ones; ruling R-RETREAT: one holding Axis blocks is open and counts as the Axis's own for the retreat,
    though the battery keeps it Soviet-controlled (A05 holds 50/121; A07 is empty)."""
    pos = soviet_beats_a06()
    options = [o.split("  (")[0] for o in pos.pending("axis")[0].options]
    assert "RETREAT TO A05" in options and "RETREAT TO A07" not in options
    pos.order("axis", "RETREAT TO A05")
    assert pos.where("24/32") == "A05" and retreat_losses(pos) == []
    assert pos.state["control"]["A05"] == "soviet"


def test_an_axis_held_battery_area_costs_no_loss_for_control_or_fire_by_control():
    """Ruling R-RETREAT: the battery area holding Axis blocks counts as the Axis's own for the retreat,
    so neither the loss for an enemy-controlled area (option retreat_into=friendly_or_empty) nor the
    field of fire read as enemy control (option field_of_fire=enemy_controlled, ruling R-FIRE) applies."""
    pos = soviet_beats_a06({"retreat_into": "friendly_or_empty", "field_of_fire": "enemy_controlled"})
    assert "RETREAT TO A05  (0)" in pos.pending("axis")[0].options
    strength = pos.sp("24/32")
    pos.order("axis", "RETREAT TO A05")
    assert pos.where("24/32") == "A05" and retreat_losses(pos) == [] and pos.sp("24/32") == strength


def test_option_closes_every_undestroyed_battery_area_to_an_axis_retreat():
    """Ruling R-RETREAT, option battery_retreat=never: no Axis retreat into an area with an undestroyed
    battery, even one holding Axis blocks (L332 read with the control of L392)."""
    pos = soviet_beats_a06({"battery_retreat": "never"})
    pos.illegal("axis", "RETREAT TO A05",
                because=r"A05 is not a legal retreat from A06: Axis blocks never retreat into an area with an "
                        r"undestroyed battery \(game option battery_retreat=never\)")


@pytest.mark.parametrize(("battery_retreat", "home"), [("with_axis_blocks", "A05"), ("never", None)])
def test_a_beaten_attacker_goes_home_to_a_battery_area_it_holds_unless_the_option_closes_it(battery_retreat,
                                                                                           home):
    """L270 (a beaten attacker retreats to the area it came from), L332 and ruling R-RETREAT: an undestroyed
    battery area still holding Axis blocks takes them back; with option battery_retreat=never the block is
    eliminated."""
    pos = setup("A05: 50/121 50/122 | A06: 25/54", axis=("assault",), options={"battery_retreat": battery_retreat})
    pos.control("A05", "soviet")
    pos.order("axis", "ASSAULT GROUP A05")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 50/121 TO A06")
    fight(pos, [1] + [5])  # Axis 1 die (4 SP to 3, +1, -1 rough); Soviet 1 die
    if pos.pending("axis") and pos.pending("axis")[0].kind == "hits":
        pos.order("axis", "HITS AUTO")
    assert pos.last("combat_result")["winner"] == "soviet"
    assert pos.where("50/121") == home
    if home is None:
        assert pos.last("eliminated") == {"block": "50/121", "side": "axis", "area": "A06", "cause": "no retreat"}


def test_blocks_with_no_legal_retreat_are_eliminated_and_their_assets_lost_for_good():
    """Ruling R-RETREAT ("A block with no legal retreat is eliminated, its assets for good"), L236: "If
    the blocks were eliminated due to being unable to retreat after combat, the Armor and/or Pioneer
    counter(s) is/are also permanently eliminated from play"."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 25/54", "A10", "A11").asset("T26A", "A11")
    for area in ("A07", "A12", "A14", "B01", "C01"):
        pos.control(area, "axis")
    fight(pos, [5, 5, 1] + [1])  # 2 hits, 1 cancelled by the T-26
    assert pos.where("25/54") is None
    assert pos.last("eliminated") == {"block": "25/54", "side": "soviet", "area": "A11", "cause": "no retreat"}
    assert pos.asset_at("T26A") == ("eliminated", None, 2)


def test_assets_whose_blocks_die_in_combat_are_set_aside_with_their_steps():
    """L236: "If all the blocks that are stacked with an Armor and/or Pioneer counter are eliminated due
    to combat, then the counter(s) is/are put aside for reuse - with the same step strength showing"."""
    pos = axis_attack("A10: 24/31 24/32 | A11: 25/54=1", "A10", "A11").asset("T26A", "A11", steps=1)
    fight(pos, [5, 5, 1] + [1])
    assert pos.where("25/54") is None
    assert pos.asset_at("T26A") == ("pool", None, 1)
    assert pos.last("asset_set_aside") == {"asset": "T26A", "area": "A11"}


# ---------------------------------------------------------------- a beaten attacker


def test_a_beaten_attacker_whose_origin_is_now_enemy_held_is_eliminated():
    """L270 (attacking blocks retreat to the area they came from), ruling R-RETREAT: "a block whose
    origin is now enemy-occupied or full is eliminated"."""
    pos = axis_attack("A04: 24/32 | A08: 25/54", "A04", "A08")
    pos.place("A04: 79NI").control("A04", "soviet")  # the Soviet has meanwhile entered A04
    fight(pos, [1] + [5])  # Axis 1 die (rough); Soviet 1 die
    assert pos.last("combat_result")["winner"] == "soviet"
    assert pos.where("24/32") is None and pos.last("eliminated")["cause"] == "no retreat"


def test_a_beaten_attacker_retreats_into_the_enemy_field_of_fire_at_one_loss():
    """Ruling R-FIRE (L298, L382): retreating into an area next to enemy blocks (other than the combat
    area) costs one step per group; it applies to a beaten attacker going home too (A09 is next to the
    Soviet in A13, A04 is not)."""
    pos = setup("A04: 24/31 | A09: 24/32 | A08: 25/54 | A13: 25/31", axis=("assault",))
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A08")
    pos.order("axis", "MOVE 24/32 TO A08")
    pos.order("axis", "RESOLVE A08")
    fight(pos, [1, 1] + [1])  # no hit: a tie in the Soviet trench goes to the defender (L362)
    assert pos.last("combat_result")["winner"] == "soviet"
    assert (pos.where("24/31"), pos.sp("24/31")) == ("A04", 4)
    assert (pos.where("24/32"), pos.sp("24/32")) == ("A09", 2)
    assert pos.last("retreat_loss")["reason"] == "enemy field of fire"


def test_the_over_stack_going_home_is_not_a_retreat():
    """L190, L206: the blocks beyond 3 return to their original areas; "this is not a retreat, so they
    will not be 'retreating into an enemy field of fire'" (B04 is next to the Soviet in B03)."""
    pos = setup("A09: 24/31 50/121 | B04: 24/32 50/122 | A13: 25/54 | B03: 25/31",
                axis=("assault", "assault"))
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 50/121 TO A13")
    pos.order("axis", "MOVE 24/32 50/122 TO A13")
    pos.order("axis", "RESOLVE A13")
    fight(pos, [5, 1, 1, 1] + [1])
    pos.order("soviet", "RETREAT TO A12")
    pos.order("axis", "KEEP 24/31 50/121 24/32")
    assert pos.where("50/122") == "B04" and pos.sp("50/122") == 4
    assert pos.kinds("retreat_loss") == [] and pos.last("returned")["origins"] == ["B04"]


# ---------------------------------------------------------------- extra losses


def test_retreating_into_an_enemy_field_of_fire_costs_one_step_per_group_chosen_by_the_owner():
    """Ruling R-FIRE (option field_of_fire=adjacent_enemy, the default): a destination next to an area
    holding enemy blocks other than the combat area costs one step per group, not per block, assigned
    by the owner (L404)."""
    pos = beaten_in_a11("A13: 213", soviet="25/54 25/31")
    assert (pos.sp("25/54"), pos.sp("25/31")) == (2, 3)  # the hit went to the strongest
    pos.order("soviet", "RETREAT TO A12 LOSSES 25/54")
    assert retreat_losses(pos) == ["enemy field of fire"]
    assert (pos.sp("25/54"), pos.sp("25/31")) == (1, 3)


def test_field_of_fire_read_as_enemy_controlled_areas_by_option():
    """Ruling R-FIRE, option field_of_fire=enemy_controlled: only a destination controlled by the enemy
    is under fire - A12 next to the Axis in A13 is not."""
    pos = beaten_in_a11("A13: 213", options={"field_of_fire": "enemy_controlled"})
    pos.order("soviet", "RETREAT TO A12")
    assert retreat_losses(pos) == [] and pos.sp("25/54") == 2


def test_ferry_demoralization_and_field_of_fire_are_cumulative_and_armor_across_a_ferry_is_lost():
    """L382: a retreat across a crossing arrow costs one more loss per group, "cumulative with
    'retreating into an enemy field of fire' ... Soviet retreating blocks could even suffer 3 losses"
    with the demoralization penalty (L400-402); "If the retreating blocks were accompanied by an Armor
    counter then this is immediately and permanently eliminated from play" (L254)."""
    pos = axis_attack("A11: 24/31 24/32 50/121 | A10: 25/54 25/31 | C03: 213", "A11", "A10").asset("T26A", "A10")
    # Axis 3 blocks +1 (11 SP to 6) = 4 dice; Soviet 2 dice with +1 (T-26) and +1 (trench).
    fight(pos, [5, 5, 5, 1] + [1, 1])
    pos.order("soviet", "HITS 25/54 25/31")
    assert pos.last("combat_result")["winner"] == "axis"
    pos.order("soviet", "RETREAT TO C02 LOSSES 25/54 25/31 25/54")
    assert sorted(retreat_losses(pos)) == ["demoralization near Sevastopol", "enemy field of fire",
                                           "ferry crossing"]
    assert pos.where("25/54") is None and (pos.where("25/31"), pos.sp("25/31")) == ("C02", 1)
    assert pos.asset_at("T26A") == ("eliminated", None, 2)


def test_a_beaten_axis_attacker_going_back_across_the_ferry_loses_a_step():
    """L382: "Blocks can retreat using the crossing arrows. If a block or group of blocks retreats using a
    crossing arrow, then they suffer one additional loss (as a group not per block)"."""
    pos = axis_attack("A10: 24/32 50/123 | C02: 25/54", "A10", "C02")
    # Axis 2 blocks +1 (6 SP to 3) -1 (ferry) = 2 dice; Soviet 1 die.
    fight(pos, [1, 1] + [5])
    pos.order("axis", "HITS AUTO")
    assert pos.last("combat_result")["winner"] == "soviet"
    assert retreat_losses(pos) == ["ferry crossing"]
    assert {pos.where("24/32"), pos.where("50/123")} == {"A10"}
    assert pos.sp("24/32") + pos.sp("50/123") == 4  # 6 SP - the 5 - the ferry


def test_soviet_retreat_into_or_next_to_sevastopol_costs_one_step_per_group():
    """L400: "If Soviet blocks have to retreat after combat into one of the two areas of Sevastopol proper
    or into any area adjacent to those two Sevastopol areas ... they suffer ONE additional step loss (per
    group of blocks, not per block)"; L404: the Soviet player assigns it (C04 is next to C01 and C02)."""
    pos = axis_attack("B07: 24/31 24/32 | C05: 25/54 25/31", "B07", "C05")
    fight(pos, [5, 1, 1] + [1, 1])
    pos.order("soviet", "HITS 25/54")
    pos.order("soviet", "RETREAT TO C04 LOSSES 25/31")
    assert retreat_losses(pos) == ["demoralization near Sevastopol"]
    assert (pos.sp("25/54"), pos.sp("25/31")) == (2, 2)


def test_ferry_arrows_do_not_make_an_area_adjacent_to_sevastopol():
    """L400 ("Ferry crossings do not count for adjacency"), L384: A10 is linked to Sevastopol (C02) only
    by a ferry arrow, so retreating there costs nothing; across the arrow into C01 costs two."""
    pos = axis_attack("A14: 24/31 24/32 | A11: 25/54 25/31", "A14", "A11")
    # Axis 2 blocks +1 (7 SP to 6) = 3 dice; Soviet 2 dice.
    fight(pos, [5, 5, 1] + [1, 1])
    pos.order("soviet", "HITS AUTO")
    assert (pos.sp("25/54"), pos.sp("25/31")) == (2, 2)
    pos.order("soviet", "RETREAT 25/54 TO A10")
    assert retreat_losses(pos) == [] and pos.sp("25/54") == 2
    pos.order("soviet", "RETREAT 25/31 TO C01")
    assert sorted(retreat_losses(pos)) == ["demoralization near Sevastopol", "ferry crossing"]
    assert pos.where("25/31") is None  # 2 SP, 2 losses


def test_interdiction_attacks_each_soviet_block_retreating_into_its_area():
    """L457: "An Interdiction marker attacks any Soviet block that enters its area, using movement or
    retreat after combat ... 1d6 is rolled separately for each block"; in an intact Soviet trench area it
    hits only on a 6 (L361, ruling R-INTERDICT)."""
    pos = beaten_in_a11(soviet="25/54 25/31").marker("A12", "interdiction")
    pos.order("soviet", "RETREAT TO A12", dice=[5, 6])
    rolls = pos.kinds("interdiction")
    assert [(r["die"][0], r["need"], r["hit"]) for r in rolls] == [(5, 6, False), (6, 6, True)]
    assert pos.sp("25/54") + pos.sp("25/31") == 4  # 6 SP - the combat hit - the interdiction hit


# ---------------------------------------------------------------- counters, markers, control


def test_at_and_bunker_markers_are_withdrawn_when_their_blocks_lose_but_a_minefield_stays():
    """L238, L246: Antitank and Bunker markers are withdrawn "if the blocks they are stacked with lose a
    combat and must retreat. They can always be reused"; ruling R-ENTRY: a Minefield stays, inert while
    the area is Axis-controlled."""
    pos = axis_attack("A10: 24/31 24/32 50/121 | A11: 25/54", "A10", "A11")
    pos.marker("A11", "at").marker("A11", "bunker").marker("A11", "minefield")
    fight(pos, [5, 5, 5, 1] + [1])  # 3 hits, 2 cancelled (bunker, minefield)
    pos.order("soviet", "RETREAT TO A12")
    assert {e["marker"] for e in pos.kinds("marker_withdrawn")} == {"at", "bunker"}
    assert pos.state["markers"]["A11"] == ["minefield"]


def test_at_and_bunker_markers_left_alone_are_withdrawn_when_axis_blocks_enter():
    """L238, L246: "AT markers are withdrawn from the Map Board if they are alone in an area and enemy
    blocks enter the area"; L232: mines, bunker and AT markers can be left alone; ruling R-ENTRY: a
    Minefield stays."""
    pos = setup("A10: 24/31", axis=("assault",))
    pos.marker("A11", "at").marker("A11", "bunker").marker("A11", "minefield")
    pos.order("axis", "ASSAULT GROUP A10")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 24/31 TO A11")
    assert pos.state["markers"]["A11"] == ["minefield"]
    assert pos.state["control"]["A11"] == "axis"


def test_assets_retreat_with_their_blocks_and_a_second_of_one_type_is_eliminated():
    """L230 (counters stay with their blocks), L234: "If, due to a retreat after combat, a player is
    forced to stack more than one counter of the same type in a single area, that player will be forced
    to eliminate one of them ... permanently"; ruling R-DUP: the one with fewer steps goes."""
    pos = beaten_in_a11("A12: 25/31", soviet="25/54").asset("T26A", "A11", steps=2).asset("T26B", "A12", steps=1)
    pos.asset("SPIOA", "A11")
    pos.order("soviet", "RETREAT TO A12")
    assert pos.asset_at("SPIOA") == ("map", "A12", 2)  # went with its block
    assert pos.asset_at("T26A") == ("map", "A12", 2)
    assert pos.asset_at("T26B") == ("eliminated", None, 1)


def test_the_winner_takes_control_and_the_soviet_trench_is_put_out_of_order():
    """L390: control changes "as a consequence of combat when the defending blocks are forced to retreat
    from the area and the attacker still has at least one block remaining"; L370: Soviet trenches are put
    out of order when an Axis block "wins a combat forcing all the Soviet blocks to retreat"."""
    pos = axis_attack("A13: 24/31 24/32 50/121 | A12: 25/54", "A13", "A12")
    # Axis 3 blocks +1 (SP) -1 (rough) = 3 dice; Soviet 1 die (+1 trench).
    fight(pos, [5, 5, 1] + [1])
    pos.order("soviet", "RETREAT TO A11")
    assert pos.state["control"]["A12"] == "axis" and "A12" in pos.state["trench_disabled"]


def test_a_pass_withdraws_assets_to_their_two_step_side():
    """L144, L230: on a Pass the owner may withdraw Armor and Pioneer counters; "they are set aside with
    their '2 step' side upwards, and they can be placed back in any subsequent turn"."""
    pos = setup("A04: 24/31", axis=("assault",)).asset("PZ3", "A04", steps=1).asset("APIOA", "A04", steps=2)
    pos.order("axis", "PASS WITHDRAW PZ3")
    assert pos.asset_at("PZ3") == ("pool", None, 2)
    assert pos.asset_at("APIOA") == ("map", "A04", 2)
    assert pos.last("pass")["withdrawn"] == ["PZ3"]
