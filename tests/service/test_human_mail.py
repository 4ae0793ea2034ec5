"""Mail as a person writes it (issue 12): greetings and sign-offs, typos, non-breaking spaces, YES and
NO, answering a question while a script waits, replying to an older report, CHECK and OPTIONS, and
receipts that say what became of every line.  Each test writes a reply by hand, as a player would,
and reads the receipt that comes back."""

from __future__ import annotations

import pytest

from moderator.core.plans import AgendaLine
from moderator.core.plans import Test as KeyTest
from moderator.service.receipt_lines import expired_listing
from moderator.service.table import load_table
from moderator.settings import DeadlineSettings
from tests.conftest import flat, make_app, outbox_rows, seat_duel, text_of


@pytest.fixture
def duel(tmp_path, monkeypatch):
    """A Duel with fixed dice and hands (south holds two low cards with this seed), both seats taken."""
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(2, 34)))
    return seat_duel(make_app(tmp_path))


def mails_to(seated, role: str, after: int = 0) -> list[str]:
    return [flat(text_of(r.raw)) for r in outbox_rows(seated.app) if r.recipient.startswith(role) and r.id > after]


def last_id(seated) -> int:
    return outbox_rows(seated.app)[-1].id


def plan(seated, role):
    with seated.app.db.session() as session:
        return load_table(session, seated.app.registry, seated.game_id).plan(role)


def hand(seated, role) -> list[str]:
    return list(seated.state()["hands"][role])


def cards(seated, role, low: bool) -> list[str]:
    state = seated.state()
    return [c for c in state["hands"][role] if (state["cards"][c] < 4) == low]


def report_with_receipt(seated, role: str, after: int) -> str:
    """The mail that carries the role's receipt (alone, or folded into a report)."""
    found = [text for text in mails_to(seated, role, after) if "YOUR MESSAGE" in text]
    assert found, f"no receipt reached {role}"
    return found[-1]


# ------------------------------------------------------------------ prose, typos, spaces


def test_greetings_and_sign_offs_are_ignored_and_the_orders_run(duel):
    start = last_id(duel)
    outcome = duel.send("north", "Hi Ref,\n\nREST\n\nThanks – and sorry for the delay\nAlice\n")
    assert outcome.status == "applied" and duel.state()["round"] == 2
    text = report_with_receipt(duel, "north", start)
    assert "ignored Hi Ref, (not an order)" in text and "ignored Alice (not an order)" in text
    assert "ran REST" in text and "Of your orders, 1 ran." in text and "Accepted" not in text


def test_a_line_meant_as_an_order_still_holds_the_whole_message_back(duel):
    before = duel.fingerprint()
    outcome = duel.send("north", "Hi Ref,\nATACK now\nCOMMIT C00\nCheers\n")
    text = flat(text_of(outcome.replies[0].raw))
    assert outcome.status == "receipt" and duel.fingerprint() == before
    assert "refused ATACK now" in text and "did you mean 'ATTACK'" in text
    assert "ignored Hi Ref," in text and "Nothing was applied, because lines 5, 6 could not be read" in text


def test_a_message_of_prose_alone_says_it_held_no_orders(duel):
    before = duel.fingerprint()
    outcome = duel.send("north", "Hi Ref, sorry, I am travelling this week.\nBest regards\n")
    assert outcome.status == "receipt" and duel.fingerprint() == before
    assert "Your message held no orders" in flat(text_of(outcome.replies[0].raw))


@pytest.mark.parametrize("space", ["\u00a0", "\t", "\u2003", "\u202f", " \u200b"])
def test_every_kind_of_space_is_a_space_in_the_envelope_and_in_orders(duel, space):
    body = (f"GAME{space}{duel.game_id}\nROLE{space}north\nSECRET{space}{duel.secrets['north']}\n"
            f"{space}ATTACK\nCOMMIT{space}{hand(duel, 'north')[0]}\n")
    outcome = duel.send("north", body, envelope=False)
    assert outcome.status == "applied", outcome.reason
    assert duel.state()["phase"] == "commit" and duel.state()["commits"].get("north")


# ------------------------------------------------------------------ YES and NO


def test_no_answers_a_reaction_and_yes_is_told_what_it_could_mean(duel):
    duel.send("south", "ASK react\n")
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    duel.send("south", f"COMMIT {hand(duel, 'south')[0]}\n")
    assert duel.state()["phase"] == "react"
    counters = [c for c in hand(duel, "south") if duel.state()["cards"][c] >= 4]
    yes = duel.send("south", "Yes\n")
    if len(counters) == 1:
        assert yes.status == "applied" and duel.state()["phase"] == "act"
        return
    told = "YES could mean COUNTER" if counters else "YES is not open now (Counter the attack"
    assert yes.status == "receipt" and told in flat(text_of(yes.replies[0].raw))
    start = last_id(duel)
    assert duel.send("south", "no.\n").status == "applied"
    assert duel.state()["round"] == 2
    assert "ran NONE (NO stands for NONE)" in report_with_receipt(duel, "south", start)


# ------------------------------------------------------------------ answering keeps the queued script


def south_script_waits_for_its_turn(duel) -> tuple[str, str]:
    """South asks to be asked about reactions and queues its commitment, its own attack and the
    commitment after it; north attacks; south is asked whether to counter."""
    first, second = hand(duel, "south")[:2]
    duel.send("south", f"ASK react\nCOMMIT {first}\nATTACK\nCOMMIT {second}\n")
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    assert duel.state()["phase"] == "react"
    assert [line.text for line in plan(duel, "south").script] == ["ATTACK", f"COMMIT {second}"]
    return first, second


def test_answering_the_question_asked_keeps_the_rest_of_the_queued_script(duel):
    _, second = south_script_waits_for_its_turn(duel)
    start = last_id(duel)
    duel.send("south", "Hi,\nNONE\nthanks\n")
    state = duel.state()
    assert state["round"] == 2 and state["commits"] == {"south": second}  # the queued ATTACK and COMMIT ran
    text = report_with_receipt(duel, "south", start)
    assert "ran NONE" in text and "the script you had queued goes on after it: ATTACK / COMMIT" in text


def test_new_orders_replace_the_queued_script_and_the_receipt_lists_what_was_dropped(duel):
    south_script_waits_for_its_turn(duel)
    duel.send("south", "NONE\nREST\n")  # not only an answer: a new script for the turn too
    assert [line.text for line in plan(duel, "south").script] == []
    assert duel.state()["round"] == 3 or duel.state()["active"] == "north"
    text = mails_to(duel, "south")[-1]
    assert "so these lines were dropped: ATTACK / COMMIT" in text and "send them again" in text


def test_script_clear_drops_the_queued_script_even_for_an_answer(duel):
    south_script_waits_for_its_turn(duel)
    duel.send("south", "SCRIPT CLEAR\nNONE\n")
    assert duel.state()["round"] == 2 and duel.state()["phase"] == "act"  # south's ATTACK did not run
    assert plan(duel, "south").script == []


def test_standing_orders_alone_leave_the_queued_script_alone(duel):
    _, second = south_script_waits_for_its_turn(duel)
    duel.send("south", "STANDING react: NONE\n")  # answers the reaction; the queued script goes on
    assert duel.state()["round"] == 2 and duel.state()["commits"] == {"south": second}
    assert all("dropped" not in text for text in mails_to(duel, "south"))


def test_continue_still_resumes_the_queued_script_where_it_stands(duel):
    _, second = south_script_waits_for_its_turn(duel)
    duel.send("south", "NONE\nCONTINUE\n")
    assert duel.state()["commits"] == {"south": second}


# ------------------------------------------------------------------ what each line became


def test_lines_that_wait_say_which_question_they_wait_for_and_a_held_line_says_why(duel):
    low = cards(duel, "south", low=True)
    if not low:
        pytest.skip("south holds no low card with this seed")
    start = last_id(duel)
    duel.send("south", f"ASK react\nCOMMIT {hand(duel, 'south')[0]}\nCOUNTER {low[0]}\nREST\n")
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    text = report_with_receipt(duel, "south", start)
    assert f"held COUNTER {low[0]} -> {low[0]} has value" in text and "a counter needs 4 or more" in text
    assert "the closest legal answer now: 'NONE'" in text
    assert "not run REST (line 6 was held)" in text and "Accepted" not in text


def test_a_queued_line_says_what_it_waits_for_until_a_later_run_uses_it(duel):
    start = last_id(duel)
    outcome = duel.send("south", "REST\n")  # south's turn comes in round 2
    assert outcome.status == "applied"
    duel.send("north", "REST\n")
    text = report_with_receipt(duel, "south", start)
    assert "ran REST" in text or "queued REST (waits for: Your turn)" in text


def test_orders_waiting_for_the_change_of_mind_delay_say_so(tmp_path):
    seated = seat_duel(make_app(tmp_path, deadlines=DeadlineSettings(change_of_mind_minutes=10)))
    text = flat(text_of(seated.send("north", "REST\n").replies[0].raw))
    assert "queued REST (runs after a short change-of-mind delay" in text and "Accepted" not in text


# ------------------------------------------------------------------ replies to older reports


def test_a_reply_to_an_older_report_applies_no_one_off_order_but_files_standing_ones(duel):
    first = [r for r in outbox_rows(duel.app) if r.recipient.startswith("north") and r.kind == "report"][-1]
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    duel.send("south", f"COMMIT {hand(duel, 'south')[0]}\n")
    assert duel.state()["round"] == 2  # north has had a newer report since
    before = duel.state()
    start = last_id(duel)
    duel.send("north", "REST\nSTANDING react: ASK\n", subject="Re: your move",
              headers={"In-Reply-To": first.message_id, "References": first.message_id})
    text = report_with_receipt(duel, "north", start)
    assert duel.state() == before and plan(duel, "north").script == []
    assert [s.render() for s in plan(duel, "north").standing] == ["STANDING REACT: ASK"]
    assert "This message replies to your report" in text and "phase R1-NORTH" in text
    assert "not applied REST -> written for phase R1-NORTH" in text and "filed STANDING REACT: ASK" in text
    assert "Nothing is asked of you now" in text or "Now you are asked" in text


def test_a_reply_quoting_an_older_report_s_phase_is_recognised_without_threading_headers(duel):
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    duel.send("south", f"COMMIT {hand(duel, 'south')[0]}\n")
    before = duel.state()
    quote = f"> GAME {duel.game_id}\n> ROLE north\n> PHASE R1-NORTH    # optional\n"
    outcome = duel.send("north", f"REST\n\nOn Mon, Jan 5, 2026, Moderator wrote:\n{quote}")
    assert duel.state() == before
    assert "This message replies to your report" in flat(text_of(outcome.replies[0].raw))


def test_a_reply_to_the_newest_report_is_taken_even_when_the_game_moved_on(duel):
    """Orders sent ahead of time answer the newest report the player has; they are not stale.  (North
    is mailed only when asked, so the end of round 1 sends it nothing.)"""
    duel.send("north", "NOTIFY ASKED\n")
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    newest = [r for r in outbox_rows(duel.app) if r.recipient.startswith("north") and r.kind == "report"][-1]
    duel.send("south", f"COMMIT {hand(duel, 'south')[0]}\n")
    assert duel.state()["round"] == 2 and newest.id == max(
        r.id for r in outbox_rows(duel.app) if r.recipient.startswith("north") and r.kind == "report")
    outcome = duel.send("north", "REST\n", headers={"In-Reply-To": newest.message_id})
    assert outcome.status == "applied" and [line.text for line in plan(duel, "north").script] == ["REST"]


def north_attacked_and_is_asked_its_card(duel):
    """North answers its first report (ATTACK or REST?) with ATTACK; a second report of the same phase,
    R1-NORTH, asks for the card to commit.  Returns the first report."""
    first = [r for r in outbox_rows(duel.app) if r.recipient.startswith("north") and r.kind == "report"][-1]
    duel.send("north", "ATTACK\n")
    newest = [r for r in outbox_rows(duel.app) if r.recipient.startswith("north") and r.kind == "report"][-1]
    assert newest.id > first.id and "[r1.commit.north]" in flat(text_of(newest.raw))
    return first


def test_a_reply_to_an_older_report_of_the_same_phase_is_stale_once_its_question_is_answered(duel):
    """Its COMMIT would answer the question asked now, which that report never asked."""
    first = north_attacked_and_is_asked_its_card(duel)
    before = duel.state()
    start = last_id(duel)
    card = hand(duel, "north")[0]
    duel.send("north", f"COMMIT {card}\nSTANDING react: ASK\n", subject="Re: your move",
              headers={"In-Reply-To": first.message_id, "References": first.message_id})
    text = report_with_receipt(duel, "north", start)
    assert duel.state() == before and "north" not in duel.state()["commits"]
    assert [s.render() for s in plan(duel, "north").standing] == ["STANDING REACT: ASK"]
    assert f"not applied COMMIT {card} -> written for [r1.act], answered since" in text
    assert "[r1.act] it asked has been answered since (the game is still in phase R1-NORTH)" in text
    assert "Now you are asked: [r1.commit.north] Commit one card from your hand face down." in text


def test_a_reply_quoting_an_older_report_s_question_of_the_same_phase_is_stale(duel):
    north_attacked_and_is_asked_its_card(duel)
    before = duel.state()
    quote = (f"> WHAT WE NEED FROM YOU\n>   1. [r1.act] ATTACK or REST?\n> GAME {duel.game_id}\n"
             f"> PHASE R1-NORTH    # optional\n")
    outcome = duel.send("north", f"COMMIT {hand(duel, 'north')[0]}\n\nOn Mon, Jan 5, 2026, Moderator wrote:\n{quote}")
    assert duel.state() == before
    assert "[r1.act] it asked has been answered since" in flat(text_of(outcome.replies[0].raw))


def test_a_reply_quoting_the_question_asked_now_is_taken(duel):
    north_attacked_and_is_asked_its_card(duel)
    card = hand(duel, "north")[0]
    quote = (f"> WHAT WE NEED FROM YOU\n>   1. [r1.commit.north] Commit one card from your hand face down.\n"
             f"> GAME {duel.game_id}\n> PHASE R1-NORTH    # optional\n")
    outcome = duel.send("north", f"COMMIT {card}\n\nOn Mon, Jan 5, 2026, Moderator wrote:\n{quote}")
    assert outcome.status == "applied" and duel.state()["commits"]["north"] == card


# ------------------------------------------------------------------ CHECK and OPTIONS


def test_check_says_what_each_line_would_do(duel):
    before = duel.fingerprint()
    outcome = duel.send("north", f"CHECK\nHello,\nATTACK\nCOMMIT {hand(duel, 'north')[0]}\nREST\nCOMMIT C99\n")
    text = flat(text_of(outcome.replies[0].raw))
    assert duel.fingerprint() == before
    assert "refused COMMIT C99" in text  # an unreadable line: the check says so first
    outcome = duel.send("north", f"CHECK\nHello,\nATTACK\nCOMMIT {hand(duel, 'north')[0]}\nREST\n")
    text = flat(text_of(outcome.replies[0].raw))
    assert "would run ATTACK" in text and "would run COMMIT" in text
    assert "would wait REST (past where the check stopped; waits for: Your turn)" in text and "ignored Hello," in text
    assert ("The check stopped at the South's next decision, on \"Face-down commitment\" (commit): it never "
            "answers for another player. Your lines still waiting would be taken in order when play reaches "
            "them.") in text
    assert "Sent now, of your orders 2 would run and 1 would wait." in text and duel.fingerprint() == before


def test_check_answers_the_same_whatever_the_opponent_holds(duel):
    """Issue 13: two states that differ only in south's hidden hand give byte-identical CHECK answers,
    though south has filed a keyed order for one of those cards and a standing order for its turn:
    run against the real state, they would carry the check on to north's REST only when south holds
    the card (a check never reads another's plan)."""
    south = hand(duel, "south")
    duel.send("south", f"ON ANY: COMMIT {south[0]}\nSTANDING act: REST\n")
    ask = f"CHECK\nATTACK\nCOMMIT {hand(duel, 'north')[0]}\nREST\n"
    first = text_of(duel.send("north", ask).replies[0].raw)
    with duel.app.db.session() as session:
        table = load_table(session, duel.app.registry, duel.game_id, for_update=True)
        state = table.state
        deck = state["deck"]
        state["hands"]["south"], state["deck"] = deck[:3], deck[3:] + state["hands"]["south"]
        table.state = state
        table.snapshot(table.game.phase_label, duel.app.clock.now())
    assert hand(duel, "south") != south
    second = text_of(duel.send("north", ask).replies[0].raw)
    assert first == second
    # Where the check stopped is said (south's question by its public facts), and none of south's cards
    # either time: the sentence could not carry them and be the same.
    assert "The check stopped at the South's next decision" in flat(first)
    assert not [card for card in {*south, *hand(duel, "south")} - set(hand(duel, "north")) if card in first]


def test_options_lists_every_answer_of_the_question_asked_grouped(duel):
    duel.send("north", "ATTACK\n")
    text = text_of(duel.send("north", "OPTIONS\n").replies[0].raw)
    north = hand(duel, "north")
    assert f"COMMIT {'|'.join(north)}" in text and "A|B|C means: write one of them" in text


def test_a_keyed_order_that_expires_in_the_run_its_message_started_is_shown_once_as_not_used(duel):
    """Issue 12: a receipt never calls a line queued that did not wait.  North's second ON line finds
    no question before round 1 ends, in the very run its message started: the receipt in that report
    says "not used" and why, and the report does not list it a second time on its own."""
    start = last_id(duel)
    duel.send("north", "ON ANY: REST\nON HP_BELOW 1: REST\n")
    text = report_with_receipt(duel, "north", start)
    assert "ran ON ANY: REST" in text
    assert "not used ON HP_BELOW 1: REST (its turn ended before a question fitted it)" in text
    assert "queued ON HP_BELOW 1" not in text and "KEYED ORDERS THAT WERE NOT USED" not in text
    assert "Of your orders, 1 ran and 1 was not used." in text


def test_a_later_message_s_on_lines_are_added_to_the_keyed_orders_filed_before_and_the_receipt_says_so(duel):
    """notes/hand-narva.md, turn 8: ON lines filed at READY were replaced, in silence, by a message that
    answered a question with one ON line; the chits they were for were passed by default.  A later
    message's ON lines are added (a line already waiting is not added twice); ON CLEAR <test> drops
    those lines, and the receipt lists them with the way back."""
    high = cards(duel, "south", low=False)[0]
    duel.send("south", f"ON LOST: COUNTER {high}\nON HP_BELOW 5: COUNTER {high}\n")
    start = last_id(duel)
    duel.send("south", f"ON HP_BELOW 5: COUNTER {high}\nON ANY: NONE\n")
    assert [a.render() for a in plan(duel, "south").agenda] == [
        f"ON LOST: COUNTER {high}", f"ON HP_BELOW 5: COUNTER {high}", "ON ANY: NONE"]
    text = report_with_receipt(duel, "south", start)
    assert (f"queued ON HP_BELOW 5: COUNTER {high} (the same keyed order, line 5 of an earlier message, waits "
            f"already, so it was not added twice)") in text
    assert (f"This message's ON lines were added to the keyed orders you had filed for this turn, which still "
            f"wait: ON LOST: COUNTER {high} / ON HP_BELOW 5: COUNTER {high}.") in text
    start = last_id(duel)
    duel.send("south", "ON CLEAR LOST\n")
    assert [a.render() for a in plan(duel, "south").agenda] == [f"ON HP_BELOW 5: COUNTER {high}", "ON ANY: NONE"]
    text = report_with_receipt(duel, "south", start)
    assert "filed ON CLEAR LOST (dropped 1 keyed order)" in text
    assert f"ON CLEAR dropped these keyed orders: ON LOST: COUNTER {high}. To get one back, send it again" in text


def test_a_keyed_order_that_is_not_legal_when_its_question_comes_is_named_with_the_engine_s_reason(duel):
    """notes/hand-narva.md, defect 2: "ON REINFORCEMENTS: MOVE ... TO 2730 STRATEGIC" (out of reach) came back
    only as "found no question they fitted", while the same mail said the default answered that question.
    South's keyed counter with a card of value 3 is refused at the reaction window (the Duel's counter
    rule): the answer for south names the line and the engine's reason, and so does its receipt line."""
    low = cards(duel, "south", low=True)
    start = last_id(duel)
    duel.send("south", f"COMMIT {low[1]}\nON ANY: COUNTER {low[0]}\n")
    duel.send("north", f"ATTACK\nCOMMIT {hand(duel, 'north')[0]}\n")
    text = report_with_receipt(duel, "south", start)
    reason = f"{low[0]} has value 3; a counter needs 4 or more"
    # The receipt in the same mail gives the reason; the answer names the line and points there (said once)
    assert ("Your keyed order line 5 was not legal for this question (why: under YOUR MESSAGE above), so "
            "the game's standing default NONE answered: Counter the attack") in text
    assert f"not used ON ANY: COUNTER {low[0]} (its question came, but it was not legal then: {reason})" in text
    assert text.count(reason) == 1 and "you filed none for this" not in text


def test_a_refused_keyed_line_whose_receipt_went_earlier_keeps_its_reason_in_the_answer():
    from moderator.service.standing import answered_line, told_in_receipts

    entry = {"source": "game-standing", "text": "NONE", "prompt": "Counter the attack?", "others": ["COUNTER C11"],
             "choices": 2, "keyed_unfit": [["line 5: ON ANY: COUNTER C03", "C03 has value 3"]]}
    other_mail = [{"lines": [{"line_no": 2, "canonical": "REST", "why": "x"}]}]
    said = answered_line(told_in_receipts([entry], other_mail)[0])
    assert said.startswith("Your keyed order line 5, 'ON ANY: COUNTER C03', was not legal for this question "
                           "(C03 has value 3)")
    same_mail = [{"lines": [{"line_no": 5, "canonical": "ON ANY: COUNTER C03", "why": "its question came ..."}]}]
    assert answered_line(told_in_receipts([entry], same_mail)[0]).startswith(
        "Your keyed order line 5 was not legal for this question (why: under YOUR MESSAGE above)")


def test_a_keyed_order_listed_as_expired_says_why_where_its_question_came():
    arriving = (KeyTest("REINFORCEMENTS"),)
    refused = AgendaLine(7, "move", "MOVE A TO 2730", arriving, "T1", refused="2730 is out of reach")
    unasked = AgendaLine(8, "move", "MOVE B TO 2731", arriving, "T1")
    assert expired_listing([], [refused, unasked]) == [
        "line 7: ON REINFORCEMENTS: MOVE A TO 2730 (its question came, but it was not legal then: 2730 is out of "
        "reach)", "line 8: ON REINFORCEMENTS: MOVE B TO 2731"]
