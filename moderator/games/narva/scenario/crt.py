"""The Combat Results Table of Across the Narva: reading its cells and odds, and the lookup tables
the scenario keeps of it (tables.yaml ``crt`` and ``barrage_roll``)."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from moderator.games.narva.scenario.schema import SIDES, Tables


@dataclass(frozen=True, slots=True)
class CombatResult:
    """One result of the CRT or the barrage column: steps lost and hexes retreated by each side, pinned."""

    attacker_steps: int = 0
    attacker_retreat: int = 0
    defender_steps: int = 0
    defender_retreat: int = 0
    pinned: bool = False

    @property
    def code(self) -> str:
        parts = []
        if self.attacker_steps or self.attacker_retreat:
            parts.append("A" + (str(self.attacker_steps) if self.attacker_steps else "") +
                         (f"r{self.attacker_retreat}" if self.attacker_retreat else ""))
        if self.defender_steps or self.defender_retreat:
            parts.append("D" + (str(self.defender_steps) if self.defender_steps else "") +
                         (f"r{self.defender_retreat}" if self.defender_retreat else ""))
        if self.pinned:
            parts.append("P")
        return " ".join(parts) or "NR"


_PART_RE = re.compile(r"^(A|D)(\d*)(?:r(\d+))?(\*?)$")


def parse_result(code: str) -> tuple[CombatResult, CombatResult]:
    """A CRT cell -> (result as printed, result with the red attacker losses removed).

    Raises ValueError on malformed cells.
    """
    if not isinstance(code, str) or not code.strip():
        raise ValueError(f"empty CRT result {code!r}")
    text = code.strip()
    if text == "NR":
        nr = CombatResult()
        return nr, nr
    full: dict[str, Any] = {"attacker_steps": 0, "attacker_retreat": 0, "defender_steps": 0, "defender_retreat": 0,
                            "pinned": False}
    red = dict(full)
    seen: set[str] = set()
    for part in text.split():
        if part == "P":
            if "P" in seen:
                raise ValueError(f"CRT result {code!r} repeats P")
            seen.add("P")
            full["pinned"] = red["pinned"] = True
            continue
        m = _PART_RE.match(part)
        if not m:
            raise ValueError(f"CRT result {code!r}: cannot read {part!r}")
        who, steps, retreat, star = m.group(1), m.group(2), m.group(3), m.group(4)
        if who in seen:
            raise ValueError(f"CRT result {code!r} names {who} twice")
        seen.add(who)
        if not steps and not retreat:
            raise ValueError(f"CRT result {code!r}: {part!r} gives neither steps nor retreat")
        if star and (who != "A" or not steps):
            raise ValueError(f"CRT result {code!r}: only attacker step losses can be red (*)")
        n, r = int(steps or 0), int(retreat or 0)
        key = "attacker" if who == "A" else "defender"
        full[f"{key}_steps"], full[f"{key}_retreat"] = n, r
        red[f"{key}_steps"], red[f"{key}_retreat"] = (0 if star else n), r
    return CombatResult(**full), CombatResult(**red)


def parse_odds(text: str) -> Fraction:
    """An odds column heading such as ``"3-1"`` as a ratio; raises ValueError unless written N-M."""
    m = re.match(r"^(\d+)-(\d+)$", text.strip()) if isinstance(text, str) else None
    if not m or int(m.group(2)) == 0 or int(m.group(1)) == 0:
        raise ValueError(f"odds {text!r} must be written N-M")
    return Fraction(int(m.group(1)), int(m.group(2)))


def crt_index(tables: Tables) -> dict[str, Any]:
    """The CRT as the engine reads it: every cell parsed, the odds lines, the die range and the
    barrage tables.  Malformed cells are left out (the validator reports them)."""
    crt_cells: dict[tuple[int, int], tuple[CombatResult, CombatResult]] = {}
    barrage_cells: dict[int, CombatResult] = {}
    for row in tables.crt.rows:
        for i, code in enumerate(row.results, start=1):
            with contextlib.suppress(ValueError):
                crt_cells[(i, row.die)] = parse_result(code)
        with contextlib.suppress(ValueError):
            barrage_cells[row.die] = parse_result(row.barrage)[0]
    dice = [row.die for row in tables.crt.rows] or [1]
    odds: dict[str, list[Fraction]] = {"german": [], "soviet": []}
    for col in sorted(tables.crt.columns, key=lambda c: c.index):
        for side in SIDES:
            try:
                odds[side].append(parse_odds(getattr(col, side)))
            except ValueError:
                odds[side].append(Fraction(10**9))  # an unreadable column is never reached
    return {
        "crt_cells": crt_cells,
        "ncolumns": len(tables.crt.columns),
        "barrage_cells": barrage_cells,
        "die_min": min(dice),
        "die_max": max(dice),
        "odds": odds,
        "barrage_roll": {b.side: dict(b.results) for b in tables.barrage_roll},
        "events": {e.roll: e for e in tables.random_events},
    }
