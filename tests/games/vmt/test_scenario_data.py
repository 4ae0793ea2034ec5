"""The VMT scenario data validates, and the validator catches every kind of corruption.

Each corruption test changes one thing in a copy of the real data and checks that
`validate_scenario` reports it, so that a club editing the YAML is told what it broke.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from moderator.core.errors import ScenarioError
from moderator.games.vmt.scenario import (
    Scenario,
    check_scenario,
    default_root,
    load_scenario,
    validate_scenario,
)
from moderator.maps.cells import area_cells, cell_adjacency, cell_components

ROOT = default_root()


@pytest.fixture(scope="module")
def s() -> Scenario:
    return load_scenario()


# --------------------------------------------------------------------------------------------
# helpers building corrupted copies


def _replace(items: tuple, pred: Callable[[Any], bool], **changes: Any) -> tuple:
    hits = [x for x in items if pred(x)]
    assert hits, "the corruption matched nothing; the test is wrong"
    return tuple(x.model_copy(update=changes) if pred(x) else x for x in items)


def with_map(s: Scenario, **changes: Any) -> Scenario:
    return s.model_copy(update={"map": s.map.model_copy(update=changes)})


def with_area(s: Scenario, area_id: str, **changes: Any) -> Scenario:
    return with_map(s, areas=_replace(s.map.areas, lambda a: a.id == area_id, **changes))


def with_border(s: Scenario, pair: str, **changes: Any) -> Scenario:
    """Change the border written "A06-A07"."""
    ends = frozenset(pair.split("-"))
    return with_map(s, borders=_replace(s.map.borders, lambda x: x.pair == ends, **changes))


def without_borders(s: Scenario, pred: Callable[[Any], bool]) -> Scenario:
    kept = tuple(b for b in s.map.borders if not pred(b))
    assert len(kept) < len(s.map.borders)
    return with_map(s, borders=kept)


def with_block(s: Scenario, block_id: str, **changes: Any) -> Scenario:
    return s.model_copy(update={"blocks": _replace(s.blocks, lambda b: b.id == block_id, **changes)})


def with_card(s: Scenario, card_id: str, **changes: Any) -> Scenario:
    return s.model_copy(update={"card_types": _replace(s.card_types, lambda c: c.id == card_id, **changes)})


def with_counter(s: Scenario, counter_id: str, **changes: Any) -> Scenario:
    return s.model_copy(update={"counters": _replace(s.counters, lambda c: c.id == counter_id, **changes)})


def with_placements(s: Scenario, placements: tuple) -> Scenario:
    return s.model_copy(update={"setup": s.setup.model_copy(update={"placements": placements})})


def move_block(s: Scenario, block_id: str, area_id: str) -> Scenario:
    return with_placements(s, _replace(s.setup.placements, lambda p: p.block == block_id, area=area_id))


def problems(s: Scenario, geometry: bool = False) -> str:
    return "\n".join(validate_scenario(s, geometry=geometry))


def assert_reports(s: Scenario, *fragments: str, geometry: bool = False) -> None:
    text = problems(s, geometry)
    for fragment in fragments:
        assert fragment in text, f"expected {fragment!r} among the problems:\n{text or '(none)'}"


# --------------------------------------------------------------------------------------------
# the real data


def test_real_data_validates_with_no_problems(s: Scenario) -> None:
    assert validate_scenario(s) == []


def test_shape_of_the_reconstruction(s: Scenario) -> None:
    assert len(s.map.areas) == 37
    assert len(s.blocks_of("axis")) == 31 and len(s.blocks_of("soviet")) == 31
    on_map = {b.id for b in s.blocks if b.reinforcement is None}
    assert len(on_map) == 54 and set(s.setup_positions()) == on_map
    assert len(s.deck("axis")) == 35 and len(s.deck("soviet")) == 28
    assert sum(c.count for c in s.counters) == 113
    assert [t.dates for t in s.meta.turns][0::12] == ["June 7-9", "July 12-14"]
    assert len(s.meta.turns) == 13


def test_ruling_r_turns_thirteen_turns_on_the_real_calendar(s: Scenario) -> None:
    """Ruling R-TURNS: T1 June 7-9 (L104), T2 June 10-12 (L414), T3 June 13-15 (L423), a last turn July
    12-14 (L427), 3-day turns (L120): 13 turns over 38 days, so one is 2 days long, turn 9 (July 1-2)
    where June ends. Every turn's dates are real days (no "June 31", hand-played game mail 063), each
    turn follows the last without a gap, and the first and last dates are the rulebook's."""
    dates = [t.dates for t in s.meta.turns]
    assert [t.n for t in s.meta.turns] == list(range(1, 14))
    assert dates[:3] == ["June 7-9", "June 10-12", "June 13-15"] and dates[-1] == "July 12-14"
    spans = []
    for text in dates:
        first, _, last = text.partition("-")
        month, day = first.split()
        start = date(1942, MONTHS[month], int(day))  # raises for a day the month does not have
        end_month, end_day = (last.split() if " " in last else (month, last))
        spans.append((start, date(1942, MONTHS[end_month], int(end_day))))
    assert all(later[0] == earlier[1] + timedelta(days=1) for earlier, later in itertools.pairwise(spans))
    assert [(end - start).days + 1 for start, end in spans] == [3] * 8 + [2] + [3] * 4
    assert dates[8] == "July 1-2"


MONTHS = {"June": 6, "July": 7}


def test_rulebook_fixed_values(s: Scenario) -> None:
    m = s.meta
    assert (m.hand_size, m.vp_start, m.stacking) == ({"axis": 8, "soviet": 6}, {"axis": 0, "soviet": 12}, 3)
    assert m.soviet_reinforcement_first_turn == 2 and m.soviet_reinforcement_roll == (1, 2)
    assert m.axis_reinforcement_first_turn == 3 and m.first_player == "axis"
    assert [g.id for g in s.reinforcement_groups("axis")] == ["4RM", "46", "420"]
    assert [g.vp_cost for g in s.reinforcement_groups("axis")] == [1, 2, 1]
    assert [g.blocks for g in s.reinforcement_groups("soviet")] == [("138",), ("142",)]
    assert {c.id: c.count for c in s.counters if c.id in ("pz3", "stug", "t26", "interdiction")} == {
        "pz3": 1, "stug": 3, "t26": 2, "interdiction": 2}
    assert s.card_type("fighter_cover").count == {"soviet": 2}
    assert len(s.division_blocks("170")) == 2
    assert sum(b.sp for b in s.division_blocks("24") + s.division_blocks("50")) == 21
    assert s.find_block("Perekop").sp + s.find_block("54").sp == 7
    assert "nkvd_extra_die" in s.block("456NKVD").special


def test_every_record_has_provenance_for_every_field(s: Scenario) -> None:
    area = s.area("A07")
    assert set(area.src) >= {"name", "terrain", "trench", "battery", "vp", "at", "initial_control"}
    assert all(v.startswith(("rulebook", "reconstructed:")) for v in area.src.values())
    assert s.block("50/121").src["name"].startswith("rulebook L204")


def test_map_features(s: Scenario) -> None:
    assert {a.id for a in s.areas_where(battery=True)} == {"A05", "A07", "B09", "C08"}
    assert {a.id for a in s.areas_where(sevastopol=True)} == {"C01", "C02"}
    assert s.vp_total() == 12
    assert len(s.areas_where(airbase=True)) >= 2 and len(s.areas_where(anchor=True)) >= 2
    ditches = [b for b in s.map.borders if b.kind == "ditch"]
    assert len(ditches) == 2 and all(b.teeth_from in (b.a, b.b) for b in ditches)
    for area in s.areas_where(axis_edge=True):
        assert area.initial_control == "axis"


def test_lookups(s: Scenario) -> None:
    assert s.area("A10").name.startswith("North Side")
    assert s.find_area("fortstalin").id == "A07"
    assert s.find_area(" Sevastopol ").id == "C02"
    assert s.find_area("Atlantis") is None
    assert "C02" not in s.neighbours("A10")
    assert "C02" in s.neighbours("A10", include_ferry=True)
    for area in s.map.areas:  # symmetric adjacency
        for other in s.neighbours(area.id, include_ferry=True):
            assert area.id in s.neighbours(other, include_ferry=True)
    assert s.border("A07", "A06").kind == "ditch" and s.border("A06", "A07").teeth_from == "A06"
    assert s.border("A02", "A05").kind == "river"
    assert s.border("A01", "C11") is None
    assert s.block("109/361").division == "109" and s.find_block("381").id == "109/361"
    assert s.find_block("IR42").id == "46/46"
    assert {b.id for b in s.division_blocks("50")} >= {"50/121", "50/122"}
    assert all(b.side == "axis" for b in s.blocks_of("axis"))
    assert s.division("1RM").nationality == "romanian"
    deck = s.deck("axis")
    assert deck.count("counterattack") > s.deck("soviet").count("counterattack")
    assert deck.count("assault") == max(deck.count(c) for c in set(deck))
    assert s.find_card_type("CAMPAIGN_ARTILLERY").id == "axis_field_artillery"
    assert s.find_card_type("mines").id == "minefield"
    assert s.card_type("88mm").labels == ("combat_support",)
    assert s.counter("division_activation").count == len(s.divisions)
    assert s.setup_positions()["109/361"] == "B08"
    with pytest.raises(KeyError):
        s.area("Z99")
    with pytest.raises(KeyError):
        s.block("nope")


def test_lookups_follow_copies(s: Scenario) -> None:
    s.neighbours("A01")  # build the index of the original
    copy = without_borders(s, lambda b: b.pair == frozenset(("A01", "A02")))
    assert "A02" not in copy.neighbours("A01")
    assert "A02" in s.neighbours("A01")


def test_historical_setup_matches_rulebook_examples(s: Scenario) -> None:
    pos = s.setup_positions()
    perekop_area = s.area(pos["Perekop"])
    assert pos["25/54"] == perekop_area.id  # L200-202: Perekop and 54th share a zone ...
    assert perekop_area.terrain == "rough" and perekop_area.trench == "soviet"  # ... rough, with trenches (L308, L310)
    for division in ("24", "50"):  # both divisions can reach it (L198-200)
        areas = {pos[b.id] for b in s.division_blocks(division)}
        assert all(perekop_area.id in s.neighbours(a) for a in areas)
    r361 = s.area(pos["109/361"])  # L196: the 361st sits in a Soviet trench area the 170th can enter
    assert r361.trench == "soviet"
    assert all(r361.id in s.neighbours(pos[b.id]) for b in s.division_blocks("170"))


def test_geometry_matches_borders_at_several_scales(s: Scenario) -> None:
    g = s.map.geometry
    declared = {b.pair for b in s.map.borders if b.kind != "ferry"}
    for scale in (0.25, 0.5, 1.0):
        labels, ids = area_cells({a.id: a.at for a in s.map.areas}, list(g.land), g.width, g.height, scale,
                                 {a.id: a.weight for a in s.map.areas})
        assert cell_adjacency(labels, ids) == declared, scale
    assert set(cell_components(labels, ids).values()) == {1}


# --------------------------------------------------------------------------------------------
# loading


def copy_root(tmp_path: Path) -> Path:
    root = tmp_path / "vmt"
    shutil.copytree(ROOT, root)
    return root


def edit_yaml(root: Path, filename: str, change: Callable[[Any], None]) -> None:
    path = root / filename
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_load_from_root_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_root(tmp_path)
    assert load_scenario(root=root).meta.name == "campaign"
    monkeypatch.setenv("MODERATOR_SCENARIOS", str(tmp_path))  # the directory holding vmt/
    assert default_root() == root
    monkeypatch.setenv("MODERATOR_SCENARIOS", str(root))  # or vmt/ itself
    assert default_root() == root
    assert load_scenario().meta.title.startswith("Von Manstein")
    with pytest.raises(ScenarioError, match="no VMT scenario named 'tournament'"):
        load_scenario("tournament", root=root)


def test_load_raises_on_inconsistent_data(tmp_path: Path) -> None:
    root = copy_root(tmp_path)
    edit_yaml(root, "cards.yaml", lambda d: d["card_types"][0]["count"].update(axis=12))
    with pytest.raises(ScenarioError, match="64 Command Cards"):
        load_scenario(root=root)


@pytest.mark.parametrize(
    ("filename", "change", "fragment"),
    [
        ("map.yaml", lambda d: d["areas"][0].update(terrain="swamp"), "map.yaml: areas.0.terrain"),
        ("map.yaml", lambda d: d["areas"][0].update(colour="red"), "colour"),
        ("map.yaml", lambda d: d["borders"][0].update(kind="tunnel"), "borders.0.kind"),
        ("blocks.yaml", lambda d: d["blocks"][0].update(sp=5), "blocks.0.sp"),
        ("blocks.yaml", lambda d: d["blocks"][0].update(side="italian"), "blocks.0.side"),
        ("blocks.yaml", lambda d: d["blocks"][0].update(id="22 16"), "no spaces"),
        ("cards.yaml", lambda d: d["card_types"][0].update(labels=["magic"]), "card_types.0.labels"),
        ("counters.yaml", lambda d: d["counters"][0].update(count=-1), "counters.0.count"),
        ("setup-historical.yaml", lambda d: d["placements"][0].pop("area"), "placements.0.area"),
        ("scenario.yaml", lambda d: d.pop("stacking"), "stacking"),
        ("map.yaml", lambda d: d.update(rivers=[]), "unknown top-level key 'rivers'"),
    ],
)
def test_schema_errors_are_reported(tmp_path: Path, filename: str, change: Callable, fragment: str) -> None:
    root = copy_root(tmp_path)
    edit_yaml(root, filename, change)
    with pytest.raises(ScenarioError) as info:
        load_scenario(root=root)
    assert "does not match the schema" in str(info.value)
    assert fragment in str(info.value)


def test_missing_and_broken_files(tmp_path: Path) -> None:
    root = copy_root(tmp_path)
    (root / "counters.yaml").unlink()
    with pytest.raises(ScenarioError, match=r"counters.yaml is missing"):
        load_scenario(root=root)
    (root / "counters.yaml").write_text("counters: [unclosed\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load_scenario(root=root)


def test_check_scenario_validates_the_named_scenario_fully(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_root(tmp_path)
    monkeypatch.setenv("MODERATOR_SCENARIOS", str(tmp_path))
    assert check_scenario("campaign") is None
    edit_yaml(root, "cards.yaml", lambda d: d["card_types"][0]["count"].update(axis=12))
    edit_yaml(root, "map.yaml", lambda d: d["areas"][0].update(at=[-5, -5]))  # found by the geometry check only
    with pytest.raises(ScenarioError) as info:
        check_scenario("campaign")
    assert "VMT scenario data is inconsistent" in str(info.value)
    assert "64 Command Cards" in str(info.value) and "lies outside the" in str(info.value)
    with pytest.raises(ScenarioError, match="no VMT scenario named 'tournament'"):
        check_scenario("tournament")


def test_unquoted_numeric_ids_are_read_as_strings(tmp_path: Path) -> None:
    root = copy_root(tmp_path)
    text = (root / "blocks.yaml").read_text(encoding="utf-8").replace('division: "170"', "division: 170")
    (root / "blocks.yaml").write_text(text, encoding="utf-8")
    assert len(load_scenario(root=root).division_blocks("170")) == 2


# --------------------------------------------------------------------------------------------
# provenance


def test_missing_provenance_entry(s: Scenario) -> None:
    area = s.area("B02")
    src = {k: v for k, v in area.src.items() if k != "terrain"}
    assert_reports(with_area(s, "B02", src=src), "area B02: field 'terrain' has no provenance")


def test_provenance_must_say_where_it_comes_from(s: Scenario) -> None:
    block = s.block("22/47")
    assert_reports(with_block(s, "22/47", src={**block.src, "sp": "from memory"}),
                   "block 22/47: provenance of 'sp' must start with 'rulebook' or 'reconstructed:'")
    assert_reports(with_block(s, "22/47", src={**block.src, "sp": "reconstructed:"}), "says nothing specific")


def test_provenance_of_unknown_field(s: Scenario) -> None:
    card = s.card_type("mortars")
    assert_reports(with_card(s, "mortars", src={**card.src, "colour": "rulebook L507"}),
                   "src names unknown field 'colour'")


def test_provenance_needed_for_optional_fields_once_set(s: Scenario) -> None:
    changed = s.model_copy(update={"map": s.map.model_copy(update={"areas": tuple(
        a.model_copy(update={"weight": 1.0}) if a.id == "A01" else a for a in s.map.areas)})})
    # model_copy marks 'weight' as set on A01, whose src has no 'weight' entry
    assert "area A01: field 'weight' has no provenance" in problems(changed)


def test_provenance_of_border_placement_and_turn(s: Scenario) -> None:
    assert_reports(with_border(s, "A01-A02", src={}), "border A01-A02: field 'kind' has no provenance")
    placements = _replace(s.setup.placements, lambda p: p.block == "22/16", src={})
    assert_reports(with_placements(s, placements), "set-up entry 22/16: field 'area' has no provenance")
    turns = _replace(s.meta.turns, lambda t: t.n == 5, src={"dates": "guess"})
    assert_reports(s.model_copy(update={"meta": s.meta.model_copy(update={"turns": turns})}), "turn 5")


# --------------------------------------------------------------------------------------------
# map


def test_duplicate_area_id(s: Scenario) -> None:
    text = problems(with_area(s, "A02", id="A01", aliases=()), geometry=True)
    assert "area id A01 is used twice" in text and "geometry: skipped" in text


def test_duplicate_area_alias(s: Scenario) -> None:
    assert_reports(with_area(s, "A02", aliases=("Kacha",)), "area name or alias 'kacha' is not unique")


def test_border_to_unknown_area(s: Scenario) -> None:
    assert_reports(with_border(s, "A01-A02", b="Z99"), "refers to unknown area Z99")


def test_duplicate_border(s: Scenario) -> None:
    extra = s.map.borders[0].model_copy(update={"a": s.map.borders[0].b, "b": s.map.borders[0].a})
    assert_reports(with_map(s, borders=s.map.borders + (extra,)), "is declared twice")


def test_self_loop(s: Scenario) -> None:
    assert_reports(with_border(s, "A01-A02", b="A01"), "joins an area to itself")


def test_land_map_must_be_connected(s: Scenario) -> None:
    cut = without_borders(s, lambda b: "A10" in (b.a, b.b) and b.kind != "ferry")
    text = problems(cut)
    assert "not connected to A01 over land borders: A10" in text
    assert "even with ferries" not in text  # the ferry to the city still links it


def test_map_with_ferries_must_be_connected(s: Scenario) -> None:
    assert_reports(without_borders(s, lambda b: "A10" in (b.a, b.b)), "not connected to A01 even with ferries: A10")


@pytest.mark.parametrize(
    ("area_id", "changes", "fragment"),
    [
        ("A01", {"battery": True}, "5 battery areas, the rulebook has 4"),
        ("B09", {"battery": False}, "3 battery areas"),
        ("C04", {"sevastopol": True}, "3 'Sevastopol proper' areas"),
        ("C02", {"vp": 4}, "VP banners total 13"),
        ("C07", {"airbase": False}, "1 airbase areas"),
        ("C06", {"anchor": False}, "1 anchor areas"),
        ("A04", {"initial_control": "soviet"}, "Axis edge area A04 must start Axis-controlled"),
        ("A05", {"initial_control": "axis"}, "battery area A05 must start Soviet-controlled"),
        ("B01", {"initial_control": "axis"}, "VP area B01 must start Soviet-controlled"),
        ("C06", {"initial_control": "axis"}, "anchor area C06 should start Soviet-controlled"),
    ],
)
def test_area_feature_counts(s: Scenario, area_id: str, changes: dict, fragment: str) -> None:
    assert_reports(with_area(s, area_id, **changes), fragment)


def test_axis_edge_areas_needed(s: Scenario) -> None:
    areas = tuple(a.model_copy(update={"axis_edge": False}) for a in s.map.areas)
    assert_reports(with_map(s, areas=areas), "no Axis edge area")


def test_vp_start_follows_banners(s: Scenario) -> None:
    assert_reports(with_area(s, "C02", vp=4), "the Soviet starts with 12 VP but the banners total 13")


def test_ditch_teeth_must_face_one_of_its_areas(s: Scenario) -> None:
    assert_reports(with_border(s, "A06-A07", teeth_from="A08"), "teeth_from must be A06 or A07, not A08")


def test_exactly_two_ditches(s: Scenario) -> None:
    assert_reports(with_border(s, "B05-B07", kind="land", teeth_from=None), "1 AT-ditch borders, the rulebook has 2")


def test_teeth_only_on_ditches_and_river_flag_only_on_ditches(s: Scenario) -> None:
    assert_reports(with_border(s, "A01-A02", teeth_from="A01"), "only a ditch has teeth_from")
    assert_reports(with_border(s, "A01-A02", river=True), "'river: true' is only for ditch borders")


def test_two_ferries(s: Scenario) -> None:
    assert_reports(without_borders(s, lambda b: b.kind == "ferry" and "A11" in (b.a, b.b)), "1 ferry arrows")


# --------------------------------------------------------------------------------------------
# geometry agrees with adjacency


def test_dropped_border_is_seen_by_geometry(s: Scenario) -> None:
    cut = without_borders(s, lambda b: b.pair == frozenset(("B02", "B03")))
    assert_reports(cut, "cells of B02 and B03 touch but no land/river/ditch border joins them", geometry=True)


def test_invented_border_is_seen_by_geometry(s: Scenario) -> None:
    extra = s.map.borders[0].model_copy(update={"a": "A01", "b": "C11", "kind": "land"})
    assert_reports(with_map(s, borders=s.map.borders + (extra,)),
                   "border A01-C11 is declared but their cells do not touch", geometry=True)


def test_ferry_must_cross_water(s: Scenario) -> None:
    changed = with_border(s, "B02-B03", kind="ferry")
    assert_reports(changed, "ferry B02-B03 joins areas whose cells touch", geometry=True)


def test_centre_in_the_sea(s: Scenario) -> None:
    assert_reports(with_area(s, "C11", at=(200.0, 1080.0)), "the centre of C11 is not inside its own cell",
                   geometry=True)


def test_centre_off_the_map(s: Scenario) -> None:
    assert_reports(with_area(s, "C11", at=(2000.0, 10.0)), "lies outside the 1000x1100 map", geometry=True)


def test_moved_centre_changes_neighbours(s: Scenario) -> None:
    text = problems(with_area(s, "C02", at=(240.0, 830.0)), geometry=True)
    assert "geometry:" in text


def test_split_cell(s: Scenario) -> None:
    # a bigger North Side cell reaches across the bay: its pieces south of the water are cut off
    changed = with_area(s, "A10", at=(430.0, 560.0), weight=1.5)
    assert_reports(changed, "the cell of A10 has 3 separate pieces, it must have 1", geometry=True)


def test_axis_edge_must_reach_the_map_edge(s: Scenario) -> None:
    changed = with_area(s, "A02", axis_edge=True, src={**s.area("A02").src, "axis_edge": "reconstructed: test"})
    assert_reports(changed, "Axis edge area A02 does not reach the map edge", geometry=True)


# --------------------------------------------------------------------------------------------
# blocks


def test_block_count(s: Scenario) -> None:
    extra = s.blocks[0].model_copy(update={"id": "22/999", "aliases": ()})
    assert_reports(s.model_copy(update={"blocks": s.blocks + (extra,)}), "63 blocks, the game has 62")


def test_duplicate_block_id(s: Scenario) -> None:
    assert_reports(with_block(s, "22/65", id="22/16", aliases=()), "block id 22/16 is used twice")


def test_duplicate_alias(s: Scenario) -> None:
    assert_reports(with_block(s, "22/65", aliases=("IR47",)), "block name or alias 'ir47' is not unique")


def test_unknown_division(s: Scenario) -> None:
    assert_reports(with_block(s, "22/65", division="99"), "22/65: unknown division 99")


def test_division_side_and_nationality(s: Scenario) -> None:
    assert_reports(with_block(s, "18R/90", nationality="german"), "18R/90: nationality differs from its division's")
    assert_reports(with_block(s, "95/90", nationality="german"), "nationality german does not fit side soviet")


def test_duplicate_division(s: Scenario) -> None:
    assert_reports(s.model_copy(update={"divisions": s.divisions + (s.divisions[0],)}), "division id 22 is used twice")


def test_block_side_differs_from_division(s: Scenario) -> None:
    assert_reports(with_block(s, "22/16", side="soviet"), "22/16: side soviet differs from its division's (axis)")


def test_division_without_blocks(s: Scenario) -> None:
    changed = s.model_copy(update={"blocks": _replace(s.blocks, lambda b: b.division == "28", division=None)})
    assert_reports(changed, "division 28 has no block")


def test_division_needs_activation_marker(s: Scenario) -> None:
    divisions = _replace(s.divisions, lambda d: d.id == "72", activation_marker=False)
    assert_reports(s.model_copy(update={"divisions": divisions}), "division 72 must have an activation marker")


def test_24th_and_50th_strength(s: Scenario) -> None:
    assert_reports(with_block(s, "24/32", sp=4), "6 blocks of 21 SP together", "not 6 blocks of 22 SP")


def test_24th_and_50th_need_two_four_sp_blocks(s: Scenario) -> None:
    # 4+3+3 / 3+3+3... with the total kept at 21: 24th 4,4,4 and 50th 3,3,3 would pass; 24th 3,3,3 + 50th 4,4,4 too
    changed = with_block(with_block(s, "50/121", sp=3), "50/122", sp=3)  # only 24/31 stays at 4
    assert_reports(changed, "at least two 4-SP blocks")


def test_170th_has_two_blocks(s: Scenario) -> None:
    assert_reports(with_block(s, "72/105", division="170"), "the 170th division must have 2 blocks (L196), not 3")


def test_50th_includes_121st_and_122nd(s: Scenario) -> None:
    assert_reports(with_block(s, "50/122", id="50/125", aliases=()), "must include the 122th regiment")


def test_perekop_and_54th(s: Scenario) -> None:
    assert_reports(with_block(s, "Perekop", sp=3), "Perekop and 54th must total 7 SP (L308), not 6")


def test_perekop_must_exist(s: Scenario) -> None:
    assert_reports(with_block(s, "Perekop", id="Perekop2", aliases=()), "Perekop and 54th regiments must exist")


def test_361st_must_exist(s: Scenario) -> None:
    assert_reports(with_block(s, "109/361", aliases=("381",)), "361st regiment of the rulebook example must exist")


def test_nkvd_special(s: Scenario) -> None:
    assert_reports(with_block(s, "456NKVD", special=()), "456th NKVD) must have nkvd_extra_die")


def test_romanians_on_the_map(s: Scenario) -> None:
    changed = s.model_copy(update={"blocks": _replace(
        s.blocks, lambda b: b.nationality == "romanian" and b.reinforcement is None, nationality="german")})
    assert "Romanian as well as German blocks" in problems(changed)


def test_reinforcement_group_order(s: Scenario) -> None:
    groups = _replace(s.reinforcements, lambda g: g.id == "420", order=1)
    groups = _replace(groups, lambda g: g.id == "4RM", order=3)
    assert_reports(s.model_copy(update={"reinforcements": groups}),
                   "Axis reinforcement groups must be 4RM, 46, 420 in that order")


def test_reinforcement_vp_cost(s: Scenario) -> None:
    groups = _replace(s.reinforcements, lambda g: g.id == "46", vp_cost=1)
    assert_reports(s.model_copy(update={"reinforcements": groups}), "axis reinforcement groups in order must have")


def test_soviet_brigade_order(s: Scenario) -> None:
    groups = _replace(s.reinforcements, lambda g: g.id == "138", order=2)
    groups = _replace(groups, lambda g: g.id == "142", order=1)
    assert_reports(s.model_copy(update={"reinforcements": groups}), "the 138th then the 142nd brigade")


def with_groups(s: Scenario, groups: tuple) -> Scenario:
    return s.model_copy(update={"reinforcements": groups})


def test_reinforcement_group_declared_twice(s: Scenario) -> None:
    assert_reports(with_groups(s, s.reinforcements + (s.reinforcements[-1],)),
                   "reinforcement group 142 is declared twice")


def test_block_in_two_reinforcement_groups(s: Scenario) -> None:
    groups = _replace(s.reinforcements, lambda g: g.id == "46", blocks=("46/46", "46/72", "46/97", "420"))
    assert_reports(with_groups(s, groups), "block 420 is in two reinforcement groups")


def test_reinforcement_group_with_unknown_or_enemy_block(s: Scenario) -> None:
    groups = _replace(s.reinforcements, lambda g: g.id == "420", blocks=("420", "999"))
    assert_reports(with_groups(s, groups), "reinforcement group 420 names unknown block 999")
    groups = _replace(s.reinforcements, lambda g: g.id == "420", blocks=("420", "138"))
    assert_reports(with_groups(s, groups), "reinforcement group 420 (axis) holds soviet block 138")


def test_reinforcement_orders_are_consecutive(s: Scenario) -> None:
    groups = _replace(s.reinforcements, lambda g: g.id == "420", order=4)
    assert_reports(with_groups(s, groups), "axis reinforcement orders must be 1..3, not [1, 2, 4]")


def test_unexpected_reinforcement_group(s: Scenario) -> None:
    extra = s.reinforcements[2].model_copy(update={"id": "213", "order": 4, "blocks": ("213",)})
    assert_reports(with_groups(with_block(s, "213", reinforcement="213"), s.reinforcements + (extra,)),
                   "unexpected reinforcement group 213")


def test_reinforcement_block_and_group_agree(s: Scenario) -> None:
    assert_reports(with_block(s, "420", reinforcement="46"), "block 420 is in group 420 but says reinforcement 46")
    assert_reports(with_block(s, "213", reinforcement="420"),
                   "block 213 names reinforcement group 420, which does not list it")


# --------------------------------------------------------------------------------------------
# cards


def test_card_total(s: Scenario) -> None:
    assert_reports(with_card(s, "redeployment", count={"axis": 3, "soviet": 4}), "64 Command Cards, the game has 63")


def test_fighter_cover_is_two(s: Scenario) -> None:
    changed = with_card(with_card(s, "fighter_cover", count={"soviet": 3}), "mortars", count={"soviet": 2})
    text = problems(changed)
    assert "exactly 2 Fighter Cover" in text and "Command Cards" not in text


def test_axis_has_more_counterattacks(s: Scenario) -> None:
    changed = with_card(with_card(s, "counterattack", count={"axis": 2, "soviet": 2}), "heavy_artillery",
                        count={"axis": 5})
    assert_reports(changed, "more Counterattack cards than the Soviet deck")


def test_assault_most_common(s: Scenario) -> None:
    changed = with_card(with_card(s, "assault", count={"axis": 11, "soviet": 3}), "mortars", count={"soviet": 8})
    assert_reports(changed, "Assault must be the most common card of the soviet deck")


def test_card_sides_and_labels(s: Scenario) -> None:
    assert_reports(with_card(s, "goliath", labels=("order",)), "goliath: labels ['order'] differ")
    assert_reports(with_card(s, "goliath", sides=("soviet",), count={"soviet": 1}), "goliath: sides ['soviet'] differ")
    assert_reports(with_card(s, "goliath", count={"axis": 0}), "goliath: belongs to the axis deck but has count 0")
    assert_reports(with_card(s, "goliath", count={"axis": 1, "soviet": 1}), "has 1 cards in the soviet deck")


def test_card_type_listed_twice(s: Scenario) -> None:
    card = s.card_type("goliath")
    assert_reports(s.model_copy(update={"card_types": s.card_types + (card,)}), "card type goliath is listed twice")


def test_card_alias_not_unique(s: Scenario) -> None:
    assert_reports(with_card(s, "bunker", aliases=("MINES",)), "card name or alias 'mines' is not unique")


def test_unknown_card_type(s: Scenario) -> None:
    assert_reports(with_card(s, "bunker", id="pillbox"), "unknown card type pillbox",
                   "card type bunker of the rulebook")


def test_negative_card_count(s: Scenario) -> None:
    assert_reports(with_card(s, "goliath", count={"axis": 1, "soviet": -1}), "goliath: negative count for soviet")


def test_missing_card_type(s: Scenario) -> None:
    cards = tuple(c for c in s.card_types if c.id != "bunker")
    assert_reports(s.model_copy(update={"card_types": cards}), "card type bunker of the rulebook (L41-56) is missing")


# --------------------------------------------------------------------------------------------
# counters


def test_counter_total(s: Scenario) -> None:
    assert_reports(with_counter(s, "control", count=41), "114 counters and markers")


def test_armor_counts(s: Scenario) -> None:
    changed = with_counter(with_counter(s, "stug", count=2), "control", count=41)
    text = problems(changed)
    assert "stug count is 2" in text and "counters and markers" not in text


def test_activation_markers_match_divisions(s: Scenario) -> None:
    changed = with_counter(with_counter(s, "division_activation", count=17), "control", count=41)
    assert_reports(changed, "17 divisional activation markers for 18 divisions")


def test_counter_listed_twice(s: Scenario) -> None:
    counter = s.counter("turn")
    assert_reports(s.model_copy(update={"counters": s.counters + (counter,)}), "counter type turn is listed twice")


def test_counter_needed(s: Scenario) -> None:
    assert_reports(with_counter(s, "at", count=0), "at least one at counter is needed")


def test_asset_steps(s: Scenario) -> None:
    assert_reports(with_counter(s, "axis_pioneer", steps=1), "axis_pioneer must have 2 steps")


# --------------------------------------------------------------------------------------------
# set-up


def test_fourth_block_in_an_area(s: Scenario) -> None:
    assert_reports(move_block(s, "172/383", "A08"), "4 soviet blocks in A08", "the limit is 3")


def test_block_placed_twice(s: Scenario) -> None:
    dup = s.setup.placements[0].model_copy(update={"area": "A01"})
    assert_reports(with_placements(s, s.setup.placements + (dup,)), "is placed more than once")


def test_block_not_placed(s: Scenario) -> None:
    placements = tuple(p for p in s.setup.placements if p.block != "9NI")
    assert_reports(with_placements(s, placements), "block 9NI is not placed")


def test_reinforcement_not_placed_at_start(s: Scenario) -> None:
    extra = s.setup.placements[0].model_copy(update={"block": "138", "area": "C02"})
    assert_reports(with_placements(s, s.setup.placements + (extra,)), "reinforcement block 138 must wait off-map")


def test_block_in_enemy_area(s: Scenario) -> None:
    assert_reports(move_block(s, "213", "C11"), "axis block 213 starts in C11, which the soviet controls")


def test_unknown_block_in_setup(s: Scenario) -> None:
    extra = s.setup.placements[0].model_copy(update={"block": "999"})
    assert_reports(with_placements(s, s.setup.placements + (extra,)), "set-up: unknown block 999")


def test_both_sides_in_one_area(s: Scenario) -> None:
    assert_reports(move_block(s, "213", "A08"), "both sides have blocks in A08")


def test_placement_in_unknown_area(s: Scenario) -> None:
    assert_reports(move_block(s, "213", "Z99"), "block 213 is placed in unknown area Z99")


def test_axis_areas_connect_to_the_edge(s: Scenario) -> None:
    changed = with_area(s, "C11", initial_control="axis")
    assert_reports(changed, "Axis-controlled C11 is cut off from the Axis map edge")


def test_setup_asset_checks(s: Scenario) -> None:
    from moderator.games.vmt.scenario import AssetPlacement

    asset = AssetPlacement(counter="tiger", area="Z99", src={"area": "reconstructed: test"})
    changed = s.model_copy(update={"setup": s.setup.model_copy(update={"assets": (asset,)})})
    assert_reports(changed, "unknown asset counter tiger", "asset tiger placed in unknown area Z99")


# --------------------------------------------------------------------------------------------
# scenario metadata


def test_turn_numbering(s: Scenario) -> None:
    turns = _replace(s.meta.turns, lambda t: t.n == 7, n=8)
    assert_reports(s.model_copy(update={"meta": s.meta.model_copy(update={"turns": turns})}),
                   "turns must be numbered 1..13")


def test_reinforcement_turn_within_the_game(s: Scenario) -> None:
    meta = s.meta.model_copy(update={"axis_reinforcement_first_turn": 14})
    assert_reports(s.model_copy(update={"meta": meta}), "axis_reinforcement_first_turn is after the last turn")


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"hand_size": {"axis": 8}}, "hand size of soviet missing"),
        ({"vp_start": {"soviet": 12}}, "VP start of axis missing"),
        ({"soviet_reinforcement_roll": (0, 7)}, "must list die faces 1-6"),
    ],
)
def test_meta_values(s: Scenario, changes: dict, fragment: str) -> None:
    assert_reports(s.model_copy(update={"meta": s.meta.model_copy(update=changes)}), fragment)


# --------------------------------------------------------------------------------------------
# derived data lives on the scenario object


def test_geography_belongs_to_its_scenario_even_when_an_id_is_reused(s: Scenario) -> None:
    """The board's Geography was cached by id(scenario): once a scenario was garbage-collected, a new
    one allocated at the same address got the old one's map.  Now it is kept on the scenario."""
    from moderator.games.vmt.board import geography

    assert geography(s) is geography(s)  # built once per scenario object
    border = next(b for b in s.map.borders if b.kind == "land")
    maps = (s.map, s.map.model_copy(update={"borders": tuple(b for b in s.map.borders if b.pair != border.pair)}))
    map_at_id: dict[int, int] = {}
    reused = 0
    for i in range(20):
        scenario = s.model_copy(update={"map": maps[i % 2]})  # often at the address the last one freed
        reused += map_at_id.get(id(scenario), i % 2) != i % 2
        map_at_id[id(scenario)] = i % 2
        has_border = i % 2 == 0
        assert (border.pair in geography(scenario).borders) == has_border
        assert (border.b in geography(scenario).neighbours(border.a)) == has_border
        del scenario  # garbage: its address is free for the next copy
    assert reused, "no copy reused a freed id; the test did not exercise the stale-id case"
