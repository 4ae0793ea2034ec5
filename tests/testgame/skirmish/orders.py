"""The order language of Skirmish: MOVE and DONE in the active side's movement (§5), RETREAT for a
battle's loser (§6.3), and the tests guards and standing orders may use.

HELP shows the examples to every player, and a side's unit names are its secrets (§3.1), so the
examples name a unit no side has (`EXAMPLE_UNIT`); the tests parse them with that name added to the
referee's lexicon.
"""

from __future__ import annotations

from moderator.core.conditions import TURN_CONDITION
from moderator.core.grammar import ConditionSpec, Grammar, OrderSpec

#: the unit the examples move: no side's unit, so HELP names none of anybody's secrets (§3.1)
EXAMPLE_UNIT = "Scouts"

SPECS = [
    OrderSpec("move", "to", "MOVE <unit:unit> TO <area:area>",
              "Move one of your units to an adjacent area (§5.1); each unit moves once a phase.",
              (f"MOVE {EXAMPLE_UNIT} TO Mill",)),
    OrderSpec("move", "done", "DONE", "End your movement: the battles are fought (§6).", ("DONE",)),
    OrderSpec("retreat", "to", "RETREAT TO <area:area>",
              "Retreat your units that lost a battle to this adjacent area (§6.3).", ("RETREAT TO Farm",)),
    OrderSpec("retreat", "auto", "RETREAT AUTO",
              "The moderator picks the retreat: the first legal area in map order, your own areas first.",
              ("RETREAT AUTO",)),
]

CONDITIONS = [
    TURN_CONDITION,
    ConditionSpec("ENEMY", "<area>", "enemy units stand in the area"),
    ConditionSpec("HOLD", "<area>", "you control the area"),
    ConditionSpec("AREA", "<area>", "the retreat asked about is from this area"),
]

KIND_TITLES = {"move": "Movement", "retreat": "Retreats"}

GRAMMAR = Grammar(SPECS, CONDITIONS, KIND_TITLES)
