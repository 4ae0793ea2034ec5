"""Asserting that an order is refused for the rule a test is about, not merely refused.

A refusal test that accepts any refusal passes when the order fails for another reason (a ferry test
passing on a river refusal).  So every helper that expects a refusal takes `because`: a regular
expression (searched, as pytest's `match=`) that the refusal's message, with its hint and
suggestions, must contain.  Choose what names the rule: its section or line ("6\\.2\\.2\\.2B", "L254"),
or the rule's own words ("ferry", "stacking"), specific enough that a refusal for any other reason
fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.core.errors import IllegalOrder, OrderError


def refusal(attempt: Callable[[], object], because: str, error: type[OrderError] = IllegalOrder) -> OrderError:
    """Run `attempt`, which must raise `error` with a message matching `because`; return the error.

    Raises AssertionError when nothing is raised or the message does not match, and ValueError when
    `because` would match any message (it must name something)."""
    check_pattern(because)
    try:
        attempt()
    except error as refused:
        assert_names_rule(refused, because)
        return refused
    raise AssertionError(f"the order was accepted; expected a refusal for {because!r}")


def assert_names_rule(refused: OrderError, because: str) -> str:
    """The refusal's full message, after asserting that it matches `because`."""
    check_pattern(because)
    message = refused.explain()
    if not re.search(because, message):
        raise AssertionError(f"refused, but not for the rule {because!r}: {message}")
    return message


def check_pattern(because: str) -> None:
    """Refuse a pattern that would match an empty message, and so any refusal at all."""
    if not isinstance(because, str) or re.search(because, "") is not None:
        raise ValueError(f"because={because!r} must name the rule: it matches any message")
