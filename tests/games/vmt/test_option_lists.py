"""VMT's questions list every answer a player may give (issue 12): a group's Assault with each area
it may move into (TO, L172, L384), and each allocation of the hits due (L312, L320)."""

from __future__ import annotations

from moderator.core.rng import Rng
from moderator.games.vmt.engine import engine
from tests.games.vmt.test_examples import example_position


def test_the_card_question_lists_each_group_s_assault_into_each_neighbouring_area():
    pos = example_position()
    decision = pos.pending("axis")[0]
    targets = [o for o in decision.options if o.startswith("ASSAULT GROUP A04 TO ") and "USING" not in o]
    assert {o.split()[-1] for o in targets} == set(pos.board.geo.neighbours("A04", include_ferry=True))
    assert "ASSAULT GROUP A04 TO A08 USING COUNTERATTACK" in decision.options
    for option in targets:
        order = engine.grammar.parse(option, engine.lexicon(pos.state, "axis"), kinds=["card"])
        engine.apply(pos.state, "axis", order, Rng(b"o" * 32))  # each listed play is legal


def test_the_hits_question_lists_the_blocks_each_hit_may_fall_on():
    """The worked example's casualties (L312): the Axis takes 3 hits; the first on a 4-step block."""
    pos = example_position()
    for role, text, dice in (
            ("axis", "ASSAULT DIVISION 24", []), ("axis", "COORDINATE 50 USING COUNTERATTACK", []),
            ("axis", "ASSETS ARMOR PZ3 A04 PIONEER APIOA A04", []), ("axis", "ASSETS NONE", []),
            ("axis", "MOVE 50/121 50/122 24/31 TO A08 WITH PZ3 APIOA", []),
            ("axis", "MOVE 24/32 24/102 50/123 TO A08", []),
            ("axis", "RESOLVE A08", []), ("axis", "SUPPORT AXIS_FIELD_ARTILLERY", []),
            ("soviet", "SUPPORT MINEFIELD BUNKER MORTARS", [2, 5, 5, 6, 4, 1, 2, 3, 1, 2, 5, 6, 4, 1])):
        pos.order(role, text, dice=dice)
    hits = next(d for d in pos.pending("axis") if d.kind == "hits")
    listed = [o for o in hits.options if o != "HITS AUTO"]
    assert "HITS 50/121 24/32" in listed and len(listed) == len(set(listed)) > 1
    blocks = pos.board.blocks_in("A08", "axis")
    strongest = {b for b in blocks if pos.sp(b) == max(pos.sp(x) for x in blocks)}
    assert {o.split()[1] for o in listed} == strongest  # the first hit on a strongest block (L312)
    assert {b for o in listed for b in o.split()[2:]} == set(blocks)  # the others on any block
    for option in listed:
        order = engine.grammar.parse(option, engine.lexicon(pos.state, "axis"), kinds=["hits"])
        engine.apply(pos.state, "axis", order, Rng(b"h" * 32))
