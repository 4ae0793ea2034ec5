"""Drawing helpers the games' maps share: the bundled font, text, lines and arrowheads, fixed
palettes and PNG encoding.

The font is the TrueType face bundled inside Pillow (`ImageFont.load_default(size=…)`), so a map
is the same image on every machine with the same Pillow.  A map is flat colours and text: it is
quantized to a fixed palette of at most 128 colours, which loses nothing visible, keeps mails
small, and keeps a pixel's colour the same in every image whatever else changed (the map tests
compare pixels).
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

Point = tuple[float, float]
RGB = tuple[int, int, int]

PALETTE_SIZE = 128


# -- text ---------------------------------------------------------------------------------------


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont  # the latter only where Pillow lacks FreeType


def font(size: float) -> Font:
    """The bundled face at `size` pixels, rounded, at least 6."""
    return _font(max(6, round(size)))


@lru_cache(maxsize=64)
def _font(size: int) -> Font:
    # Loading the face takes longer than drawing with it, and one map asks for it thousands of times.
    return ImageFont.load_default(size=size)


def draw_text(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: float, fill: RGB, anchor: str = "mm",
              halo: RGB | None = None, crisp: bool = False) -> None:
    """`text` at `xy` (by `anchor`, Pillow's two letters), with a one-pixel `halo` round the letters if given.

    `crisp` draws without anti-aliasing: for small text repeated all over a map (hex numbers), whose
    blended edge pixels cost a tenth of the PNG's bytes and add nothing readable at that size."""
    if crisp:
        draw.fontmode = "1"
        try:
            draw_text(draw, xy, text, size, fill, anchor, halo)
        finally:
            draw.fontmode = "L"
    elif halo is None:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
    else:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=1, stroke_fill=halo)


def fit_text(text: str, size: float, width: float, smallest: float) -> tuple[str, float]:
    """Shrink the font (not below `smallest`), then cut the text, until it is at most `width` wide."""
    size = max(smallest, size)
    while size > smallest and font(size).getlength(text) > width:
        size -= 1
    while len(text) > 1 and font(size).getlength(text) > width:
        text = text[:-1]
    return text, size


# -- lines and arrows ---------------------------------------------------------------------------


def unit_vector(ax: float, ay: float, bx: float, by: float) -> tuple[float, float, float]:
    """The direction from a to b as a unit vector, and the distance (1 when a is b)."""
    length = math.hypot(bx - ax, by - ay) or 1.0
    return (bx - ax) / length, (by - ay) / length, length


def draw_dashed(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: RGB, width: int, dash: float,
                gap: float) -> None:
    """A dashed polyline whose pattern runs on across the vertices."""
    on, left = True, dash
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        ux, uy, length = unit_vector(ax, ay, bx, by)
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


def draw_polyline(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: RGB, width: int) -> None:
    """A solid polyline with round joints and caps, so joined segments look like one line."""
    draw.line(list(points), fill=fill, width=width, joint="curve")
    r = width / 2
    for x, y in (points[0], points[-1]):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


def draw_arrowhead(draw: ImageDraw.ImageDraw, tip: Point, ux: float, uy: float, length: float, fill: RGB,
                   outline: RGB | None = None) -> None:
    """A triangle `length` long pointing along (ux, uy) to `tip`, its base 1.1 times as wide as it is long."""
    x, y = tip
    bx, by = x - ux * length, y - uy * length
    half = length * 0.55
    points = [(x, y), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    draw.polygon(points, fill=fill, outline=outline)


# -- palettes and PNG ---------------------------------------------------------------------------


def stacked(top: Image.Image, bottom: Image.Image) -> Image.Image:
    """One RGB image holding `top` above `bottom` (the sample a palette is taken from)."""
    sample = Image.new("RGB", (top.width, top.height + bottom.height))
    sample.paste(top, (0, 0))
    sample.paste(bottom, (0, top.height))
    return sample


def sampled_palette(sample: Image.Image) -> Image.Image:
    """The palette image of the colours that best cover `sample` (a base map and its overlay colours)."""
    return sample.quantize(colors=PALETTE_SIZE, method=Image.Quantize.FASTOCTREE)


def fixed_palette(pure: Sequence[RGB], sample: Image.Image) -> Image.Image:
    """A palette image holding every colour of `pure` exactly, then the colours that best cover the
    rest of `sample` (the blends that anti-aliased text and lines make)."""
    blends = sample.quantize(colors=PALETTE_SIZE - len(pure), method=Image.Quantize.FASTOCTREE)
    extra = (blends.getpalette() or [])[: 3 * (PALETTE_SIZE - len(pure))]
    flat = [c for colour in pure for c in colour] + list(extra)
    flat += flat[-3:] * (256 - len(flat) // 3)  # pad with a repeat: unused entries must not be black
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def encode_png(image: Image.Image, palette: Image.Image) -> bytes:
    """The image quantized to `palette` without dithering, as PNG bytes."""
    buffer = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(buffer, "PNG", compress_level=9, optimize=True)
    return buffer.getvalue()
