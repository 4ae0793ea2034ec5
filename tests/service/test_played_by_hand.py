"""Defects found when a whole VMT game was played by hand by mail (issue 12): each test writes what the
tester wrote, or sets up what they met, and reads what comes back."""

from __future__ import annotations

import email

from sqlmodel import select

from moderator.store.models import Outbox
from tests.conftest import flat, text_of
from tests.service.test_store_and_replay import play_random_game


def test_the_game_over_report_asks_nothing_and_says_no_way_to_answer(seated):
    play_random_game(seated, 5)
    with seated.app.db.session() as session:
        rows = list(session.exec(select(Outbox).where(Outbox.kind == "report").order_by(Outbox.id)))
    finals = [flat(text_of(r.raw)) for r in rows if "Game over" in r.subject]
    assert len(finals) == 2  # one for each seat
    for text in finals:
        assert "THE RESULT" in text
        assert "HOW TO ANSWER" not in text and "PHASE OVER" not in text and "SECRET" not in text
        assert "WHAT WE NEED FROM YOU" not in text


def test_a_mailbox_listed_by_name_holds_the_mails_in_the_order_they_were_sent(seated):
    """The welcome came after the first report it announces (mail 003 after 002): a Maildir reader lists
    new mail by file name, and the names were hashes."""
    app = seated.app
    play_random_game(seated, 7)
    app.drain_outbox()
    with app.db.session() as session:
        sent = [r for r in session.exec(select(Outbox).order_by(Outbox.id)) if r.status == "sent"]
    for address in seated.addresses.values():
        box = app.outbound.mailbox(address) / "new"
        listed = [email.message_from_bytes(path.read_bytes())["Message-ID"] for path in sorted(box.iterdir())]
        in_order = [r.message_id for r in sent if r.recipient == address]
        assert len(listed) > 10 and listed == in_order
        welcome = next(i for i, path in enumerate(sorted(box.iterdir()))
                       if "Welcome" in str(email.message_from_bytes(path.read_bytes())["Subject"]))
        assert welcome < next(i for i, message_id in enumerate(listed) if message_id.startswith("<report."))


def test_help_and_options_in_one_message_are_both_answered_in_one_reply(seated):
    """S2: HELP and OPTIONS in one message got the help alone; OPTIONS was dropped in silence."""
    outcome = seated.send("north", "HELP\nOPTIONS\n")
    assert outcome.status == "command" and len(outcome.replies) == 1
    text = text_of(outcome.replies[0].raw)
    assert "HOW TO PLAY" in text and "OPTIONS\n=======" in text and "ATTACK" in text
    assert "Help and Options" in str(outcome.replies[0].subject)


def test_a_command_with_orders_says_the_orders_were_not_read(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "STATUS\nREST\n")
    assert seated.fingerprint() == before
    text = flat(text_of(outcome.replies[0].raw))
    assert "its other lines (1) were not read as orders" in text


def _receipt_text(seated, role: str, body: str) -> str:
    """The receipt of `body` (sent now, or folded into the report it waited for)."""
    outcome = seated.send(role, body)
    seated.app.clock.advance(minutes=30)
    seated.app.send_held_receipts()
    with seated.app.db.session() as session:
        rows = list(session.exec(select(Outbox).order_by(Outbox.id)))
    mine = [flat(text_of(r.raw)) for r in rows if r.recipient == seated.addresses[role] and "YOUR MESSAGE" in
            flat(text_of(r.raw))]
    assert mine, outcome
    return mine[-1]


def test_a_later_standing_order_adds_to_the_earlier_ones_and_the_receipt_says_what_is_in_force(seated):
    """S33 then S35: filing three air orders dropped the two filed before, and the receipt said only
    'filed (in force from now on)'."""
    seated.send("south", "STANDING react IF LOST: NONE\nSTANDING react IF HP_BELOW 3: NONE\n")
    text = _receipt_text(seated, "south", "STANDING react IF HOLD 6: NONE\nSTANDING react: ASK\n")
    assert ("Your standing orders for react (Reaction window) are now, tried in this order: STANDING REACT IF "
            "LOST: NONE / STANDING REACT IF HP_BELOW 3: NONE / STANDING REACT IF HOLD 6: NONE / STANDING REACT: "
            "ASK.") in text
    assert "filed STANDING REACT IF HOLD 6: NONE (in force from now on)" in text
    text = _receipt_text(seated, "south", "STANDING react IF LOST: CLEAR\nSTANDING react: NONE\n")
    assert ("tried in this order: STANDING REACT IF HP_BELOW 3: NONE / STANDING REACT IF HOLD 6: NONE / "
            "STANDING REACT: NONE. This message replaced: STANDING REACT: ASK. It withdrew: STANDING REACT IF "
            "LOST: NONE.") in text
    assert "in force from now on, in place of STANDING REACT: ASK" in text and "withdrew 1 standing order" in text
    text = _receipt_text(seated, "south", "STANDING react CLEAR\n")
    assert "You have no standing order for react (Reaction window) now: the game's default NONE answers." in text
