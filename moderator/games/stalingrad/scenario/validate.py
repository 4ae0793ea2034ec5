"""The Hell of Stalingrad scenario validation: the rules of the data (§Components and the card rules),
one sentence per problem."""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable, Iterator

from moderator.core.provenance import Record
from moderator.core.scenario_check import Problems
from moderator.games.stalingrad.scenario.effects import Effect
from moderator.games.stalingrad.scenario.index import DISTRICTS, Scenario
from moderator.games.stalingrad.scenario.schema import SIDES

FORMATIONS_A_SIDE = 18  # §Components
CAMPAIGN_A_SIDE = 10  # §Components
ADVANCED_A_SIDE = 12  # §Components: 24 Advanced Cards; §Advanced: 45 a deck (ruling S-02)
BUILDINGS = 24  # §Components
CARNAGE = 50  # §Components
COUNTERS = 140  # §Components


def validate_scenario(s: Scenario) -> list[str]:
    """Every problem found in the scenario data, as sentences; empty when the data is valid."""
    problems = Problems()
    problems.provenance(_records(s))
    _check_counts(s, problems)
    _check_formations(s, problems)
    _check_cards(s, problems)
    _check_buildings(s, problems)
    _check_effects(s, problems)
    _check_commanders(s, problems)
    return list(problems)


def _records(s: Scenario) -> Iterator[tuple[str, Record]]:
    yield "scenario.yaml", s.meta
    for label, records in (("counters.yaml counter", s.counters), ("commanders.yaml", s.commanders),
                           ("formations.yaml", s.formations), ("combat.yaml card", s.cards),
                           ("campaign.yaml card", s.campaign), ("buildings.yaml", s.buildings),
                           ("carnage.yaml card", s.carnage)):
        yield from ((f"{label} {r.id}", r) for r in records)


def _check_counts(s: Scenario, problems: Problems) -> None:
    """§Components: the number of each kind of component."""
    for side in SIDES:
        formations = s.formations_of(side)
        problems.require(len(formations) == FORMATIONS_A_SIDE,
                         f"formations: {side} has {len(formations)}, §Components has {FORMATIONS_A_SIDE}")
        starting = sum(1 for f in formations if f.starting)  # ruling S-03: 4 starting + 14 in the deck
        problems.require(starting == s.meta.starting_formations,
                         f"formations: {side} has {starting} Starting Formations, not {s.meta.starting_formations}")
        cards = len(s.deck_of(side))
        problems.require(cards == s.meta.basic_cards_per_side,
                         f"combat: {side} has {cards} basic cards, §Components has {s.meta.basic_cards_per_side}")
        advanced = len(s.deck_of(side, "advanced"))
        problems.require(advanced == ADVANCED_A_SIDE,
                         f"advanced: {side} has {advanced} advanced cards, not {ADVANCED_A_SIDE} (ruling S-02)")
        campaign = len(s.campaign_of(side))
        problems.require(campaign == CAMPAIGN_A_SIDE, f"campaign: {side} has {campaign} cards, not {CAMPAIGN_A_SIDE}")
    problems.require(len(s.buildings) == BUILDINGS, f"buildings: {len(s.buildings)}, §Components has {BUILDINGS}")
    problems.require(len(s.carnage) == CARNAGE, f"carnage: {len(s.carnage)} cards, §Components has {CARNAGE}")
    total = sum(c.count for c in s.counters)
    problems.require(total == COUNTERS, f"counters: {total}, §Components has {COUNTERS}")
    for label, ids in (("counter", [c.id for c in s.counters]), ("formation", [f.id for f in s.formations]),
                       ("card", [c.id for c in s.cards]), ("building", [b.id for b in s.buildings]),
                       ("carnage card", [c.id for c in s.carnage]), ("campaign card", [c.id for c in s.campaign])):
        problems.duplicates(ids, f"{label} id {{}} is used twice")
    problems.unique_names([*s.formations, *s.buildings], "name or alias '{}' names two formations or buildings")


def _check_formations(s: Scenario, problems: Problems) -> None:
    """§German Cards A-B: doctrine and Shock; §Soviet Cards A, D: Patriotism and a Depletion Effect."""
    for f in s.formations:
        if f.side == "german":
            problems.require(f.doctrine is not None and f.shock is not None and f.patriotism is None,
                             f"formations: German {f.id} needs a doctrine and a shock, and no patriotism")
            problems.require(not f.unique, f"formations: German {f.id} is unique; only Soviet ones are (S-11)")
            continue
        problems.require(f.patriotism is not None and f.doctrine is None and f.shock is None,
                         f"formations: Soviet {f.id} needs a patriotism, and no doctrine or shock")
        problems.require(_depletion_ok(s, f.depletion), f"formations: Soviet {f.id} depletion {f.depletion!r} is "
                                                        "not 'skull', 'mg N' or 'star <Soviet elite>'")
        problems.require(not f.starting or f.unique, f"formations: Soviet starting {f.id} must be unique (§Deplete A)")


def _depletion_ok(s: Scenario, text: str | None) -> bool:
    words = (text or "").split()
    if words == ["skull"]:
        return True
    if len(words) == 2 and words[0] == "mg":
        return words[1].isdigit()
    return len(words) == 2 and words[0] == "star" and any(c.id == words[1] and c.side == "soviet" for c in s.counters)


def _check_cards(s: Scenario, problems: Problems) -> None:
    """§German Cards B: a German card has a doctrine; §Soviet Cards A: a Soviet card a Patriotism value."""
    for card in s.cards:
        if card.hero:
            problems.require(card.rank == "advanced" and card.doctrine is None and card.value is None,
                             f"combat: hero {card.id} is an advanced card with no doctrine or value (§Heroes)")
        elif card.side == "german":
            problems.require(card.doctrine is not None and card.value is None,
                             f"combat: German card {card.id} needs a doctrine and no value")
        else:
            problems.require(card.value is not None and card.doctrine is None,
                             f"combat: Soviet card {card.id} needs a value and no doctrine")


def _check_buildings(s: Scenario, problems: Problems) -> None:
    """§Components and §Strategy 5: six buildings a district, exactly one River Bank in each."""
    per_district: Tally[str] = Tally(b.district for b in s.buildings)
    banks: Tally[str] = Tally(b.district for b in s.buildings if b.terrain == "river_bank")
    for district in DISTRICTS:
        problems.require(per_district[district] == BUILDINGS // len(DISTRICTS),
                         f"buildings: district {district} has {per_district[district]} buildings, not 6")
        problems.require(banks[district] == 1,
                         f"buildings: district {district} has {banks[district]} River Banks, not 1")


def _check_effects(s: Scenario, problems: Problems) -> None:
    """Every `add` names a unit of the side that adds it (§Units); Carnage Hold options add no unit."""
    def check(side: str, effects: Iterable[Effect], where: str) -> None:
        for effect in effects:
            problems.require(effect.icon != "add" or s.is_unit_name(side, effect.unit or ""),
                             f"{where}: '{effect.text()}' names no {side} unit")
    for counter in s.counters:
        check(counter.side, counter.terror, f"counters: {counter.id}")
    for f in s.formations:
        check(f.side, f.vanguard, f"formations: {f.id} vanguard")
    for card in s.cards:
        check(card.side, card.effects, f"combat: {card.id}")
    for b in s.buildings:
        check("german", b.german_initiative, f"buildings: {b.id} German initiative")
        check("soviet", b.soviet_initiative, f"buildings: {b.id} Soviet initiative")
    for carnage in s.carnage:
        problems.require(all(e.icon != "add" for e in carnage.hold), f"carnage: {carnage.id} Hold option adds a unit")
    for commander in s.commanders:
        check(commander.side, commander.reload, f"commanders: {commander.id} reload")


def _check_commanders(s: Scenario, problems: Problems) -> None:
    """§Commanders: each side's two-player commander has a replacement on the back."""
    ids = {c.id for c in s.commanders}
    for side in SIDES:
        front = [c for c in s.commanders if c.side == side and c.players == 2 and c.disgrace]
        problems.require(len(front) == 1, f"commanders: {side} needs one two-player commander who can be disgraced")
    for c in s.commanders:
        problems.require(c.replacement is None or c.replacement in ids,
                         f"commanders: {c.id}'s replacement {c.replacement} is not a commander")
