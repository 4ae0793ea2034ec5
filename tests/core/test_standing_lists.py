"""A seat's standing orders of one kind are a list (core/plans.py, issue 12): a new STANDING line adds to it
and replaces only the order with the same IF tests; CLEAR withdraws one order, a kind, or all.  The lines
are the hand-played VMT game's (S22, S33, S35): S35's three air orders silently replaced S33's."""

from __future__ import annotations

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
    body = parse_body(list(enumerate(lines, 16)), ENGINE.grammar, ENGINE.lexicon(STATE, "axis"), KINDS)
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
    assert dict(news.effects) == {16: "in force from now on", 17: "in force from now on", 18: "in force from now on"}


def test_an_order_with_the_same_tests_or_the_unconditional_one_is_replaced_and_said_so():
    plan, _ = filed(Plan(), S22 + S33)
    plan, news = filed(plan, ["STANDING air IF AREA A07: AIRSTRIKE INTERDICT A07", "STANDING air: ASK",
                              "STANDING air IF AREA A03: AIRSTRIKE ATTACK A03"])
    assert "STANDING AIR IF AREA A07: AIRSTRIKE INTERDICT A07" in [s.render() for s in plan.standing]
    assert [s.render() for s in plan.standing][-1] == "STANDING AIR: ASK" and len(plan.standing) == 5
    assert news.replaced == (("air", "STANDING AIR IF AREA A07: AIRSTRIKE ATTACK A07",
                              "STANDING AIR IF AREA A07: AIRSTRIKE INTERDICT A07"),
                             ("air", "STANDING AIR: AIRSTRIKE NONE", "STANDING AIR: ASK"))
    assert dict(news.effects)[18] == "in force already"


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
