"""How much of a player's own text a reply may quote (issue 12: a receipt never echoes more than a
bounded amount of it, and says what it left out).

A line of orders is a few dozen characters; a message that is mostly one enormous line, or
hundreds of lines, is either a mistake or an attempt to make the moderator mail text of someone
else's choosing.  Receipts quote at most `chars` characters of a line and `lines` lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ELLIPSIS = "…"


def clip(text: str, chars: int) -> str:
    """`text`, cut to `chars` characters and marked with an ellipsis where it was cut."""
    return text if len(text) <= chars else text[:chars] + ELLIPSIS


def listed(values: Sequence[str], chars: int, most: int = 5) -> str:
    """'a, b and c' with each value clipped, and at most `most` of them ('... and 3 more')."""
    shown = [clip(value, chars) for value in values[:most]]
    if len(values) > most:
        shown.append(f"{len(values) - most} more")
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def bounded_receipt_lines(lines: Sequence[dict[str, Any]], chars: int,
                          most: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The receipt's lines with the player's text (`source`, `canonical`) cut to `chars` characters
    and at most `most` lines; and what was cut, in words, for the receipt (empty when nothing was).

    A line's error quotes the part of the line it is about: it may be twice as long (the rest is
    the explanation) before it is cut too.
    """
    kept = []
    cut: list[str] = []
    bounds = {"source": chars, "canonical": chars, "error": 2 * chars}
    for line in lines[:most]:
        shown = dict(line)
        for key, bound in bounds.items():
            value = shown.get(key)
            if isinstance(value, str) and len(value) > bound:
                shown[key] = clip(value, bound)
                if str(line["line_no"]) not in cut:
                    cut.append(str(line["line_no"]))
        kept.append(shown)
    notes = []
    if cut:
        which = f"line {cut[0]} is" if len(cut) == 1 else f"lines {listed(cut, 12, 10)} are"
        notes.append(f"{which[0].upper()}{which[1:]} shown cut at {chars} characters (a receipt quotes no more "
                     f"of a line).")
    if len(lines) > most:
        notes.append(f"Only the first {most} lines are shown; {len(lines) - most} more were read "
                     f"(a receipt quotes no more lines than that).")
    return kept, notes
