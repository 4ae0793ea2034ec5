"""What each role may see (§3.1) and the names each role may use in orders.

A view is the only input of reports and order tests, built field by field from an allow-list.
Public: the map, control, how many units of each side stand in each area, how many each side has
lost, the turn and phase, the VP standing.  Private to a side: its units' names, strengths and
areas.  The referee sees every unit.
"""

from __future__ import annotations

from typing import Any

from moderator.core.contract import REFEREE
from moderator.core.grammar import Lexicon
from tests.testgame.skirmish.board import Board
from tests.testgame.skirmish.scenario import SIDES
from tests.testgame.skirmish.state import PhaseFrame


def build_view(board: Board, role: str) -> dict[str, Any]:
    side = role if role in SIDES else None
    seen = SIDES if role == REFEREE else (side,) if side else ()
    phase = _phase(board)
    moved = set(phase["moved"]) if phase else set()
    areas = []
    for area in board.scenario.areas:
        areas.append({
            "id": area.id, "name": area.name, "aliases": list(area.aliases), "vp": area.vp,
            "control": board.controller(area.id), "neighbours": list(board.neighbours(area.id)),
            "counts": {s: len(board.units_in(area.id, s)) for s in SIDES},
            "units": [_unit(board, u, moved) for s in seen for u in board.units_in(area.id, s)],
        })
    return {
        "role": role, "side": side, "scenario": board.data["scenario"], "turn": board.turn,
        "turns": board.last_turn, "phase_side": phase["side"] if phase else None,
        "stage": phase["stage"] if phase else None, "areas": areas,
        "units": [_unit(board, u.id, moved) for s in seen for u in board.scenario.units_of(s)],
        "eliminated": {s: sum(1 for u in board.scenario.units_of(s) if not board.is_on_map(u.id)) for s in SIDES},
        "vp": {s: board.vp_areas_of(s) for s in SIDES}, "vp_areas": list(board.scenario.vp_areas()),
        "result": board.data["result"], "options": dict(board.options),
    }


def _phase(board: Board) -> PhaseFrame | None:
    phases = board.frames("phase")
    return phases[-1] if phases else None


def _unit(board: Board, unit: str, moved: set[str]) -> dict[str, Any]:
    return {"id": unit, "side": board.side_of(unit), "strength": board.strength_of(unit),
            "area": board.area_of(unit), "moved": unit in moved}


def lexicon_for(board: Board, role: str) -> Lexicon:
    """Every area by id or alias; a side's own units (the referee: every unit; an observer: none)."""
    lexicon = Lexicon()
    for area in board.scenario.areas:
        lexicon.add("area", area.id, area.aliases)
    sides = SIDES if role == REFEREE else (role,) if role in SIDES else ()
    for unit in board.scenario.units:
        if unit.side in sides:
            lexicon.add("unit", unit.id)
    return lexicon
