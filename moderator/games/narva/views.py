"""What each role may see (2.1.3 fog of war; digest 4) and the names each role may use.

A view is the only input of reports, maps and order conditions.  Own units are shown whole.
Enemy stacks are shown whole without fog; with fog only their top item (and, by option, how many
counters the stack holds): the marker on it if it has one, else the top unit's face (2.1.3B; 2.1.3A:
"neither side can examine" them, rulings N-09 and N-57).
Everything else on the table is public: chits, the turn track, air boxes, the PD track, VP control,
eliminated units.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from moderator.core.contract import OBSERVER, REFEREE
from moderator.core.errors import ParseError
from moderator.core.grammar import Lexicon
from moderator.games.narva.board import SIDES, Board
from moderator.games.narva.scenario import scenario_named
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
        "pd": {d: {"box": b, "value": track.boxes[b]} for d, b in sorted(data["pd"].items())},
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


@dataclass
class NarvaLexicon(Lexicon):
    """The names a role may use, where odds (`MIN <odds>` of an ATTACK order) are refused outright under
    fog of war: a player cannot see the strength the odds depend on (2.1.3, ruling N-57), so the line is
    refused when the message is read, not when the attack would be made."""

    fog: bool = False

    def resolve(self, type_: str, token: str) -> str:
        """The canonical name for `token`; raises ParseError (under fog, for any odds, saying why)."""
        if type_ == "odds" and self.fog:
            raise ParseError(
                f"MIN {token} is refused under fog of war: the enemy stack's strength, and so the odds, stay hidden "
                f"until the attack is announced, and an announced attack is not called off (2.1.3, ruling N-57). "
                f"Write the ATTACK without 'MIN {token}': it is then fought at whatever odds it gets (unless below "
                f"1-2, 9.3.2A). To attack only in some situations, guard the line with tests of what you can see "
                f"(ENEMY, PINNED, ENEMY_HEIGHT: see HELP)")
        return super().resolve(type_, token)


@lru_cache(maxsize=16)
def _lexicon(scenario_name: str, role: str, fog: bool) -> NarvaLexicon:
    s = scenario_named(scenario_name)
    lexicon = NarvaLexicon(fog=fog)
    sides = SIDES if role in (REFEREE, OBSERVER) else (role,)
    mine = [u for u in s.units if u.side in sides]
    counts: dict[str, int] = {}
    for u in mine:
        for name in {u.name.casefold(), *(a.casefold() for a in u.aliases)}:
            counts[name] = counts.get(name, 0) + 1
    for u in mine:
        # A number two units share (191, 328) is no alias: they are named FORMATION/NAME (ruling N-52).
        aliases = [n for n in {u.name, *u.aliases} if counts[n.casefold()] == 1]
        if u.type == "hq" and u.formation:
            aliases.append(u.formation)  # "ACTIVATE 109", "ACTIVATE 11SS"
        lexicon.add("unit", u.id, aliases)
        if u.type == "hq":
            lexicon.add("hq", u.id, [a for a in aliases])
    for h in s.hex_ids():
        lexicon.add("hex", h)
    for a in s.air_units:
        if a.side in sides:
            same = [b for b in s.air_units if b.name.casefold() == a.name.casefold()]
            lexicon.add("air", a.id, [a.name] if len(same) == 1 else [])
    for f in s.formations:
        if f.side in sides:
            lexicon.add("formation", f.id, [f.name])
    lexicon.add("division", "11SS", ["NORDLAND"])
    lexicon.add("division", "4SS", ["NEDERLAND"])
    if not fog:
        # the odds of the side's own line of the CRT (the two lines differ: 3-2 is German only)
        for column in s.tables.crt.columns:
            for side in sides:
                lexicon.add("odds", getattr(column, side))
    return lexicon


def lexicon_for(board: Board, role: str) -> Lexicon:
    return _lexicon(board.data["scenario"], role, board.fog)
