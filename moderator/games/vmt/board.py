"""The working copy of a VMT game that the rules modules read and change.

The engine's state is a plain JSON tree (so it round-trips and copies cheaply); `Board` wraps one
copy of it together with the scenario, the random source and the events being emitted, and gives
the rules modules a vocabulary that reads as prose: `board.blocks_in(area, "soviet")`,
`board.is_exhausted(block)`, `board.take_control(area, "axis")`.
"""

from __future__ import annotations

from typing import TypeVar

from moderator.core.board import BoardBase
from moderator.core.errors import IllegalOrder
from moderator.core.rng import Rng
from moderator.games.vmt.scenario import Border, Scenario, Side
from moderator.games.vmt.state import AssetRecord, BlockRecord, VmtState

SIDES: tuple[Side, Side] = ("axis", "soviet")
ARMOR_TYPES = ("pz3", "stug", "t26")
PIONEER_TYPES = ("axis_pioneer", "soviet_pioneer")

T = TypeVar("T")


class Geography:
    """Fast lookups into the scenario's map (the pydantic models are slow to index repeatedly)."""

    def __init__(self, scenario: Scenario):
        self.areas = {a.id: a for a in scenario.map.areas}
        self.blocks = {b.id: b for b in scenario.blocks}
        self.borders: dict[frozenset[str], Border] = {}
        self.adjacent: dict[str, tuple[str, ...]] = {a: () for a in self.areas}
        self.linked: dict[str, tuple[str, ...]] = {a: () for a in self.areas}
        adjacent: dict[str, set[str]] = {a: set() for a in self.areas}
        linked: dict[str, set[str]] = {a: set() for a in self.areas}
        for border in scenario.map.borders:
            self.borders.setdefault(frozenset((border.a, border.b)), border)
            linked[border.a].add(border.b)
            linked[border.b].add(border.a)
            if border.kind != "ferry":
                adjacent[border.a].add(border.b)
                adjacent[border.b].add(border.a)
        self.adjacent = {a: tuple(sorted(v)) for a, v in adjacent.items()}
        self.linked = {a: tuple(sorted(v)) for a, v in linked.items()}

    def neighbours(self, area: str, include_ferry: bool = False) -> tuple[str, ...]:
        """Ferry arrows connect only for movement and retreat (L384)."""
        return (self.linked if include_ferry else self.adjacent)[area]

    def border(self, a: str, b: str) -> Border | None:
        return self.borders.get(frozenset((a, b)))


def geography(scenario: Scenario) -> Geography:
    """The scenario's Geography, built once and kept on the scenario object itself (never keyed by
    its id, which a later scenario may reuse once this one is garbage-collected)."""
    return scenario.memo("geography", Geography)


def enemy(side: str) -> Side:
    return "soviet" if side == "axis" else "axis"


class Board(BoardBase[Scenario]):
    """A VMT state being read or changed by the rules, with its scenario, dice and events."""

    data: VmtState
    scenario: Scenario

    def __init__(self, data: VmtState, scenario: Scenario, rng: Rng | None = None):
        super().__init__(data, scenario, rng)
        self._where: dict[str, list[str]] | None = None  # area -> blocks; rebuilt after any move
        self.geo = geography(scenario)

    # ------------------------------------------------------------------ blocks

    def block(self, block_id: str) -> BlockRecord:
        return self.data["blocks"][block_id]

    def side_of(self, block_id: str) -> str:
        return self.data["blocks"][block_id]["side"]

    def area_of(self, block_id: str) -> str | None:
        return self.data["blocks"][block_id]["area"]

    def sp(self, block_id: str) -> int:
        return self.data["blocks"][block_id]["sp"]

    def is_exhausted(self, block_id: str) -> bool:
        return self.data["blocks"][block_id]["exhausted"]

    def area_on_map(self, block_id: str) -> str:
        """The area of a block on the map; raises ValueError for a block off the map."""
        block = self.data["blocks"][block_id]
        if block["status"] != "map" or block["area"] is None:
            raise ValueError(f"{block_id} is not on the map")
        return block["area"]

    def is_on_map(self, block_id: str) -> bool:
        return self.data["blocks"][block_id]["status"] == "map"

    def is_in(self, block_id: str, area: str) -> bool:
        """The block stands on the map in that area."""
        return self.is_on_map(block_id) and self.area_of(block_id) == area

    def blocks_in(self, area: str, side: str | None = None) -> list[str]:
        if self._where is None:
            where: dict[str, list[str]] = {}
            for b, x in self.data["blocks"].items():
                if x["status"] == "map" and x["area"] is not None:
                    where.setdefault(x["area"], []).append(b)
            self._where = where
        blocks = self._where.get(area, [])
        if side is None:
            return list(blocks)
        return [b for b in blocks if self.data["blocks"][b]["side"] == side]

    def blocks_of(self, side: str) -> list[str]:
        return [b for b, x in self.data["blocks"].items() if x["side"] == side and x["status"] == "map"]

    def division_of(self, block_id: str) -> str | None:
        return self.geo.blocks[block_id].division

    def is_two_area_mover(self, block_id: str) -> bool:
        return self.geo.blocks[block_id].moves2

    def is_romanian(self, block_id: str) -> bool:
        return self.geo.blocks[block_id].nationality == "romanian"

    def occupant(self, area: str) -> str | None:
        """The side with blocks in the area (never both outside a combat)."""
        sides = {self.data["blocks"][b]["side"] for b in self.blocks_in(area)}
        if len(sides) == 1:
            return sides.pop()
        return None if not sides else "both"

    def is_enemy_occupied(self, area: str, side: str) -> bool:
        return bool(self.blocks_in(area, enemy(side)))

    def room_in(self, area: str, side: str) -> int:
        return self.scenario.meta.stacking - len(self.blocks_in(area, side))

    def place(self, block_id: str, area: str) -> None:
        block = self.block(block_id)
        block["area"] = area
        block["status"] = "map"
        self._where = None

    def relocate(self, block_id: str, area: str) -> None:
        """Move a block on the map (movement, retreat, return home)."""
        self.data["blocks"][block_id]["area"] = area
        self._where = None

    def lose_step(self, block_id: str, cause: str = "") -> None:
        """One step off a block (its SP); at 0 SP it is eliminated (L89)."""
        block = self.block(block_id)
        block["sp"] -= min(1, block["sp"])
        if block["sp"] <= 0:
            self.eliminate(block_id, cause)

    def eliminate(self, block_id: str, cause: str = "") -> None:
        """A block at 0 SP leaves the map for the rest of the game (rulebook L89)."""
        block = self.block(block_id)
        area = block["area"]
        block["sp"] = 0
        block["status"] = "eliminated"
        self._where = None
        block["exhausted"] = False
        self.emit("eliminated", block=block_id, side=block["side"], area=area, cause=cause)
        if area:
            self.release_orphan_assets(area, block["side"], permanent=cause.startswith("no retreat"))

    # ------------------------------------------------------------------ control, VP

    def controller(self, area: str) -> str:
        return self.data["control"][area]

    def take_control(self, area: str, side: str) -> None:
        """Control changes the instant a side is present where the other has no block (L390)."""
        if self.data["control"][area] == side:
            return
        info = self.geo.areas[area]
        if side == "axis" and info.battery and area not in self.data["batteries_destroyed"]:
            return  # an undestroyed battery keeps its area Soviet (L332)
        self.data["control"][area] = side
        self.emit("control", area=area, side=side, vp=info.vp)
        if side == "axis" and info.trench == "soviet" and area not in self.data["trench_disabled"] \
                and not self.blocks_in(area, "soviet"):
            self.disable_trench(area)

    def disable_trench(self, area: str) -> None:
        """Soviet trenches are out of order once the Axis takes the area (L370); never restored."""
        if area not in self.data["trench_disabled"]:
            self.data["trench_disabled"].append(area)
            self.emit("trench_disabled", area=area)

    def has_intact_trench(self, area: str, side: str) -> bool:
        info = self.geo.areas[area]
        if info.trench != side:
            return False
        return side == "axis" or area not in self.data["trench_disabled"]

    def has_battery(self, area: str) -> bool:
        return self.geo.areas[area].battery and area not in self.data["batteries_destroyed"]

    def batteries_left(self) -> list[str]:
        return [a.id for a in self.scenario.map.areas if self.has_battery(a.id)]

    def vp(self, side: str) -> int:
        """VP held by a side: banners of the areas it controls (L112, L429), Axis less its payments."""
        total = 0
        for area in self.scenario.map.areas:
            if not area.vp:
                continue
            holder = "soviet" if self.has_battery(area.id) else self.data["control"][area.id]
            if holder == side:
                total += area.vp
        if side == "axis":
            total -= self.data["vp_paid"]
        return total

    # ------------------------------------------------------------------ markers and assets

    def marker(self, area: str, kind: str) -> bool:
        return kind in self.data["markers"].get(area, [])

    def set_marker(self, area: str, kind: str, present: bool) -> None:
        markers = self.data["markers"].setdefault(area, [])
        if present and kind not in markers:
            markers.append(kind)
            markers.sort()
        elif not present and kind in markers:
            markers.remove(kind)
        if not markers:
            self.data["markers"].pop(area, None)

    def marker_limit(self, kind: str) -> int:
        """How many AT, Minefield, Bunker and Interdiction markers the countersheet supplies (L246, L457)."""
        return self.scenario.counter(kind).count

    def markers_on_map(self, kind: str) -> list[str]:
        return sorted(a for a, kinds in self.data["markers"].items() if kind in kinds)

    def asset(self, asset_id: str) -> AssetRecord:
        return self.data["assets"][asset_id]

    def assets_in(self, area: str, side: str | None = None) -> list[str]:
        return [a for a, x in self.data["assets"].items()
                if x["area"] == area and x["status"] == "map" and (side is None or x["side"] == side)]

    def asset_kind(self, asset_id: str) -> str:
        """'armor' or 'pioneer': the one-per-area types (all Axis armor is one type, L234)."""
        return "armor" if self.data["assets"][asset_id]["type"] in ARMOR_TYPES else "pioneer"

    def asset_of_kind_in(self, area: str, side: str, kind: str) -> str | None:
        for asset_id in self.assets_in(area, side):
            if self.asset_kind(asset_id) == kind:
                return asset_id
        return None

    def pool(self, side: str) -> list[str]:
        return [a for a, x in self.data["assets"].items() if x["side"] == side and x["status"] == "pool"]

    def hit_asset(self, asset_id: str, cause: str) -> None:
        """First hit flips an asset to its 1-step side, the second eliminates it for good (L236)."""
        asset = self.asset(asset_id)
        asset["steps"] -= 1
        if asset["steps"] <= 0:
            asset["status"] = "eliminated"
            area = asset["area"]
            asset["area"] = None
            self.emit("asset_eliminated", asset=asset_id, area=area, cause=cause)
        else:
            self.emit("asset_hit", asset=asset_id, area=asset["area"], steps=asset["steps"], cause=cause)

    def release_orphan_assets(self, area: str, side: str, permanent: bool) -> None:
        """Assets left with no friendly block: set aside at current steps, or lost for good (L236)."""
        if self.blocks_in(area, side):
            return
        for asset_id in self.assets_in(area, side):
            asset = self.asset(asset_id)
            asset["area"] = None
            if permanent:
                asset["status"] = "eliminated"
                self.emit("asset_eliminated", asset=asset_id, area=area, cause="its blocks could not retreat")
            else:
                asset["status"] = "pool"
                self.emit("asset_set_aside", asset=asset_id, area=area)

    # ------------------------------------------------------------------ cards

    def card_type(self, card_id: str) -> str:
        return self.data["cards"][card_id]

    def hand(self, side: str) -> list[str]:
        return self.data["hands"][side]

    def hand_types(self, side: str) -> list[str]:
        return [self.data["cards"][c] for c in self.data["hands"][side]]

    def holds(self, side: str, card_type: str) -> bool:
        return card_type in self.hand_types(side)

    def take_from_hand(self, side: str, card_type: str) -> str:
        for card in self.data["hands"][side]:
            if self.data["cards"][card] == card_type:
                self.data["hands"][side].remove(card)
                return card
        raise IllegalOrder(f"you hold no {card_name(card_type)} card")

    def discard(self, side: str, card_id: str) -> None:
        self.data["discards"][side].append(card_id)

    def remove_from_play(self, card_id: str, reason: str) -> None:
        self.data["removed"].append(card_id)
        self.emit("card_removed", card=self.card_type(card_id), reason=reason)


def card_name(card_type: str) -> str:
    return card_type.upper()
