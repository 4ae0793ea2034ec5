"""Preparation for play (§Basic Game: Play Area Set-up, Building & Tracking Card set-up, §Commanders A)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from moderator.core.rng import Rng
from moderator.games.stalingrad.scenario import DISTRICTS, SIDES, Scenario
from moderator.games.stalingrad.state import DistrictRecord, FormationRecord, Options, SideRecord, StalingradState

STATE_VERSION = 1


def volga_ids(count: int) -> list[str]:
    return [f"Volga{n}" for n in range(1, count + 1)]


def _side(s: Scenario, side: str, rng: Rng, advanced: bool) -> SideRecord:
    """§Basic Game set-up: the shuffled Combat, Formation and Campaign decks and the unit counters."""
    cards = s.deck_of(side) + (s.deck_of(side, "advanced") if advanced else [])  # §Advanced: all 45 cards
    deck = rng.shuffle(cards, f"{side} combat deck", stream="shuffle")
    fdeck = rng.shuffle([f.id for f in s.formations_of(side) if not f.starting], f"{side} formation deck",
                        stream="shuffle")
    campaign = rng.shuffle(s.campaign_of(side), f"{side} campaign deck", stream="shuffle")
    pile = {c.id: c.count for c in s.counters if c.side == side}
    commander = s.starting_commander(side)
    # §Commanders A: each player draws his commander's hand size (ruling S-60: after the right deck is shuffled)
    return {"commander": commander.id, "deck": deck[commander.hand:], "hand": deck[:commander.hand], "discard": [],
            "formation_deck": fdeck, "campaign": campaign, "pile": pile, "trophies": [], "campaign_card": None}


def _formations(s: Scenario) -> dict[str, FormationRecord]:
    """§Basic Game set-up: the four Starting Formations on the Staging Line, each with a Lv. 0 leader."""
    return {f.id: {"side": f.side, "at": "staging" if f.starting else "deck", "depleted": False,
                   "leader": 0 if f.starting else None} for f in s.formations}


def empty_district(building: str | None) -> DistrictRecord:
    return {"building": building, "volga": False, "closed": False, "captured": None, "hold": 0, "fire": 0,
            "bucket": 0, "infernos": 0, "units": {side: {} for side in SIDES}}


def deal_districts(s: Scenario, rng: Rng) -> tuple[dict[str, DistrictRecord], list[str]]:
    """§Basic Game set-up: for A to D, shuffle and deal until the first building of the district (ruling
    S-57: a River Bank may come up); the rest, with the Volga Cards, is the Building Deck."""
    deck = [b.id for b in s.buildings]
    districts: dict[str, DistrictRecord] = {}
    for district in DISTRICTS:
        deck = rng.shuffle(deck, f"building deck for district {district}", stream="shuffle")
        first = next(b for b in deck if s.building(b).district == district)
        deck.remove(first)
        districts[district] = empty_district(first)
    return districts, deck


def initial_state(s: Scenario, name: str, options: Mapping[str, Any], rng: Rng) -> StalingradState:
    """The state before turn 1's Strategy Phase; the Hourglass on its icon (turn 0, §Mats Turn Track)."""
    districts, deck = deal_districts(s, rng)
    volga = int(options["volga_cards"])  # ruling S-01
    building_deck = rng.shuffle(deck + volga_ids(volga), "building deck with the Volga Cards", stream="shuffle")
    carnage = rng.shuffle([c.id for c in s.carnage], "carnage deck", stream="shuffle")
    return {
        "version": STATE_VERSION, "scenario": name, "options": cast(Options, dict(options)), "turn": 0,
        "result": None, "stack": [], "next_id": 0,
        "sides": {side: _side(s, side, rng, options["game"] != "basic") for side in SIDES},
        "formations": _formations(s), "districts": districts, "building_deck": building_deck, "carnage": carnage,
        "ash": [], "assaults": {}, "battle": None,
    }
