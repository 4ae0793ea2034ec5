"""The VMT map as a PNG, drawn from scenario geometry (a base image cached per scenario) and one
role's view (blocks as that role may see them, markers, control).

Text, palettes and PNG encoding are the helpers every game's map shares (`moderator.render.drawing`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from moderator.games.vmt.scenario import scenario_named
from moderator.maps.cells import WATER, area_cells
from moderator.render.drawing import draw_text, encode_png, font, sampled_palette, stacked

WIDTH = 800  # pixels: readable at e-mail width
LEGEND = 96

SEA = (168, 199, 222)
CLEAR = (238, 232, 210)
ROUGH = (214, 201, 164)
EDGE_HATCH = (150, 150, 150)
BORDER = (95, 80, 60)
RIVER = (40, 100, 200)
AXIS = (110, 110, 110)
AXIS_LIGHT = (200, 200, 200)
SOVIET = (178, 34, 34)
SOVIET_LIGHT = (240, 190, 180)
INK = (25, 25, 25)


@lru_cache(maxsize=4)
def geometry(scenario_name: str, width: int = WIDTH):
    scenario = scenario_named(scenario_name)
    geo = scenario.map.geometry
    scale = width / geo.width
    centres = {a.id: a.at for a in scenario.map.areas}
    weights = {a.id: a.weight for a in scenario.map.areas}
    labels, ids = area_cells(centres, geo.land, geo.width, geo.height, scale, weights, geo.water)
    return scenario, scale, labels, ids


@lru_cache(maxsize=4)
def base_map(scenario_name: str, width: int = WIDTH) -> Image.Image:
    """Terrain, coast, borders, rivers, ditches, ferries, features and names: drawn once.  The area ids
    and batteries are drawn over the blocks instead (`_labels`): a row of three blocks is wider than its
    area's share of the map and would hide a neighbour's."""
    scenario, scale, labels, ids = geometry(scenario_name, width)
    h, w = labels.shape
    rgb = np.zeros((h, w, 3), dtype=np.uint8)
    rgb[:] = SEA
    for index, area_id in enumerate(ids):
        area = scenario.area(area_id)
        rgb[labels == index] = ROUGH if area.terrain == "rough" else CLEAR
    # Axis map-edge areas carry grey diagonal hatching (L423).
    yy, xx = np.mgrid[0:h, 0:w]
    stripes = ((xx + yy) // 6) % 4 == 0
    for index, area_id in enumerate(ids):
        if scenario.area(area_id).axis_edge:
            rgb[(labels == index) & stripes] = (200, 196, 186)
    image = Image.fromarray(rgb, "RGB")
    draw = ImageDraw.Draw(image)
    # Borders between cells; rivers in blue, AT ditches with teeth.
    edges = _edge_pixels(labels)
    for (a, b), pixels in edges.items():
        border = scenario.border(ids[a], ids[b])
        kind = border.kind if border else "land"
        colour = RIVER if (kind == "river" or (border and border.river)) else BORDER
        size = 2 if colour == RIVER else 1
        for y, x in pixels[:: 1]:
            draw.rectangle([x, y, x + size - 1, y + size - 1], fill=colour)
        if kind == "ditch":
            _teeth(draw, pixels, scenario, ids, labels, border, scale)
    # Ferry arrows across the bay (L376).
    for border in scenario.map.borders:
        if border.kind == "ferry":
            a = scenario.area(border.a).at
            b = scenario.area(border.b).at
            _dashed_arrow(draw, (a[0] * scale, a[1] * scale), (b[0] * scale, b[1] * scale))
    for area in scenario.map.areas:
        x, y = area.at[0] * scale, area.at[1] * scale
        if area.trench:
            _trench(draw, x, y - 20, SOVIET if area.trench == "soviet" else AXIS)
        if area.airbase:
            _airbase(draw, x - 24, y - 30)
        if area.anchor:
            _anchor(draw, x - 24, y - 16)
        if area.vp:
            _banner(draw, x + 22, y - 16, area.vp)
        if area.urban or area.sevastopol:
            draw_text(draw, (x, y + 30), area.name.split(" (")[0], 12 if area.sevastopol else 10, (60, 60, 60))
    return image


def _edge_pixels(labels: np.ndarray) -> dict[tuple[int, int], list[tuple[int, int]]]:
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    right = (labels[:, :-1] != labels[:, 1:]) & (labels[:, :-1] != WATER) & (labels[:, 1:] != WATER)
    down = (labels[:-1, :] != labels[1:, :]) & (labels[:-1, :] != WATER) & (labels[1:, :] != WATER)
    for y, x in zip(*np.nonzero(right), strict=True):
        a, b = int(labels[y, x]), int(labels[y, x + 1])
        edges.setdefault((min(a, b), max(a, b)), []).append((int(y), int(x)))
    for y, x in zip(*np.nonzero(down), strict=True):
        a, b = int(labels[y, x]), int(labels[y + 1, x])
        edges.setdefault((min(a, b), max(a, b)), []).append((int(y), int(x)))
    # coastline
    coast = np.zeros(labels.shape, dtype=bool)
    land = labels != WATER
    coast[:, :-1] |= land[:, :-1] != land[:, 1:]
    coast[:-1, :] |= land[:-1, :] != land[1:, :]
    edges[(-1, -1)] = [(int(y), int(x)) for y, x in zip(*np.nonzero(coast), strict=True)]
    return edges


def _teeth(draw, pixels, scenario, ids, labels, border, scale) -> None:
    """Small triangles along an AT ditch, pointing toward the side the armor must come from (L352)."""
    target = scenario.area(border.teeth_from).at
    tx, ty = target[0] * scale, target[1] * scale
    for y, x in pixels[::9]:
        dx, dy = tx - x, ty - y
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        tip = (x + ux * 6, y + uy * 6)
        left = (x - uy * 3, y + ux * 3)
        rightp = (x + uy * 3, y - ux * 3)
        draw.polygon([left, rightp, tip], fill=(60, 40, 20))


def _dashed_arrow(draw, a, b) -> None:
    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    start, stop = 18, length - 18
    t = start
    while t < stop:
        draw.line([(ax + ux * t, ay + uy * t), (ax + ux * min(t + 7, stop), ay + uy * min(t + 7, stop))],
                  fill=(20, 60, 160), width=3)
        t += 12
    for end, sign in (((ax + ux * start, ay + uy * start), -1), ((ax + ux * stop, ay + uy * stop), 1)):
        ex, ey = end
        draw.polygon([(ex + sign * ux * 8, ey + sign * uy * 8), (ex - uy * 5, ey + ux * 5), (ex + uy * 5, ey - ux * 5)],
                     fill=(20, 60, 160))


def _trench(draw, x, y, colour) -> None:
    points = [(x - 12 + i * 4, y + (2 if i % 2 else -2)) for i in range(7)]
    draw.line(points, fill=colour, width=2)


def _battery(draw, x, y) -> None:
    draw.ellipse([x - 6, y - 6, x + 6, y + 6], fill=INK)
    draw.line([(x, y), (x + 9, y - 6)], fill=INK, width=3)


def _airbase(draw, x, y) -> None:
    draw.line([(x - 7, y), (x + 7, y)], fill=(30, 60, 120), width=3)
    draw.line([(x, y - 6), (x, y + 6)], fill=(30, 60, 120), width=2)
    draw.line([(x - 3, y + 5), (x + 3, y + 5)], fill=(30, 60, 120), width=2)


def _anchor(draw, x, y) -> None:
    draw.line([(x, y - 6), (x, y + 5)], fill=(20, 40, 120), width=2)
    draw.arc([x - 6, y - 3, x + 6, y + 7], 0, 180, fill=(20, 40, 120), width=2)
    draw.line([(x - 4, y - 4), (x + 4, y - 4)], fill=(20, 40, 120), width=2)


def _banner(draw, x, y, vp) -> None:
    draw.rectangle([x - 7, y - 7, x + 7, y + 7], fill=SOVIET, outline=INK)
    draw_text(draw, (x, y), str(vp), 11, (255, 255, 255))


@lru_cache(maxsize=2)
def palette(scenario_name: str = "campaign") -> Image.Image:
    """One fixed palette per scenario: the base map's colours plus every overlay colour.

    The map is flat colours and text, so 128 colours lose nothing visible, halve the size of every
    mail and encode in a third of the time; a fixed palette keeps a pixel's colour the same in every
    image whatever else changed (the map tests compare pixels)."""
    base = base_map(scenario_name)
    swatches = Image.new("RGB", (base.width, 40), (250, 248, 240))
    draw = ImageDraw.Draw(swatches, "RGBA")
    colours = [AXIS, AXIS_LIGHT, SOVIET, SOVIET_LIGHT, INK, (255, 235, 120), (230, 120, 0), (200, 40, 0),
               (120, 60, 160), (255, 255, 255), (20, 60, 160), (30, 60, 120)]
    for i, colour in enumerate(colours):
        draw.rectangle([i * 30, 0, i * 30 + 28, 18], fill=colour)
        for j, under in enumerate((CLEAR, ROUGH, SEA)):
            draw.rectangle([i * 30 + j * 9, 20, i * 30 + j * 9 + 8, 38], fill=under)
            draw.rectangle([i * 30 + j * 9, 20, i * 30 + j * 9 + 8, 38], fill=colour + (170,))
    return sampled_palette(stacked(base, swatches))


def png(image: Image.Image) -> bytes:
    return encode_png(image, palette())


def draw_map(view: Mapping[str, Any]) -> bytes:
    """One role's map: control, blocks as that role sees them, markers, this phase's action; a legend."""
    return png(render(view))


def draw_detail(view: Mapping[str, Any]) -> bytes | None:
    """A closer look where this phase's action was (twice the size), or None if nothing happened."""
    areas = {a for r in view.get("recent", []) for a in (r.get("path") or [r.get("area")]) if a}
    if not areas:
        return None
    name = view.get("scenario", "campaign")
    scenario, scale, _labels, _ids = geometry(name)
    image = render(view, legend=False)
    xs = [scenario.area(a).at[0] * scale for a in areas]
    ys = [scenario.area(a).at[1] * scale for a in areas]
    margin = 70
    left, right = max(0, min(xs) - margin), min(image.width, max(xs) + margin)
    top, bottom = max(0, min(ys) - margin), min(image.height, max(ys) + margin)
    wanted = max(right - left, WIDTH / 2)  # at least half the map wide, so the detail is e-mail wide
    centre = (left + right) / 2
    left = min(max(0, centre - wanted / 2), image.width - wanted)
    right = left + wanted
    crop = image.crop((int(left), int(top), int(right), int(bottom)))
    # Each pixel doubled, not resampled: the same flat colours, which compress (a smoothly enlarged
    # crop's blended pixels made the detail three times the bytes).
    return png(crop.resize((crop.width * 2, crop.height * 2), Image.Resampling.NEAREST))


def render(view: Mapping[str, Any], width: int = WIDTH, legend: bool = True) -> Image.Image:
    name = view.get("scenario", "campaign")
    scenario, scale, labels, _ids = geometry(name, width)
    base = base_map(name, width)
    h, w = labels.shape
    image = Image.new("RGB", (w, h + (LEGEND if legend else 0)), (250, 248, 240))
    image.paste(base, (0, 0))
    draw = ImageDraw.Draw(image, "RGBA")
    areas = {a["id"]: a for a in view["areas"]}
    me = view.get("side")
    combat = view.get("combat") or {}
    _recent(draw, scenario, scale, view.get("recent", []))
    drawn: list[Box] = []  # every block and marker, which the area ids then keep clear of
    for area_id, area in areas.items():
        info = scenario.area(area_id)
        x, y = info.at[0] * scale, info.at[1] * scale
        colour = AXIS if area["control"] == "axis" else SOVIET
        draw.rectangle([x - 30, y - 42, x + 30, y - 38], fill=colour + (200,))  # control stripe
        if area_id == combat.get("area"):
            draw.ellipse([x - 40, y - 40, x + 40, y + 40], outline=(230, 120, 0, 255), width=4)
        drawn += _blocks(draw, area, x, y, me)
        drawn += _markers(draw, area, x, y)
    _labels(draw, scenario, scale, drawn)
    if legend:
        _legend(draw, h, w, view)
    return image


#: The pale outline round an area id drawn over blocks: the id stays readable on any block colour.
HALO = (250, 248, 240)
Box = tuple[float, float, float, float]
#: Where an area's id may go, from its centre, in order of preference: above its blocks (under its control
#: stripe), above the stripe, below its blocks, beside, lower still.  The first clear of every block and
#: marker wins.
LABEL_PLACES = ((0, -30), (0, -50), (0, 26), (-34, -30), (34, -30), (0, 44))
LABEL_HALF = (11, 6)  # half the width and height of an area id (three letters at 11 px), with its halo


def _labels(draw, scenario, scale, drawn: list[Box]) -> None:
    """Every area's id, with a halo, where no block or marker covers it (a row of three blocks is wider
    than its area's share of the map); if every place is covered, the usual one, on top.  Then the
    batteries, over the blocks too (a marker of the next area hid B09's)."""
    for area_id, place in label_places(scenario, scale, drawn).items():
        draw_text(draw, place, area_id, 11, INK, halo=HALO)
    for area in scenario.map.areas:
        if area.battery:
            _battery(draw, area.at[0] * scale + 22, area.at[1] * scale - 30)


def label_places(scenario, scale, drawn: list[Box]) -> dict[str, tuple[float, float]]:
    """Each area id's centre: the first of LABEL_PLACES clear of the boxes drawn and the towns' names."""
    taken = drawn + [_name_box(area, scale) for area in scenario.map.areas if area.urban or area.sevastopol]
    places = {}
    for area in scenario.map.areas:
        x, y = area.at[0] * scale, area.at[1] * scale
        candidates = [(x + dx, y + dy) for dx, dy in LABEL_PLACES]
        places[area.id] = next((p for p in candidates if not any(_overlap(label_box(p), box) for box in taken)),
                               candidates[0])
    return places


def _name_box(area, scale) -> Box:
    """Where the base map wrote a town's name ("Balaklava"), as `base_map` draws it."""
    x, y = area.at[0] * scale, area.at[1] * scale + 30
    size = 12 if area.sevastopol else 10
    half = font(size).getlength(area.name.split(" (")[0]) / 2
    return x - half, y - size / 2, x + half, y + size / 2


def label_box(centre: tuple[float, float]) -> Box:
    (x, y), (hw, hh) = centre, LABEL_HALF
    return x - hw, y - hh, x + hw, y + hh


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _recent(draw, scenario, scale, recent) -> None:
    """This phase's moves as arrows, its combats and bombardments as rings."""
    for item in recent:
        colour = (AXIS if item.get("side") == "axis" else SOVIET) + (170,)
        if item["kind"] in ("move", "retreat"):
            points = [(scenario.area(a).at[0] * scale, scenario.area(a).at[1] * scale) for a in item["path"]]
            for (ax, ay), (bx, by) in itertools.pairwise(points):
                _arrow(draw, (ax, ay), (bx, by), colour, dashed=item["kind"] == "retreat")
        elif item["kind"] in ("combat", "fire"):
            x, y = scenario.area(item["area"]).at[0] * scale, scenario.area(item["area"]).at[1] * scale
            ring = (200, 40, 0, 200) if item["kind"] == "combat" else (120, 60, 160, 190)
            draw.ellipse([x - 36, y - 36, x + 36, y + 36], outline=ring, width=3)


def _arrow(draw, a, b, colour, dashed: bool = False) -> None:
    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    start, stop = 14, length - 22
    if stop <= start:
        return
    if dashed:
        t = start
        while t < stop:
            draw.line([(ax + ux * t, ay + uy * t), (ax + ux * min(t + 6, stop), ay + uy * min(t + 6, stop))],
                      fill=colour, width=4)
            t += 10
    else:
        draw.line([(ax + ux * start, ay + uy * start), (ax + ux * stop, ay + uy * stop)], fill=colour, width=5)
    tip = (ax + ux * (stop + 10), ay + uy * (stop + 10))
    draw.polygon([tip, (ax + ux * stop - uy * 8, ay + uy * stop + ux * 8),
                  (ax + ux * stop + uy * 8, ay + uy * stop - ux * 8)], fill=colour)


def _blocks(draw, area, x, y, me) -> list[Box]:
    """The area's blocks, a row per side; returns the boxes drawn."""
    boxes: list[Box] = []
    rows = []
    for side in ("axis", "soviet"):
        if area.get(f"{side}_count"):
            rows.append(side)
    top = y - 12 if len(rows) < 2 else y - 22
    for row, side in enumerate(rows):
        fill = AXIS if side == "axis" else SOVIET
        light = AXIS_LIGHT if side == "axis" else SOVIET_LIGHT
        known = area.get(f"{side}_blocks")
        count = area[f"{side}_count"]
        exhausted = area[f"{side}_exhausted"]
        by = top + row * 22
        if known is not None:
            bw = 36
            left = x - (len(known) * (bw + 2)) / 2
            for i, block in enumerate(known):
                bx = left + i * (bw + 2)
                box = [bx, by, bx + bw, by + 18]
                boxes.append((bx, by, bx + bw, by + 18))
                draw.rectangle(box, fill=light if block["exhausted"] else fill, outline=INK)
                label = block["id"].split("/")[-1][:5]
                text_colour = INK if block["exhausted"] else (255, 255, 255)
                draw_text(draw, (bx + bw / 2, by + 6), label, 9, text_colour)
                draw_text(draw, (bx + bw / 2, by + 14), f"{block['sp']}", 9, text_colour)
        else:
            bw = 16
            left = x - (count * (bw + 2)) / 2
            for i in range(count):
                bx = left + i * (bw + 2)
                lying = i < exhausted
                box = [bx, by + (6 if lying else 0), bx + bw, by + 18]
                boxes.append((bx, by, bx + bw, by + 18))
                draw.rectangle(box, fill=light if lying else fill, outline=INK)
    return boxes


def _markers(draw, area, x, y) -> list[Box]:
    """The area's markers and assets as tags; returns the boxes drawn."""
    boxes: list[Box] = []
    tags = [m.upper()[:4] for m in area["markers"]]
    tags += [f"{a['id']}:{a['steps']}" for a in area["assets"]]
    if area.get("trench_disabled"):
        tags.append("NoTR")
    if area.get("battery_destroyed"):
        tags.append("B-X")
    for i, tag in enumerate(tags[:4]):
        tx = x - 30 + (i % 2) * 32
        ty = y + 12 + (i // 2) * 13
        draw.rectangle([tx, ty, tx + 30, ty + 11], fill=(255, 235, 120, 230), outline=INK)
        draw_text(draw, (tx + 15, ty + 6), tag, 8, INK)
        boxes.append((tx, ty, tx + 30, ty + 11))
    return boxes


def _legend(draw, top, width, view) -> None:
    y = top + 8
    side = view.get("side")
    who = f"as the {side.title()} player sees it" if side else "public view"
    title = (f"Turn {view['turn']}/{view['turns']} ({view['dates']}) - VP Axis {view['vp']['axis']}, "
             f"Soviet {view['vp']['soviet']} - {who}")
    draw_text(draw, (8, y), title, 12, INK, anchor="la")
    y += 20
    items = [(AXIS, "Axis block / control"), (SOVIET, "Soviet block / control"),
             ((AXIS_LIGHT, SOVIET_LIGHT), "exhausted block: pale grey / pink"), (ROUGH, "rough terrain"),
             (RIVER, "river"), ((255, 235, 120), "marker / asset")]
    for i, (colour, text) in enumerate(items):
        x = 8 + (i % 3) * 260
        yy = y + (i // 3) * 18
        if isinstance(colour[0], tuple):  # an exhausted block is pale in its side's colour: both halves
            draw.rectangle([x, yy, x + 7, yy + 12], fill=colour[0])
            draw.rectangle([x + 7, yy, x + 14, yy + 12], fill=colour[1])
            draw.rectangle([x, yy, x + 14, yy + 12], outline=INK)
        else:
            draw.rectangle([x, yy, x + 14, yy + 12], fill=colour, outline=INK)
        draw_text(draw, (x + 20, yy + 6), text, 11, INK, anchor="lm")
    y += 40
    key = ("Red square: VP banner. Black dot: coastal battery. Zigzag: trench. Dashed arrows: ferries. "
           "Hatching: Axis map edge.")
    draw_text(draw, (8, y), key, 10, (70, 70, 70), anchor="la")
