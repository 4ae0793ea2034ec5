"""Sequence of Play (L118-154): action phases with play or pass, refills, the turn track;
Reinforcements (L406-423); Victory (L425-429)."""

from __future__ import annotations

from moderator.core.commitments import SETUP_REVEALED
from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.games.vmt import cardplay, fire
from moderator.games.vmt.board import SIDES, Board
from moderator.games.vmt.cards import purge_battery_cards, refill
from moderator.games.vmt.frames import answered, ask, new_frame, options_as_orders
from moderator.games.vmt.scenario import ReinforcementGroup
from moderator.games.vmt.state import PHASE_STEPS, GameResult, PhaseFrame

# ---------------------------------------------------------------- the action phase


def start_phase(board: Board, side: str) -> None:
    """A side's action phase begins (L138, L148)."""
    board.data["phase_side"] = side
    phase: PhaseFrame = new_frame(board, "phase", side=side, stage=PHASE_STEPS.first, played=False,
                                  bombardment=False, placing=[], air_window=False)
    board.push(phase)


def open_card_play(board: Board, side: str, bombardment: bool) -> None:
    """The card plays of the Initial Bombardment (L128) reuse the action phase's card decision."""
    plays: PhaseFrame = new_frame(board, "phase", side=side, stage="cards", played=False, bombardment=bombardment,
                                  placing=[], air_window=False)
    board.push(plays)


class Phase:
    """The handler of an action phase: reinforcements first, then cards one at a time, or a pass."""

    def decisions(self, board: Board, frame: PhaseFrame) -> list[Decision]:
        side = frame["side"]
        if frame["stage"] == "reinforce":
            group = axis_group_due(board)
            return [ask(frame, "axis", "reinforce",
                        f"Reinforcements: take the {group.name} ({', '.join(group.blocks)}) for "
                        f"{group.vp_cost} VP now, before any card?", ["REINFORCE NONE", "REINFORCE NEXT"],
                        "REINFORCE NONE")]
        if frame["stage"] == "place":
            block = frame["placing"][0]
            areas = reinforcement_areas(board, side, block)
            return [ask(frame, side, "place", f"Place the arriving {block}: where?",
                        [f"PLACE {block} {a}" for a in areas], f"PLACE {block} {areas[0]}")]
        if frame["stage"] == "cards":
            if frame["air_window"]:
                return [fire.between_cards_window(board, frame)]
            return [cardplay.card_decision(board, frame)]
        return []

    def legal(self, board: Board, frame: PhaseFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: PhaseFrame, decision: Decision, order: Order) -> None:
        side = frame["side"]
        if decision.kind == "reinforce":
            if order.get("what") == "NEXT":
                take_axis_group(board, frame)
            else:
                frame["stage"] = "cards"  # no group, nothing to place
        elif decision.kind == "place":
            block = frame["placing"][0]
            if str(order.get("block")) != block:
                raise IllegalOrder(f"place {block} first")
            area = str(order.get("area"))
            if area not in reinforcement_areas(board, side, block):
                raise IllegalOrder(f"{block} cannot arrive in {area}: {REINFORCEMENT_AREAS[side]}; legal: "
                                   f"{', '.join(reinforcement_areas(board, side, block))}")
            board.place(block, area)
            board.emit("reinforcement_placed", side=side, block=block, area=area)
            if board.controller(area) != side:
                board.take_control(area, side)
            frame["placing"].pop(0)
            if not frame["placing"]:
                frame["stage"] = PHASE_STEPS.after("place")
        elif decision.kind == "air":
            frame["air_window"] = False
            fire.apply_air(board, order)
        elif decision.kind == "card":
            answer_card_decision(board, frame, order)
        answered(frame)

    def step(self, board: Board, frame: PhaseFrame) -> bool:
        if frame["stage"] != "start":
            return False
        side = frame["side"]
        frame["stage"] = "cards"
        frame["air_window"] = side == "soviet"
        board.data["recent"] = []  # the map highlights what happened in this phase
        board.emit("phase", side=side, turn=board.turn)
        meta = board.scenario.meta
        if side == "soviet" and board.turn >= meta.soviet_reinforcement_first_turn:
            soviet_reinforcement_roll(board, frame)
        if side == "axis" and board.turn >= meta.axis_reinforcement_first_turn and next_axis_group(board) \
                and board.data["reinforcements"]["axis_turn"] != board.turn and axis_group_fits(board):
            frame["stage"] = "reinforce"
        return True


def answer_card_decision(board: Board, frame: PhaseFrame, order: Order) -> None:
    """END closes the phase (or the bombardment's plays), PASS passes it (L144), any other answer plays a card."""
    if order.form == "end":
        if not frame["played"] and not frame["bombardment"]:
            raise IllegalOrder("you have not played a card this phase: PASS instead")
        end_phase(board, frame, passed=False)
    elif order.form == "pass":
        if frame["bombardment"]:
            raise IllegalOrder("the Initial Bombardment has no Pass: play bombardment cards or END")
        pass_phase(board, frame, order)
    else:
        cardplay.play_card(board, frame, order)


def end_phase(board: Board, frame: PhaseFrame, passed: bool) -> None:
    """After each phase BOTH players refill (L146, L150); after the Soviet phase the turn ends (L154),
    and when that ends the game no hand is refilled (ruling R-END)."""
    side = frame["side"]
    board.pop()
    if frame["bombardment"]:
        return  # the bombardment frame below finishes the sequence
    final = side == "soviet" and game_ends_with_this_turn(board)
    if not final:
        for s in SIDES:
            refill(board, s)
        purge_battery_cards(board)
    if final:
        board.emit("phase_end", side=side, turn=board.turn, passed=passed, final=True)
    else:  # as before, so that an ordinary phase's end keeps its old event
        board.emit("phase_end", side=side, turn=board.turn, passed=passed)
    if side == "axis":
        start_phase(board, "soviet")
        return
    end_turn(board)


def axis_holds_every_vp_area(board: Board) -> bool:
    """The automatic decisive victory's condition (L427)."""
    vp_areas = [a.id for a in board.scenario.map.areas if a.vp]
    return all(board.controller(a) == "axis" and not board.has_battery(a) for a in vp_areas)


def game_ends_with_this_turn(board: Board) -> bool:
    """At the end of this turn the game ends: it is the last turn, or the Axis holds every VP area (L427)."""
    return board.turn >= len(board.scenario.meta.turns) or axis_holds_every_vp_area(board)


def end_turn(board: Board) -> None:
    """Automatic decisive victory at the end of any turn (L427); otherwise the next turn, or the end."""
    if axis_holds_every_vp_area(board):
        finish(board, "axis", "automatic decisive victory: the Axis controls every VP area")
        return
    last = len(board.scenario.meta.turns)
    board.emit("turn_end", turn=board.turn, axis_vp=board.vp("axis"), soviet_vp=board.vp("soviet"))
    if board.turn >= last:
        axis, soviet = board.vp("axis"), board.vp("soviet")
        if axis == soviet:
            finish(board, None, "equal VP at the end of the last turn")
        else:
            winner = "axis" if axis > soviet else "soviet"
            finish(board, winner, "more VP at the end of the last turn")  # the VP themselves: the result's score
        return
    board.data["turn"] += 1
    start_phase(board, "axis")


def verdict_now(board: Board) -> tuple[str | None, str]:
    """Who wins if the game stops now, the VP track being right "at any moment" (L429): more VP wins
    (L112, L427), equal VP is a draw (L114); the Axis total is already less its reinforcement payments."""
    axis, soviet = board.vp("axis"), board.vp("soviet")
    if axis == soviet:
        return None, "equal VP when the game stopped"
    winner = "axis" if axis > soviet else "soviet"
    return winner, "more VP when the game stopped"  # the VP themselves: the outcome's score


def finish(board: Board, winner: str | None, reason: str) -> None:
    """The game is over: the result, and no frame left to play (L427)."""
    result: GameResult = {"winner": winner, "reason": reason, "axis_vp": board.vp("axis"),
                          "soviet_vp": board.vp("soviet"), "turn": board.turn}
    board.data["result"] = result
    board.data["stack"] = []
    board.emit("game_over", winner=result["winner"], reason=result["reason"], axis_vp=result["axis_vp"],
               soviet_vp=result["soviet_vp"], turn=result["turn"])
    reveal_setups(board)


def reveal_setups(board: Board) -> None:
    """The game is over: each secret free set-up is revealed with its salt, so that both players (and
    `moderator verify`) can check it against the commitment announced when it was filed (L100)."""
    for side, secret in sorted(board.data.get("setup_secrets", {}).items()):
        board.emit(SETUP_REVEALED, side=side, placements=dict(secret["placements"]), salt=secret["salt"],
                   salt_draw=list(secret["salt_draw"]), commitment=board.data["setup_commitments"][side])


def pass_phase(board: Board, frame: PhaseFrame, order: Order) -> None:
    """Pass (L144, L324): play nothing; discard any cards; rally every exhausted block; withdraw assets."""
    side = frame["side"]
    if frame["played"]:
        raise IllegalOrder("you already played a card this phase; END it instead of passing")
    discards = [str(c).lower() for c in order.values("discards")]
    taken = [board.take_from_hand(side, t) for t in discards]
    for card in taken:
        board.discard(side, card)
    rallied = [b for b in board.blocks_of(side) if board.is_exhausted(b)]
    for block in rallied:
        board.block(block)["exhausted"] = False
    withdrawn = []
    for asset_id in order.values("withdraw"):
        asset = board.data["assets"].get(asset_id)
        if asset is None or asset["side"] != side or asset["status"] != "map":
            raise IllegalOrder(f"{asset_id} is not one of your assets on the map")
        asset.update({"status": "pool", "area": None, "steps": 2})  # back on its 2-step side (L144, L230)
        withdrawn.append(asset_id)
    board.emit("pass", side=side, discarded=[board.card_type(c) for c in taken], rallied=len(rallied),
               withdrawn=withdrawn)
    end_phase(board, frame, passed=True)


# ---------------------------------------------------------------- reinforcements (L406-423)


def soviet_reinforcement_roll(board: Board, frame: PhaseFrame) -> None:
    """From turn 2 the Soviet rolls 1d6 at the start of the phase; 1-2 brings the next brigade (L414)."""
    groups = board.scenario.reinforcement_groups("soviet")
    index = board.data["reinforcements"]["soviet"]
    if index >= len(groups):
        return
    die = board.roll(1, "Soviet reinforcement roll")[0]
    success = die.value in board.scenario.meta.soviet_reinforcement_roll
    group = groups[index]
    if not success:
        board.emit("soviet_reinforcement_roll", die=die.to_json(), success=False, brigade=None)
        return
    block = group.blocks[0]
    if not reinforcement_areas(board, "soviet", block):
        # No legal anchor area: the success is wasted and the same brigade waits (ruling R-REINF).
        board.emit("soviet_reinforcement_roll", die=die.to_json(), success=True, brigade=block, wasted=True)
        return
    board.data["reinforcements"]["soviet"] += 1
    board.emit("soviet_reinforcement_roll", die=die.to_json(), success=True, brigade=block)
    frame["placing"] = list(group.blocks)
    frame["stage"] = "place"


def axis_group_due(board: Board) -> ReinforcementGroup:
    """The Axis group the reinforce stage offers; raises ValueError when none is left."""
    group = next_axis_group(board)
    if group is None:
        raise ValueError("no Axis reinforcement group is left")
    return group


def next_axis_group(board: Board) -> ReinforcementGroup | None:
    groups = board.scenario.reinforcement_groups("axis")
    index = board.data["reinforcements"]["axis"]
    return groups[index] if index < len(groups) else None


def axis_group_fits(board: Board) -> bool:
    group = next_axis_group(board)
    room = sum(max(0, board.room_in(a.id, "axis")) for a in board.scenario.areas_where(axis_edge=True)
               if not board.is_enemy_occupied(a.id, "axis"))
    return group is not None and room >= len(group.blocks)


def take_axis_group(board: Board, frame: PhaseFrame) -> None:
    """The next group, in the fixed order, for its VP cost subtracted at once (L418-423, L112)."""
    if frame["played"]:
        raise IllegalOrder("reinforcements come before any card is played")
    group = next_axis_group(board)
    if group is None:
        raise IllegalOrder("no Axis reinforcement group is left")
    board.data["reinforcements"]["axis"] += 1
    board.data["reinforcements"]["axis_turn"] = board.turn
    board.data["vp_paid"] += group.vp_cost
    board.emit("axis_reinforcement", group=group.id, name=group.name, blocks=list(group.blocks), vp=group.vp_cost)
    frame["placing"] = list(group.blocks)
    frame["stage"] = PHASE_STEPS.after("reinforce")


#: Where each side's reinforcements arrive, told when a placement is refused.
REINFORCEMENT_AREAS = {
    "soviet": "a Soviet brigade arrives in an anchor area the Axis does not control, with room",
    "axis": "Axis reinforcements arrive in a North, East or South map-edge area with room and no enemy blocks",
}


def reinforcement_areas(board: Board, side: str, block: str) -> list[str]:
    """Soviet: anchor areas not Axis-controlled with room (L414).  Axis: map-edge areas where the
    blocks can legally stack, not enemy-occupied (L423; ruling R-REINF)."""
    areas = []
    for area in board.scenario.map.areas:
        if board.room_in(area.id, side) <= 0 or board.is_enemy_occupied(area.id, side):
            continue
        if side == "soviet" and area.anchor and board.controller(area.id) != "axis":
            areas.append(area.id)
        if side == "axis" and area.axis_edge:
            areas.append(area.id)
    return areas
