"""Advance after combat (9.6, 11.1.2; ruling N-65).

When the defender's hex is vacated, attacking units may move into it (the first hex must be the
defender's, 9.6C) without MP and ignoring enemy ZOCs (9.6D); mechanized units may go one hex
further (9.6.3) unless the first step crossed an unbridged minor river or entered a village or
city (9.6.4B); HQs stacked with advancing units may go with them (9.6.5, 11.1.2).

``ADVANCE <units>`` is the whole answer: the attacker "may advance all, some, or none of its attacking
units" (9.6B), so the units named advance and the others stay (ruling N-65).  Only after a group went
on ``TO`` a second hex are the others asked again, because mechanized units of one combat may end in
different hexes (9.6.3B); that question is about units the player chose not to name, so ``ADVANCE
AUTO`` (the game's standing default) does not answer it: they advance only if named, else stay.
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask
from moderator.core.grammar import Order
from moderator.games.narva.board import Board
from moderator.games.narva.hq import overrun_lone_hqs
from moderator.games.narva.state import AdvanceFrame


def first_step_ok(board: Board, uid: str, origin: str, target: str) -> bool:
    """9.6.1, 9.6.4A: infantry not over an unbridged unfrozen major river except at a ferry;
    mechanized never over an unbridged major river (nor a ferry, 6.2.2.2D)."""
    if not board.may_stand(uid, target):
        return False
    side = board.hexside(origin, target)
    if side.river is None or side.river_kind != "major" or board.bridged(origin, target):
        return True
    if board.is_mechanized(uid):
        return False
    if side.ferry:
        return True
    return board.frozen and not side.never_frozen


def second_hexes(board: Board, uid: str, origin: str, target: str) -> list[str]:
    """Where a mechanized unit may continue (9.6.3-9.6.4)."""
    if not board.is_mechanized(uid):
        return []
    first = board.hexside(origin, target)
    if first.river_kind == "minor" and not board.bridged(origin, target):
        return []  # 9.6.4B
    if board.scenario.terrain(target) in ("village", "city"):
        return []  # 9.6.4B (a town is a village, ruling N-32)
    side = board.side_of(uid)
    out = []
    for n in board.neighbours(target):
        if n == origin or not board.may_stand(uid, n):
            continue
        hexside = board.hexside(target, n)
        if hexside.river_kind == "major" and not board.bridged(target, n):
            continue  # 9.6.4A
        if board.enemy_in(n, side) and not board.lone_hq(n):
            continue
        out.append(n)
    return out


class Advance:
    def _eligible(self, board: Board, frame: AdvanceFrame) -> list[str]:
        target = frame["target"]
        out = []
        for uid in frame["units"]:
            if uid in frame["moved"] or not board.is_on_map(uid):
                continue
            origin = board.hex_on_map(uid)
            if origin != frame["origins"].get(uid):
                continue
            if first_step_ok(board, uid, origin, target):
                out.append(uid)
        return out

    def _room(self, board: Board, target: str, units: list[str]) -> bool:
        return board.stacking_ok(target, units)

    def decisions(self, board: Board, frame: AdvanceFrame) -> list[Decision]:
        eligible = self._eligible(board, frame)
        names = ", ".join(board.unit(u).name for u in eligible)
        if frame["moved"]:  # a group went on TO a second hex (9.6.3B): the others, by name only
            prompt = (f"{frame['target']} is vacated and a group has advanced: may others advance too (9.6.3B)? "
                      f"Eligible: {names}. Only the units you name advance (ADVANCE <units> [TO <hex>]); the "
                      f"others stay.")
            first = ["ADVANCE NONE"]
        else:
            prompt = (f"{frame['target']} is vacated: advance after combat (9.6)? Eligible: {names}. The units you "
                      f"name advance and the others stay; mechanized units may continue one hex (ADVANCE <unit> "
                      f"TO <hex>), and then the others are asked again.")
            first = ["ADVANCE AUTO", "ADVANCE NONE"]
        options = [*first, *(f"ADVANCE {u}" for u in eligible if not board.is_hq(u))]
        return [ask(frame, frame["side"], "advance", prompt, options, "ADVANCE NONE",
                    context={"hex": frame["target"]})]

    def legal(self, board: Board, frame: AdvanceFrame, decision: Decision) -> list[Order]:
        out = [Order.make("advance", "none")] + ([] if frame["moved"] else [Order.make("advance", "auto")])
        for uid in [u for u in self._eligible(board, frame) if board.is_combat(u)][:3]:
            out.append(Order.make("advance", "units", units=(uid,)))
        return out

    def apply(self, board: Board, frame: AdvanceFrame, decision: Decision, order: Order) -> None:
        target = frame["target"]
        if order.form == "none":
            answered(frame)
            board.pop()
            return
        eligible = self._eligible(board, frame)
        if order.form == "auto" and frame["moved"]:
            board.fail("ADVANCE AUTO answers only the first advance question: after a group has advanced, the "
                       "others advance only if you name them (9.6B, ruling N-65)",
                       [f"ADVANCE {u}" for u in eligible if not board.is_hq(u)][:2] + ["ADVANCE NONE"])
        if order.form == "auto":
            # Deadline/standing answer: the strongest eligible units, up to the stacking limit, one hex.
            chosen: list[str] = []
            for uid in sorted((u for u in eligible if not board.is_hq(u)), key=lambda u: (-board.attack(u), u)):
                if self._room(board, target, chosen + [uid]):
                    chosen.append(uid)
            answered(frame)
            board.pop()
            self._move(board, frame, chosen, None)
            return
        chosen = [str(u) for u in order.values("units")]
        for uid in chosen:
            if uid not in eligible:
                board.fail(f"{board.unit(uid).name} may not advance into {target} (9.6)",
                           [f"ADVANCE {u}" for u in eligible[:3]])
        # HQs in the stack of an advancing unit may go with it (9.6.5)
        hqs = [u for u in chosen if board.is_hq(u)]
        combat = [u for u in chosen if not board.is_hq(u)]
        if not combat:
            board.fail("name the combat units that advance; an HQ goes only with them (9.6.5)")
        if not self._room(board, target, chosen):
            board.fail(f"{target} would be overstacked (7.1)")
        second = str(order.get("hex")) if order.get("hex") else None
        if second:
            for uid in combat:
                if second not in second_hexes(board, uid, frame["origins"][uid], target):
                    board.fail(f"{board.unit(uid).name} may not continue to {second} (9.6.3-9.6.4: mechanized only, "
                               f"adjacent, no unbridged major river; a minor river or a village/city stops it)")
            if hqs and not all(board.is_mechanized(u) for u in combat):
                board.fail("an HQ advances two hexes only with mechanized units advancing two (11.1.2B)")
            if not board.stacking_ok(second, chosen) and not board.lone_hq(second):
                board.fail(f"{second} would be overstacked (7.1)")
        answered(frame)
        self._move(board, frame, chosen, second)
        # The named units are the answer (9.6B): the others stay, unless this group went on to a second
        # hex and others could still advance, to end elsewhere (9.6.3B).
        if second is None or not self._combat_left(board, frame):
            # this frame, not the top one: an overrun (9.6.6) has pushed a displacement above it
            board.stack[:] = [f for f in board.stack if f is not frame]

    def _combat_left(self, board: Board, frame: AdvanceFrame) -> bool:
        return any(board.is_combat(u) for u in self._eligible(board, frame)) and \
            board.stacking_ok(frame["target"], [u for u in self._eligible(board, frame) if board.is_combat(u)][:1])

    def step(self, board: Board, frame: AdvanceFrame) -> bool:
        if not self._combat_left(board, frame):
            board.pop()
            return True
        return False

    @staticmethod
    def _move(board: Board, frame: AdvanceFrame, units: list[str], second: str | None) -> None:
        if not units:
            return
        target = frame["target"]
        side = frame["side"]
        hqs = {u for u in units if board.is_hq(u)}
        for uid in units:
            frame["moved"].append(uid)
            path = [board.hex_of(uid), target]
            board.pass_through(uid, target)
            end = target
            if second:
                if board.lone_hq(second) and board.enemy_in(second, side):
                    overrun_lone_hqs(board, second, by=uid)
                end = second
                path.append(second)
            board.place(uid, end)
            board.remember("move", side=side, unit=uid, path=path)
        board.emit("advanced", side=side, units=units, hex=second or target, via=target if second else None,
                   hqs=sorted(hqs))
