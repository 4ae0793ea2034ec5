"""Supply and isolation (10.0-10.3), including the limited supply centre of Narva (10.2.2).

A supply line runs from a unit to one of its side's supply sources through road, clear and hill
hexes (village and city count as clear, ruling N-42), or woods and swamp holding a friendly unit;
never through enemy units or enemy zones of control (a friendly unit in the hex negates the EZOC
for supply only), never across an unbridged major river, frozen or not, except at a ferry (10.1).
One flood fill from all sources gives every supplied hex of a side at once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from moderator.games.narva.board import SIDES, Board, enemy
from moderator.games.narva.state import Side, SupplyState

OPEN_TERRAIN = frozenset({"clear", "hill", "village", "city"})


def supplied_hexes(board: Board, side: Side, without: Iterable[str] = ()) -> frozenset[str]:
    """Every hex a supply line of `side` can reach.  `without`: friendly units to leave out (a
    retreating stack no longer stands in, nor opens, the hex it leaves; 9.5.4, ruling N-64)."""
    zoc = board.zoc_of(enemy(side))
    occupied = board.occupied_hexes()
    frozen = board.frozen

    def passable(h: str) -> bool:
        info = board.scenario.hex(h)
        if info.water:
            return False
        units = occupied.get(h)
        if units and without:
            units = [u for u in units if u not in without]
        if units and board.side_of(units[0]) != side:
            return False
        mine = bool(units)
        if h in zoc and not mine:
            return False  # 5.5.1: friendly units negate EZOCs in their hexes for supply only
        if info.terrain in OPEN_TERRAIN or info.routes:
            return True
        return mine  # 10.1C: a friendly unit converts woods or swamp to clear

    seen: set[str] = set()
    queue: deque[str] = deque()
    for source in board.scenario.supply_sources(side):
        if passable(source):
            seen.add(source)
            queue.append(source)
    while queue:
        here = queue.popleft()
        for n in board.neighbours(here):
            if n in seen or not passable(n):
                continue
            if _blocks(board, here, n, frozen):
                continue
            seen.add(n)
            queue.append(n)
    return frozenset(seen)


def _blocks(board: Board, a: str, b: str, frozen: bool) -> bool:
    """10.1.1A: unbridged major rivers block, frozen or not; ferries connect."""
    side = board.hexside(a, b)
    if side.river is None or side.river_kind != "major":
        return False
    if side.ferry:
        return False
    return not board.bridged(a, b, frozen)


def narva_cut(board: Board) -> bool:
    """10.2.2A: a Soviet unit on the rollbahn between entry area A and Narva."""
    return any(board.owner_of(h) == "soviet" for h in board.scenario.rollbahn_vp_hexes())


def in_narva_pocket(board: Board, hex_id: str) -> bool:
    areas = board.scenario.hex(hex_id).areas
    return "narva" in areas or "enclave" in areas


def traces_supply(board: Board, uid: str, hexes: frozenset[str] | None = None) -> bool:
    """Could this unit trace supply now (the Supply Phase test, also used for displacement)?"""
    unit = board.unit(uid)
    if not unit.needs_supply:
        return True  # 8.6E: the 260th MS never needs supply
    hex_id = board.hex_of(uid)
    if hex_id is None:
        return False
    if unit.side == "german" and in_narva_pocket(board, hex_id) and narva_cut(board):
        return False
    return hex_id in (hexes if hexes is not None else supplied_hexes(board, unit.side))


def hex_supplied(board: Board, side: Side, hex_id: str, hexes: frozenset[str] | None = None) -> bool:
    """Is a hex supplied for `side` (for placing reinforcements, army HQs and displaced HQs)?
    The hex counts as holding a friendly unit: the unit that would be placed there."""
    if (board.enemy_in(hex_id, side) and not board.lone_hq(hex_id)) or board.scenario.hex(hex_id).water:
        return False  # a lone enemy HQ is overrun by the unit entering (6.3B, 9.5B), so it does not count
    if side == "german" and in_narva_pocket(board, hex_id) and narva_cut(board):
        return False
    if hexes is None:
        hexes = supplied_hexes(board, side)
    if hex_id in hexes:
        return True
    # An EZOC in the hex does not matter: the unit there negates it for its own line (10.1.1B, ruling
    # N-42); the callers that forbid EZOC hexes (placement, displacement) test that themselves.
    # woods/swamp become passable with the placed unit: connected if a neighbour is supplied
    return any(n in hexes and not _blocks(board, hex_id, n, board.frozen) for n in board.neighbours(hex_id))


def supply_phase(board: Board) -> None:
    """10.0: mark OOS, then Isolated on a second failure; lift markers on success.  Units in
    Narva and the enclave never become isolated (10.2.2B)."""
    for side in SIDES:
        changes: list[dict[str, str]] = []
        hexes = supplied_hexes(board, side)
        for uid in board.units_of(side):
            st = board.state_of(uid)
            before = st["supply"]
            after: SupplyState
            if traces_supply(board, uid, hexes):
                after = "ok"
            elif before == "ok" or (in_narva_pocket(board, board.hex_on_map(uid)) and side == "german"):
                after = "oos"
            else:
                after = "isolated"
            if after != before:
                st["supply"] = after
                changes.append({"unit": uid, "hex": board.hex_on_map(uid), "from": before, "to": after})
        # Markers are public, the units under them are not (fog of war, 2.1.3B).
        board.emit("supply_changes", visible_to=(side,), side=side, changes=changes)
        board.emit("supply_markers", hidden_from=(side,), side=side,
                   hexes=sorted({c["hex"] for c in changes if c["to"] != "ok"}),
                   cleared=sorted({c["hex"] for c in changes if c["to"] == "ok"}))
    board.emit("supply_phase", narva_cut=narva_cut(board))
