"""The Sequence of Play (3.0): Air Unit Phase, Command Phase, Reinforcement Phase, Supply Phase,
End of Turn Phase (sudden death 13.1, turn advance 11.4); and the victory count (13.2-13.3).

E-mail play adds one question per turn: before the Command Phase both players say READY, so that
each can file the turn's keyed orders ("ON CHIT 2SH: ACTIVATE 109", "ON HQ 109: MOVE ...") after
seeing the previous turn's report.  Nothing in the rules happens at that moment.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.core.contract import Decision
from moderator.core.frames import Stage, StageSequence, answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import SIDES, Board, as_side
from moderator.games.narva.reinforce import refill_cup
from moderator.games.narva.state import GameResult, Side, TurnFrame, TurnStage
from moderator.games.narva.supply import supply_phase

# The Sequence of Play (3.0) in rulebook order: the turn frame runs each stage and moves on to the next.
TURN_STAGES: StageSequence[TurnStage] = StageSequence(
    Stage("air", "3.0A Air Unit Phase: refitted units return, grounded units refit (12.2)"),
    Stage("ready", "e-mail play: both players say READY once the turn's orders are filed"),
    Stage("command", "3.0B Command Phase: chits drawn, HQs activated, units move and attack (4.0)"),
    Stage("reinforce", "3.0C Reinforcement Phase: the German segment, then the Soviet (8.0)"),
    Stage("supply", "3.0D Supply Phase (10.0)"),
    Stage("sudden_death", "3.0E Sudden Death Victory Segment (13.1)"),
    Stage("advance", "3.0E Turn Advance Segment (11.4)"),
    Stage("improve", "3.0E, 11.4C: Germany may move one prepared-defence marker up a box (11.3.5)"),
    Stage("next", "the next turn, or the final victory count after the last (13.2)"),
)
ASKED_STAGES: frozenset[TurnStage] = frozenset({"ready", "improve"})


def start_turn(board: Board) -> None:
    board.push(new_frame(board.data, "turn", stage=TURN_STAGES.first, ready=[]))


class Turn:
    def decisions(self, board: Board, frame: TurnFrame) -> list[Decision]:
        if frame["stage"] == "ready":
            return ready_decisions(board, frame)
        if frame["stage"] == "improve":
            return [improve_decision(board, frame)]
        return []

    def legal(self, board: Board, frame: TurnFrame, decision: Decision) -> list[Order]:
        if frame["stage"] == "ready":
            return [Order.make("ready", "ready")]
        start = board.scenario.tables.pd_track.start_box
        pd = board.data["pd"]
        return [Order.make("improve", "auto"), Order.make("improve", "none")] + \
            [Order.make("improve", "division", division=d) for d in sorted(pd) if pd[d] > start]

    def apply(self, board: Board, frame: TurnFrame, decision: Decision, order: Order) -> None:
        if frame["stage"] == "ready":
            frame["ready"].append(as_side(decision.role))
            board.emit("ready", side=decision.role)
            if len(frame["ready"]) == len(SIDES):
                answered(frame)
                frame["stage"] = TURN_STAGES.after("ready")
            return
        division = division_to_improve(board, order)
        answered(frame)
        if division:
            improve(board, division)
        frame["stage"] = TURN_STAGES.after("improve")

    def step(self, board: Board, frame: TurnFrame) -> bool:
        stage = frame["stage"]
        if stage in ASKED_STAGES:
            return False
        if stage == "next":
            board.pop()
            end_turn(board)
            return True
        if stage == "sudden_death":
            if sudden_death(board):
                return True  # the game is over: the turn stops where it is
        else:
            SEGMENTS[stage](board)
        frame["stage"] = TURN_STAGES.after(stage)
        return True


# ---------------------------------------------------------------- the questions of the turn


def ready_decisions(board: Board, frame: TurnFrame) -> list[Decision]:
    turn = board.turn
    t = board.scenario.turn(turn)
    prompt = (f"Turn {turn} ({t.dates}) is about to begin: file this turn's orders (ON lines keyed by the "
              f"chits you may draw, standing orders for what the other side's activations ask of you), "
              f"then READY. Activations this turn: German {t.activations['german']}, Soviet "
              f"{t.activations['soviet']}.")
    return [ask(frame, side, "ready", prompt, ["READY"], "READY", context={"turn": turn})
            for side in SIDES if side not in frame["ready"]]


def improve_decision(board: Board, frame: TurnFrame) -> Decision:
    track = board.scenario.tables.pd_track
    values = {d: track.boxes[b] for d, b in board.data["pd"].items()}
    prompt = (f"Turn Advance (11.3.5): move one division's prepared-defence marker up one box? Now: "
              f"{', '.join(f'{d} {v}' for d, v in sorted(values.items()))}. IMPROVE <11SS|4SS>, IMPROVE AUTO "
              f"or IMPROVE NONE.")
    options = ["IMPROVE AUTO", "IMPROVE NONE", *(f"IMPROVE {d}" for d in sorted(values)
                                                        if board.data["pd"][d] > track.start_box)]
    return ask(frame, "german", "improve", prompt, options, "IMPROVE AUTO")


def division_to_improve(board: Board, order: Order) -> str | None:
    """The division an IMPROVE order names (AUTO: the lower marker, ties to Nordland); raises
    IllegalOrder for a division without a marker or one already in its starting box (ruling N-46)."""
    track = board.scenario.tables.pd_track
    pd = board.data["pd"]
    if order.form == "none":
        return None
    if order.form == "auto":
        division = max(sorted(pd), key=lambda d: (pd[d], d == "11SS"))  # the higher box number is lower
        return division if pd[division] > track.start_box else None
    division = str(order.get("division"))
    if division not in pd:
        board.fail("IMPROVE 11SS or IMPROVE 4SS")
    if pd[division] <= track.start_box:
        board.fail(f"the {division} marker is already in its starting box (ruling N-46)")
    return division


def improve(board: Board, division: str) -> None:
    """11.3.5: the division's marker goes up one box, never above its starting box."""
    track = board.scenario.tables.pd_track
    pd = board.data["pd"]
    pd[division] = max(track.start_box, pd[division] - track.end_of_turn_boxes)
    board.emit("pd_improved", division=division, boxes=track.end_of_turn_boxes, why="end of turn (11.3.5)")


# ---------------------------------------------------------------- the segments that run by themselves


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


def begin_command_phase(board: Board) -> None:
    """3.0B: the per-turn markers of the last Command Phase go; the cup frame draws the chits (4.1.1)."""
    data = board.data
    data["strachwitz_used"] = False
    data["first_2sh_done"] = False
    data["recent"] = []
    board.emit("command_phase", turn=board.turn, cup=sorted(data["cup"]))
    board.push(new_frame(data, "cup", draws=0))


def begin_reinforcement_phase(board: Board) -> None:
    """3.0C: the turn's chits enter the cup (8.7) and its air units arrive (Turn Record Track); then
    each side's Reinforcement Segment, the German first."""
    data = board.data
    data["active_side"] = None
    refill_cup(board)
    arriving = [a for side in ("german", "soviet") for a in board.scenario.air_reinforcements(board.turn, side)]
    for air_id in arriving:
        data["air"][air_id] = "ready"
        board.emit("air_arrives", air=air_id)
    # pushed last so that it runs first
    board.push(new_frame(data, "reinforce", side="soviet", stage="start", placed=[], skip=[]))
    board.push(new_frame(data, "reinforce", side="german", stage="start", placed=[], skip=[]))


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
    return [u for h in board.scenario.area_hexes("narva") for u in board.units_at(h)
            if board.side_of(u) == "soviet" and board.is_combat(u) and board.supply(u) == "ok"]


def sudden_death(board: Board) -> bool:
    """13.1A: a supplied Soviet unit in Narva in the Sudden Death Victory Segment (ruling N-47)."""
    units = supplied_combat_in_narva(board)
    if not units:
        return False
    hexes = sorted({board.hex_on_map(u) for u in units})
    result: GameResult = {"winner": "soviet",
                          "reason": f"sudden death: a supplied Soviet unit in Narva ({', '.join(hexes)})",
                          "vp": victory_points(board), "level": "Soviet sudden death"}
    board.data["result"] = result
    board.emit("game_over", **result)
    return True


def victory_points(board: Board) -> int:
    """13.3: control-based hexes, Soviet-occupied rollbahn hexes and PD boxes lost."""
    total = 0
    control = board.data["control"]
    track = board.scenario.tables.pd_track
    for item in board.scenario.meta.vp_items:
        if item.basis == "control":
            total += item.vp * sum(1 for h in board.scenario.area_hexes(item.area) if control.get(h) == "soviet")
        elif item.basis == "occupation":
            total += item.vp * sum(1 for h in board.scenario.area_hexes(item.area) if board.owner_of(h) == "soviet")
        elif item.basis == "pd_track":
            total += item.vp * sum(box - track.start_box for box in board.data["pd"].values())
    return total


def victory_level(board: Board, vp: int) -> tuple[Side, str]:
    """13.2: the side and level of victory `vp` Soviet VP give (the table has no draw)."""
    level = next(v for v in board.scenario.meta.victory_levels
                 if vp >= v.min_vp and (v.max_vp is None or vp <= v.max_vp))
    return ("soviet" if level.level.lower().startswith("soviet") else "german"), level.level


def verdict_now(board: Board) -> GameResult:
    """The victory level if the game stopped now (a league's time-out): the Soviet VP held at this
    moment (13.3, the PD track counted as at the game's end) read on the 13.2 table.  Sudden death
    (13.1A) is judged only in its own segment, so it does not enter a verdict taken in between."""
    vp = victory_points(board)
    winner, level = victory_level(board, vp)
    return {"winner": winner, "reason": f"{level} victory with {vp} Soviet VP when the game stopped (13.2, 13.3)",
            "vp": vp, "level": level}


def final_victory(board: Board) -> None:
    vp = victory_points(board)
    winner, level = victory_level(board, vp)
    result: GameResult = {"winner": winner, "reason": f"{level} victory with {vp} Soviet VP (13.2)",
                          "vp": vp, "level": level}
    board.data["result"] = result
    board.emit("game_over", **result)


def end_turn(board: Board) -> None:
    """After the last turn the victory count (13.2); otherwise the next turn begins."""
    if board.turn >= board.last_turn:
        final_victory(board)
        return
    board.data["turn"] += 1
    board.emit("turn_begins", turn=board.data["turn"])
    start_turn(board)


# What each stage that asks nobody does; the turn frame then moves on to the following stage.
SEGMENTS: dict[TurnStage, Callable[[Board], None]] = {
    "air": air_phase, "command": begin_command_phase, "reinforce": begin_reinforcement_phase,
    "supply": supply_phase, "advance": turn_advance,
}
