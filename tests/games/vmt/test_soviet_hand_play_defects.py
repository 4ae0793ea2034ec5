"""Defects found when a whole VMT game was played by hand by mail as the Soviet (notes/hand-vmt.md,
D2-D15): each test sets up what the tester met and reads what a player would read."""

from __future__ import annotations

from moderator.core.rng import RngRecord
from moderator.games.vmt.board import Board
from moderator.games.vmt.engine import engine
from moderator.games.vmt.scenario import scenario_named
from moderator.games.vmt.sequence import end_turn
from moderator.service.turns import describe_outcome


def fresh_campaign() -> dict:
    return engine.setup("campaign", {}, RngRecord("d13", bytes(32), ["axis", "soviet"]).rng())


# ---------------------------------------------------------------- D13: the game-over line


def test_the_game_over_line_states_the_vp_once_and_cites_no_line():
    """D13: "Soviet wins (more VP at the end of the last turn: Axis -3, Soviet 12 (L427); axis VP -3,
    soviet VP 12)": the VP twice and a line number.  The reason names why (L427); the score, the VP."""
    state = fresh_campaign()
    board = Board(state, scenario_named("campaign"))
    state["turn"] = len(board.scenario.meta.turns)
    end_turn(board)
    line = describe_outcome(engine.outcome(state))
    assert line == "Soviet wins (more VP at the end of the last turn; axis VP 0, soviet VP 12)."
