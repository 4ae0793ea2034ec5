"""The refusal helper insists on the rule, and no test expects a refused order without naming its rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.core.errors import IllegalOrder, ParseError
from tests.refusals import assert_names_rule, refusal

TESTS = Path(__file__).resolve().parent


def refuse(message: str, suggestions: tuple[str, ...] = (), hint: str = ""):
    def attempt():
        raise IllegalOrder(message, suggestions, hint)
    return attempt


def test_a_refusal_for_the_named_rule_passes_and_returns_the_error():
    error = refusal(refuse("the ferry 1004-1104 has already carried a unit this activation (6.2.2.2B)"),
                    because=r"ferry .* \(6\.2\.2\.2B\)")
    assert isinstance(error, IllegalOrder) and "1004-1104" in str(error)


def test_a_refusal_for_another_rule_fails_and_shows_the_message():
    with pytest.raises(AssertionError, match=r"not for the rule .*cannot cross the river"):
        refusal(refuse("77 cannot cross the river between 1104 and 1004 (6.2.2)"), because=r"ferry")


def test_an_accepted_order_fails():
    with pytest.raises(AssertionError, match="accepted"):
        refusal(lambda: None, because=r"7\.1")


def test_the_hint_and_suggestions_count_as_the_message():
    error = refusal(refuse("2332 is full", ("MOVE 602 TO 2331",), hint="stacking, 7.1"), because=r"stacking, 7\.1")
    assert assert_names_rule(error, r"did you mean 'MOVE 602 TO 2331'").startswith("2332 is full")


def test_another_kind_of_error_is_not_taken_for_a_refusal():
    def unparsable():
        raise ParseError("no area 'A8'")
    with pytest.raises(ParseError, match=r"no area 'A8'"):  # passed through: not an IllegalOrder
        refusal(unparsable, because=r"A8")
    assert refusal(unparsable, because=r"no area 'A8'", error=ParseError)


@pytest.mark.parametrize("pattern", ["", ".*", "(?:)", "x?"])
def test_a_pattern_that_matches_any_message_is_refused(pattern):
    with pytest.raises(ValueError, match="must name the rule"):
        refusal(refuse("anything"), because=pattern)


def test_no_test_expects_a_refused_order_without_naming_its_rule():
    """`pytest.raises` of an order error must say `match=`; the helpers require `because=` by signature."""
    raises = re.compile(r"pytest\.raises\(\s*(IllegalOrder|OrderError|ParseError|WrongDecision)\b([^:]*)")
    unnamed = []
    for path in sorted(TESTS.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for found in raises.finditer(text):
            if "match=" not in found.group(2):
                line = text.count("\n", 0, found.start()) + 1
                unnamed.append(f"{path.relative_to(TESTS.parent)}:{line}")
    assert not unnamed, f"refusals expected without naming the rule (add match=): {unnamed}"
