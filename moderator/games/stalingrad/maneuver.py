"""§Strategy 4 Consolidations and §Strategy 6 Maneuvers (Concentration Levels, the German must assault,
the Soviet defends only assaulted buildings).  Rulings: S-53."""

from __future__ import annotations

from moderator.core.grammar import Order
from moderator.games.stalingrad import teams
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.scenario import DISTRICTS, SIDES
from moderator.games.stalingrad.state import TurnFrame


def consolidators(board: Board, frame: TurnFrame) -> list[str]:
    """§Strategy 4: players with two or more depleted formations on their Staging Line, not yet done (four
    players: the seat at the table, ruling S-81)."""
    return [side for side in SIDES if board.seated(side) not in frame["consolidated"]
            and len(_depleted_staging(board, side)) >= 2]


def seat_consolidators(board: Board, frame: TurnFrame) -> None:
    """Ruling S-81: each player consolidates his own formations, the Paulus / Lopatin seat first."""
    for side in SIDES:
        teams.seat_first(board, side, frame["consolidated"],
                         lambda seat: len([f for f in teams.owned(board, seat) if board.where(f) == "staging"
                                           and board.is_depleted(f)]) >= 2)


def seat_maneuverer(board: Board, frame: TurnFrame, side: str) -> None:
    """Ruling S-81: each player maneuvers his own formations, the Paulus / Lopatin seat first."""
    teams.seat_first(board, side, frame.get("seats_done", []), lambda seat: _staging_of(board, seat) != [])


def _staging_of(board: Board, seat: str) -> list[str]:
    return [f for f in teams.owned(board, seat) if board.where(f) == "staging"]


def _teammate_waits(board: Board, frame: TurnFrame, side: str) -> bool:
    """Four players: the side's other player has yet to maneuver his formations of the Staging Line."""
    if not teams.is_four(board):
        return False
    teammate = teams.TEAMMATE[board.seated(side)]
    return teammate not in frame.get("seats_done", []) and _staging_of(board, teammate) != []


def _mine(board: Board, place: str, side: str) -> list[str]:
    """`side`'s formations at `place` that the role at the table controls (four players: his own)."""
    own = teams.own(board, side)
    return [f for f in board.formations_at(place, side) if own is None or f in own]


def _depleted_staging(board: Board, side: str) -> list[str]:
    return [f for f in _mine(board, "staging", side) if board.is_depleted(f)]


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
    staging = _mine(board, "staging", "german")
    options = [f"ASSAULT {board.district(d)['building']} WITH {f}" for d in DISTRICTS
               if board.district(d)["building"] and _room(board, d, "german") > 0 for f in staging]
    done = frame["assaulted"] or _teammate_waits(board, frame, "german")
    return options + (["ASSAULT DONE"] if done else [])


def defend_options(board: Board) -> list[str]:
    staging = _mine(board, "staging", "soviet")
    options = [f"DEFEND {board.district(d)['building']} WITH {f}" for d in sorted(board.data["assaults"])
               if _room(board, d, "soviet") > 0 for f in staging]
    return options + ["DEFEND DONE"] if options else []


def maneuver(board: Board, frame: TurnFrame, side: str, order: Order) -> None:
    """ASSAULT / DEFEND <building> WITH <formations>, or DONE (§Strategy 6: formations move from the Staging
    Line, ruling S-42)."""
    if order.form == "done":
        if _pass_to_teammate(board, frame, side):
            return
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
        if formation not in _mine(board, "staging", side):
            board.fail(f"{formation} is not one of your formations on the Staging Line (§Strategy 6, ruling S-81)",
                       _mine(board, "staging", side)[:4])
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


def _pass_to_teammate(board: Board, frame: TurnFrame, side: str) -> bool:
    """Four players (ruling S-81): a player's DONE hands the maneuvers to his teammate while he has formations
    on the Staging Line to maneuver; True when it did."""
    if not teams.is_four(board):
        return False
    frame.setdefault("seats_done", []).append(board.seated(side))
    if not _teammate_waits(board, frame, side):
        return False
    teams.sit(board, teams.TEAMMATE[board.seated(side)])
    return True


def from_strategy_loss(board: Board) -> None:
    """Ruling S-53: a German who ends his maneuvers without an assault loses."""
    board.data["result"] = {"winner": "soviet", "reason": "the German assaulted no building (§Strategy 6)"}
    board.emit("game_over", winner="soviet", reason="the German assaulted no building (§Strategy 6)")
