"""ANSWERED FOR YOU says who answered and why (issue 13; service/standing.py, core/runner.py).

A standing order whose answer is not legal for its question is passed over for the next standing
order that holds (the player's, then the game's), or the game's default, at once (the same speed as
declining, so no timing leak).  No deadline passed: the report names the standing order passed over,
then what answered, and the other answers that were open.
"""

from __future__ import annotations

import re

import pytest

from moderator.service.standing import answered_line
from moderator.service.table import load_table
from tests.conftest import flat, seat_duel, text_of


def split_hand(seated) -> tuple[str, str, str] | None:
    """(a weak card, a strong card, a third card) of south's hand, or None when the hand has no such split."""
    state = seated.state()
    hand, values = state["hands"]["south"], state["cards"]
    weak = [c for c in hand if values[c] < 4]
    strong = [c for c in hand if values[c] >= 4]
    rest = [c for c in hand if c not in weak[:1] + strong[:1]]
    return (weak[0], strong[0], rest[0]) if weak and strong and rest else None


def dealt_a_weak_and_a_strong_card(app):
    """A seated Duel whose south hand holds a weak card, a strong one and a third, with those cards."""
    for _ in range(30):
        seated = seat_duel(app)
        cards = split_hand(seated)
        if cards is not None:
            return seated, cards
    raise AssertionError("no game dealt south a weak and a strong card")


@pytest.fixture
def unfit(app):
    """(seated, the weak card south's standing COUNTER names, south's report after the reaction window)."""
    seated, (weak, _strong, third) = dealt_a_weak_and_a_strong_card(app)
    seated.send("south", f"STANDING react: COUNTER {weak}\n")
    north_card = seated.state()["hands"]["north"][0]
    seated.send("north", f"ATTACK\nCOMMIT {north_card}\n")
    outcome = seated.send("south", f"COMMIT {third}\n")
    reports = [r for r in outcome.replies if r.recipient == seated.addresses["south"] and r.kind == "report"]
    assert reports, [r.kind for r in outcome.replies]
    return seated, weak, flat(text_of(reports[-1].raw))


def test_a_standing_order_that_did_not_fit_is_named_not_a_deadline(unfit):
    _, weak, report = unfit
    assert "ANSWERED FOR YOU" in report
    said = report[report.index("ANSWERED FOR YOU"):]
    # with the refusal's reason, so the player knows why (the VMT hand play, D6)
    assert re.search(rf"- Your standing order STANDING REACT: COUNTER {weak} was not legal for this question "
                     rf"\({weak} has value \d; a counter needs 4 or more\), so the game's standing default NONE "
                     rf"answered: Counter the attack", said)
    assert "you could have answered COUNTER" in said
    assert "The deadline passed" not in report


def test_the_log_keeps_which_standing_order_did_not_fit(unfit):
    seated, weak, _ = unfit
    with seated.app.db.session() as session:
        table = load_table(session, seated.app.registry, seated.game_id)
        answered = table.answered_since(0, "south")
    assert [(a["source"], a["text"], a["unfit"], a["unfit_source"], a.get("deadline")) for a in answered] == \
        [("game-standing", "NONE", f"STANDING REACT: COUNTER {weak}", "standing", None)]


ASKED = {"text": "NONE", "prompt": "Counter the attack?", "others": ["COUNTER C11"], "choices": 2}


@pytest.mark.parametrize(("entry", "said"), [
    ({"source": "standing", "text": "NONE"}, "Your standing order NONE answered: Counter the attack?"),
    ({"source": "game-standing"}, "The game's standing default NONE (you filed none for this) answered:"),
    ({"source": "default", "unfit": "STANDING REACT: COUNTER C02", "unfit_source": "standing"},
     "Your standing order STANDING REACT: COUNTER C02 was not legal for this question, so the game's default NONE "
     "answered: Counter the attack? (you could have answered COUNTER C11)."),
    ({"source": "standing", "unfit": "STANDING REACT IF X: COUNTER C02", "unfit_source": "standing"},
     "Your standing order STANDING REACT IF X: COUNTER C02 was not legal for this question, so your standing "
     "order NONE answered: Counter the attack?"),
    ({"source": "game-standing", "unfit": "STANDING REACT: COUNTER C02", "unfit_source": "standing"},
     "Your standing order STANDING REACT: COUNTER C02 was not legal for this question, so the game's standing "
     "default NONE answered:"),
    ({"source": "default", "unfit": "STANDING REACT: COUNTER C02", "unfit_source": "game-standing"},
     "The game's standing default STANDING REACT: COUNTER C02 was not legal for this question, so the game's "
     "default"),
    ({"source": "default", "deadline": True}, "The deadline passed: the default NONE answered:"),
    ({"source": "default"}, "A standing order could not be used here, so the game's default NONE answered:"),
])
def test_each_way_an_answer_was_given_for_the_player_reads_as_what_happened(entry, said):
    assert said in answered_line({**ASKED, **entry})


def test_a_standing_order_that_did_not_fit_is_no_missed_deadline(unfit):
    """The referee's digest and a league's NMR count (which may forfeit a seat) count only defaults
    applied at a deadline; then a deadline passing unanswered counts for the role that missed it."""
    from moderator.league.outcomes import missed_since
    from moderator.service.referee_mail import missed_deadlines

    seated, _, _ = unfit
    app = seated.app

    def missed() -> dict[str, int]:
        with app.db.session() as session:
            table = load_table(session, app.registry, seated.game_id)
            counted = {role: whole for role, _, whole in missed_deadlines(table, 0)}
            assert counted == {role.title(): missed_since(session, seated.game_id, role, None)
                               for role in ("north", "south")}
            return counted

    assert missed() == {"North": 0, "South": 0}
    asked = [d.role for d in load_engine_pending(seated)]
    app.clock.advance(hours=80)
    app.run_due()
    assert missed() == {role.title(): int(role in asked) for role in ("north", "south")} != {"North": 0, "South": 0}


def load_engine_pending(seated):
    with seated.app.db.session() as session:
        table = load_table(session, seated.app.registry, seated.game_id)
        return table.engine.pending(table.state)


def test_the_player_s_own_unconditional_order_answers_after_an_if_order_that_was_not_legal(app):
    """Mail 043: an IF order whose test held but whose answer was not legal was followed by the game's
    default, and the report blamed the game, though the player's own unconditional order said the same."""
    seated, (weak, _strong, third) = dealt_a_weak_and_a_strong_card(app)
    seated.send("south", f"STANDING react IF HP_BELOW 99: COUNTER {weak}\nSTANDING react: NONE\n")
    seated.send("north", f"ATTACK\nCOMMIT {seated.state()['hands']['north'][0]}\n")
    outcome = seated.send("south", f"COMMIT {third}\n")
    report = flat(text_of([r for r in outcome.replies if r.recipient == seated.addresses["south"]
                           and r.kind == "report"][-1].raw))
    assert re.search(rf"- Your standing order STANDING REACT IF HP_BELOW 99: COUNTER {weak} was not legal for this "
                     rf"question \({weak} has value \d; a counter needs 4 or more\), so your standing order NONE "
                     rf"answered: Counter the attack", report)
    said = report[report.index("ANSWERED FOR YOU"):report.index("WHAT HAPPENED")]
    assert "the game's default" not in said and "did not fit" not in said
    with app.db.session() as session:
        answered = load_table(session, app.registry, seated.game_id).answered_since(0, "south")
    assert [(a["source"], a["unfit_source"]) for a in answered] == [("standing", "standing")]


def test_answers_beyond_those_kept_are_said_to_be_among_others_without_a_total():
    """Narva's move options are a sample of its legal answers: '11 answers were open' undercounted them."""
    entry = {"source": "game-standing", "text": "MOVE DONE", "prompt": "Movement Segment (6.0)",
             "others": [f"MOVE 109/381 TO {hex_id}" for hex_id in ("2121", "2122", "2123", "2124", "2125", "2126")],
             "choices": 11}
    line = answered_line(entry)
    assert "you could have answered, among others, MOVE 109/381 TO 2121|2122|2123|2124|2125|2126" in line
    assert "answers were open" not in line and "11" not in line


def test_a_standing_order_not_legal_where_the_default_was_the_only_answer_is_still_reported(app):
    """The VMT hand play (D6): as attacker 'STANDING support IF HOLD BUNKER: SUPPORT BUNKER' did not fit
    (a Bunker defends only), SUPPORT NONE was the only legal answer, and such answers were left out of
    ANSWERED FOR YOU: the order seemed skipped in silence.  Here south's only strong card is committed,
    so NONE is the only answer to the reaction window that south's standing COUNTER names a weak card for."""
    for _ in range(60):
        seated = seat_duel(app)
        state = seated.state()
        hand, values = state["hands"]["south"], state["cards"]
        strong = [c for c in hand if values[c] >= 4]
        weak = [c for c in hand if values[c] < 4]
        if len(strong) == 1 and weak:
            break
    else:
        raise AssertionError("no game dealt south one strong card and a weak one")
    seated.send("south", f"STANDING react: COUNTER {weak[0]}\n")
    seated.send("north", f"ATTACK\nCOMMIT {seated.state()['hands']['north'][0]}\n")
    outcome = seated.send("south", f"COMMIT {strong[0]}\n")
    report = flat(text_of([r for r in outcome.replies if r.recipient == seated.addresses["south"]
                           and r.kind == "report"][-1].raw))
    said = report[report.index("ANSWERED FOR YOU"):report.index("WHAT HAPPENED")]
    assert re.search(rf"- Your standing order STANDING REACT: COUNTER {weak[0]} was not legal for this question "
                     rf"\({weak[0]} has value \d; a counter needs 4 or more\), so the game's standing default NONE "
                     rf"answered: Counter the attack [^?]*\? \(the only legal answer\)\.", said), said


def test_answers_in_a_row_by_the_same_order_to_questions_of_one_shape_are_told_once():
    """Played by hand (Narva): four lines 'BARRAGE AUTO answered: Chit barrage: 4 (3, 2, 1) barrage attack(s)
    left' that differed in one digit; now one line says how many followed.  A different answer, or a
    question of another shape, is told on its own."""
    from moderator.service.standing import answered_line, fold_repeats

    def barrage(left: int, text: str = "BARRAGE AUTO") -> dict:
        return {"source": "game-standing", "text": text, "prompt": f"Chit barrage: {left} barrage attack(s) left.",
                "others": ["BARRAGE NONE"], "choices": 2}

    loss = dict(barrage(1), text="LOSS AUTO", prompt="Barrage on 2021: take the loss.", others=["LOSS 122/1078"])
    folded = fold_repeats([barrage(4), barrage(3), barrage(2), barrage(1, "BARRAGE NONE"), loss, barrage(2)])
    lines = [answered_line(entry) for entry in folded]
    assert len(lines) == 4
    assert ("answered: Chit barrage: 4 barrage attack(s) left (and the 2 questions like it that followed) "
            "(you could have answered BARRAGE NONE).") in lines[0]
    assert "BARRAGE NONE" in lines[1] and "like it" not in lines[1]
    assert lines[2].startswith("The game's standing default LOSS AUTO") and "like it" not in lines[3]


def test_at_most_three_other_answers_are_named_and_the_line_says_there_were_more():
    from moderator.service.standing import answered_line

    entry = {"source": "game-standing", "text": "MOVE DONE", "prompt": "Movement Segment (6.0).", "choices": 6,
             "others": ["MOVE A TO 0101", "MOVE B TO 0202", "MOVE C TO 0303", "MOVE D TO 0404", "MOVE E TO 0505"]}
    said = answered_line(entry)
    assert said.endswith("(you could have answered, among others, MOVE A TO 0101 | MOVE B TO 0202 | "
                         "MOVE C TO 0303).")
    few = dict(entry, choices=3, others=["MOVE A TO 0101", "MOVE B TO 0202"])
    assert answered_line(few).endswith("(you could have answered MOVE A TO 0101 | MOVE B TO 0202).")
