"""Skirmish as a moderator engine (the contract of DESIGN §3), for the kit tests only: it is not in the
product registry (tests/kit/games.py lists it beside the registry's games)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from moderator.core.bots import Brain
from moderator.core.contract import (
    REFEREE,
    GameInfo,
    OptionSpec,
    Outcome,
    ScenarioInfo,
    StandingDefault,
)
from moderator.core.frames import BoardFunctions, FrameStackEngine, Handler
from moderator.core.rng import Rng
from tests.testgame.skirmish import battle, conditions, narrate, retreat, sequence
from tests.testgame.skirmish.board import Board
from tests.testgame.skirmish.bot import brains
from tests.testgame.skirmish.orders import GRAMMAR
from tests.testgame.skirmish.scenario import SIDES, check_scenario, scenario_named
from tests.testgame.skirmish.setup import STATE_VERSION, initial_state
from tests.testgame.skirmish.state import SkirmishState
from tests.testgame.skirmish.views import build_view, lexicon_for

HANDLERS: dict[str, Handler[Any, Any]] = {
    "turn": sequence.Turn(), "phase": sequence.Phase(), "battle": battle.Battle(), "retreat": retreat.Retreat(),
}

OPTIONS = [
    OptionSpec("tie", "fall_back", ("fall_back", "stand"),
               "after a tied battle the attacker falls back, or both sides stay and fight again (ruling S-TIE)"),
]

STANDING = [StandingDefault("retreat", "RETREAT AUTO")]

INFO = GameInfo(
    id="skirmish", title="Skirmish (test game)",
    scenarios=(ScenarioInfo("standard", "Skirmish at the ford", SIDES, "Four turns over seven areas."),),
    options=tuple(OPTIONS), standing_defaults=tuple(STANDING), state_version=STATE_VERSION)


class SkirmishEngine(FrameStackEngine[SkirmishState]):
    info = INFO
    grammar = GRAMMAR
    handlers = HANDLERS
    functions = BoardFunctions(build_view, lexicon_for, narrate.narrate, conditions.evaluate)
    templates_dir = Path(__file__).parent / "templates"

    # ------------------------------------------------------------------ state

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> SkirmishState:
        chosen = INFO.chosen_options(options)
        data = initial_state(scenario_named(scenario), scenario, chosen)
        board = self.make_board(data, rng)
        sequence.start_turn(board)
        self.settle(board)
        return data

    def make_board(self, data: SkirmishState, rng: Rng | None) -> Board:
        return Board(data, scenario_named(data["scenario"]), rng)

    def outcome(self, state: SkirmishState) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(result["winner"], result["reason"], {f"{s} VP areas": n for s, n in result["vp"].items()})

    # ------------------------------------------------------------------ where the game stands

    def phase_label(self, state: SkirmishState) -> str:
        if state["result"] is not None:
            return "OVER"
        side = self._board(state).active_side()
        return f"T{state['turn']}-{(side or 'red').upper()}"

    def phase_title(self, state: SkirmishState) -> str:
        if state["result"] is not None:
            return "the game is over"
        side = self._board(state).active_side() or "red"
        return f"turn {state['turn']} of {scenario_named(state['scenario']).meta.turns}, {side} phase"

    def progress(self, state: SkirmishState) -> tuple[int, int]:
        return state["turn"], scenario_named(state["scenario"]).meta.turns

    def period(self, state: SkirmishState) -> str:
        """Keyed (ON) orders last one phase."""
        return self.phase_label(state)

    # ------------------------------------------------------------------ views

    def secrets(self, state: SkirmishState, role: str) -> set[str]:
        """§3.1: the names of `role`'s units (in play or not): no other side ever learns them."""
        if role == REFEREE:
            return set()
        return {unit for unit, record in state["units"].items() if record["side"] == role}

    # ------------------------------------------------------------------ data and demo

    def check_scenario(self, name: str) -> None:
        check_scenario(name)

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        return brains(scenario_named(scenario))


engine = SkirmishEngine()
