"""The Hell of Stalingrad as a moderator engine (the contract of DESIGN §3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.core.bots import Brain
from moderator.core.contract import (
    REFEREE,
    Decision,
    Event,
    GameInfo,
    OptionSpec,
    Outcome,
    ScenarioInfo,
    StandingDefault,
    View,
)
from moderator.core.frames import FrameStackEngine, Handler
from moderator.core.grammar import Lexicon
from moderator.core.rng import Rng
from moderator.games.stalingrad import conditions, mapdraw, narrate
from moderator.games.stalingrad.battle import Battle
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.bot import brains
from moderator.games.stalingrad.effects import Effects
from moderator.games.stalingrad.orders import GRAMMAR
from moderator.games.stalingrad.scenario import DEFAULT, SIDES, check_scenario, scenario_named
from moderator.games.stalingrad.setup import STATE_VERSION, initial_state
from moderator.games.stalingrad.state import StalingradState
from moderator.games.stalingrad.strategy import Turn, start_turn
from moderator.games.stalingrad.views import build_view, lexicon_for

HANDLERS: Mapping[str, Handler[Board, Any]] = {"turn": Turn(), "battle": Battle(), "effects": Effects()}

OPTIONS = [
    OptionSpec("game", "basic", ("basic", "advanced"), "the basic game (3 turns) or the advanced game (6 turns, "
               "the 24 advanced cards and heroes); the four-player game is not built yet"),
    OptionSpec("volga_cards", "6", ("6", "4"), "how many Volga Cards are shuffled in (ruling S-01)"),
    OptionSpec("machine_gun", "as_many", ("as_many", "all_or_nothing"),
               "a Machine Gun depletion short of Rifles executes as many as there are, or none (ruling S-09)"),
    OptionSpec("intensity_fires", "on", ("on", "off"), "the Battle Intensity adds that many fires (ruling S-18)"),
    OptionSpec("slaughter_dice", "cumulative", ("cumulative", "recount"),
               "a Bloody Slaughter's re-test rolls the previous pools plus a die, or counts them afresh (ruling S-23)"),
]

STANDING = [
    StandingDefault("fight", "FIGHT AUTO", ("german",)), StandingDefault("demote", "DEMOTE AUTO", ("german",)),
    StandingDefault("casualty", "LOSE AUTO"), StandingDefault("target", "TARGET AUTO"),
    StandingDefault("sniper", "SNIPE AUTO"), StandingDefault("deplete", "DEPLETE AUTO"),
    StandingDefault("supply", "SUPPLY AUTO"), StandingDefault("overrun", "OVERRUN AUTO"),
    StandingDefault("spillover", "SPILL AUTO"), StandingDefault("holdpick", "TAKE AUTO"),
    StandingDefault("intercept", "INTERCEPT NONE"), StandingDefault("promote", "PROMOTE AUTO", ("german",)),
    StandingDefault("tongues", "TONGUES AUTO", ("soviet",)), StandingDefault("ratswar", "RETRIEVE AUTO", ("soviet",)),
]

INFO = GameInfo(
    id="stalingrad", title="The Hell of Stalingrad",
    scenarios=(ScenarioInfo(DEFAULT, "The siege, September to November 1942", SIDES,
                            "Four districts of ruins, three turns of the basic game."),),
    options=tuple(OPTIONS), standing_defaults=tuple(STANDING), state_version=STATE_VERSION)


class StalingradEngine(FrameStackEngine[StalingradState]):
    info = INFO
    grammar = GRAMMAR
    handlers = HANDLERS

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> StalingradState:
        chosen = INFO.chosen_options(options)
        data = initial_state(scenario_named(scenario), scenario, chosen, rng)
        board = self.make_board(data, rng)
        start_turn(board)
        self.settle(board)
        return data

    def make_board(self, data: StalingradState, rng: Rng | None) -> Board:
        return Board(data, scenario_named(data["scenario"]), rng)

    def outcome(self, state: StalingradState) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        trophies = len(state["sides"]["german"]["trophies"])
        return Outcome(result["winner"], result["reason"], {"buildings captured": trophies})

    # ------------------------------------------------------------------ where the game stands

    def phase_label(self, state: StalingradState) -> str:
        if state["result"] is not None:
            return "OVER"
        battle = state["battle"]
        if battle is not None:
            return f"T{state['turn']}-B{battle['district']}"
        turns = [f for f in state["stack"] if f["kind"] == "turn"]
        return f"T{state['turn']}-{turns[-1]['stage'].upper() if turns else 'START'}"

    def phase_title(self, state: StalingradState) -> str:
        if state["result"] is not None:
            return "the game is over"
        board = self._board(state)
        return f"turn {state['turn']} of {board.last_turn}, {build_view(board, REFEREE)['stage']}"

    def progress(self, state: StalingradState) -> tuple[int, int]:
        return state["turn"], self._board(state).last_turn

    def period(self, state: StalingradState) -> str:
        """Keyed (ON) orders last one game turn."""
        return f"T{state['turn']}"

    # ------------------------------------------------------------------ views

    def view(self, state: StalingradState, role: str) -> View:
        return build_view(self._board(state), role)

    def lexicon(self, state: StalingradState, role: str) -> Lexicon:
        return lexicon_for(self._board(state), role)

    def narrate(self, event: Event, role: str) -> str:
        return narrate.narrate(event, role)

    def condition(self, name: str, view: View, decision: Decision, args: Sequence[str]) -> bool:
        return conditions.evaluate(name, view, decision, args)

    def secrets(self, state: StalingradState, role: str) -> set[str]:
        """§Commanders A: the cards in a player's hand (by copy id); the decks' order is nobody's."""
        if role not in SIDES:
            return set()
        return set(state["sides"][role]["hand"])

    def map_png(self, view: View) -> bytes | None:
        return mapdraw.draw_map(view)

    def map_detail_png(self, view: View) -> bytes | None:
        return mapdraw.draw_detail(view)

    # ------------------------------------------------------------------ data and demo

    def check_scenario(self, name: str) -> None:
        self.info.scenario(name)
        check_scenario(name)

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        return brains(scenario_named(scenario))


engine = StalingradEngine()
