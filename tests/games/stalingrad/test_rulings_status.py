"""Every ruling is built: no paragraph of RULINGS.md is marked "not built yet", and the four-player game it
rules is offered (its scenario with four seats), so a ruling cannot silently go unimplemented."""

from __future__ import annotations

import re
from pathlib import Path

from moderator.games.stalingrad.engine import INFO

RULINGS = Path(__file__).resolve().parents[3] / "moderator" / "games" / "stalingrad" / "RULINGS.md"
#: rulings of the four-player game (teammates, their commanders, formations and battles)
FOUR_PLAYER = ("S-28", "S-29", "S-30", "S-31", "S-41", "S-81", "S-82", "S-83")


def paragraph(ruling: str) -> str:
    text = RULINGS.read_text(encoding="utf-8")
    found = re.search(rf"^\*\*{ruling} .*?(?=\n\n|\Z)", text, re.M | re.S)
    assert found, ruling
    return found.group(0)


def test_no_ruling_is_marked_unbuilt_and_the_four_player_game_is_offered():
    assert "not built yet" not in RULINGS.read_text(encoding="utf-8")
    for ruling in FOUR_PLAYER:
        assert paragraph(ruling)
    assert INFO.roles("four-player") == ("paulus", "wietersheim", "lopatin", "saraev")
    assert INFO.roles() == ("german", "soviet")


def test_each_option_names_a_ruling_that_exists():
    for spec in INFO.options:
        if spec.name != "game":
            number = re.search(r"ruling (S-\d+)", spec.help)
            assert number and paragraph(number.group(1)), spec.name
