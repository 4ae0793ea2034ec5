"""The Command Phase (2.3-2.5, 4.1-4.2): chits drawn from one cup, HQs activated within the
turn's limits, and the action chits.

Every chit drawn is public (it lands on the Activations Track or is resolved on the table).  A
command chit of a side that has used up its activations this turn is drawn and counts, but
activates nothing (4.1.1B, ruling N-19).  The phase ends when the last command chit is drawn
(2.5C), even if action chits remain in the cup.
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import Automatic, Stage, StageSequence, answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva import activation as act
from moderator.games.narva.actions import resolve_action
from moderator.games.narva.barrage import start_barrages
from moderator.games.narva.board import Board, as_side
from moderator.games.narva.entry_stacking import settle_overstack
from moderator.games.narva.hq import army_spans, in_command_range, outside_army_span
from moderator.games.narva.state import ActivationFrame, CommandFrame, CommandStage, CupFrame
from moderator.games.narva.supply import hex_supplied, supplied_hexes

# A command chit's activation, in the rules' order.
COMMAND_STAGES: StageSequence[CommandStage] = StageSequence(
    Stage("hq", "4.1.1C-F: the drawn chit's HQ (or a Soviet Army HQ relocates instead, 4.1.3)"),
    Stage("attach", "4.2.1A: units not of the HQ's formation join it"),
    Stage("move", "4.0A, 6.0: the Movement Segment"),
    Stage("attack", "4.0A, 9.0: the Combat Segment"),
    Stage("end", "4.2.1B: the chit goes onto the Activations Track"),
)


def command_chits_left(board: Board) -> bool:
    return any(board.scenario.chit(c).kind == "command" for c in board.data["cup"])


def draw_chit(board: Board) -> str:
    cup = board.data["cup"]
    pre = board.data.get("preplayed")
    if pre:
        # 14.10A: the Soviets start Turn 1 with a 2nd Shock chit, played as if drawn (ruling N-15)
        board.data["preplayed"] = None
        cup.remove(pre)
        return pre
    assert board.rng is not None
    draw = board.rng.below(len(cup), stream="cup", purpose="chit draw")
    return cup.pop(draw.value)


class CommandPhase(Automatic[Board, CupFrame]):
    """Draws chits one at a time and pushes what each one starts."""

    def step(self, board: Board, frame: CupFrame) -> bool:
        # Draws go on while any command chit is in the cup, over-limit ones too; action chits still in
        # the cup then stay for the next turn (ruling N-20).
        if not command_chits_left(board):
            board.pop()
            left = sorted(board.data["cup"])
            board.emit("command_phase_over", action_chits_left=left)
            return True
        chit_id = draw_chit(board)
        chit = board.scenario.chit(chit_id)
        frame["draws"] += 1
        if chit.kind == "action":
            board.data["drawn_actions"].append(chit_id)
            board.emit("chit_drawn", chit=chit_id, name=chit.name, chit_kind="action", n=frame["draws"])
            resolve_action(board, chit_id)
        else:
            use_command_chit(board, frame, chit_id)
        return True


def use_command_chit(board: Board, frame: CupFrame, chit_id: str) -> None:
    """4.1.1B-C: the chit counts against its side's limit and goes onto the Activations Track; within
    the limit, its side becomes active and chooses the HQ."""
    chit = board.scenario.chit(chit_id)
    side = as_side(chit.side)  # a command chit is its group's side's (4.1.1)
    limit = board.scenario.activation_limit(board.turn, side)
    used = board.data["used"][side]
    board.data["used"][side] = used + 1
    board.data["tracks"][side].append(chit_id)
    if used >= limit:
        board.emit("chit_drawn", chit=chit_id, name=chit.name, chit_kind="command", side=side, n=frame["draws"],
                   activation=None, limit=limit)
        board.emit("chit_unused", chit=chit_id, side=side,
                   reason=f"the {side} limit of {limit} activations this turn is reached (4.1.1B)")
        return
    board.emit("chit_drawn", chit=chit_id, name=chit.name, chit_kind="command", side=side, n=frame["draws"],
               activation=used + 1, limit=limit)
    board.data["active_side"] = side
    board.data["recent_activation"] = []
    board.push(new_frame(board.data, "command", side=side, chit=chit_id, chit_group=chit.group,
                         stage=COMMAND_STAGES.first, mode="command", hq=None, movers=[], fighters=[], moved=[],
                         attacked=[], ferries=[], context={"chit": chit.group, "chit_id": chit_id}))


def activated_hq(frame: CommandFrame) -> str:
    """The HQ the chit activated; raises ValueError before one is chosen (the "hq" stage)."""
    hq = frame["hq"]
    if hq is None:
        raise ValueError(f"command frame {frame['id']} has activated no HQ yet")
    return hq


def eligible_hqs(board: Board, frame: CommandFrame) -> list[str]:
    """The HQs the drawn chit may activate (4.1.1D-F, 4.1.2A, 4.2.3D)."""
    side = frame["side"]
    group = board.scenario.command_group(frame["chit_group"])
    last = board.data["last_hq"][side]
    if side == "german":
        out = []
        for hq in group.hqs:
            if not board.is_on_map(hq) or hq == last:
                continue  # 4.1.2A: not twice in a row
            if "strachwitz" in board.unit(hq).special and board.data["strachwitz_used"]:
                continue  # 4.2.3D: once per turn
            out.append(hq)
        return out
    army = group.hqs[0]
    if not board.is_on_map(army):
        return []
    reach = board.unit(army).command_range or 0
    army_formation = board.unit(army).formation
    out = []
    for uid in board.units_of("soviet"):
        if not board.is_hq(uid) or board.is_army_hq(uid) or uid == last:
            continue
        if board.scenario.distance(board.hex_on_map(army), board.hex_on_map(uid)) > reach:
            continue  # 4.1.1D: a corps HQ in the Army HQ's command radius
        if (board.options["corps_choice"] == "own_army"
                and board.hq_formation(uid).parent != army_formation):
            continue
        out.append(uid)
    return sorted(out)


def why_not_eligible(board: Board, frame: CommandFrame, hq: str) -> str:
    """Why `eligible_hqs` leaves this HQ out, with the rule, as a player is told it."""
    side = frame["side"]
    group = board.scenario.command_group(frame["chit_group"])
    if hq == board.data["last_hq"][side]:
        return "it activated last time (4.1.2)"
    if side == "german":
        if hq not in group.hqs:
            return f"the {group.name} chit does not activate it (4.1.1E-F)"
        if "strachwitz" in board.unit(hq).special and board.data["strachwitz_used"]:
            return "Strachwitz may be activated only once a turn (4.2.3D)"
        return "it is not on the map"
    army = group.hqs[0]
    if not board.is_on_map(army):
        return f"{board.unit(army).name} is not on the map"
    if not board.is_hq(hq) or board.is_army_hq(hq) or board.side_of(hq) != "soviet":
        return "an Army HQ chit activates a Soviet corps HQ (4.1.1D)"
    if not board.is_on_map(hq):
        return "it is not on the map"
    distance = board.scenario.distance(board.hex_on_map(army), board.hex_on_map(hq))
    reach = board.unit(army).command_range or 0
    if distance > reach:
        return (f"it is {distance} hexes from {board.unit(army).name}, beyond its command radius of {reach} "
                f"(4.1.1D)")
    if board.options["corps_choice"] == "own_army":
        return f"with the option corps_choice=own_army, {board.unit(army).name} activates only its own corps " \
               f"(4.1.1D, ruling N-21)"
    return "this chit does not activate it (4.1.1D)"


def why_not_attachable(board: Board, frame: CommandFrame, uid: str) -> str:
    """Why `attachable` leaves this unit out, with the rule, as a player is told it."""
    hq = activated_hq(frame)
    if board.is_hq(uid):
        return "an HQ is not attached (4.2.1A)"
    if board.unit(uid).formation == board.unit(hq).formation and "strachwitz" not in board.unit(hq).special:
        return f"it is of {board.unit(hq).name}'s own formation, activated with it (4.2.1A)"
    if uid in frame["movers"]:
        return "it is activated already"
    return f"it is not within {board.unit(hq).name}'s command range of {board.unit(hq).command_range or 0} (4.2.4A-B)"


def relocation_hexes(board: Board, army: str) -> list[str]:
    """4.1.3 with ruling N-23: supplied, not in an enemy ZOC, not enemy-held, no other HQ there,
    outside the other Army HQs' span."""
    hexes = supplied_hexes(board, "soviet")
    spans = army_spans(board, army)
    out = []
    for h in board.scenario.hex_ids():
        if h == board.hex_of(army) or board.scenario.hex(h).water or board.enemy_in(h, "soviet") or board.hqs_at(h):
            continue
        if board.in_enemy_zoc(h, "soviet") or not hex_supplied(board, "soviet", h, hexes):
            continue
        if outside_army_span(board, army, h, spans):
            out.append(h)
    return out


def agn_extras(board: Board, frame: CommandFrame) -> list[str]:
    """2.4.2B: the combat units Army Group Narwa may name as extras: its side's, on the map, not pinned,
    not already moving in this activation (ruling N-24)."""
    return [u for u in board.units_of(frame["side"]) if board.is_on_map(u) and not board.is_hq(u)
            and u not in frame["movers"] and not board.is_pinned(u)]


def attachment_limit(board: Board, hq: str) -> int:
    """4.2.1A: three units not of the HQ's formation; Strachwitz four (4.2.3B)."""
    return act.STRACHWITZ_ATTACHMENTS if "strachwitz" in board.unit(hq).special else act.ATTACHMENTS


def attachable(board: Board, frame: CommandFrame) -> list[str]:
    """4.2.1A: units not of the HQ's formation (independent or other formations) within range; so a unit
    set up beyond its own HQ's range serves a nearby HQ instead (ruling N-53)."""
    hq = activated_hq(frame)
    own = board.unit(hq).formation
    out = []
    for uid in board.units_of(frame["side"]):
        if uid in frame["movers"] or board.is_hq(uid):
            continue
        if board.unit(uid).formation == own and "strachwitz" not in board.unit(hq).special:
            continue
        if in_command_range(board, hq, uid):
            out.append(uid)
    return sorted(out)


class CommandActivation(act.Moves):
    """A command chit's activation: choose the HQ (or relocate a Soviet Army HQ), attachments,
    Strachwitz's barrage, then move and attack."""

    def decisions(self, board: Board, frame: CommandFrame) -> list[Decision]:
        stage = frame["stage"]
        if stage == "hq":
            return [self._hq_decision(board, frame)]
        if stage == "attach":
            return [self._attach_decision(board, frame)]
        if stage == "move":
            return [self.move_decision(board, frame)]
        if stage == "attack":
            return [self.attack_decision(board, frame)]
        return []

    def _hq_decision(self, board: Board, frame: CommandFrame) -> Decision:
        side = frame["side"]
        hqs = eligible_hqs(board, frame)
        name = board.scenario.chit(frame["chit"]).name
        options = [f"ACTIVATE {h}" for h in hqs] + ["PASS"]
        army = board.scenario.command_group(frame["chit_group"]).hqs[0] if side == "soviet" else None
        if army is not None and board.is_on_map(army):
            options += [f"RELOCATE TO {h}" for h in sorted(relocation_hexes(board, army))]
        extra = " Or RELOCATE TO <hex> to move the Army HQ instead (4.1.3)." if side == "soviet" else ""
        prompt = (f"Chit {name} drawn (activation {board.data['used'][side]} of "
                  f"{board.scenario.activation_limit(board.turn, side)} this turn): which HQ? "
                  f"{', '.join(board.unit(h).name for h in hqs) or 'none eligible'}.{extra}")
        return ask(frame, side, "hq", prompt, options, "PASS", context=self.context(frame))

    def _attach_decision(self, board: Board, frame: CommandFrame) -> Decision:
        hq = str(frame["hq"])
        units = attachable(board, frame)
        agn = frame["chit_group"] == "AGN"
        prompt = (f"{board.unit(hq).name} activated: attach up to {attachment_limit(board, hq)} units not of its "
                  f"formation within its range (4.2.1A): {', '.join(board.unit(u).name for u in units) or 'none'}"
                  + (f"; Army Group Narwa also lets {act.AGN_EXTRAS} units anywhere move (ATTACH ... EXTRA ...)"
                     if agn else "") + ". ATTACH <units> or ATTACH NONE.")
        options = ["ATTACH NONE", *(f"ATTACH {u}" for u in units)]
        if agn:
            options += [f"ATTACH EXTRA {u}" for u in agn_extras(board, frame)]
        return ask(frame, frame["side"], "attach", prompt, options, "ATTACH NONE", context=self.context(frame))

    def legal(self, board: Board, frame: CommandFrame, decision: Decision) -> list[Order]:
        stage = frame["stage"]
        if stage == "hq":
            return [Order.make("hq", "activate", hq=h) for h in eligible_hqs(board, frame)] + [Order.make("hq", "pass")]
        if stage == "attach":
            out = [Order.make("attach", "none")]
            units = attachable(board, frame)
            if units:
                limit = attachment_limit(board, str(frame["hq"]))
                out.append(Order.make("attach", "units", units=tuple(units[:limit])))
            return out
        if stage == "move":
            return self.move_legal(board, frame)
        if stage == "attack":
            return self.attack_legal(board, frame)
        return []

    def apply(self, board: Board, frame: CommandFrame, decision: Decision, order: Order) -> None:
        stage = frame["stage"]
        if stage == "hq" and order.form == "pass":
            self._pass(board, frame)
        elif stage == "hq" and order.form == "relocate":
            self._relocate(board, frame, order)
        elif stage == "hq":
            self._activate(board, frame, order)
        elif stage == "attach":
            self._apply_attach(board, frame, order)
        elif stage == "move":
            self.apply_move(board, frame, order)
        elif stage == "attack":
            self.apply_attack(board, frame, order)

    # ------------------------------------------------------------------ choosing the HQ

    def _pass(self, board: Board, frame: CommandFrame) -> None:
        answered(frame)
        board.emit("activation_passed", side=frame["side"], chit=frame["chit"])
        self._after_activation(board, frame)  # ruling N-27: a passed 2SH chit is used too
        frame["stage"] = "end"

    def _relocate(self, board: Board, frame: CommandFrame, order: Order) -> None:
        """4.1.3: the Soviet Army HQ moves anywhere legal as the activation's sole action."""
        if frame["side"] != "soviet":
            board.fail("only a Soviet Army HQ may relocate (4.1.3)")
        army = board.scenario.command_group(frame["chit_group"]).hqs[0]
        if not board.is_on_map(army):
            board.fail("this army's HQ is not on the map")
        target = str(order.get("hex"))
        legal = relocation_hexes(board, army)
        if target not in legal:
            board.fail(f"{target} is not a legal place for the Army HQ (4.1.3, ruling N-23: supplied, no enemy "
                       f"ZOC, outside other Army HQs' span)", [f"RELOCATE TO {h}" for h in legal[:3]])
        answered(frame)
        origin = board.hex_of(army)
        board.place(army, target)
        board.data["last_hq"]["soviet"] = None  # counts as an activation with no corps (ruling N-22)
        board.emit("army_relocated", hq=army, origin=origin, hex=target)
        self._after_activation(board, frame)
        frame["stage"] = "end"

    def _activate(self, board: Board, frame: CommandFrame, order: Order) -> None:
        """4.2.1A: the HQ activates the units of its formation within its command range."""
        side = frame["side"]
        hq = str(order.get("hq"))
        eligible = eligible_hqs(board, frame)
        if hq not in eligible:
            board.fail(f"{board.unit(hq).name} cannot be activated: {why_not_eligible(board, frame, hq)}",
                       [f"ACTIVATE {h}" for h in eligible[:3]] or ["PASS"])
        answered(frame)
        frame["hq"] = hq
        board.data["last_hq"][side] = hq
        if "strachwitz" in board.unit(hq).special:
            board.data["strachwitz_used"] = True
        formation = board.unit(hq).formation
        own = [u for u in board.units_of(side) if board.unit(u).formation == formation and u != hq
               and not board.is_hq(u)]
        in_command = [u for u in own if in_command_range(board, hq, u)]
        out = [u for u in own if u not in in_command]
        # The activated HQ moves too; its units move and attack in every activation that includes them (N-55).
        frame["movers"] = [hq] + in_command
        frame["fighters"] = list(in_command)
        extra = self._landing_brigade(board, frame)
        frame["context"]["hq"] = hq
        board.emit("activated", side=side, chit=frame["chit"], hq=hq, hex=board.hex_of(hq),
                   in_command=in_command, out_of_command=out, extra=extra, visible_to=(side,))
        board.emit("hq_activated", side=side, chit=frame["chit"], hq=hq, hex=board.hex_of(hq), hidden_from=(side,))
        self._after_activation(board, frame)
        frame["stage"] = COMMAND_STAGES.after("hq")

    @staticmethod
    def _landing_brigade(board: Board, frame: CommandFrame) -> list[str]:
        """8.6D: the 260th MS moves and attacks with the first 2nd Shock chit each turn, on top of the
        corps and its attachments."""
        if frame["side"] != "soviet" or frame["chit_group"] != "2SH" or board.data["first_2sh_done"]:
            return []
        board.data["first_2sh_done"] = True
        found = [u for u in board.units_of("soviet") if "first_2sh_activation" in board.unit(u).special]
        frame["movers"] += found
        frame["fighters"] += found
        return found

    @staticmethod
    def _after_activation(board: Board, frame: CommandFrame) -> None:
        """2.5.6B-D: the parked 2nd Shock out-of-supply chit removes this 2SH chit after use."""
        if frame["chit_group"] == "2SH" and board.data["shock_oos"]:
            frame["remove_after"] = True

    # ------------------------------------------------------------------ attachments

    def _apply_attach(self, board: Board, frame: CommandFrame, order: Order) -> None:
        if order.form == "none":
            answered(frame)
            self._begin_moves(board, frame)
            return
        units = [str(u) for u in order.values("units")]
        extras = [str(u) for u in order.values("extra")]
        hq = str(frame["hq"])
        legal = attachable(board, frame)
        limit = attachment_limit(board, hq)
        for uid in units:
            if uid not in legal:
                board.fail(f"{board.unit(uid).name} cannot be attached: {why_not_attachable(board, frame, uid)}",
                           [f"ATTACH {u}" for u in legal[:3]])
        if len(units) > limit:
            board.fail(f"at most {limit} attached units (4.2.1A, 4.2.3B)")
        if extras:
            self._check_extras(board, frame, units, extras)
        if len(set(units + extras)) != len(units + extras):
            board.fail("a unit is named twice")
        answered(frame)
        frame["movers"] += units + extras
        frame["fighters"] += units  # 2.4.2B: the extras may move but not fight
        board.emit("attached", side=frame["side"], hq=frame["hq"], units=units, extra=extras,
                   visible_to=(frame["side"],))
        self._begin_moves(board, frame)

    @staticmethod
    def _check_extras(board: Board, frame: CommandFrame, units: list[str], extras: list[str]) -> None:
        """2.4.2B: Army Group Narwa's two extra combat units anywhere, not pinned (2.5.1.3A, ruling N-24);
        raises IllegalOrder naming the first that cannot be one."""
        if frame["chit_group"] != "AGN":
            board.fail("only the Army Group Narwa chit activates extra units anywhere (2.4.2B)")
        if len(extras) > act.AGN_EXTRAS:
            board.fail(f"at most {act.AGN_EXTRAS} extra units (2.4.2B)")
        for uid in extras:
            if board.side_of(uid) != frame["side"] or not board.is_on_map(uid) or board.is_hq(uid) \
                    or uid in frame["movers"] or uid in units:
                board.fail(f"{board.unit(uid).name} cannot be an extra unit (2.4.2B: other combat units on the map)")
            if board.is_pinned(uid):
                board.fail(f"{board.unit(uid).name} is pinned and cannot be an extra unit (2.5.1.3A, ruling N-24)")

    @staticmethod
    def _begin_moves(board: Board, frame: CommandFrame) -> None:
        frame["stage"] = COMMAND_STAGES.after("attach")
        if "strachwitz" in board.unit(str(frame["hq"])).special:
            # 4.2.3C: one barrage anywhere next to a German (combat, ruling N-13) unit, before its units move
            start_barrages(board, "german", 1, "strachwitz")

    # ------------------------------------------------------------------ automatic steps

    def step(self, board: Board, frame: CommandFrame) -> bool:
        stage = frame["stage"]
        if stage == "hq" and frame["side"] == "soviet" and not board.is_on_map(
                board.scenario.command_group(frame["chit_group"]).hqs[0]):
            board.emit("activation_passed", side=frame["side"], chit=frame["chit"],
                       reason="the Army HQ is not on the map (ruling N-45)")
            self._after_activation(board, frame)  # ruling N-27: passed, so used
            frame["stage"] = "end"
            return True
        if stage == "attach" and not attachable(board, frame) and frame["chit_group"] != "AGN":
            self._begin_moves(board, frame)
            return True
        if stage == "move" and not act.movable(board, frame):
            frame["stage"] = COMMAND_STAGES.after("move")
            return True
        if stage == "attack" and not act.attack_targets(board, frame):
            frame["stage"] = COMMAND_STAGES.after("attack")
            return True
        if stage == "end":
            self._finish(board, frame)
            return True
        return False

    @staticmethod
    def _finish(board: Board, frame: CommandFrame) -> None:
        board.pop()
        board.emit("activation_over", side=frame["side"], chit=frame["chit"], hq=frame["hq"])
        if frame.get("remove_after"):
            chit = frame["chit"]
            board.data["tracks"][frame["side"]].remove(chit)
            board.data["removed"].append(chit)
            board.data["shock_oos"] = False
            board.data["parked"]["2SH-OOS"] = board.turn + 1
            board.emit("chit_removed", chit=chit, reason="2nd Shock out of supply (2.5.6)")


class Activation(act.Moves):
    """The other activations (free move, regroup, reinforcements, rebuilt units): moves, maybe attacks."""

    def decisions(self, board: Board, frame: ActivationFrame) -> list[Decision]:
        if frame["stage"] == "move":
            return [self.move_decision(board, frame)]
        if frame["stage"] == "attack":
            return [self.attack_decision(board, frame)]
        return []

    def legal(self, board: Board, frame: ActivationFrame, decision: Decision) -> list[Order]:
        if frame["stage"] == "move":
            return self.move_legal(board, frame)
        if frame["stage"] == "attack":
            return self.attack_legal(board, frame)
        return []

    def apply(self, board: Board, frame: ActivationFrame, decision: Decision, order: Order) -> None:
        if frame["stage"] == "move":
            self.apply_move(board, frame, order)
        elif frame["stage"] == "attack":
            self.apply_attack(board, frame, order)

    def step(self, board: Board, frame: ActivationFrame) -> bool:
        stage = frame["stage"]
        if stage == "move" and not act.movable(board, frame):
            frame["stage"] = act.after_moves(frame)
            return True
        if stage == "attack" and not act.attack_targets(board, frame):
            frame["stage"] = act.ACTIVATION_STAGES.after("attack")
            return True
        if stage == "end":
            board.pop()
            if frame["mode"] == "reinforce":
                settle_overstack(board, frame["side"], frame["movers"])  # 8.1, 7.2A
            board.emit("activation_over", side=frame["side"], mode=frame["mode"])
            return True
        return False
