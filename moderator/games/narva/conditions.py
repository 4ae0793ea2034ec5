"""Tests for IF guards, ON keys and standing orders, evaluated on the player's own view only
(so no test can read what fog of war hides, 2.1.3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.core.conditions import turn_test
from moderator.core.contract import Decision
from moderator.core.errors import ParseError


def _need(args: Sequence[str], n: int, name: str, usage: str) -> None:
    if len(args) != n:
        raise ParseError(f"{name} takes {usage}")


def evaluate(name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
    ctx = decision.context
    hexes = view["hexes"]
    role = view["role"]
    if name == "CHIT":
        # A group (CHIT 2SH: any 2nd Shock Army chit) or one chit as the cup lists it (CHIT 2SH-1).
        _need(args, 1, name, "a chit group or a chit, e.g. CHIT 2SH or CHIT 2SH-1")
        return args[0].upper() in (str(ctx.get("chit") or "").upper(), str(ctx.get("chit_id") or "").upper())
    if name == "HQ":
        _need(args, 1, name, "an HQ, e.g. HQ 109")
        hq = str(ctx.get("hq") or "").upper()
        wanted = args[0].upper()
        return hq == wanted or hq == f"{wanted}/HQ" or hq.split("/")[0] == wanted
    if name == "TURN":
        return turn_test(view["turn"], args)
    if name == "FROZEN":
        return bool(view["frozen"])
    if name == "REINFORCEMENTS":
        return ctx.get("phase") == "reinforcement" or ctx.get("mode") == "reinforce"
    if name in ("EMPTY", "ENEMY", "FRIENDLY", "PINNED", "HEX"):
        _need(args, 1, name, "a hex, e.g. " + name + " 2022")
        hex_id = args[0]
        here = hexes.get(hex_id)
        if name == "EMPTY":
            return here is None
        if name == "ENEMY":
            return here is not None and here["side"] != role
        if name == "FRIENDLY":
            return here is not None and here["side"] == role
        if name == "PINNED":
            return bool(here and here["pinned"])
        return ctx.get("hex") == hex_id
    if name == "AT":
        _need(args, 2, name, "a unit and a hex, e.g. AT 381 2122")
        return any(u["hex"] == args[1] and args[0].upper() in (u["id"].upper(), u["name"].upper())
                   for u in view["own"])
    if name == "SUPPLIED":
        _need(args, 1, name, "a unit, e.g. SUPPLIED 381")
        return any(u["supply"] == "ok" and args[0].upper() in (u["id"].upper(), u["name"].upper())
                   for u in view["own"])
    if name == "ENEMY_HEIGHT":
        _need(args, 2, name, "a hex and a number, e.g. ENEMY_HEIGHT 2022 2")
        here = hexes.get(args[0])
        if here is None or here["side"] == role:
            return False
        if here["height"] is None:
            raise ParseError("stack heights are hidden in this game (option fog_stack_height)")
        return here["height"] >= int(args[1])
    raise ParseError(f"unknown test {name}")
