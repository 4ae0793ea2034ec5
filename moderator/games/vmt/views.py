"""Per-role views, built field by field from an allow-list (DESIGN §5), and the order lexicon.

Public: how many blocks of each side stand in each area and how many lie exhausted (L322), every
counter and marker, control, VP, turn, discard piles (L75), hand and deck sizes, the reinforcement
boxes.  Private to the owner: block identities and strengths (L91), the hand, face-down support.
"""

from __future__ import annotations

from typing import Any

from moderator.core.contract import REFEREE
from moderator.games.vmt.board import SIDES, Board
from moderator.games.vmt.combat import combat_blocks
from moderator.games.vmt.lexicon import lexicon_for as lexicon_for  # the engine takes a role's lexicon here


def build_view(board: Board, role: str) -> dict[str, Any]:
    data = board.data
    scenario = board.scenario
    side = role if role in SIDES else None
    everything = role == REFEREE
    areas = []
    for area in scenario.map.areas:
        entry: dict[str, Any] = {
            "id": area.id, "name": area.name, "control": data["control"][area.id],
            "markers": list(data["markers"].get(area.id, [])),
            "trench": area.trench, "trench_disabled": area.id in data["trench_disabled"],
            "battery": area.battery, "battery_destroyed": area.id in data["batteries_destroyed"],
            "vp": area.vp, "terrain": area.terrain,
            "assets": [{"id": a, "type": board.asset(a)["type"], "side": board.asset(a)["side"],
                        "steps": board.asset(a)["steps"]} for a in board.assets_in(area.id)],
        }
        for s in SIDES:
            blocks = board.blocks_in(area.id, s)
            entry[f"{s}_count"] = len(blocks)
            entry[f"{s}_exhausted"] = sum(1 for b in blocks if board.is_exhausted(b))
            if everything or s == side:
                entry[f"{s}_blocks"] = [_block_view(board, b) for b in sorted(blocks)]
        areas.append(entry)
    view: dict[str, Any] = {
        "role": role, "side": side, "scenario": data["scenario"], "turn": data["turn"],
        "turns": len(scenario.meta.turns),
        "dates": scenario.meta.turns[data["turn"] - 1].dates, "phase_side": data["phase_side"],
        "vp": {s: board.vp(s) for s in SIDES}, "vp_paid": data["vp_paid"], "areas": areas,
        "hand_sizes": {s: len(data["hands"][s]) for s in SIDES},
        "deck_sizes": {s: len(data["decks"][s]) for s in SIDES},
        "discards": {s: [board.card_type(c) for c in data["discards"][s]] for s in SIDES},
        "removed": [board.card_type(c) for c in data["removed"]],
        "pools": {s: [{"id": a, "type": board.asset(a)["type"], "steps": board.asset(a)["steps"]}
                      for a in sorted(board.pool(s))] for s in SIDES},
        "eliminated_assets": sorted(a for a, x in data["assets"].items() if x["status"] == "eliminated"),
        "reinforcements": _reinforcement_boxes(board),
        "eliminated": {s: sorted(b for b, x in data["blocks"].items() if x["side"] == s and x["status"] == "eliminated")
                       for s in SIDES},
        "batteries_left": board.batteries_left(),
        "interdiction": board.markers_on_map("interdiction"),
        "result": data["result"], "setup_commitments": dict(data["setup_commitments"]),
        "last_combat": data["last_combat"], "combat": _current_combat(board, side, everything),
        "exhausted_counts": {s: sum(1 for b in board.blocks_of(s) if board.is_exhausted(b)) for s in SIDES},
        "strength": {s: None for s in SIDES},
        # Public actions of the phase (moves are seen on the table; which blocks moved is not).
        "recent": [dict(r) for r in data.get("recent", [])],
    }
    if side is not None:
        view["hand"] = sorted(board.hand_types(side))
        view["strength"][side] = sum(board.sp(b) for b in board.blocks_of(side))
    if everything:
        view["hands"] = {s: sorted(board.hand_types(s)) for s in SIDES}
        view["strength"] = {s: sum(board.sp(b) for b in board.blocks_of(s)) for s in SIDES}
    return view


def _block_view(board: Board, block: str) -> dict[str, Any]:
    info = board.geo.blocks[block]
    return {"id": block, "name": info.name, "sp": board.sp(block), "max": info.sp,
            "exhausted": board.is_exhausted(block), "division": info.division, "moves2": info.moves2}


def _reinforcement_boxes(board: Board) -> dict[str, list[dict[str, Any]]]:
    """The reinforcement boxes are printed on the map and their contents named by the rules (L414-423)."""
    boxes: dict[str, list[dict[str, Any]]] = {}
    for side in SIDES:
        done = board.data["reinforcements"][side]
        boxes[side] = [{"group": g.id, "name": g.name, "blocks": list(g.blocks), "vp_cost": g.vp_cost,
                        "arrived": i < done} for i, g in enumerate(board.scenario.reinforcement_groups(side))]
    return boxes


def _current_combat(board: Board, side: str | None, everything: bool) -> dict[str, Any] | None:
    for frame in reversed(board.stack):
        if frame["kind"] == "combat":
            info = {"area": frame["area"], "attacker": frame["attacker"], "defender": frame["defender"],
                    "attackers": len(combat_blocks(board, frame, frame["attacker"])),
                    "defenders": len(combat_blocks(board, frame, frame["defender"])),
                    "cards_committed": {s: len(frame["cards"][s]) for s in SIDES},
                    "battery": frame["battery"], "stage": frame["stage"]}
            if side is not None or everything:
                for s in SIDES:
                    if everything or s == side:
                        info[f"{s}_cards"] = [board.card_type(c) for c in frame["cards"][s]]
            return info
    return None
