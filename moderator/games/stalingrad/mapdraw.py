"""The board as a player lays it out, drawn from a view (render/drawing.py): the German Staging Line on top,
the four districts (building card, Tracking Card with its Skull, Fire and Bucket tracks and Infernos, each
side's units and maneuvered formations), the Soviet Staging Line below, the Hourglass in the corner; and a
close-up of the battle being fought (`draw_detail`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from moderator.render.drawing import RGB, draw_text, encode_png, fit_text, fixed_palette

WIDTH, DISTRICT_W, TOP, STAGING_H = 960, 240, 150, 118
INK: RGB = (30, 30, 30)
PAPER: RGB = (236, 230, 214)
CARD: RGB = (250, 247, 238)
GERMAN: RGB = (110, 120, 130)
SOVIET: RGB = (170, 40, 40)
FIRE: RGB = (230, 110, 20)
WATER: RGB = (40, 110, 200)
SKULL: RGB = (90, 60, 90)
VOLGA: RGB = (70, 130, 190)
PALE: RGB = (200, 196, 186)
PURE = (INK, PAPER, CARD, GERMAN, SOVIET, FIRE, WATER, SKULL, VOLGA, PALE, (255, 255, 255))
SIDE_COLOUR = {"german": GERMAN, "soviet": SOVIET}


def _png(image: Image.Image) -> bytes:
    return encode_png(image, fixed_palette(PURE, image))


def draw_map(view: Mapping[str, Any]) -> bytes:
    """The whole table: staging lines, the four districts and the turn."""
    height = TOP + 430 + STAGING_H
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _staging(draw, view, "german", 4)
    for n, district in enumerate(view["districts"]):
        _district(draw, district, 4 + n * DISTRICT_W, TOP)
    _staging(draw, view, "soviet", TOP + 434)
    _hourglass(draw, view)
    return _png(image)


def _hourglass(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    x = WIDTH - 150
    draw.rectangle((x, 4, WIDTH - 6, 40), fill=CARD, outline=INK)
    draw_text(draw, (x + 72, 22), f"Hourglass: turn {view['turn']} of {view['turns']}", 13, INK)


def _staging(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], side: str, y: int) -> None:
    """A Staging Line: formation tiles (a depleted one turned on its side), leader badges, trophies."""
    colour = SIDE_COLOUR[side]
    draw_text(draw, (8, y + 8), f"{side.title()} Staging Line - {view['sides'][side]['commander']}", 14, colour,
              anchor="lm")
    staging = [f for f in view["formations"] if f["side"] == side and f["at"] == "staging"]
    for n, formation in enumerate(staging[:14]):
        x, row = 8 + (n % 7) * 118, y + 22 + (n // 7) * 46
        _tile(draw, formation, x, row, 112, 40)
    trophies = view["sides"][side]["trophies"]
    if trophies:
        text, size = fit_text("Trophies: " + ", ".join(trophies), 12, 300, 8)
        draw_text(draw, (WIDTH - 8, y + 8), text, size, INK, anchor="rm")


def _tile(draw: ImageDraw.ImageDraw, formation: Mapping[str, Any], x: int, y: int, w: int, h: int) -> None:
    colour = SIDE_COLOUR[formation["side"]]
    if formation["depleted"]:
        draw.rectangle((x, y + h // 3, x + w, y + h), fill=CARD, outline=colour, width=2)
        top = y + h // 3
    else:
        draw.rectangle((x, y, x + w, y + h), fill=CARD, outline=colour, width=2)
        top = y
    text, size = fit_text(formation["id"], 13, w - 30, 8)
    draw_text(draw, (x + 6, top + 12), text, size, colour, anchor="lm")
    if formation["leader"] != "-":
        draw.ellipse((x + w - 24, top + 3, x + w - 4, top + 23), fill=colour)
        draw_text(draw, (x + w - 14, top + 13), formation["leader"][-1], 11, (255, 255, 255))


def _district(draw: ImageDraw.ImageDraw, district: Mapping[str, Any], x: int, y: int) -> None:
    """One district: its building (or Volga Card), the Tracking Card, the units and formations there."""
    w = DISTRICT_W - 8
    draw_text(draw, (x + w // 2, y - 10), f"District {district['district']}", 14, INK)
    if not district["building"]:
        fill = VOLGA if district["volga"] else PALE
        draw.rectangle((x, y, x + w, y + 110), fill=fill, outline=INK)
        draw_text(draw, (x + w // 2, y + 55), "Volga Card" if district["volga"] else "no building", 16, INK)
    else:
        _building(draw, district, x, y, w)
    _tracks(draw, district, x, y + 118, w)
    _units(draw, district, x, y + 220, w)


def _building(draw: ImageDraw.ImageDraw, district: Mapping[str, Any], x: int, y: int, w: int) -> None:
    outline = SOVIET if district["assaulted"] else INK
    draw.rectangle((x, y, x + w, y + 110), fill=CARD, outline=outline, width=3 if district["assaulted"] else 1)
    name, size = fit_text(district["name"], 16, w - 10, 9)
    draw_text(draw, (x + w // 2, y + 16), name, size, INK)
    draw_text(draw, (x + w // 2, y + 36), district["terrain"], 11, INK)
    draw_text(draw, (x + 8, y + 58), f"boot {district['concentration']}", 12, INK, anchor="lm")
    draw_text(draw, (x + w - 8, y + 58), f"grenade {district['defense']}", 12, INK, anchor="rm")
    for n, (icon, key) in enumerate((("Stuka", "german_initiative"), ("Rat", "soviet_initiative"))):
        text, size = fit_text(f"{icon}: {district[key]}", 11, w - 12, 8)
        draw_text(draw, (x + 8, y + 80 + 16 * n), text, size, INK, anchor="lm")


def _track(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, label: str, spaces: int, at: int,
           colour: RGB, end: str) -> None:
    """A row of boxes: the Smoldering Ruins (0), the spaces, the last box (Break Test or Inferno Den)."""
    box = (w - 40) / (spaces + 2)
    draw_text(draw, (x, y + 8), label, 10, INK, anchor="lm")
    for n in range(spaces + 2):
        left = x + 38 + n * box
        filled = n == at
        draw.rectangle((left, y, left + box - 2, y + 16), fill=colour if filled else CARD, outline=INK)
    draw_text(draw, (x + 38 + (spaces + 1.5) * box, y + 26), end, 9, INK)


def _tracks(draw: ImageDraw.ImageDraw, district: Mapping[str, Any], x: int, y: int, w: int) -> None:
    draw.rectangle((x, y, x + w, y + 96), fill=CARD, outline=INK)
    if district["closed"] and not district["building"]:
        draw_text(draw, (x + w // 2, y + 48), "Tracking Card turned over", 12, INK)
        return
    _track(draw, x + 4, y + 4, w - 8, "Skull", district["skull"] - 1, district["hold"], SKULL, "Break")
    _track(draw, x + 4, y + 34, w - 8, "Fire", district["fire_track"], district["fire"], FIRE, "Den")
    _track(draw, x + 4, y + 64, w - 8, "Bucket", district["bucket_track"], district["bucket"], WATER, "")
    draw_text(draw, (x + w - 6, y + 88), f"Infernos {district['infernos']}", 11, FIRE, anchor="rm")


def _units(draw: ImageDraw.ImageDraw, district: Mapping[str, Any], x: int, y: int, w: int) -> None:
    """Each side's units on the building by type (shielded ones in a double frame) and its formations."""
    for n, side in enumerate(("german", "soviet")):
        top = y + n * 100
        draw.rectangle((x, top, x + w, top + 94), fill=CARD, outline=SIDE_COLOUR[side])
        formations = ", ".join(district["formations"][side]) or "no formation"
        text, size = fit_text(formations, 12, w - 10, 8)
        draw_text(draw, (x + 6, top + 12), text, size, SIDE_COLOUR[side], anchor="lm")
        for m, (unit, count) in enumerate(sorted(district["units"][side].items())):
            cx, cy = x + 6 + (m % 3) * 76, top + 30 + (m // 3) * 30
            shielded = unit in ("Armor", "Fort")
            draw.rectangle((cx, cy, cx + 70, cy + 24), fill=SIDE_COLOUR[side], outline=INK, width=3 if shielded else 1)
            draw_text(draw, (cx + 35, cy + 12), f"{count} {unit}", 12, (255, 255, 255))


def draw_detail(view: Mapping[str, Any]) -> bytes | None:
    """The battle being fought: its district large, each formation with the cards played on it."""
    battle = view.get("battle")
    if not battle:
        return None
    district = next(d for d in view["districts"] if d["district"] == battle["district"])
    image = Image.new("RGB", (WIDTH // 2 + 260, 470), PAPER)
    draw = ImageDraw.Draw(image)
    _district(draw, district, 8, 24)
    draw_text(draw, (260, 12), f"Round {battle['round']}, {battle['holds_left']} Hold(s) left; dice German "
              f"{battle['dice']['german']}, Soviet {battle['dice']['soviet']}", 13, INK, anchor="lm")
    for n, played in enumerate(battle["played"][:12]):
        y = 36 + n * 34
        colour = SIDE_COLOUR[played["side"]]
        text, size = fit_text(f"{played['formation']}: {', '.join(played['cards']) or '-'} ({played['room']})", 12,
                              470, 8)
        draw_text(draw, (260, y + 10), text, size, colour, anchor="lm")
    return _png(image)
