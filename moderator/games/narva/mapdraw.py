"""The Across the Narva map as PNG images: the static terrain drawn once per scenario
(`base_map`), and one role's view over it - counters, markers, control and the latest
activation (`draw_map`), or a close-up where that activation happened (`draw_detail`).

All geometry comes from `moderator.maps.hexes.HexLayout` through a `Frame` (a layout plus the
pixel window shown), and every length is a fraction of the hex size ``s`` (centre to corner), so
the full map (s = 26) and the detail image (s = 44) share one drawing code and differ in scale only.

Hex anatomy, from top to bottom: hex number, counter (its top and bottom stay inside the flat
sides, so a counter never hides a neighbour), place name.  Entry-area letters and supply symbols
sit in the margin outside the edge hexes, so counters entering there never hide them.  Colours go
through one fixed palette (`palette`) so that a pixel only changes where something drawn there
changed: the tests compare pixels.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from moderator.games.narva.scenario import ROAD_KINDS, Scenario
from moderator.games.narva.setup import scenario_named
from moderator.games.vmt.mapdraw import font as bundled_font
from moderator.maps.hexes import HexLayout, is_hex_id

Point = tuple[float, float]
RGB = tuple[int, int, int]

HEX = 26  # full map: hex centre to corner in pixels; 35 columns make it 1414 px wide
DETAIL_HEX = 44  # detail image: hex numbers and counter values about 15 px high
DETAIL_MIN_HEX = 34  # zoom out no further to fit a wide action: a detail must stay a close-up
DETAIL_SIZE = (720, 500)
MARGIN = 18  # room outside the edge hexes for entry letters and supply symbols

# -- colours ------------------------------------------------------------------------------------
PAPER = (250, 248, 240)
INK = (25, 25, 25)
WHITE = (255, 255, 255)
GRID = (110, 110, 95)
NUMBER = (70, 70, 60)
TERRAIN: dict[str, RGB] = {
    "clear": (238, 234, 206),
    "woods": (160, 198, 128),
    "swamp": (188, 214, 204),
    "hill": (216, 184, 134),
    "village": (240, 206, 168),
    "city": (188, 182, 180),
    "lake": (150, 194, 230),
    "sea": (124, 170, 216),
}
TREE = (112, 160, 88)
MARSH = (60, 124, 150)
CONTOUR = (150, 104, 52)
HOUSE = (150, 66, 44)
BLOCK = (96, 90, 92)
RIVER = (52, 112, 206)  # major river: frozen on turns 1-7
RIVER_OPEN = (16, 44, 140)  # the upper Narva, never frozen
RIVER_MINOR = (74, 146, 224)
ICE = (205, 228, 250)
ROUTE: dict[str, RGB] = {
    "rollbahn": (190, 40, 20),
    "road": (176, 62, 34),
    "track": (126, 84, 44),
    "trail": (110, 76, 44),
    "winter_trail": (0, 134, 150),  # icy teal: blue dashes are German retreats
}
ROLLBAHN_CORE = (252, 196, 60)
RAIL = (20, 20, 20)
CUT = (226, 0, 0)
BRIDGE_DECK = (236, 236, 236)
GERMAN = (150, 158, 140)  # field grey
GERMAN_DARK = (64, 70, 58)
SS = (28, 28, 28)
SOVIET = (150, 58, 38)  # red-brown
SOVIET_RED = (196, 24, 24)
TAN = (238, 220, 178)
BANDS: dict[str, RGB] = {
    "purple": (124, 56, 168), "gray": (196, 196, 196), "brown": (128, 82, 36), "yellow": (246, 214, 40),
    "black": (0, 0, 0), "green": (36, 142, 60), "red": (220, 30, 36), "orange": (244, 140, 20),
    "white": (255, 255, 255),
}
PIN = (255, 226, 60)
OOS = (255, 226, 60)
ISOLATED = (226, 0, 0)
MOVE: dict[str, RGB] = {"german": (0, 70, 230), "soviet": (214, 0, 0)}  # black would read as a railway
COMBAT = (255, 128, 0)
BARRAGE = (150, 40, 200)
CONTROL: dict[str, RGB] = {"german": GERMAN_DARK, "soviet": SOVIET_RED}
SIDE_DARK: dict[str, RGB] = {"german": GERMAN_DARK, "soviet": SOVIET_RED}


def font(size: float) -> ImageFont.FreeTypeFont:
    return _font(max(6, int(round(size))))


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont:
    # the VMT helper loads the face on every call; drawing a map asks for it thousands of times
    return bundled_font(size)


# -- frames: which part of the map, at what scale -------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """A window of `size` pixels onto the map laid out by `layout`, whose (0, 0) is the layout's
    `origin`."""

    layout: HexLayout
    origin: Point
    size: tuple[int, int]

    @property
    def s(self) -> float:
        return self.layout.size

    def centre(self, h: str) -> Point:
        x, y = self.layout.centre(h)
        return x - self.origin[0], y - self.origin[1]

    def corners(self, h: str, scale: float = 1.0) -> list[Point]:
        cx, cy = self.centre(h)
        return [(cx + (x - cx) * scale, cy + (y - cy) * scale)
                for x, y in ((x - self.origin[0], y - self.origin[1]) for x, y in self.layout.corners(h))]

    def side(self, a: str, b: str) -> tuple[Point, Point]:
        (x1, y1), (x2, y2) = self.layout.side_points(a, b)
        ox, oy = self.origin
        return (x1 - ox, y1 - oy), (x2 - ox, y2 - oy)

    def visible(self, h: str, slack: float = 2.0) -> bool:
        x, y = self.centre(h)
        pad = slack * self.s
        return -pad <= x <= self.size[0] + pad and -pad <= y <= self.size[1] + pad


def layout_for(scenario: Scenario, size: float) -> HexLayout:
    g = scenario.map.grid
    return HexLayout(grid=scenario.grid, size=size, columns=tuple(g.columns), rows=tuple(g.rows),
                     margin=MARGIN * size / HEX)


@lru_cache(maxsize=4)
def full_frame(scenario_name: str = "campaign") -> Frame:
    layout = layout_for(scenario_named(scenario_name), HEX)
    return Frame(layout, (0.0, 0.0), layout.image_size())


def detail_frame(scenario_name: str, focus: Sequence[str]) -> Frame:
    """The detail window: `DETAIL_SIZE` pixels centred on the focus hexes, zoomed out (down to
    `DETAIL_MIN_HEX`) only as far as needed to show them, and kept inside the map.  Focus hexes
    too far apart for one window: the latest one and those of the others, latest first, that
    still fit with it."""
    scenario = scenario_named(scenario_name)
    width, height = DETAIL_SIZE
    unit = layout_for(scenario, 1.0)
    at = {h: unit.centre(h) for h in focus}
    # 1.5 hexes of room round the outermost focus hexes
    span_x, span_y = width / DETAIL_MIN_HEX - 3.0, height / DETAIL_MIN_HEX - 3.0
    group: list[str] = []
    for h in reversed(focus):
        xs = [at[g][0] for g in group + [h]]
        ys = [at[g][1] for g in group + [h]]
        if max(xs) - min(xs) <= span_x and max(ys) - min(ys) <= span_y:
            group.append(h)
    xs = [at[h][0] for h in group]
    ys = [at[h][1] for h in group]
    size = min(float(DETAIL_HEX), width / (max(xs) - min(xs) + 3.0), height / (max(ys) - min(ys) + 3.0))
    size = max(float(DETAIL_MIN_HEX), math.floor(size))
    layout = layout_for(scenario, size)
    cx = (min(xs) + max(xs)) / 2 * size
    cy = (min(ys) + max(ys)) / 2 * size
    full_w, full_h = layout.image_size()
    left = min(max(0.0, cx - width / 2), max(0.0, full_w - width))
    top = min(max(0.0, cy - height / 2), max(0.0, full_h - height))
    return Frame(layout, (round(left), round(top)), (width, height))


# -- small drawing helpers ---------------------------------------------------------------------


def _text(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: float, fill: RGB, anchor: str = "mm",
          halo: RGB | None = None) -> None:
    if halo is None:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
    else:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=1, stroke_fill=halo)


def _fitted(text: str, size: float, width: float, smallest: float) -> tuple[str, float]:
    """Shrink the font (not below `smallest`), then cut the text, until it is at most `width` wide."""
    size = max(smallest, size)
    while size > smallest and font(size).getlength(text) > width:
        size -= 1
    while len(text) > 1 and font(size).getlength(text) > width:
        text = text[:-1]
    return text, size


def _unit(ax: float, ay: float, bx: float, by: float) -> tuple[float, float, float]:
    length = math.hypot(bx - ax, by - ay) or 1.0
    return (bx - ax) / length, (by - ay) / length, length


def _dashed(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: RGB, width: int, dash: float,
            gap: float) -> None:
    """A dashed polyline whose pattern runs on across the vertices."""
    on, left = True, dash
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        ux, uy, length = _unit(ax, ay, bx, by)
        t = 0.0
        while t < length - 1e-6:
            step = min(left, length - t)
            if on:
                draw.line([(ax + ux * t, ay + uy * t), (ax + ux * (t + step), ay + uy * (t + step))],
                          fill=fill, width=width)
            t += step
            left -= step
            if left <= 1e-6:
                on = not on
                left = dash if on else gap


def _polyline(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: RGB, width: int) -> None:
    draw.line(list(points), fill=fill, width=width, joint="curve")
    r = width / 2
    for x, y in (points[0], points[-1]):  # round caps, so joined segments look like one line
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


def _arrowhead(draw: ImageDraw.ImageDraw, tip: Point, ux: float, uy: float, length: float, fill: RGB,
               outline: RGB | None = None) -> None:
    x, y = tip
    bx, by = x - ux * length, y - uy * length
    half = length * 0.55
    points = [(x, y), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    draw.polygon(points, fill=fill, outline=outline)


def _to_rect_edge(ux: float, uy: float, half_w: float, half_h: float) -> float:
    """Distance from a rectangle's centre to its edge along the unit direction (ux, uy)."""
    tx = half_w / abs(ux) if abs(ux) > 1e-9 else math.inf
    ty = half_h / abs(uy) if abs(uy) > 1e-9 else math.inf
    return min(tx, ty)


# -- the base map -----------------------------------------------------------------------------


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
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
        for t in (0.25, 0.5, 0.75):
            px, py = ax + (bx - ax) * t, ay + (by - ay) * t
            ux, uy, _ = _unit(px, py, cx, cy)
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
            _polyline(draw, [p, q], colour, width)
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
            if 0 <= j and k < len(points):
                ux, uy, _ = _unit(*points[j], *points[k])
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
    road_steps = {frozenset(p) for r in scenario.map.roads for p in zip(r.hexes, r.hexes[1:])}
    for rail in scenario.map.railways:
        if not any(frame.visible(h) for h in rail.hexes):
            continue
        steps = [frozenset(p) in road_steps for p in zip(rail.hexes, rail.hexes[1:])]
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
        _polyline(draw, points, colour, max(4, round(s * 0.24)))
        _polyline(draw, points, ROLLBAHN_CORE, max(2, round(s * 0.1)))
    elif kind == "road":
        _polyline(draw, points, colour, max(2, round(s * 0.13)))
    elif kind == "track":
        _dashed(draw, points, colour, max(2, round(s * 0.09)), 0.5 * s, 0.14 * s)
    elif kind == "trail":
        _dashed(draw, points, colour, max(1, round(s * 0.07)), 0.16 * s, 0.16 * s)
    else:  # winter trail: only while frozen
        _dashed(draw, points, colour, max(2, round(s * 0.09)), 0.3 * s, 0.12 * s)
        for (ax, ay), (bx, by) in zip(points, points[1:]):
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
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        ux, uy, length = _unit(ax, ay, bx, by)
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
        ux, uy, _ = _unit(ax, ay, bx, by)
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
        ux, uy, _ = _unit(ax, ay, bx, by)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        reach = 0.42 * s
        _dashed(draw, [(mx - ux * reach, my - uy * reach), (mx + ux * reach, my + uy * reach)], INK,
                max(1, round(s / 14)), 0.08 * s, 0.06 * s)
        r = 0.2 * s
        draw.ellipse([mx - r, my - r, mx + r, my + r], fill=WHITE, outline=INK, width=max(1, round(s / 18)))
        _text(draw, (mx, my), "F", 0.28 * s, INK)


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
    for (kind, side), at in zip(marks, spots):
        if kind == "entry":
            _entry_badge(draw, at, r, info.entry_area or "?", side)
        else:
            _supply_symbol(draw, at, r, side)


def _entry_badge(draw: ImageDraw.ImageDraw, at: Point, r: float, letter: str, side: str) -> None:
    x, y = at
    draw.rounded_rectangle([x - r, y - r, x + r, y + r], radius=r / 3, fill=SIDE_DARK.get(side, INK))
    _text(draw, (x, y), letter, 1.5 * r, WHITE)


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
    _text(draw, (cx, cy - 0.66 * frame.s), h, number_size(frame.s), fill, halo=halo)


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
        _text(draw, at, text, size * s, colour)


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
    _text(draw, (x0 + 12, y0 + 16), "ACROSS THE NARVA", 17, INK, anchor="lm")
    top = y0 + 58  # room for the two title lines drawn per view
    columns = 4
    col_w = (x1 - x0 - 16) / columns
    rows = math.ceil(len(LEGEND) / columns)
    row_h = min(22.0, (y1 - top - 6) / rows)
    for i, (label, kind, arg) in enumerate(LEGEND):
        x = x0 + 10 + (i // rows) * col_w
        y = top + (i % rows) * row_h + row_h / 2
        _legend_symbol(draw, (x + 14, y), kind, arg)
        _text(draw, (x + 32, y), label, 11, INK, anchor="lm")


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
        _polyline(draw, line, arg, 3 if arg == RIVER_MINOR else 5)
        if arg == RIVER:
            draw.line(line, fill=ICE, width=1)
    elif kind in ("bridge", "ferry"):
        _polyline(draw, line, RIVER, 4)
        if kind == "bridge":
            draw.rectangle([x - 3, y - 7, x + 3, y + 7], fill=BRIDGE_DECK, outline=INK)
        else:
            draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=WHITE, outline=INK)
            _text(draw, (x, y), "F", 7, INK)
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
        _tag(draw, at, *arg, 9)
    elif kind in ("move", "retreat"):
        _move_arrow(draw, line, MOVE[arg], 12, dashed=kind == "retreat")
    elif kind == "ring":
        draw.regular_polygon((x, y, 9), 6, outline=arg, width=3)


# -- counters and markers -----------------------------------------------------------------------


def counter_box(s: float) -> tuple[float, float, float]:
    """Half width, half height and downward shift of a counter: it stays clear of the hex number
    above and mostly of the place name below, and inside the hex."""
    return 0.6 * s, 0.49 * s, 0.06 * s


def counter(draw: ImageDraw.ImageDraw, at: Point, unit: Mapping[str, Any], s: float, band: RGB | None,
            ss: bool, keep_clear: float = 0.0) -> None:
    """One counter: body in the side's colour, formation band on top, name (`keep_clear` pixels
    away from both sides, where chips lie), and attack-defense-movement (on a light stripe when
    reduced; an HQ shows a flag and its movement)."""
    x, y = at
    half_w, half_h, _ = counter_box(s)
    side = unit.get("side")
    body, fg = (SS, WHITE) if ss else ((GERMAN, INK) if side == "german" else (SOVIET, TAN))
    left, top, right, bottom = x - half_w, y - half_h, x + half_w, y + half_h
    edge = max(1, round(s / 26))
    draw.rectangle([left, top, right, bottom], fill=body, outline=INK, width=edge)
    band_h = max(3.0, 0.18 * s)
    if band is not None:
        draw.rectangle([left + edge, top + edge, right - edge, top + band_h], fill=band)
        draw.line([(left + edge, top + band_h), (right - edge, top + band_h)], fill=INK, width=1)
    inner_top = top + band_h
    row = (bottom - inner_top) / 2
    label = str(unit.get("label") or str(unit.get("id", "?")).split("/")[-1])
    is_hq = unit.get("type") == "hq"
    if is_hq and label.upper().endswith(" HQ"):
        label = label[:-3]  # the flag says HQ
    text, size = _fitted(label, 0.4 * s, 2 * (half_w - keep_clear) - 3, 7)
    _text(draw, (x, inner_top + row * 0.5 + 1), text, size, fg)
    values_y = inner_top + row * 1.5
    if unit.get("reduced"):  # values on a light stripe, like the printed back of a counter
        stripe = WHITE if ss or side == "german" else TAN
        draw.rectangle([left + edge, inner_top + row + 1, right - edge, bottom - edge], fill=stripe)
        value_fg = INK
    else:
        value_fg = fg
    movement = unit.get("movement", "?")
    if is_hq:
        _flag(draw, (x - 0.28 * s, values_y), 0.3 * s, value_fg)
        _text(draw, (x + 0.2 * s, values_y), str(movement), 0.38 * s, value_fg)
    else:
        values = f"{unit.get('attack', '?')}-{unit.get('defense', '?')}-{movement}"
        text, size = _fitted(values, 0.4 * s, 2 * half_w - 3, 7)
        _text(draw, (x, values_y), text, size, value_fg)


def _flag(draw: ImageDraw.ImageDraw, at: Point, h: float, colour: RGB) -> None:
    x, y = at
    draw.line([(x - h * 0.35, y - h * 0.55), (x - h * 0.35, y + h * 0.55)], fill=colour, width=max(1, round(h / 6)))
    draw.polygon([(x - h * 0.35, y - h * 0.55), (x + h * 0.55, y - h * 0.3), (x - h * 0.35, y - h * 0.05)], fill=colour)


def _tag(draw: ImageDraw.ImageDraw, at: Point, text: str, fill: RGB, fg: RGB, size: float) -> None:
    """A small marker chip centred at `at`."""
    x, y = at
    w = _tag_width(text, size)
    h = size * 1.25
    draw.rounded_rectangle([x - w / 2, y - h / 2, x + w / 2, y + h / 2], radius=h / 4, fill=fill, outline=INK)
    _text(draw, (x, y + 0.5), text, size, fg)


def _tag_width(text: str, size: float) -> float:
    return font(size).getlength(text) + size * 0.5


def _stack(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, h: str, stack: Mapping[str, Any]) -> None:
    s = frame.s
    units = list(stack.get("units") or [])
    cx, cy = frame.centre(h)
    half_w, half_h, shift = counter_box(s)
    at = (cx, cy + shift)
    height = int(stack.get("height") or len(units))
    tag_size = max(8.0, 0.3 * s)
    y = at[1] - 0.18 * s
    room = s - abs(y - cy) / math.sqrt(3) - 1  # half the hex's width at that height
    # the height right of the counter and the pin left of it, on the counter's edge rather than
    # in the next hex; the counter's name keeps clear of them
    chips: list[tuple[float, str, RGB, RGB]] = []
    if height > 1:
        chips.append((1.0, f"x{height}", INK, WHITE))
    if stack.get("pinned"):
        chips.append((-1.0, "P", PIN, INK))
    places = []
    for sign, text, fill, fg in chips:
        w = _tag_width(text, tag_size)
        places.append((cx + sign * min(half_w + w / 2 - 1, room - w / 2), w))
    overlap = max((half_w - (abs(x - cx) - w / 2) for x, w in places), default=0.0)
    if units:
        band, ss = _formation_look(scenario, units[0])
        counter(draw, at, units[0], s, band, ss, keep_clear=max(0.0, overlap))
    for (sign, text, fill, fg), (x, _) in zip(chips, places):
        _tag(draw, (x, y), text, fill, fg, tag_size)
    marker = stack.get("marker")
    if marker:
        text, fill, fg = {"OOS": ("OOS", OOS, INK), "ISOLATED": ("ISO", ISOLATED, WHITE)}.get(
            str(marker), (str(marker)[:4], OOS, INK))
        _tag(draw, (cx, at[1] + half_h + 0.1 * s), text, fill, fg, tag_size)


def _formation_look(scenario: Scenario, unit: Mapping[str, Any]) -> tuple[RGB | None, bool]:
    """The unit's band colour and whether it is SS (black counter), from the scenario data."""
    ss = False
    band: RGB | None = None
    formation_id = unit.get("formation")
    try:
        data = scenario.unit(str(unit.get("id")))
        ss = data.ss
        formation_id = formation_id or data.formation
    except KeyError:
        pass
    if formation_id:
        try:
            formation = scenario.formation(str(formation_id))
            band = BANDS.get(formation.band or "")
            ss = ss or formation.ss
        except KeyError:
            pass
    return band, ss and unit.get("side") == "german"


# -- the latest activation ------------------------------------------------------------------------


def _move_arrow(draw: ImageDraw.ImageDraw, points: Sequence[Point], colour: RGB, s: float, dashed: bool,
                head_at: float = 0.0, head: float | None = None) -> None:
    """A path with a white casing (so it reads on woods and roads) and an arrowhead `head_at`
    pixels short of its last point."""
    if len(points) < 2:
        return
    (ax, ay), (bx, by) = points[-2], points[-1]
    ux, uy, length = _unit(ax, ay, bx, by)
    head = max(7.0, 0.42 * s if head is None else head)
    end = min(head_at, max(0.0, length - head))
    tip = (bx - ux * end, by - uy * end)
    stem = list(points[:-1]) + [(tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8)]
    width = max(3, round(0.14 * s))
    if len(points) == 2 and length - end - head * 0.8 <= 0:
        pass  # only room for the head
    elif dashed:
        _dashed(draw, stem, WHITE, width + 2, 0.3 * s, 0.16 * s)
        _dashed(draw, stem, colour, width, 0.3 * s, 0.16 * s)
    else:
        _polyline(draw, stem, WHITE, width + 2)
        _polyline(draw, stem, colour, width)
    _arrowhead(draw, tip, ux, uy, head, colour, outline=WHITE)


def _hexes(items: Any) -> list[str]:
    return [h for h in (items or []) if isinstance(h, str) and is_hex_id(h)]


def _recent_under(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, recent: Mapping[str, Any],
                  occupied: set[str]) -> None:
    """Paths of moves and retreats: drawn before the counters, which they run between; each arrow
    stops at the edge of the counter it points to."""
    s = frame.s
    half_w, half_h, shift = counter_box(s)

    def stop(path: list[str]) -> float:
        if path[-1] not in occupied:
            return 0.0
        (ax, ay), (bx, by) = frame.centre(path[-2]), frame.centre(path[-1])
        ux, uy, _ = _unit(ax, ay, bx, by)
        return _to_rect_edge(ux, uy, half_w, half_h) + 1

    for kind in ("retreats", "moves"):
        for item in recent.get(kind) or []:
            path = [h for h in _hexes(item.get("path")) if scenario.on_map(h)]
            if len(path) < 2:
                continue
            colour = MOVE.get(item.get("side", ""), MOVE["soviet"])
            _move_arrow(draw, [frame.centre(h) for h in path], colour, s, dashed=kind == "retreats",
                        head_at=stop(path))


def _rings(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, recent: Mapping[str, Any]) -> None:
    """Rings round the hexes attacked or barraged: under the counters and their chips, which
    stay readable where they reach the hex edge."""
    for kind, colour in (("barrages", BARRAGE), ("combats", COMBAT)):
        for item in recent.get(kind) or []:
            h = item.get("hex")
            if isinstance(h, str) and scenario.on_map(h):
                ring = frame.corners(h, 0.93)
                draw.line(ring + [ring[0]], fill=colour, width=max(3, round(frame.s / 7)), joint="curve")


def _recent_over(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, recent: Mapping[str, Any],
                 occupied: set[str]) -> None:
    """Over the counters: a short arrow from each attacking counter to the ring of the hex it
    attacked, and the result of each combat and barrage on a chip over the hex number."""
    s = frame.s
    for kind, colour in (("barrages", BARRAGE), ("combats", COMBAT)):
        for item in recent.get(kind) or []:
            h = item.get("hex")
            if not (isinstance(h, str) and scenario.on_map(h)):
                continue
            if kind == "combats":
                _attack_arrows(draw, frame, scenario, h, _hexes(item.get("from")), occupied)
            result = item.get("result")
            if result:
                cx, cy = frame.centre(h)
                fg = WHITE if colour == BARRAGE else INK
                text, size = _fitted(str(result), max(9.0, 0.36 * s), 1.5 * s, 7)
                _tag(draw, (cx, cy - 0.66 * s), text, colour, fg, size)


def _attack_arrows(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, target: str, origins: list[str],
                   occupied: set[str]) -> None:
    s = frame.s
    half_w, half_h, _ = counter_box(s)
    tx, ty = frame.centre(target)
    for origin in origins:
        if not scenario.on_map(origin) or origin == target:
            continue
        ox, oy = frame.centre(origin)
        ux, uy, length = _unit(ox, oy, tx, ty)
        start = 0.9 * _to_rect_edge(ux, uy, half_w, half_h) if origin in occupied else 0.3 * s
        end = length - 0.8 * s  # the ring
        start = min(start, end - 0.4 * s)
        _move_arrow(draw, [(ox + ux * start, oy + uy * start), (ox + ux * end, oy + uy * end)], COMBAT, s,
                    dashed=False, head=0.32 * s)


# -- one role's image -----------------------------------------------------------------------------


def render(view: Mapping[str, Any], frame: Frame | None = None) -> Image.Image:
    """The RGB image of `view` in `frame` (default: the whole map with its legend)."""
    name = str(view.get("scenario") or "campaign")
    scenario = scenario_named(name)
    if frame is None:
        frame = full_frame(name)
        image = base_map(name).copy()
        whole = True
    else:
        image = Image.new("RGB", frame.size, PAPER)
        draw_base(ImageDraw.Draw(image), frame, scenario)
        whole = False
    draw = ImageDraw.Draw(image)
    hexes: Mapping[str, Any] = view.get("hexes") or {}
    shown = {h: st for h, st in hexes.items() if isinstance(h, str) and is_hex_id(h) and scenario.on_map(h)
             and frame.visible(h) and isinstance(st, Mapping)}
    control = view.get("control") or {}
    for h, side in control.items():
        if side in CONTROL and isinstance(h, str) and scenario.on_map(h) and frame.visible(h):
            _control(draw, frame, h, side)
    recent = view.get("recent") or {}
    occupied = {h for h, st in shown.items() if st.get("units")}
    _rings(draw, frame, scenario, recent)
    _recent_under(draw, frame, scenario, recent, occupied)
    for h in sorted(shown):
        _stack(draw, frame, scenario, h, shown[h])
    _recent_over(draw, frame, scenario, recent, occupied)
    if whole:
        box = legend_box(name)
        if box is not None:
            left = box[0] + 12 + font(17).getlength("ACROSS THE NARVA") + 24
            _title(draw, (left, box[1] + 16), box[2] - left - 8, view)
        else:
            _title(draw, (8, 12), frame.size[0] - 16, view)
    else:
        _detail_title(draw, view)
    return image


def _control(draw: ImageDraw.ImageDraw, frame: Frame, h: str, side: str) -> None:
    """A VP hex's number on a chip of its controller's colour."""
    s = frame.s
    cx, cy = frame.centre(h)
    size = number_size(s)
    w = font(size).getlength(h) + size * 0.7
    hh = size * 1.3
    y = cy - 0.66 * s
    draw.rounded_rectangle([cx - w / 2, y - hh / 2, cx + w / 2, y + hh / 2], radius=hh / 3, fill=CONTROL[side])
    _text(draw, (cx, y), h, size, WHITE)


def _who(view: Mapping[str, Any]) -> str:
    role = str(view.get("role") or "observer")
    if role in ("german", "soviet"):
        return f"as the {role.title()} player sees it"
    return f"{role}'s view"


def _when(view: Mapping[str, Any]) -> str:
    """"Turn 3 of 12 (16-22 February) - frozen", as far as the view tells."""
    text = f"Turn {view.get('turn', '?')}"
    if view.get("last_turn"):
        text += f" of {view['last_turn']}"
    if view.get("dates"):
        text += f" ({view['dates']})"
    if "frozen" in view:
        text += " - frozen" if view["frozen"] else " - thaw"
    return text


def _title(draw: ImageDraw.ImageDraw, at: Point, width: float, view: Mapping[str, Any]) -> None:
    """The view's own lines in the legend box: when, whose view, the PD track."""
    x, y = at
    pd = view.get("pd") or {}
    names = {"11SS": "Nordland", "4SS": "Nederland"}
    parts = [_who(view)]
    if isinstance(pd, Mapping) and pd:
        parts.append("PD track: " + ", ".join(
            f"{names.get(d, d)} {v.get('value', '?') if isinstance(v, Mapping) else v}" for d, v in sorted(pd.items())))
    if view.get("fog"):
        parts.append("fog: enemy stacks show their top counter")
    for line, (text, size) in enumerate(((_when(view), 14.0), (" - ".join(parts), 12.0))):
        text, size = _fitted(text, size, width, 9)
        _text(draw, (x, y + line * 20), text, size, INK, anchor="lm")


def _detail_title(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    text = f"{_when(view)} - latest action - {_who(view)}"
    w = font(13).getlength(text) + 12
    draw.rectangle([0, 0, w, 20], fill=PAPER, outline=INK)
    _text(draw, (6, 10), text, 13, INK, anchor="lm")


# -- PNG output ----------------------------------------------------------------------------------


def _pure_colours() -> list[RGB]:
    colours: list[RGB] = [PAPER, INK, WHITE, GRID, NUMBER, TREE, MARSH, CONTOUR, HOUSE, BLOCK, RIVER, RIVER_OPEN,
                          RIVER_MINOR, ICE, ROLLBAHN_CORE, RAIL, CUT, BRIDGE_DECK, GERMAN, GERMAN_DARK, SS, SOVIET,
                          SOVIET_RED, TAN, PIN, OOS, ISOLATED, COMBAT, BARRAGE]
    for table in (TERRAIN, ROUTE, BANDS, MOVE, CONTROL):
        colours.extend(table.values())
    return list(dict.fromkeys(colours))


@lru_cache(maxsize=2)
def palette(scenario_name: str = "campaign") -> Image.Image:
    """One fixed 128-colour palette: every colour the code draws with, plus the blends that
    anti-aliased text makes on the base map and on counters and chips.

    The map is flat colours and text, so 128 colours lose nothing visible and keep PNGs small;
    a fixed palette keeps a pixel's colour the same in every image whatever else changed."""
    pure = _pure_colours()
    base = base_map(scenario_name)
    # text as counters and chips show it: every text colour on every colour, small and large
    cells = [(bg, fg) for bg in pure for fg in (INK, WHITE, TAN, NUMBER)]
    per_row = base.width // 28
    strip = Image.new("RGB", (base.width, 60 * math.ceil(len(cells) / per_row)), PAPER)
    draw = ImageDraw.Draw(strip)
    for i, (bg, fg) in enumerate(cells):
        x, y = (i % per_row) * 28, (i // per_row) * 60
        draw.rectangle([x, y, x + 27, y + 59], fill=bg)
        _text(draw, (x + 14, y + 15), "38", 10, fg)
        _text(draw, (x + 14, y + 40), "4-6", 15, fg)
    sample = Image.new("RGB", (base.width, base.height + strip.height))
    sample.paste(base, (0, 0))
    sample.paste(strip, (0, base.height))
    blends = sample.quantize(colors=128 - len(pure), method=Image.Quantize.FASTOCTREE)
    extra = blends.getpalette()[: 3 * (128 - len(pure))]
    flat = [c for colour in pure for c in colour] + list(extra)
    flat += flat[-3:] * (256 - len(flat) // 3)  # pad with a repeat: unused entries must not be black
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def png(image: Image.Image, scenario_name: str = "campaign") -> bytes:
    buffer = io.BytesIO()
    image.quantize(palette=palette(scenario_name), dither=Image.Dither.NONE).save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


def draw_map(view: Mapping[str, Any]) -> bytes:
    """The whole map as the view's role sees it: terrain, counters, markers, control and the
    latest activation, with the legend and title in the sea."""
    return png(render(view), str(view.get("scenario") or "campaign"))


def focus_hexes(view: Mapping[str, Any]) -> list[str]:
    name = str(view.get("scenario") or "campaign")
    scenario = scenario_named(name)
    recent = view.get("recent") or {}
    return [h for h in _hexes(recent.get("focus")) if scenario.on_map(h)]


def draw_detail(view: Mapping[str, Any]) -> bytes | None:
    """A close-up (`DETAIL_SIZE`, large hex numbers) round `view["recent"]["focus"]`, or None if
    the latest activation has no focus."""
    focus = focus_hexes(view)
    if not focus:
        return None
    name = str(view.get("scenario") or "campaign")
    return png(render(view, detail_frame(name, focus)), name)

