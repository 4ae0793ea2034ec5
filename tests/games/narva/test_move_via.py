"""MOVE <units> TO <hex> VIA <hex...>: a player chooses the way (issue 12, mail 060 of a game played by
hand: the player wanted the 185 Tk on the rollbahn by way of Soldina and had no way to say so).

The way matters under the rules: a VP hex belongs to the side that last passed through it with a combat
unit with a ZOC (13.2, ruling N-48), and a combat unit entering a lone enemy HQ's hex overruns it on the
way (6.3B, 11.1.4, ruling N-61).  The move takes the cheapest legal path through the named hexes in
order, within the unit's MA (6.0, 6.1), or is refused saying which hex it cannot get to.

Map (TEC in tables.yaml): 2322, 2324 and 2423 clear (1 MP), 2422 swamp (2 MP), 2323 the village of Pustoska
(1 MP; a VP hex, German at the start).  From 2222 to 2422 the cheapest way (3 MP) is by 2322; by Pustoska
it is 3 MP too, and the lower hex numbers decide (movement.py).
"""

from __future__ import annotations

from moderator.games.narva.orders import GRAMMAR
from tests.games.narva.drive import cannot, moving
from tests.games.narva.helpers import answer, emitted, position


def test_13_2_a_move_via_a_vp_hex_takes_it_and_the_cheapest_path_does_not():
    board = position({"109/381": "2222"})
    assert board.data["control"]["2323"] == "german"
    moving(board, "soviet", "109/381")
    answer(board, "MOVE 381 TO 2422")
    assert emitted(board, "moved")[-1]["path"] == ["2222", "2322", "2422"]
    assert board.data["control"]["2323"] == "german"

    board = position({"109/381": "2222"})
    moving(board, "soviet", "109/381")
    answer(board, "MOVE 381 TO 2422 VIA 2323")
    assert emitted(board, "moved")[-1]["path"] == ["2222", "2323", "2422"]
    assert board.hex_of("109/381") == "2422" and board.data["control"]["2323"] == "soviet"


def test_11_1_4_a_move_via_a_lone_enemy_hq_overruns_it_on_the_way():
    board = position({"109/381": "2222", "61/HQ": "2323"})
    moving(board, "soviet", "109/381")
    answer(board, "MOVE 381 TO 2422 VIA 2323")
    assert [e["hq"] for e in emitted(board, "overrun")] == ["61/HQ"]
    assert board.hex_of("109/381") == "2422"


def test_6_1_the_waypoints_are_taken_in_order_within_the_ma():
    """2222 -> 2323 -> 2322 -> 2422 is 1 + 1 + 2 = 4 MP, MA 4: legal; by 2323, 2324 and 2423 (1 MP each) the
    last step into 2422 needs 2 MP (swamp; TEC), with 1 left: refused."""
    board = position({"109/381": "2222"})
    moving(board, "soviet", "109/381")
    answer(board, "MOVE 381 TO 2422 VIA 2323 2322")
    assert emitted(board, "moved")[-1]["path"] == ["2222", "2323", "2322", "2422"]
    board = position({"109/381": "2222"})
    moving(board, "soviet", "109/381")
    cannot(board, "MOVE 381 TO 2422 VIA 2323 2324 2423",
           because=r"381 cannot reach 2422 from 2423 with 1 MP left after 2222-2323-2324-2423(; did you mean|$)")
    assert board.hex_of("109/381") == "2222"


def test_6_3B_a_waypoint_held_by_enemy_units_is_refused_with_the_reason():
    board = position({"109/381": "2222", "61/162G": "2323"})
    moving(board, "soviet", "109/381")
    cannot(board, "MOVE 381 TO 2422 VIA 2323", because=r"381 cannot pass through 2323: it holds enemy units \(6\.3B\)")


def test_6_5_a_rail_move_takes_no_via():
    board = position({"61/162G": "0131"})
    moving(board, "german", "61/162G", mode="reinforce")
    cannot(board, "MOVE 162G TO 1928 VIA 0430 RAIL", because=r"a rail move follows the railway \(6\.5\)")


def test_the_order_reads_back_and_help_shows_it_with_an_example():
    spec = GRAMMAR.spec("move", "via")
    assert spec.examples and "VIA" in spec.syntax and "13.2" in spec.help
    board = position({"109/381": "2222"})
    moving(board, "soviet", "109/381")
    answer(board, spec.examples[0])  # HELP's example: legal here (and tests/kit/test_help_examples.py)
    assert board.hex_of("109/381") == "2422"
