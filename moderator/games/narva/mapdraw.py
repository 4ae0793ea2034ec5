"""The Across the Narva map as PNG images: one role's view over the cached base map - counters,
markers, control and the latest activation (`draw_map`), or a close-up where that activation
happened (`draw_detail`).

The drawing is split by what changes: `mapdraw_style` (sizes, colours), `mapdraw_frame` (which
part of the map at what scale), `mapdraw_base` (the static map and legend, drawn once per
scenario), `mapdraw_units` (counters, markers, the latest activation); this module puts one
view's image together.  Colours go through one fixed palette (`palette`) so that a pixel only
changes where something drawn there changed: the tests compare pixels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from moderator.games.narva.mapdraw_base import base_map, draw_base, legend_box, number_size
from moderator.games.narva.mapdraw_frame import Frame, detail_frame, full_frame
from moderator.games.narva.mapdraw_style import CONTROL, INK, NUMBER, PAPER, TAN, WHITE, pure_colours
from moderator.games.narva.mapdraw_units import draw_paths, draw_results, draw_rings, draw_stack, hexes_in
from moderator.games.narva.scenario import scenario_named
from moderator.maps.hexes import is_hex_id
from moderator.render.drawing import Point, draw_text, encode_png, fit_text, fixed_palette, font, stacked


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
    draw_rings(draw, frame, scenario, recent)
    draw_paths(draw, frame, scenario, recent, occupied)
    for h in sorted(shown):
        draw_stack(draw, frame, scenario, h, shown[h])
    draw_results(draw, frame, scenario, recent, occupied)
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
    draw_text(draw, (cx, y), h, size, WHITE)


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


def _pd_state(marker: Any) -> str:
    """A PD marker as the title shows it: its column shift, and the boxes left above zero (2.2.10)."""
    if not isinstance(marker, Mapping):
        return str(marker)
    left = f" ({marker['left']}/{marker['boxes']})" if "left" in marker and "boxes" in marker else ""
    return f"{marker.get('value', '?')}{left}"


def _title(draw: ImageDraw.ImageDraw, at: Point, width: float, view: Mapping[str, Any]) -> None:
    """The view's own lines in the legend box: when, whose view, the PD track."""
    x, y = at
    pd = view.get("pd") or {}
    names = {"11SS": "Nordland", "4SS": "Nederland"}
    parts = [_who(view)]
    if isinstance(pd, Mapping) and pd:
        parts.append("PD track: " + ", ".join(f"{names.get(d, d)} {_pd_state(v)}" for d, v in sorted(pd.items())))
    if view.get("fog"):
        parts.append("fog: enemy stacks show their top counter")
    for line, (text, size) in enumerate(((_when(view), 14.0), (" - ".join(parts), 12.0))):
        text, size = fit_text(text, size, width, 9)
        draw_text(draw, (x, y + line * 20), text, size, INK, anchor="lm")


def _detail_title(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    text = f"{_when(view)} - latest action - {_who(view)}"
    w = font(13).getlength(text) + 12
    draw.rectangle([0, 0, w, 20], fill=PAPER, outline=INK)
    draw_text(draw, (6, 10), text, 13, INK, anchor="lm")


@lru_cache(maxsize=2)
def palette(scenario_name: str = "campaign") -> Image.Image:
    """The fixed palette: every colour the code draws with, plus the blends that anti-aliased text
    makes on the base map and on counters and chips."""
    pure = pure_colours()
    base = base_map(scenario_name)
    # text as counters and chips show it: every text colour on every colour, small and large
    cells = [(bg, fg) for bg in pure for fg in (INK, WHITE, TAN, NUMBER)]
    per_row = base.width // 28
    strip = Image.new("RGB", (base.width, 60 * math.ceil(len(cells) / per_row)), PAPER)
    draw = ImageDraw.Draw(strip)
    for i, (bg, fg) in enumerate(cells):
        x, y = (i % per_row) * 28, (i // per_row) * 60
        draw.rectangle([x, y, x + 27, y + 59], fill=bg)
        draw_text(draw, (x + 14, y + 15), "38", 10, fg)
        draw_text(draw, (x + 14, y + 40), "4-6", 15, fg)
    return fixed_palette(pure, stacked(base, strip))


def png(image: Image.Image, scenario_name: str = "campaign") -> bytes:
    return encode_png(image, palette(scenario_name))


def draw_map(view: Mapping[str, Any]) -> bytes:
    """The whole map as the view's role sees it: terrain, counters, markers, control and the
    latest activation, with the legend and title in the sea."""
    return png(render(view), str(view.get("scenario") or "campaign"))


def focus_hexes(view: Mapping[str, Any]) -> list[str]:
    name = str(view.get("scenario") or "campaign")
    scenario = scenario_named(name)
    recent = view.get("recent") or {}
    return [h for h in hexes_in(recent.get("focus")) if scenario.on_map(h)]


def draw_detail(view: Mapping[str, Any]) -> bytes | None:
    """A close-up (`DETAIL_SIZE`, large hex numbers) round `view["recent"]["focus"]`, or None if
    the latest activation has no focus."""
    focus = focus_hexes(view)
    if not focus:
        return None
    name = str(view.get("scenario") or "campaign")
    return png(render(view, detail_frame(name, focus)), name)
