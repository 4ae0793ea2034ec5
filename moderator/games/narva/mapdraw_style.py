"""The Across the Narva map's sizes and colours (see `mapdraw`)."""

from __future__ import annotations

from moderator.render.drawing import RGB

HEX = 22  # full map: hex centre to corner in pixels; 35 columns make it 1202 px wide (a map PNG ≤ 150 KB, issue 12)
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


def pure_colours() -> list[RGB]:
    """Every colour the map draws with, once each."""
    colours: list[RGB] = [PAPER, INK, WHITE, GRID, NUMBER, TREE, MARSH, CONTOUR, HOUSE, BLOCK, RIVER, RIVER_OPEN,
                          RIVER_MINOR, ICE, ROLLBAHN_CORE, RAIL, CUT, BRIDGE_DECK, GERMAN, GERMAN_DARK, SS, SOVIET,
                          SOVIET_RED, TAN, PIN, OOS, ISOLATED, COMBAT, BARRAGE]
    for table in (TERRAIN, ROUTE, BANDS, MOVE, CONTROL):
        colours.extend(table.values())
    return list(dict.fromkeys(colours))
