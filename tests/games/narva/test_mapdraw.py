"""The Across the Narva map images: drawn from the view only, the same bytes for the same view,
changing only where something changed, and showing nothing the view does not show.

Views are built by hand from the historical set-up, the way the engine builds them for one role.
Sample images are written to test-artifacts/narva/ for a person to look at.
"""

from __future__ import annotations

import copy
import io
import math
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

from moderator.games.narva import mapdraw, mapdraw_base, mapdraw_style, mapdraw_units
from moderator.games.narva.engine import engine
from moderator.games.narva.mapdraw import draw_detail, draw_map
from moderator.games.narva.mapdraw_base import base_map, legend_box, number_size
from moderator.games.narva.mapdraw_frame import Frame, detail_frame, full_frame
from moderator.games.narva.mapdraw_style import DETAIL_SIZE
from moderator.games.narva.mapdraw_units import counter_box
from moderator.games.narva.scenario import scenario_named

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "narva"
S = scenario_named("campaign")


# --------------------------------------------------------------------------------------------
# building views


def unit_view(unit_id: str, reduced: bool = False) -> dict[str, Any]:
    unit = S.unit(unit_id)
    reduced = reduced and unit.reduced is not None
    strength = unit.strength(reduced)
    return {"id": unit.id, "label": unit.name, "side": unit.side, "type": unit.type, "formation": unit.formation,
            "attack": strength.attack, "defense": strength.defense, "movement": strength.movement,
            "reduced": reduced}


def make_view(role: str = "german", positions: dict[str, str] | None = None, fog: bool = True,
              recent: dict[str, Any] | None = None, hidden: Iterable[str] = (), **extra: Any) -> dict[str, Any]:
    """The view of `role`: every unit of `positions` except `hidden` ones; under fog an enemy stack
    lists only its top unit (the first placed there) and keeps its real height."""
    positions = S.setup_positions() if positions is None else positions
    reduced = S.setup_reduced()
    hidden = set(hidden)
    stacks: dict[str, list[str]] = {}
    for unit_id, h in positions.items():
        if unit_id not in hidden:
            stacks.setdefault(h, []).append(unit_id)
    hexes = {}
    for h, ids in stacks.items():
        side = S.unit(ids[0]).side
        units = [unit_view(u, u in reduced) for u in ids]
        if fog and role in ("german", "soviet") and side != role:
            units = units[:1]
        hexes[h] = {"side": side, "height": len(ids), "units": units, "pinned": False, "marker": None}
    view = {"scenario": "campaign", "role": role, "turn": 3, "last_turn": 12, "dates": S.turn(3).dates,
            "frozen": True, "fog": fog, "hexes": hexes,
            "pd": {"11SS": {"value": 3}, "4SS": {"value": 2}}, "control": {}, "recent": recent or {}}
    view.update(extra)
    return view


RECENT = {
    "moves": [{"side": "soviet", "unit": "109/381", "path": ["2122", "2222", "2223"]}],
    "combats": [{"hex": "2022", "side": "soviet", "from": ["2122", "2021"], "result": "D1r2"}],
    "barrages": [{"hex": "3027", "side": "soviet", "result": "P"}],
    "retreats": [{"side": "german", "path": ["2022", "1922", "1822"]}],
    "focus": ["2022", "2122"],
}


# --------------------------------------------------------------------------------------------
# pixels


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def base_pixels() -> np.ndarray:
    return pixels(mapdraw.png(base_map()))


def hex_mask(frame: Frame, h: str, scale: float = 1.0) -> np.ndarray:
    mask = Image.new("1", frame.size, 0)
    ImageDraw.Draw(mask).polygon(frame.corners(h, scale), fill=1)
    return np.asarray(mask, dtype=bool)


def changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(y, x) of every pixel that differs."""
    assert a.shape == b.shape
    return np.argwhere((a != b).any(axis=2))


def near(points: np.ndarray, frame: Frame, hexes: Iterable[str], radius: float) -> np.ndarray:
    """Which of the (y, x) points lie within `radius` pixels of one of the hex centres."""
    ok = np.zeros(len(points), dtype=bool)
    for h in hexes:
        x, y = frame.centre(h)
        ok |= np.hypot(points[:, 1] - x, points[:, 0] - y) <= radius
    return ok


def lonely_hex(side: str, positions: dict[str, str], combat: bool = False) -> tuple[str, str]:
    """A unit of `side` (a two-step combat unit if `combat`) alone in its hex, with no other unit
    in the hexes around it."""
    occupied: dict[str, list[str]] = {}
    for unit_id, h in positions.items():
        occupied.setdefault(h, []).append(unit_id)
    for h, ids in sorted(occupied.items()):
        unit = S.unit(ids[0])
        if len(ids) > 1 or unit.side != side or (combat and unit.reduced is None):
            continue
        if not any(n in occupied for n in S.neighbours(h)):
            return ids[0], h
    raise AssertionError(f"no lonely {side} unit in the set-up")


# --------------------------------------------------------------------------------------------
# tests


def test_the_full_map_is_a_small_palette_png_of_the_expected_size():
    view = make_view("german", recent=RECENT)
    start = time.perf_counter()
    png = draw_map(view)
    elapsed = time.perf_counter() - start
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == full_frame().size == full_frame().layout.image_size()
    assert 1100 <= image.width <= 1500
    assert len(png) < 400_000
    print(f"\nfull map {image.size[0]}x{image.size[1]}: {len(png) / 1024:.0f} KiB in {elapsed * 1000:.0f} ms")


def test_drawing_is_deterministic_and_leaves_the_cached_base_map_alone():
    before = np.asarray(base_map()).copy()
    view = make_view("soviet", recent=RECENT, control={"1820": "german", "1530": "soviet"})
    first = draw_map(view)
    assert draw_map(copy.deepcopy(view)) == first
    assert draw_detail(view) == draw_detail(copy.deepcopy(view))
    assert np.array_equal(np.asarray(base_map()), before)


def test_the_base_map_is_cached():
    base_map()
    hits = mapdraw_base._base_map.cache_info().hits
    assert base_map() is base_map("campaign")
    assert mapdraw_base._base_map.cache_info().hits == hits + 2


def test_moving_one_unit_changes_pixels_only_near_its_old_and_new_hex():
    frame = full_frame()
    positions = S.setup_positions()
    unit_id, origin = lonely_hex("german", positions)
    occupied = set(positions.values())
    destination = next(h for h in S.hex_ids() if not S.hex(h).water and h not in occupied
                       and not any(n in occupied for n in S.neighbours(h)) and S.distance(h, origin) >= 4)
    before = pixels(draw_map(make_view("german", positions)))
    after = pixels(draw_map(make_view("german", {**positions, unit_id: destination})))
    diff = changed(before, after)
    assert near(diff, frame, [origin], frame.s).sum() > 200  # the counter left ...
    assert near(diff, frame, [destination], frame.s).sum() > 200  # ... and arrived
    assert near(diff, frame, [origin, destination], frame.s).all(), "pixels changed away from the move"


def test_a_hidden_enemy_leaves_exactly_the_pixels_of_an_empty_hex():
    frame = full_frame()
    positions = S.setup_positions()
    unit_id, h = lonely_hex("german", positions)
    inside = hex_mask(frame, h)
    hidden = pixels(draw_map(make_view("soviet", positions, hidden=[unit_id])))
    assert np.array_equal(hidden[inside], base_pixels()[inside])
    seen = pixels(draw_map(make_view("soviet", positions)))
    assert not np.array_equal(seen[inside], hidden[inside])  # had it been visible, it would show


def test_an_enemy_stack_under_fog_shows_its_height_but_not_what_is_under_the_top():
    frame = full_frame()
    positions = S.setup_positions()
    _top, h = lonely_hex("german", positions)
    other = next(u.id for u in S.units_of("german") if u.id not in positions)
    single = draw_map(make_view("soviet", positions))
    stack = make_view("soviet", {**positions, other: h})
    assert stack["hexes"][h]["height"] == 2 and len(stack["hexes"][h]["units"]) == 1
    stacked = draw_map(stack)
    diff = changed(pixels(single), pixels(stacked))
    assert len(diff) > 30
    assert hex_mask(frame, h)[diff[:, 0], diff[:, 1]].all()  # the badge is inside the hex
    # whichever unit lies under the top one, the Soviet player sees the same image
    another = next(u.id for u in S.units_of("german") if u.id not in positions and u.id != other)
    assert draw_map(make_view("soviet", {**positions, another: h})) == stacked
    # the owner sees the stack the same way on the map (the report lists the units)
    assert draw_map(make_view("german", {**positions, other: h})) != single


def test_a_full_stack_with_every_marker_stays_inside_its_hex():
    frame = full_frame()
    positions = S.setup_positions()
    _unit_id, h = lonely_hex("soviet", positions)
    plain = pixels(draw_map(make_view("soviet", positions)))
    view = make_view("soviet", positions)
    view["hexes"][h].update(height=4, pinned=True, marker="ISOLATED")
    marked = pixels(draw_map(view))
    diff = changed(plain, marked)
    assert len(diff) > 50
    assert hex_mask(frame, h)[diff[:, 0], diff[:, 1]].all(), "a chip spills into the next hex"


def test_a_stack_s_height_chip_leaves_a_four_digit_name_whole():
    """Issue 12, a game played by hand: on the full map the "x2" of the stack 1074 + 1076 (122nd Corps)
    cut the top counter's name to "10", so 1074 and 1078 looked alike.  The name now keeps clear of
    the chip on its own side only: two stacks whose top units differ in the fourth digit differ on the map."""
    positions = S.setup_positions()
    _unit_id, h = lonely_hex("soviet", positions)
    images = []
    for name in ("1074", "1078"):
        view = make_view("soviet", positions)
        view["hexes"][h].update(height=2)
        view["hexes"][h]["units"][0].update(label=name)
        images.append(pixels(draw_map(view)))
    diff = changed(*images)
    assert len(diff) > 5 and hex_mask(full_frame(), h)[diff[:, 0], diff[:, 1]].all()


def test_counters_leave_the_hex_number_readable():
    frame = full_frame()
    positions = S.setup_positions()
    _, h = lonely_hex("german", positions)
    cx, cy = frame.centre(h)
    _half_w, half_h, shift = counter_box(frame.s)
    number_bottom = cy - 0.66 * frame.s + number_size(frame.s) / 2
    assert number_bottom < cy + shift - half_h
    image = pixels(draw_map(make_view("german", positions)))
    top = int(cy - 0.66 * frame.s - number_size(frame.s) / 2)
    band = (slice(top, int(number_bottom)), slice(int(cx - 0.4 * frame.s), int(cx + 0.4 * frame.s)))
    assert np.array_equal(image[band], base_pixels()[band])


def test_the_latest_activation_is_drawn_where_it_happened():
    frame = full_frame()
    quiet = pixels(draw_map(make_view("soviet")))
    busy = pixels(draw_map(make_view("soviet", recent=RECENT)))
    diff = changed(quiet, busy)
    involved = {"2122", "2222", "2223", "2022", "2021", "1922", "1822", "3027"}
    assert near(diff, frame, ["2223"], frame.s * 0.8).sum() > 50  # the arrow reached the end of the move
    assert near(diff, frame, ["3027"], frame.s).sum() > 50  # the barrage ring
    assert near(diff, frame, involved, frame.s * 1.05).all()


def test_the_detail_image_needs_a_focus():
    assert draw_detail(make_view("german")) is None
    assert draw_detail(make_view("german", recent={"moves": [], "focus": []})) is None
    assert draw_detail({"scenario": "campaign"}) is None
    assert draw_detail(make_view("german", recent={"focus": ["9999", "nope"]})) is None


def test_the_detail_image_is_centred_on_the_focus_with_large_hex_numbers():
    view = make_view("soviet", recent=RECENT)
    start = time.perf_counter()
    png = draw_detail(view)
    elapsed = time.perf_counter() - start
    assert png is not None
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == DETAIL_SIZE
    frame = detail_frame("campaign", RECENT["focus"])
    assert number_size(frame.s) >= 14
    xs, ys = zip(*(frame.centre(h) for h in RECENT["focus"]), strict=True)
    assert abs((min(xs) + max(xs)) / 2 - DETAIL_SIZE[0] / 2) < 2
    assert abs((min(ys) + max(ys)) / 2 - DETAIL_SIZE[1] / 2) < 2
    print(f"\ndetail {image.size[0]}x{image.size[1]}: {len(png) / 1024:.0f} KiB in {elapsed * 1000:.0f} ms")


def test_the_detail_zooms_out_for_a_wide_action_and_stays_on_the_map():
    wide = detail_frame("campaign", ["0131", "1230"])
    assert wide.s < mapdraw_style.DETAIL_HEX
    for h in ("0131", "1230"):
        x, y = wide.centre(h)
        assert 0 < x < DETAIL_SIZE[0] and 0 < y < DETAIL_SIZE[1]
    # actions all over the map: the latest, with those that fit round it, at a close-up scale
    scattered = detail_frame("campaign", ["0103", "3537", "1721", "2022", "2122"])
    assert scattered.s >= mapdraw_style.DETAIL_MIN_HEX
    for h in ("2022", "2122"):
        x, y = scattered.centre(h)
        assert 0 < x < DETAIL_SIZE[0] and 0 < y < DETAIL_SIZE[1]
    for h in ("0103", "3537"):
        x, y = scattered.centre(h)
        assert not (0 < x < DETAIL_SIZE[0] and 0 < y < DETAIL_SIZE[1])
    corner = detail_frame("campaign", ["0101"])
    assert corner.origin[0] >= 0 and corner.origin[1] >= 0
    width, height = corner.layout.image_size()
    assert corner.origin[0] + DETAIL_SIZE[0] <= width and corner.origin[1] + DETAIL_SIZE[1] <= height


def test_a_sparse_view_still_draws():
    assert Image.open(io.BytesIO(draw_map({}))).size == full_frame().size
    view = {"scenario": "campaign", "hexes": {"2122": {"units": [{"id": "109/381", "side": "soviet"}]},
                                             "0000": {"units": []}, "xx": None},
            "control": {"9999": "german"}, "recent": {"moves": [{"path": ["2122"]}], "combats": [{"hex": None}],
                                                        "focus": ["2122"]}}
    assert draw_map(view) != draw_map({})
    assert draw_detail(view) is not None


def test_the_legend_covers_only_water():
    box = legend_box()
    assert box is not None
    frame = full_frame()
    x0, y0, x1, y1 = box
    for h in S.hex_ids():
        xs, ys = zip(*frame.corners(h), strict=True)
        if max(xs) >= x0 and min(xs) <= x1 and max(ys) >= y0 and min(ys) <= y1:
            assert S.hex(h).water, f"the legend hides land hex {h}"


def test_sample_images_for_a_person_to_look_at():
    """Not a check: the images a player would get, written for a person (and the author) to see."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    control = {"1820": "german", "2337": "german", "3129": "german", "3130": "german", "3131": "german",
               "1429": "german", "1530": "german", "1629": "soviet", "0131": "german"}
    positions = S.setup_positions()
    samples = {
        "map-german": make_view("german", recent=RECENT, control=control),
        "map-soviet": make_view("soviet", recent=RECENT, control=control),
        "map-observer": make_view("observer", fog=False, control=control),
    }
    samples["map-soviet"]["hexes"]["2020"]["pinned"] = True
    samples["map-soviet"]["hexes"]["1921"]["marker"] = "OOS"
    samples["map-soviet"]["hexes"]["2626"]["marker"] = "ISOLATED"
    lines = []
    for name, view in samples.items():
        start = time.perf_counter()
        png = draw_map(view)
        lines.append(f"{name}: {len(png) / 1024:.0f} KiB, {(time.perf_counter() - start) * 1000:.0f} ms")
        (ARTIFACTS / f"{name}.png").write_bytes(png)
    narva = make_view("german", positions, recent={
        "moves": [{"side": "german", "unit": "11SS/HQ", "path": ["3029", "2929", "2829", "2729", "2629", "2530"]}],
        "combats": [{"hex": "3227", "side": "soviet", "from": ["3226", "3326", "3327"], "result": "A1 D1r1"}],
        "focus": ["3029", "2530", "3227"]})
    for name, view in (("detail-soviet", samples["map-soviet"]), ("detail-narva", narva)):
        start = time.perf_counter()
        png = draw_detail(view)
        assert png is not None
        lines.append(f"{name}: {len(png) / 1024:.0f} KiB, {(time.perf_counter() - start) * 1000:.0f} ms")
        (ARTIFACTS / f"{name}.png").write_bytes(png)
    print("\n" + "\n".join(lines))
    assert all((ARTIFACTS / f"{name}.png").stat().st_size > 0 for name in samples)


@pytest.mark.parametrize("role", ["german", "soviet", "observer"])
def test_every_role_gets_an_image(role):
    png = draw_map(make_view(role, fog=role != "observer"))
    assert Image.open(io.BytesIO(png)).size == full_frame().size


def test_reduced_units_and_hqs_look_different():
    frame = full_frame()
    positions = S.setup_positions()
    unit_id, h = lonely_hex("german", positions, combat=True)
    view = make_view("german", positions)
    full = pixels(draw_map(view))
    view["hexes"][h]["units"][0]["reduced"] = not view["hexes"][h]["units"][0]["reduced"]
    flipped = pixels(draw_map(view))
    inside = hex_mask(frame, h)
    assert not np.array_equal(full[inside], flipped[inside])
    hq = next(u.id for u in S.units_of("german") if u.type == "hq" and u.id not in positions)
    view = make_view("german", {**{k: v for k, v in positions.items() if k != unit_id}, hq: h})
    assert not np.array_equal(pixels(draw_map(view))[inside], full[inside])
    assert math.isclose(frame.s, mapdraw_style.HEX)


def chip_box(frame: Frame, at: tuple[float, float], text: str, size: float) -> tuple[slice, slice]:
    """The inside of a result chip (its outline and a pixel of its rounding left out)."""
    x, y = at
    half_w, half_h = mapdraw_units.tag_width(text, size) / 2 - 3, size * 1.25 / 2 - 2
    return slice(round(y - half_h), round(y + half_h)), slice(round(x - half_w), round(x + half_w))


def fill_share(image: np.ndarray, box: tuple[slice, slice], colour: tuple[int, int, int]) -> float:
    region = image[box]
    return float((region == np.array(colour)).all(axis=2).mean())


@pytest.mark.parametrize("detail", [False, True], ids=["full map", "detail"])
def test_several_results_on_one_hex_all_stay_readable_in_the_order_they_happened(detail):
    """Issue 12: a barrage (P, then Dr1 from a second chit) and a combat (A1 D1) on 2022 in one Command Phase.
    The report lists the three results; the map shows the three chips side by side and in rows, in the order
    they happened, none covering another (each chip is mostly its own colour where it is drawn)."""
    recent = {"barrages": [{"hex": "2022", "side": "soviet", "result": "P", "order": 0},
                           {"hex": "2022", "side": "soviet", "result": "Dr1", "order": 2}],
              "combats": [{"hex": "2022", "side": "soviet", "from": ["2122"], "result": "A1 D1", "order": 1}],
              "focus": ["2022"]}
    view = make_view("soviet", recent=recent)
    frame = detail_frame("campaign", ["2022"]) if detail else full_frame()
    image = np.asarray(mapdraw.render(view, frame)).astype(int)
    chips = mapdraw_units.result_chips(frame, recent)
    boxes = {key: chip_box(frame, at, text, size) for key, (at, text, size) in chips.items()}
    assert [chips[k][1] for k in (("barrages", 0), ("combats", 0), ("barrages", 1))] == ["P", "A1 D1", "Dr1"]
    for (kind, _index), box in boxes.items():
        colour = mapdraw_style.BARRAGE if kind == "barrages" else mapdraw_style.COMBAT
        # a covered chip shows next to none of its colour; a one-letter chip on the whole map's 22-px
        # hexes is about half letter, half its own colour
        assert fill_share(image, box, colour) >= 0.4, f"the {kind} chip {chips[(kind, _index)][1]} is covered"
    # in the order they happened: the first result over the hex number, the later ones after it
    (px, py), (cx_, cy_), (dx, dy) = (chips[k][0] for k in (("barrages", 0), ("combats", 0), ("barrages", 1)))
    cx, cy = frame.centre("2022")
    assert py == cy - 0.66 * frame.s and (py, px) < (cy_, cx_) < (dy, dx)
    # the order is what happened, not the kind: a combat before a barrage comes first
    swapped = mapdraw_units.result_chips(frame, {"barrages": [dict(recent["barrages"][0], order=5)],
                                                 "combats": recent["combats"]})
    (bx, by), (ax, ay) = swapped[("barrages", 0)][0], swapped[("combats", 0)][0]
    assert (ay, ax) == (cy - 0.66 * frame.s, cx) and (ay, ax) < (by, bx)


def test_a_lone_result_chip_sits_over_the_hex_number_as_before():
    """Only hexes with several results change: a lone chip is centred over the hex number."""
    frame = full_frame()
    chips = mapdraw_units.result_chips(frame, RECENT)
    for key, h in ((("combats", 0), "2022"), (("barrages", 0), "3027")):
        cx, cy = frame.centre(h)
        assert chips[key][0] == (cx, cy - 0.66 * frame.s)


def test_the_view_numbers_the_phase_s_actions_in_the_order_they_happened():
    """The engine's view gives each barrage and combat its place in the Command Phase's actions, which the
    map uses to order the chips of one hex: a barrage on 2332 (P), then an attack on it (D1r2)."""
    from tests.games.narva.fight import board, fight
    from tests.games.narva.helpers import answer
    from tests.games.narva.test_barrage_stavka import barrage

    b = board({"61/162G": "2332", "109/381": "2432", "30GD/131": "2431", "30GD/129": "2333"},
              reduced=["61/162G"], rolls=[3, 4])
    barrage(b)
    answer(b, "BARRAGE 2332")
    fight(b, "soviet", "2332", ["30GD/131", "30GD/129", "109/381"])
    recent = engine.view(b.data, "german")["recent"]
    assert [(c["hex"], c["result"]) for c in recent["barrages"]] == [("2332", "P")]
    assert [(c["hex"], c["result"]) for c in recent["combats"]] == [("2332", "D1r2")]
    assert recent["barrages"][0]["order"] < recent["combats"][0]["order"]
    chips = mapdraw_units.result_chips(full_frame(), recent)
    assert chips[("barrages", 0)][0] != chips[("combats", 0)][0]
