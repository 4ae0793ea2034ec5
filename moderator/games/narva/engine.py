"""Across the Narva as a moderator engine (the contract of DESIGN §3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
from moderator.core.rng import Rng
from moderator.games.narva import (
    actions,
    advance,
    barrage,
    combat,
    command,
    conditions,
    hq,
    losses,
    mapdraw,
    narrate,
    reinforce,
    retreat,
    sequence,
    tables_text,
)
from moderator.games.narva.activation import every_move
from moderator.games.narva.board import SIDES, Board
from moderator.games.narva.bot import brains
from moderator.games.narva.names import lexicon_for
from moderator.games.narva.orders import GRAMMAR
from moderator.games.narva.scenario import check_scenario, scenario_named
from moderator.games.narva.setup import STATE_VERSION, initial_state
from moderator.games.narva.state import NarvaState
from moderator.games.narva.views import build_view

HANDLERS: Mapping[str, Handler[Board, Any]] = {
    "turn": sequence.Turn(), "cup": command.CommandPhase(), "command": command.CommandActivation(),
    "activation": command.Activation(), "combat": combat.Combat(), "losses": losses.Losses(),
    "retreat": retreat.Retreat(), "overstack": retreat.Overstack(), "advance": advance.Advance(),
    "displace": hq.Displace(), "barrage": barrage.Barrage(), "stavka": actions.Stavka(),
    "freemove": actions.FreeMove(), "regroup": actions.Regroup(), "rebuild": actions.Rebuild(),
    "reinforce": reinforce.Reinforce(), "coastal": reinforce.Coastal(),
}

# The move question lists MOVE DONE only (every reachable hex of every unit takes 20 ms to find);
# OPTIONS lists them all (FrameStackEngine.answers).
MORE_ANSWERS: Mapping[str, Callable[[Any, Any, Decision], list[str]]] = {
    "command": every_move, "activation": every_move}

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
    OptionSpec("free_move_hq", "corps", ("corps", "any"),
               "which Soviet HQ a Free Move may activate (2.5.4, ruling N-25)"),
]

STANDING = [
    # Without an ON line or a standing order for a chit the player is not asked: the chit passes.
    # "ASK HQ" (or "STANDING HQ IF CHIT 59: ASK") makes the moderator stop and ask instead.
    StandingDefault("hq", "PASS"), StandingDefault("attach", "ATTACH NONE"), StandingDefault("move", "MOVE DONE"),
    StandingDefault("attack", "ATTACK DONE"), StandingDefault("loss", "LOSS AUTO"),
    StandingDefault("retreat", "RETREAT AUTO"), StandingDefault("advance", "ADVANCE AUTO"),
    StandingDefault("displace", "DISPLACE AUTO"), StandingDefault("barrage", "BARRAGE AUTO"),
    StandingDefault("stavka", "STAVKA AUTO", ("soviet",)), StandingDefault("freemove", "FREEMOVE NONE", ("soviet",)),
    StandingDefault("regroup", "REGROUP NONE"), StandingDefault("rebuild", "REBUILD AUTO"),
    StandingDefault("reroute", "REROUTE NONE", ("german",)), StandingDefault("place", "PLACE AUTO"),
    StandingDefault("land", "LAND NONE", ("soviet",)), StandingDefault("coastal", "COASTAL FIRE", ("german",)),
    StandingDefault("improve", "IMPROVE AUTO", ("german",)),
]


INFO = GameInfo(
    id="narva", title="Across the Narva",
    scenarios=(ScenarioInfo("campaign", "The Soviet assault on Estonia, 2 February - 25 April 1944", SIDES,
                            "Twelve weekly turns on the Narva front; chits drawn from one cup."),),
    options=tuple(OPTIONS), standing_defaults=tuple(STANDING), state_version=STATE_VERSION,
    # The detail image is the whole map's drawing at a larger scale round the latest action: a mail
    # with the whole map shows all it shows (mail bytes, issue 12); later mails of a turn carry it alone.
    detail_with_whole_map=False,
    # 4.1.1: each command chit drawn opens an activation with its own attach, move and attack questions
    # (a script's round: core/script_order.py)
    opening_kinds=("hq",),
    # the questions only the activating player is asked in an activation (and in the reinforcements'
    # own move, 8.0B): a trailing MOVE DONE or ATTACK DONE whose segment ended by itself lapses with its
    # round.  Losses, retreats and displacements are not among them: they are asked in the other
    # side's activations too, and a line written for one must not stamp the lines after it.
    round_kinds=("attach", "move", "attack", "advance"))


class NarvaEngine(FrameStackEngine[NarvaState]):
    info = INFO
    grammar = GRAMMAR
    handlers = HANDLERS
    functions = BoardFunctions(build_view, lexicon_for, narrate.narrate, conditions.evaluate, mapdraw.draw_map,
                               mapdraw.draw_detail)
    more_answers = MORE_ANSWERS

    # ------------------------------------------------------------------ state

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> NarvaState:
        chosen = INFO.chosen_options(options)
        data = initial_state(scenario_named(scenario), scenario, chosen)
        board = Board(data, scenario_named(scenario), rng)
        sequence.start_turn(board)
        self.settle(board)
        return data

    def make_board(self, data: NarvaState, rng: Rng | None) -> Board:
        return Board(data, scenario_named(data["scenario"]), rng)

    def outcome(self, state: NarvaState) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(result["winner"], result["reason"], {"Soviet VP": result["vp"], "level": result["level"]})

    def reference_tables(self) -> list[str]:
        """The CRT the moderator uses, which the rulebook does not print (9.1; tables_text.py)."""
        return tables_text.crt_lines()

    def score_now(self, state: NarvaState) -> Outcome:
        """The outcome once over; otherwise the 13.2 victory level of the Soviet VP held now (13.3)."""
        outcome = self.outcome(state)
        if outcome is not None:
            return outcome
        result = sequence.verdict_now(self._board(state))
        return Outcome(result["winner"], result["reason"], {"Soviet VP": result["vp"], "level": result["level"]})

    # ------------------------------------------------------------------ where the game stands

    def period(self, state: NarvaState) -> str:
        """Keyed (ON) orders last one turn."""
        return f"T{state['turn']}"

    def phase_label(self, state: NarvaState) -> str:
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

    def phase_title(self, state: NarvaState) -> str:
        if state["result"] is not None:
            return "the game is over"
        scenario = scenario_named(state["scenario"])
        label = self.phase_label(state).split("-", 1)[1]
        what = {"ORDERS": "orders for the turn", "COMMAND": "Command Phase", "REINFORCEMENTS": "Reinforcement Phase",
                "END": "End of Turn"}[label]
        return f"turn {state['turn']} ({scenario.turn(state['turn']).dates}), {what}"

    def progress(self, state: NarvaState) -> tuple[int, int]:
        return state["turn"], scenario_named(state["scenario"]).meta.last_turn

    # ------------------------------------------------------------------ views

    def secrets(self, state: NarvaState, role: str) -> set[str]:
        """Under fog: the ids of `role`'s units hidden beneath the top of their stacks now (the HQ
        each side activated last is public all the same, 4.1.2D)."""
        board = self._board(state)
        if not board.fog or role == REFEREE:
            return set()
        hidden: set[str] = set()
        for units in board.occupied_hexes().values():
            if board.side_of(units[0]) == role:
                hidden.update(units[1:])
        return hidden - {hq for hq in state["last_hq"].values() if hq}

    # ------------------------------------------------------------------ data and demo

    def check_scenario(self, name: str) -> None:
        check_scenario(name)

    def bots(self, scenario: str) -> Mapping[str, Brain]:
        return brains(scenario_named(scenario))


engine = NarvaEngine()
