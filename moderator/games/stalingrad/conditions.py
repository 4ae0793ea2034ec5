"""Tests for IF guards and standing orders, read from the deciding role's own view only (its hand, the
public table): a script may say `IF HOLDS 1: HOLD` or `STANDING casualty IF MINE Rifle 3: LOSE Rifle`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.core.conditions import turn_test
from moderator.core.contract import Decision
from moderator.core.errors import ParseError


def _number(name: str, args: Sequence[str], at: int = 0) -> int:
    try:
        return int(args[at])
    except (IndexError, ValueError):
        raise ParseError(f"{name} needs a number, e.g. {name} 2") from None


def _battle(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return view.get("battle") or {}


def evaluate(name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
    """Whether the test `name` holds; raises ParseError for an unknown test or wrong arguments."""
    side = view["side"]
    battle = _battle(view)
    if name == "TURN":
        return turn_test(view["turn"], args)
    if name == "HOLDS":
        return bool(battle) and battle["holds_left"] <= _number(name, args)
    if name == "AHEAD":
        dice = battle.get("dice", {})
        return bool(dice) and side is not None and dice[side] > sum(v for s, v in dice.items() if s != side)
    if name == "HAND":
        return len(view.get("hand", [])) >= _number(name, args)
    if name == "HAS":
        if len(args) != 1:
            raise ParseError("HAS takes a card title, e.g. HAS PanzerGroup")
        wanted = args[0].casefold()
        return any(wanted in (card["title"].casefold(), card["id"].casefold()) for card in view.get("hand", []))
    if name == "AT":
        if len(args) != 1:
            raise ParseError("AT takes a building, e.g. AT RedSquare")
        return bool(battle) and battle["building"].casefold() == args[0].casefold()
    if name == "MINE":
        if len(args) != 2 or not battle:
            return False if len(args) == 2 else _raise("MINE takes a unit and a number, e.g. MINE Rifle 2")
        return battle["units"].get(side, {}).get(args[0].title(), 0) >= _number(name, args, 1)
    if name == "ROUND":
        return bool(battle) and battle["round"] >= _number(name, args)
    raise ParseError(f"unknown test {name}")


def _raise(message: str) -> bool:
    raise ParseError(message)
