"""The Combat Results Table as text, for the HELP mail (9.1, 2.2.3B).

The rulebook prints no CRT (its values are reconstructed in scenarios/narva/tables.yaml, each marked
so); a player who sees "column 3-2; die 4: D1r1" in a report must be able to read that line, so HELP
carries the table the moderator uses, from the same data, with the rulebook's codes explained.
"""

from __future__ import annotations

from moderator.games.narva.scenario import scenario_named
from moderator.games.narva.scenario.schema import Crt

CELL = 9  # the widest result, "A1* D1r2", and a space


def crt_lines(scenario_name: str = "campaign") -> list[str]:
    """The CRT: one line of odds per side (9.1B), then one line per die roll, barrage last (2.2.3B)."""
    crt = scenario_named(scenario_name).tables.crt
    columns = sorted(crt.columns, key=lambda c: c.index)
    lines = [
        "COMBAT RESULTS TABLE (9.1; the rulebook prints none: these are the values this moderator uses,",
        "reconstructed in its scenarios/narva/tables.yaml, which a club may correct)",
        "",
        "German attacks " + "".join(c.german.ljust(CELL) for c in columns),
        "Soviet attacks " + "".join(c.soviet.ljust(CELL) for c in columns) + "Barrage",
    ]
    for row in sorted(crt.rows, key=lambda r: r.die):
        lines.append(f"  die {row.die}        " + "".join(r.ljust(CELL) for r in row.results) + row.barrage)
    lines += ["", *legend(crt)]
    return lines


def legend(crt: Crt) -> list[str]:
    """The codes, in the rulebook's words where it has them (9.1, 9.1D, 2.5.1.3, 9.3.2A)."""
    return [
        "A = attacker, D = defender: the number is steps lost, rN hexes retreated (9.1); NR no result;",
        f"P pinned (barrage, 2.5.1.3). An attacker loss marked {crt.red_marker} applies only when the Soviets",
        "attack (9.1D). Shifts move along the attacker's line; odds below the lowest column after",
        "shifts cancel the attack (9.3.2A), above the highest use the highest; a modified roll above 6",
        "or below 1 counts as 6 or 1.",
    ]
