"""How often a seat is mailed and what the subject says (issue 12, service/cadence.py).

A player is mailed when something is newly asked of them, at the end of a game turn, and when the
game ends; NOTIFY EVERY asks for more, NOTIFY ASKED for less.  The receipt of orders that were all
accepted rides on the next report, or goes alone once `receipt_hold_minutes` have passed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from moderator.core.contract import Decision
from moderator.service.cadence import News, has_remarks, report_subject, short_time, should_mail
from moderator.service.table import load_table
from tests.conftest import flat, outbox_rows, text_of

# ------------------------------------------------------------------ when a seat is mailed


@pytest.mark.parametrize("notify, news, mailed", [
    ("turn", News(asked=True, events=False, boundary=False, finished=False, receipt=False), True),
    ("turn", News(asked=False, events=True, boundary=False, finished=False, receipt=True), False),
    ("turn", News(asked=False, events=True, boundary=True, finished=False, receipt=False), True),
    ("turn", News(asked=False, events=False, boundary=False, finished=True, receipt=False), True),
    ("every", News(asked=False, events=True, boundary=False, finished=False, receipt=False), True),
    ("every", News(asked=False, events=False, boundary=False, finished=False, receipt=True), False),
    # owing an answer already mailed, the seat hears of others' moves with the mail its answer brings ...
    ("every", News(asked=False, events=True, boundary=False, finished=False, receipt=False, owes=True), False),
    # ... or at the turn's end
    ("every", News(asked=False, events=True, boundary=True, finished=False, receipt=False, owes=True), True),
    ("asked", News(asked=False, events=True, boundary=True, finished=False, receipt=False), False),
    ("asked", News(asked=True, events=False, boundary=False, finished=False, receipt=False), True),
    ("asked", News(asked=False, events=False, boundary=False, finished=False, receipt=True, remark=True), True),
])
def test_a_seat_is_mailed_when_asked_at_a_turn_s_end_or_as_its_notify_choice_says(notify, news, mailed):
    assert should_mail(notify, news) is mailed


def test_a_receipt_with_something_to_say_is_not_held():
    quiet = {"lines": [{"ok": True}], "notes": [], "problems": []}
    assert not has_remarks(quiet)
    assert has_remarks({**quiet, "notes": ["this message has the Message-ID of an earlier one"]})
    assert has_remarks({**quiet, "lines": [{"ok": False}]})
    assert has_remarks({**quiet, "lines": []})  # a message of commands only (CONTINUE): its answer goes now


# ------------------------------------------------------------------ subjects


def _decision(key: str, interrupts: bool = False) -> Decision:
    return Decision(key=key, role="axis", kind="card", prompt="Play a card", options=("PASS",), default="PASS",
                    interrupts=interrupts)


def test_the_subject_says_what_is_asked_and_by_when_in_the_player_s_time_zone():
    due = {"k1": "2026-12-02T17:00:00+00:00", "k2": "2026-12-01T09:30:00+00:00"}
    subject = report_subject("vmt-0001", 3, "Axis", [_decision("k1"), _decision("k2")], due, "Europe/Berlin", None,
                             False)
    assert subject == "[vmt-0001] Turn 3 Axis: your move, due Tue 01 Dec 10:30 CET"  # the earliest
    assert report_subject("vmt-0001", 3, "Axis", [_decision("k1", interrupts=True)], due, "UTC", None, False) == \
        "[vmt-0001] Turn 3 Axis: your answer, due Wed 02 Dec 17:00 UTC"
    assert report_subject("vmt-0001", 3, "Axis", [], due, "UTC", None, False) == "[vmt-0001] Turn 3 report"
    assert report_subject("vmt-0001", 3, "Observer", [_decision("k1")], due, "UTC", None, True) == \
        "[vmt-0001] Turn 3 report"  # an observer is never asked
    assert report_subject("vmt-0001", 13, "Axis", [], {}, "UTC", "Soviet wins", False) == \
        "[vmt-0001] Game over: Soviet wins"


def test_short_times_leave_out_the_year():
    assert short_time(datetime(2026, 7, 4, 6, 5, tzinfo=UTC), "America/New_York") == "Sat 04 Jul 02:05 EDT"


# ------------------------------------------------------------------ by mail


def _mails_to(seated, role: str) -> list[bytes]:
    return [row.raw for row in outbox_rows(seated.app) if row.recipient == seated.addresses[role]]


def test_orders_filed_ahead_get_no_mail_at_once_and_their_receipt_goes_alone_after_the_hold(seated):
    before = len(_mails_to(seated, "south"))
    south = seated.state()["hands"]["south"]
    outcome = seated.send("south", f"COMMIT {south[0]}\n")  # south is not asked yet: filed ahead
    assert outcome.status == "applied" and len(_mails_to(seated, "south")) == before
    hold = seated.app.settings.deadlines.receipt_hold_minutes
    seated.app.clock.advance(minutes=hold - 1)
    assert seated.app.send_held_receipts() == 0
    seated.app.clock.advance(minutes=2)
    assert seated.app.send_held_receipts() == 1
    mails = _mails_to(seated, "south")
    assert len(mails) == before + 1
    assert "orders received" in flat(text_of(mails[-1])) or b"orders received" in mails[-1]
    assert f"COMMIT {south[0]}" in text_of(mails[-1])
    assert seated.app.send_held_receipts() == 0  # sent once


def test_a_held_receipt_rides_on_the_next_report_instead_of_going_alone(seated):
    south = seated.state()["hands"]["south"]
    seated.send("south", f"COMMIT {south[0]}\n")
    before = len(_mails_to(seated, "south"))
    seated.send("north", "ATTACK\n")  # north attacks ...
    north = seated.state()["hands"]["north"]
    seated.send("north", f"COMMIT {north[0]}\n")  # ... and south's filed card answers at once
    mails = _mails_to(seated, "south")
    assert len(mails) > before
    report = text_of(mails[before])
    assert f"COMMIT {south[0]}" in report  # the receipt of south's earlier message is in its report
    seated.app.clock.advance(minutes=seated.app.settings.deadlines.receipt_hold_minutes + 1)
    assert seated.app.send_held_receipts() == 0  # nothing left to send alone


def test_notify_by_mail_changes_how_often_the_seat_is_mailed_and_says_so(seated):
    outcome = seated.send("north", "NOTIFY ASKED\n")
    assert "From now on you get mail" in flat(text_of(outcome.replies[0].raw))
    with seated.app.db.session() as session:
        assert load_table(session, seated.app.registry, seated.game_id).seat("north").notify == "asked"
    wrong = seated.send("north", "NOTIFY SOMETIMES\n")
    assert "NOTIFY takes one of" in flat(text_of(wrong.replies[0].raw))
    with seated.app.db.session() as session:
        assert load_table(session, seated.app.registry, seated.game_id).seat("north").notify == "asked"


def test_a_seat_that_chose_every_hears_of_each_move_and_one_that_chose_asked_does_not(seated):
    seated.send("south", "NOTIFY EVERY\n")
    before = len(_mails_to(seated, "south"))
    seated.send("north", "ATTACK\n")  # something south may see happened; nothing is asked of south yet
    assert len(_mails_to(seated, "south")) == before + 1
    seated.send("south", "NOTIFY ASKED\n")
    before = len(_mails_to(seated, "south"))
    north = seated.state()["hands"]["north"]
    seated.send("north", f"COMMIT {north[0]}\n")
    mails = _mails_to(seated, "south")
    # south is mailed now only because it is asked to answer the attack
    import email
    import email.policy
    subjects = [str(email.message_from_bytes(m, policy=email.policy.default)["Subject"]) for m in mails[before:]]
    assert all(": your " in s for s in subjects), subjects  # never a "Turn N report" alone


def test_a_seat_that_chose_every_is_not_mailed_its_own_question_again_for_another_s_answer(seated):
    """Narva's German player, NOTIFY EVERY, got each turn a second 60 KB "your move" whose only news was
    "Soviet is ready": both sides answer one round, and the other's answer asks nothing new of this seat.
    Duel's face-down commit is that round; the news comes with the mail south's own answer brings."""
    seated.send("south", "NOTIFY EVERY\n")
    seated.send("north", "ATTACK\n")  # both sides are asked to commit a card face down
    before = len(_mails_to(seated, "south"))
    seated.send("north", f"COMMIT {seated.state()['hands']['north'][0]}\n")
    assert len(_mails_to(seated, "south")) == before  # south still owes the commit it was mailed
    seated.send("south", f"COMMIT {seated.state()['hands']['south'][0]}\n")
    mails = _mails_to(seated, "south")
    assert len(mails) == before + 1  # the clash, and south's reaction window
    assert "North has committed a card face down." in flat(text_of(mails[-1]))  # folded in, not lost


def test_reports_subjects_say_whether_anything_is_asked(seated):
    seated.send("north", "ATTACK\n")
    import email
    import email.policy
    subjects = [str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])
                for raw in _mails_to(seated, "north")]
    assert any(s.startswith(f"[{seated.game_id}] Turn 1 North: your move, due ") for s in subjects)
    assert all(s.startswith(f"[{seated.game_id}] ") for s in subjects)


def test_the_whole_map_comes_once_per_game_turn(tmp_path):
    """A second report of the same turn carries the close-up only and names the mail with the map."""
    from moderator.registry import product_registry
    from tests.conftest import make_app
    from tests.kit.test_golden import play, script_of

    engine = product_registry().get("narva")
    app = make_app(tmp_path, registry=product_registry(), orders_address="moderator@referee.test",
                   domain="referee.test")
    play(app, engine, script_of(engine))
    import email
    import email.policy
    by_turn: dict[tuple[str, str], list[bool]] = {}
    for row in outbox_rows(app):
        if row.kind != "report":
            continue
        message = email.message_from_bytes(row.raw, policy=email.policy.default)
        subject = str(message["Subject"])
        turn = subject.split("Turn ")[1].split()[0] if "Turn " in subject else "end"
        names = [part.get_filename() or "" for part in message.walk()]
        by_turn.setdefault((row.recipient, turn), []).append(any(n.endswith("-map.png") for n in names))
        if not any(n.endswith("-map.png") for n in names) and turn != "end":
            assert "The whole map came with your first mail of turn" in flat(text_of(row.raw))
    for (recipient, turn), maps in by_turn.items():
        assert maps[0], (recipient, turn)  # the first mail of a turn has the whole map
        assert sum(maps) == 1, (recipient, turn, maps)  # and only that one
    assert any(len(maps) > 1 for maps in by_turn.values())  # the golden game has second mails in a turn


def test_hold_time_is_a_setting(tmp_path):
    from tests.conftest import make_app

    app = make_app(tmp_path, deadlines={"receipt_hold_minutes": 3})
    assert app.settings.deadlines.receipt_hold_minutes == 3
    assert timedelta(minutes=app.settings.deadlines.receipt_hold_minutes) == app.held_receipts.hold


@pytest.mark.parametrize("game", ["vmt", "narva"])
def test_every_picture_of_the_scripted_game_is_within_its_budget(game, tmp_path):
    """Issue 12: a whole-map PNG is at most 150 KB, a close-up at most 40 KB, each attached once."""
    import email
    import email.policy

    from moderator.registry import product_registry
    from tests.conftest import make_app
    from tests.kit.test_golden import play, script_of

    engine = product_registry().get(game)
    app = make_app(tmp_path, registry=product_registry(), orders_address="moderator@referee.test",
                   domain="referee.test")
    play(app, engine, script_of(engine))
    sizes: dict[str, list[int]] = {"map": [], "detail": []}
    for row in outbox_rows(app):
        message = email.message_from_bytes(row.raw, policy=email.policy.default)
        names = [part.get_filename() for part in message.walk() if part.get_content_maintype() == "image"]
        assert len(names) == len(set(names))  # no picture twice in one mail
        for part in message.walk():
            if part.get_content_maintype() == "image":
                kind = "detail" if "detail" in (part.get_filename() or "") else "map"
                sizes[kind].append(len(part.get_payload(decode=True)))
    assert sizes["map"] and max(sizes["map"]) <= 150_000, max(sizes["map"])
    assert max(sizes["detail"], default=0) <= 40_000, max(sizes["detail"])
