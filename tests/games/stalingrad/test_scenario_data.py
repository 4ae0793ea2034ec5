"""The scenario data of The Hell of Stalingrad: counts of §Components, the values the rulebook gives
exactly as given, the effect vocabulary, and a validator that catches what a club could break."""

from __future__ import annotations

import pytest

from moderator.games.stalingrad.scenario import KIT, parse_effect, scenario_named, validate_scenario
from moderator.games.stalingrad.scenario.effects import Effect


@pytest.fixture(scope="module")
def s():
    return scenario_named("siege")


def test_the_counts_match_the_component_list(s):
    """§Components: 33+33 basic cards, 18+18 formations, 10+10 campaign, 24 buildings, 50 carnage, 140 counters."""
    assert len(s.deck_of("german")) == len(s.deck_of("soviet")) == 33
    assert [len(s.formations_of(side)) for side in ("german", "soviet")] == [18, 18]
    assert [len(s.campaign_of(side)) for side in ("german", "soviet")] == [10, 10]
    assert len(s.buildings) == 24 and len(s.carnage) == 50
    assert sum(c.count for c in s.counters) == 140
    assert s.meta.volga_cards == 6  # ruling S-01


def test_the_unit_conversion_table_is_the_rulebook_s(s):
    """§Units: each elite side, its Terror Tactic and the core unit behind it."""
    table = {c.id: (c.core, c.shielded, [e.text() for e in c.terror]) for c in s.counters}
    assert table["Panzer"] == ("Armor", True, ["kill"])
    assert table["StuG"] == ("Armor", True, ["pkill"])
    assert table["HeavyMG"] == ("Grenadier", False, ["kill x2"])
    assert table["Motor"] == ("Recon", False, ["draw"])
    assert table["T34"] == ("Fort", True, ["pkill"])
    assert table["Commando"] == ("Recon", False, ["discard"])
    assert table["NKVD"] == ("Motivator", False, ["draw"])


def test_named_components_carry_the_values_the_text_gives(s):
    """§Buildings B-D (Red Square), §Battle 1 vanguards, §Soviet Cards A-C, §Example cards."""
    red = s.building("RedSquare")
    assert (red.concentration, red.defense) == (3, 2)
    assert [e.text() for e in red.german_initiative] == ["fire"]
    assert [e.text() for e in red.soviet_initiative] == ["add NKVD"]
    assert [e.text() for e in s.formation("14Pz").vanguard] == ["fire", "add Panzer"]
    assert [e.text() for e in s.formation("3Mot").vanguard] == ["add Armor", "add Motor"]
    assert [e.text() for e in s.formation("Reserve").vanguard] == ["add Rifle x3"]
    assert s.formation("10NKVD").patriotism == 3 and s.formation("37Gd").patriotism == 2
    assert s.formation("Militia1").depletion == "mg 2" and s.formation("92Bde").depletion == "star Molotov"
    assert [e.text() for e in s.card_of("PanzerGroup.1").effects] == ["add Panzer x2", "add HeavyMG", "fire"]
    assert [e.text() for e in s.card_of("PistolPersuasion.2").effects] == ["sacrifice", "supply", "overrun"]
    assert s.card_of("DeathtrapSurprise.1").value == 2
    assert {b.name for b in s.buildings if b.terrain == "river_bank"} == {
        "Grain Elevator", "Pavlov's House", "Mamaev Kurgan", "Red Oktober Factory"}


def test_every_value_says_where_it_comes_from(s):
    for record in (*s.formations, *s.cards, *s.buildings, *s.carnage, *s.campaign, *s.counters, *s.commanders):
        assert record.src and all(v.startswith(("rulebook", "reconstructed:")) for v in record.src.values())


def test_the_effect_vocabulary_reads_icons_units_and_counts():
    assert parse_effect("add Panzer x2") == Effect("add", "Panzer", 2)
    assert parse_effect("fire any") == Effect("fire", None, 1, True)
    with pytest.raises(ValueError, match="unknown icon 'napalm'"):
        parse_effect("napalm x2")
    with pytest.raises(ValueError, match="needs a unit"):
        parse_effect("add")
    with pytest.raises(ValueError, match="neither xN"):
        parse_effect("kill twice")


def test_the_validator_names_a_broken_count_and_an_unknown_unit(s):
    broken = s.model_copy(update={"carnage": s.carnage[:-1]})
    bad_card = s.cards[0].model_copy(update={"effects": (parse_effect("add Tiger"),)})
    broken = broken.model_copy(update={"cards": (bad_card, *s.cards[1:])})
    problems = validate_scenario(broken)
    assert "carnage: 49 cards, §Components has 50" in problems
    assert any("'add Tiger' names no german unit" in p for p in problems)


def test_the_kit_checks_the_scenario_by_name():
    KIT.check("siege")
