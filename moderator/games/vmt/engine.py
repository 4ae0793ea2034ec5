"""Von Manstein's Triumph as a moderator engine (the contract of DESIGN §3)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from moderator.core.contract import (OBSERVER, REFEREE, Decision, Event, OptionSpec, Outcome, ScenarioInfo,
                                     StandingDefault)
from moderator.core.frames import FrameStackEngine
from moderator.core.rng import Rng
from moderator.games.vmt import activation, combat, fire, sequence, setup
from moderator.games.vmt.board import SIDES, Board
from moderator.games.vmt.orders import GRAMMAR
from moderator.games.vmt.scenario import Scenario, load_scenario
from moderator.games.vmt.views import build_view, lexicon_for

STATE_VERSION = 1

HANDLERS = {
    "setup": setup.FreeSetup(), "bombard": setup.Bombardment(), "phase": sequence.Phase(),
    "activation": activation.Activation(), "combat": combat.Combat(), "strike": fire.Strike(),
    "cover_order": fire.CoverOrder(), "window": fire.Window(),
}

OPTIONS = [
    OptionSpec("setup", "historical", ("historical", "free"),
               "historical set-up (reconstructed Playbook) or a secret free set-up filed by both sides"),
    OptionSpec("tie_winner", "attacker", ("attacker", "defender"),
               "who wins a combat with equal hits when no trench decides it (ruling R-WIN)"),
    OptionSpec("minefield_effect", "cancel_hit", ("cancel_hit", "extra_die", "none"),
               "what a Minefield marker does for a Soviet defender (ruling R-MINES)"),
    OptionSpec("field_of_fire", "adjacent_enemy", ("adjacent_enemy", "enemy_controlled"),
               "which retreats count as 'into an enemy field of fire' (ruling R-FIRE)"),
    OptionSpec("retreat_into", "friendly", ("friendly", "friendly_or_empty"),
               "may a loser retreat into empty enemy-controlled areas (at +1 loss)? (ruling R-RETREAT)"),
    OptionSpec("pioneer_roll", "acted", ("acted", "always"),
               "which pioneers roll for self-loss after a combat (ruling R-PIONEER)"),
    OptionSpec("initial_bombardment", True, (True, False), "play the Initial Bombardment (L122-136)"),
]

STANDING = [
    StandingDefault("coordinate", "COORDINATE NONE"), StandingDefault("assets", "ASSETS NONE"),
    StandingDefault("support", "SUPPORT NONE"), StandingDefault("hits", "HITS AUTO"),
    StandingDefault("retreat", "RETREAT AUTO"), StandingDefault("keep", "KEEP AUTO"),
    StandingDefault("counterattack", "COUNTERATTACK NONE"), StandingDefault("air", "AIRSTRIKE NONE"),
    StandingDefault("cover", "COVER NONE"),
    # Fighter Escort has no other use, so it is played when held (digest §3.3, A11); without the
    # card the standing answer is illegal and the default NONE applies just as fast.
    StandingDefault("escort", "ESCORT"),
]


@lru_cache(maxsize=4)
def scenario_named(name: str) -> Scenario:
    return load_scenario(name)


class VmtEngine(FrameStackEngine):
    id = "vmt"
    title = "Von Manstein's Triumph"
    grammar = GRAMMAR
    handlers = HANDLERS
    settle_limit = 10_000

    # ------------------------------------------------------------------ metadata

    def scenarios(self) -> Sequence[ScenarioInfo]:
        return [ScenarioInfo("campaign", "The campaign, June 7 to July 14, 1942", SIDES,
                             "The Axis assault on Sevastopol; 13 turns.")]

    def option_specs(self) -> Sequence[OptionSpec]:
        return OPTIONS

    def roles(self, scenario: str) -> tuple[str, ...]:
        return SIDES

    def standing_defaults(self) -> Sequence[StandingDefault]:
        return STANDING

    # ------------------------------------------------------------------ state

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        chosen = {spec.name: spec.default for spec in OPTIONS}
        chosen.update(options)
        data = setup.initial_state(scenario_named(scenario), chosen, rng)
        board = Board(data, scenario_named(scenario), rng)
        setup.deal(board)
        if chosen["setup"] == "free":
            from moderator.games.vmt.frames import new_frame

            board.push(new_frame(board, "setup", filed=[], placements={s: {} for s in SIDES}, salts={}))
        else:
            setup.start_bombardment(board)
        self._settle(board)
        return data

    def dump_state(self, state: dict[str, Any]) -> str:
        return json.dumps(state, sort_keys=True, separators=(",", ":"))

    def load_state(self, text: str) -> dict[str, Any]:
        state = json.loads(text)
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"VMT state version {state.get('version')} is not {STATE_VERSION}")
        return state

    def make_board(self, data: dict[str, Any], rng: Rng | None) -> Board:
        return Board(data, scenario_named(data["scenario"]), rng)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(result["winner"], result["reason"], {"axis VP": result["axis_vp"],
                                                            "soviet VP": result["soviet_vp"]})

    def phase_label(self, state: dict[str, Any]) -> str:
        if state["result"] is not None:
            return "OVER"
        kinds = {f["kind"] for f in state["stack"]}
        if "setup" in kinds:
            return "SETUP"
        if "bombard" in kinds:
            return "T1-BOMBARDMENT"
        return f"T{state['turn']}-{(state['phase_side'] or 'axis').upper()}"

    def phase_title(self, state: dict[str, Any]) -> str:
        scenario = scenario_named(state["scenario"])
        if state["result"] is not None:
            return "the game is over"
        label = self.phase_label(state)
        dates = scenario.meta.turns[state["turn"] - 1].dates
        if label == "SETUP":
            return "free set-up"
        if label == "T1-BOMBARDMENT":
            return "Initial Bombardment, before turn 1 (June 7-9)"
        return f"turn {state['turn']} ({dates}), {state['phase_side'].title()} action phase"

    def progress(self, state: dict[str, Any]) -> tuple[int, int]:
        scenario = scenario_named(state["scenario"])
        return state["turn"], len(scenario.meta.turns)

    # ------------------------------------------------------------------ views

    def view(self, state: dict[str, Any], role: str) -> dict[str, Any]:
        return build_view(self._board(state), role)

    def lexicon(self, state: dict[str, Any], role: str):
        return lexicon_for(self._board(state), role)

    def narrate(self, event: Event, role: str) -> str:
        from moderator.games.vmt.narrate import narrate

        return narrate(event, role)

    def condition(self, name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
        from moderator.games.vmt.conditions import evaluate

        return evaluate(name, view, decision, args)

    def secrets(self, state: dict[str, Any], role: str) -> set[str]:
        """What only `role` knows now: where its blocks are with their strength (for leak tests)."""
        board = self._board(state)
        return {b for b in board.blocks_of(role)}

    def map_png(self, view: Mapping[str, Any]) -> bytes | None:
        from moderator.games.vmt.mapdraw import draw_map

        return draw_map(view)

    def map_detail_png(self, view: Mapping[str, Any]) -> bytes | None:
        from moderator.games.vmt.mapdraw import draw_detail

        return draw_detail(view)

    def demo_brains(self) -> dict[str, Any]:
        """Demo players that read their reports and write orders (see bot.py)."""
        from moderator.games.vmt.bot import brains

        return brains()

    templates_dir = None


engine = VmtEngine()
