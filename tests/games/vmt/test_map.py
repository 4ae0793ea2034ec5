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
