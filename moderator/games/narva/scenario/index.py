"""The Across the Narva scenario with its lookups: hexes and hexsides, the TEC, units and formations,
the set-up and reinforcement schedule, chits and the cup, the turn record track and the CRT.

Lookups read plain dicts built once per scenario object on first use and kept on it (see
`IndexedScenario`); they never re-validate.  A copy made with ``model_copy`` builds its own.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from moderator.core.scenario_files import entry
from moderator.games.narva.scenario.crt import CombatResult, crt_index
from moderator.games.narva.scenario.index_map import HexInfo, HexsideInfo, map_index
from moderator.games.narva.scenario.schema import (
    SIDES,
    AirUnit,
    Chit,
    CommandGroup,
    Formation,
    HexsideEffect,
    MoveClass,
    RandomEvent,
    ReinforcementRow,
    RoadEffect,
    ScenarioData,
    Side,
    TerrainEffect,
    Turn,
    Unit,
)
from moderator.maps.hexes import HexGrid


class Scenario(ScenarioData):
    """Everything the Across the Narva engine needs to start a game, with cached lookups."""

    def build_lookups(self) -> dict[str, Any]:
        return {**map_index(self), **_tec_index(self), **_units_index(self), **_schedule_index(self),
                **crt_index(self.tables)}

    @property
    def grid(self) -> HexGrid:
        return self.lookups()["grid"]

    # -- map ------------------------------------------------------------------------------------

    def hex_ids(self) -> tuple[str, ...]:
        """Every hex of the grid, column by column."""
        return self.lookups()["hex_ids"]

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.lookups()["hexes"]

    def hex(self, hex_id: str) -> HexInfo:
        try:
            return self.lookups()["hexes"][hex_id]
        except KeyError:
            raise KeyError(f"no hex {hex_id!r} on the map") from None

    def terrain(self, hex_id: str) -> str:
        return self.hex(hex_id).terrain

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """On-map neighbours (water included), clockwise from north."""
        try:
            return self.lookups()["nbrs"][hex_id]
        except KeyError:
            raise KeyError(f"no hex {hex_id!r} on the map") from None

    def land_neighbours(self, hex_id: str) -> tuple[str, ...]:
        try:
            return self.lookups()["land_nbrs"][hex_id]
        except KeyError:
            raise KeyError(f"no hex {hex_id!r} on the map") from None

    def hexside(self, a: str, b: str) -> HexsideInfo:
        """Features of the side between adjacent on-map hexes `a` and `b` (either order)."""
        try:
            return self.lookups()["sides"][(a, b)]
        except KeyError:
            raise KeyError(f"{a} and {b} are not adjacent hexes of the map") from None

    def distance(self, a: str, b: str) -> int:
        axial = self.lookups()["axial"]
        try:
            q1, r1 = axial[a]
            q2, r2 = axial[b]
        except KeyError:
            return self.lookups()["grid"].distance(a, b)
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def west_of_narva(self, hex_id: str) -> bool:
        return self.hex(hex_id).west_of_narva

    def area_hexes(self, name: str) -> tuple[str, ...]:
        """Hexes of a named area: a map hex set id, ``entry:X``, ``west_bank_villages``,
        ``rollbahn_a_to_narva``, or a PD division id (``pd:11SS``)."""
        return entry(self.lookups()["areas"], name, "map area")

    def entry_hexes(self, letter: str) -> tuple[str, ...]:
        return self.area_hexes(f"entry:{letter}")

    def supply_sources(self, side: Side) -> frozenset[str]:
        return self.lookups()["supply"][side]

    def pd_hexes(self, division: str) -> tuple[str, ...]:
        return self.area_hexes(f"pd:{division}")

    def rollbahn_vp_hexes(self) -> tuple[str, ...]:
        return self.area_hexes("rollbahn_a_to_narva")

    # -- TEC --------------------------------------------------------------------------------------

    def terrain_effect(self, terrain: str) -> TerrainEffect:
        return self.lookups()["tec_terrain"][terrain]

    def hexside_effect(self, feature: str) -> HexsideEffect:
        return self.lookups()["tec_sides"][feature]

    def road_effect(self, kind: str) -> RoadEffect:
        return self.lookups()["tec_roads"][kind]

    def move_cost(self, hex_id: str, movement_class: MoveClass) -> float | None:
        """MP to enter the hex off-road (None = prohibited)."""
        return self.lookups()["move_cost"][movement_class][hex_id]

    def legal_for(self, unit_id: str, hex_id: str) -> bool:
        """May this unit stand in this hex at all (terrain allows it, or a road/railway leads in)?"""
        info = self.hex(hex_id)
        if info.water:
            return False
        if self.move_cost(hex_id, self.unit(unit_id).movement_class) is not None:
            return True
        return bool(info.routes - {"winter_trail"})

    # -- units ------------------------------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        return entry(self.lookups()["units"], unit_id, "unit")

    def find_unit(self, text: str, side: Side | None = None) -> Unit | None:
        """The unit whose id, name or alias is `text` (case-insensitive), if exactly one matches."""
        hits = self.lookups()["unit_names"].get(text.strip().casefold(), ())
        hits = tuple(u for u in hits if side is None or u.side == side)
        return hits[0] if len(hits) == 1 else None

    def units_of(self, side: Side) -> tuple[Unit, ...]:
        return self.lookups()["units_of"][side]

    def formation(self, formation_id: str) -> Formation:
        return entry(self.lookups()["formations"], formation_id, "formation")

    def formation_units(self, formation_id: str) -> tuple[Unit, ...]:
        return self.lookups()["formation_units"].get(formation_id, ())

    def air_unit(self, air_id: str) -> AirUnit:
        return entry(self.lookups()["air"], air_id, "air unit")

    def setup_positions(self) -> dict[str, str]:
        """Unit id -> hex of the set-up (a fresh dict)."""
        return dict(self.lookups()["setup"])

    def setup_reduced(self) -> frozenset[str]:
        return self.lookups()["setup_reduced"]

    def reinforcements(self, turn: int, side: Side) -> tuple[ReinforcementRow, ...]:
        """Rows scheduled for this turn's Reinforcement Phase (flexible rows: their first turn)."""
        return self.lookups()["reinf"].get((turn, side), ())

    def air_reinforcements(self, turn: int, side: Side) -> tuple[str, ...]:
        return self.lookups()["air_reinf"].get((turn, side), ())

    # -- chits ------------------------------------------------------------------------------------

    def chit(self, chit_id: str) -> Chit:
        return entry(self.lookups()["chits"], chit_id, "chit")

    def command_group(self, group_id: str) -> CommandGroup:
        return entry(self.lookups()["groups"], group_id, "command group")

    def chits_for(self, turn: int) -> tuple[Chit, ...]:
        """Chits in the cup by schedule during turn `turn`'s Command Phase.

        A chit entering on turn N is put in the cup in turn N's Reinforcement Phase and so is first
        drawable on turn N+1; start chits (enters 0) from turn 1; a chit that leaves on turn N is
        removed in turn N's Reinforcement Phase, after that turn's draws.  Event-driven removals
        (withdrawals, Stavka, 2SH out of supply) are the engine's business.
        """
        return self.lookups()["cup"].get(turn, ())

    def chits_entering(self, turn: int) -> tuple[Chit, ...]:
        """Chits added in turn `turn`'s Reinforcement Phase (0 = the start cup)."""
        return tuple(c for c in self.chits if c.enters == turn)

    def chits_leaving(self, turn: int) -> tuple[Chit, ...]:
        return tuple(c for c in self.chits if c.leaves == turn)

    # -- turn record track ---------------------------------------------------------------------

    def turn(self, n: int) -> Turn:
        try:
            return self.lookups()["turns"][n]
        except KeyError:
            raise KeyError(f"no turn {n}") from None

    def activation_limit(self, n: int, side: Side) -> int:
        return self.turn(n).activations[side]

    def frozen(self, n: int, freeze_extended: bool = False) -> bool:
        """Are major rivers (other than never-frozen ones) and the winter trail frozen on turn n?"""
        t = self.turn(n)
        return t.weather == "frozen" or (freeze_extended and t.freeze_by_event)

    # -- combat ------------------------------------------------------------------------------------

    def crt_columns(self) -> int:
        return self.lookups()["ncolumns"]

    def odds_column(self, side_attacking: Side, attack: int, defense: int) -> int | None:
        """The CRT column (1-based) for these totals on the attacker's odds line, before shifts.

        None if below the lowest column; the highest column if above it or if the defense is 0
        (rule 9.3.2).  Odds are rounded in the defender's favour (digest ruling 31).
        """
        columns = self.lookups()["odds"][side_attacking]
        if defense <= 0:
            return len(columns)
        ratio = Fraction(attack, defense)
        best = None
        for i, odds in enumerate(columns, start=1):
            if ratio >= odds:
                best = i
        return best

    def _cell(self, column: int, die: int) -> tuple[CombatResult, CombatResult]:
        idx = self.lookups()
        if not 1 <= column <= idx["ncolumns"]:
            raise ValueError(f"CRT column {column} out of range 1..{idx['ncolumns']}")
        die = min(max(die, idx["die_min"]), idx["die_max"])  # modified rolls: clamp (tables.yaml)
        return idx["crt_cells"][(column, die)]

    def crt_result(self, side_attacking: Side, column: int, die: int) -> CombatResult:
        """The CRT result for this column and (possibly modified) roll; red attacker losses apply
        only when the Soviets attack (9.1D)."""
        full, without_red = self._cell(column, die)
        return full if side_attacking == "soviet" else without_red

    def crt(self, side_attacking: Side, column: int, die: int) -> str:
        """Result code such as ``"A1 D1r1"`` or ``"NR"`` (see `crt_result`)."""
        return self.crt_result(side_attacking, column, die).code

    def barrage_result(self, die: int) -> CombatResult:
        idx = self.lookups()
        die = min(max(die, idx["die_min"]), idx["die_max"])
        return idx["barrage_cells"][die]

    def barrage_count(self, side: Side, die: int) -> int:
        return self.lookups()["barrage_roll"][side][die]

    def random_event(self, roll: int) -> RandomEvent:
        try:
            return self.lookups()["events"][roll]
        except KeyError:
            raise KeyError(f"no random event for roll {roll}") from None


def _tec_index(s: ScenarioData) -> dict[str, Any]:
    """The Terrain Effects Chart by terrain, hexside feature and route kind."""
    return {
        "tec_terrain": {t.terrain: t for t in s.tables.terrain},
        "tec_sides": {h.feature: h for h in s.tables.hexsides},
        "tec_roads": {r.kind: r for r in s.tables.roads},
    }


def _units_index(s: ScenarioData) -> dict[str, Any]:
    """Units by id, by name or alias (case-folded), by side and by formation; formations and air units."""
    unit_names: dict[str, list[Unit]] = defaultdict(list)
    for u in s.units:
        for name in {u.id, u.name, *u.aliases}:
            unit_names[name.casefold()].append(u)
    formation_units: dict[str, list[Unit]] = defaultdict(list)
    for u in s.units:
        if u.formation:
            formation_units[u.formation].append(u)
    return {
        "units": {u.id: u for u in s.units},
        "unit_names": {k: tuple(v) for k, v in unit_names.items()},
        "units_of": {side: tuple(u for u in s.units if u.side == side) for side in SIDES},
        "formations": {f.id: f for f in s.formations},
        "formation_units": {k: tuple(v) for k, v in formation_units.items()},
        "air": {a.id: a for a in s.air_units},
    }


def _schedule_index(s: ScenarioData) -> dict[str, Any]:
    """The set-up, reinforcements and air arrivals by (turn, side), the chits in the cup each turn,
    command groups and the turn record track."""
    reinf: dict[tuple[int, str], list[ReinforcementRow]] = defaultdict(list)
    for row in s.meta.reinforcements:
        reinf[(row.turn, row.side)].append(row)
    air_reinf: dict[tuple[int, str], list[str]] = defaultdict(list)
    for air_row in s.meta.air_reinforcements:
        air_reinf[(air_row.turn, air_row.side)].extend(air_row.units)
    cup = {n: tuple(c for c in s.chits if c.enters < n and (c.leaves is None or c.leaves >= n))
           for n in range(1, s.meta.last_turn + 1)}
    return {
        "setup": {p.unit: p.hex for p in s.setup.placements},
        "setup_reduced": frozenset(p.unit for p in s.setup.placements if p.reduced),
        "reinf": {k: tuple(v) for k, v in reinf.items()},
        "air_reinf": {k: tuple(v) for k, v in air_reinf.items()},
        "chits": {c.id: c for c in s.chits},
        "groups": {g.id: g for g in s.command_groups},
        "cup": cup,
        "turns": {t.n: t for t in s.meta.turns},
    }
