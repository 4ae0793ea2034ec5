"""Positions of the rulebook's worked examples (tests/games/vmt/test_examples.py) where HELP's rarer
examples are legal: placing assets, moving with them, allocating hits, retreating, keeping blocks
after an over-stacked victory, counterattacking inside the enemy phase, moving through an area.
Each tour shows the checker every position it passes (tests/kit/test_help_examples.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.games.vmt.harness import Position
from tests.games.vmt.test_examples import example_position

Check = Callable[[Any], None]


def play(check: Check, pos: Position, orders: list[tuple[str, str, list[int]]]) -> None:
    for role, text, dice in orders:
        check(pos.state)
        pos.order(role, text, dice=dice)
    check(pos.state)


def coordinated_assault_and_its_combat(check: Check) -> None:
    """L198-L314: the Coordinated Assault, the assets, the combat, the hits and the retreat."""
    axis_dice = [5, 5, 6, 4, 1, 2, 3, 1, 2]
    play(check, example_position(), [
        ("axis", "ASSAULT DIVISION 24", []), ("axis", "COORDINATE 50 USING COUNTERATTACK", []),
        ("axis", "ASSETS ARMOR PZ3 A04 PIONEER APIOA A04", []), ("axis", "ASSETS NONE", []),
        ("axis", "MOVE 50/121 50/122 24/31 TO A08 WITH PZ3 APIOA", []), ("axis", "MOVE 24/32 24/102 50/123 TO A08", []),
        ("axis", "RESOLVE A08", []), ("axis", "SUPPORT AXIS_FIELD_ARTILLERY", []),
        ("soviet", "SUPPORT MINEFIELD BUNKER MORTARS", [2] + axis_dice + [5, 6, 4, 1]),
        ("axis", "HITS 50/121 24/32", []), ("soviet", "HITS Perekop 25/54 Perekop", [3]),
    ])


def retreat_over_stack_and_counterattack(check: Check) -> None:
    """L206: the beaten regiments split up, the Axis keeps three blocks, the Soviet may counterattack."""
    pos = example_position()
    pos.place("A12: 25/31 | A06: 3NI")
    pos.control("A12", "soviet").control("A06", "soviet")
    play(check, pos, [
        ("axis", "ASSAULT DIVISION 24", []), ("axis", "COORDINATE 50 USING COUNTERATTACK", []),
        ("axis", "ASSETS NONE", []), ("axis", "MOVE 50/121 50/122 24/31 TO A08", []),
        ("axis", "MOVE 24/32 24/102 50/123 TO A08", []), ("axis", "RESOLVE A08", []), ("axis", "SUPPORT NONE", []),
        ("soviet", "SUPPORT NONE", [5, 5, 1, 1, 1, 1] + [1, 2]), ("soviet", "HITS Perekop 25/54", []),
        ("soviet", "RETREAT Perekop TO A12 AND 25/54 TO A06", []), ("axis", "KEEP 50/121 50/122 24/31", []),
    ])


def two_area_move(check: Check) -> None:
    """L194: a two-area mover moves through an area into the enemy."""
    pos = Position().clear()
    pos.place("B11: 28/49 | B05: 388/773")
    pos.hand("axis", "assault")
    pos.phase("axis")
    play(check, pos, [("axis", "ASSAULT GROUP B11", [])])


def battery_storm(check: Check) -> None:
    """L338: an Assault on the blocks next to an empty battery area may storm it."""
    pos = Position().clear()
    pos.place("C08: 50/121 | C03: 7NI")
    pos.destroyed("A05", "A07", "B09")
    pos.hand("axis", "assault", "superheavy_artillery")
    pos.phase("axis")
    play(check, pos, [("axis", "ASSAULT GROUP C08", []), ("axis", "ASSETS NONE", [])])


TOURS = (coordinated_assault_and_its_combat, retreat_over_stack_and_counterattack, two_area_move, battery_storm)
