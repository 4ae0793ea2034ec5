"""The demo player (bot.py) answers from the options its report lists; an option's note (a retreat's
extra losses after it) is not part of the order it sends."""

from __future__ import annotations

from moderator.games.vmt.bot import without_label
from moderator.games.vmt.engine import engine
from tests.games.vmt.test_rules_retreat import beaten_three


def test_the_demo_bot_sends_a_listed_retreat_without_its_note():
    """Ruling R-RETREAT: each retreat option, split ones too, is an order with its extra losses noted after
    it; the bot's answer is the order alone, which the grammar reads as the option's order."""
    pos = beaten_three("A07: 95/90 95/161 | A12: 7NI 79NI | A14: 8NI | A13: 213")
    (decision,) = pos.pending("soviet")
    lexicon = engine.lexicon(pos.state, "soviet")
    labelled = [o for o in decision.options if "  (" in o]
    assert labelled and any(" AND " in o for o in labelled)
    for option in labelled:
        answer = without_label(option)
        assert answer == option.split("  (")[0]
        assert engine.grammar.parse(answer, lexicon, kinds=["retreat"]).kind == "retreat"
    assert without_label("SUPPORT MORTARS MORTARS") == "SUPPORT MORTARS MORTARS"
