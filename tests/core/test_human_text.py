"""Human text among orders (core/human.py): prose is ignored, a line meant as an order blocks when it
cannot be read, YES and NO answer the yes/no question asked now, in every game."""

from __future__ import annotations

import random

import pytest

from moderator.core.errors import OrderError
from moderator.core.grammar import Lexicon
from moderator.core.human import OrderWords, YesNo, looks_like_order, slips, yes_no_answers
from moderator.core.plans import parse_body
from moderator.core.rng import Rng, RngRecord
from moderator.games.narva.orders import GRAMMAR as NARVA
from moderator.games.vmt.orders import GRAMMAR as VMT
from tests.kit.games import EVERY, active_choice, game_id
from tests.testgame.duel import GRAMMAR as DUEL


def words(grammar) -> OrderWords:
    lexicon = Lexicon()
    for kind, name in (("area", "A08"), ("area", "C03"), ("block", "50/121"), ("card", "MORTARS"), ("hex", "2223"),
                       ("unit", "381"), ("card", "C07")):
        lexicon.add(kind, name)
    return OrderWords.of(grammar, lexicon, sorted({spec.kind for spec in grammar.specs}))


PROSE = ["Hi Ref,", "Hi", "Hi Ref, back on 12 May", "Thanks – and sorry", "Alice", "Cheers", "Best regards", "Best,",
         "Best regards,", "Kind regards", "Love, Alice", "Dear Referee", "Hello", "Many thanks!", "Sorry for the delay",
         "Please find my orders below:", "On Monday I am away", "ok thanks", "See you on the board"]
ORDERS = {VMT: ["RETREAT TO C03", "retreat to c03", "Retrat to C03", "Retreet", "ASSUALT GROUP A04", "HIT 50/121",
                "Hits 50/121 x", "50/121 TO A08", "Mortars", "ask retreat", "IF LOST: STOP", "STOP",
                "Supprot NONE", "Keep well!"],
          NARVA: ["MOVE 381 TO 2223", "Moev 381 to 2223", "ATACK 2223", "REDY", "381 TO 2223", "PASS"],
          DUEL: ["ATTACK", "ATACK now", "Atack", "REST", "COMMIT C99", "Comit C07", "NONE"]}


@pytest.mark.parametrize("grammar", [VMT, NARVA, DUEL], ids=["vmt", "narva", "duel"])
def test_greetings_sign_offs_and_prose_are_not_orders(grammar):
    assert [line for line in PROSE if looks_like_order(line, words(grammar))] == []


@pytest.mark.parametrize("grammar", [VMT, NARVA, DUEL], ids=["vmt", "narva", "duel"])
def test_keywords_abbreviations_near_misses_names_and_numbers_are_orders(grammar):
    assert [line for line in ORDERS[grammar] if not looks_like_order(line, words(grammar))] == []


def test_slips_count_a_wrong_missing_extra_or_swapped_letter_as_one():
    assert slips("ASSUALT", "ASSAULT") == 1 and slips("RETRAT", "RETREAT") == 1 and slips("MOOVE", "MOVE") == 1
    assert slips("NOVE", "MOVE") == 1 and slips("BEST", "REST") == 1 and slips("ALICE", "PLACE") == 2


def test_a_body_ignores_prose_blocks_on_an_order_gone_wrong_and_reads_a_full_stop():
    lexicon = Lexicon()
    lexicon.add("card", "C07")
    body = parse_body([(1, "Hi Ref,"), (2, "ATTACK."), (3, "Comit C07"), (4, "Cheers, Alice")], DUEL, lexicon,
                      ["act", "commit", "react"])
    assert [(line.line_no, line.ignored, line.ok) for line in body.lines] == [
        (1, True, True), (2, False, True), (3, False, False), (4, True, True)]
    assert [line.text for line in body.script] == ["ATTACK"]
    assert "did you mean 'COMMIT'" in (body.lines[2].error or "")


def test_yes_and_no_stand_for_the_answers_of_the_one_yes_no_question():
    cover = yes_no_answers([("answer with Fighter Cover?", ["COVER NONE", "COVER"])])
    assert (cover.yes, cover.no) == ("COVER", "COVER NONE")
    assert yes_no_answers([("reinforce?", ["REINFORCE NONE", "REINFORCE NEXT"])]).yes == "REINFORCE NEXT"
    assert yes_no_answers([("ready?", ["READY"])]).yes == "READY"
    counter = yes_no_answers([("counter?", ["NONE", "COUNTER C11", "COUNTER C05"])])
    assert counter.no == "NONE" and counter.yes is None and "COUNTER C11 or COUNTER C05" in counter.yes_problem
    assert yes_no_answers([("act?", ["ATTACK", "REST"])]) == YesNo()
    two = yes_no_answers([("cover?", ["COVER NONE", "COVER"]), ("escort?", ["ESCORT NONE", "ESCORT"])])
    assert two.yes is None and two.no is None and "several yes/no questions" in two.no_problem


def test_yes_and_no_lines_become_the_order_or_are_refused_with_why():
    lexicon = Lexicon()
    answers = yes_no_answers([("counter?", ["NONE", "COUNTER C11"])])
    lexicon.add("card", "C11")
    body = parse_body([(4, "yes"), (5, "No.")], DUEL, lexicon, ["react"], answers)
    assert [line.canonical for line in body.lines] == ["COUNTER C11", "NONE"]
    refused = parse_body([(4, "YES")], DUEL, lexicon, ["react"], YesNo())
    assert not refused.lines[0].ok and "none is asked of you now" in (refused.lines[0].error or "")


def test_none_alone_says_no_where_the_game_has_no_order_none():
    """Played by hand: asked "answer with Fighter Cover? You hold no Fighter Cover card, so NONE is your
    only answer", a person wrote "none", and it was ignored as prose."""
    cover = yes_no_answers([("answer with Fighter Cover?", ["COVER NONE"])])
    body = parse_body([(3, "none"), (4, "NONE.")], VMT, Lexicon(), ["cover"], cover)
    assert [line.canonical for line in body.lines] == ["COVER NONE", "COVER NONE"]
    assert body.lines[0].note == "NONE stands for COVER NONE"
    refused = parse_body([(3, "None")], VMT, Lexicon(), ["cover"], YesNo())
    assert not refused.lines[0].ok and (refused.lines[0].error or "").startswith("NONE answers a yes/no question")
    # The Duel's reaction is the order NONE itself: read as that order, not as NO
    duel = parse_body([(3, "NONE")], DUEL, Lexicon(), ["react"], YesNo())
    assert duel.lines[0].ok and duel.lines[0].canonical == "NONE" and not duel.lines[0].note


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_yes_and_no_are_legal_answers_of_every_yes_no_question_a_game_asks(engine):
    """In a random game of each game, every question with a declining or a single answer (VMT's
    Fighter Cover and Escort, reinforcements; Narva's READY, landing, coastal fire, reroute; the
    Duel's reaction) takes YES and NO as the orders they stand for."""
    pick = random.Random(3)
    rng = RngRecord("yes-no", (3).to_bytes(32, "big"), ["a", "b"]).rng()
    state = engine.setup(engine.info.scenario().name, {}, rng)
    asked: set[str] = set()
    for _ in range(400):
        decisions = engine.pending(state)
        if not decisions:
            break
        for decision in decisions:
            answers = [engine.grammar.render(order) for order in engine.legal_orders(state, decision)]
            meaning = yes_no_answers([(decision.prompt, answers)])
            for word, order_text in (("YES", meaning.yes), ("NO", meaning.no)):
                if order_text is None:
                    continue
                asked.add(decision.kind)
                lexicon = engine.lexicon(state, decision.role)
                body = parse_body([(1, word)], engine.grammar, lexicon, [decision.kind], meaning)
                order = engine.grammar.parse(body.script[0].text, lexicon, kinds=[decision.kind])
                try:
                    engine.apply(state, decision.role, order, Rng(b"y" * 32))
                except OrderError as error:  # pragma: no cover - the failure message is the point
                    pytest.fail(f"{word} ({order_text}) is not legal for {decision.prompt}: {error}")
        decision = pick.choice(decisions)
        state, _ = engine.apply(state, decision.role, active_choice(pick, engine.legal_orders(state, decision)), rng)
    assert asked, f"{engine.info.id} asked no yes/no question in 400 answers"


# ------------------------------------------------------------------ comments a VMT player wrote (issue 12)


def vmt_words() -> OrderWords:
    """The words of a real VMT game's Axis orders: its grammar and every name of the Axis lexicon."""
    from moderator.registry import product_registry

    engine = product_registry().get("vmt")
    state = engine.setup(engine.info.scenario().name, {}, RngRecord("words", bytes(32), ["a"]).rng())
    return OrderWords.of(engine.grammar, engine.lexicon(state, "axis"),
                         sorted({spec.kind for spec in engine.grammar.specs}))


#: Lines of the hand-played game (mails 042, 056, 057, 078, 084) that refused a whole message.
VMT_COMMENTS = ["A06 back. Fort Stalin needs a garrison.",
                "24th Division marches to North Fort, 22nd shuffles over to the Korabelnaya side, and 132/438 tries "
                "Sapun ridge.",
                "Plan: the 24th Division marches to North Fort, 22nd shuffles over to the Korabelnaya side, and "
                "132/438 tries Sapun ridge.",
                "Lyubimovka is ours. Setting up for Sapun ridge next turn.",
                "12-0. Now hold on."]
#: Orders gone wrong that must still hold the message back: typos of a keyword, a label, a name first.
VMT_TYPOS = ["asault division 22", "atack A07", "Attack A07", "50/121 TO A08", "A07 atack", "Plan: asault division 22",
             "Suport: AXIS_FIELD_ARTILLERY", "ASSETS NONE"]


def test_a_vmt_player_s_comments_are_not_orders():
    words = vmt_words()
    assert words.is_name("A06") and words.is_name("Lyubimovka")  # the lines begin as orders would not
    assert [line for line in VMT_COMMENTS if looks_like_order(line, words)] == []


def test_a_vmt_order_gone_wrong_still_reads_as_an_order():
    words = vmt_words()
    assert [line for line in VMT_TYPOS if not looks_like_order(line, words)] == []


def test_a_vmt_message_with_a_comment_runs_its_orders_and_one_with_a_typo_is_refused():
    words = vmt_words()
    lexicon, grammar = words.lexicon, VMT
    kinds = sorted({spec.kind for spec in grammar.specs})
    body = parse_body([(5, VMT_COMMENTS[0]), (6, "END")], grammar, lexicon, kinds)
    assert not body.has_errors and [line.text for line in body.script] == ["END"]
    assert body.lines[0].ignored and body.lines[0].note == "not an order, ignored"
    refused = parse_body([(5, VMT_COMMENTS[0]), (6, "asault division 22")], grammar, lexicon, kinds)
    assert refused.has_errors and "did you mean 'ASSAULT'" in (refused.lines[1].error or "")


def test_a_near_miss_followed_by_a_sentence_is_a_comment_but_one_with_an_argument_blocks():
    """Narva 075: "Lost the tank, damn." bounced the whole message as an unknown order 'Lost' (LOSS)."""
    narva, vmt = words(NARVA), vmt_words()
    assert not looks_like_order("Lost the tank, damn.", narva)
    assert not looks_like_order("Lost the tank, damn.", vmt)
    assert [line for line in ("los 11SS/23", "Lost 381", "ATACK 2223", "Moev 381 to 2223") if
            not looks_like_order(line, narva)] == []
    assert [line for line in ("asault division 22", "atack A07", "Retrat to C03", "Keep well!") if
            not looks_like_order(line, vmt)] == []
