"""An activation (4.0-4.2, 6.0, 9.0): an HQ's units move, then attack.

The same frame serves every way units get to move: a command chit's HQ (with attachments, the
Army Group Narwa extras, the 260th MS, the Strachwitz barrage), the Soviet Free Move (2.5.4), a
random event's regrouping ("move all units of one division", 2.5.2B), reinforcements entering
(8.0B) and rebuilt units (11.2.2E).  ``mode`` says which; ``movers`` may move, ``fighters`` may
also attack.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.frames import Stage, StageSequence, answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import Board
from moderator.games.narva.combat import compute_odds, start_combat
from moderator.games.narva.movement import NORMAL, RAIL, STRATEGIC, MoveRules, describe, find_path, follow, reachable
from moderator.games.narva.state import ActivationFrame, ActivationMode, ActivationStage, AirMode, MovingFrame, Side

ATTACHMENTS = 3  # 4.2.1A
STRACHWITZ_ATTACHMENTS = 4  # 4.2.3B
AGN_EXTRAS = 2  # 2.4.2B

# An activation in the rules' order.
ACTIVATION_STAGES: StageSequence[ActivationStage] = StageSequence(
    Stage("move", "4.0A, 6.0: the activated units move"),
    Stage("attack", "4.0A, 9.0: those that may fight attack"),
    Stage("end", "4.0: the activation ends"),
)


def start_activation(board: Board, side: Side, mode: ActivationMode, *, chit: str | None = None,
                     hq: str | None = None, movers: Iterable[str] = (), fighters: Iterable[str] = (),
                     stage: ActivationStage = ACTIVATION_STAGES.first,
                     context: dict[str, Any] | None = None) -> ActivationFrame:
    """Push an activation that goes straight to its moves (the command chit path asks for its HQ
    first, see `command.CommandActivation`)."""
    frame: ActivationFrame = board.push(new_frame(
        board.data, "activation", side=side, mode=mode, chit=chit, hq=hq, stage=stage, movers=list(movers),
        fighters=list(fighters), moved=[], attacked=[], ferries=[], context=dict(context or {})))
    return frame


def after_moves(frame: MovingFrame) -> ActivationStage:
    """The Combat Segment if any unit may fight, else the end (a free move or regrouping has no combat)."""
    return "attack" if frame["fighters"] else "end"


def movable(board: Board, frame: MovingFrame) -> list[str]:
    return [u for u in frame["movers"] if board.is_on_map(u) and u not in frame["moved"] and not board.is_pinned(u)]


def attackers_available(board: Board, frame: MovingFrame) -> list[str]:
    return [u for u in frame["fighters"] if board.is_on_map(u) and board.is_combat(u) and u not in frame["attacked"]
            and not board.is_pinned(u)]


def attack_targets(board: Board, frame: MovingFrame) -> dict[str, list[str]]:
    """Enemy hexes with combat units (9.0B) next to available attackers -> those attackers."""
    side = frame["side"]
    found: dict[str, list[str]] = {}
    for uid in attackers_available(board, frame):
        for n in board.neighbours(board.hex_on_map(uid)):
            if board.enemy_in(n, side) and board.combat_units_at(n):
                found.setdefault(n, []).append(uid)
    return found


def attack_options(board: Board, frame: MovingFrame, targets: dict[str, list[str]]) -> list[str]:
    """Each attack the activation may make (9.0): every target with all the units next to it, alone or
    with one ready air unit (12.1.1); a player may name fewer units, or two air units."""
    out = []
    for target, units in sorted(targets.items()):
        if not any(board.attack(u) > 0 for u in units):
            continue  # 9.2.3
        line = f"ATTACK {target} WITH {' '.join(units)}"
        out.append(line)
        for air in ready_air(board, frame["side"]):
            out.append(f"{line} FULL {air}")
            if board.scenario.air_unit(air).normal is not None:
                out.append(f"{line} NORMAL {air}")
    return out


def every_move(board: Board, frame: MovingFrame, decision: Decision) -> list[str]:
    """Every move of one unit the move question allows (6.0): each movable unit to each hex it can
    reach, and by strategic movement (6.4) or rail (6.5, arriving reinforcements) to those only they
    reach; for OPTIONS, since `Moves.move_legal` samples.  Empty for another question."""
    if decision.kind != "move":
        return []
    out = []
    for uid in movable(board, frame):
        normal = reachable(board, uid, rules_for(frame))
        out += [f"MOVE {uid} TO {h}" for h in sorted(normal)]
        for mode in (STRATEGIC, RAIL) if frame["mode"] == "reinforce" else (STRATEGIC,):
            further = set(reachable(board, uid, rules_for(frame, mode))) - set(normal)
            out += [f"MOVE {uid} TO {h} {mode.upper()}" for h in sorted(further) if _moves(board, frame, uid, h, mode)]
    return out


def _moves(board: Board, frame: MovingFrame, uid: str, dest: str, mode: str) -> bool:
    """Whether the unit may make this strategic or rail move (what `reachable` leaves to `find_path`:
    where it starts, 6.4.1-6.4.2A, 6.5)."""
    try:
        find_path(board, uid, dest, rules_for(frame, mode), allowance=Moves.allowance(board, frame, uid))
    except IllegalOrder:
        return False
    return True


def rules_for(frame: MovingFrame, mode: str = NORMAL) -> MoveRules:
    return MoveRules(mode=mode, reinforcement=frame["mode"] == "reinforce",
                     avoid_ezoc=frame["mode"] == "free", ferries_used=set(frame["ferries"]))


def distance_to_enemy(board: Board, side: str, radius: int = 4) -> dict[str, int]:
    """Hex -> steps to the nearest enemy-held hex (breadth-first from all of them at once)."""
    frontier = [h for h in board.occupied_hexes() if board.enemy_in(h, side)]
    near = {h: 0 for h in frontier}
    for step in range(1, radius + 1):
        nxt = []
        for h in frontier:
            for n in board.neighbours(h):
                if n not in near:
                    near[n] = step
                    nxt.append(n)
        frontier = nxt
    return near


def ready_air(board: Board, side: str) -> list[str]:
    return [a for a, box in sorted(board.data["air"].items())
            if box == "ready" and board.scenario.air_unit(a).side == side]


class Moves:
    """The movement and combat stages shared by every kind of activation."""

    # ------------------------------------------------------------------ move stage

    def move_decision(self, board: Board, frame: MovingFrame) -> Decision:
        units = movable(board, frame)
        names = ", ".join(f"{board.unit(u).name}@{board.hex_of(u)}" for u in units)
        what = {"reinforce": "Move your arriving reinforcements (8.0B; rail or strategic allowed)",
                "free": "Free Move (2.5.4): move, never starting in or entering an enemy ZOC",
                "regroup": "Regroup (random event): move the formation's units; no combat",
                "rebuild": "Move the rebuilt unit (11.2.2E)"}.get(frame["mode"], "Movement Segment (6.0)")
        prompt = (f"{what}: MOVE <units> TO <hex> [VIA <hexes>] [STRATEGIC], or MOVE DONE (OPTIONS lists every hex "
                  f"each unit can reach). Units: {names}.")
        return ask(frame, frame["side"], "move", prompt, ["MOVE DONE", *self.first_steps(board, frame, units)],
                   "MOVE DONE", context=self.context(frame))

    def first_steps(self, board: Board, frame: MovingFrame, units: list[str]) -> list[str]:
        """One legal move of each unit that may move, into the first hex next to it it may enter: the
        question lists them so that a player (and the report of an answer given for them) sees that
        there was a choice; OPTIONS lists every move (`every_move`)."""
        out = []
        for uid in units:
            for dest in board.neighbours(board.hex_on_map(uid)):
                try:
                    find_path(board, uid, dest, rules_for(frame), allowance=self.allowance(board, frame, uid))
                except IllegalOrder:
                    continue
                out.append(f"MOVE {uid} TO {dest}")
                break
        return out

    def apply_move(self, board: Board, frame: MovingFrame, order: Order) -> None:
        if order.form == "done":
            answered(frame)
            frame["stage"] = after_moves(frame)
            return
        units = [str(u) for u in order.values("units")]
        dest = str(order.get("hex"))
        mode = {"STRATEGIC": STRATEGIC, "RAIL": RAIL}.get(str(order.get("mode") or ""), NORMAL)
        can = movable(board, frame)
        for uid in units:
            if uid not in can:
                why = "has already moved" if uid in frame["moved"] else \
                    "is pinned (2.5.1.3A)" if board.is_pinned(uid) else \
                    "is not activated now (4.0A, 4.2.6)"
                board.fail(f"{board.unit(uid).name} {why}", self.moves_to(board, frame, dest, mode, can))
        answered(frame)
        for uid in units:
            rules = rules_for(frame, mode)
            try:
                path = find_path(board, uid, dest, rules, allowance=self.allowance(board, frame, uid),
                                 via=[str(h) for h in order.values("via")])
            except IllegalOrder as error:
                if error.suggestions:
                    raise
                raise IllegalOrder(str(error), tuple(self.nearest_moves(board, frame, uid, dest, mode)),
                                   error.hint) from None
            start = path.hexes[0]
            follow(board, uid, path)
            frame["moved"].append(uid)
            if path.ferry:
                frame["ferries"].append(path.ferry)
            board.emit("moved", side=frame["side"], unit=uid, path=list(path.hexes), how=describe(path), mode=mode,
                       visible_to=(frame["side"],))
            board.emit("enemy_moved", side=frame["side"], start=start, end=dest, hidden_from=(frame["side"],),
                       top=self._visible_top(board, dest))
            board.remember("move", side=frame["side"], unit=uid, path=list(path.hexes))

    def moves_to(self, board: Board, frame: MovingFrame, dest: str, mode: str, units: list[str]) -> list[str]:
        """Up to three legal answers that move another of `units` to `dest` this way (for a refusal)."""
        return self.legal_moves(board, frame, ((uid, dest) for uid in units), mode, 3)

    def nearest_moves(self, board: Board, frame: MovingFrame, uid: str, dest: str, mode: str,
                      count: int = 2) -> list[str]:
        """Up to `count` legal moves of `uid` this way, to the hexes nearest `dest` first (then by hex id),
        for the refusal of a move to `dest`: among all the hexes it can reach, not the one move per unit
        the question lists (a move to 1922 was pointed to 1929 when 1822 and 1823, next to it, were
        legal: notes/hand-narva.md defect 8).  Each is checked as the order would be (`find_path`)."""
        start = board.hex_of(uid)  # (reachable finds nothing for a unit off the map)
        hexes = sorted((h for h in reachable(board, uid, rules_for(frame, mode)) if h != start),
                       key=lambda h: (board.scenario.distance(h, dest), h))
        return self.legal_moves(board, frame, ((uid, hex_id) for hex_id in hexes), mode, count)

    def legal_moves(self, board: Board, frame: MovingFrame, candidates: Iterable[tuple[str, str]], mode: str,
                    count: int) -> list[str]:
        """The first `count` of the (unit, hex) `candidates` that `find_path` accepts this way, as MOVE orders."""
        out = []
        for uid, hex_id in candidates:
            try:
                find_path(board, uid, hex_id, rules_for(frame, mode), allowance=self.allowance(board, frame, uid))
            except IllegalOrder:
                continue
            out.append(f"MOVE {uid} TO {hex_id}" + ("" if mode == NORMAL else f" {mode.upper()}"))
            if len(out) == count:
                break
        return out

    @staticmethod
    def allowance(board: Board, frame: MovingFrame, uid: str) -> float:
        if frame["mode"] in ("reinforce",):
            return float(board.unit(uid).strength(board.is_reduced(uid)).movement)  # 8.0B full MA on entry
        return float(board.movement_allowance(uid))

    @staticmethod
    def _visible_top(board: Board, hex_id: str) -> str | None:
        """What the enemy sees on the stack a unit moved into: its top unit, or the marker that
        covers it under fog (2.1.3B, ruling N-57)."""
        faces = board.faces_seen_by_enemy(hex_id)
        if faces:
            return faces[0]
        marker = board.stack_marker(hex_id)
        return f"{marker} marker" if marker else None

    def move_legal(self, board: Board, frame: MovingFrame) -> list[Order]:
        """A sample of legal moves (for random playouts): for a few units, the reachable hexes
        nearest an enemy, plus MOVE DONE.  Players may of course order any legal move."""
        out = [Order.make("move", "done")]
        near = distance_to_enemy(board, frame["side"])
        for uid in movable(board, frame)[:2]:
            found = reachable(board, uid, rules_for(frame))
            for dest in sorted(found, key=lambda h: (near.get(h, 99), h))[:2]:
                out.append(Order.make("move", "to", units=(uid,), hex=dest))
        return out

    # ------------------------------------------------------------------ attack stage

    def attack_legal(self, board: Board, frame: MovingFrame) -> list[Order]:
        out = [Order.make("attack", "done")]
        air = ready_air(board, frame["side"])
        for target, units in sorted(attack_targets(board, frame).items()):
            if not any(board.attack(u) > 0 for u in units):
                continue
            if compute_odds(board, frame["side"], units, target, {}).column is None and not air:
                continue
            out.append(Order.make("attack", "hex", hex=target, units=tuple(units)))
            if air:
                out.append(Order.make("attack", "hex", hex=target, units=tuple(units), full=(air[0],)))
        return out

    def attack_decision(self, board: Board, frame: MovingFrame) -> Decision:
        targets = attack_targets(board, frame)
        listing = "; ".join(f"{h} ({', '.join(board.unit(u).name for u in units)})"
                            for h, units in sorted(targets.items()))
        air = ", ".join(board.scenario.air_unit(a).name + f"[{a}]" for a in ready_air(board, frame["side"])) or "none"
        prompt = (f"Combat Segment (9.0): ATTACK <hex> WITH <units> [FULL <air>] [NORMAL <air>], or ATTACK DONE. "
                  f"Targets: {listing or 'none'}. Air units ready: {air}.")
        return ask(frame, frame["side"], "attack", prompt, ["ATTACK DONE", *attack_options(board, frame, targets)],
                   "ATTACK DONE", context=self.context(frame))

    @staticmethod
    def _why_not_attacker(board: Board, frame: MovingFrame, uid: str) -> str:
        """Why `attackers_available` leaves this unit out, with the rule, as a player is told it."""
        if board.is_pinned(uid):
            return "it is pinned (2.5.1.3A)"
        if uid in frame["attacked"]:
            return "it already attacked in this activation (9.2.1B)"
        if board.is_combat(uid) and uid in frame["movers"] and frame["mode"] == "command":
            return "it is an Army Group Narwa extra, which may move but not attack (2.4.2B)"
        return "it was not activated for combat (4.0A, 4.2.6A, 9.0A)"

    def apply_attack(self, board: Board, frame: MovingFrame, order: Order) -> None:
        side = frame["side"]
        if order.form == "done":
            answered(frame)
            frame["stage"] = "end"
            return
        target = str(order.get("hex"))
        units = [str(u) for u in order.values("units")]
        full = [str(a) for a in order.values("full")]
        normal = [str(a) for a in order.values("normal")]
        available = attackers_available(board, frame)
        if not (board.enemy_in(target, side) and board.combat_units_at(target)):
            board.fail(f"{target} holds no enemy combat units: empty hexes and lone HQs cannot be attacked (9.0B)")
        for uid in units:
            if uid not in available:
                board.fail(f"{board.unit(uid).name} cannot attack now: {self._why_not_attacker(board, frame, uid)}")
            if target not in board.neighbours(board.hex_on_map(uid)):
                board.fail(f"{board.unit(uid).name} at {board.hex_of(uid)} is not next to {target} (9.0A)")
        if len(set(units)) != len(units):
            board.fail("a unit is named twice")
        if not any(board.attack(u) > 0 for u in units):
            board.fail("at least one attacking unit must have an attack strength above zero (9.2.3)")
        air = self._air(board, side, full, normal)
        min_column = None
        if order.get("odds"):
            if board.fog:
                board.fail("with fog of war an announced attack cannot be made conditional on its odds (2.1.3C); "
                           "drop the MIN clause")
            min_column = self._column_of(board, side, str(order.get("odds")))
        answered(frame)
        frame["attacked"].extend(units)
        board.emit("attack_announced", side=side, target=target, units=units, air=air)
        start_combat(board, side, target, units, air, min_column=min_column)

    @staticmethod
    def _air(board: Board, side: Side, full: list[str], normal: list[str]) -> dict[str, AirMode]:
        """12.1.1: one or two ready air units, each making a full or (if it has one) a normal attack."""
        air: dict[str, AirMode] = {}
        ready = ready_air(board, side)
        for a in full + normal:
            if a not in ready:
                board.fail(f"air unit {a} is not ready in its holding box (12.1.1A)", ready[:3])
        if len(full) + len(normal) > 2:
            board.fail("at most two air units support one combat (12.1.1A)")
        for a in normal:
            if board.scenario.air_unit(a).normal is None:
                board.fail(f"{board.scenario.air_unit(a).name} can only make a full attack (12.1.1B)")
        air.update({a: "full" for a in full})
        air.update({a: "normal" for a in normal})
        if len(air) != len(full) + len(normal):
            board.fail("an air unit is named twice")
        return air

    @staticmethod
    def _column_of(board: Board, side: str, text: str) -> int:
        for col in board.scenario.tables.crt.columns:
            if getattr(col, side) == text:
                return col.index
        board.fail(f"no column {text} on the {side} line of the CRT",
                   [getattr(c, side) for c in board.scenario.tables.crt.columns][:3])

    @staticmethod
    def context(frame: MovingFrame) -> dict[str, Any]:
        """What ON and IF tests may ask about this activation (its mode, chit and HQ)."""
        ctx = dict(frame.get("context") or {})
        ctx.update({"mode": frame["mode"], "chit": frame.get("chit_group"), "chit_id": frame.get("chit"),
                    "hq": frame.get("hq")})
        return ctx

