"""The working copy of an Across the Narva game that the rules modules read and change.

The engine state is a plain JSON tree; `Board` wraps one copy of it with the scenario, the random
source and the events being emitted, and gives the rules modules a vocabulary that reads as prose:
``board.units_at(hex)``, ``board.in_enemy_zoc(hex, side)``, ``board.lose_step(unit)``.  What the
state holds is typed in `state` (`NarvaState`, built by `setup.initial_state`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from moderator.core.board import BoardBase
from moderator.core.rng import Rng
from moderator.games.narva.scenario import MECHANIZED_TYPES, Scenario, Unit
from moderator.games.narva.state import NarvaState, Options, Side, SupplyState, UnitRecord, Where

if TYPE_CHECKING:
    from moderator.games.narva.scenario import Formation, HexInfo, HexsideInfo

SIDES: tuple[Side, Side] = ("german", "soviet")

#: The three limits of 7.1B.
StackingClass = Literal["combat", "hq", "soviet_assault_gun"]


def _zoc_memo(_scenario: Scenario) -> dict[tuple[str, str], bool]:
    """{(a, b): does a ZOC stop at this hexside?}, kept on the scenario (the map never changes)."""
    return {}


def enemy(side: str) -> Side:
    return "soviet" if side == "german" else "german"


def as_side(name: str) -> Side:
    """`name` as a side; raises ValueError for any other name (the observer, the referee, or the "both"
    of the random event chit, the one chit both sides share, 2.5.2)."""
    if name == "german":
        return "german"
    if name == "soviet":
        return "soviet"
    raise ValueError(f"{name!r} is not a side")


class Board(BoardBase[Scenario]):
    data: NarvaState
    scenario: Scenario

    def __init__(self, data: NarvaState, scenario: Scenario, rng: Rng | None = None):
        super().__init__(data, scenario, rng)
        self._where: dict[str, list[str]] | None = None
        self._zoc: dict[str, frozenset[str]] = {}
        self._side_units: dict[str, list[str]] = {}
        self.step_profiles: dict[tuple[str, bool], tuple[Any, ...]] = {}
        index = scenario.lookups()
        # Plain-dict lookups for the hot loops (pathfinding, ZOC, supply): no model layer in between.
        self._unit_index = index["units"]
        self.neighbours: Callable[[str], tuple[str, ...]] = index["nbrs"].__getitem__
        self._sides: dict[tuple[str, str], HexsideInfo] = index["sides"]
        self.hexinfo: Callable[[str], HexInfo] = index["hexes"].__getitem__

    # ------------------------------------------------------------------ simple fields

    @property
    def options(self) -> Options:
        return self.data["options"]

    @property
    def fog(self) -> bool:
        return self.options["fog"] == "on"

    @property
    def frozen(self) -> bool:
        """Major rivers and the winter trail are frozen (6.2.1C, 6.2.2B)."""
        return self.scenario.frozen(self.turn, self.data["freeze_extended"])

    # ------------------------------------------------------------------ units

    def hexside(self, a: str, b: str) -> HexsideInfo:
        """The side between two adjacent hexes (see Scenario.hexside)."""
        return self._sides[(a, b)]

    def unit(self, uid: str) -> Unit:
        return self._unit_index[uid]

    def state_of(self, uid: str) -> UnitRecord:
        return self.data["units"][uid]

    def hex_of(self, uid: str) -> str | None:
        return self.data["units"][uid]["hex"]

    def hex_on_map(self, uid: str) -> str:
        """The hex of a unit on the map; raises ValueError for a unit off it (which has no hex)."""
        hex_id = self.data["units"][uid]["hex"]
        if hex_id is None:
            raise ValueError(f"{uid} is not on the map")
        return hex_id

    def side_of(self, uid: str) -> Side:
        return self._unit_index[uid].side

    def is_on_map(self, uid: str) -> bool:
        return self.data["units"][uid]["where"] == "map"

    def is_reduced(self, uid: str) -> bool:
        return self.data["units"][uid]["reduced"]

    def is_hq(self, uid: str) -> bool:
        return self._unit_index[uid].type == "hq"

    def is_combat(self, uid: str) -> bool:
        return self._unit_index[uid].type != "hq"

    def is_mechanized(self, uid: str) -> bool:
        """Tanks, assault guns and mechanized units pay and cross as mechanized (ruling N-38)."""
        return self.unit(uid).type in MECHANIZED_TYPES

    def is_army_hq(self, uid: str) -> bool:
        unit = self.unit(uid)
        return (unit.type == "hq" and unit.formation is not None
                and self.scenario.formation(unit.formation).kind == "army")

    def hq_formation(self, hq: str) -> Formation:
        """The formation an HQ heads (the scenario validator gives every HQ one); raises KeyError
        for a unit that heads none."""
        formation = self.unit(hq).formation
        if formation is None:
            raise KeyError(f"{hq} heads no formation")
        return self.scenario.formation(formation)

    def attack(self, uid: str) -> int:
        return self.unit(uid).strength(self.is_reduced(uid)).attack

    def defense(self, uid: str) -> int:
        return self.unit(uid).strength(self.is_reduced(uid)).defense

    def movement_allowance(self, uid: str) -> float:
        """Printed MA, halved when isolated (10.3.2); exactly, with no rounding, since road costs
        can be fractions (ruling N-61)."""
        ma = self.unit(uid).strength(self.is_reduced(uid)).movement
        return ma / 2 if self.supply(uid) == "isolated" else ma

    def supply(self, uid: str) -> SupplyState:
        return self.data["units"][uid]["supply"]

    def has_zoc(self, uid: str) -> bool:
        """HQs, assault guns and units with a printed attack of 0 exert no ZOC (5.2)."""
        return self.unit(uid).zoc

    def units_of(self, side: str) -> list[str]:
        """Units of a side on the map (a fresh list; cached until the next change)."""
        cached = self._side_units.get(side)
        if cached is None:
            # sorted: the stored state is JSON with sorted keys, so dict order must never matter
            cached = self._side_units[side] = sorted(u for u, st in self.data["units"].items()
                                                     if st["where"] == "map" and self.unit(u).side == side)
        return list(cached)

    def _index(self) -> dict[str, list[str]]:
        if self._where is None:
            where: dict[str, list[str]] = {}
            for uid, st in sorted(self.data["units"].items()):
                if st["where"] == "map" and st["hex"] is not None:  # `place` gives a unit on the map its hex
                    where.setdefault(st["hex"], []).append(uid)
            for units in where.values():
                units.sort(key=lambda u: (self.is_hq(u), self.data["units"][u]["seq"]))
            self._where = where
        return self._where

    def changed(self) -> None:
        """Forget cached positions and zones of control after any unit changes hex or leaves play."""
        self._where = None
        self._zoc = {}
        self._side_units = {}

    def units_at(self, hex_id: str) -> list[str]:
        """Units in a hex, in stack order: combat units first (in order of arrival), the HQ last."""
        return list(self._index().get(hex_id, ()))

    def occupied_hexes(self) -> dict[str, list[str]]:
        return self._index()

    def stack_marker(self, hex_id: str) -> str | None:
        """The supply marker lying on a stack (10.0): ISOLATED over OOS, whichever unit it stems from."""
        states = {self.supply(u) for u in self.units_at(hex_id)}
        return "ISOLATED" if "isolated" in states else "OOS" if "oos" in states else None

    def faces_seen_by_enemy(self, hex_id: str) -> list[str]:
        """The units of a stack the other side sees face up: all of them without fog; under fog the
        top unit, unless a marker lies on the stack and covers it (2.1.3B, ruling N-57).  The marker
        covers the face whichever unit it stems from: uncovering the face when the top unit is the
        marked one would tell the enemy which unit the marker belongs to."""
        units = self.units_at(hex_id)
        if not self.fog:
            return units
        return [] if self.stack_marker(hex_id) else units[:1]

    def shown_to_enemy(self, uid: str) -> bool:
        """Whether the other side sees this unit of the map face up now (see faces_seen_by_enemy)."""
        hex_id = self.hex_of(uid)
        return hex_id is not None and uid in self.faces_seen_by_enemy(hex_id)

    def combat_units_at(self, hex_id: str) -> list[str]:
        return [u for u in self.units_at(hex_id) if not self.is_hq(u)]

    def hqs_at(self, hex_id: str) -> list[str]:
        return [u for u in self.units_at(hex_id) if self.is_hq(u)]

    def owner_of(self, hex_id: str) -> Side | None:
        units = self._index().get(hex_id)
        return self.unit(units[0]).side if units else None

    def enemy_in(self, hex_id: str, side: str) -> bool:
        return self.owner_of(hex_id) == enemy(side)

    def lone_hq(self, hex_id: str) -> bool:
        units = self._index().get(hex_id, ())
        return bool(units) and all(self.is_hq(u) for u in units)

    # ------------------------------------------------------------------ moving units

    def place(self, uid: str, hex_id: str) -> None:
        st = self.data["units"][uid]
        if st["hex"] != hex_id:
            self.unpin(uid)  # ruling N-69: a unit that leaves its hex leaves the pin behind
        st["hex"] = hex_id
        st["where"] = "map"
        self.data["seq"] += 1
        st["seq"] = self.data["seq"]
        self.changed()
        self.pass_through(uid, hex_id)

    def pass_through(self, uid: str, hex_id: str) -> None:
        """VP hex control goes to the last side to pass through with a ZOC combat unit (13.2)."""
        if hex_id in self.data["control"] and self.has_zoc(uid) and self.is_combat(uid):
            self.data["control"][hex_id] = self.side_of(uid)

    def remove(self, uid: str, where: Where = "eliminated") -> None:
        """Take the unit off the map (eliminated, withdrawn, displacing); its pin ends (ruling N-69)."""
        self.unpin(uid)
        st = self.data["units"][uid]
        st["where"] = where
        st["hex"] = None
        self.changed()

    def lose_step(self, uid: str, why: str) -> str:
        """Flip a full unit, eliminate a reduced or one-step unit (9.4); say which happened."""
        st = self.data["units"][uid]
        hex_id = st["hex"]
        if self.unit(uid).steps >= 2 and not st["reduced"]:
            st["reduced"] = True
            self.emit("step_lost", unit=uid, hex=hex_id, result="reduced", why=why)
            return "reduced"
        self.eliminate(uid, why)
        return "eliminated"

    def eliminate(self, uid: str, why: str) -> None:
        """Take the unit out of play whatever its steps (7.2B-C, 8.6C), told as the step that ended it."""
        hex_id = self.hex_of(uid)
        self.remove(uid)
        self.emit("step_lost", unit=uid, hex=hex_id, result="eliminated", why=why)

    # ------------------------------------------------------------------ pins (2.5.1.3)

    def is_pinned(self, uid: str) -> bool:
        """2.5.1.3A: the unit was in a hex a barrage pinned this turn, and is still there."""
        hex_id = self.data["units"][uid]["hex"]
        return hex_id is not None and uid in self.data["pinned"].get(hex_id, ())

    def hex_pinned(self, hex_id: str) -> bool:
        """The hex holds at least one pinned unit: it carries the marker, and attacks on it are
        attacks against pinned units (2.5.1.3B, ruling N-59)."""
        return hex_id in self.data["pinned"]

    def unpin(self, uid: str) -> None:
        """The unit's pin ends (2.5.1.3C retreat; ruling N-69: it leaves its hex or the map); the
        hex's marker goes with the last pinned unit under it."""
        hex_id = self.data["units"][uid]["hex"]
        pinned = self.data["pinned"]
        if hex_id is not None and uid in pinned.get(hex_id, ()):
            pinned[hex_id].remove(uid)
            if not pinned[hex_id]:
                del pinned[hex_id]

    # ------------------------------------------------------------------ zones of control (5.0)

    def zoc_of(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of `side`'s units: adjacent hexes, not across an unbridged major river
        or a ferry (5.6, ruling N-39)."""
        found = self._zoc.get(side)
        if found is None:
            zone: set[str] = set()
            frozen = self.frozen
            for hex_id, units in self._index().items():
                if self.unit(units[0]).side != side or not any(self.has_zoc(u) for u in units):
                    continue
                for n in self.neighbours(hex_id):
                    if not self.blocks_zoc(hex_id, n, frozen):
                        zone.add(n)
            found = self._zoc[side] = frozenset(zone)
        return found

    def in_enemy_zoc(self, hex_id: str, side: str) -> bool:
        """Friendly units never negate EZOCs for movement, retreat or placement (5.3B, 5.4C)."""
        return hex_id in self.zoc_of(enemy(side))

    def blocks_zoc(self, a: str, b: str, frozen: bool | None = None) -> bool:
        frozen = self.frozen if frozen is None else frozen
        memo = self.scenario.memo(("zoc_blocks", frozen), _zoc_memo)
        found = memo.get((a, b))
        if found is None:
            side = self.hexside(a, b)
            found = memo[(a, b)] = bool(side.river is not None and side.river_kind == "major"
                                        and (not self.bridged(a, b, frozen) or side.ferry))
        return found

    def bridged(self, a: str, b: str, frozen: bool | None = None) -> bool:
        """A river hexside crossed by a road of any kind or a railway is bridged (2.2.8A); the
        winter trail exists only while frozen (6.2.1C), and its crossings with it (ruling N-37)."""
        side = self.hexside(a, b)
        if side.ferry:
            return False
        if side.bridge:
            return True
        routes = side.routes - {"winter_trail"}
        if routes:
            return True
        return "winter_trail" in side.routes and (self.frozen if frozen is None else frozen)

    # ------------------------------------------------------------------ restricted hexes (6.3)

    def may_stand(self, uid: str, hex_id: str) -> bool:
        """Terrain and the German PD / Narva restrictions (6.3A, C-E; 11.3.1), whatever the enemy."""
        info = self.scenario.hex(hex_id)
        if info.water:  # an all-water hex is never entered; a lake drawn in a land hex is nothing (ruling N-14)
            return False
        unit = self.unit(uid)
        if unit.side == "german":
            if info.pd_division is not None and unit.formation not in ("4SS", "11SS"):
                return False
            if ("narva" in info.areas or "enclave" in info.areas) and not unit.ss:
                return False
        if self.scenario.move_cost(hex_id, "mechanized" if self.is_mechanized(uid) else "infantry") is None:
            # prohibited terrain off-road; a road or railway into the hex still lets units stand there
            routes = info.routes if self.frozen else info.routes - {"winter_trail"}
            return bool(routes)
        return True

    def stacking_class(self, uid: str) -> StackingClass:
        """Which of the three limits of 7.1B a unit counts against: an HQ, a Soviet assault gun, or
        a combat unit (a German assault gun is a combat unit)."""
        if self.is_hq(uid):
            return "hq"
        if self.unit(uid).type == "assault_gun" and self.side_of(uid) == "soviet":
            return "soviet_assault_gun"
        return "combat"

    def stacking_limit(self, kind: StackingClass) -> int:
        limits = self.scenario.meta.stacking
        return {"combat": limits.combat, "hq": limits.hq, "soviet_assault_gun": limits.soviet_assault_gun}[kind]

    def stacking_ok(self, hex_id: str, extra: Iterable[str] = ()) -> bool:
        """Two combat units, one HQ and one Soviet assault gun (7.1B)."""
        units = set(self.units_at(hex_id)) | set(extra)
        counts = Counter(self.stacking_class(u) for u in units)
        return all(count <= self.stacking_limit(kind) for kind, count in counts.items())

    # ------------------------------------------------------------------ misc

    @cached_property
    def last_turn(self) -> int:
        return self.scenario.meta.last_turn
