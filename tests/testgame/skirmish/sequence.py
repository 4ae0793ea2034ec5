"""§4 the sequence of play (the turn, each side's phase) and §8 victory at the end of the last turn."""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import Automatic, Stage, StageSequence, new_frame
from moderator.core.grammar import Order
from tests.testgame.skirmish.battle import push_battle
from tests.testgame.skirmish.board import Board, enemy
from tests.testgame.skirmish.movement import legal_orders, move_decision, move_unit
from tests.testgame.skirmish.scenario import SIDES
from tests.testgame.skirmish.state import GameResult, PhaseFrame, PhaseStage, Side, TurnFrame, TurnStage

TURN_STAGES: StageSequence[TurnStage] = StageSequence(
    Stage("red", "§4: the red side's phase"),
    Stage("blue", "§4: then the blue side's phase"),
    Stage("end", "§4, §8: the next turn, or victory after the last"),
)

#: whose phase each stage of the turn is (§4)
PHASE_OF: dict[TurnStage, Side] = {"red": "red", "blue": "blue"}

PHASE_STAGES: StageSequence[PhaseStage] = StageSequence(
    Stage("move", "§4.1, §5: the active side moves its units one at a time"),
    Stage("battles", "§4.1, §6: every area holding both sides' units is a battle, in map order"),
    Stage("end", "§4.2: the phase ends and the VP standing is announced"),
)


def start_turn(board: Board) -> None:
    board.push(new_frame(board.data, "turn", stage=TURN_STAGES.first))


class Turn(Automatic[Board, TurnFrame]):
    """A turn never asks: it starts each side's phase in order, then ends."""

    def step(self, board: Board, frame: TurnFrame) -> bool:
        stage = frame["stage"]
        if stage == "end":
            board.pop()
            end_turn(board)
            return True
        frame["stage"] = TURN_STAGES.after(stage)
        start_phase(board, PHASE_OF[stage])
        return True


def start_phase(board: Board, side: Side) -> None:
    board.emit("phase_begins", turn=board.turn, side=side)
    board.push(new_frame(board.data, "phase", side=side, stage=PHASE_STAGES.first, moved=[], battles=[]))


class Phase:
    """One side's phase: it asks for moves, then runs the battles and ends."""

    def decisions(self, board: Board, frame: PhaseFrame) -> list[Decision]:
        return [move_decision(board, frame)] if frame["stage"] == "move" else []

    def legal(self, board: Board, frame: PhaseFrame, decision: Decision) -> list[Order]:
        return legal_orders(board, frame)

    def apply(self, board: Board, frame: PhaseFrame, decision: Decision, order: Order) -> None:
        if order.form == "to":
            move_unit(board, frame, order)
            return
        board.emit("movement_over", side=frame["side"])
        frame["battles"] = [area for area in board.scenario.area_ids() if board.is_contested(area)]
        frame["stage"] = PHASE_STAGES.after("move")

    def step(self, board: Board, frame: PhaseFrame) -> bool:
        stage = frame["stage"]
        if stage == "move":
            return False
        if stage == "battles":
            if frame["battles"]:
                push_battle(board, frame["battles"].pop(0), frame["side"], enemy(frame["side"]))
            else:
                frame["stage"] = PHASE_STAGES.after("battles")
            return True
        board.pop()
        board.emit("phase_over", turn=board.turn, side=frame["side"],
                   vp={side: board.vp_areas_of(side) for side in SIDES})
        return True


def end_turn(board: Board) -> None:
    """After the last turn, victory (§8); otherwise the next turn begins."""
    if board.turn >= board.last_turn:
        final_victory(board)
        return
    board.data["turn"] += 1
    board.emit("turn_begins", turn=board.turn)
    start_turn(board)


def final_victory(board: Board) -> None:
    """§8: the side controlling more VP areas wins; equal is a draw."""
    vp: dict[str, int] = {side: board.vp_areas_of(side) for side in SIDES}
    red, blue = vp["red"], vp["blue"]
    winner: Side | None = None if red == blue else ("red" if red > blue else "blue")
    reason = (f"{winner} controls more VP areas ({max(red, blue)} to {min(red, blue)}) (§8)" if winner
              else f"both sides control {red} VP area(s): a draw (§8)")
    result: GameResult = {"winner": winner, "reason": reason, "vp": vp}
    board.data["result"] = result
    board.emit("game_over", winner=winner, reason=reason, vp=vp)
