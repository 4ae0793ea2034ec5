"""Rule 5.0 Zones of Control (5.0-5.3, 5.5.2, 5.6) and rule 7.0 Stacking, on the real map.

The ZOC costs of 5.1 are tested with movement (test_movement.py); retreats into EZOCs (5.4) and
supply through EZOCs (5.5.1) with combat and supply.
"""

from __future__ import annotations

from tests.games.narva.drive import arrive, asked, cannot, finish, moving, path, reinforcement_phase
from tests.games.narva.helpers import answer, emitted, position

# ---------------------------------------------------------------- 5.0 - 5.2


def test_5_0B_a_unit_exerts_a_zoc_into_all_six_adjacent_hexes():
    board = position({"61/162G": "2432"})
    zone = board.zoc_of("german")
    assert set(board.scenario.neighbours("2432")) == zone
    assert len(zone) == 6
    assert "2432" not in zone and "2534" not in zone  # not its own hex, nothing two hexes away


def test_5_0A_only_enemy_zones_of_control_count():
    """A unit is never in its own side's ZOC for movement: a German unit next to another German unit
    pays no EZOC cost (2232 -> 2332 costs 1)."""
    board = position({"61/162G": "2232", "61/176G": "2432"})
    assert not board.in_enemy_zoc("2332", "german")
    assert board.in_enemy_zoc("2332", "soviet")
    assert path(board, "61/162G", "2332").cost == 1


def test_5_2A_hqs_exert_no_zoc():
    board = position({"FHH/HQ": "2432"})
    assert board.zoc_of("german") == frozenset()
    # a Soviet unit walks past it paying terrain only: 2331 -> 2332 -> 2333
    board = position({"FHH/HQ": "2432", "109/381": "2331"})
    assert path(board, "109/381", "2333").cost == 2


def test_5_2A_soviet_assault_guns_exert_no_zoc():
    board = position({"IND/1434AG": "2432"})
    assert not board.has_zoc("IND/1434AG")
    assert board.zoc_of("soviet") == frozenset()


def test_5_2B_units_with_an_attack_strength_of_one_or_more_have_zocs():
    """Even the weakest printed attack (KUST/SCHN, 1-3-3) gives a ZOC; so does a reduced unit."""
    assert position({}).scenario.unit("KUST/SCHN").full.attack == 1
    board = position({"KUST/SCHN": "2432"})
    assert board.in_enemy_zoc("2433", "soviet")
    board = position({"61/162G": "2432"}, reduced=["61/162G"])
    assert board.in_enemy_zoc("2433", "soviet")


def test_5_2_a_stack_with_one_zoc_unit_exerts_a_zoc():
    board = position({"IND/1434AG": "2432", "109/HQ": "2432", "109/381": "2432"})
    assert board.in_enemy_zoc("2433", "german")


def test_5_5_2_out_of_supply_and_isolated_units_keep_their_zoc():
    for status in ("oos", "isolated"):
        board = position({"61/162G": "2432"}, supply={"61/162G": status})
        assert board.in_enemy_zoc("2433", "soviet")


def test_5_6_zocs_do_not_extend_across_an_unbridged_frozen_major_river():
    """Turn 1: the lower Narva between 2722 and 2821 is frozen but unbridged."""
    board = position({"FHH/MOK": "2821"}, turn=1)
    assert board.frozen
    assert "2722" not in board.zoc_of("german")
    assert "2922" in board.zoc_of("german")  # the dry-land neighbour is covered


def test_5_6_zocs_do_not_extend_across_an_unbridged_unfrozen_major_river():
    board = position({"FHH/MOK": "2821"}, turn=9)
    assert "2722" not in board.zoc_of("german")


def test_5_6_zocs_extend_across_a_bridged_major_river():
    """2.2.8B: the road bridge between 1819 and 1820 (Krivasoo) cancels the river's ZOC effect."""
    board = position({"FHH/FUS": "1820"}, turn=9)
    assert board.bridged("1820", "1819")
    assert "1819" in board.zoc_of("german")


def test_5_6_zocs_do_not_extend_across_a_ferry():
    """Ruling N-39: a ferry hexside is an unbridged major river hexside."""
    board = position({"61/162G": "1004"}, turn=9)
    assert board.scenario.hexside("1004", "1104").ferry
    assert "1104" not in board.zoc_of("german")


def test_5_6_minor_rivers_do_not_stop_zocs():
    """2226 / 2227 are separated by the Mustajogi (minor)."""
    board = position({"61/162G": "2227"})
    assert board.scenario.hexside("2226", "2227").river_kind == "minor"
    assert "2226" in board.zoc_of("german")


# ---------------------------------------------------------------- 5.3 ZOC and reinforcements


def test_5_3A_reinforcements_are_not_placed_in_an_ezoc():
    """A Soviet unit at 0231 covers entry hex A (0131): the arriving German unit goes elsewhere."""
    board = position({"109/381": "0231"}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert asked(board) == ["place"]
    cannot(board, "PLACE 220G AT 0131",
           because=r"0131 is not a legal place for 220G \(5\.3, 8\.3: .*nor in an enemy zone of control")


def test_5_3B_friendly_units_do_not_negate_ezocs_for_placement():
    board = position({"109/381": "0231", "61/162G": "0131"}, turn=2)
    arrive(board, "58/220G", 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    cannot(board, "PLACE 220G AT 0131",
           because=r"0131 is not a legal place for 220G \(5\.3, 8\.3: .*nor in an enemy zone of control, friendly "
                   r"units there or not")
    answer(board, "PLACE 220G AT 0129")
    assert board.hex_of("58/220G") == "0129"


# ---------------------------------------------------------------- 7.0 stacking


def test_7_1B_two_combat_units_per_hex():
    board = position({"109/381": "2332", "109/456": "2332", "109/602": "2331"})
    moving(board, "soviet", "109/602")
    cannot(board, "MOVE 602 TO 2332", because=r"2332 would be overstacked \(7\.1\)")
    assert board.hex_of("109/602") == "2331"


def test_7_1B_a_move_of_several_hexes_into_a_full_hex_is_refused_for_stacking():
    """Issue 12: 602 at 1932 reaches 2332 with exactly its 4 MP (four clear hexes), but 2332 already
    holds two combat units, so the refusal names stacking (7.1), not the unit's MP."""
    assert path(position({"109/602": "1932"}), "109/602", "2332").cost == 4
    board = position({"109/381": "2332", "109/456": "2332", "109/602": "1932"})
    moving(board, "soviet", "109/602")
    cannot(board, "MOVE 602 TO 2332", because=r"2332 would be overstacked \(7\.1\)")
    assert board.hex_of("109/602") == "1932"


def test_7_1B_a_full_hex_out_of_reach_is_refused_for_the_mp():
    """From 1832, 2332 is more than 4 MP away: the refusal says so, even though 2332 is also full."""
    board = position({"109/381": "2332", "109/456": "2332", "109/602": "1832"})
    moving(board, "soviet", "109/602")
    cannot(board, "MOVE 602 TO 2332", because=r"^602 cannot reach 2332 from 1832 with 4 MP(; did you mean|$)")


def test_7_1B_reduced_units_count_the_same():
    board = position({"109/381": "2332", "109/456": "2332", "109/602": "2331"}, reduced=["109/381", "109/456"])
    moving(board, "soviet", "109/602")
    cannot(board, "MOVE 602 TO 2332", because=r"2332 would be overstacked \(7\.1\)")


def test_7_1B_an_hq_stacks_with_two_combat_units():
    board = position({"109/381": "2332", "109/456": "2332", "109/HQ": "2331"})
    moving(board, "soviet", "109/HQ")
    answer(board, "MOVE 109/HQ TO 2332")
    assert board.units_at("2332") == ["109/381", "109/456", "109/HQ"]


def test_7_1B_one_hq_per_hex():
    board = position({"109/HQ": "2332", "43/HQ": "2331"})
    moving(board, "soviet", "43/HQ")
    cannot(board, "MOVE 43/HQ TO 2332", because=r"2332 would be overstacked \(7\.1\)")


def test_7_1B_a_soviet_assault_gun_stacks_on_top_of_two_combat_units_and_an_hq():
    board = position({"109/381": "2332", "109/456": "2332", "109/HQ": "2332", "IND/1434AG": "2331"})
    moving(board, "soviet", "IND/1434AG")
    answer(board, "MOVE IND/1434AG TO 2332")
    assert sorted(board.units_at("2332")) == sorted(["109/381", "109/456", "109/HQ", "IND/1434AG"])
    assert board.stacking_ok("2332")


def test_7_1B_the_assault_gun_does_not_make_room_for_a_third_combat_unit():
    board = position({"109/381": "2332", "IND/1434AG": "2332", "109/456": "2332"})
    assert board.stacking_ok("2332")
    assert not board.stacking_ok("2332", ["109/602"])


# 7.1B "one Soviet assault gun" per hex and 6.4.2B "an assault gun passing through another": units.yaml has
# a single Soviet assault gun (1434 AG), so neither can be tested by moving a second gun.


def test_7_1C_a_full_hex_on_the_only_way_does_not_block_normal_movement():
    """0531 (rollbahn) holds two German units; a normal move from 0430 to 0630 along the rollbahn
    passes through it (1 MP)."""
    board = position({"61/176G": "0531", "61/161Pio": "0531", "61/162G": "0430"})
    assert path(board, "61/162G", "0630").hexes == ("0430", "0531", "0630")


def test_7_2A_8_1_reinforcements_may_overstack_on_placement_but_not_at_the_end_of_the_phase():
    """Three German units arrive at entry A (0131) and are all placed there; if Germany moves none of
    them, the third is moved off at the end of the phase (ruling N-40/N-68)."""
    board = position({}, turn=2)
    for uid in ("58/220G", "58/158Pio", "IND/BE"):
        arrive(board, uid, 2, "A")
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    assert all(board.hex_of(u) == "0131" for u in ("58/220G", "58/158Pio", "IND/BE"))
    assert not board.stacking_ok("0131")
    assert asked(board) == ["move"]
    finish(board, until="improve")
    assert board.stacking_ok("0131")
    assert len(board.combat_units_at("0131")) == 2
    assert emitted(board, "overstack_moved")


def _arrivals_left_at_their_entry(units: tuple[str, ...], entry: str) -> dict[str, str]:
    """Germany brings `units` in at `entry` on Turn 3, moves none of them, and the segment ends:
    where each unit stands then, and the moderator's moves (unit -> hex)."""
    board = position({}, turn=3)
    for uid in units:
        arrive(board, uid, 3, entry)
    reinforcement_phase(board)
    answer(board, "REROUTE NONE")
    finish(board, until="improve")
    return {e["unit"]: e["hex"] for e in emitted(board, "overstack_moved")}


def test_7_1B_7_2A_an_arrival_hq_is_not_moved_off_a_hex_overstacked_only_by_combat_units():
    """Hand-play, turn 3: 285S HQ and its three GRZ regiments enter at C (0103).  7.1B allows two combat
    units and one HQ, so only one regiment is over the limit: the HQ stays, the last regiment leaves
    (ruling N-68).  It goes to 0203 on the shore road it came in by, not to 0102 (woods, no road),
    so it may still move strategically next turn (6.4.1A)."""
    moved = _arrivals_left_at_their_entry(("285S/HQ", "285S/1GRZ", "285S/2GRZ", "285S/3GRZ"), "C")
    assert moved == {"285S/3GRZ": "0203"}


def test_7_2A_6_4_1A_overstacked_arrivals_are_settled_along_the_road_and_railway_they_entered_by():
    """Five combat units left at A (0131, on the rollbahn and the Tallinn railway): three must go.
    The first two fill 0230 (rollbahn and railway, next to the entry); the third goes two hexes along
    them (0330, railway) rather than to the off-road hexes next to the entry (0130, 0132, 0231)."""
    units = ("58/220G", "58/158Pio", "IND/BE", "20SS/1/46", "20SS/2/46")
    moved = _arrivals_left_at_their_entry(units, "A")
    assert moved == {"20SS/2/46": "0230", "20SS/1/46": "0230", "IND/BE": "0330"}
