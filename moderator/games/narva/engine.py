"""Across the Narva as a moderator engine (the contract of DESIGN §3)."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from moderator.core.contract import REFEREE, Decision, Event, OptionSpec, Outcome, ScenarioInfo, StandingDefault
from moderator.core.frames import FrameStackEngine
from moderator.core.rng import Rng
from moderator.games.narva import actions, advance, barrage, combat, command, hq, losses, reinforce, retreat, sequence
from moderator.games.narva.board import SIDES, Board
from moderator.games.narva.orders import GRAMMAR
from moderator.games.narva.setup import STATE_VERSION, initial_state, scenario_named

HANDLERS = {
    "turn": sequence.Turn(), "cup": command.CommandPhase(), "command": command.CommandActivation(),
    "activation": command.Activation(), "combat": combat.Combat(), "losses": losses.Losses(),
    "retreat": retreat.Retreat(), "overstack": retreat.Overstack(), "advance": advance.Advance(),
    "displace": hq.Displace(), "barrage": barrage.Barrage(), "stavka": actions.Stavka(),
    "freemove": actions.FreeMove(), "regroup": actions.Regroup(), "rebuild": actions.Rebuild(),
    "reinforce": reinforce.Reinforce(), "coastal": reinforce.Coastal(),
}

OPTIONS = [
    OptionSpec("fog", "on", ("on", "off"), "the optional fog of war (2.1.3): enemy stacks show their top unit only"),
    OptionSpec("fog_stack_height", "shown", ("shown", "hidden"), "under fog, may players see how many counters an "
               "enemy stack holds (ruling N-57)"),
    OptionSpec("ezoc_retreat_loss", "strongest", ("strongest", "owner"),
               "who takes the step for retreating into an enemy ZOC: the strongest unit (9.5.3D) or the owner's "
               "choice (5.4D) (ruling N-16)"),
    OptionSpec("corps_choice", "any", ("any", "own_army"), "may an Army HQ activate any corps HQ in its radius, or "
               "only its own army's (4.1.1D, ruling N-21)"),
    OptionSpec("rp_timing", "immediate", ("immediate", "bank"), "replacement points are spent when the event "
               "happens (unspent lost) or banked for the German Reinforcement Segment (ruling N-44)"),
    OptionSpec("free_move_hq", "corps", ("corps", "any"), "which Soviet HQ a Free Move may activate (2.5.4, ruling N-25)"),
]

STANDING = [
    # Without an ON line or a standing order for a chit the player is not asked: the chit passes.
    # "ASK HQ" (or "STANDING HQ IF CHIT 59: ASK") makes the moderator stop and ask instead.
    StandingDefault("hq", "PASS"), StandingDefault("attach", "ATTACH NONE"), StandingDefault("move", "MOVE DONE"),
    StandingDefault("attack", "ATTACK DONE"), StandingDefault("loss", "LOSS AUTO"),
    StandingDefault("retreat", "RETREAT AUTO"), StandingDefault("advance", "ADVANCE AUTO"),
    StandingDefault("displace", "DISPLACE AUTO"), StandingDefault("barrage", "BARRAGE AUTO"),
    StandingDefault("stavka", "STAVKA AUTO"), StandingDefault("freemove", "FREEMOVE NONE"),
    StandingDefault("regroup", "REGROUP NONE"), StandingDefault("rebuild", "REBUILD AUTO"),
    StandingDefault("reroute", "REROUTE NONE"), StandingDefault("place", "PLACE AUTO"),
    StandingDefault("land", "LAND NONE"), StandingDefault("coastal", "COASTAL FIRE"),
    StandingDefault("improve", "IMPROVE AUTO"),
]


class NarvaEngine(FrameStackEngine):
    id = "narva"
    title = "Across the Narva"
    grammar = GRAMMAR
    handlers = HANDLERS
    templates_dir = None

    # ------------------------------------------------------------------ metadata

    def scenarios(self) -> Sequence[ScenarioInfo]:
        return [ScenarioInfo("campaign", "The Soviet assault on Estonia, 2 February - 25 April 1944", SIDES,
                             "Twelve weekly turns on the Narva front; chits drawn from one cup.")]

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
        for spec in OPTIONS:
            if chosen[spec.name] not in spec.choices:
                raise ValueError(f"option {spec.name} must be one of {', '.join(map(str, spec.choices))}")
        data = initial_state(scenario_named(scenario), scenario, chosen)
        board = Board(data, scenario_named(scenario), rng)
        sequence.start_turn(board)
        self._settle(board)
        return data

    def dump_state(self, state: dict[str, Any]) -> str:
        return json.dumps(state, sort_keys=True, separators=(",", ":"))

    def load_state(self, text: str) -> dict[str, Any]:
        state = json.loads(text)
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"Narva state version {state.get('version')} is not {STATE_VERSION}")
        return state

    def make_board(self, data: dict[str, Any], rng: Rng | None) -> Board:
        return Board(data, scenario_named(data["scenario"]), rng)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(result["winner"], result["reason"], {"Soviet VP": result["vp"], "level": result["level"]})

    def period(self, state: dict[str, Any]) -> str:
        """Keyed (ON) orders last one turn."""
        return f"T{state['turn']}"

    def phase_label(self, state: dict[str, Any]) -> str:
        if state["result"] is not None:
            return "OVER"
        kinds = [f["kind"] for f in state["stack"]]
        turn_frame = next((f for f in state["stack"] if f["kind"] == "turn"), None)
        stage = turn_frame["stage"] if turn_frame else ""
        if stage == "ready":
            return f"T{state['turn']}-ORDERS"
        if "reinforce" in kinds or stage == "supply":
            return f"T{state['turn']}-REINFORCEMENTS"
        if stage in ("improve", "advance", "next", "sudden_death"):
            return f"T{state['turn']}-END"
        return f"T{state['turn']}-COMMAND"

    def phase_title(self, state: dict[str, Any]) -> str:
        if state["result"] is not None:
            return "the game is over"
        scenario = scenario_named(state["scenario"])
        label = self.phase_label(state).split("-", 1)[1]
        what = {"ORDERS": "orders for the turn", "COMMAND": "Command Phase", "REINFORCEMENTS": "Reinforcement Phase",
                "END": "End of Turn"}[label]
        return f"turn {state['turn']} ({scenario.turn(state['turn']).dates}), {what}"

    def progress(self, state: dict[str, Any]) -> tuple[int, int]:
        return state["turn"], scenario_named(state["scenario"]).meta.last_turn

    # ------------------------------------------------------------------ views

    def view(self, state: dict[str, Any], role: str) -> dict[str, Any]:
        from moderator.games.narva.views import build_view

        return build_view(self._board(state), role)

    def lexicon(self, state: dict[str, Any], role: str):
        from moderator.games.narva.views import lexicon_for

        return lexicon_for(self._board(state), role)

    def narrate(self, event: Event, role: str) -> str:
        from moderator.games.narva.narrate import narrate

        return narrate(event, role)

    def condition(self, name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
        from moderator.games.narva.conditions import evaluate

        return evaluate(name, view, decision, args)

    def secrets(self, state: dict[str, Any], role: str) -> set[str]:
        """Under fog: the ids of `role`'s units hidden beneath the top of their stacks now."""
        board = self._board(state)
        if not board.fog or role == REFEREE:
            return set()
        hidden: set[str] = set()
        for units in board.occupied_hexes().values():
            if board.side_of(units[0]) == role:
                hidden.update(units[1:])
        return hidden

    def map_png(self, view: Mapping[str, Any]) -> bytes | None:
        from moderator.games.narva.mapdraw import draw_map

        return draw_map(view)

    def map_detail_png(self, view: Mapping[str, Any]) -> bytes | None:
        from moderator.games.narva.mapdraw import draw_detail

        return draw_detail(view)

    def demo_brains(self) -> dict[str, Any]:
        from moderator.games.narva.bot import brains

        return brains()


engine = NarvaEngine()
