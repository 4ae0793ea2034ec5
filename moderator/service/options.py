"""Option lists a person can read (issue 12): the legal answers of a question, grouped, and never cut
without saying how to see the rest.

`ASSAULT GROUP A01`, `ASSAULT GROUP A02` and `ASSAULT GROUP A04` read as one line,
`ASSAULT GROUP A01|A02|A04` ("one of"); a report shows the first `REPORT_LINES` such lines and says
how many more there are and that OPTIONS (mail/commands.py) mails them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator.core.contract import OPTION_LABEL, Decision, Engine

#: Grouped option lines a report shows per question; OPTIONS shows them all.
REPORT_LINES = 12
#: An option line longer than this is split where it has alternatives (the report indents it by 7).
LINE_CHARS = 62
#: A label the engine writes after an option ("RETREAT TO C03  (1 loss)") keeps the option whole.
_LABEL = OPTION_LABEL


def group_options(options: Sequence[str]) -> list[str]:
    """The options with those that differ in one word only (never the first) merged: `X A|B|C Y`.
    An option with a label stays whole."""
    rows = [[option] if _LABEL in option else option.split() for option in dict.fromkeys(options)]
    for position in range(max((len(row) for row in rows), default=0) - 1, 0, -1):
        rows = _merge_at(rows, position)
    return [line for row in rows for line in _fitted(row)]


def _fitted(row: list[str], width: int = LINE_CHARS) -> list[str]:
    """A grouped row as lines of at most `width` characters where it can be: a long run of
    alternatives is split over several lines, each repeating the words around it (a phone's
    screen, and a text wrapped at 72 columns, cannot break `A|B|C` where a reader would)."""
    line = " ".join(row)
    long = max(range(len(row)), key=lambda i: len(row[i]))
    if len(line) <= width or "|" not in row[long]:
        return [line]
    room = max(width - (len(line) - len(row[long])), 12)
    chunks: list[list[str]] = [[]]
    for choice in row[long].split("|"):
        if chunks[-1] and len("|".join([*chunks[-1], choice])) > room:
            chunks.append([])
        chunks[-1].append(choice)
    return [" ".join([*row[:long], "|".join(chunk), *row[long + 1:]]) for chunk in chunks]


def _merge_at(rows: list[list[str]], position: int) -> list[list[str]]:
    """Rows equal but for the word at `position` become one row with those words joined by '|'."""
    merged: dict[tuple[Any, ...], list[str]] = {}
    for index, row in enumerate(rows):
        if position >= len(row):
            merged[("whole", index)] = row
            continue
        key = (len(row), tuple(row[:position]), tuple(row[position + 1:]))
        if key in merged:
            words = merged[key][position].split("|") + row[position].split("|")
            merged[key][position] = "|".join(dict.fromkeys(words))
        else:
            merged[key] = list(row)
    return list(merged.values())


def every_answer(engine: Engine[Any], state: Any, decision: Decision) -> list[str]:
    """Every legal answer the engine lists for a question (its options, then those it lists beyond them)."""
    return engine.answers(state, decision)


def shown_options(options: Sequence[str]) -> tuple[list[str], int]:
    """The grouped lines a report shows for a question, and how many more OPTIONS would show."""
    grouped = group_options(options)
    return grouped[:REPORT_LINES], max(0, len(grouped) - REPORT_LINES)


def options_text(engine: Engine[Any], state: Any, role: str) -> str:
    """The OPTIONS mail: every question asked of the seat now with all its legal answers, grouped."""
    asked = [d for d in engine.pending(state) if d.role == role]
    if not asked:
        return "Nothing is asked of you now, so there are no options to list. (STATUS says who owes what.)\n"
    lines = ["Every legal answer of each question you are asked now. A|B|C means: write one of them.", ""]
    for number, decision in enumerate(asked, 1):
        lines.append(f"{number}. [{decision.key}] {decision.prompt}")
        lines += [f"     {line}" for line in group_options(every_answer(engine, state, decision))]
        lines += [f"   If you do not answer: {decision.default}", ""]
    return "\n".join(lines)
