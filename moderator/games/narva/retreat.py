"""Retreats (9.5, 5.4, 7.2B-C, 11.1.1).

Each hex of a retreat must be one hex further from the start (9.5.2B).  Among the paths the units
may take (terrain as for movement, 9.5.1; no enemy units but a lone HQ, which is overrun, 9.5B),
the owner must pick one that is best by the rule's priorities, in order: fewest hexes short
(each costs a step, 9.5.1B, 9.5.2C), fewest hexes in an enemy ZOC (each costs the stack a step,
9.5.3), ending supplied if possible (9.5.4).  Among those the owner chooses freely; the deadline
answer (``RETREAT AUTO``) then prefers a legal final stack, the nearest friendly supply source,
defensive terrain and the lowest hex numbers (digest 3.3).
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.core.contract import Decision
from moderator.core.frames import Automatic, answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.narva.board import Board
from moderator.games.narva.hq import displace_if_alone, overrun_lone_hqs
from moderator.games.narva.losses import push_losses
from moderator.games.narva.movement import river_crossing, usable_roads
from moderator.games.narva.state import OverstackFrame, RetreatFrame, Side, StrengthUsed
from moderator.games.narva.supply import hex_supplied, supplied_hexes


@dataclass(frozen=True)
class Route:
    hexes: tuple[str, ...]  # the hexes entered, in order (the start hex not included)
    short: int
    ezoc: int
    supplied: bool
    stack_ok: bool
    to_source: int
    shelter: int

    @property
    def priority(self) -> tuple[int, int, int]:
        """What the rules rank (9.5.1-9.5.4): shortfall, EZOC hexes, unsupplied end."""
        return (self.short, self.ezoc, int(not self.supplied))

    @property
    def preference(self) -> tuple:
        return (*self.priority, int(not self.stack_ok), self.to_source, -self.shelter, self.hexes)


def push_retreat(board: Board, side: Side, units: list[str], origin: str, length: int, why: str, *,
                 by: StrengthUsed = "defense", interrupts: Side | None = None) -> None:
    """Queue the retreat of those `units` still in `origin` (none when `length` is 0)."""
    units = [u for u in units if board.is_on_map(u) and board.hex_of(u) == origin]
    if length <= 0 or not units:
        return
    board.push(new_frame(board.data, "retreat", side=side, units=units, origin=origin, length=length,
                         why=why, by=by, interrupts=interrupts))


def can_enter(board: Board, units: list[str], a: str, b: str) -> bool:
    side = board.side_of(units[0])
    if board.scenario.hex(b).water:
        return False
    if board.enemy_in(b, side) and not (board.lone_hq(b) and any(board.is_combat(u) for u in units)):
        return False  # 9.5B: never through enemy units, except to overrun a lone HQ
    for uid in units:
        if not board.may_stand(uid, b) or river_crossing(board, uid, a, b) == "prohibited":
            return False  # 9.5.1A: only where the units could move
        if board.scenario.move_cost(b, board.unit(uid).movement_class) is None and not usable_roads(board, a, b):
            return False  # 9.5.1A: terrain prohibited off-road (swamp to mechanized units) only along a road
    return True


def routes(board: Board, units: list[str], origin: str, length: int) -> list[Route]:
    side = board.side_of(units[0])
    hexes_supplied = supplied_hexes(board, side, without=units)  # the stack has left its hex (N-64)
    sources = board.scenario.supply_sources(side)
    zoc = board.zoc_of("soviet" if side == "german" else "german")
    found: list[Route] = []

    def extend(path: tuple[str, ...]) -> None:
        here = path[-1] if path else origin
        step = len(path) + 1
        nexts = [n for n in board.neighbours(here)
                 if board.scenario.distance(origin, n) == step and can_enter(board, units, here, n)
                 ] if step <= length else []
        if not nexts:
            if not path:
                found.append(Route((), length, 0, False, True, 99, 0))
                return
            end = path[-1]
            found.append(Route(
                path, length - len(path), sum(1 for h in path if h in zoc),
                hex_supplied(board, side, end, hexes_supplied) or not board.unit(units[0]).needs_supply,
                _stack_ok(board, units, end), min((board.scenario.distance(end, s) for s in sources), default=0),
                _shelter(board, end)))
            return
        for n in nexts:
            extend(path + (n,))

    extend(())
    return found


def _shelter(board: Board, h: str) -> int:
    info = board.scenario.hex(h)
    return int(info.terrain in ("city", "village", "hill", "swamp") or info.pd_division is not None)


def _stack_ok(board: Board, units: list[str], h: str) -> bool:
    here = [u for u in board.units_at(h) if u not in units]
    if board.lone_hq(h) and board.enemy_in(h, board.side_of(units[0])):
        here = []
    limits = board.scenario.meta.stacking
    all_units = here + units
    hqs = [u for u in all_units if board.is_hq(u)]
    guns = [u for u in all_units if board.unit(u).type == "assault_gun" and board.side_of(u) == "soviet"]
    combat = [u for u in all_units if not board.is_hq(u) and u not in guns]
    return len(combat) <= limits.combat and len(hqs) <= limits.hq and len(guns) <= limits.soviet_assault_gun


def best_routes(found: list[Route]) -> list[Route]:
    top = min(r.priority for r in found)
    return [r for r in found if r.priority == top]


def execute(board: Board, frame: RetreatFrame, units: list[str], route: Route) -> None:
    side = frame["side"]
    origin = frame["origin"]
    for h in route.hexes:
        if board.enemy_in(h, side) and board.lone_hq(h):
            overrun_lone_hqs(board, h, by=units[0])  # 9.5B
        for uid in units:
            board.pass_through(uid, h)
    end = route.hexes[-1] if route.hexes else origin
    for uid in units:
        board.unpin(uid)  # 2.5.1.3C: pinned units forced to retreat lose the pin, even those with nowhere to go
        if route.hexes:
            board.place(uid, end)
    board.emit("retreated", side=side, units=units, origin=origin, path=list(route.hexes), short=route.short,
               ezoc=route.ezoc, why=frame["why"], visible_to=(side,))
    # the other side sees a stack go, and under fog only its top counter (2.1.3B)
    board.emit("enemy_retreated", side=side, top=units[0], count=len(units), origin=origin, path=list(route.hexes),
               hidden_from=(side,))
    board.remember("retreat", side=side, path=[origin, *route.hexes])
    # Losses: EZOC hexes (strongest, 9.5.3C-D, or owner by option), then the hexes short (owner, 9.5.2C-D).
    strongest = board.options["ezoc_retreat_loss"] == "strongest"
    for _ in range(route.ezoc):
        push_losses(board, side, units, 1, "retreat into an enemy zone of control (9.5.3)",
                    strongest_first=strongest, by=frame["by"], hex_id=end, interrupts=frame.get("interrupts"))
    if route.short:
        push_losses(board, side, units, route.short, f"{route.short} hex(es) of retreat not possible (9.5.1-9.5.2)",
                    strongest_first=False, by=frame["by"], hex_id=end, interrupts=frame.get("interrupts"))
    if route.hexes and not route.stack_ok:
        board.push(new_frame(board.data, "overstack", side=side, units=units, hex=end, origin=origin,
                             distance=len(route.hexes), by=frame["by"], interrupts=frame.get("interrupts")))


class Retreat:
    def _routes(self, board: Board, frame: RetreatFrame, units: list[str] | None = None) -> list[Route]:
        return routes(board, units or self._units(board, frame), frame["origin"], frame["length"])

    @staticmethod
    def _units(board: Board, frame: RetreatFrame) -> list[str]:
        return [u for u in frame["units"] if board.is_on_map(u) and board.hex_of(u) == frame["origin"]]

    def decisions(self, board: Board, frame: RetreatFrame) -> list[Decision]:
        units = self._units(board, frame)
        best = best_routes(self._routes(board, frame))
        ways = "; ".join("-".join(r.hexes) or "(none)" for r in sorted(best, key=lambda r: r.preference)[:4])
        prompt = (f"{frame['why']}: retreat {', '.join(board.unit(u).name for u in units)} {frame['length']} hex(es) "
                  f"from {frame['origin']}. Best paths under 9.5: {ways}.")
        options = ["RETREAT AUTO", *(f"RETREAT VIA {' '.join(r.hexes)}" for r in best if r.hexes)]
        return [ask(frame, frame["side"], "retreat", prompt, options, "RETREAT AUTO",
                    deadline="reaction", interrupts=frame.get("interrupts"),
                    context={"hex": frame["origin"], "why": frame["why"], "length": frame["length"]})]

    def legal(self, board: Board, frame: RetreatFrame, decision: Decision) -> list[Order]:
        best = best_routes(self._routes(board, frame))
        out = [Order.make("retreat", "auto")]
        out += [Order.make("retreat", "via", path=r.hexes) for r in best[:3] if r.hexes]
        return out

    def apply(self, board: Board, frame: RetreatFrame, decision: Decision, order: Order) -> None:
        units = self._units(board, frame)
        if order.form == "auto":
            chosen = units
            route = min(self._routes(board, frame, chosen), key=lambda r: r.preference)
        else:
            chosen = [str(u) for u in order.values("units")] or units
            for uid in chosen:
                if uid not in units:
                    board.fail(f"{board.unit(uid).name} is not retreating from {frame['origin']}")
            if any(board.is_hq(u) for u in units) and not any(board.is_hq(u) for u in chosen) \
                    and len(chosen) == len([u for u in units if not board.is_hq(u)]):
                chosen = units  # 11.1.1: the HQ goes with the last of its stack
            path = tuple(str(h) for h in order.values("path"))
            found = self._routes(board, frame, chosen)
            match = next((r for r in found if r.hexes == path), None)
            best = best_routes(found)
            if match is None:
                board.fail(f"{'-'.join(path)} is not a retreat path for these units: each hex one further "
                           f"from {frame['origin']}, into hexes they could enter (9.5.1-9.5.2)",
                           [f"RETREAT VIA {' '.join(r.hexes)}" for r in best[:3] if r.hexes])
            if match.priority != best[0].priority:
                board.fail("a better retreat exists under the priorities of 9.5 (fewer hexes short, fewer enemy "
                           "zones of control, ending supplied)",
                           [f"RETREAT VIA {' '.join(r.hexes)}" for r in best[:3] if r.hexes])
            route = match
        answered(frame)
        rest = [u for u in units if u not in chosen]
        if rest:
            frame["units"] = rest
        else:
            board.pop()
        execute(board, frame, chosen, route)

    def step(self, board: Board, frame: RetreatFrame) -> bool:
        units = self._units(board, frame)
        if not units:
            board.pop()
            return True
        if all(board.is_hq(u) for u in units):
            # An HQ left alone by losses is displaced instead (11.1.3).
            board.pop()
            displace_if_alone(board, frame["origin"])
            return True
        found = self._routes(board, frame)
        if len(best_routes(found)) == 1 and len(found) == 1:
            board.pop()
            execute(board, frame, units, found[0])
            return True
        return False


class Overstack(Automatic[Board, OverstackFrame]):
    """7.2B-C, 9.5.5B-C: a retreat ending overstacked goes one hex further, or the excess is lost."""

    def step(self, board: Board, frame: OverstackFrame) -> bool:
        board.pop()
        end = frame["hex"]
        units = [u for u in frame["units"] if board.is_on_map(u) and board.hex_of(u) == end]
        if not units or board.stacking_ok(end):
            return True
        # the retreating units in excess move on: HQs if two HQs meet, else the last combat units
        excess = _excess(board, end, units)
        onward = [n for n in board.neighbours(end)
                  if board.scenario.distance(frame["origin"], n) == frame["distance"] + 1
                  and can_enter(board, excess, end, n)
                  and _stack_ok(board, excess, n) and not board.enemy_in(n, frame["side"])]
        if onward:
            target = min(onward, key=lambda h: (board.in_enemy_zoc(h, frame["side"]), h))
            for uid in excess:
                board.place(uid, target)
            board.emit("retreated", side=frame["side"], units=excess, origin=end, path=[target], short=0, ezoc=0,
                       why="the last hex of the retreat was overstacked (7.2B)", visible_to=(frame["side"],))
            board.emit("enemy_retreated", side=frame["side"], top=excess[0], count=len(excess), origin=end,
                       path=[target], hidden_from=(frame["side"],))
            if board.in_enemy_zoc(target, frame["side"]):
                # 5.4A-B, 9.5.3C: the extra hex is part of the retreat; entering an EZOC costs a step
                push_losses(board, frame["side"], excess, 1, "retreat into an enemy zone of control (9.5.3)",
                            strongest_first=board.options["ezoc_retreat_loss"] == "strongest",
                            by=frame.get("by", "defense"), hex_id=target, interrupts=frame.get("interrupts"))
            return True
        for uid in excess:
            board.eliminate(uid, "overstacked at the end of a retreat with nowhere further to go (7.2B-C)")
        return True


def _excess(board: Board, hex_id: str, retreating: list[str]) -> list[str]:
    limits = board.scenario.meta.stacking
    units = board.units_at(hex_id)
    out: list[str] = []
    hqs = [u for u in units if board.is_hq(u)]
    if len(hqs) > limits.hq:
        out += [u for u in retreating if board.is_hq(u)][: len(hqs) - limits.hq]
    guns = [u for u in units if board.unit(u).type == "assault_gun" and board.side_of(u) == "soviet"]
    if len(guns) > limits.soviet_assault_gun:
        out += [u for u in retreating if u in guns][: len(guns) - limits.soviet_assault_gun]
    combat = [u for u in units if not board.is_hq(u) and u not in guns]
    if len(combat) > limits.combat:
        mine = [u for u in reversed(retreating) if u in combat]
        out += mine[: len(combat) - limits.combat]
    return out
