"""Option lists a person can read (service/options.py): grouped, complete, and never cut without
saying how to see the rest (issue 12)."""

from __future__ import annotations

from moderator.service.options import REPORT_LINES, group_options, shown_options


def test_options_that_differ_in_one_word_read_as_one_line_of_alternatives():
    options = ["PASS", "ASSAULT GROUP A01", "ASSAULT GROUP A02", "ASSAULT GROUP A08 TO A07", "ASSAULT GROUP A08 TO A09",
               "ASSAULT GROUP A01 USING COUNTERATTACK", "ASSAULT GROUP A02 USING COUNTERATTACK", "NONE",
               "COUNTER C11", "COUNTER C05", "RETREAT TO C03  (1 loss)", "RETREAT TO C04  (1 loss)"]
    assert group_options(options) == [
        "PASS", "ASSAULT GROUP A01|A02", "ASSAULT GROUP A08 TO A07|A09", "ASSAULT GROUP A01|A02 USING COUNTERATTACK",
        "NONE", "COUNTER C11|C05", "RETREAT TO C03  (1 loss)", "RETREAT TO C04  (1 loss)"]


def test_grouping_loses_no_option_and_adds_none():
    options = [f"MOVE {unit} TO {hex_}" for unit in ("381", "456", "602") for hex_ in ("2223", "2224")]
    options += ["MOVE 381 TO 2225", "MOVE DONE"]
    expanded = set()
    for line in group_options(options):
        combos = [""]
        for word in line.split():
            combos = [f"{c} {w}".strip() for c in combos for w in word.split("|")]
        expanded |= set(combos)
    assert expanded == set(options)


def test_a_long_run_of_alternatives_is_split_over_lines_that_fit_a_phone():
    cards = ["88MM", "AIR_STRIKE", "ASSAULT", "AXIS_FIELD_ARTILLERY", "COUNTERATTACK", "REDEPLOYMENT"]
    lines = group_options([f"PASS DISCARD {card}" for card in cards])
    assert len(lines) > 1 and all(len(line) <= 62 and line.startswith("PASS DISCARD ") for line in lines)
    assert [card for line in lines for card in line.split()[-1].split("|")] == cards


def test_a_report_shows_a_dozen_lines_and_counts_the_rest():
    options = [f"MOVE U{n} TO H{n}" for n in range(20)]
    shown, more = shown_options(options)
    assert shown == options[:REPORT_LINES] and more == 20 - REPORT_LINES


def test_an_answered_line_names_the_question_by_its_head_not_its_whole_prompt():
    from moderator.service.standing import answered_line, question_head

    assert question_head("Before the next Soviet card: an Air Strike (Reaction)?") == \
        "Before the next Soviet card: an Air Strike (Reaction)?"
    hits = ("Combat in A08: allocate 1 hit(s) to your blocks; 1 of them are 6s that must hit different blocks and "
            "exhaust them; the first hit goes to a strongest block.")
    assert question_head(hits) == "Combat in A08"
    line = answered_line({"source": "game-standing", "text": "BARRAGE AUTO",
                          "prompt": "Chit barrage: 3 barrage attack(s) left. Choose a target (BARRAGE <hex>). "
                                    "Targets: 2022, 2423.", "others": ["BARRAGE NONE", "BARRAGE 2022"], "choices": 4})
    assert line == ("The game's standing default BARRAGE AUTO (you filed none for this) answered: Chit barrage: 3 "
                    "barrage attack(s) left (you could have answered, among others, BARRAGE NONE|2022).")
