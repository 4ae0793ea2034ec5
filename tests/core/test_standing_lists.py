"""A seat's standing orders of one kind are a list (core/plans.py, issue 12): a new STANDING line adds to it
and replaces only the order with the same IF tests; CLEAR withdraws one order, a kind, or all.  The lines
are the hand-played VMT game's (S22, S33, S35): S35's three air orders silently replaced S33's."""

from __future__ import annotations

import pytest

from moderator.core.plans import Plan, merge_standing, parse_body
from moderator.core.rng import RngRecord
from moderator.registry import product_registry

ENGINE = product_registry().get("vmt")
STATE = ENGINE.setup(ENGINE.info.scenario().name, {}, RngRecord("standing", bytes(32), ["a"]).rng())
KINDS = sorted({spec.kind for spec in ENGINE.grammar.specs})

S22 = ["STANDING air IF AREA A06: AIRSTRIKE ATTACK A06", "STANDING air IF AREA A08: AIRSTRIKE ATTACK A08",
       "STANDING air: AIRSTRIKE NONE"]
S33 = ["STANDING air IF AREA A07: AIRSTRIKE ATTACK A07", "STANDING air IF AREA A03: AIRSTRIKE ATTACK A03"]
S35 = ["STANDING air IF AREA C01: AIRSTRIKE ATTACK C01", "STANDING air IF AREA C02: AIRSTRIKE ATTACK C02",
       "STANDING air IF AREA A10: AIRSTRIKE ATTACK A10"]


def filed(plan: Plan, lines: list[str]):
    """The plan after a message of `lines` (numbered from 16); the Soviet's when they name its cards."""
    role = "soviet" if any("SUPPORT" in line.upper() for line in lines) else "axis"
    body = parse_body(list(enumerate(lines, 16)), ENGINE.grammar, ENGINE.lexicon(STATE, role), KINDS)
    assert not body.has_errors, [line.error for line in body.lines]
    return merge_standing(plan, body.standing_changes)


def test_standing_orders_filed_in_later_messages_add_to_the_earlier_ones_the_catch_all_last():
    plan, _ = filed(Plan(), S22)
    plan, _ = filed(plan, S33)
    plan, news = filed(plan, S35)
    assert [s.render() for s in plan.standing] == [
        "STANDING AIR IF AREA A06: AIRSTRIKE ATTACK A06", "STANDING AIR IF AREA A08: AIRSTRIKE ATTACK A08",
        "STANDING AIR IF AREA A07: AIRSTRIKE ATTACK A07", "STANDING AIR IF AREA A03: AIRSTRIKE ATTACK A03",
        "STANDING AIR IF AREA C01: AIRSTRIKE ATTACK C01", "STANDING AIR IF AREA C02: AIRSTRIKE ATTACK C02",
        "STANDING AIR IF AREA A10: AIRSTRIKE ATTACK A10", "STANDING AIR: AIRSTRIKE NONE"]
    assert news.kinds == ("air",) and news.replaced == () and news.withdrawn == ()
    # Each of S35's lines comes after S22's and S33's, which it is told, with the line that puts it first.
    assert dict(news.effects)[16] == (
        "in force from now on; tried after the 4 air orders with IF filed before it (listed below), any of which "
        "answers instead when its tests hold too (to try this one first, send STANDING air FIRST IF AREA C01: "
        "AIRSTRIKE ATTACK C01)")
    assert all(dict(news.effects)[n].startswith("in force from now on; tried after the 4 air orders") for n in (17, 18))


def test_an_order_with_the_same_tests_or_the_unconditional_one_is_replaced_and_said_so():
    plan, _ = filed(Plan(), S22 + S33)
    plan, news = filed(plan, ["STANDING air IF AREA A07: AIRSTRIKE INTERDICT A07", "STANDING air: ASK",
                              "STANDING air IF AREA A03: AIRSTRIKE ATTACK A03"])
    assert "STANDING AIR IF AREA A07: AIRSTRIKE INTERDICT A07" in [s.render() for s in plan.standing]
    assert [s.render() for s in plan.standing][-1] == "STANDING AIR: ASK" and len(plan.standing) == 5
    assert news.replaced == (("air", "STANDING AIR IF AREA A07: AIRSTRIKE ATTACK A07",
                              "STANDING AIR IF AREA A07: AIRSTRIKE INTERDICT A07"),
                             ("air", "STANDING AIR: AIRSTRIKE NONE", "STANDING AIR: ASK"))
    assert dict(news.effects)[18].startswith("in force already; tried after the 2 air orders with IF filed before")


def test_clear_withdraws_one_order_a_kind_or_every_standing_order():
    plan, _ = filed(Plan(), [*S22, "STANDING support: SUPPORT NONE"])
    one, news = filed(plan, ["STANDING air IF AREA A08: CLEAR"])
    assert [s.render() for s in one.standing if s.kind == "air"] == [
        "STANDING AIR IF AREA A06: AIRSTRIKE ATTACK A06", "STANDING AIR: AIRSTRIKE NONE"]
    assert news.withdrawn == (("air", "STANDING AIR IF AREA A08: AIRSTRIKE ATTACK A08"),)
    for withdraw in ("STANDING CLEAR air", "STANDING air CLEAR"):
        kind, news = filed(plan, [withdraw])
        assert [s.kind for s in kind.standing] == ["support"] and len(news.withdrawn) == 3
    nothing, news = filed(plan, ["STANDING CLEAR"])
    assert nothing.standing == [] and news.kinds == ("air", "support")
    _, news = filed(plan, ["STANDING air IF AREA B09: CLEAR"])
    assert dict(news.effects) == {16: "you had no such standing order"}


# ------------------------------------------------------------------ the order they are tried in (hand-vmt.md D12)

BUNKER = "STANDING support IF HOLD BUNKER: SUPPORT BUNKER"
AREA = "STANDING support IF AREA A09: SUPPORT NONE"


def support(plan: Plan) -> list[str]:
    return [s.render() for s in plan.standing if s.kind == "support"]


def test_a_line_without_if_is_tried_last_whenever_it_was_filed():
    """Tried first, a catch-all would answer every question and leave the IF lines filed after it nothing."""
    plan, _ = filed(Plan(), ["STANDING support: SUPPORT NONE", BUNKER])
    plan, _ = filed(plan, ["ASK support", AREA])
    assert support(plan) == ["STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER",
                             "STANDING SUPPORT IF AREA A09: SUPPORT NONE", "STANDING SUPPORT: ASK"]


def test_a_new_if_line_after_an_earlier_one_is_told_so_and_how_to_put_it_first():
    """The tester's S18: the A09 line went after the Bunker line, which answers whenever a Bunker is held."""
    plan, _ = filed(Plan(), [BUNKER])
    plan, news = filed(plan, [AREA])
    assert support(plan) == ["STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER",
                             "STANDING SUPPORT IF AREA A09: SUPPORT NONE"]
    assert dict(news.effects) == {16: (
        "in force from now on; tried after STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER, filed before, which "
        "answers instead whenever its tests hold too (to try this one first, send STANDING support FIRST IF AREA "
        "A09: SUPPORT NONE)")}
    plan, news = filed(plan, ["STANDING support FIRST IF AREA A09: SUPPORT NONE"])
    assert support(plan) == ["STANDING SUPPORT IF AREA A09: SUPPORT NONE",
                             "STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER"]
    assert dict(news.effects) == {16: "in force already; tried first of your support orders"}
    assert not any(s.first for s in plan.standing) and news.replaced == ()  # FIRST placed it; nothing was replaced


def test_lines_of_one_message_are_not_warned_about_each_other_and_first_lines_keep_their_written_order():
    plan, news = filed(Plan(), [BUNKER, AREA, "STANDING support: SUPPORT NONE"])
    assert dict(news.effects) == {16: "in force from now on", 17: "in force from now on", 18: "in force from now on"}
    plan, news = filed(plan, ["STANDING support FIRST IF AREA A05: SUPPORT NONE",
                              "STANDING support FIRST IF AREA A06: SUPPORT NONE",
                              "STANDING support FIRST IF HOLD BUNKER: SUPPORT BUNKER MORTARS"])
    assert support(plan) == [
        "STANDING SUPPORT IF AREA A05: SUPPORT NONE", "STANDING SUPPORT IF AREA A06: SUPPORT NONE",
        "STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER MORTARS", "STANDING SUPPORT IF AREA A09: SUPPORT NONE",
        "STANDING SUPPORT: SUPPORT NONE"]
    assert news.replaced == (("support", "STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER",
                              "STANDING SUPPORT IF HOLD BUNKER: SUPPORT BUNKER MORTARS"),)


def test_first_is_echoed_as_written_and_refused_where_it_cannot_apply():
    body = parse_body([(3, "standing support first if area a09: support none")], ENGINE.grammar,
                      ENGINE.lexicon(STATE, "soviet"), KINDS)
    assert body.lines[0].canonical == "STANDING SUPPORT FIRST IF AREA A09: SUPPORT NONE"
    refused = parse_body([(3, "STANDING support FIRST: SUPPORT NONE"),
                          (4, "STANDING support FIRST IF AREA A09: CLEAR")],
                         ENGINE.grammar, ENGINE.lexicon(STATE, "soviet"), KINDS)
    assert [line.error for line in refused.lines] == [
        "FIRST puts an order with IF ahead of your other support orders; one without IF is always tried last (it "
        "answers whatever the others leave), so it takes no FIRST",
        "FIRST places an order; to withdraw one write 'STANDING support IF <test>: CLEAR'"]


@pytest.mark.parametrize("line", ["STANDING support FIRST IF AREA A09: SUPPORT NONE", "STANDING support IF AREA A09: "
                                  "SUPPORT NONE"])
def test_a_plan_read_back_keeps_the_order_and_forgets_first(line):
    plan, _ = filed(Plan(), [BUNKER])
    plan, _ = filed(plan, [line])
    assert Plan.from_json(plan.to_json()).standing == plan.standing
    assert "first" not in str(plan.to_json())
