"""Von Manstein's Triumph as a moderator engine (the contract of DESIGN §3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.core.bots import Brain
from moderator.core.contract import GameInfo, OptionSpec, Outcome, ScenarioInfo, StandingDefault
from moderator.core.frames import BoardFunctions, FrameStackEngine, Handler
from moderator.core.rng import Rng
from moderator.games.vmt import activation, combat, conditions, fire, mapdraw, narrate, sequence, setup
from moderator.games.vmt.board import SIDES, Board
from moderator.games.vmt.bot import brains
from moderator.games.vmt.frames import new_frame
from moderator.games.vmt.orders import GRAMMAR
from moderator.games.vmt.scenario import check_scenario, scenario_named
from moderator.games.vmt.state import VmtState
from moderator.games.vmt.views import build_view, lexicon_for

STATE_VERSION = 1

HANDLERS: Mapping[str, Handler[Board, Any]] = {
    "setup": setup.FreeSetup(), "bombard": setup.Bombardment(), "phase": sequence.Phase(),
    "activation": activation.Activation(), "combat": combat.Combat(), "strike": fire.Strike(),
    "cover_order": fire.CoverOrder(), "window": fire.Window(),
}

OPTIONS = [
    OptionSpec("setup", "historical", ("historical", "free"),
               "historical set-up (reconstructed Playbook) or a secret free set-up filed by both sides"),
    OptionSpec("tie_winner", "attacker", ("attacker", "defender"),
               "who wins a combat with equal hits when no trench decides it"),
    OptionSpec("minefield_effect", "cancel_hit", ("cancel_hit", "extra_die", "none"),
               "what a Minefield marker does for a Soviet defender"),
    OptionSpec("field_of_fire", "adjacent_enemy", ("adjacent_enemy", "enemy_controlled"),
               "which retreats count as 'into an enemy field of fire'"),
    OptionSpec("retreat_into", "friendly", ("friendly", "friendly_or_empty"),
               "may a loser retreat into empty enemy-controlled areas (at +1 loss)?"),
    OptionSpec("battery_retreat", "with_axis_blocks", ("with_axis_blocks", "never"),
               "may a beaten Axis group retreat into an undestroyed battery area that holds Axis blocks?"),
    OptionSpec("soviet_river_attack", "penalty", ("penalty", "forbidden", "no_penalty"),
               "Soviet attacks across a river: one die less like the Axis, not allowed, or no effect"),
    OptionSpec("pioneer_roll", "acted", ("acted", "always"),
               "which pioneers roll for self-loss after a combat"),
    OptionSpec("initial_bombardment", True, (True, False), "play the Initial Bombardment"),
]

STANDING = [
    StandingDefault("coordinate", "COORDINATE NONE"), StandingDefault("assets", "ASSETS NONE"),
    StandingDefault("support", "SUPPORT NONE"), StandingDefault("hits", "HITS AUTO"),
    StandingDefault("retreat", "RETREAT AUTO"), StandingDefault("keep", "KEEP AUTO"),
    StandingDefault("counterattack", "COUNTERATTACK NONE"), StandingDefault("air", "AIRSTRIKE NONE", ("axis",)),
    StandingDefault("cover", "COVER NONE", ("soviet",)),
    # Fighter Escort has no other use, so it is played when held (digest §3.3, A11); without the
    # card the standing answer is illegal and the default NONE applies just as fast.
    StandingDefault("escort", "ESCORT", ("axis",)),
]


INFO = GameInfo(
    id="vmt", title="Von Manstein's Triumph",
    scenarios=(ScenarioInfo("campaign", "The campaign, June 7 to July 14, 1942", SIDES,
                            "The Axis assault on Sevastopol; 13 turns."),),
    options=tuple(OPTIONS), standing_defaults=tuple(STANDING), state_version=STATE_VERSION,
    # L160-162: each Command card played opens its own actions (a script's round: core/script_order.py)
    opening_kinds=("card",))


class VmtEngine(FrameStackEngine[VmtState]):
    info = INFO
    grammar = GRAMMAR
    handlers = HANDLERS
    functions = BoardFunctions(build_view, lexicon_for, narrate.narrate, conditions.evaluate, mapdraw.draw_map,
                               mapdraw.draw_detail)
    settle_limit = 10_000

    # ------------------------------------------------------------------ state

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> VmtState:
        chosen = INFO.chosen_options(options)
        data = setup.initial_state(scenario_named(scenario), chosen, rng)
        board = Board(data, scenario_named(scenario), rng)
        setup.deal(board)
        if chosen["setup"] == "free":
            board.push(new_frame(board, "setup", filed=[], placements={s: {} for s in SIDES}, salts={},
                                 salt_draws={}))
        else:
            setup.start_bombardment(board)
        self.settle(board)
        return data

    def make_board(self, data: VmtState, rng: Rng | None) -> Board:
        return Board(data, scenario_named(data["scenario"]), rng)

    def outcome(self, state: VmtState) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(result["winner"], result["reason"], {"axis VP": result["axis_vp"],
                                                            "soviet VP": result["soviet_vp"]})

    def score_now(self, state: VmtState) -> Outcome:
        """The outcome once over; otherwise more VP on the track now wins, equal VP a draw (L427, L429)."""
        outcome = self.outcome(state)
        if outcome is not None:
            return outcome
        board = self._board(state)
        winner, reason = sequence.verdict_now(board)
        return Outcome(winner, reason, {"axis VP": board.vp("axis"), "soviet VP": board.vp("soviet")})

    # ------------------------------------------------------------------ where the game stands

    def phase_label(self, state: VmtState) -> str:
        if state["result"] is not None:
            return "OVER"
        kinds = {f["kind"] for f in state["stack"]}
        if "setup" in kinds:
            return "SETUP"
        if "bombard" in kinds:
            return "T1-BOMBARDMENT"
        return f"T{state['turn']}-{(state['phase_side'] or 'axis').upper()}"

    def phase_title(self, state: VmtState) -> str:
        scenario = scenario_named(state["scenario"])
        if state["result"] is not None:
            return "the game is over"
        label = self.phase_label(state)
        dates = scenario.meta.turns[state["turn"] - 1].dates
        if label == "SETUP":
            return "free set-up"
        if label == "T1-BOMBARDMENT":
            return "Initial Bombardment, before turn 1 (June 7-9)"
        return f"turn {state['turn']} ({dates}), {(state['phase_side'] or 'axis').title()} action phase"

    def progress(self, state: VmtState) -> tuple[int, int]:
        scenario = scenario_named(state["scenario"])
        return state["turn"], len(scenario.meta.turns)

    # ------------------------------------------------------------------ views

    def secrets(self, state: VmtState, role: str) -> set[str]:
        """What only `role` knows now: where its blocks are with their strength (for leak tests)."""
        board = self._board(state)
        return {b for b in board.blocks_of(role)}

    # ------------------------------------------------------------------ data and demo

    def check_scenario(self, name: str) -> None:
        check_scenario(name)

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        """Demo players that read their reports and write orders (see bot.py)."""
        return brains(scenario_named(scenario))


engine = VmtEngine()
