"""The VMT map image: drawn from the view only, so it changes where blocks moved and shows nothing
of the other side's secrets."""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image

from moderator.games.vmt.engine import engine, scenario_named
from moderator.games.vmt.mapdraw import LEGEND, WIDTH
from tests.games.vmt.harness import Position


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def centre(area: str) -> tuple[float, float]:
    geometry = scenario_named("campaign").map.geometry
    x, y = scenario_named("campaign").area(area).at
    return x * WIDTH / geometry.width, y * WIDTH / geometry.width


def test_the_map_changes_where_a_block_moved_and_nowhere_else():
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 | A09: 24/31 | C05: 25/31")
    pos.control("A01", "axis").hand("axis", "redeployment").phase("axis")
    before = pixels(engine.map_png(engine.view(pos.state, "axis")))
    pos.order("axis", "REDEPLOY GROUP A04")
    pos.order("axis", "MOVE 50/121 TO A01")
    after = pixels(engine.map_png(engine.view(pos.state, "axis")))
    assert before.shape == after.shape and before.shape[1] == WIDTH
    changed = np.argwhere((before != after).any(axis=2))
    changed = changed[changed[:, 0] < before.shape[0] - LEGEND]  # the legend's text may change
    assert len(changed) > 200  # the block left A04, arrived in A01, and the move arrow was drawn
    origin, destination = centre("A04"), centre("A01")
    far = [(y, x) for y, x in changed
           if min(math.dist((x, y), origin), math.dist((x, y), destination)) > 90
           and not _near_segment((x, y), origin, destination, 12)]
    assert not far, f"{len(far)} pixels changed away from the move, e.g. {far[:3]}"


def _near_segment(point, a, b, distance) -> bool:
    (px, py), (ax, ay), (bx, by) = point, a, b
    length2 = (bx - ax) ** 2 + (by - ay) ** 2
    t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length2))
    return math.dist(point, (ax + t * (bx - ax), ay + t * (by - ay))) <= distance


def test_a_hidden_block_looks_the_same_whatever_its_identity_and_strength():
    """The Soviet's map of an Axis stack is the same whichever Axis blocks, at whatever strength,
    make up the stack; only the count and the exhausted ones show."""
    images = []
    for blocks in ("A04: 50/121 50/122", "A04: 22/16=1 132/438", "A04: 28/49 18R/92=1"):
        pos = Position().clear().place(blocks + " | C02: Perekop")
        images.append(engine.map_png(engine.view(pos.state, "soviet")))
    assert images[0] == images[1] == images[2]
    own = []
    for blocks in ("A04: 50/121 50/122", "A04: 22/16=1 132/438"):
        pos = Position().clear().place(blocks + " | C02: Perekop")
        own.append(engine.map_png(engine.view(pos.state, "axis")))
    assert own[0] != own[1]  # the owner does see its blocks' identities and strengths
    tired = Position().clear().place("A04: 50/121* 50/122 | C02: Perekop")
    assert engine.map_png(engine.view(tired.state, "soviet")) != images[0]  # exhaustion is public (L322)


def test_the_detail_image_is_wider_than_the_mail_and_centred_on_the_action():
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 | A08: Perekop | C05: 25/31")
    pos.control("A08", "soviet").hand("axis", "assault").phase("axis")
    assert engine.map_detail_png(engine.view(pos.state, "axis")) is None  # nothing happened yet
    pos.order("axis", "ASSAULT GROUP A04")
    pos.order("axis", "MOVE 50/121 50/122 TO A08")
    png = engine.map_detail_png(engine.view(pos.state, "axis"))
    assert len(png) <= 40_000  # a close-up's budget (issue 12)
    detail = Image.open(io.BytesIO(png))
    assert detail.width >= WIDTH


# ---------------------------------------------------------------- the hand play's map (notes/hand-vmt.md D7, D15)


def crowded_like_the_hand_play() -> Position:
    """Turn 2 of the hand play (image 007): three Soviet blocks in A07 next to A11, three in B03 next to
    B05, a T-26 counter in B08 over B09's battery, an exhausted Axis block."""
    pos = Position()
    pos.place("A07: 172/514 172/747 95/241 | B03: 386/775 388/782 9NI | A04: 50/121* 50/122")
    pos.asset("T26B", "B08")
    return pos


def test_the_legend_shows_an_exhausted_axis_block_s_pale_grey_as_well_as_the_soviet_pink():
    """D15: exhausted Axis blocks are drawn pale grey, but the legend showed only the pink."""
    from moderator.games.vmt.mapdraw import AXIS_LIGHT, SOVIET_LIGHT

    image = pixels(engine.map_png(engine.view(crowded_like_the_hand_play().state, "soviet")))
    legend = image[-LEGEND:]
    for colour in (AXIS_LIGHT, SOVIET_LIGHT):
        assert (np.abs(legend - np.array(colour)).sum(axis=2) <= 6).sum() > 20, f"{colour} not in the legend"


def test_no_area_id_is_hidden_under_a_neighbour_s_blocks_or_markers(monkeypatch):
    """D7: A07's three blocks hid A11's id all game, B03's ran over B05's, B08's T-26 over B09's battery.
    Every id goes where no block or marker is drawn (all of them find such a place here)."""
    from moderator.games.vmt import mapdraw

    boxes: list = []
    chosen: dict = {}

    def recorded(real):
        def drawing(*args):
            found = real(*args)
            (chosen.update if isinstance(found, dict) else boxes.extend)(found)
            return found
        return drawing

    for name in ("_blocks", "_markers", "label_places"):
        monkeypatch.setattr(mapdraw, name, recorded(getattr(mapdraw, name)))
    png = engine.map_png(engine.view(crowded_like_the_hand_play().state, "soviet"))
    assert set(chosen) >= {"A11", "B05", "B09"} and boxes
    hidden = [a for a, place in chosen.items() if any(mapdraw._overlap(mapdraw.label_box(place), b) for b in boxes)]
    assert hidden == []
    image = pixels(png)
    for area in ("A11", "B05", "B09"):  # the id's ink is there, and no block's red under it
        x0, y0, x1, y1 = (round(v) for v in mapdraw.label_box(chosen[area]))
        patch = image[y0:y1, x0:x1]
        assert (np.abs(patch - np.array(mapdraw.INK)).sum(axis=2) < 90).sum() > 10, area
        assert (np.abs(patch - np.array(mapdraw.SOVIET)).sum(axis=2) < 30).sum() == 0, area


def test_an_id_goes_above_its_control_stripe_when_a_neighbour_s_blocks_cover_its_usual_place():
    from moderator.games.vmt.mapdraw import LABEL_PLACES, geometry, label_box, label_places

    scenario, scale, _labels, _ids = geometry("campaign")
    x, y = scenario.area("A11").at[0] * scale, scenario.area("A11").at[1] * scale
    usual = (x + LABEL_PLACES[0][0], y + LABEL_PLACES[0][1])
    places = label_places(scenario, scale, [label_box(usual)])
    assert places["A11"] == (x + LABEL_PLACES[1][0], y + LABEL_PLACES[1][1])
    assert label_places(scenario, scale, [])["A11"] == usual


def test_the_crowded_map_stays_within_the_mail_budget():
    png = engine.map_png(engine.view(crowded_like_the_hand_play().state, "soviet"))
    assert len(png) <= 150_000
