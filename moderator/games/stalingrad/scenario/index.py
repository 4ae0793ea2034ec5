"""The Hell of Stalingrad scenario with its lookups: counters, formations, cards and their copies,
buildings by district, commanders (built once per scenario object)."""

from __future__ import annotations

from typing import Any

from moderator.core.scenario_files import entry
from moderator.games.stalingrad.scenario.schema import (
    Building,
    CampaignCard,
    CarnageCard,
    CombatCard,
    Commander,
    Counter,
    Formation,
    ScenarioData,
)

DISTRICTS = ("A", "B", "C", "D")


def copy_ids(card: CombatCard) -> list[str]:
    """The ids of a title's physical cards: `PanzerGroup.1`, `PanzerGroup.2` (a hand holds copies, not titles)."""
    return [f"{card.id}.{n}" for n in range(1, card.copies + 1)]


class Scenario(ScenarioData):
    """The scenario data with the queries the rules use."""

    def build_lookups(self) -> dict[str, Any]:
        copies = {copy: card for card in self.cards for copy in copy_ids(card)}
        cores: dict[tuple[str, str], list[str]] = {}
        for counter in self.counters:
            cores.setdefault((counter.side, counter.core), []).append(counter.id)
        return {
            "counters": {c.id: c for c in self.counters}, "cores": cores,
            "formations": {f.id: f for f in self.formations}, "copies": copies,
            "cards": {c.id: c for c in self.cards}, "campaign": {c.id: c for c in self.campaign},
            "buildings": {b.id: b for b in self.buildings}, "carnage": {c.id: c for c in self.carnage},
            "commanders": {c.id: c for c in self.commanders},
        }

    def counter(self, counter_id: str) -> Counter:
        return entry(self.lookups()["counters"], counter_id, "counter")

    def counters_with_core(self, side: str, core: str) -> list[str]:
        """The counter kinds whose core side is `core` (§Units: several elites flip to one core)."""
        return list(self.lookups()["cores"].get((side, core), []))

    def core_names(self, side: str) -> list[str]:
        """A side's core unit types, in the data's order."""
        return list(dict.fromkeys(c.core for c in self.counters if c.side == side))

    def is_unit_name(self, side: str, name: str) -> bool:
        return any(c.side == side and name in (c.id, c.core) for c in self.counters)

    def formation(self, formation_id: str) -> Formation:
        return entry(self.lookups()["formations"], formation_id, "formation")

    def formations_of(self, side: str) -> list[Formation]:
        return [f for f in self.formations if f.side == side]

    def card_of(self, copy_id: str) -> CombatCard:
        """The title of a physical card (`PanzerGroup.2` -> Panzer Group)."""
        return entry(self.lookups()["copies"], copy_id, "card")

    def deck_of(self, side: str, rank: str = "basic") -> list[str]:
        """The physical cards of a side's Combat Deck (§Basic Game set-up), in data order; the rank only sorts
        basic from advanced cards (ruling S-51)."""
        return [copy for card in self.cards if card.side == side and card.rank == rank for copy in copy_ids(card)]

    def campaign_card(self, card_id: str) -> CampaignCard:
        return entry(self.lookups()["campaign"], card_id, "campaign card")

    def campaign_of(self, side: str) -> list[str]:
        return [c.id for c in self.campaign if c.side == side]

    def building(self, building_id: str) -> Building:
        return entry(self.lookups()["buildings"], building_id, "building")

    def carnage_card(self, card_id: str) -> CarnageCard:
        return entry(self.lookups()["carnage"], card_id, "carnage card")

    def commander(self, commander_id: str) -> Commander:
        return entry(self.lookups()["commanders"], commander_id, "commander")

    def starting_commander(self, side: str) -> Commander:
        """The two-player game's commander on the front of the side's card (§Commanders)."""
        return next(c for c in self.commanders if c.side == side and c.players == 2 and c.disgrace)
