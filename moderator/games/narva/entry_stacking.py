"""Reinforcements still overstacked when their segment ends (7.2A, 8.1; ruling N-68).

7.2A and 8.1 let reinforcements overstack on placement "provided they separate during that phase".
Separating them is the owner's job: the arrivals' own Movement Segment (8.0B) is where the owner moves
them apart.  Whatever is still over a limit of 7.1B when that segment ends is settled here, as the
moderator's default of ruling N-68:

* Only the arrivals that make a limit overflow move.  7.1B has three separate limits (two combat
  units, one HQ, one Soviet assault gun), so an HQ in a hex with three combat units is not
  overstacked and stays; only one combat unit goes.  The latest arrivals of the overflowing kind go
  first, so the hex keeps the units that arrived there first.
* A unit goes to a hex within three hexes where it could be placed (8.3A: not on enemy units, not in
  an enemy zone of control; stacking legal; terrain it may stand on).
* Among those it prefers, in this order: a hex reached from its own hex along the road or railway the
  arrivals came in by (so it may still use strategic or rail movement next turn, 6.4.1A: strategic
  movement starts on a road hex); then the nearest hex; then the lowest hex id.
* A unit that fits nowhere is eliminated (8.5).
"""

from __future__ import annotations

from moderator.games.narva.board import Board, StackingClass
from moderator.games.narva.movement import usable_roads
from moderator.games.narva.reinforce import placement_ok

#: How far the moderator moves an arrival that its owner left overstacked (ruling N-68).
SETTLE_RANGE = 3
STACKING_CLASSES: tuple[StackingClass, ...] = ("combat", "hq", "soviet_assault_gun")


def settle_overstack(board: Board, side: str, units: list[str]) -> None:
    """8.1, 7.2A: the arrivals `units` (in order of arrival) must be stacked legally by the end of the
    phase; the excess moves or is eliminated as the module docstring explains (ruling N-68)."""
    hexes = list(dict.fromkeys(h for u in units if board.is_on_map(u) and (h := board.hex_of(u)) is not None))
    for hex_id in hexes:
        for uid in excess_arrivals(board, hex_id, units):
            target = settling_hex(board, uid, hex_id)
            if target is None:
                board.eliminate(uid, "reinforcement overstacked at the end of the phase (7.2A)")
                continue
            board.place(uid, target)
            board.emit("overstack_moved", unit=uid, origin=hex_id, hex=target, visible_to=(side,))


def excess_arrivals(board: Board, hex_id: str, arrivals: list[str]) -> list[str]:
    """The arrivals that must leave `hex_id`: for each limit of 7.1B the hex exceeds, as many of the
    arrivals counting against that limit as it is exceeded by, the latest first.  A unit counting
    against a limit the hex keeps does not move (7.1B counts each kind apart)."""
    here = board.units_at(hex_id)
    mine = [u for u in arrivals if u in here]
    leaving: list[str] = []
    for kind in STACKING_CLASSES:
        over = sum(1 for u in here if board.stacking_class(u) == kind) - board.stacking_limit(kind)
        if over > 0:
            of_kind = [u for u in mine if board.stacking_class(u) == kind]
            leaving.extend(reversed(of_kind[-over:]))
    return leaving


def settling_hex(board: Board, uid: str, origin: str) -> str | None:
    """Where an overstacked arrival goes: a legal hex within SETTLE_RANGE, on the arrivals' road or
    railway first, then the nearest, then the lowest id; None when there is no such hex."""
    scenario = board.scenario
    on_road = road_reach(board, origin)
    spots = [h for radius in range(1, SETTLE_RANGE + 1) for h in scenario.grid.ring(origin, radius)
             if scenario.on_map(h) and placement_ok(board, uid, h) and board.stacking_ok(h, [uid])]
    return min(spots, key=lambda h: (h not in on_road, scenario.distance(origin, h), h), default=None)


def road_reach(board: Board, origin: str) -> set[str]:
    """The hexes within SETTLE_RANGE reached from `origin` along roads or railways that strategic
    movement may use (6.4.1, 6.5; trails do not count, 6.4.1B)."""
    reached = {origin}
    frontier = [origin]
    while frontier:
        here = frontier.pop()
        for there in board.neighbours(here):
            if (there not in reached and board.scenario.distance(origin, there) <= SETTLE_RANGE
                    and usable_roads(board, here, there, strategic=True)):
                reached.add(there)
                frontier.append(there)
    reached.discard(origin)
    return reached
