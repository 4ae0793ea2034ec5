"""What Soviet blocks entering an area set off, by a move or by a retreat: the Interdiction rolls
(L457) and the Axis window for an Air Strike on them (L455; ruling R-AIR).

Below movement and retreat, which both call it; the window is a frame that the fire module's
handler answers, so nothing here reaches up to the Air Strike itself.
"""

from __future__ import annotations

from moderator.games.vmt.board import Board
from moderator.games.vmt.frames import new_frame


def interdiction_rolls(board: Board, area: str, blocks: list[str]) -> None:
    """1d6 per Soviet block entering an interdicted area, a loss on 5-6; a 6 in an intact Soviet
    trench area, as for every Air Strike die (L361, ruling R-INTERDICT)."""
    need = 6 if board.has_intact_trench(area, "soviet") else 5
    for block in list(blocks):
        if not board.is_on_map(block):
            continue
        die = board.roll(1, f"interdiction at {area}")[0]
        hit = die.value >= need
        board.emit("interdiction", area=area, die=die.to_json(), need=need, hit=hit)
        if hit:
            board.lose_step(block, cause=f"interdiction at {area}")
            board.emit("step_lost", visible_to=("soviet",), block=block, sp=board.sp(block), source="Interdiction")


def open_entry_window(board: Board, area: str, blocks: list[str], attack: bool) -> None:
    """Soviet blocks entered an area: the Axis may strike them or interdict it (L455, L457)."""
    if not blocks:
        return
    board.push(new_frame(board, "window", window="entry", side="axis", area=area, blocks=list(blocks),
                         attack=attack))
