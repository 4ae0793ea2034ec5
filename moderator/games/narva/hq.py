"""HQ rules (11.1): displacement of HQs left alone or overrun, the command range (4.2.4) and the
Soviet Army HQ span (4.2.5).

An HQ is displaced to a supplied hex not in an enemy zone of control, at least five hexes away
(11.1.3), not enemy-occupied and without another friendly HQ (ruling N-43); a Soviet Army HQ also
lands outside the other Army HQs' command span (4.2.5D).  With no such hex it is eliminated and
never returns (ruling N-45).
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import Board
from moderator.games.narva.state import DisplaceFrame, Side
from moderator.games.narva.supply import hex_supplied, supplied_hexes

DISPLACE_DISTANCE = 5  # 11.1.3A


def displace_if_alone(board: Board, hex_id: str) -> None:
    """11.1.3A: an HQ whose stack-mates were all eliminated (barrage included) is displaced."""
    units = board.units_at(hex_id)
    if units and all(board.is_hq(u) for u in units):
        for hq in units:
            board.remove(hq, "displacing")
            board.push(new_frame(board.data, "displace", hq=hq, origin=hex_id))


def overrun_lone_hqs(board: Board, hex_id: str, by: str) -> list[str]:
    """11.1.4: the lone enemy HQs in a hex that `by` enters are overrun and displaced; returns them."""
    hqs = board.hqs_at(hex_id)
    for hq in hqs:
        board.remove(hq, "displacing")
        board.emit("overrun", hq=hq, hex=hex_id, by=by)
        board.push(new_frame(board.data, "displace", hq=hq, origin=hex_id))
    return hqs


def in_command_range(board: Board, hq: str, uid: str) -> bool:
    """4.2.4A: within the HQ's command range, counted in hexes from the HQ."""
    return board.scenario.distance(board.hex_on_map(hq), board.hex_on_map(uid)) <= (board.unit(hq).command_range or 0)


def army_spans(board: Board, hq: str) -> list[tuple[str, int]]:
    """4.2.5A with N-23: where each other Soviet Army HQ stands, with the distance `hq` must exceed
    there (the larger of the two ranges); none for an HQ that is not an Army HQ.  Worked out once
    for a whole search of hexes, since it does not depend on the hex."""
    if not board.is_army_hq(hq):
        return []
    mine = board.unit(hq).command_range or 0
    return [(board.hex_on_map(other), max(mine, board.unit(other).command_range or 0))
            for other in board.units_of("soviet")
            if other != hq and board.is_army_hq(other) and board.is_on_map(other)]  # one off the map has no span


def outside_army_span(board: Board, hq: str, hex_id: str, spans: list[tuple[str, int]] | None = None) -> bool:
    """4.2.5A: Soviet Army HQs may not be within each other's command span (N-23: the distance
    exceeds the larger of the two ranges); `spans` as army_spans gives them, when already known."""
    spans = army_spans(board, hq) if spans is None else spans
    return all(board.scenario.distance(hex_id, where) > reach for where, reach in spans)


def displacement_hexes(board: Board, hq: str, origin: str) -> list[str]:
    side = board.side_of(hq)
    hexes = supplied_hexes(board, side)
    spans = army_spans(board, hq)
    found = []
    for h in board.scenario.hex_ids():
        if board.scenario.distance(origin, h) < DISPLACE_DISTANCE:
            continue
        if not _may_receive(board, hq, h, side, hexes, spans):
            continue
        found.append(h)
    return found


def _may_receive(board: Board, hq: str, h: str, side: Side, hexes: frozenset[str],
                 spans: list[tuple[str, int]]) -> bool:
    if board.scenario.hex(h).water or board.enemy_in(h, side) or board.hqs_at(h):
        return False
    if not board.may_stand(hq, h) or board.in_enemy_zoc(h, side):
        return False
    if not hex_supplied(board, side, h, hexes):
        return False
    return outside_army_span(board, hq, h, spans)


def auto_hex(board: Board, hq: str, origin: str, legal: list[str]) -> str:
    """Deadline answer: the legal hex nearest the origin, then nearest a friendly supply source."""
    sources = board.scenario.supply_sources(board.side_of(hq))

    def to_source(h: str) -> int:
        return min((board.scenario.distance(h, s) for s in sources), default=0)

    return min(legal, key=lambda h: (board.scenario.distance(origin, h), to_source(h), h))


class Displace:
    def _legal(self, board: Board, frame: DisplaceFrame) -> list[str]:
        # Computed once, when the frame first comes up (in `step`): nothing moves while the owner decides.
        if "legal" in frame:
            return frame["legal"]
        return displacement_hexes(board, frame["hq"], frame["origin"])

    def decisions(self, board: Board, frame: DisplaceFrame) -> list[Decision]:
        hq = frame["hq"]
        legal = self._legal(board, frame)
        side = board.side_of(hq)
        near = sorted(legal, key=lambda h: (board.scenario.distance(frame["origin"], h), h))[:8]
        prompt = (f"Your HQ {board.unit(hq).name} was displaced from {frame['origin']} (11.1.3): where to? "
                  f"A supplied hex, not in an enemy zone of control, at least {DISPLACE_DISTANCE} hexes away; "
                  f"nearest: {', '.join(near)}.")
        options = ["DISPLACE AUTO", *(f"DISPLACE TO {h}" for h in sorted(legal))]
        return [ask(frame, side, "displace", prompt, options, "DISPLACE AUTO", deadline="reaction",
                    interrupts=board.data.get("active_side"), context={"hq": hq, "hex": frame["origin"]})]

    def legal(self, board: Board, frame: DisplaceFrame, decision: Decision) -> list[Order]:
        return [Order.make("displace", "auto")] + [Order.make("displace", "to", hex=h)
                                                   for h in self._legal(board, frame)[:5]]

    def apply(self, board: Board, frame: DisplaceFrame, decision: Decision, order: Order) -> None:
        legal = self._legal(board, frame)
        if order.form == "auto":
            target = auto_hex(board, frame["hq"], frame["origin"], legal)
        else:
            target = str(order.get("hex"))
            if target not in legal:
                span = ", outside the other Army HQs' command span (4.2.5D)" if board.is_army_hq(frame["hq"]) else ""
                board.fail(f"{target} is not a legal displacement hex (11.1.3: supplied, no enemy ZOC, "
                           f"at least {DISPLACE_DISTANCE} hexes away{span})",
                           [f"DISPLACE TO {h}"
                            for h in sorted(legal, key=lambda h: board.scenario.distance(frame['origin'], h))[:3]])
        answered(frame)
        board.pop()
        self._place(board, frame["hq"], frame["origin"], target)

    def step(self, board: Board, frame: DisplaceFrame) -> bool:
        legal = frame["legal"] = self._legal(board, frame)
        if not legal:
            board.pop()
            board.remove(frame["hq"])
            board.emit("hq_eliminated", hq=frame["hq"], hex=frame["origin"],
                       why="no legal displacement hex (11.1.3, ruling N-43)")
            return True
        return False

    @staticmethod
    def _place(board: Board, hq: str, origin: str, target: str) -> None:
        board.place(hq, target)
        side = board.side_of(hq)
        board.emit("hq_displaced", hq=hq, origin=origin, hex=target, side=side, visible_to=(side,))
        # Under fog the enemy learns that the HQ left, not where it went (it joins the map as any unit).
        board.emit("enemy_hq_displaced", hq=hq, origin=origin, side=side, hidden_from=(side,),
                   hex=target if not board.fog else None)
