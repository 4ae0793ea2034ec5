"""The effect vocabulary of the scenario data: the rulebook's own icons (§Effects), one string each.

``<icon> [<unit>] [xN] [any]``: ``add Panzer x2``, ``kill``, ``fire x3``, ``fire any`` (Paulus'
reload: any district's Tracking Card, ruling S-80).  `parse_effect` turns a string into an `Effect`
and raises ValueError naming what is wrong, so a club editing a card is told the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer

#: every icon, with whether it names a unit (§Effects, §Units, §Heroes)
ICONS: dict[str, bool] = {
    "add": True, "kill": False, "pkill": False, "sniper": False, "draw": False, "discard": False, "fire": False,
    "bucket": False, "deplete": False, "supply": False, "overrun": False, "rubble_fort": False, "sacrifice": False,
    "inferno": False,
    # the advanced game's text-card and hero effects (§Advanced Card Effects, §Heroes)
    "second_action": False, "reload": False, "promote": False, "discard_hand": False, "execute_rifles": False,
    "forced_march": False, "ghost": False, "tongues": False, "rats_war": False, "last_stand": False,
    "intercept": False, "hero_dice": False, "steal_die": False, "douse": False,
}


@dataclass(frozen=True)
class Effect:
    """One icon of a card: what it does, to which unit, how many times, and (fire) whether any district."""

    icon: str
    unit: str | None = None
    times: int = 1
    anywhere: bool = False

    def text(self) -> str:
        parts = [self.icon] + ([self.unit] if self.unit else []) + ([f"x{self.times}"] if self.times != 1 else [])
        return " ".join(parts + (["any"] if self.anywhere else []))


def parse_effect(value: Any) -> Effect:
    """An effect string as an `Effect`; raises ValueError for an unknown icon or a malformed string."""
    if isinstance(value, Effect):
        return value
    if not isinstance(value, str) or not value.split():
        raise ValueError(f"an effect is a string such as 'add Panzer x2', not {value!r}")
    words = value.split()
    icon = words.pop(0)
    if icon not in ICONS:
        raise ValueError(f"unknown icon '{icon}' (icons: {', '.join(ICONS)})")
    unit = words.pop(0) if ICONS[icon] and words else None
    if ICONS[icon] and unit is None:
        raise ValueError(f"'{icon}' needs a unit, e.g. '{icon} Rifle'")
    times, anywhere = 1, False
    for word in words:
        if word == "any" and icon == "fire":
            anywhere = True
        elif word.startswith("x") and word[1:].isdigit() and int(word[1:]) >= 1:
            times = int(word[1:])
        else:
            raise ValueError(f"'{word}' in effect {value!r} is neither xN nor 'any' (after fire)")
    return Effect(icon, unit, times, anywhere)


EffectText = Annotated[Effect, BeforeValidator(parse_effect), PlainSerializer(Effect.text)]
