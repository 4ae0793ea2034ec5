"""The Hell of Stalingrad as a moderator engine (the contract of DESIGN §3)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from moderator.core.bots import Brain
from moderator.core.contract import (
    REFEREE,
    Decision,
    GameInfo,
    OptionSpec,
    Outcome,
    ScenarioInfo,
    StandingDefault,
)
from moderator.core.frames import BoardFunctions, FrameStackEngine, Handler
from moderator.core.grammar import Order
from moderator.core.rng import Rng
from moderator.games.stalingrad import conditions, mapdraw, narrate
from moderator.games.stalingrad.battle import Battle
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.bot import brains
from moderator.games.stalingrad.effects import Effects
from moderator.games.stalingrad.orders import GRAMMAR
from moderator.games.stalingrad.scenario import DEFAULT, SIDES, check_scenario, scenario_named
from moderator.games.stalingrad.seating import ALL_SEATS, FOUR_PLAYER, SEATS, SIDE_OF
from moderator.games.stalingrad.setup import STATE_VERSION, initial_state
from moderator.games.stalingrad.state import StalingradState
from moderator.games.stalingrad.strategy import Turn, standing_buildings, start_turn, verdict_now
from moderator.games.stalingrad.teams import Give, hand_of, setup_seats
from moderator.games.stalingrad.views import build_view, lexicon_for

HANDLERS: Mapping[str, Handler[Board, Any]] = {"turn": Turn(), "battle": Battle(), "effects": Effects(),
                                               "give": Give()}
GERMAN_ROLES = ("german", *SEATS["german"])
SOVIET_ROLES = ("soviet", *SEATS["soviet"])

OPTIONS = [
    OptionSpec("game", "basic", ("basic", "advanced"), "the basic game (3 turns) or the advanced game (6 turns, "
               "the 24 advanced cards and heroes); the four-player scenario is always advanced (§Four Player)"),
    OptionSpec("volga_cards", "6", ("6", "4"), "how many Volga Cards are shuffled in (ruling S-01)"),
    OptionSpec("machine_gun", "as_many", ("as_many", "all_or_nothing"),
               "a Machine Gun depletion short of Rifles executes as many as there are, or none (ruling S-09)"),
    OptionSpec("intensity_fires", "on", ("on", "off"), "the Battle Intensity adds that many fires (ruling S-18)"),
    OptionSpec("slaughter_dice", "cumulative", ("cumulative", "recount"),
               "a Bloody Slaughter's re-test rolls the previous pools plus a die, or counts them afresh (ruling S-23)"),
    OptionSpec("teammate_hands", "open", ("open", "closed"),
               "four-player game: teammates see each other's hands, or only how many cards (ruling S-82)"),
    OptionSpec("unfinished", "last_turn", ("last_turn", "districts"),
               "a game stopped unfinished (a league round's time-out) is judged as at the end of the last turn, "
               "or by who holds more of the four districts (ruling S-84)"),
]

STANDING = [
    StandingDefault("fight", "FIGHT AUTO", GERMAN_ROLES), StandingDefault("demote", "DEMOTE AUTO", GERMAN_ROLES),
    StandingDefault("casualty", "LOSE AUTO"), StandingDefault("target", "TARGET AUTO"),
    StandingDefault("sniper", "SNIPE AUTO"), StandingDefault("deplete", "DEPLETE AUTO"),
    StandingDefault("supply", "SUPPLY AUTO"), StandingDefault("overrun", "OVERRUN AUTO"),
    StandingDefault("spillover", "SPILL AUTO"), StandingDefault("holdpick", "TAKE AUTO"),
    StandingDefault("intercept", "INTERCEPT NONE"), StandingDefault("promote", "PROMOTE AUTO", GERMAN_ROLES),
    StandingDefault("tongues", "TONGUES AUTO", SOVIET_ROLES), StandingDefault("ratswar", "RETRIEVE AUTO", SOVIET_ROLES),
    StandingDefault("give", "GIVE NONE", ALL_SEATS),
]

INFO = GameInfo(
    id="stalingrad", title="The Hell of Stalingrad",
    scenarios=(ScenarioInfo(DEFAULT, "The siege, September to November 1942", SIDES,
                            "Four districts of ruins, three turns of the basic game."),
               ScenarioInfo(FOUR_PLAYER, "The siege for four: two commanders a side", ALL_SEATS,
                            "The advanced game with a seat per commander: Paulus and Wietersheim against "
                            "Lopatin and Saraev (§Four Player).",
                            teams=tuple((side, SEATS[side]) for side in SIDES))),
    options=tuple(OPTIONS), standing_defaults=tuple(STANDING), state_version=STATE_VERSION)


class StalingradEngine(FrameStackEngine[StalingradState]):
    info = INFO
    grammar = GRAMMAR
    handlers = HANDLERS
    functions = BoardFunctions(build_view, lexicon_for, narrate.narrate, conditions.evaluate, mapdraw.draw_map,
                               mapdraw.draw_detail)

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> StalingradState:
        chosen = INFO.chosen_options(options)
        four = scenario == FOUR_PLAYER
        if four:
            chosen["game"] = "advanced"  # §Four Player: "run as a normal Advanced Game"
        data = initial_state(scenario_named(scenario), scenario, chosen, rng)
        board = self.make_board(data, rng)
        if four:
            setup_seats(board)
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

    def score_now(self, state: StalingradState) -> Outcome:
        """The outcome once over; otherwise who wins if the game stopped now, by option `unfinished`: §Basic Game's
        count at the end of the last turn, or the majority of the districts (§Buildings A); ruling S-84."""
        outcome = self.outcome(state)
        if outcome is not None:
            return outcome
        board = self._board(state)
        winner, reason = verdict_now(board)
        return Outcome(winner, reason, {"buildings standing": len(standing_buildings(board)),
                                        "buildings captured": len(state["sides"]["german"]["trophies"])})

    # ------------------------------------------------------------------ four players: decisions by seat

    def pending(self, state: StalingradState) -> list[Decision]:
        """The questions, each put to the role that answers it: in the four-player game a side's question goes
        to the seat at the table (ruling S-81)."""
        asked = super().pending(state)
        table = state.get("table")
        return [_seated(d, table) for d in asked] if table else asked

    def legal_orders(self, state: StalingradState, decision: Decision) -> list[Order]:
        return super().legal_orders(state, self._unseated(state, decision))

    def asked_of(self, state: StalingradState, role: str) -> list[Decision]:
        """The side's questions the seat at the table answers, as the handlers asked them (ruling S-81)."""
        table = state.get("table")
        if not table:
            return super().asked_of(state, role)
        return [d for d in super().pending(state) if _seated(d, table).role == role]

    def _unseated(self, state: StalingradState, decision: Decision) -> Decision:
        """The decision as the rules asked it (of a side), found by its key."""
        if not state.get("table"):
            return decision
        return next((d for d in super().pending(state) if d.key == decision.key), decision)

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

    def secrets(self, state: StalingradState, role: str) -> set[str]:
        """§Commanders A: the cards in a player's hand (by copy id); the decks' order is nobody's.  Four players:
        the seat's own hand (his teammate may be shown it, ruling S-82, but his opponents never)."""
        if role in SIDE_OF and "table" in state:
            return set(hand_of(self._board(state), role))
        if role not in SIDES:
            return set()
        return set(state["sides"][role]["hand"])

    # ------------------------------------------------------------------ data and demo

    def check_scenario(self, name: str) -> None:
        self.info.scenario(name)
        check_scenario(name)

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        return brains(scenario_named(scenario), scenario == FOUR_PLAYER)


def _seated(decision: Decision, table: Mapping[str, str]) -> Decision:
    """A side's decision put to the seat at the table for that side (four players, ruling S-81)."""
    role = table.get(decision.role, decision.role)
    interrupts = table.get(decision.interrupts, decision.interrupts) if decision.interrupts else None
    return dataclasses.replace(decision, role=role, interrupts=interrupts)


engine = StalingradEngine()
