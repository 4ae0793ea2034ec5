"""The VMT scenario with its lookups: areas, borders and neighbours, blocks, divisions, cards, counters.

The lookup tables are built once per scenario object on first use and kept on it (see
`IndexedScenario`); a copy made with ``model_copy`` builds its own.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from moderator.core.scenario_files import entry
from moderator.games.vmt.scenario.schema import (
    Area,
    Block,
    Border,
    CardType,
    CounterType,
    Division,
    ReinforcementGroup,
    ScenarioData,
    Side,
)


class Scenario(ScenarioData):
    """Everything the VMT engine needs to start a game, with lookups."""

    def build_lookups(self) -> dict[str, Any]:
        index: dict[str, Any] = {
            "areas": {a.id: a for a in self.map.areas},
            "blocks": {b.id: b for b in self.blocks},
            "divisions": {d.id: d for d in self.divisions},
            "cards": {c.id: c for c in self.card_types},
            "counters": {c.id: c for c in self.counters},
        }
        borders: dict[frozenset[str], Border] = {}
        nbrs: dict[str, set[str]] = defaultdict(set)
        nbrs_ferry: dict[str, set[str]] = defaultdict(set)
        for border in self.map.borders:
            borders.setdefault(border.pair, border)
            nbrs_ferry[border.a].add(border.b)
            nbrs_ferry[border.b].add(border.a)
            if border.kind != "ferry":
                nbrs[border.a].add(border.b)
                nbrs[border.b].add(border.a)
        index["borders"] = borders
        index["nbrs"] = {k: tuple(sorted(v)) for k, v in nbrs.items()}
        index["nbrs_ferry"] = {k: tuple(sorted(v)) for k, v in nbrs_ferry.items()}
        names: dict[str, dict[str, str]] = {"area": {}, "block": {}, "card": {}}
        for kind, records in (("area", self.map.areas), ("block", self.blocks), ("card", self.card_types)):
            for record in records:
                for name in (record.id, *record.aliases):
                    names[kind].setdefault(name.casefold(), record.id)
        index["names"] = names
        return index

    # -- map ----------------------------------------------------------------------------------

    def area(self, area_id: str) -> Area:
        return entry(self.lookups()["areas"], area_id, "area")

    def find_area(self, text: str) -> Area | None:
        """The area whose id or alias is `text` (case-insensitive), or None."""
        area_id = self.lookups()["names"]["area"].get(text.strip().casefold())
        return None if area_id is None else self.area(area_id)

    def area_ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.map.areas)

    def neighbours(self, area_id: str, include_ferry: bool = False) -> tuple[str, ...]:
        """Adjacent areas.  Ferry arrows connect only for movement and retreat (rulebook L384)."""
        self.area(area_id)
        key = "nbrs_ferry" if include_ferry else "nbrs"
        return self.lookups()[key].get(area_id, ())

    def border(self, a: str, b: str) -> Border | None:
        return self.lookups()["borders"].get(frozenset((a, b)))

    def areas_where(self, **flags: Any) -> tuple[Area, ...]:
        """Areas whose attributes equal the given values, e.g. ``areas_where(battery=True)``."""
        return tuple(a for a in self.map.areas if all(getattr(a, k) == v for k, v in flags.items()))

    def vp_total(self) -> int:
        return sum(a.vp for a in self.map.areas)

    # -- blocks ---------------------------------------------------------------------------------

    def block(self, block_id: str) -> Block:
        return entry(self.lookups()["blocks"], block_id, "block")

    def find_block(self, text: str) -> Block | None:
        block_id = self.lookups()["names"]["block"].get(text.strip().casefold())
        return None if block_id is None else self.block(block_id)

    def blocks_of(self, side: Side) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.side == side)

    def division(self, division_id: str) -> Division:
        return entry(self.lookups()["divisions"], division_id, "division")

    def division_blocks(self, division_id: str) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.division == division_id)

    def reinforcement_groups(self, side: Side) -> tuple[ReinforcementGroup, ...]:
        return tuple(sorted((g for g in self.reinforcements if g.side == side), key=lambda g: g.order))

    def setup_positions(self) -> dict[str, str]:
        """Block id -> area id of the set-up."""
        return {p.block: p.area for p in self.setup.placements}

    # -- cards and counters ---------------------------------------------------------------------

    def card_type(self, card_id: str) -> CardType:
        return entry(self.lookups()["cards"], card_id, "card type")

    def find_card_type(self, text: str) -> CardType | None:
        card_id = self.lookups()["names"]["card"].get(text.strip().casefold())
        return None if card_id is None else self.card_type(card_id)

    def deck(self, side: Side) -> list[str]:
        """The card type ids of a side's deck, with repetition, in file order (unshuffled)."""
        return [c.id for c in self.card_types for _ in range(c.count.get(side, 0))]

    def counter(self, counter_id: str) -> CounterType:
        return entry(self.lookups()["counters"], counter_id, "counter type")
