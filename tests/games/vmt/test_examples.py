"""The rulebook's worked examples, replayed move by move with the dice the examples name."""

from tests.games.vmt.harness import Position

COMBAT_AREA = "A08"  # rough, intact Soviet trench: the Perekop/54th area of the examples (L308, L310)


def example_position() -> Position:
    """24th and 50th Divisions stacked together next to the Perekop and 54th regiments."""
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 24/31 | A09: 24/32 24/102 50/123 | A08: Perekop 25/54")
    pos.control("A08", "soviet").control("A04", "axis").control("A09", "axis")
    pos.hand("axis", "assault", "counterattack", "axis_field_artillery", "redeployment")
    pos.hand("soviet", "minefield", "bunker", "mortars", "counterattack")
    pos.phase("axis")
    return pos


def test_heavy_artillery_example_hits_only_on_6_in_trenches_then_170th_assaults():
    """L196: Heavy Artillery on the 361st's area rolls 4 dice and gets no 6: no damage, because the
    area has intact Soviet trenches; then an Assault activates the 170th Division, whose two blocks
    move into that area and start a combat at once."""
    pos = Position().clear()
    pos.place("B10: 170/391 170/399 | B08: 109/361")
    pos.control("B08", "soviet").control("B10", "axis")
    pos.hand("axis", "heavy_artillery", "assault")
    pos.phase("axis")
    pos.order("axis", "PLAY HEAVY_ARTILLERY B08", dice=[5, 5, 3, 1])
    bombardment = pos.last("bombardment")
    assert bombardment["need"] == 6 and bombardment["hits"] == 0  # two 5s, but only 6s hit (L361, L465)
    assert pos.sp("109/361") == 3
    pos.order("axis", "ASSAULT DIVISION 170")
    assert pos.last("card_played")["divisions"] == ["170"]  # the 170th marker on the card (L176)
    pos.order("axis", "MOVE 170/391 170/399 TO B08")
    pos.order("axis", "RESOLVE B08")
    combat = pos.top()
    assert combat["kind"] == "combat" and combat["area"] == "B08"
    assert {e["block"] for e in combat["attackers"]} == {"170/391", "170/399"}


def test_coordinated_assault_example():
    """L198-200: Assault on the 24th, a Coordinated Assault with a second card (a dual-use card used
    as an Assault) on the 50th; engineers and armor placed with two regiments of the 50th; the six
    blocks move into the Perekop/54th area; blocks left behind may move after the combat."""
    pos = example_position()
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50 USING COUNTERATTACK")
    assert pos.last("coordinated")["division"] == "50"
    assert pos.top()["divisions"] == ["24", "50"]
    assert sorted(pos.top()["blocks"]) == sorted(["50/121", "50/122", "24/31", "24/32", "24/102", "50/123"])
    # Each card allows one Armor and one Pioneer (L200): the player uses only one placement.
    pos.order("axis", "ASSETS ARMOR PZ3 A04 PIONEER APIOA A04")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 50/121 50/122 24/31 TO A08 WITH PZ3 APIOA")
    pos.order("axis", "MOVE 24/32 24/102 50/123 TO A08")
    top = pos.top()
    assert top["kind"] == "activation" and top["pending"]["A08"]  # the combat waits (L186)
    assert len(pos.board.blocks_in("A08", "axis")) == 6  # a temporary over-stack (L190)
    pos.order("axis", "RESOLVE A08")
    assert pos.top()["kind"] == "combat"


def test_full_combat_example_9d6_against_4d6():
    """L300-314, the whole combat: Field Artillery for the Axis; Minefield, Bunker and Mortars for the
    Soviet; the engineers lift the mines; the AT gun rolls a 2 at the armor; 9d6 (6 blocks, +1 for
    21 SP against 7, +3 Field Artillery, -1 rough) against 4d6 (2 blocks, +2 Mortars); the Axis's
    5, 5, 6 and a 4 raised by the Pz-III make 4 hits; the Soviet's 5, 6 and a 4 raised by the trench
    make 3; the armor cancels the Soviet 6 (no exhaustion) and the bunker one Axis hit; the first hit
    on each side goes to its strongest block (a German 4-step block, Perekop); the engineers roll a 3
    and are unharmed; the Soviet suffered more and retreats, its AT and bunker markers withdrawn."""
    pos = example_position()
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50 USING COUNTERATTACK")
    pos.order("axis", "ASSETS ARMOR PZ3 A04 PIONEER APIOA A04")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 50/121 50/122 24/31 TO A08 WITH PZ3 APIOA")
    pos.order("axis", "MOVE 24/32 24/102 50/123 TO A08")
    pos.order("axis", "RESOLVE A08")
    pos.order("axis", "SUPPORT AXIS_FIELD_ARTILLERY")
    assert pos.last("support_committed") == {"side": "axis", "count": 1, "area": "A08"}
    axis_dice = [5, 5, 6, 4, 1, 2, 3, 1, 2]
    soviet_dice = [5, 6, 4, 1]
    pos.order("soviet", "SUPPORT MINEFIELD BUNKER MORTARS", dice=[2] + axis_dice + soviet_dice)
    revealed = pos.last("revealed")
    assert revealed["cards"] == {"axis": ["axis_field_artillery"], "soviet": ["minefield", "bunker", "mortars"]}
    assert {b["block"] for b in revealed["blocks"]["soviet"]} == {"Perekop", "25/54"}
    removed = pos.last("marker_removed")
    assert removed["marker"] == "minefield" and removed["by"] == "APIOA"  # the engineers lift the mines
    at_fire = pos.last("anti_armor")
    assert at_fire["reason"] == "AT gun" and at_fire["die"][0] == 2 and not at_fire["hit"]
    roll = pos.last("combat_roll")
    assert roll["dice"]["axis"]["total"] == 9
    assert dict(roll["dice"]["axis"]["parts"]) == {"blocks": 6, "more strength points": 1,
                                                    "axis field artillery": 3, "rough terrain": -1}
    assert roll["dice"]["soviet"]["total"] == 4
    assert dict(roll["dice"]["soviet"]["parts"]) == {"blocks": 2, "mortars": 2}
    assert roll["dice"]["axis"]["modified"] == [5, 5, 6, 5, 1, 2, 3, 1, 2]  # Pz-III: the 4 becomes 5
    assert roll["dice"]["soviet"]["modified"] == [5, 6, 5, 1]  # trench: the 4 becomes 5
    assert roll["cancelled"] == {"axis": 1, "soviet": 1}  # bunker cancels 1 Axis hit; armor 1 Soviet hit
    assert roll["hits"] == {"axis": 3, "soviet": 2} and roll["sixes"] == 0  # the cancelled hit was the 6
    # Casualties: the first hit on a German 4-step block, the first Soviet hit on Perekop (L312).
    pos.order("axis", "HITS 50/121 24/32")
    pos.order("soviet", "HITS Perekop 25/54 Perekop", dice=[3])  # the engineers' roll: a 3 (L312)
    assert (pos.sp("50/121"), pos.sp("24/32")) == (3, 2)
    assert (pos.sp("Perekop"), pos.sp("25/54")) == (2, 2)
    assert not any(pos.exhausted(b) for b in ("50/121", "24/32"))  # no uncancelled 6: nobody exhausted
    pioneer = pos.last("pioneer_roll")
    assert pioneer["asset"] == "APIOA" and pioneer["die"][0] == 3 and not pioneer["hit"]
    result = pos.last("combat_result")
    assert result["winner"] == "axis" and result["hits"] == {"axis": 2, "soviet": 3}
    assert pos.pending("soviet")[0].kind == "retreat"
    pos.order("soviet", "RETREAT TO A12")
    assert pos.board.marker("A08", "at") is False and pos.board.marker("A08", "bunker") is False
    assert {"at", "bunker"} <= {e["marker"] for e in pos.kinds("marker_withdrawn")}


def test_retreat_and_over_stack_example():
    """L206: the beaten Soviet regiments split up and retreat to different areas; the Axis keeps 3
    blocks and returns the rest home, which is not a retreat (no losses); the Soviet trench of the
    area is put out of order; then the Soviet plays a Counterattack inside the Axis phase."""
    pos = example_position()
    pos.place("A12: 25/31 | A06: 3NI")
    pos.control("A12", "soviet").control("A06", "soviet")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50 USING COUNTERATTACK")
    pos.order("axis", "ASSETS NONE")
    pos.order("axis", "MOVE 50/121 50/122 24/31 TO A08")
    pos.order("axis", "MOVE 24/32 24/102 50/123 TO A08")
    pos.order("axis", "RESOLVE A08")
    pos.order("axis", "SUPPORT NONE")
    # Axis 6 blocks + 1 (SP) - 1 (rough) = 6 dice; Soviet 2 dice.
    pos.order("soviet", "SUPPORT NONE", dice=[5, 5, 1, 1, 1, 1] + [1, 2])
    pos.order("soviet", "HITS Perekop 25/54")
    assert pos.last("combat_result")["winner"] == "axis"
    sp_before = {b: pos.sp(b) for b in ("24/31", "24/32", "24/102", "50/121", "50/122", "50/123")}
    pos.order("soviet", "RETREAT Perekop TO A12")
    assert pos.where("Perekop") == "A12"
    pos.order("soviet", "RETREAT 25/54 TO A06")
    assert pos.where("25/54") == "A06"  # the regiments split up (L206)
    # The Axis keeps three; the others go back where they came from, without losses (L190, L206).
    assert pos.pending("axis")[0].kind == "keep"
    pos.order("axis", "KEEP 50/121 50/122 24/31")
    assert sorted(pos.board.blocks_in("A08", "axis")) == ["24/31", "50/121", "50/122"]
    assert {pos.where(b) for b in ("24/32", "24/102", "50/123")} == {"A09"}
    assert {b: pos.sp(b) for b in sp_before} == sp_before
    assert "A08" in pos.state["trench_disabled"]  # "Trench Disabled" (L206, L370)
    assert pos.state["control"]["A08"] == "axis"
    # The Soviet may now counterattack inside the Axis phase (L206, L439).
    window = pos.pending("soviet")[0]
    assert window.kind == "counterattack" and window.interrupts == "axis"
    pos.order("soviet", "COUNTERATTACK GROUP A12")
    assert pos.top()["kind"] == "activation" and pos.top()["reaction"] is True
