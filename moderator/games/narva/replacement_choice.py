"""REBUILD AUTO: where the moderator spends a German replacement point for a player who left the
choice to it (the deadline answer of ruling N-68, or the player's own REBUILD AUTO).

One RP either restores a step or raises a Prepared Defence marker two boxes (11.2, 11.2.4B).  The
default spends each point as a careful player would, on what the rules pay most for:

1. FORTIFY the PD marker furthest down, if it is at least two boxes below its start box.  Every box
   below the start is one Soviet VP at the end of the game (13.3) and one column shift less against
   Soviet attacks on that division's PD hexes (11.3.2); here the point buys both boxes in full.
2. Restore a reduced unit at the front: within two hexes of an enemy-held hex, the strongest
   full-strength defence first.  A step there is what holds the VP hexes and the rollbahn (13.3).
3. FORTIFY a marker only one box down (the point buys one box; the ceiling of ruling N-46 loses the
   other).
4. Restore any other reduced unit on the map, strongest full-strength defence first.  A step far
   behind the line wins nothing the rules count, so it comes last.

Ties between the markers go to the 11th SS (Nordland), between units to the lowest unit id.  An
eliminated unit is not returned by default: it would come back at its HQ with a move of its own
(11.2.2A, E), a plan only the player can make.  Enemy positions are public on the map (2.1.3), so
looking at them leaks nothing.
"""

from __future__ import annotations

from typing import Literal

from moderator.games.narva.board import Board, enemy

#: How near an enemy-held hex a reduced unit counts as "at the front" (rule of thumb, not a rule).
FRONT_DISTANCE = 2

Choice = tuple[Literal["fortify", "rebuild"], str]


def auto_replacement(board: Board, rebuildable: list[str]) -> Choice | None:
    """The careful player's use of one RP (see the module docstring), or None when a point would buy
    nothing.  `rebuildable` lists the units a point may restore now (11.2.3)."""
    reduced = sorted((u for u in rebuildable if board.is_on_map(u)),
                     key=lambda u: (-board.unit(u).full.defense, u))
    marker, boxes_down = lowest_marker(board)
    full_rise = board.scenario.tables.pd_track.rp_boxes
    if boxes_down >= full_rise:
        return "fortify", marker
    front = [u for u in reduced if at_the_front(board, u)]
    if front:
        return "rebuild", front[0]
    if boxes_down > 0:
        return "fortify", marker
    if reduced:
        return "rebuild", reduced[0]
    return None


def lowest_marker(board: Board) -> tuple[str, int]:
    """The PD division whose marker is furthest below its start box, and how many boxes (ties to
    the 11th SS)."""
    start = board.scenario.tables.pd_track.start_box
    pd = board.data["pd"]
    division = max(pd, key=lambda d: (pd[d], d == "11SS"))
    return division, pd[division] - start


def at_the_front(board: Board, uid: str) -> bool:
    here = board.hex_on_map(uid)
    foes = {board.hex_on_map(u) for u in board.units_of(enemy(board.side_of(uid)))}
    return any(board.scenario.distance(here, h) <= FRONT_DISTANCE for h in foes)
