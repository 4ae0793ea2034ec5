"""The rulings of the four-player game are written but not built: RULINGS.md says so for each, and the engine
offers only the basic and advanced games, so a ruling marked here cannot silently go unimplemented."""

from __future__ import annotations

import re
from pathlib import Path

from moderator.games.stalingrad.engine import INFO

RULINGS = Path(__file__).resolve().parents[3] / "moderator" / "games" / "stalingrad" / "RULINGS.md"
#: rulings of the four-player game (teammates, their commanders, formations and battles)
NOT_BUILT = ("S-28", "S-29", "S-30", "S-31", "S-41")


def paragraph(ruling: str) -> str:
    text = RULINGS.read_text(encoding="utf-8")
    found = re.search(rf"^\*\*{ruling} .*?(?=\n\n|\Z)", text, re.M | re.S)
    assert found, ruling
    return found.group(0)


def test_each_unbuilt_ruling_is_marked_and_only_the_basic_game_is_offered():
    for ruling in NOT_BUILT:
        assert "not built yet" in paragraph(ruling), ruling
    game = next(spec for spec in INFO.options if spec.name == "game")
    assert game.choices == ("basic", "advanced")


def test_the_built_rulings_are_not_marked():
    assert "not built yet" not in paragraph("S-09") and "not built yet" not in paragraph("S-25")
