"""What each role may see (§Commanders A: a hand is its owner's; everything on the table is public) and
the names each role may use in orders.

Public: the turn, commanders and hand sizes, deck and pile sizes, the discard piles, every formation in
play, every building, Tracking Card and unit, the battle (its cards played, rounds and dice). Private:
the role's own hand. The referee sees both hands. Deck orders are never shown.

Four players (§Four Player): every seat's commander, hand size and formations are public; a seat sees his own
hand, and his teammate's when teammates' hands are open (ruling S-82), never an opponent's.
"""

from __future__ import annotations

from typing import Any

from moderator.core.contract import REFEREE
from moderator.core.grammar import Lexicon
from moderator.games.stalingrad.actions import patriotism_left, shock_strength
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.breaktest import pools
from moderator.games.stalingrad.scenario import DISTRICTS, SIDES
from moderator.games.stalingrad.seating import ALL_SEATS, SIDE_OF, TEAMMATE, side_of
from moderator.games.stalingrad.teams import commander_of, hand_of, is_four, owner


def build_view(board: Board, role: str) -> dict[str, Any]:
    side = side_of(role)
    view: dict[str, Any] = {
        "role": role, "side": side, "scenario": board.data["scenario"], "turn": board.turn,
        "turns": board.last_turn, "game": board.options["game"], "result": board.data["result"],
        "stage": _stage(board), "sides": {s: _side(board, s) for s in SIDES},
        "formations": [_formation(board, f.id) for f in board.scenario.formations if board.in_play(f.id)],
        "lost": {s: {"destroyed": board.formations_at("destroyed", s), "ash": board.formations_at("ash", s)}
                 for s in SIDES},
        "districts": [_district(board, d) for d in DISTRICTS], "battle": _battle(board),
        "building_deck": len(board.data["building_deck"]), "carnage_left": len(board.data["carnage"]),
        "options": dict(board.options),
    }
    if is_four(board):
        return _four_player_view(board, role, view)
    view["hand"] = _hand(board, side) if side else []
    if role == REFEREE:
        view["hands"] = {s: _hand(board, s) for s in SIDES}
    return view


def _four_player_view(board: Board, role: str, view: dict[str, Any]) -> dict[str, Any]:
    """The seats in public (commander, hand size, formations); the role's own hand, and his teammate's when
    teammates' hands are open (ruling S-82); the referee sees all four."""
    view["seat"] = role if role in SIDE_OF else None
    view["seats"] = [{"seat": seat, "side": SIDE_OF[seat], "commander": commander_of(board, seat).name,
                      "hand_size": commander_of(board, seat).hand, "hand": len(hand_of(board, seat)),
                      "at_table": board.seated(SIDE_OF[seat]) == seat,
                      "formations": [f["id"] for f in view["formations"] if f["owner"] == seat]}
                     for seat in ALL_SEATS]
    for side in SIDES:
        view["sides"][side]["hand"] = sum(len(hand_of(board, seat)) for seat in ALL_SEATS if SIDE_OF[seat] == side)
    view["hand"] = _cards(board, hand_of(board, role)) if role in SIDE_OF else []
    view["teammate"] = None
    if role in SIDE_OF and board.options.get("teammate_hands") == "open":
        view["teammate"] = {"seat": TEAMMATE[role], "hand": _cards(board, hand_of(board, TEAMMATE[role]))}
    if role == REFEREE:
        view["hands"] = {seat: _cards(board, hand_of(board, seat)) for seat in ALL_SEATS}
    return view


def _stage(board: Board) -> str:
    turns = board.frames("turn")
    if board.data["battle"] is not None:
        return f"battle at {board.building_name(board.battle['district'])}"
    return str(turns[-1]["stage"]) if turns else "over"


def _side(board: Board, side: str) -> dict[str, Any]:
    record = board.side(side)
    commander = board.commander(side)
    return {"commander": commander.name, "hand_size": commander.hand, "hand": len(record["hand"]),
            "deck": len(record["deck"]), "discard": list(record["discard"]),
            "discard_names": [board.card_name(c) for c in record["discard"]],
            "formation_deck": len(record["formation_deck"]), "trophies": list(record["trophies"]),
            "campaign_card": record["campaign_card"], "pile": dict(sorted(record["pile"].items()))}


def _hand(board: Board, side: str) -> list[dict[str, Any]]:
    return _cards(board, board.side(side)["hand"])


def _cards(board: Board, hand: list[str]) -> list[dict[str, Any]]:
    cards = []
    for copy in hand:
        card = board.scenario.card_of(copy)
        cost = "hero" if card.hero else f"value {card.value}" if card.side == "soviet" else f"{card.doctrine} doctrine"
        cards.append({"id": copy, "title": card.id, "name": card.name, "cost": cost,
                      "effects": ", ".join(e.text() for e in card.effects)})
    return cards


def _formation(board: Board, formation: str) -> dict[str, Any]:
    f = board.formation(formation)
    capacity = f"shock {f.shock}, {f.doctrine}" if f.side == "german" else f"patriotism {f.patriotism}"
    leader = board.leader(formation)
    shown = {"id": formation, "name": f.name, "side": f.side, "at": board.where(formation),
             "depleted": board.is_depleted(formation), "leader": "-" if leader is None else f"Lv{leader}",
             "capacity": capacity, "vanguard": ", ".join(e.text() for e in f.vanguard),
             "depletion": f.depletion or "", "unique": f.unique}
    if is_four(board):
        shown["owner"] = owner(board, formation)  # ruling S-29
    return shown


def _district(board: Board, district: str) -> dict[str, Any]:
    record = board.district(district)
    building = board.building_of(district)
    meta = board.scenario.meta
    shown: dict[str, Any] = {
        "district": district, "building": record["building"], "name": building.name if building else "",
        "closed": record["closed"], "volga": record["volga"], "hold": record["hold"], "skull": meta.skull_track,
        "fire": record["fire"], "fire_track": meta.fire_track, "bucket": record["bucket"],
        "bucket_track": meta.bucket_track, "infernos": record["infernos"],
        "units": {s: _units(board, district, s) for s in SIDES},
        "formations": {s: board.formations_at(district, s) for s in SIDES},
        "assaulted": district in board.data["assaults"],
    }
    if building:
        shown.update(terrain=building.terrain.replace("_", " "), concentration=building.concentration,
                     defense=building.defense,
                     german_initiative=", ".join(e.text() for e in building.german_initiative),
                     soviet_initiative=", ".join(e.text() for e in building.soviet_initiative))
    return shown


def _battle(board: Board) -> dict[str, Any] | None:
    battle = board.data["battle"]
    if battle is None:
        return None
    district = battle["district"]
    dice, _, _ = pools(board)
    played = []
    for side in SIDES:
        for formation in battle["formations"][side]:
            room = (f"{shock_strength(board, formation) - len(battle['played'].get(formation, []))} card(s) left"
                    if side == "german" else f"{patriotism_left(board, formation)} patriotism left")
            played.append({"formation": formation, "side": side, "retreated": formation in battle["retreated"],
                           "cards": [board.card_name(c) for c in battle["played"].get(formation, [])], "room": room})
    return {"district": district, "building": battle["building"], "name": board.building_name(district),
            "round": battle["round"], "active": battle["active"], "initiative": battle["initiative"],
            "stage": battle["stage"], "intensity": battle["intensity"], "played": played,
            "heroes": [{"card": c, "name": board.card_name(c), "side": r["side"], "wounded": r["wounds"] > 0}
                       for c, r in battle["heroes"].items()],
            "holds_left": max(0, board.scenario.meta.skull_track - board.district(district)["hold"]),
            "dice": dice, "units": {s: _units(board, district, s) for s in SIDES}}


def _units(board: Board, district: str, side: str) -> dict[str, int]:
    """The side's units on the building by core type, in name order: a stored state's mappings come back with
    their keys sorted, so an order of arrival would differ between the game and its replay."""
    return dict(sorted(board.cores_on(district, side).items()))


def lexicon_for(board: Board, role: str) -> Lexicon:
    """Buildings, formations, districts and unit types for everybody; card copies of the role's own hand (the
    referee: both hands), each also by its title (the first copy held)."""
    lexicon = Lexicon()
    for building in board.scenario.buildings:
        lexicon.add("building", building.id, building.aliases)
    for formation in board.scenario.formations:
        lexicon.add("formation", formation.id, formation.aliases)
    for district in DISTRICTS:
        lexicon.add("district", district)
    for side in SIDES:
        for core in board.scenario.core_names(side):
            lexicon.add("unit", core)
    four = is_four(board)
    holders = (ALL_SEATS if four else SIDES) if role == REFEREE else (role,) if side_of(role) else ()
    for holder in holders:
        for copy in hand_of(board, holder) if four else board.side(holder)["hand"]:
            card = board.scenario.card_of(copy)
            lexicon.add("card", copy, (card.id, *card.aliases))
        for copy in board.side(side_of(holder) or holder)["discard"]:
            lexicon.add("discarded", copy)
    if board.data["battle"] is not None:
        for copy in board.battle["heroes"]:
            lexicon.add("hero", copy, board.scenario.card_of(copy).aliases)
        if role in (board.seated("soviet"), REFEREE) and _tongues_asked(board):
            for copy in board.side("german")["hand"]:
                lexicon.add("foecard", copy)  # §Advanced Collecting Tongues: shown to the Soviet
    return lexicon


def _tongues_asked(board: Board) -> bool:
    top = board.top()
    return bool(top and top["kind"] == "effects" and top["queue"] and top["queue"][0]["icon"] == "tongues")
