"""One line of report text per event kind, from the event's own data (already filtered per role).

A side's own copy of a move, a step lost or a retreat names its units; the other side's copy says
only how many (§3.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from moderator.core.contract import Event


def _die(die: Any) -> str:
    value, stream, counter = die
    return f"{value} [{stream}#{counter}]"


def _side(side: str | None) -> str:
    return (side or "nobody").title()


def _battle(d: Mapping[str, Any]) -> str:
    # Attacker first, by name: logged events come back from JSON with their keys sorted.
    rolls = "; ".join(f"{_side(side)} rolls {_die(d['rolls'][side]['die'])}, total {d['rolls'][side]['total']}"
                      for side in (d["attacker"], d["defender"]))
    result = f"A tie: {_side(d['defender'])} holds." if d["loser"] is None else f"{_side(d['loser'])} loses."
    return f"BATTLE in {d['area']} ({_side(d['attacker'])} attacking): {rolls}. {result}"


def _step_lost(d: Mapping[str, Any]) -> str:
    if "unit" in d:
        left = "eliminated" if d["result"] == "eliminated" else f"down to strength {d['strength']}"
        return f"Your unit {d['unit']} in {d['area']} loses a step: {left} ({d['why']})."
    return f"A {d['side']} unit in {d['area']} loses a step and is {d['result']} ({d['why']})."


def _retreated(d: Mapping[str, Any]) -> str:
    if "units" in d:
        return f"Your {', '.join(d['units'])} retreat from {d['origin']} to {d['area']} (§6.3)."
    return f"{d['count']} {d['side']} unit(s) retreat from {d['origin']} to {d['area']} (§6.3)."


TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "turn_begins": lambda d: f"Turn {d['turn']} begins.",
    "phase_begins": lambda d: f"Turn {d['turn']}: the {d['side']} phase begins.",
    "moved": lambda d: f"Your unit {d['unit']} moves from {d['origin']} to {d['area']}.",
    "enemy_moved": lambda d: f"A {d['side']} unit moves from {d['origin']} to {d['area']}.",
    "movement_over": lambda d: f"{_side(d['side'])} ends its movement.",
    "battle": _battle,
    "step_lost": _step_lost,
    "retreated": _retreated,
    "control": lambda d: f"{_side(d['side'])} takes control of {d['area']} (§7).",
    "phase_over": lambda d: (f"End of the {d['side']} phase of turn {d['turn']}: VP areas held: Red {d['vp']['red']}, "
                             f"Blue {d['vp']['blue']}."),
    "game_over": lambda d: f"GAME OVER: {d['reason']}.",
}


def narrate(event: Event, role: str) -> str:
    text = TEXT.get(event.kind)
    if text is None:
        return f"{event.kind}: {dict(event.data)}"
    return text(event.data)
