"""The tests a VMT script guard or standing order may use.  They read only the deciding role's
view and the decision's context, which hold nothing that role may not see (DESIGN §4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.core.conditions import turn_test
from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder


def _number(args: Sequence[str], name: str) -> int:
    try:
        return int(args[0])
    except (IndexError, ValueError):
        raise IllegalOrder(f"{name} needs a number, e.g. '{name} 3'") from None


def evaluate(name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
    side = view["side"]
    context = decision.context
    last = view.get("last_combat") or {}
    if name == "WON":
        winner = context.get("winner", last.get("winner"))
        return winner == side
    if name == "LOST":
        winner = context.get("winner", last.get("winner"))
        return winner is not None and winner != side
    if name == "AREA":
        if not args:
            raise IllegalOrder("AREA needs an area, e.g. 'AREA A08'")
        # Only a question about that area (a combat there, blocks entering it) fits: the last combat's area
        # says nothing of "before the next Soviet card", whose Air Strike may go anywhere.
        area = context.get("area")
        return area is not None and area.upper() in {a.upper() for a in args}
    if name == "ATTACKERS":
        return context.get("attackers", 0) >= _number(args, name)
    if name in ("DEFENDING", "ATTACKING"):
        # Who attacks is who moved in (L214); Bunker and Minefield defend only, Goliath and 88mm attack only
        # (L495-517): a standing support order must be able to tell which side of the combat its owner is on.
        return context.get("role") == ("defender" if name == "DEFENDING" else "attacker")
    if name == "ARMOR":
        armor = context.get("armor", {})
        return any(present for s, present in armor.items() if s != side)
    if name == "ENEMY_CARDS":
        return context.get("enemy_cards", 0) >= _number(args, name) and context.get("role") == "defender"
    if name == "COUNTERATTACKED":
        # the combat just fought was the enemy's Counterattack in your own action phase (L160, L439)
        return bool(last) and last.get("attacker") not in (None, side) and view.get("phase_side") == side
    if name == "HOLD":
        if not args:
            raise IllegalOrder("HOLD needs a card name")
        return args[0].lower() in view.get("hand", [])
    if name == "CONTROL":
        if not args:
            raise IllegalOrder("CONTROL needs an area")
        return any(a["id"].upper() == args[0].upper() and a["control"] == side for a in view["areas"])
    if name == "TURN":
        return turn_test(view["turn"], args)
    raise IllegalOrder(f"unknown test {name}")
