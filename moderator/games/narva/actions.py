"""Action chits (2.5): barrage, random event, Stavka directive, free move, the withdrawals and
2nd Shock out of supply; and the random events' consequences (replacements 11.2, regrouping)."""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva import activation as act
from moderator.games.narva.barrage import start_barrages
from moderator.games.narva.board import Board, as_side
from moderator.games.narva.combat import start_combat
from moderator.games.narva.hq import in_command_range
from moderator.games.narva.replacement_choice import auto_replacement
from moderator.games.narva.state import FreeMoveFrame, RebuildFrame, RegroupFrame, StavkaFrame
from moderator.games.narva.supply import traces_supply

STAVKA_TARGETS = 2  # 2.5.3A
STAVKA_DELAY = 2  # 2.5.3E: two turns ahead on the TRT


def resolve_action(board: Board, chit_id: str) -> None:
    chit = board.scenario.chit(chit_id)
    kind = chit.action
    if kind == "barrage":
        side = as_side(chit.side)  # each side has its own barrage chits (2.5.1)
        die = board.d6(f"barrage roll ({side})")
        count = board.scenario.barrage_count(side, die.value)  # 2.5.1.1B
        board.emit("barrage_roll", side=side, die=die.to_json(), count=count)
        start_barrages(board, side, count, "chit")
    elif kind == "random_event":
        roll_event(board)
    elif kind == "stavka":
        board.data["drawn_actions"].remove(chit_id)
        board.data["parked"][chit_id] = board.turn + STAVKA_DELAY
        board.push(new_frame(board.data, "stavka", done=0, targets=[], used=[]))
    elif kind == "free_move":
        board.push(new_frame(board.data, "freemove"))
    elif kind in ("withdraw_59", "withdraw_214"):
        # 2.5.5, 2.5.7: on the following turn's box; the withdrawal happens in that Reinforcement Phase
        board.data["drawn_actions"].remove(chit_id)
        board.data["parked"][chit_id] = board.turn + 1
        board.emit("withdrawal_announced", chit=chit_id, turn=board.turn + 1)
    elif kind == "shock_out_of_supply":
        # 2.5.6A: beside the Soviet Activations Track until the next 2nd Shock chit is used
        board.data["drawn_actions"].remove(chit_id)
        board.data["shock_oos"] = True
        board.emit("shock_out_of_supply", chit=chit_id)


# ---------------------------------------------------------------- random events (2.5.2)


def roll_event(board: Board) -> None:
    dice = [board.d6("random event"), board.d6("random event")]
    total = dice[0].value + dice[1].value
    event = board.scenario.random_event(total)
    board.emit("random_event", dice=[d.to_json() for d in dice], total=total, name=event.name, text=event.text,
               effect=event.effect)
    if event.effect == "barrage" and event.side:
        start_barrages(board, event.side, event.amount or 1, "event")
    elif event.effect == "replacements":
        board.data["rp"] += event.amount or 0
        if board.options["rp_timing"] == "immediate":
            board.push(new_frame(board.data, "rebuild", lose_rest=True))
    elif event.effect == "move_formation" and event.side:
        # ruling N-60: one formation moves whatever its command or supply, without combat
        board.push(new_frame(board.data, "regroup", side=event.side))
    elif event.effect == "prolong_freeze":
        # Ruling N-60: it prolongs the freeze only when drawn before the turn it would keep frozen
        # (Turn 7 or earlier); drawn then or later, the thaw has already happened and it has no effect.
        prolonged = [t.n for t in board.scenario.meta.turns if t.freeze_by_event]
        if prolonged and board.turn < min(prolonged):
            board.data["freeze_extended"] = True
    elif event.effect == "air_recovery" and event.side:
        for air_id, box in sorted(board.data["air"].items()):
            if board.scenario.air_unit(air_id).side == event.side and box in ("refit", "grounded"):
                board.data["air"][air_id] = "ready"


def regroup_formations(board: Board, side: str) -> list[str]:
    """The formations one may regroup: German divisions (and groups), Soviet corps, with units on the map."""
    out = set()
    for uid in board.units_of(side):
        formation = board.unit(uid).formation
        if formation and formation != "IND" and board.scenario.formation(formation).kind != "army":
            out.add(formation)
    return sorted(out)


class Regroup:
    """'Move all units of one division/corps, ignoring command and supply; no combat' (2.5.2B)."""

    def decisions(self, board: Board, frame: RegroupFrame) -> list[Decision]:
        options = regroup_formations(board, frame["side"])
        prompt = (f"Random event: you may move all units of one formation ({', '.join(options)}), ignoring command "
                  f"and supply, without combat. REGROUP <formation> or REGROUP NONE.")
        return [ask(frame, frame["side"], "regroup", prompt, ["REGROUP NONE", *(f"REGROUP {f}" for f in options)],
                    "REGROUP NONE")]

    def legal(self, board: Board, frame: RegroupFrame, decision: Decision) -> list[Order]:
        return [Order.make("regroup", "none")] + [Order.make("regroup", "formation", formation=f)
                                                   for f in regroup_formations(board, frame["side"])[:3]]

    def apply(self, board: Board, frame: RegroupFrame, decision: Decision, order: Order) -> None:
        answered(frame)
        if order.form == "none":
            board.pop()
            return
        formation = str(order.get("formation"))
        if formation not in regroup_formations(board, frame["side"]):
            board.fail(f"{formation} has no units of yours on the map to regroup")
        board.pop()
        units = [u for u in board.units_of(frame["side"]) if board.unit(u).formation == formation]
        board.emit("regroup", side=frame["side"], formation=formation)
        act.start_activation(board, frame["side"], "regroup", movers=units)

    def step(self, board: Board, frame: RegroupFrame) -> bool:
        if not regroup_formations(board, frame["side"]):
            board.pop()
            return True
        return False


# ---------------------------------------------------------------- Stavka directive (2.5.3)


def stavka_targets(board: Board, frame: StavkaFrame) -> dict[str, list[str]]:
    """Enemy-held hexes with combat units next to Soviet combat units not yet used, not tried yet.
    Whether the odds reach 1-2 is learnt only by announcing the attack (2.1.3C): a cancelled target
    does not count and another is chosen (ruling N-26)."""
    found: dict[str, list[str]] = {}
    for hex_id, units in board.occupied_hexes().items():
        if board.side_of(units[0]) != "german" or not board.combat_units_at(hex_id) or hex_id in frame["targets"]:
            continue
        attackers = [u for n in board.neighbours(hex_id) for u in board.units_at(n)
                     if board.side_of(u) == "soviet" and board.is_combat(u) and u not in frame["used"]
                     and not board.is_pinned(u)]
        if not attackers or not any(board.attack(u) > 0 for u in attackers):
            continue
        found[hex_id] = attackers
    return found


class Stavka:
    def decisions(self, board: Board, frame: StavkaFrame) -> list[Decision]:
        targets = stavka_targets(board, frame)
        prompt = (f"Stavka directive (2.5.3): attack {STAVKA_TARGETS - frame['done']} more enemy hex(es) with every "
                  f"Soviet unit next to it (+1 column, an extra A1, retreats become losses). STAVKA <hex> or "
                  f"STAVKA AUTO. Targets: {', '.join(sorted(targets))}.")
        return [ask(frame, "soviet", "stavka", prompt, ["STAVKA AUTO", *(f"STAVKA {h}" for h in sorted(targets))],
                    "STAVKA AUTO")]

    def legal(self, board: Board, frame: StavkaFrame, decision: Decision) -> list[Order]:
        return [Order.make("stavka", "auto")] + [Order.make("stavka", "hex", hex=h)
                                                  for h in sorted(stavka_targets(board, frame))[:3]]

    def apply(self, board: Board, frame: StavkaFrame, decision: Decision, order: Order) -> None:
        targets = stavka_targets(board, frame)
        if order.form == "auto":
            # ruling N-68: the most adjacent Soviet units (visible facts only), then the lowest hex
            target = min(targets, key=lambda h: (-len(targets[h]), h))
        else:
            target = str(order.get("hex"))
            if target not in targets:
                board.fail(f"{target} is not a Stavka target: an enemy-held hex with combat units, next to Soviet "
                           f"units that reach at least the lowest column", [f"STAVKA {h}" for h in sorted(targets)[:3]])
        answered(frame)
        self._attack(board, frame, target, targets[target])

    @staticmethod
    def _attack(board: Board, frame: StavkaFrame, target: str, attackers: list[str]) -> None:
        frame["targets"].append(target)
        frame["announced"] = attackers
        board.emit("attack_announced", side="soviet", target=target, units=attackers, air={}, stavka=True)
        start_combat(board, "soviet", target, attackers, {}, stavka=True)

    def step(self, board: Board, frame: StavkaFrame) -> bool:
        attackers = frame.pop("announced", None)
        if attackers is not None and not board.data.get("last_combat_cancelled"):
            frame["done"] += 1
            frame["used"].extend(attackers)  # a unit next to both targets attacks only the first (N-26)
        if frame["done"] >= STAVKA_TARGETS or not stavka_targets(board, frame):
            board.pop()
            board.emit("stavka_over", attacks=frame["done"])
            return True
        return False


# ---------------------------------------------------------------- Free Move (2.5.4)


def free_move_hqs(board: Board) -> list[str]:
    last = board.data["last_hq"]["soviet"]
    out = []
    for uid in board.units_of("soviet"):
        if not board.is_hq(uid) or uid == last:
            continue
        if board.options["free_move_hq"] == "corps" and board.is_army_hq(uid):
            continue
        out.append(uid)
    return sorted(out)


class FreeMove:
    def decisions(self, board: Board, frame: FreeMoveFrame) -> list[Decision]:
        prompt = ("Free Move (2.5.4): FREEMOVE HQ <hq> [ATTACH <up to 3 units in its range>], or FREEMOVE UNITS "
                  "<up to 3 units anywhere>, or FREEMOVE NONE. The units may not start in or enter an enemy ZOC and "
                  f"do not fight. HQs: {', '.join(board.unit(h).name for h in free_move_hqs(board))}.")
        options = ["FREEMOVE NONE", *(f"FREEMOVE HQ {h}" for h in free_move_hqs(board))]
        return [ask(frame, "soviet", "freemove", prompt, options, "FREEMOVE NONE")]

    def legal(self, board: Board, frame: FreeMoveFrame, decision: Decision) -> list[Order]:
        return [Order.make("freemove", "none")] + [Order.make("freemove", "hq", hq=h)
                                                    for h in free_move_hqs(board)[:3]]

    def apply(self, board: Board, frame: FreeMoveFrame, decision: Decision, order: Order) -> None:
        if order.form == "none":
            answered(frame)
            board.pop()
            return
        if order.form == "hq":
            hq = str(order.get("hq"))
            if hq not in free_move_hqs(board):
                board.fail(f"{board.unit(hq).name} cannot take the Free Move (two in a row, 4.1.2; or not a corps HQ)",
                           [f"FREEMOVE HQ {h}" for h in free_move_hqs(board)[:3]])
            formation = board.unit(hq).formation
            army = board.is_army_hq(hq)
            # ruling N-25 (option any): an Army HQ activates the units of its own army's corps and stays put
            formations = {f.id for f in board.scenario.formations if f.parent == formation} if army else {formation}
            own = [u for u in board.units_of("soviet") if board.unit(u).formation in formations and u != hq
                   and in_command_range(board, hq, u) and not board.is_hq(u)]
            extra = [str(u) for u in order.values("units")]
            for uid in extra:
                if uid in own or board.side_of(uid) != "soviet" or not board.is_on_map(uid) or board.is_hq(uid) \
                        or not in_command_range(board, hq, uid):
                    board.fail(f"{board.unit(uid).name} cannot join: three other units within the HQ's range (2.5.4A)")
            if len(extra) > act.ATTACHMENTS:
                board.fail("at most three other units (2.5.4A)")
            movers = ([] if army else [hq]) + own + extra
            board.data["last_hq"]["soviet"] = hq  # 4.1.2B: counts as an activation
        else:
            movers = [str(u) for u in order.values("units")]
            if len(movers) > act.ATTACHMENTS:
                board.fail("at most three units (2.5.4A)")
            for uid in movers:
                if board.side_of(uid) != "soviet" or not board.is_on_map(uid):
                    board.fail(f"{board.unit(uid).name} is not a Soviet unit on the map")
                if board.is_hq(uid):  # ruling N-25: "three Soviet combat units anywhere", no HQ
                    board.fail(f"{board.unit(uid).name} is an HQ: a Free Move without an HQ moves three combat "
                               f"units (2.5.4A)")
            board.data["last_hq"]["soviet"] = None  # 4.1.2B: all HQs refreshed
        answered(frame)
        board.pop()
        board.emit("free_move", units=movers, visible_to=("soviet",))
        act.start_activation(board, "soviet", "free", movers=movers)

    def step(self, board: Board, frame: FreeMoveFrame) -> bool:
        return False


# ---------------------------------------------------------------- replacements (11.2)


def rebuildable(board: Board) -> list[str]:
    """Reduced German units on the map in supply, or eliminated two-step units whose HQ (any HQ for
    independents) is on the map and supplied; never mechanized steps (11.2B-D, 11.2.3)."""
    out = []
    for uid, st in sorted(board.data["units"].items()):
        unit = board.unit(uid)
        if unit.side != "german" or unit.steps < 2 or board.is_mechanized(uid) or board.is_hq(uid):
            continue
        flipped_back = (st["where"] == "map" and st["reduced"] and st["supply"] == "ok"
                        and uid not in board.data["returned_this_turn"])
        if flipped_back or (st["where"] == "eliminated" and return_hq(board, uid) is not None):
            out.append(uid)
    return sorted(out)


def why_not_rebuildable(board: Board, uid: str) -> str:
    """Why `rebuildable` leaves this unit out, with the rule, as a player is told it."""
    unit, st = board.unit(uid), board.state_of(uid)
    if unit.side != "german" or board.is_hq(uid):
        return "replacements rebuild German combat units (11.2A-B)"
    if unit.steps < 2:
        return "an eliminated one-step unit never returns (11.2C)"
    if board.is_mechanized(uid):
        return "a mechanized step is never rebuilt (11.2D)"
    if st["where"] == "map":
        if not st["reduced"]:
            return "it is at full strength"
        if uid in board.data["returned_this_turn"]:
            return "it returned reduced this turn and is not also rebuilt in the same turn (11.2.1B)"
        return "it is out of supply or isolated (11.2.3A)"
    if st["where"] == "eliminated":
        return "no HQ it may return to is on the map in a supplied hex (11.2.2A-C, 11.2.3B)"
    return "it is neither on the map reduced nor eliminated (11.2B)"


def return_hq(board: Board, uid: str) -> str | None:
    """11.2.2A-C: its own HQ, any HQ for independents, any HQ of the same corps if its own is gone (N-44)."""
    unit = board.unit(uid)
    candidates: list[str] = []
    formation = board.scenario.formation(unit.formation) if unit.formation and unit.formation != "IND" else None
    if formation and formation.hq and board.is_on_map(formation.hq):
        candidates = [formation.hq]
    else:
        parent = formation.parent if formation else None
        for hq in board.units_of("german"):
            if not board.is_hq(hq):
                continue
            hq_formation = board.hq_formation(hq)
            if formation is None or hq_formation.parent == parent:
                candidates.append(hq)
    for hq in sorted(candidates):
        if board.supply(hq) == "ok" and board.may_stand(uid, board.hex_on_map(hq)) and traces_supply(board, hq):
            return hq
    return None


class Rebuild:
    def decisions(self, board: Board, frame: RebuildFrame) -> list[Decision]:
        units = rebuildable(board)
        prompt = (f"You have {board.data['rp']} replacement point(s) (11.2): REBUILD <unit> (flip a reduced unit, or "
                  f"return an eliminated one reduced at its HQ), FORTIFY <11SS|4SS> (PD marker up two boxes), "
                  f"REBUILD AUTO or REBUILD DONE"
                  + (" (unspent points are lost)" if frame.get("lose_rest") else "") +
                  f". Rebuildable: {', '.join(board.unit(u).name for u in units) or 'none'}.")
        options = ["REBUILD AUTO", "REBUILD DONE", *(f"REBUILD {u}" for u in units),
                   *(f"FORTIFY {d}" for d in sorted(board.data["pd"]))]
        return [ask(frame, "german", "rebuild", prompt, options, "REBUILD AUTO")]

    def legal(self, board: Board, frame: RebuildFrame, decision: Decision) -> list[Order]:
        return [Order.make("rebuild", "done"), Order.make("rebuild", "auto")]

    def apply(self, board: Board, frame: RebuildFrame, decision: Decision, order: Order) -> None:
        if order.form == "done":
            answered(frame)
            self._close(board, frame)
            return
        if order.form == "auto":
            answered(frame)
            self._auto(board)
            return
        if order.form == "fortify":
            division = str(order.get("division"))
            if division not in board.data["pd"]:
                board.fail("FORTIFY 11SS or FORTIFY 4SS (11.2.4)")
            answered(frame)
            self._fortify(board, division)
            return
        uid = str(order.get("unit"))
        if uid not in rebuildable(board):
            board.fail(f"{board.unit(uid).name} cannot be rebuilt now: {why_not_rebuildable(board, uid)}",
                       [f"REBUILD {u}" for u in rebuildable(board)[:3]])
        answered(frame)
        self._rebuild(board, uid)

    def _auto(self, board: Board) -> None:
        """REBUILD AUTO: each point where a careful player would spend it (replacement_choice)."""
        while board.data["rp"] > 0:
            choice = auto_replacement(board, rebuildable(board))
            if choice is None:
                break
            what, target = choice
            if what == "fortify":
                self._fortify(board, target)
            else:
                self._rebuild(board, target)

    @staticmethod
    def _fortify(board: Board, division: str) -> None:
        track = board.scenario.tables.pd_track
        board.data["rp"] -= 1
        before = board.data["pd"][division]
        board.data["pd"][division] = max(track.start_box, before - track.rp_boxes)  # ceiling: N-46
        board.emit("pd_improved", division=division, boxes=before - board.data["pd"][division], why="replacement point")

    @staticmethod
    def _rebuild(board: Board, uid: str) -> None:
        st = board.state_of(uid)
        board.data["rp"] -= 1
        if st["where"] == "map":
            st["reduced"] = False
            if board.shown_to_enemy(uid):
                board.emit("rebuilt", unit=uid, hex=st["hex"], how="flipped to full strength")
                return
            # Under fog a unit beneath the top of its stack is flipped unseen: the Soviets learn that
            # a replacement point rebuilt a hidden unit, not which one nor where (2.1.3B, ruling N-57).
            board.emit("rebuilt", unit=uid, hex=st["hex"], how="flipped to full strength", visible_to=("german",))
            board.emit("hidden_unit_rebuilt", side="german", hidden_from=("german",))
            return
        hq = return_hq(board, uid)
        assert hq is not None
        st["reduced"] = True
        st["supply"] = "ok"
        board.place(uid, board.hex_on_map(hq))
        board.data["returned_this_turn"].append(uid)
        how = f"returned reduced with {board.unit(hq).name}"
        if board.shown_to_enemy(hq):
            board.emit("rebuilt", unit=uid, hex=board.hex_of(hq), how=how)
        else:
            # The unit leaves the public eliminated box for a stack everyone sees it join; the HQ
            # beneath that stack stays hidden (2.1.3B, ruling N-57).
            board.emit("rebuilt", unit=uid, hex=board.hex_of(hq), how=how, visible_to=("german",))
            board.emit("rebuilt", unit=uid, hex=board.hex_of(hq), how="returned reduced to the map",
                       hidden_from=("german",))
        act.start_activation(board, "german", "rebuild", movers=[uid])

    @staticmethod
    def _close(board: Board, frame: RebuildFrame) -> None:
        board.pop()
        if frame.get("lose_rest") and board.data["rp"]:
            board.emit("rp_lost", rp=board.data["rp"])
            board.data["rp"] = 0

    def step(self, board: Board, frame: RebuildFrame) -> bool:
        if board.data["rp"] <= 0:
            self._close(board, frame)
            return True
        return False
