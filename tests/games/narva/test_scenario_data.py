"""The Across the Narva scenario data validates, its lookups work, and the validator catches every
kind of corruption.

Each corruption test changes one thing in a copy of the real data and checks that
`validate_scenario` reports it, so that a club editing the YAML is told what it broke.
"""

from __future__ import annotations

import shutil
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from moderator.core.errors import ScenarioError
from moderator.games.narva.scenario import (
    CombatResult,
    Scenario,
    check_scenario,
    default_root,
    load_scenario,
    parse_result,
    read_scenario,
    validate_scenario,
)
from moderator.maps.hexes import parse_hex

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


def with_map_items(s: Scenario, field: str, pred: Callable[[Any], bool], **changes: Any) -> Scenario:
    return with_map(s, **{field: _replace(getattr(s.map, field), pred, **changes)})


def with_meta(s: Scenario, **changes: Any) -> Scenario:
    return s.model_copy(update={"meta": s.meta.model_copy(update=changes)})


def with_tables(s: Scenario, **changes: Any) -> Scenario:
    return s.model_copy(update={"tables": s.tables.model_copy(update=changes)})


def with_setup(s: Scenario, **changes: Any) -> Scenario:
    return s.model_copy(update={"setup": s.setup.model_copy(update=changes)})


def with_unit(s: Scenario, unit_id: str, **changes: Any) -> Scenario:
    return s.model_copy(update={"units": _replace(s.units, lambda u: u.id == unit_id, **changes)})


def move(s: Scenario, unit_id: str, hex_id: str) -> Scenario:
    return with_setup(s, placements=_replace(s.setup.placements, lambda p: p.unit == unit_id, hex=hex_id))


def add_placement(s: Scenario, unit_id: str, hex_id: str) -> Scenario:
    template = s.setup.placements[0]
    extra = template.model_copy(update={"unit": unit_id, "hex": hex_id, "reduced": False})
    return with_setup(s, placements=s.setup.placements + (extra,))


def set_terrain(s: Scenario, hex_id: str, char: str) -> Scenario:
    col, row = parse_hex(hex_id)
    c0 = s.map.grid.columns[0]

    def edit(r):
        text = r.hexes
        return text[: col - c0] + char + text[col - c0 + 1:]

    rows = tuple(r.model_copy(update={"hexes": edit(r)}) if r.row == row else r for r in s.map.terrain.rows)
    return with_map(s, terrain=s.map.terrain.model_copy(update={"rows": rows}))


def with_src(record: Any, **changes: Any) -> Any:
    src = dict(record.src)
    for k, v in changes.items():
        if v is None:
            src.pop(k, None)
        else:
            src[k] = v
    return record.model_copy(update={"src": src})


def problems(s: Scenario) -> str:
    return "\n".join(validate_scenario(s))


def assert_reports(s: Scenario, *fragments: str) -> None:
    text = problems(s)
    for fragment in fragments:
        assert fragment in text, f"expected {fragment!r} among the problems:\n{text or '(none)'}"


# --------------------------------------------------------------------------------------------
# the real data


def test_real_data_validates_with_no_problems(s: Scenario) -> None:
    assert validate_scenario(s) == []


def test_shape_of_the_reconstruction(s: Scenario) -> None:
    assert len(s.hex_ids()) == 35 * 40
    assert all(s.hex(h).terrain for h in s.hex_ids())
    german, soviet = s.units_of("german"), s.units_of("soviet")
    assert len([u for u in german if u.id in s.setup_positions()]) == 49  # 43 combat units + 6 HQs (14.1-14.4)
    assert len([u for u in soviet if u.id in s.setup_positions()]) == 47  # 42 combat units + 5 HQs (14.5-14.7)
    assert sum(1 for u in german if u.id in s.setup_positions() and u.is_combat) == 43
    assert sum(1 for u in soviet if u.id in s.setup_positions() and u.is_combat) == 42
    assert len(s.air_units) == 7
    assert len(s.chits) == 26
    assert len(s.meta.turns) == 12


def test_grid_parameters(s: Scenario) -> None:
    g = s.map.grid
    assert (g.columns, g.rows, g.parity, g.rows_increase) == ((1, 35), (1, 40), "even", "north")
    assert s.grid.adjacent("1429", "1530") and s.grid.adjacent("1530", "1629")


def test_rulebook_set_up_is_verbatim(s: Scenario) -> None:
    pos = s.setup_positions()
    expected = {
        "61/151G": "2626", "61/61F": "1312", "61/161Pio": "1210", "61/162G": "0920", "61/176G": "1220",
        "FHH/HQ": "1827", "FHH/PZG": "1928", "FHH/MOK": "2022", "FHH/BECK": "2431", "FHH/PZ": "1029",
        "FHH/FUS": "1820", "FHH/AA": "2423", "170/391G": "2326", "170/399G": "2732", "227/HQ": "2030",
        "227/366G": "2832", "227/227Pio": "2132", "227/328G": "2633", "227/227F": "2634", "IND/2/502": "2533",
        "225/HQ": "0213", "225/376G": "0607", "225/225Pio": "0804", "225/333G": "1107", "225/377G": "1109",
        "58/209G": "2126", "KUST/HOHN": "2235", "KUST/SCHN": "2337", "11SS/HQ": "3029", "11SS/2/24": "3127",
        "11SS/AA": "2931", "11SS/KAUS": "2829", "11SS/3/24": "3329", "11SS/11Pio": "3027", "11SS/HVS": "2830",
        "11SS/HAME": "3227", "11SS/23": "2928", "11SS/KRUG": "3228", "4SS/HQ": "3130", "4SS/2/48": "3331",
        "4SS/1/49": "3231", "4SS/1/48": "3330", "4SS/2/49": "3132", "4SS/54Pio": "3031", "KUST/HQ": "2134",
        "IND/30P": "1005", "KUST/32P": "1532", "IND/29P": "1721", "KUST/31P": "2435",
        "2SH/HQ": "3024", "122/HQ": "1306", "122/163": "1207", "122/219": "1409", "122/320": "2305",
        "122/65": "1105", "122/147": "1103", "122/708": "2306", "122/1074": "2020", "122/1076": "2020",
        "122/1078": "2021", "124/172": "1408", "124/296": "1507", "124/119": "1507", "109/HQ": "2120",
        "109/381": "2122", "109/456": "2122", "109/602": "2422", "109/657": "1921", "109/749": "1921",
        "109/864": "3026", "109/880": "3226", "109/466": "2021", "109/891": "3429", "43/HQ": "2935",
        "43/268": "3333", "43/301": "3332", "43/328": "3332", "43/4": "2635", "43/166": "2636", "43/308": "2736",
        "43/593": "2734", "43/695": "3032", "43/743": "2733", "IND/48": "2538", "IND/16UR": "3430", "IND/50": "3232",
        "30GD/HQ": "3015", "30GD/131": "3406", "30GD/129": "3108", "30GD/134": "3108", "30GD/188": "3014",
        "30GD/190": "2816", "30GD/192": "2716", "30GD/197": "2718", "30GD/191": "2719", "30GD/194": "2820",
    }
    assert pos == expected
    assert s.setup_reduced() == {"61/151G", "61/176G", "227/227Pio", "225/376G"}


def test_rulebook_fixed_map_values(s: Scenario) -> None:
    assert sorted(s.area_hexes("narva")) == ["2930", "3028", "3029", "3030"]
    assert all(s.terrain(h) == "city" for h in s.area_hexes("narva"))
    assert s.area_hexes("ivangorod") == ("3129", "3130", "3131")
    assert all(s.terrain(h) == "hill" for h in ("1429", "1530", "1629"))
    assert "Narva-Joesuu" in s.hex("2337").places and "Krivasoo" in s.hex("1820").places
    assert len(s.area_hexes("merekula")) == 2 and all(s.hex(h).coastal for h in s.area_hexes("merekula"))
    assert s.rollbahn_vp_hexes()[0] in s.entry_hexes("A") and s.rollbahn_vp_hexes()[-1] == "2930"
    assert "label" in {p.kind for p in s.map.places if p.hex == "1003"}  # errata 2.2.12
    # the Narva: west bank has Narva, the hills, the set-up Germans; east bank Ivangorod and the PD ring
    assert all(s.west_of_narva(h) for h in ("2930", "3028", "1429", "1530", "1629", "2337", "1820"))
    assert not any(s.west_of_narva(h) for h in ("3129", "3130", "3131", "3127", "3132", "3024"))
    for uid, h in s.setup_positions().items():
        u = s.unit(uid)
        if u.side == "german" and u.formation not in ("11SS", "4SS"):
            assert s.west_of_narva(h), uid
        if u.side == "soviet" and h not in ("1921", "2020", "2021", "2120", "2122", "2422"):
            assert not s.west_of_narva(h), uid


def test_rulebook_schedules(s: Scenario) -> None:
    rows = {(r.turn, r.side, r.entry, r.parent): r.units for r in s.meta.reinforcements}
    assert rows[(1, "german", "A", "170")] == ("170/HQ", "170/410F", "170/170F")
    assert rows[(1, "german", "A", "KVO")] == ("KVO/TART", "KVO/VILJ", "KVO/PARN")
    assert rows[(2, "german", "A", "58")] == ("58/220G", "58/158Pio")
    assert rows[(4, "german", "B", "11")][0] == "11/HQ"  # rule 8.4 example
    assert rows[(1, "soviet", "H", "14")] == ("14/1254", "14/1256", "14/1258")
    assert len(rows[(2, "soviet", "D", "117")]) == 10 and len(rows[(2, "soviet", "D", "124")]) == 7
    assert rows[(2, "soviet", "merekula", "IND")] == ("IND/260",)
    groups = {c.id: (c.enters, c.leaves) for c in s.chits}
    assert [c.group for c in s.chits_entering(0) if c.kind == "command"].count("2SH") == 3
    assert groups["WER-1"] == (0, 3) and groups["WER-2"] == (1, 3)
    assert sorted(c.group for c in s.chits_entering(3) if c.kind == "command") == ["26", "43", "59", "8", "AGN"]
    assert [c.action for c in s.chits_entering(4) if c.kind == "action"] == ["barrage", "stavka"]
    assert [c.action for c in s.chits_entering(5)] == ["random_event"]
    assert s.air_reinforcements(3, "soviet") == ("IL-2M-2",) and s.air_reinforcements(4, "soviet") == ("MIG-3-2",)
    assert {v.id: v.vp for v in s.meta.vp_items} == {
        "entry_a": 15, "entry_b": 10, "entry_c": 10, "hills": 2, "ivangorod": 3, "narva_joesuu": 2, "krivasoo": 1,
        "west_villages": 1, "rollbahn": 2, "pd_track": 1}
    assert [(v.min_vp, v.max_vp) for v in s.meta.victory_levels] == [
        (56, None), (46, 55), (36, 45), (26, 35), (16, 25), (0, 15)]
    assert s.activation_limit(3, "german") == 2  # rule 2.3 example
    assert [s.frozen(n) for n in range(1, 13)] == [True] * 7 + [False] * 5
    assert s.frozen(8, freeze_extended=True) and not s.frozen(9, freeze_extended=True)


# --------------------------------------------------------------------------------------------
# lookups


def test_hex_and_hexside_lookups(s: Scenario) -> None:
    narva = s.hex("2930")
    assert narva.terrain == "city" and "rollbahn" in narva.routes and "narva" in narva.areas
    assert s.hex("3127").pd_division == "11SS" and s.hex("3132").pd_division == "4SS"
    assert s.hex("0131").entry_area == "A" and s.hex("0131").supply_source == "german"
    assert s.hex("3529").supply_source == "soviet" and "east" in s.hex("3529").edges
    assert s.hex("2134").coastal and not s.hex("1827").coastal
    assert set(s.neighbours("2930")) == {"2931", "3030", "3029", "2929", "2829", "2830"}
    road_bridge = s.hexside("3130", "3030")
    assert road_bridge is s.hexside("3030", "3130")
    assert (road_bridge.river_name, road_bridge.bridge, road_bridge.feature(True)) == ("Narva", True, "bridge")
    upper = s.hexside("1005", "1105")
    assert upper.never_frozen and upper.feature(frozen=True) == "major_river"
    lower = s.hexside("2732", "2733")
    assert lower.feature(frozen=True) == "major_river_frozen" and lower.feature(frozen=False) == "major_river"
    assert s.hexside("1209", "1309").feature(True) == "ferry"
    assert s.hexside("1928", "2028").rail_cut and "railway_major" not in s.hexside("1928", "2028").routes
    assert s.hexside("1429", "1530").feature(True) is None
    with pytest.raises(KeyError):
        s.hexside("1429", "1629")
    with pytest.raises(KeyError):
        s.hex("3641")


def test_tec_lookups(s: Scenario) -> None:
    assert s.move_cost("1623", "infantry") == 2 and s.move_cost("1623", "mechanized") is None
    assert s.terrain_effect("hill").defense_multiplier == 2
    assert s.hexside_effect("ferry").move["infantry"] == "all"
    assert s.road_effect("trail").strategic is None
    assert s.legal_for("FHH/PZ", "1029") and not s.legal_for("IND/48", "2438")
    assert s.hex("1623").routes == {"winter_trail"} and not s.legal_for("FHH/PZ", "1623")  # seasonal trail only
    assert s.terrain("1921") == "swamp" and s.legal_for("FHH/PZ", "1921")  # a track leads in


def test_unit_and_chit_lookups(s: Scenario) -> None:
    u = s.unit("11SS/HVS")
    assert u.side == "german" and u.ss and u.movement_class == "mechanized" and u.strength(True).attack < u.full.attack
    assert s.find_unit("häme") is s.unit("11SS/HAME")
    assert s.find_unit("328") is s.unit("43/328")  # the German regiment is written 328G
    assert s.find_unit("191") is None and s.find_unit("191", side="soviet") is None  # 30GD/191 and 117/191
    assert s.find_unit("AA") is None and s.find_unit("11ss/aa") is s.unit("11SS/AA")
    assert s.unit("2SH/HQ").command_range == 12 and s.unit("2SH/HQ").is_hq
    assert {u.id for u in s.formation_units("4SS")} >= {"4SS/HQ", "4SS/1/48"}
    assert s.formation("109").parent == "2SH"
    assert [c.id for c in s.chits_for(1)] == ["3SS-1", "3SS-2", "WER-1", "2SH-1", "2SH-2", "2SH-3"]
    assert "WER-2" in {c.id for c in s.chits_for(3)} and "WER-2" not in {c.id for c in s.chits_for(4)}
    assert s.command_group("AGN").extra_units == 2
    assert s.reinforcements(1, "soviet")[0].entry == "D"
    with pytest.raises(KeyError):
        s.unit("nobody")


def test_crt_lookups(s: Scenario) -> None:
    assert s.crt_columns() == 8
    assert s.odds_column("german", 3, 2) == 3 and s.odds_column("soviet", 3, 2) == 2
    assert s.odds_column("soviet", 1, 3) is None and s.odds_column("german", 1, 2) == 1
    assert s.odds_column("soviet", 50, 1) == 8 and s.odds_column("german", 5, 0) == 8
    # red attacker losses apply to Soviet attackers only (9.1D)
    assert s.crt("soviet", 6, 1) == "A1 D1" and s.crt("german", 6, 1) == "D1"
    assert s.crt("soviet", 6, 7) == s.crt("soviet", 6, 6)  # Turn 1 +1 is clamped to the table
    assert isinstance(s.crt_result("german", 2, 2), CombatResult) and s.crt("german", 2, 2) == "Ar1"
    assert s.barrage_result(3).pinned and s.barrage_result(5).code == "Dr1"
    assert s.barrage_count("soviet", 6) >= s.barrage_count("german", 6)
    assert s.random_event(11).effect == "prolong_freeze"
    with pytest.raises(ValueError):
        s.crt("soviet", 9, 3)


def test_result_parser() -> None:
    full, red = parse_result("A1* D2r2")
    assert (full.attacker_steps, full.defender_steps, full.defender_retreat) == (1, 2, 2)
    assert red.attacker_steps == 0 and red.code == "D2r2"
    assert parse_result("NR")[0].code == "NR"
    for bad in ("", "X1", "D1*", "A", "A1 A1", "Dr", "P P"):
        with pytest.raises(ValueError):
            parse_result(bad)


def test_lookups_are_cached_and_fast(s: Scenario) -> None:
    assert s.hex("2930") is s.hex("2930")
    start = time.perf_counter()
    for _ in range(50_000):
        s.hex("2930")
        s.hexside("3030", "3130")
        s.neighbours("1820")
        s.unit("11SS/23")
    assert time.perf_counter() - start < 2.0


def test_copies_get_their_own_index(s: Scenario) -> None:
    s.hex("2930")  # build the original's index
    copy = with_unit(s, "11SS/23", name="Norge")
    assert copy.unit("11SS/23").name == "Norge" and s.unit("11SS/23").name == "23"


# --------------------------------------------------------------------------------------------
# plausibility of the reconstruction under the rules


def _supply_reach(s: Scenario, side: str) -> set[str]:
    """Rule 10.1 supply trace at the set-up (frozen): road, clear, hill hexes or friendly-occupied ones,
    no enemy units or EZOC, unbridged major rivers only at ferries."""
    occ: dict[str, set[str]] = {}
    for uid, h in s.setup_positions().items():
        occ.setdefault(h, set()).add(s.unit(uid).side)
    ezoc = set()
    for uid, h in s.setup_positions().items():
        u = s.unit(uid)
        if u.side != side and u.zoc:
            for n in s.land_neighbours(h):
                hs = s.hexside(h, n)
                if not (hs.river_kind == "major" and not hs.bridge):
                    ezoc.add(n)

    def ok(h: str) -> bool:
        info = s.hex(h)
        here = occ.get(h, set())
        if info.water or (here and side not in here):
            return False
        if h in ezoc and side not in here:
            return False
        return bool(info.routes) or info.terrain in ("clear", "hill", "village", "city") or side in here

    start = [h for h in s.supply_sources(side) if ok(h)]
    seen, queue = set(start), deque(start)
    while queue:
        h = queue.popleft()
        for n in s.land_neighbours(h):
            hs = s.hexside(h, n)
            if n in seen or not ok(n) or (hs.river_kind == "major" and not hs.bridge and not hs.ferry):
                continue
            seen.add(n)
            queue.append(n)
    return seen


def test_almost_every_set_up_unit_can_trace_supply(s: Scenario) -> None:
    for side in ("german", "soviet"):
        reach = _supply_reach(s, side)
        out = sorted(uid for uid, h in s.setup_positions().items() if s.unit(uid).side == side and h not in reach)
        # design note of rule 10: some units begin unable to trace supply; here only 176G deep in the Puhatu bog
        assert out == (["61/176G"] if side == "german" else []), out


def test_historical_vp_reading_is_plausible(s: Scenario) -> None:
    villages = s.area_hexes("west_bank_villages")
    assert 25 <= len(villages) <= 40
    assert len(s.rollbahn_vp_hexes()) >= 20


# --------------------------------------------------------------------------------------------
# loader


def _copy_root(tmp_path: Path) -> Path:
    dest = tmp_path / "narva"
    shutil.copytree(ROOT, dest)
    return dest


def _edit_yaml(path: Path, edit: Callable[[Any], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_loader_rejects_an_unquoted_hex_id(tmp_path: Path) -> None:
    root = _copy_root(tmp_path)
    text = (root / "setup.yaml").read_text(encoding="utf-8").replace("hex: '2626'", "hex: 2626", 1)
    (root / "setup.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError, match="quoted four-digit string"):
        load_scenario(root=root)


def test_loader_reports_schema_errors(tmp_path: Path) -> None:
    root = _copy_root(tmp_path)
    _edit_yaml(root / "units.yaml", lambda d: d["units"][0].update(type="cavalry"))
    with pytest.raises(ScenarioError, match=r"units.yaml: units.0.type"):
        load_scenario(root=root)


def test_loader_reports_unknown_top_level_keys(tmp_path: Path) -> None:
    root = _copy_root(tmp_path)
    _edit_yaml(root / "tables.yaml", lambda d: d.update(weather_table=[]))
    with pytest.raises(ScenarioError, match="unknown top-level key 'weather_table'"):
        load_scenario(root=root)


def test_loader_raises_on_inconsistent_data(tmp_path: Path) -> None:
    root = _copy_root(tmp_path)
    _edit_yaml(root / "setup.yaml", lambda d: d["placements"][0].update(hex="0140"))
    with pytest.raises(ScenarioError, match="water hex 0140"):
        load_scenario(root=root)
    assert read_scenario(root=root).setup.placements[0].hex == "0140"  # reading alone does not validate


def test_check_scenario_validates_the_named_scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _copy_root(tmp_path)
    monkeypatch.setenv("MODERATOR_SCENARIOS", str(tmp_path))
    assert check_scenario("campaign") is None
    _edit_yaml(root / "setup.yaml", lambda d: d["placements"][0].update(hex="0140"))
    _edit_yaml(root / "tables.yaml", lambda d: d["ezoc"].update(enter=3))
    with pytest.raises(ScenarioError) as info:
        check_scenario("campaign")
    assert "Across the Narva scenario data is inconsistent" in str(info.value)
    assert "water hex 0140" in str(info.value) and "EZOC costs are +2" in str(info.value)
    with pytest.raises(ScenarioError, match="no Across the Narva scenario named 'short'"):
        check_scenario("short")


def test_loader_reports_missing_and_broken_files(tmp_path: Path) -> None:
    root = _copy_root(tmp_path)
    (root / "chits.yaml").unlink()
    with pytest.raises(ScenarioError, match="is missing"):
        load_scenario(root=root)
    root2 = _copy_root(tmp_path / "b")
    (root2 / "map.yaml").write_text("grid: [unclosed", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load_scenario(root=root2)
    with pytest.raises(ScenarioError, match="no Across the Narva scenario named 'short'"):
        load_scenario("short", root=root2)


# --------------------------------------------------------------------------------------------
# provenance


def test_missing_provenance_is_reported(s: Scenario) -> None:
    unit = s.unit("11SS/23")
    bad = s.model_copy(update={"units": tuple(with_src(u, full=None) if u is unit else u for u in s.units)})
    assert_reports(bad, "units.yaml unit 11SS/23: field 'full' has no provenance in src")


def test_malformed_provenance_is_reported(s: Scenario) -> None:
    bad = with_map(s, grid=with_src(s.map.grid, parity="because the digest says so"))
    assert_reports(bad, "map.yaml grid: provenance of 'parity' must start with 'rulebook' or 'reconstructed:'")
    vague = with_meta(s, turns=tuple(with_src(t, weather="reconstructed:") if t.n == 5 else t for t in s.meta.turns))
    assert_reports(vague, "scenario.yaml turn 5: provenance of 'weather' says nothing specific")


def test_provenance_for_an_unknown_field_is_reported(s: Scenario) -> None:
    bad = with_tables(s, ezoc=with_src(s.tables.ezoc, exit="rulebook 5.1"))
    assert_reports(bad, "tables.yaml ezoc: src names unknown field 'exit'")


def test_provenance_of_terrain_rows_and_chits_is_checked(s: Scenario) -> None:
    rows = tuple(with_src(r, hexes=None) if r.row == 12 else r for r in s.map.terrain.rows)
    bad = with_map(s, terrain=s.map.terrain.model_copy(update={"rows": rows}))
    assert_reports(bad, "map.yaml terrain row 12: field 'hexes' has no provenance")
    chits = tuple(with_src(c, enters=None) if c.id == "AGN" else c for c in s.chits)
    assert_reports(s.model_copy(update={"chits": chits}), "chits.yaml chit AGN: field 'enters' has no provenance")


# --------------------------------------------------------------------------------------------
# grid


def test_a_missing_terrain_row_is_reported(s: Scenario) -> None:
    rows = tuple(r for r in s.map.terrain.rows if r.row != 12)
    bad = with_map(s, terrain=s.map.terrain.model_copy(update={"rows": rows}))
    assert_reports(bad, "terrain row 12 is missing")


def test_a_short_or_duplicate_terrain_row_is_reported(s: Scenario) -> None:
    rows = tuple(r.model_copy(update={"hexes": r.hexes[:-1]}) if r.row == 7 else r for r in s.map.terrain.rows)
    assert_reports(with_map(s, terrain=s.map.terrain.model_copy(update={"rows": rows})), "row 07 has 34 hexes")
    rows = s.map.terrain.rows + (s.map.terrain.rows[0],)
    assert_reports(with_map(s, terrain=s.map.terrain.model_copy(update={"rows": rows})),
                   "terrain row 40 is given twice")


def test_an_unknown_terrain_character_is_reported(s: Scenario) -> None:
    assert_reports(set_terrain(s, "1515", "?"), "hex 1515 has terrain character '?', which is not in the legend")


# --------------------------------------------------------------------------------------------
# places and areas


def test_narva_must_be_city(s: Scenario) -> None:
    assert_reports(set_terrain(s, "3029", "."), "Narva hex 3029 must be city terrain")


def test_narva_hexes_are_fixed(s: Scenario) -> None:
    bad = with_map_items(s, "areas", lambda a: a.id == "narva", hexes=("3028", "3029", "3030"))
    assert_reports(bad, "Narva must be hexes 3030, 3029, 3028 and 2930")


def test_vp_hills_must_be_hills(s: Scenario) -> None:
    assert_reports(set_terrain(s, "1530", "w"), "VP hill 1530 must be hill terrain")


def test_merekula_must_be_two_coastal_hexes(s: Scenario) -> None:
    assert_reports(with_map_items(s, "areas", lambda a: a.id == "merekula", hexes=("2033",)),
                   "Merekula must be two hexes")
    assert_reports(with_map_items(s, "areas", lambda a: a.id == "merekula", hexes=("2033", "2032")),
                   "Merekula hex 2032 must be coastal")


def test_landing_hexes_must_touch_merekula(s: Scenario) -> None:
    bad = with_map_items(s, "areas", lambda a: a.id == "merekula_landing", hexes=("1933", "1532"))
    assert_reports(bad, "landing hex 1532 must be adjacent to Merekula")


def test_required_area_missing_and_bad_area_hexes(s: Scenario) -> None:
    assert_reports(with_map(s, areas=tuple(a for a in s.map.areas if a.id != "krivasoo")),
                   "the area 'krivasoo' that the rules name is missing")
    assert_reports(with_map_items(s, "areas", lambda a: a.id == "vp_hills", hexes=("1429", "1530", "0140")),
                   "area vp_hills names water hex 0140")
    assert_reports(with_map_items(s, "areas", lambda a: a.id == "krivasoo", hexes=("3641",)),
                   "area krivasoo names hex 3641, which is not on the map")


def test_pd_hexes_must_be_in_the_enclave(s: Scenario) -> None:
    bad = with_map_items(s, "areas", lambda a: a.id == "enclave", hexes=("3128", "3129", "3130"))
    assert_reports(bad, "PD hex 3127 must be part of the enclave")


# --------------------------------------------------------------------------------------------
# hexsides


def _river(s: Scenario, rid: str):
    return next(r for r in s.map.rivers if r.id == rid)


def test_a_river_hexside_must_join_adjacent_hexes(s: Scenario) -> None:
    narva = _river(s, "narva-upper")
    bad = with_map_items(s, "rivers", lambda r: r.id == "narva-upper", hexsides=narva.hexsides + ("1005-1205",))
    assert_reports(bad, "river narva-upper hexside 1005-1205 does not join two adjacent hexes")
    off = with_map_items(s, "rivers", lambda r: r.id == "narva-upper", hexsides=narva.hexsides + ("3540-3641",))
    assert_reports(off, "names hex 3641, which is not on the map")


def test_a_hexside_in_two_rivers_is_reported(s: Scenario) -> None:
    poruni = _river(s, "poruni")
    bad = with_map_items(s, "rivers", lambda r: r.id == "poruni", hexsides=poruni.hexsides + ("1005-1105",))
    assert_reports(bad, "hexside 1005-1105 belongs to river narva-upper and river poruni")


def test_a_river_may_not_touch_water(s: Scenario) -> None:
    rosson = _river(s, "rosson")
    bad = with_map_items(s, "rivers", lambda r: r.id == "rosson", hexsides=rosson.hexsides + ("2438-2538",))
    assert_reports(bad, "river rosson hexside 2438-2538 touches a water hex")


def test_only_major_rivers_are_never_frozen(s: Scenario) -> None:
    assert_reports(with_map_items(s, "rivers", lambda r: r.id == "sotke", never_frozen=True),
                   "river sotke: only major rivers can be never-frozen")


def test_a_missing_bridge_is_reported(s: Scenario) -> None:
    bad = with_map(s, bridges=tuple(b for b in s.map.bridges if b.hexside != "3030-3130"))
    assert_reports(bad, "rollbahn crosses river narva-lower at 3030-3130 but no bridge is listed there")


def test_a_bridge_without_a_road_is_reported(s: Scenario) -> None:
    extra = s.map.bridges[0].model_copy(update={"hexside": "1005-1105", "name": "phantom"})
    assert_reports(with_map(s, bridges=s.map.bridges + (extra,)),
                   "bridge 1005-1105 has no road or railway crossing the river there")
    dry = s.map.bridges[0].model_copy(update={"hexside": "1429-1530", "name": "dry"})
    assert_reports(with_map(s, bridges=s.map.bridges + (dry,)), "bridge 1429-1530 is not on a river")


def test_ferries_must_be_on_unbridged_major_rivers(s: Scenario) -> None:
    assert_reports(with_map_items(s, "ferries", lambda f: f.name == "Omuti", hexside="1429-1530"),
                   "ferry 1429-1530 (Omuti) is not on a major river")
    assert_reports(with_map_items(s, "ferries", lambda f: f.name == "Omuti", hexside="3030-3130"),
                   "ferry 3030-3130 (Omuti) is on a bridged hexside")


def test_the_narva_and_its_never_frozen_stretch_are_required(s: Scenario) -> None:
    assert_reports(with_map_items(s, "rivers", lambda r: r.id == "narva-upper", never_frozen=False),
                   "no never-frozen stretch of the Narva")
    no_narva = with_map(s, rivers=tuple(r for r in s.map.rivers if r.name != "Narva"))
    assert_reports(no_narva, "the major river Narva is missing", "the Narva does not separate")


# --------------------------------------------------------------------------------------------
# roads and railways


def _road(s: Scenario, rid: str):
    return next(r for r in s.map.roads if r.id == rid)


def test_a_road_must_not_jump(s: Scenario) -> None:
    road = _road(s, "coast-road")
    bad = with_map_items(s, "roads", lambda r: r.id == "coast-road", hexes=road.hexes + ("2140",))
    assert_reports(bad, "road coast-road jumps from 2131 to 2140", "road coast-road passes water hex 2140")


def test_a_rail_cut_must_be_on_the_line(s: Scenario) -> None:
    bad = with_map_items(s, "railways", lambda r: r.id == "tallinn-narva-leningrad", cut=("1429-1530",))
    assert_reports(bad, "cut at 1429-1530, which is not a hexside of the line")
    uncut = with_map_items(s, "railways", lambda r: r.id == "tallinn-narva-leningrad", cut=())
    assert_reports(uncut, "must be shown cut (rule 6.5B)")


def test_the_winter_trail_runs_over_swamp(s: Scenario) -> None:
    trail = _road(s, "krivasoo-winter-trail")
    assert_reports(set_terrain(s, trail.hexes[3], "."), f"crosses {trail.hexes[3]}, which is clear, not swamp")


def test_the_rollbahn_is_required_and_reaches_narva_2930(s: Scenario) -> None:
    assert_reports(with_map(s, roads=tuple(r for r in s.map.roads if r.kind != "rollbahn")), "there is no rollbahn")
    road = _road(s, "rollbahn")
    cut_short = road.hexes[: road.hexes.index("2830") + 1]
    bad = with_map_items(s, "roads", lambda r: r.id == "rollbahn", hexes=cut_short)
    assert_reports(bad, "the rollbahn must run from entry area A to Narva")


# --------------------------------------------------------------------------------------------
# entry areas, supply sources, prepared defences


def test_entry_areas_are_all_present_and_on_the_right_edge(s: Scenario) -> None:
    assert_reports(with_map(s, entry_areas=tuple(e for e in s.map.entry_areas if e.id != "G")),
                   "entry area G is missing")
    assert_reports(with_map_items(s, "entry_areas", lambda e: e.id == "A", side="soviet"),
                   "entry area A must be german")
    assert_reports(with_map_items(s, "entry_areas", lambda e: e.id == "B", hexes=("0522",)),
                   "German entry area B hex 0522 must be on the west map edge")
    assert_reports(with_map_items(s, "entry_areas", lambda e: e.id == "D", hexes=("3329",)),
                   "Soviet entry area D hex 3329 must be on the east or south map edge")


def test_supply_sources_must_be_on_their_edges(s: Scenario) -> None:
    bad = with_map_items(s, "supply_sources", lambda x: x.side == "german", hexes=("0131", "1230"))
    assert_reports(bad, "German supply source 1230 must be on the west map edge")
    none = with_map(s, supply_sources=tuple(x for x in s.map.supply_sources if x.side != "soviet"))
    assert_reports(none, "no soviet supply source")


def test_prepared_defences_belong_to_pd_divisions_east_of_the_river(s: Scenario) -> None:
    assert_reports(with_map_items(s, "prepared_defences", lambda p: p.division == "4SS", division="20SS"),
                   "PD hexes belong to 20SS, which is not a division allowed in PD hexes")
    west = with_map_items(s, "prepared_defences", lambda p: p.division == "4SS",
                          hexes=("3330", "3331", "3231", "3132", "3031"))
    assert_reports(west, "PD hex 3031 must be east of the Narva River")


# --------------------------------------------------------------------------------------------
# units


def test_duplicate_unit_ids_are_reported(s: Scenario) -> None:
    bad = s.model_copy(update={"units": s.units + (s.unit("11SS/23"),)})
    assert_reports(bad, "units: id 11SS/23 is used twice")


def test_unit_formation_must_exist_and_match(s: Scenario) -> None:
    assert_reports(with_unit(s, "11SS/23", formation="99SS"), "units: 11SS/23: unknown formation 99SS")
    assert_reports(with_unit(s, "43/328", formation="61"), "units: 43/328: side soviet differs from its formation's")
    assert_reports(with_unit(s, "11SS/23", ss=False), "a unit of the SS formation 11SS must be SS")


def test_hq_rules_are_checked(s: Scenario) -> None:
    assert_reports(with_unit(s, "FHH/HQ", command_range=None), "units: FHH/HQ: an HQ needs a command range")
    assert_reports(with_unit(s, "FHH/HQ", zoc=True), "units: FHH/HQ: HQs exert no ZOC")
    assert_reports(with_unit(s, "109/381", command_range=3), "only HQs have a command range")


def test_steps_and_reduced_sides_must_agree(s: Scenario) -> None:
    assert_reports(with_unit(s, "IND/29P", steps=2), "IND/29P: two-step units need a reduced side")
    u = s.unit("11SS/23")
    assert_reports(with_unit(s, "11SS/23", reduced=u.full.model_copy(update={"attack": 9})),
                   "11SS/23: the reduced side is stronger than the full side")


def test_zoc_follows_rule_5_2(s: Scenario) -> None:
    assert_reports(with_unit(s, "IND/1434AG", zoc=True), "IND/1434AG: zoc must be False")
    assert_reports(with_unit(s, "43/4", zoc=False), "43/4: zoc must be True")


def test_formation_hq_and_parent_are_checked(s: Scenario) -> None:
    bad = s.model_copy(update={"formations": _replace(s.formations, lambda f: f.id == "227", hq="227/366G")})
    assert_reports(bad, "formation 227 names 227/366G as HQ, but it is not an HQ of 227")
    bad = s.model_copy(update={"formations": _replace(s.formations, lambda f: f.id == "109", parent="43")})
    assert_reports(bad, "Soviet formation 109 must belong to an army formation")
    bad = s.model_copy(update={"formations": _replace(s.formations, lambda f: f.id == "58", parent="2SH")})
    assert_reports(bad, "German formation 58 must belong to corps 26, 43 or 3SS")


def test_special_units_are_unique(s: Scenario) -> None:
    assert_reports(with_unit(s, "FHH/HQ", special=("strachwitz",)), "exactly one HQ must be the Strachwitz HQ")
    assert_reports(with_unit(s, "IND/260", special=()), "exactly one unit (the 260th MS) lands at Merekula")


def test_air_units_follow_rule_12(s: Scenario) -> None:
    bad = s.model_copy(update={"air_units": _replace(s.air_units, lambda a: a.id == "IL-2M-1", normal=None, full=3)})
    assert_reports(bad, "exactly one Soviet bomber is +3 full attack")
    fewer = s.model_copy(update={"air_units": tuple(a for a in s.air_units if a.id != "YAK-8")})
    assert_reports(fewer, "the Soviets six (rule 12.0A)", "set-up: unknown air unit YAK-8")


def test_every_unit_must_enter_play(s: Scenario) -> None:
    spare = s.unit("43/4").model_copy(update={"id": "43/999", "name": "999"})
    assert_reports(s.model_copy(update={"units": s.units + (spare,)}),
                   "units: 43/999 is neither set up nor a reinforcement")


def test_duplicate_names_and_aliases_are_reported(s: Scenario) -> None:
    assert_reports(with_unit(s, "11SS/23", aliases=("11SS/HVS",)), "german name or alias '11ss/hvs' is not unique")


# --------------------------------------------------------------------------------------------
# set-up


def test_set_up_units_cannot_stand_in_water(s: Scenario) -> None:
    assert_reports(move(s, "109/381", "2438"), "set-up: 109/381 is placed in water hex 2438 (sea)")
    assert_reports(move(s, "109/381", "0101"), "water hex 0101 (lake)")
    assert_reports(move(s, "109/381", "3641"), "placed in hex 3641, which is not on the map")


def test_mechanized_units_cannot_set_up_in_swamp_without_a_road(s: Scenario) -> None:
    assert_reports(move(s, "FHH/PZ", "1623"), "FHH/PZ (mechanized) may not stand in 1623 (swamp, no road)")


def test_set_up_stacking_is_enforced(s: Scenario) -> None:
    assert_reports(move(s, "109/381", "2020"), "set-up: 3 combat units in 2020")
    assert_reports(move(s, "43/HQ", "2120"), "set-up: 2 HQs in 2120")
    assert_reports(move(s, "109/381", "2022"), "set-up: units of both sides in 2022")


def test_only_ss_units_in_narva_and_only_pd_divisions_in_pd_hexes(s: Scenario) -> None:
    assert_reports(move(s, "170/399G", "3030"), "170/399G is not SS and may not be in Narva or the enclave (3030")
    assert_reports(move(s, "170/399G", "3229"), "170/399G is not SS and may not be in Narva or the enclave (3229")
    bad = add_placement(s, "20SS/1/46", "3331")
    assert_reports(bad, "20SS/1/46 may not be in prepared-defence hex 3331")


def test_set_up_bookkeeping_errors(s: Scenario) -> None:
    assert_reports(add_placement(s, "ghost", "1515"), "set-up: unknown unit ghost")
    assert_reports(add_placement(s, "11SS/23", "1515"), "set-up: 11SS/23 is placed twice")
    assert_reports(add_placement(s, "58/58F", "1515"), "58/58F is placed at the start and also arrives")
    bad = with_setup(s, placements=_replace(s.setup.placements, lambda p: p.unit == "IND/29P", reduced=True))
    assert_reports(bad, "set-up: IND/29P sets up reduced but has 1 step(s)")


def test_air_and_pd_marker_set_up(s: Scenario) -> None:
    bad = with_setup(s, air=_replace(s.setup.air, lambda p: p.unit == "JU-87", box="air_army_13"))
    assert_reports(bad, "set-up: air unit JU-87 is in the wrong box")
    assert_reports(with_setup(s, pd_markers={"11SS": 0, "4SS": 40}), "PD marker of 4SS is in box 40, off the track")
    assert_reports(with_setup(s, pd_markers={"11SS": 0}), "PD markers ['11SS'] must match the PD divisions")


# --------------------------------------------------------------------------------------------
# reinforcements


def _reinf(s: Scenario, pred: Callable[[Any], bool], **changes: Any) -> Scenario:
    return with_meta(s, reinforcements=_replace(s.meta.reinforcements, pred, **changes))


def test_reinforcements_reference_real_units_and_entries(s: Scenario) -> None:
    first = lambda r: r.turn == 1 and r.parent == "61"  # noqa: E731
    assert_reports(_reinf(s, first, units=("61/HQ", "61/ghost")), "unknown unit 61/ghost")
    assert_reports(_reinf(s, first, entry="D"), "entry area D belongs to the other side")
    assert_reports(_reinf(s, first, entry="Z"), "unknown entry 'Z'")
    assert_reports(_reinf(s, first, parent="170"), "61/HQ belongs to 61, not to parent 170")
    assert_reports(_reinf(s, first, turn=13), "after the last turn")
    assert_reports(_reinf(s, lambda r: r.parent == "117", entry="supplied_hex"),
                   "only Soviet Army HQs are placed in any supplied hex")
    assert_reports(_reinf(s, lambda r: r.parent == "117", entry="merekula"), "only the 260th MS lands at Merekula")


def test_a_unit_cannot_arrive_twice(s: Scenario) -> None:
    assert_reports(_reinf(s, lambda r: r.turn == 1 and r.parent == "170",
                          units=("170/HQ", "170/410F", "170/170F", "61/HQ")),
                   "reinforcements: 61/HQ arrives twice")


def test_reinforcement_entry_hexes_must_be_legal(s: Scenario) -> None:
    bad = with_map_items(s, "entry_areas", lambda e: e.id == "F", hexes=("3514",))
    bad = set_terrain(bad, "3514", "s")
    assert_reports(bad, "30GD/30Tk (mechanized) may not stand in 3514 (swamp, no road)")


# --------------------------------------------------------------------------------------------
# chits


def _chits(s: Scenario, pred: Callable[[Any], bool], **changes: Any) -> Scenario:
    return s.model_copy(update={"chits": _replace(s.chits, pred, **changes)})


def _groups(s: Scenario, pred: Callable[[Any], bool], **changes: Any) -> Scenario:
    return s.model_copy(update={"command_groups": _replace(s.command_groups, pred, **changes)})


def test_command_chits_need_known_groups(s: Scenario) -> None:
    assert_reports(_chits(s, lambda c: c.id == "26-1", group="27"), "chits: 26-1: command chit with unknown group 27")
    assert_reports(_chits(s, lambda c: c.id == "26-1", side="soviet"), "26-1: side soviet differs from its group's")


def test_command_groups_name_real_hqs(s: Scenario) -> None:
    assert_reports(_groups(s, lambda g: g.id == "26", hqs=("61/HQ", "FHH/HQ", "170/HQ", "227/HQ", "61/151G")),
                   "command group 26 names 61/151G, which is not a german HQ")
    assert_reports(_groups(s, lambda g: g.id == "8", hqs=("117/HQ",)), "Soviet command chits activate Army HQs only")
    bad = _groups(s, lambda g: g.id == "AGN", hqs=tuple(h for h in s.command_group("AGN").hqs if h != "KVO/HQ"))
    assert_reports(bad, "German HQ KVO/HQ can be activated by no command chit",
                   "Army Group Narwa activates any German HQ")


def test_kvo_and_285s_answer_only_to_army_group_narwa(s: Scenario) -> None:
    bad = _groups(s, lambda g: g.id == "WER", hqs=s.command_group("WER").hqs + ("KVO/HQ",))
    assert_reports(bad, "KVO/HQ may be activated only by the Army Group Narwa chit")


def test_action_chits_are_counted(s: Scenario) -> None:
    bad = s.model_copy(update={"chits": tuple(c for c in s.chits if c.id != "BARRAGE-S2")})
    assert_reports(bad, "2 soviet barrage chit(s) expected (rule 2.5), found 1")
    assert_reports(_chits(s, lambda c: c.id == "STAVKA", action=None), "chits: STAVKA: an action chit needs an action")
    bad = s.model_copy(update={"chits": s.chits + (s.chit("AGN"),)})
    assert_reports(bad, "chits: chit id AGN is used twice")


def test_chit_schedule_rules(s: Scenario) -> None:
    assert_reports(_chits(s, lambda c: c.id == "WER-2", leaves=4), "the Wehrmacht chit leaves in the Turn 3")
    assert_reports(_chits(s, lambda c: c.id == "26-2", enters=5, leaves=3),
                   "26-2: leaves (turn 3) before it can be drawn")
    assert_reports(_chits(s, lambda c: c.id == "59-3", group="8"), "3 '59' command chits expected")
    assert_reports(with_meta(s, first_turn=s.meta.first_turn.model_copy(update={"soviet_preplayed_chit": "3SS"})),
                   "the pre-played Turn 1 chit 3SS must be a Soviet command group")


# --------------------------------------------------------------------------------------------
# tables


def _crt(s: Scenario, **changes: Any) -> Scenario:
    return with_tables(s, crt=s.tables.crt.model_copy(update=changes))


def test_the_crt_must_be_complete(s: Scenario) -> None:
    rows = _replace(s.tables.crt.rows, lambda r: r.die == 4, results=s.tables.crt.rows[3].results[:-1])
    assert_reports(_crt(s, rows=rows), "CRT row 4 has 7 results for 8 columns")
    assert_reports(_crt(s, rows=tuple(r for r in s.tables.crt.rows if r.die != 6)), "one row for each roll 1-6")


def test_crt_results_must_parse(s: Scenario) -> None:
    rows = _replace(s.tables.crt.rows, lambda r: r.die == 2,
                    results=("A1r1", "Ar1", "A1", "X3", "A1* D1r1", "A1* D1r1", "D1r2", "D2r2"))
    assert_reports(_crt(s, rows=rows), "CRT row 2 column 4: CRT result 'X3': cannot read 'X3'")
    rows = _replace(s.tables.crt.rows, lambda r: r.die == 2,
                    results=("A1r1", "Ar1", "A1", "P", "A1* D1r1", "A1* D1r1", "D1r2", "D2r2"))
    assert_reports(_crt(s, rows=rows), "P (pinned) is a barrage result only")


def test_crt_odds_lines_are_checked(s: Scenario) -> None:
    cols = _replace(s.tables.crt.columns, lambda c: c.index == 4, soviet="2-1")
    assert_reports(_crt(s, columns=cols), "the CRT soviet odds line must increase")
    cols = _replace(s.tables.crt.columns, lambda c: c.index == 1, german="1-3")
    assert_reports(_crt(s, columns=cols), "the lowest CRT column of the german line must be 1-2")
    cols = _replace(s.tables.crt.columns, lambda c: c.index == 2, german="even")
    assert_reports(_crt(s, columns=cols), "CRT german line: odds 'even' must be written N-M")


def test_the_barrage_column_and_roll_table(s: Scenario) -> None:
    rows = tuple(r.model_copy(update={"barrage": "D1" if r.barrage == "P" else r.barrage}) for r in s.tables.crt.rows)
    assert_reports(_crt(s, rows=rows), "the barrage column must contain P")
    rolls = _replace(s.tables.barrage_roll, lambda b: b.side == "german", results={1: 1, 2: 1, 3: 2, 4: 2, 5: 2})
    assert_reports(with_tables(s, barrage_roll=rolls), "the german Barrage Roll Table must cover rolls 1-6")


def test_the_tec_must_cover_every_terrain_and_feature(s: Scenario) -> None:
    assert_reports(with_tables(s, terrain=tuple(t for t in s.tables.terrain if t.terrain != "hill")),
                   "the TEC has no entry for terrain hill")
    assert_reports(with_tables(s, hexsides=tuple(h for h in s.tables.hexsides if h.feature != "ferry")),
                   "the TEC has no entry for hexside feature ferry")
    assert_reports(with_tables(s, roads=tuple(r for r in s.tables.roads if r.kind != "winter_trail")),
                   "the TEC has no entry for winter_trail")


def test_tec_values_fixed_by_the_rules(s: Scenario) -> None:
    assert_reports(with_tables(s, terrain=_replace(s.tables.terrain, lambda t: t.terrain == "swamp",
                                                   defense_multiplier=1)),
                   "swamp doubles the defense")
    assert_reports(with_tables(s, roads=_replace(s.tables.roads, lambda r: r.kind == "trail", strategic=0.5)),
                   "trail cannot be used for strategic movement")
    assert_reports(with_tables(s, hexsides=_replace(s.tables.hexsides, lambda h: h.feature == "bridge",
                                                    halves_attack=False)),
                   "attacks across bridge are halved")
    assert_reports(with_tables(s, ezoc=s.tables.ezoc.model_copy(update={"leave": 1})),
                   "EZOC costs are +2 to enter and +2 to leave")


def test_random_events_cover_2d6(s: Scenario) -> None:
    bad = with_tables(s, random_events=tuple(e for e in s.tables.random_events if e.roll != 7))
    assert_reports(bad, "the Random Events Table needs the 11 results 2-12")
    bad = with_tables(s, random_events=_replace(s.tables.random_events, lambda e: e.effect == "prolong_freeze",
                                                effect="none"))
    assert_reports(bad, "a random event must be able to prolong the freeze")


def test_the_pd_track(s: Scenario) -> None:
    bad = with_tables(s, pd_track=s.tables.pd_track.model_copy(update={"boxes": (3, 2, 3, 1, 0)}))
    assert_reports(bad, "the PD track must not rise")
    bad = with_tables(s, pd_track=s.tables.pd_track.model_copy(update={"start_box": 4}))
    assert_reports(bad, "the PD markers start in the box of value 3")


# --------------------------------------------------------------------------------------------
# turn record track and victory


def _turns(s: Scenario, n: int, **changes: Any) -> Scenario:
    return with_meta(s, turns=_replace(s.meta.turns, lambda t: t.n == n, **changes))


def test_the_turn_track_covers_twelve_turns(s: Scenario) -> None:
    assert_reports(with_meta(s, turns=s.meta.turns[:-1]), "the turn record track must cover turns 1..12")
    assert_reports(with_meta(s, last_turn=11), "the game lasts 12 turns")


def test_activation_limits_are_checked(s: Scenario) -> None:
    assert_reports(_turns(s, 1, activations={"german": 4, "soviet": 3}),
                   "turn 1 german may activate 4 HQs but only 3 command chits are in the cup")
    assert_reports(_turns(s, 3, activations={"german": 3, "soviet": 3}), "Germany activates two HQs on Turn 3")
    assert_reports(_turns(s, 6, activations={"german": 0, "soviet": 3}),
                   "turn 6 german activation limit must be at least 1")


def test_weather_follows_the_rules(s: Scenario) -> None:
    assert_reports(_turns(s, 5, weather="thaw"), "turn 5 is frozen")
    assert_reports(_turns(s, 10, weather="frozen"), "turn 10 is thawed")
    assert_reports(_turns(s, 9, freeze_by_event=True), "only Turn 8 can be frozen by random event")
    assert_reports(with_meta(s, first_side="german"), "the Soviets move first")


def test_vp_items_must_resolve_to_land_hexes(s: Scenario) -> None:
    items = _replace(s.meta.vp_items, lambda v: v.id == "krivasoo", area="krivasu")
    assert_reports(with_meta(s, vp_items=items), "VP item krivasoo names unknown area krivasu")
    assert_reports(with_meta(s, sudden_death_area="narwa"), "the sudden death area narwa is not a map area")


def test_victory_levels_must_be_contiguous(s: Scenario) -> None:
    levels = _replace(s.meta.victory_levels, lambda v: v.level == "Soviet Minor", min_vp=37)
    assert_reports(with_meta(s, victory_levels=levels),
                   "victory levels German Minor and Soviet Minor leave a gap or overlap")
    levels = _replace(s.meta.victory_levels, lambda v: v.level == "German Major", historical=True)
    assert_reports(with_meta(s, victory_levels=levels), "exactly one victory level is the historical result")
