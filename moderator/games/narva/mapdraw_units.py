"""What the Across the Narva map draws over the terrain for one view: counters and their marker
chips, and the latest activation (paths of moves and retreats, rings round combats and barrages,
attack arrows and results).

Hex anatomy, from top to bottom: hex number, counter (its top and bottom stay inside the flat
sides, so a counter never hides a neighbour), place name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from moderator.games.narva.mapdraw_frame import Frame
from moderator.games.narva.mapdraw_style import (
    BANDS,
    BARRAGE,
    COMBAT,
    GERMAN,
    INK,
    ISOLATED,
    MOVE,
    OOS,
    PIN,
    SOVIET,
    SS,
    TAN,
    WHITE,
)
from moderator.games.narva.scenario import Scenario
from moderator.maps.hexes import is_hex_id
from moderator.render.drawing import (
    RGB,
    Point,
    draw_arrowhead,
    draw_dashed,
    draw_polyline,
    draw_text,
    fit_text,
    font,
    unit_vector,
)

# -- counters and markers -----------------------------------------------------------------------


#: Counter text smaller than this many pixels is drawn without anti-aliasing, like the hex numbers: at
#: the whole map's 8-9 px it reads as well or better (looked at side by side), and its blended edge
#: pixels cost about 4% of a Narva map's PNG bytes (issue 12's 3 MB a player a game); the close-up's
#: larger text stays smooth.
CRISP_BELOW = 12


def counter_box(s: float) -> tuple[float, float, float]:
    """Half width, half height and downward shift of a counter: it stays clear of the hex number
    above and mostly of the place name below, and inside the hex."""
    return 0.6 * s, 0.49 * s, 0.06 * s


def counter(draw: ImageDraw.ImageDraw, at: Point, unit: Mapping[str, Any], s: float, band: RGB | None,
            ss: bool, keep_clear: tuple[float, float] = (0.0, 0.0)) -> None:
    """One counter: body in the side's colour, formation band on top, name (centred in the room left
    between the chips that lie over its left and right edges, `keep_clear` pixels on each side), and
    attack-defense-movement (on a light stripe when reduced; an HQ shows a flag and its movement)."""
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
    clear_left, clear_right = keep_clear
    text, size = fit_text(label, 0.4 * s, 2 * half_w - clear_left - clear_right - 3, 7)
    draw_text(draw, (x + (clear_left - clear_right) / 2, inner_top + row * 0.5 + 1), text, size, fg,
              crisp=size < CRISP_BELOW)
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
        draw_text(draw, (x + 0.2 * s, values_y), str(movement), 0.38 * s, value_fg, crisp=0.38 * s < CRISP_BELOW)
    else:
        values = f"{unit.get('attack', '?')}-{unit.get('defense', '?')}-{movement}"
        text, size = fit_text(values, 0.4 * s, 2 * half_w - 3, 7)
        draw_text(draw, (x, values_y), text, size, value_fg, crisp=size < CRISP_BELOW)


def _flag(draw: ImageDraw.ImageDraw, at: Point, h: float, colour: RGB) -> None:
    x, y = at
    draw.line([(x - h * 0.35, y - h * 0.55), (x - h * 0.35, y + h * 0.55)], fill=colour, width=max(1, round(h / 6)))
    draw.polygon([(x - h * 0.35, y - h * 0.55), (x + h * 0.55, y - h * 0.3), (x - h * 0.35, y - h * 0.05)], fill=colour)


def tag(draw: ImageDraw.ImageDraw, at: Point, text: str, fill: RGB, fg: RGB, size: float) -> None:
    """A small marker chip centred at `at`."""
    x, y = at
    w = tag_width(text, size)
    h = size * 1.25
    draw.rounded_rectangle([x - w / 2, y - h / 2, x + w / 2, y + h / 2], radius=h / 4, fill=fill, outline=INK)
    draw_text(draw, (x, y + 0.5), text, size, fg, crisp=size < CRISP_BELOW)


def tag_width(text: str, size: float) -> float:
    return font(size).getlength(text) + size * 0.5


def draw_stack(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, h: str, stack: Mapping[str, Any]) -> None:
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
    overlap = {-1.0: 0.0, 1.0: 0.0}  # how far each chip reaches over the counter's left and right edge
    for sign, text, _fill, _fg in chips:
        w = tag_width(text, tag_size)
        places.append((cx + sign * min(half_w + w / 2 - 1, room - w / 2), w))
        overlap[sign] = max(0.0, half_w - (abs(places[-1][0] - cx) - w / 2))
    if units:
        band, ss = _formation_look(scenario, units[0])
        # The name keeps clear of the chips on its own side only, so that a stack's "x2" does not cut a
        # four-digit name ("1074") short where the left edge is free.
        counter(draw, at, units[0], s, band, ss, keep_clear=(overlap[-1.0], overlap[1.0]))
    for (_sign, text, fill, fg), (x, _) in zip(chips, places, strict=True):
        tag(draw, (x, y), text, fill, fg, tag_size)
    marker = stack.get("marker")
    if marker:
        text, fill, fg = {"OOS": ("OOS", OOS, INK), "ISOLATED": ("ISO", ISOLATED, WHITE)}.get(
            str(marker), (str(marker)[:4], OOS, INK))
        tag(draw, (cx, at[1] + half_h + 0.1 * s), text, fill, fg, tag_size)


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


def to_rect_edge(ux: float, uy: float, half_w: float, half_h: float) -> float:
    """Distance from a rectangle's centre to its edge along the unit direction (ux, uy)."""
    tx = half_w / abs(ux) if abs(ux) > 1e-9 else math.inf
    ty = half_h / abs(uy) if abs(uy) > 1e-9 else math.inf
    return min(tx, ty)



def move_arrow(draw: ImageDraw.ImageDraw, points: Sequence[Point], colour: RGB, s: float, dashed: bool,
               head_at: float = 0.0, head: float | None = None) -> None:
    """A path with a white casing (so it reads on woods and roads) and an arrowhead `head_at`
    pixels short of its last point."""
    if len(points) < 2:
        return
    (ax, ay), (bx, by) = points[-2], points[-1]
    ux, uy, length = unit_vector(ax, ay, bx, by)
    head = max(7.0, 0.42 * s if head is None else head)
    end = min(head_at, max(0.0, length - head))
    tip = (bx - ux * end, by - uy * end)
    stem = list(points[:-1]) + [(tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8)]
    width = max(3, round(0.14 * s))
    if len(points) == 2 and length - end - head * 0.8 <= 0:
        pass  # only room for the head
    elif dashed:
        draw_dashed(draw, stem, WHITE, width + 2, 0.3 * s, 0.16 * s)
        draw_dashed(draw, stem, colour, width, 0.3 * s, 0.16 * s)
    else:
        draw_polyline(draw, stem, WHITE, width + 2)
        draw_polyline(draw, stem, colour, width)
    draw_arrowhead(draw, tip, ux, uy, head, colour, outline=WHITE)


def hexes_in(items: Any) -> list[str]:
    return [h for h in (items or []) if isinstance(h, str) and is_hex_id(h)]


def draw_paths(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, recent: Mapping[str, Any],
               occupied: set[str]) -> None:
    """Paths of moves and retreats: drawn before the counters, which they run between; each arrow
    stops at the edge of the counter it points to."""
    s = frame.s
    half_w, half_h, _shift = counter_box(s)

    def stop(path: list[str]) -> float:
        if path[-1] not in occupied:
            return 0.0
        (ax, ay), (bx, by) = frame.centre(path[-2]), frame.centre(path[-1])
        ux, uy, _ = unit_vector(ax, ay, bx, by)
        return to_rect_edge(ux, uy, half_w, half_h) + 1

    for kind in ("retreats", "moves"):
        for item in recent.get(kind) or []:
            path = [h for h in hexes_in(item.get("path")) if scenario.on_map(h)]
            if len(path) < 2:
                continue
            colour = MOVE.get(item.get("side", ""), MOVE["soviet"])
            move_arrow(draw, [frame.centre(h) for h in path], colour, s, dashed=kind == "retreats",
                       head_at=stop(path))


def draw_rings(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, recent: Mapping[str, Any]) -> None:
    """Rings round the hexes attacked or barraged: under the counters and their chips, which
    stay readable where they reach the hex edge."""
    for kind, colour in (("barrages", BARRAGE), ("combats", COMBAT)):
        for item in recent.get(kind) or []:
            h = item.get("hex")
            if isinstance(h, str) and scenario.on_map(h):
                ring = frame.corners(h, 0.93)
                draw.line(ring + [ring[0]], fill=colour, width=max(3, round(frame.s / 7)), joint="curve")


def draw_results(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, recent: Mapping[str, Any],
                 occupied: set[str]) -> None:
    """Over the counters: a short arrow from each attacking counter to the ring of the hex it
    attacked, and the result of each combat and barrage on a chip over the hex number.  Where
    several actions hit one hex, their chips line up in the order they happened, in rows from the
    hex number down (`result_chips`), so every result the report lists stays readable."""
    chips = result_chips(frame, recent)
    for kind, colour in (("barrages", BARRAGE), ("combats", COMBAT)):
        for index, item in enumerate(recent.get(kind) or []):
            h = item.get("hex")
            if not (isinstance(h, str) and scenario.on_map(h)):
                continue
            if kind == "combats":
                _attack_arrows(draw, frame, scenario, h, hexes_in(item.get("from")), occupied)
            chip = chips.get((kind, index))
            if chip is not None:
                at, text, size = chip
                tag(draw, at, text, colour, WHITE if colour == BARRAGE else INK, size)


def result_chips(frame: Frame, recent: Mapping[str, Any]) -> dict[tuple[str, int], tuple[Point, str, float]]:
    """{(kind, index in its list): (centre, text, font size)} of every result chip.  A hex's chips
    go in the order the actions happened (their `order` in the view; without it barrages, then
    combats, as listed), left to right in rows no wider than one chip may be, the first row over the
    hex number and the next ones below it.  A lone chip sits centred over the number."""
    s = frame.s
    widest = 1.5 * s
    gap = 1.0
    found: dict[str, list[tuple[float, int, int, str, str]]] = {}
    for rank, kind in enumerate(("barrages", "combats")):
        for index, item in enumerate(recent.get(kind) or []):
            h, order, result = item.get("hex"), item.get("order"), item.get("result")
            if isinstance(h, str) and is_hex_id(h) and result:
                when = float(order) if isinstance(order, int) else math.inf
                found.setdefault(h, []).append((when, rank, index, kind, str(result)))
    chips: dict[tuple[str, int], tuple[Point, str, float]] = {}
    for h, results in found.items():
        cx, cy = frame.centre(h)
        rows: list[list[tuple[str, int, str, float, float]]] = [[]]
        for _when, _rank, index, kind, result in sorted(results):
            text, size = fit_text(result, max(9.0, 0.36 * s), widest, 7)
            width = tag_width(text, size)
            row = rows[-1]
            if row and sum(w for *_, w in row) + gap * len(row) + width > widest:
                rows.append(row := [])
            row.append((kind, index, text, size, width))
        pitch = max(9.0, 0.36 * s) * 1.25 + gap  # one chip's height, and the gap
        for line, row in enumerate(rows):
            left = -(sum(w for *_, w in row) + gap * (len(row) - 1)) / 2  # from the centre: a lone chip at 0
            for kind, index, text, size, width in row:
                chips[(kind, index)] = ((cx + (left + width / 2), cy - 0.66 * s + line * pitch), text, size)
                left += width + gap
    return chips


def _attack_arrows(draw: ImageDraw.ImageDraw, frame: Frame, scenario: Scenario, target: str, origins: list[str],
                   occupied: set[str]) -> None:
    s = frame.s
    half_w, half_h, _ = counter_box(s)
    tx, ty = frame.centre(target)
    for origin in origins:
        if not scenario.on_map(origin) or origin == target:
            continue
        ox, oy = frame.centre(origin)
        ux, uy, length = unit_vector(ox, oy, tx, ty)
        start = 0.9 * to_rect_edge(ux, uy, half_w, half_h) if origin in occupied else 0.3 * s
        end = length - 0.8 * s  # the ring
        start = min(start, end - 0.4 * s)
        move_arrow(draw, [(ox + ux * start, oy + uy * start), (ox + ux * end, oy + uy * end)], COMBAT, s,
                   dashed=False, head=0.32 * s)
