"""The board picture: a PNG of the table from any role's view, and a close-up only while a battle is fought."""

from __future__ import annotations

import io

from PIL import Image

from moderator.games.stalingrad.engine import engine
from tests.games.stalingrad.harness import apply, battle_position, defaults, fresh


def test_the_map_is_a_png_of_the_table_for_every_role():
    state = fresh()
    for role in ("german", "soviet", "observer"):
        image = Image.open(io.BytesIO(engine.map_png(engine.view(state, role))))
        assert image.format == "PNG" and image.size == (960, 698)
    assert engine.map_detail_png(engine.view(state, "german")) is None  # no battle yet


def test_the_detail_shows_the_battle_and_the_map_changes_with_the_tracks():
    state = battle_position("RedSquare", "B", {"71ID": 0}, {"10NKVD": 0})
    state, _ = apply(state, "german", "FIGHT RedSquare")
    state, _ = defaults(state)
    detail = engine.map_detail_png(engine.view(state, "soviet"))
    assert detail and Image.open(io.BytesIO(detail)).format == "PNG"
    before = engine.map_png(engine.view(state, "soviet"))
    state["districts"]["B"]["infernos"] += 2
    assert engine.map_png(engine.view(state, "soviet")) != before
