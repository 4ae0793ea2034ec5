"""The Sequence of Play (3.0): Air Unit Phase, Command Phase, Reinforcement Phase, Supply Phase,
End of Turn Phase (sudden death 13.1, turn advance 11.4); and the victory count (13.2-13.3).

E-mail play adds one question per turn: before the Command Phase both players say READY, so that
each can file the turn's keyed orders ("ON CHIT 2SH: ACTIVATE 109", "ON HQ 109: MOVE ...") after
seeing the previous turn's report.  Nothing in the rules happens at that moment.
"""

from __future__ import annotations

from typing import Any

from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import SIDES, Board
from moderator.games.narva.reinforce import refill_cup
from moderator.games.narva.supply import supply_phase


def start_turn(board: Board) -> None:
    board.push(new_frame(board.data, "turn", stage="air", ready=[]))


class Turn:
    def decisions(self, board: Board, frame: dict[str, Any]) -> list:
        if frame["stage"] == "ready":
            turn = board.turn
            t = board.s.turn(turn)
            prompt = (f"Turn {turn} ({t.dates}) is about to begin: file this turn's orders (ON lines keyed by the "
                      f"chits you may draw, standing orders for what the other side's activations ask of you), "
                      f"then READY. Activations this turn: German {t.activations['german']}, Soviet "
                      f"{t.activations['soviet']}.")
            return [ask(frame, side, "ready", prompt, ["READY"], "READY", context={"turn": turn})
                    for side in SIDES if side not in frame["ready"]]
        if frame["stage"] == "improve":
            track = board.s.tables.pd_track
            values = {d: track.boxes[b] for d, b in board.data["pd"].items()}
            prompt = (f"Turn Advance (11.3.5): move one division's prepared-defence marker up one box? Now: "
                      f"{', '.join(f'{d} {v}' for d, v in sorted(values.items()))}. IMPROVE <11SS|4SS>, IMPROVE AUTO "
                      f"or IMPROVE NONE.")
            return [ask(frame, "german", "improve", prompt, ["IMPROVE AUTO", "IMPROVE NONE"], "IMPROVE AUTO")]
        return []

    def legal(self, board: Board, frame: dict[str, Any], decision) -> list[Order]:
        if frame["stage"] == "ready":
            return [Order.make("ready", "ready")]
        start = board.s.tables.pd_track.start_box
        return [Order.make("improve", "auto"), Order.make("improve", "none")] + \
            [Order.make("improve", "division", division=d) for d in sorted(board.data["pd"]) if board.data["pd"][d] > start]

    def apply(self, board: Board, frame: dict[str, Any], decision, order: Order) -> None:
        if frame["stage"] == "ready":
            frame["ready"].append(decision.role)
            board.emit("ready", side=decision.role)
            if len(frame["ready"]) == len(SIDES):
                answered(frame)
                frame["stage"] = "command"
            return
        track = board.s.tables.pd_track
        pd = board.data["pd"]
        if order.form == "none":
            division = None
        elif order.form == "auto":
            # the lower marker (the higher box number); ties to Nordland (11SS)
            division = max(sorted(pd), key=lambda d: (pd[d], d == "11SS"))
            if pd[division] <= track.start_box:
                division = None
        else:
            division = str(order.get("division"))
            if division not in pd:
                board.fail("IMPROVE 11SS or IMPROVE 4SS")
            if pd[division] <= track.start_box:
                board.fail(f"the {division} marker is already in its starting box (ruling N-46)")
        answered(frame)
        if division:
            pd[division] = max(track.start_box, pd[division] - track.end_of_turn_boxes)
            board.emit("pd_improved", division=division, boxes=track.end_of_turn_boxes, why="end of turn (11.3.5)")
        frame["stage"] = "next"

    def step(self, board: Board, frame: dict[str, Any]) -> bool:
        stage = frame["stage"]
        data = board.data
        if stage == "air":
            air_phase(board)
            frame["stage"] = "ready"
            return True
        if stage == "ready":
            return False
        if stage == "command":
            data["strachwitz_used"] = False
            data["first_2sh_done"] = False
            data["recent"] = []
            frame["stage"] = "reinforce"
            board.emit("command_phase", turn=board.turn, cup=sorted(data["cup"]))
            board.push(new_frame(data, "cup", draws=0))
            return True
        if stage == "reinforce":
            data["active_side"] = None
            refill_cup(board)
            for air_id in board.s.air_reinforcements(board.turn, "german") + board.s.air_reinforcements(board.turn, "soviet"):
                data["air"][air_id] = "ready"
                board.emit("air_arrives", air=air_id)
            frame["stage"] = "supply"
            # the German segment first (3.0C): pushed last so it runs first
            board.push(new_frame(data, "reinforce", side="soviet", stage="start", placed=[], skip=[]))
            board.push(new_frame(data, "reinforce", side="german", stage="start", placed=[], skip=[]))
            return True
        if stage == "supply":
            supply_phase(board)
            frame["stage"] = "sudden_death"
            return True
        if stage == "sudden_death":
            if sudden_death(board):
                return True
            frame["stage"] = "advance"
            return True
        if stage == "advance":
            turn_advance(board)
            frame["stage"] = "improve"
            return True
        if stage == "improve":
            return False
        if stage == "next":
            board.pop()
            if board.turn >= board.last_turn:
                final_victory(board)
                return True
            data["turn"] += 1
            board.emit("turn_begins", turn=data["turn"])
            start_turn(board)
            return True
        raise AssertionError(stage)


def air_phase(board: Board) -> None:
    """12.2: refitted units return to their holding box, grounded units move to Refit."""
    air = board.data["air"]
    moved = []
    for air_id in sorted(air):
        if air[air_id] == "refit":
            air[air_id] = "ready"
            moved.append((air_id, "ready"))
        elif air[air_id] == "grounded":
            air[air_id] = "refit"
            moved.append((air_id, "refit"))
    if moved:
        board.emit("air_phase", moved=[list(m) for m in moved])


def turn_advance(board: Board) -> None:
    """11.4: chits back to the cup (not the parked or removed ones), pins off."""
    data = board.data
    back = [c for c in data["tracks"]["german"] + data["tracks"]["soviet"] + data["drawn_actions"]
            if c not in data["removed"]]
    data["cup"].extend(back)
    data["tracks"] = {s: [] for s in SIDES}
    data["used"] = {s: 0 for s in SIDES}
    data["drawn_actions"] = []
    data["pinned"] = {}
    data["returned_this_turn"] = []
    board.emit("turn_advance", returned=sorted(back))


def supplied_combat_in_narva(board: Board) -> list[str]:
    return [u for h in board.s.area_hexes("narva") for u in board.units_at(h)
            if board.side_of(u) == "soviet" and board.is_combat(u) and board.supply(u) == "ok"]


def sudden_death(board: Board) -> bool:
    """13.1A: a supplied Soviet unit in Narva in the Sudden Death Victory Segment (ruling N-47)."""
    units = supplied_combat_in_narva(board)
    if not units:
        return False
    hexes = sorted({board.hex_of(u) for u in units})
    board.data["result"] = {"winner": "soviet", "reason": f"sudden death: a supplied Soviet unit in Narva ({', '.join(hexes)})",
                            "vp": victory_points(board), "level": "Soviet sudden death"}
    board.emit("game_over", **board.data["result"])
    return True


def victory_points(board: Board) -> int:
    """13.3: control-based hexes, Soviet-occupied rollbahn hexes and PD boxes lost."""
    total = 0
    control = board.data["control"]
    track = board.s.tables.pd_track
    for item in board.s.meta.vp_items:
        if item.basis == "control":
            total += item.vp * sum(1 for h in board.s.area_hexes(item.area) if control.get(h) == "soviet")
        elif item.basis == "occupation":
            total += item.vp * sum(1 for h in board.s.area_hexes(item.area) if board.owner_of(h) == "soviet")
        elif item.basis == "pd_track":
            total += item.vp * sum(box - track.start_box for box in board.data["pd"].values())
    return total


def final_victory(board: Board) -> None:
    vp = victory_points(board)
    level = next(v for v in board.s.meta.victory_levels if vp >= v.min_vp and (v.max_vp is None or vp <= v.max_vp))
    winner = "soviet" if level.level.lower().startswith("soviet") else "german"
    board.data["result"] = {"winner": winner, "reason": f"{level.level} victory with {vp} Soviet VP (13.2)",
                            "vp": vp, "level": level.level}
    board.emit("game_over", **board.data["result"])
