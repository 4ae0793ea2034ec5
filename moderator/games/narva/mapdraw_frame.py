"""Which part of the Across the Narva map an image shows, at what scale: the whole map, or a
close-up round the latest action.

All geometry comes from `moderator.maps.hexes.HexLayout` through a `Frame` (a layout plus the
pixel window shown), and every length is a fraction of the hex size ``s`` (centre to corner), so
the full map (s = 26) and the detail image (s = 44) share one drawing code and differ in scale only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from moderator.games.narva.mapdraw_style import DETAIL_HEX, DETAIL_MIN_HEX, DETAIL_SIZE, HEX, MARGIN
from moderator.games.narva.scenario import Scenario, scenario_named
from moderator.maps.hexes import HexLayout
from moderator.render.drawing import Point


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
    return HexLayout(grid=scenario.grid, size=size, columns=g.columns, rows=g.rows,
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
