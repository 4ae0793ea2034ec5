"""What each role may see (2.1.3 fog of war; digest 4); the names it may use are in `names`.

A view is the only input of reports, maps and order conditions.  Own units are shown whole.
Enemy stacks are shown whole without fog; with fog only their top item (and, by option, how many
counters the stack holds): the marker on it if it has one, else the top unit's face (2.1.3B; 2.1.3A:
"neither side can examine" them, rulings N-09 and N-57).
Everything else on the table is public: chits, the turn track, air boxes, the PD track, VP control,
eliminated units.
"""

from __future__ import annotations

from typing import Any

from moderator.core.contract import REFEREE
from moderator.games.narva.board import SIDES, Board
from moderator.games.narva.sequence import victory_points


def unit_card(board: Board, uid: str) -> dict[str, Any]:
    unit = board.unit(uid)
    strength = unit.strength(board.is_reduced(uid))
    return {"id": uid, "label": unit.name, "name": unit.name, "side": unit.side, "type": unit.type,
            "formation": unit.formation, "attack": strength.attack, "defense": strength.defense,
            "movement": strength.movement, "reduced": board.is_reduced(uid), "steps": unit.steps,
            "supply": board.supply(uid), "hex": board.hex_of(uid)}


def sees_all(board: Board, role: str, side: str) -> bool:
    return role in (side, REFEREE) or not board.fog


def build_view(board: Board, role: str) -> dict[str, Any]:
    """What `role` may see now.  Every mapping in it is sorted or in the rules' own order, never in the
    order the state's dicts were filled: a live state and the same state read back from its stored
    JSON (sorted keys) must give the same report, byte for byte, so that a replay is the report sent."""
    data = board.data
    hexes: dict[str, Any] = {}
    for hex_id, units in sorted(board.occupied_hexes().items()):
        side = board.side_of(units[0])
        full = sees_all(board, role, side)
        shown = units if full else board.faces_seen_by_enemy(hex_id)
        marker = board.stack_marker(hex_id)
        height = len(units) if (full or board.options["fog_stack_height"] == "shown") else None
        hexes[hex_id] = {"side": side, "height": height, "units": [unit_card(board, u) for u in shown],
                         "pinned": board.hex_pinned(hex_id), "marker": marker}
    own = [unit_card(board, u) for side in SIDES if role in (side, REFEREE) for u in board.units_of(side)]
    eliminated = sorted(u for u, st in data["units"].items() if st["where"] == "eliminated")
    recent = _recent(board, role)
    track = board.scenario.tables.pd_track
    turn = board.turn
    view = {
        "game": "narva", "scenario": data["scenario"], "role": role, "turn": turn, "last_turn": board.last_turn,
        "dates": board.scenario.turn(turn).dates, "frozen": board.frozen, "fog": board.fog,
        "limits": dict(board.scenario.turn(turn).activations), "used": dict(sorted(data["used"].items())),
        "hexes": hexes, "own": own, "eliminated": eliminated, "withdrawn": sorted(
            u for u, st in data["units"].items() if st["where"] == "withdrawn"),
        "cup": sorted(data["cup"]), "tracks": {s: list(data["tracks"][s]) for s in SIDES},
        "drawn_actions": list(data["drawn_actions"]), "parked": dict(sorted(data["parked"].items())),
        "removed": list(data["removed"]), "shock_oos": data["shock_oos"],
        "last_hq": dict(sorted(data["last_hq"].items())),
        "air": {a: {"box": box, "side": board.scenario.air_unit(a).side, "name": board.scenario.air_unit(a).name,
                    "full": board.scenario.air_unit(a).full, "normal": board.scenario.air_unit(a).normal}
                for a, box in sorted(data["air"].items())},
        # 2.2.10, 11.3.4: the marker's box gives the column shift and the losses it can still absorb
        "pd": {d: {"box": b, "value": track.boxes[b], "left": len(track.boxes) - 1 - b,
                   "boxes": len(track.boxes) - 1 - track.start_box} for d, b in sorted(data["pd"].items())},
        "rp": data["rp"], "control": dict(sorted(data["control"].items())), "vp": victory_points(board),
        # the reinforcement schedule is printed on the Turn Record Track: public
        "arrivals": [dict(a, name=board.unit(a["unit"]).name, side=board.side_of(a["unit"])) for a in data["arrivals"]],
        "recent": recent, "result": data["result"], "options": dict(sorted(board.options.items())),
    }
    return view


def _recent(board: Board, role: str) -> dict[str, Any]:
    moves, combats, barrages, retreats, focus = [], [], [], [], []
    for order, item in enumerate(board.data["recent"]):
        side = item.get("side")
        if item["kind"] == "move":
            unit = item["unit"] if sees_all(board, role, side) else None
            moves.append({"side": side, "unit": unit, "path": item["path"]})
            focus.append(item["path"][-1])
        elif item["kind"] == "combat":
            combats.append({"hex": item["hex"], "side": side, "from": item.get("from", []), "result": item["result"],
                            "order": order})
            focus.append(item["hex"])
        elif item["kind"] == "barrage":
            barrages.append({"hex": item["hex"], "side": side, "result": item["result"], "order": order})
            focus.append(item["hex"])
        elif item["kind"] == "retreat":
            retreats.append({"side": side, "path": item["path"]})
    return {"moves": moves, "combats": combats, "barrages": barrages, "retreats": retreats,
            "focus": list(dict.fromkeys(focus))[-6:]}
