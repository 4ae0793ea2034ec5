"""The shared order grammar: parsing, canonical rendering, prefixes, aliases and suggestions."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.core.errors import ParseError
from moderator.core.grammar import ConditionSpec, Grammar, Lexicon, Order, OrderSpec

GRAMMAR = Grammar([
    OrderSpec("card", "assault", "ASSAULT <division:division> [WITH <extra:division...>]", "Assault a division."),
    OrderSpec("move", "move", "MOVE <blocks:block...> <from:area> -> <to:area>", "Move blocks."),
    OrderSpec("move", "done", "DONE", "Stop moving."),
    OrderSpec("air", "strike", "AIRSTRIKE <mode:ATTACK|INTERDICT> <target:area>", "Air strike."),
    OrderSpec("hits", "hits", "HITS <count:int> <blocks:block...>", "Allocate hits."),
], [ConditionSpec("LOST", "", "lost")])


def lexicon() -> Lexicon:
    lex = Lexicon()
    for area, aliases in {"A31": ("MEKENZIA", "MEK"), "A27": ("BELBEK",), "A30": ()}.items():
        lex.add("area", area, aliases)
    for block in ("50/121", "50/122", "24/32"):
        lex.add("block", block)
    for div in ("50", "24", "132"):
        lex.add("division", div)
    return lex


def test_parse_and_render_round_trip():
    order = GRAMMAR.parse("move 50/121 50/122 a27 -> mekenzia", lexicon())
    assert order == Order("move", "move", (("blocks", ("50/121", "50/122")), ("from", "A27"), ("to", "A31")))
    assert GRAMMAR.render(order) == "MOVE 50/121 50/122 A27 -> A31"


def test_keyword_prefix_and_optional_group():
    order = GRAMMAR.parse("ass 50 with 24 132", lexicon())
    assert GRAMMAR.render(order) == "ASSAULT 50 WITH 24 132"
    assert GRAMMAR.render(GRAMMAR.parse("ASSAULT 50", lexicon())) == "ASSAULT 50"


def test_choice_slot_accepts_prefix():
    assert GRAMMAR.parse("AIRSTRIKE inter A30", lexicon()).get("mode") == "INTERDICT"


def test_unknown_name_suggests_the_nearest():
    with pytest.raises(ParseError, match=r"no area 'Mekensia'") as error:
        GRAMMAR.parse("MOVE 50/121 A27 -> Mekensia", lexicon())
    assert "no area 'Mekensia'" in str(error.value)
    assert "MEKENZIA" in error.value.explain()


def test_unknown_keyword_suggests():
    with pytest.raises(ParseError, match=r"MOOVE") as error:
        GRAMMAR.parse("MOOVE 50/121 A27 -> A31", lexicon())
    assert "MOVE" in error.value.explain()


def test_trailing_garbage_is_reported():
    with pytest.raises(ParseError, match="unexpected"):
        GRAMMAR.parse("DONE now please", lexicon())


def test_integer_slot():
    assert GRAMMAR.parse("HITS 2 50/121", lexicon()).get("count") == 2
    with pytest.raises(ParseError, match="number"):
        GRAMMAR.parse("HITS two 50/121", lexicon())


def test_ambiguous_prefix_lists_candidates():
    lex = lexicon()
    lex.add("area", "A301")
    with pytest.raises(ParseError, match="could be"):
        GRAMMAR.parse("AIRSTRIKE ATTACK A3", lex)


@given(st.lists(st.sampled_from(["50/121", "50/122", "24/32"]), min_size=1, max_size=3),
       st.sampled_from(["A31", "A27", "A30"]), st.sampled_from(["A31", "A27", "A30"]))
def test_parse_of_render_is_identity(blocks, origin, target):
    order = Order("move", "move", (("blocks", tuple(blocks)), ("from", origin), ("to", target)))
    assert GRAMMAR.parse(GRAMMAR.render(order), lexicon()) == order


def test_help_sections_group_by_kind():
    titles = [title for title, _ in GRAMMAR.help_sections()]
    assert titles == ["card", "move", "air", "hits"]


def test_a_misspelt_name_in_a_list_is_diagnosed_as_a_misspelt_name():
    """Issue 12: '5O/122' (a letter O) after a good block is a misspelt block, not 'unexpected'."""
    with pytest.raises(ParseError, match="no block '5O/122'") as listed:
        GRAMMAR.parse("HITS 2 50/121 5O/122", lexicon())
    assert "no block '5O/122'" in listed.value.explain() and "'50/122'" in listed.value.explain()
    with pytest.raises(ParseError, match="no block '5O/122'") as moving:
        GRAMMAR.parse("move 50/121 5O/122 a27 -> mekenzia", lexicon())
    assert "no block '5O/122'" in str(moving.value) and "50/122" in moving.value.suggestions


def test_a_misspelt_keyword_after_a_list_is_still_the_keyword():
    with pytest.raises(ParseError, match="expected 'WITH' but found 'WIHT'"):
        GRAMMAR.parse("ASSAULT 50 WIHT 24", lexicon())


def test_an_unknown_name_where_another_form_expects_a_keyword_is_diagnosed_as_an_unknown_name():
    """Issue 12 (Narva hand play, mails 015 and 022): 'ATTACH 185tk' was refused as "expected 'NONE'
    but found '185tk'" because ATTACH NONE is tried first; the word is nothing like NONE, so the form
    that reads a name there says what is wrong. A word like the keyword is still its misspelling."""
    grammar = Grammar([OrderSpec("attach", "none", "ATTACH NONE", "No attachments."),
                       OrderSpec("attach", "units", "ATTACH <units:block...>", "Attach blocks.")])
    with pytest.raises(ParseError, match=r"^no block '50/12x'") as unknown:
        grammar.parse("ATTACH 50/12x", lexicon())
    assert str(unknown.value).startswith("no block '50/12x'") and "50/121" in unknown.value.suggestions
    with pytest.raises(ParseError, match="expected 'NONE' but found 'NOEN'"):
        grammar.parse("ATTACH NOEN", lexicon())


def test_a_name_not_found_among_few_lists_them_all():
    lex = Lexicon()
    for card in ("C05", "C12", "C16"):
        lex.add("card", card)
    with pytest.raises(ParseError, match=r"no card 'Z99' \(yours: C05, C12, C16\)"):
        lex.resolve("card", "Z99")


def test_a_name_written_in_several_words_is_the_name():
    # Issue 12, human text: people write 'heavy artillery' and 'Red Square' for HEAVY_ARTILLERY and
    # RedSquare; the words make one name, alone and in a list, and the rest of the line still parses.
    grammar = Grammar([OrderSpec("card", "play", "PLAY <card:card> [<target:area>]", "Play a card."),
                       OrderSpec("card", "discard", "DISCARD <cards:card...>", "Discard cards."),
                       OrderSpec("assault", "assault", "ASSAULT <building:building> WITH <formations:word...>",
                                 "Assault a building.")])
    lex = lexicon()
    for card in ("HEAVY_ARTILLERY", "SUPERHEAVY_ARTILLERY", "ASSAULT", "AIR_STRIKE"):
        lex.add("card", card)
    lex.add("building", "RedSquare")
    assert grammar.parse("play heavy artillery a27", lex).get("card") == "HEAVY_ARTILLERY"
    assert grammar.parse("play heavy artillery a27", lex).get("target") == "A27"
    assert grammar.parse("play Heavy-Artillery a27", lex).get("card") == "HEAVY_ARTILLERY"
    assert grammar.parse("discard air strike assault Superheavy Artillery", lex).values("cards") == (
        "AIR_STRIKE", "ASSAULT", "SUPERHEAVY_ARTILLERY")
    assert grammar.parse("ASSAULT Red Square WITH 16Pz 24Pz", lex).get("building") == "RedSquare"
    with pytest.raises(ParseError, match="no area 'mortars'"):  # two words that make no name are two words
        grammar.parse("play heavy mortars a27", lex)
