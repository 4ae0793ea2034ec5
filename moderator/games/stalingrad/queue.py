"""The effects queue: effects as items of an effects frame, in printed order (§Effects), resolved by
`effects.Effects`; queued in front of a queue being resolved (a Terror Tactic) or in a new frame."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moderator.core.frames import new_frame
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.scenario import Effect

#: icons resolved as one item with a count (the rest are repeated item by item, §Effects "x2")
COUNTED = ("fire", "bucket", "draw", "discard", "inferno", "hero_dice", "execute_rifles")


def items_of(effects: Iterable[Effect], side: str, why: str, district: str, **flags: Any) -> list[dict[str, Any]]:
    """Queue items for effects used by `side` at `district`, in printed order (§Effects)."""
    items: list[dict[str, Any]] = []
    for effect in effects:
        base = {"icon": effect.icon, "unit": effect.unit, "side": side, "why": why, "district": district,
                "anywhere": effect.anywhere, **flags}
        if effect.icon in COUNTED:
            items.append(dict(base, n=effect.times))
        else:
            items.extend(dict(base, n=1) for _ in range(effect.times))
    return items


def queue_effects(board: Board, items: list[dict[str, Any]]) -> None:
    """Resolve `items` next: before the rest of a queue being resolved (a Terror Tactic), or in a new frame."""
    if not items:
        return
    top = board.top()
    if top is not None and top["kind"] == "effects":
        top["queue"][0:0] = items
    else:
        board.push(new_frame(board.data, "effects", queue=items))


def overrun(board: Board, formation: str, side: str, why: str) -> None:
    """§Overrun: from the Staging Line into this battle (Concentration may be exceeded); its Vanguard Effects
    apply; a formation that retreated from this battle may come back (ruling S-33)."""
    battle = board.battle
    board.data["formations"][formation]["at"] = battle["district"]
    if formation in battle["retreated"]:
        battle["retreated"].remove(formation)
    if formation not in battle["formations"][side]:
        battle["formations"][side].append(formation)
    board.emit("overrun", side=side, formation=formation, district=battle["district"], why=why)
    queue_vanguard(board, formation)


def queue_vanguard(board: Board, formation: str, defer: bool = False) -> None:
    """§German Cards C, §Soviet Cards B: a formation maneuvered to a battle applies its Vanguard Effects."""
    record = board.formation(formation)
    queue_effects(board, items_of(record.vanguard, record.side, f"vanguard of {record.name}",
                                  board.battle["district"], defer=defer))
