"""§Strategy 4 Consolidations and §Strategy 6 Maneuvers (Concentration Levels, the German must assault,
the Soviet defends only assaulted buildings).  Rulings: S-53."""

from __future__ import annotations

from moderator.core.grammar import Order
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.scenario import DISTRICTS, SIDES
from moderator.games.stalingrad.state import TurnFrame


def consolidators(board: Board, frame: TurnFrame) -> list[str]:
    """§Strategy 4: players with two or more depleted formations on their Staging Line, not yet done."""
    return [side for side in SIDES if side not in frame["consolidated"] and len(_depleted_staging(board, side)) >= 2]


def _depleted_staging(board: Board, side: str) -> list[str]:
    return [f for f in board.formations_at("staging", side) if board.is_depleted(f)]


def consolidation_options(board: Board, side: str) -> list[str]:
    depleted = _depleted_staging(board, side)
    return [f"CONSOLIDATE {a} INTO {b}" for a in depleted for b in depleted if a != b] + ["CONSOLIDATE DONE"]


def consolidate(board: Board, side: str, sacrificed: str, supplied: str) -> None:
    """§Strategy 4: the sacrificed formation is destroyed to Supply another; its leader moves across only to a
    formation without one."""
    depleted = _depleted_staging(board, side)
    if sacrificed == supplied or sacrificed not in depleted or supplied not in depleted:
        board.fail("both formations must be your depleted formations on the Staging Line, and two different "
                   "ones (§Strategy 4)", consolidation_options(board, side)[:4])
    leader = board.leader(sacrificed)
    moved = leader is not None and board.leader(supplied) is None
    if moved:
        board.data["formations"][supplied]["leader"] = leader
        board.data["formations"][sacrificed]["leader"] = None
    board.destroy_formation(sacrificed, f"consolidated into {supplied}")
    board.supply(supplied, f"consolidation of {sacrificed}")
    board.emit("consolidated", side=side, sacrificed=sacrificed, supplied=supplied, leader_moved=moved)


def _room(board: Board, district: str, side: str) -> int:
    """§Buildings C: how many more of the side's formations the Concentration Level allows there."""
    building = board.building_of(district)
    return (building.concentration if building else 0) - len(board.formations_at(district, side))


def assault_options(board: Board, frame: TurnFrame) -> list[str]:
    """One formation to one building per option (§Strategy 6); DONE once a building is assaulted."""
    staging = board.formations_at("staging", "german")
    options = [f"ASSAULT {board.district(d)['building']} WITH {f}" for d in DISTRICTS
               if board.district(d)["building"] and _room(board, d, "german") > 0 for f in staging]
    return options + (["ASSAULT DONE"] if frame["assaulted"] else [])


def defend_options(board: Board) -> list[str]:
    staging = board.formations_at("staging", "soviet")
    options = [f"DEFEND {board.district(d)['building']} WITH {f}" for d in sorted(board.data["assaults"])
               if _room(board, d, "soviet") > 0 for f in staging]
    return options + ["DEFEND DONE"] if options else []


def maneuver(board: Board, frame: TurnFrame, side: str, order: Order) -> None:
    """ASSAULT / DEFEND <building> WITH <formations>, or DONE (§Strategy 6: formations move from the Staging
    Line, ruling S-42)."""
    if order.form == "done":
        if side == "german":
            if not frame["assaulted"]:
                from_strategy_loss(board)
                return
            frame["stage"] = "defend"
        else:
            board.emit("maneuvers_over", assaults={d: board.formations_at(d, "german") for d in
                                                   sorted(board.data["assaults"])},
                       defences={d: board.formations_at(d, "soviet") for d in sorted(board.data["assaults"])})
            frame["stage"] = "battles"
        return
    district = next((d for d in DISTRICTS if board.district(d)["building"] == order.get("building")), None)
    if district is None or (side == "soviet" and district not in board.data["assaults"]):
        where = "a building in play" if side == "german" else "a building the German assaults"
        board.fail(f"you may maneuver only to {where} (§Strategy 6)")
    formations = order.values("formations")
    for formation in formations:
        if board.where(formation) != "staging" or board.formation(formation).side != side:
            board.fail(f"{formation} is not one of your formations on the Staging Line (§Strategy 6)",
                       board.formations_at("staging", side)[:4])
    if len(formations) > _room(board, district, side):
        board.fail(f"{board.building_name(district)}'s Concentration Level allows {_room(board, district, side)} more "
                   "of your formations (§Buildings C, §Strategy 6)")
    for formation in formations:
        board.data["formations"][formation]["at"] = district
    if side == "german":
        board.data["assaults"].setdefault(district, [])
        frame["assaulted"] = True
    board.emit("maneuvered", side=side, district=district, building=order.get("building"),
               formations=list(formations))


def from_strategy_loss(board: Board) -> None:
    """Ruling S-53: a German who ends his maneuvers without an assault loses."""
    board.data["result"] = {"winner": "soviet", "reason": "the German assaulted no building (§Strategy 6)"}
    board.emit("game_over", winner="soviet", reason="the German assaulted no building (§Strategy 6)")
