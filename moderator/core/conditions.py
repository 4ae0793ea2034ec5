"""Guard tests every game shares, with one meaning across games (issue 11).

``TURN n`` holds in turn n only; ``TURN n+`` holds in turn n and every later turn.  (VMT's TURN
once meant "n or later" while Narva's meant "exactly n": one word, one meaning.)
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.core.errors import ParseError
from moderator.core.grammar import ConditionSpec

TURN_CONDITION = ConditionSpec("TURN", "<n>|<n>+", "it is turn n (TURN 3), or turn n or later (TURN 3+)")


def turn_test(turn: int, args: Sequence[str]) -> bool:
    """``TURN n`` / ``TURN n+`` against the current turn; raises ParseError for anything else."""
    if len(args) != 1:
        raise ParseError("TURN takes a turn number, e.g. TURN 3 (that turn) or TURN 3+ (that turn or later)")
    text = args[0]
    or_later = text.endswith("+")
    try:
        wanted = int(text[:-1] if or_later else text)
    except ValueError:
        raise ParseError(f"TURN needs a number, not '{text}' (e.g. TURN 3 or TURN 3+)") from None
    return turn >= wanted if or_later else turn == wanted
