"""The rulings of the advanced and four-player games are written but not built: RULINGS.md says so for each,
and the engine offers only the basic game, so a ruling marked here cannot silently go unimplemented."""

from __future__ import annotations

import re
from pathlib import Path

from moderator.games.stalingrad.engine import INFO

RULINGS = Path(__file__).resolve().parents[3] / "moderator" / "games" / "stalingrad" / "RULINGS.md"
#: rulings of the advanced game (heroes, Intercept, 2nd actions, Promote, text cards) and the four-player game
NOT_BUILT = ("S-02", "S-06", "S-07", "S-25", "S-26", "S-27", "S-28", "S-29", "S-30", "S-31", "S-36", "S-40", "S-41",
             "S-45", "S-47", "S-48", "S-61", "S-62", "S-64", "S-67")


def paragraph(ruling: str) -> str:
    text = RULINGS.read_text(encoding="utf-8")
    found = re.search(rf"^\*\*{ruling} .*?(?=\n\n|\Z)", text, re.M | re.S)
    assert found, ruling
    return found.group(0)


def test_each_unbuilt_ruling_is_marked_and_only_the_basic_game_is_offered():
    for ruling in NOT_BUILT:
        assert "not built yet" in paragraph(ruling), ruling
    game = next(spec for spec in INFO.options if spec.name == "game")
    assert game.choices == ("basic",)


def test_the_built_rulings_are_not_marked():
    assert "not built yet" not in paragraph("S-09") and "not built yet" not in paragraph("S-20")
