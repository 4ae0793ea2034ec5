"""Tests for IF guards and standing orders, read from the deciding role's own view only (§3.1: a side
sees how many enemy units stand in an area, never which)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.core.conditions import turn_test
from moderator.core.contract import Decision
from moderator.core.errors import ParseError


def _area(view: Mapping[str, Any], name: str, args: Sequence[str]) -> Mapping[str, Any]:
    if len(args) != 1:
        raise ParseError(f"{name} takes an area, e.g. {name} Ford")
    wanted = args[0].casefold()
    for area in view["areas"]:
        if wanted in (area["id"].casefold(), *(a.casefold() for a in area["aliases"])):
            return area
    raise ParseError(f"no area '{args[0]}'", tuple(a["id"] for a in view["areas"])[:3])


def evaluate(name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
    """Whether the test `name` holds; raises ParseError for an unknown test or wrong arguments."""
    side = view["side"]
    if name == "TURN":
        return turn_test(view["turn"], args)
    if name == "ENEMY":
        area = _area(view, name, args)
        return any(count for who, count in area["counts"].items() if who != side)
    if name == "HOLD":
        return _area(view, name, args)["control"] == side
    if name == "AREA":
        return decision.context.get("area") == _area(view, name, args)["id"]
    raise ParseError(f"unknown test {name}")
