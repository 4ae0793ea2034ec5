"""Positions of the rule tests where HELP's rarer Across the Narva examples are legal: an attack with
air support, an attack conditional on its odds (fog of war off), step losses named by the player,
advances after combat, a regrouping event, a replacement, the prepared defences, a move by way of a
village and a Soviet Army HQ's relocation (tests/kit/test_help_examples.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moderator.core.frames import new_frame
from tests.games.narva.drive import command_phase, moving
from tests.games.narva.fight import board, fight, ready_to_attack
from tests.games.narva.helpers import position, settle
from tests.games.narva.test_action_chits import draw
from tests.games.narva.test_advance import german_attack_on_reduced_381, soviet_attack_on_police

Check = Callable[[Any], None]
ATTACK = {"61/162G": "2332", "109/381": "2432", "109/456": "2431"}


def attacks(check: Check) -> None:
    """12.1.1, 2.1.3C: 381 and 456 ready to attack 162G, with fog of war and without."""
    for options in ({}, {"fog": "off"}):
        b = board(ATTACK, options=options, rolls=[6])
        ready_to_attack(b, "soviet", ["109/381", "109/456"])
        check(b.data)


def losses_named_by_the_player(check: Check) -> None:
    """9.2.3, 9.4.1: the attacker takes two steps (A2r1) and names the units."""
    b = board({"61/162G": "2332", "30GD/131": "2432", "122/163": "2431"}, reduced=["122/163"],
              supply={"122/163": "oos"}, rolls=[1])
    fight(b, "soviet", "2332", ["30GD/131", "122/163"])
    check(b.data)


def advances(check: Check) -> None:
    """9.6: infantry advance into the vacated hex; armour goes on one hex further."""
    b = soviet_attack_on_police({"IND/30P": "2332", "109/381": "2432", "109/456": "2431"}, "2332",
                                ["109/381", "109/456"])
    check(b.data)
    b = german_attack_on_reduced_381({"109/381": "2332", "FHH/PZ": "2432", "109/456": "2133"}, "2332", ["FHH/PZ"])
    check(b.data)


def regroup_event(check: Check) -> None:
    """2.5.2B: a move event lets the Germans move all units of one division."""
    b = position({"61/162G": "2432", "61/176G": "0920", "FHH/MOK": "2434", "109/381": "2331"}, turn=6,
                 rolls=[4, 5], supply={"61/162G": "isolated"})
    draw(b, "RANDOM")
    check(b.data)


def replacement(check: Check) -> None:
    """11.2.1A: one replacement point restores a step."""
    b = board({"61/162G": "2332", "61/HQ": "2332"}, reduced=["61/162G"])
    b.data["rp"] = 1
    b.push(new_frame(b.data, "rebuild", lose_rest=True))
    settle(b)
    check(b.data)


def move_by_way_of_a_village(check: Check) -> None:
    """6.0, 13.2: 381 may go from 2222 to 2422 by way of the village of Pustoska (2323)."""
    b = position({"109/381": "2222"})
    moving(b, "soviet", "109/381")
    check(b.data)


def prepared_defences(check: Check) -> None:
    """11.3.5: at the end of a turn Germany raises a PD marker one box."""
    b = board({}, turn=4)
    b.data["pd"].update({"4SS": 3, "11SS": 2})
    b.push(new_frame(b.data, "turn", stage="advance", ready=["german", "soviet"]))
    settle(b)
    check(b.data)


def army_hq_relocation(check: Check) -> None:
    """4.1.3: a drawn 2nd Shock chit lets its Army HQ (3024) relocate instead of activating a corps; the
    random games reach this only now and then."""
    b = position({"2SH/HQ": "3024", "109/HQ": "2120", "109/381": "2122"})
    command_phase(b, ["2SH-1"])
    check(b.data)


TOURS = (army_hq_relocation, attacks, losses_named_by_the_player, advances, regroup_event, replacement,
         prepared_defences, move_by_way_of_a_village)
