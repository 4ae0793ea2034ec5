"""The Across the Narva base map: everything that never changes (terrain, rivers, routes, edge
marks, hex numbers, names and the legend), drawn once per scenario and cached.

Entry-area letters and supply symbols sit in the margin outside the edge hexes, so counters
entering there never hide them.  The legend fills the empty sea in the map's top-left corner.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from moderator.games.narva.mapdraw_frame import Frame, full_frame
from moderator.games.narva.mapdraw_style import (
    BANDS,
    BARRAGE,
    BLOCK,
    BRIDGE_DECK,
    COMBAT,
    CONTOUR,
    CUT,
    GRID,
    HOUSE,
    ICE,
    INK,
    ISOLATED,
    MARSH,
    MOVE,
    NUMBER,
    OOS,
    PAPER,
    PIN,
    RAIL,
    RIVER,
    RIVER_MINOR,
    RIVER_OPEN,
    ROLLBAHN_CORE,
    ROUTE,
    SIDE_DARK,
    SOVIET_RED,
    TERRAIN,
    TREE,
    WHITE,
)
from moderator.games.narva.mapdraw_units import counter, move_arrow, tag
from moderator.games.narva.scenario import ROAD_KINDS, Scenario, scenario_named
from moderator.render.drawing import RGB, Point, draw_dashed, draw_polyline, draw_text, font, unit_vector


def base_map(scenario_name: str = "campaign") -> Image.Image:
    """The whole map with everything that never changes: terrain, rivers, routes, edge marks,
    hex numbers, names and the legend; drawn once per scenario.  Callers draw on a copy."""
    return _base_map(scenario_name)


@lru_cache(maxsize=4)  # behind base_map so that base_map() and base_map("campaign") share one image
def _base_map(scenario_name: str) -> Image.Image:
    frame = full_frame(scenario_name)
    scenario = scenario_named(scenario_name)
    image = Image.new("RGB", frame.size, PAPER)
    draw_base(ImageDraw.Draw(image), frame, scenario)
    box = legend_box(scenario_name)
    if box is not None:
        _legend(ImageDraw.Draw(image), box)
    return image


def draw_base(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario) -> None:
    hexes = [h for h in scenario.hex_ids() if frame.visible(h)]
    for h in hexes:
        _terrain(draw, frame, h, scenario.hex(h).terrain)
    for h in hexes:
        division = scenario.hex(h).pd_division
        if division:
            _prepared_defence(draw, frame, h, _pd_colour(scenario, division))
    _rivers(draw, frame, scenario)
    _routes(draw, frame, scenario)
    _crossings(draw, frame, scenario)
    for h in hexes:
        _edge_marks(draw, frame, scenario, h)
    for h in hexes:
        info = scenario.hex(h)
        if not info.water:
            _hex_number(draw, frame, h, NUMBER, TERRAIN.get(info.terrain, TERRAIN["clear"]))
    _place_names(draw, frame, scenario)


def _terrain(draw: ImageDraw.ImageDraw, frame: Frame, h: str, terrain: str) -> None:
    s = frame.s
    draw.polygon(frame.corners(h), fill=TERRAIN.get(terrain, TERRAIN["clear"]), outline=GRID)
    cx, cy = frame.centre(h)
    # symbols go in the left and right corners, which a counter leaves uncovered
    corners = ((cx - 0.78 * s, cy), (cx + 0.78 * s, cy))
    if terrain == "woods":
        for x, y in corners:
            r = 0.09 * s
            for dx, dy in ((-0.08, -0.1), (0.08, -0.1), (0.0, 0.08)):
                px, py = x + dx * s, y + dy * s
                draw.ellipse([px - r, py - r, px + r, py + r], fill=TREE)
    elif terrain == "swamp":
        w = max(1, round(s / 18))
        for x, y in corners:
            for dy, half in ((-0.14, 0.1), (0.0, 0.14), (0.14, 0.1)):
                draw.line([(x - half * s, y + dy * s), (x + half * s, y + dy * s)], fill=MARSH, width=w)
    elif terrain == "hill":
        w = max(1, round(s / 14))
        for x, y in corners:
            r = 0.17 * s
            draw.arc([x - r, y - r * 0.8, x + r, y + r * 1.2], 200, 340, fill=CONTOUR, width=w)
            r2 = 0.09 * s
            draw.arc([x - r2, y - r2 * 0.4, x + r2, y + r2 * 1.6], 200, 340, fill=CONTOUR, width=w)
    elif terrain in ("village", "city"):
        colour = HOUSE if terrain == "village" else BLOCK
        size = 0.1 * s if terrain == "village" else 0.13 * s
        for x, y in corners:
            for dx, dy in ((-0.07, -0.08), (0.07, 0.08)) if terrain == "village" else (
                    (-0.08, -0.14), (0.08, -0.14), (-0.08, 0.04), (0.08, 0.04)):
                px, py = x + dx * s, y + dy * s
                draw.rectangle([px - size / 2, py - size / 2, px + size / 2, py + size / 2], fill=colour)


def _pd_colour(scenario: Scenario, division: str) -> RGB:
    try:
        band = scenario.formation(division).band
    except KeyError:
        band = None
    return BANDS.get(band or "", SOVIET_RED)


def _prepared_defence(draw: ImageDraw.ImageDraw, frame: Frame, h: str, colour: RGB) -> None:
    """A fortified line just inside the hex edge, with teeth pointing in (a trench symbol)."""
    s = frame.s
    cx, cy = frame.centre(h)
    ring = frame.corners(h, 0.86)
    width = max(2, round(s / 9))
    draw.line(ring + [ring[0]], fill=colour, width=width, joint="curve")
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1], strict=True):
        for t in (0.25, 0.5, 0.75):
            px, py = ax + (bx - ax) * t, ay + (by - ay) * t
            ux, uy, _ = unit_vector(px, py, cx, cy)
            draw.line([(px, py), (px + ux * 0.14 * s, py + uy * 0.14 * s)], fill=colour, width=width)


def _rivers(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario) -> None:
    s = frame.s
    for river in sorted(scenario.map.rivers, key=lambda r: (r.kind == "major", r.never_frozen)):
        if river.kind == "major":
            colour, width = (RIVER_OPEN if river.never_frozen else RIVER), max(3, round(s * 0.2))
        else:
            colour, width = RIVER_MINOR, max(2, round(s * 0.1))
        for key in river.hexsides:
            a, b = key.split("-")
            if not (frame.visible(a) or frame.visible(b)):
                continue
            try:
                p, q = frame.side(a, b)
            except ValueError:
                continue  # not adjacent: the validator reports it; draw what can be drawn
            draw_polyline(draw, [p, q], colour, width)
            if river.kind == "major" and not river.never_frozen:
                # a pale core line: this river freezes (crossable on turns 1-7)
                draw.line([p, q], fill=ICE, width=max(1, round(s / 20)))


def _offset_polyline(points: Sequence[Point], shift: Sequence[bool], distance: float) -> list[Point]:
    """Move the vertices flagged in `shift` sideways (to the left of the direction of travel)."""
    out: list[Point] = []
    for i, (x, y) in enumerate(points):
        if not shift[i]:
            out.append((x, y))
            continue
        nx = ny = 0.0
        for j, k in ((i - 1, i), (i, i + 1)):
            if j >= 0 and k < len(points):
                ux, uy, _ = unit_vector(*points[j], *points[k])
                nx, ny = nx + uy, ny - ux
        norm = math.hypot(nx, ny) or 1.0
        out.append((x + nx / norm * distance, y + ny / norm * distance))
    return out


def _routes(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario) -> None:
    s = frame.s
    # worse roads first, so where two share a hexside the better one shows on top
    for road in sorted(scenario.map.roads, key=lambda r: -ROAD_KINDS.index(r.kind)):
        if not any(frame.visible(h) for h in road.hexes):
            continue
        points = [frame.centre(h) for h in road.hexes]
        _road(draw, _to_edge(frame, scenario, road.hexes, points), road.kind, s)
    road_steps = {frozenset(p) for r in scenario.map.roads for p in itertools.pairwise(r.hexes)}
    for rail in scenario.map.railways:
        if not any(frame.visible(h) for h in rail.hexes):
            continue
        steps = [frozenset(p) in road_steps for p in itertools.pairwise(rail.hexes)]
        # a railway beside a road on the same hexes is drawn a little to the side of it
        shift = [bool((i > 0 and steps[i - 1]) or (i < len(steps) and steps[i])) for i in range(len(rail.hexes))]
        points = _offset_polyline([frame.centre(h) for h in rail.hexes], shift, 0.22 * s)
        _railway(draw, _to_edge(frame, scenario, rail.hexes, points), rail.kind, s)
        for cut in rail.cut:
            a, b = cut.split("-")
            if a in rail.hexes and b in rail.hexes:
                i, j = rail.hexes.index(a), rail.hexes.index(b)
                (ax, ay), (bx, by) = points[i], points[j]
                _cross(draw, ((ax + bx) / 2, (ay + by) / 2), 0.2 * s, CUT, max(2, round(s / 9)))


def _to_edge(frame: Frame, scenario: Scenario, hexes: Sequence[str], points: list[Point]) -> list[Point]:
    """A route that starts or ends in an entry hex or supply source leads on off the map: extend
    it to the map edge, towards the letter and symbol in the margin."""
    s = frame.s

    def beyond(h: str, x: float, y: float) -> Point | None:
        info = scenario.hex(h)
        if not (info.entry_area or info.supply_source) or not info.edges:
            return None
        if "west" in info.edges or "east" in info.edges:
            return x + (-s if "west" in info.edges else s), y
        return x, y + (0.866 * s if "south" in info.edges else -0.866 * s)

    start, end = beyond(hexes[0], *points[0]), beyond(hexes[-1], *points[-1])
    return ([start] if start else []) + list(points) + ([end] if end else [])


def _road(draw: ImageDraw.ImageDraw, points: Sequence[Point], kind: str, s: float) -> None:
    colour = ROUTE[kind]
    if kind == "rollbahn":
        draw_polyline(draw, points, colour, max(4, round(s * 0.24)))
        draw_polyline(draw, points, ROLLBAHN_CORE, max(2, round(s * 0.1)))
    elif kind == "road":
        draw_polyline(draw, points, colour, max(2, round(s * 0.13)))
    elif kind == "track":
        draw_dashed(draw, points, colour, max(2, round(s * 0.09)), 0.5 * s, 0.14 * s)
    elif kind == "trail":
        draw_dashed(draw, points, colour, max(1, round(s * 0.07)), 0.16 * s, 0.16 * s)
    else:  # winter trail: only while frozen
        draw_dashed(draw, points, colour, max(2, round(s * 0.09)), 0.3 * s, 0.12 * s)
        for (ax, ay), (bx, by) in itertools.pairwise(points):
            _snowflake(draw, ((ax + bx) / 2, (ay + by) / 2), 0.12 * s, colour)


def _snowflake(draw: ImageDraw.ImageDraw, at: Point, r: float, colour: RGB) -> None:
    x, y = at
    for angle in (90, 30, 150):
        dx, dy = r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle))
        draw.line([(x - dx, y - dy), (x + dx, y + dy)], fill=colour, width=max(1, round(r / 3)))


def _railway(draw: ImageDraw.ImageDraw, points: Sequence[Point], kind: str, s: float) -> None:
    major = kind == "major"
    width = max(2, round(s * (0.1 if major else 0.07)))
    draw.line(list(points), fill=RAIL, width=width, joint="curve")
    spacing, half = (0.32 * s, 0.16 * s) if major else (0.5 * s, 0.12 * s)
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        ux, uy, length = unit_vector(ax, ay, bx, by)
        t = spacing / 2
        while t < length:
            px, py = ax + ux * t, ay + uy * t
            draw.line([(px - uy * half, py + ux * half), (px + uy * half, py - ux * half)], fill=RAIL,
                      width=max(1, width - 1))
            t += spacing


def _cross(draw: ImageDraw.ImageDraw, at: Point, r: float, colour: RGB, width: int) -> None:
    x, y = at
    draw.line([(x - r, y - r), (x + r, y + r)], fill=colour, width=width)
    draw.line([(x - r, y + r), (x + r, y - r)], fill=colour, width=width)


def _crossings(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario) -> None:
    """Bridges (a deck along the route over the river) and ferries (a boat on a dashed crossing)."""
    s = frame.s
    for bridge in scenario.map.bridges:
        a, b = bridge.hexside.split("-")
        if not frame.visible(a) or not scenario.on_map(a) or not scenario.on_map(b):
            continue
        (ax, ay), (bx, by) = frame.centre(a), frame.centre(b)
        ux, uy, _ = unit_vector(ax, ay, bx, by)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        along, across = 0.3 * s, 0.13 * s
        deck = [(mx - ux * along - uy * across, my - uy * along + ux * across),
                (mx + ux * along - uy * across, my + uy * along + ux * across),
                (mx + ux * along + uy * across, my + uy * along - ux * across),
                (mx - ux * along + uy * across, my - uy * along - ux * across)]
        draw.polygon(deck, fill=BRIDGE_DECK, outline=INK, width=max(1, round(s / 16)))
    for ferry in scenario.map.ferries:
        a, b = ferry.hexside.split("-")
        if not frame.visible(a) or not scenario.on_map(a) or not scenario.on_map(b):
            continue
        (ax, ay), (bx, by) = frame.centre(a), frame.centre(b)
        ux, uy, _ = unit_vector(ax, ay, bx, by)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        reach = 0.42 * s
        draw_dashed(draw, [(mx - ux * reach, my - uy * reach), (mx + ux * reach, my + uy * reach)], INK,
                    max(1, round(s / 14)), 0.08 * s, 0.06 * s)
        r = 0.2 * s
        draw.ellipse([mx - r, my - r, mx + r, my + r], fill=WHITE, outline=INK, width=max(1, round(s / 18)))
        draw_text(draw, (mx, my), "F", 0.28 * s, INK)


def _edge_marks(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, h: str) -> None:
    """Entry-area letters and supply symbols, outside the map edge next to their hex."""
    info = scenario.hex(h)
    if not info.entry_area and not info.supply_source:
        return
    s = frame.s
    cx, cy = frame.centre(h)
    margin = frame.layout.margin
    marks: list[tuple[str, str]] = []
    if info.entry_area:
        entry_side = next((e.side for e in scenario.map.entry_areas if e.id == info.entry_area), "german")
        marks.append(("entry", entry_side))
    if info.supply_source:
        marks.append(("supply", info.supply_source))
    r = min(0.3 * s, margin * 0.46)
    if "west" in info.edges or "east" in info.edges:
        x = cx + (-1 if "west" in info.edges else 1) * (s + margin / 2)
        spots = [(x, cy)] if len(marks) == 1 else [(x, cy - 0.36 * s), (x, cy + 0.36 * s)]
    else:
        y = cy + (1 if "south" in info.edges else -1) * (0.866 * s + r + 2)
        spots = [(cx, y)] if len(marks) == 1 else [(cx - 0.36 * s, y), (cx + 0.36 * s, y)]
    for (kind, side), at in zip(marks, spots, strict=False):
        if kind == "entry":
            _entry_badge(draw, at, r, info.entry_area or "?", side)
        else:
            _supply_symbol(draw, at, r, side)


def _entry_badge(draw: ImageDraw.ImageDraw, at: Point, r: float, letter: str, side: str) -> None:
    x, y = at
    draw.rounded_rectangle([x - r, y - r, x + r, y + r], radius=r / 3, fill=SIDE_DARK.get(side, INK))
    draw_text(draw, (x, y), letter, 1.5 * r, WHITE)


def _supply_symbol(draw: ImageDraw.ImageDraw, at: Point, r: float, side: str) -> None:
    """German sources black and white (a cross on a ringed disc), Soviet red and white (a star)."""
    x, y = at
    colour = INK if side == "german" else SOVIET_RED
    draw.ellipse([x - r, y - r, x + r, y + r], fill=WHITE, outline=colour, width=max(2, round(r / 4)))
    if side == "german":
        arm, w = 0.62 * r, max(2, round(r / 3))
        draw.line([(x - arm, y), (x + arm, y)], fill=colour, width=w)
        draw.line([(x, y - arm), (x, y + arm)], fill=colour, width=w)
    else:
        star = []
        for k in range(10):
            rr = 0.7 * r if k % 2 == 0 else 0.3 * r
            a = math.radians(-90 + 36 * k)
            star.append((x + rr * math.cos(a), y + rr * math.sin(a)))
        draw.polygon(star, fill=colour)


def _hex_number(draw: ImageDraw.ImageDraw, frame: Frame, h: str, fill: RGB, halo: RGB) -> None:
    """The number, with a halo of the hex's own colour so that roads and railways stop short of it."""
    cx, cy = frame.centre(h)
    draw_text(draw, (cx, cy - 0.66 * frame.s), h, number_size(frame.s), fill, halo=halo, crisp=True)


def number_size(s: float) -> float:
    return max(8.0, 0.34 * s)


def _place_names(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario) -> None:
    """One name per place (Narva's four hexes are named once), under the counter, on a patch of
    the hex's colour so that grid lines, roads and rivers do not run through the letters."""
    s = frame.s
    seen: set[str] = set()
    for place in scenario.map.places:
        name = place.name.split(" (")[0]
        if name in seen or not scenario.on_map(place.hex) or not frame.visible(place.hex):
            continue
        seen.add(name)
        cx, cy = frame.centre(place.hex)
        size, colour = {"city": (0.4, INK), "town": (0.34, INK), "label": (0.32, RIVER_OPEN),
                        "station": (0.28, NUMBER), "manor": (0.28, NUMBER), "poi": (0.28, NUMBER)}.get(
            place.kind, (0.31, INK))
        text = name.upper() if place.kind == "city" else name
        at = (cx, cy + 0.71 * s)
        left, top, right, bottom = draw.textbbox(at, text, font=font(size * s), anchor="mm")
        patch = TERRAIN.get(scenario.hex(place.hex).terrain, TERRAIN["clear"])
        draw.rectangle([left - 2, top - 1, right + 1, bottom + 1], fill=patch)
        draw_text(draw, at, text, size * s, colour)


# -- the legend, in the empty sea in the map's corner ---------------------------------------------


LEGEND_MIN = (560, 200)


@lru_cache(maxsize=4)
def legend_box(scenario_name: str = "campaign") -> tuple[int, int, int, int] | None:
    """The largest rectangle in the top-left corner of the full map that covers only water hexes,
    or None if it is too small for the legend."""
    frame = full_frame(scenario_name)
    scenario = scenario_named(scenario_name)
    mask = Image.new("1", frame.size, 0)
    draw = ImageDraw.Draw(mask)
    for h in scenario.hex_ids():
        if not scenario.hex(h).water:
            draw.polygon(frame.corners(h, 1.08), fill=1)
    land = np.asarray(mask, dtype=bool)
    height = land.shape[0]
    first_land = np.where(land.any(axis=0), land.argmax(axis=0), height)
    reach = np.minimum.accumulate(first_land)  # how far down the box can go if it is x+1 wide
    areas = reach * (np.arange(len(reach)) + 1)
    right = int(areas.argmax())
    box = (4, 4, right - 4, int(reach[right]) - 4)
    if box[2] - box[0] < LEGEND_MIN[0] or box[3] - box[1] < LEGEND_MIN[1]:
        return None
    return box


def _legend(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=PAPER, outline=INK, width=2)
    draw_text(draw, (x0 + 12, y0 + 16), "ACROSS THE NARVA", 17, INK, anchor="lm")
    top = y0 + 58  # room for the two title lines drawn per view
    columns = 4
    col_w = (x1 - x0 - 16) / columns
    rows = math.ceil(len(LEGEND) / columns)
    row_h = min(22.0, (y1 - top - 6) / rows)
    for i, (label, kind, arg) in enumerate(LEGEND):
        x = x0 + 10 + (i // rows) * col_w
        y = top + (i % rows) * row_h + row_h / 2
        _legend_symbol(draw, (x + 14, y), kind, arg)
        draw_text(draw, (x + 32, y), label, 11, INK, anchor="lm")


LEGEND: tuple[tuple[str, str, Any], ...] = (
    ("clear", "terrain", "clear"), ("woods", "terrain", "woods"), ("swamp", "terrain", "swamp"),
    ("hill", "terrain", "hill"), ("village / town", "terrain", "village"), ("city", "terrain", "city"),
    ("lake / sea", "terrain", "lake"), ("major river", "river", RIVER), ("Narva, never frozen", "river", RIVER_OPEN),
    ("minor river", "river", RIVER_MINOR), ("bridge", "bridge", None), ("ferry", "ferry", None),
    ("rollbahn", "road", "rollbahn"), ("road", "road", "road"), ("track", "road", "track"),
    ("trail", "road", "trail"), ("winter trail (frozen)", "road", "winter_trail"),
    ("major railway", "rail", "major"), ("minor railway", "rail", "minor"), ("railway cut", "cut", None),
    ("PD Nordland (11SS)", "pd", "red"), ("PD Nederland (4SS)", "pd", "orange"),
    ("German entry area", "entry", "german"), ("Soviet entry area", "entry", "soviet"),
    ("German supply source", "supply", "german"), ("Soviet supply source", "supply", "soviet"),
    ("German unit", "counter", ("german", False, False)), ("SS unit", "counter", ("ss", False, False)),
    ("Soviet unit", "counter", ("soviet", False, False)),
    ("reduced (light values)", "counter", ("soviet", True, False)),
    ("HQ (flag, movement)", "counter", ("german", False, True)), ("stack of 2", "chip", ("x2", INK, WHITE)),
    ("pinned", "chip", ("P", PIN, INK)), ("out of supply", "chip", ("OOS", OOS, INK)),
    ("isolated", "chip", ("ISO", ISOLATED, WHITE)), ("German move", "move", "german"),
    ("Soviet move", "move", "soviet"), ("retreat", "retreat", "german"), ("combat", "ring", COMBAT),
    ("barrage", "ring", BARRAGE),
)


def _legend_symbol(draw: ImageDraw.ImageDraw, at: Point, kind: str, arg: Any) -> None:
    """One legend sample, drawn by the map's own functions at a legend hex size of 20 px."""
    x, y = at
    line = [(x - 13, y), (x + 13, y)]
    if kind in ("terrain", "pd"):
        fill = TERRAIN[arg] if kind == "terrain" else TERRAIN["clear"]
        outline, width = (GRID, 1) if kind == "terrain" else (BANDS[arg], 3)
        draw.rectangle([x - 12, y - 8, x + 12, y + 8], fill=fill, outline=outline, width=width)
    elif kind == "river":
        draw_polyline(draw, line, arg, 3 if arg == RIVER_MINOR else 5)
        if arg == RIVER:
            draw.line(line, fill=ICE, width=1)
    elif kind in ("bridge", "ferry"):
        draw_polyline(draw, line, RIVER, 4)
        if kind == "bridge":
            draw.rectangle([x - 3, y - 7, x + 3, y + 7], fill=BRIDGE_DECK, outline=INK)
        else:
            draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=WHITE, outline=INK)
            draw_text(draw, (x, y), "F", 7, INK)
    elif kind == "road":
        _road(draw, line, arg, 20)
    elif kind in ("rail", "cut"):
        _railway(draw, line, arg or "major", 20)
        if kind == "cut":
            _cross(draw, (x, y), 5, CUT, 2)
    elif kind == "entry":
        _entry_badge(draw, at, 7, "A" if arg == "german" else "D", arg)
    elif kind == "supply":
        _supply_symbol(draw, at, 7, arg)
    elif kind == "counter":
        side, reduced, hq = arg
        unit = {"side": "german" if side == "ss" else side, "label": "61" if hq else "381",
                "type": "hq" if hq else "infantry", "attack": 4, "defense": 3, "movement": 4, "reduced": reduced}
        counter(draw, at, unit, 18, band=None, ss=side == "ss")
    elif kind == "chip":
        text, fill, fg = arg
        tag(draw, at, text, fill, fg, 9)
    elif kind in ("move", "retreat"):
        move_arrow(draw, line, MOVE[arg], 12, dashed=kind == "retreat")
    elif kind == "ring":
        draw.regular_polygon((x, y, 9), 6, outline=arg, width=3)
