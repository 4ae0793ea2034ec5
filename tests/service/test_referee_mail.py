"""The referee's and the observers' mail (issue 12, "The referee and observers"): the referee's
welcome with the secret and the commands, one digest per game turn (who owes what by when, what
was defaulted, the missed deadlines, the quarantined mail) that never shows what a player hides,
STATUS that says who owes which decision by when, and observers never asked for orders."""

from __future__ import annotations

import email
import email.policy
import re

from moderator.mail.commands import REFEREE, commands_for
from moderator.service.referee_mail import Turn
from moderator.service.table import load_table
from tests.conftest import flat, outbox_rows, seat_duel, text_of
from tests.mailmaker import player_mail

CARD = re.compile(r"\bC\d\d\b")  # a Duel card id: only its holder may read it


def to(app, address, kind=None):
    return [row for row in outbox_rows(app) if row.recipient == address and (kind is None or row.kind == kind)]


def digests(app, address="ref@players.test"):
    return to(app, address, "digest")


def referee_mail(seated, body):
    head = f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\n"
    return seated.app.receive(player_mail("ref@players.test", head + body))


def run_out_deadlines(app, times):
    """Let `times` deadlines pass, running the game after each (every question gets its default)."""
    for _ in range(times):
        app.clock.advance(hours=80)
        app.run_due()


# ---------------------------------------------------------------- the welcome


def test_the_referee_s_welcome_carries_the_secret_the_envelope_and_every_referee_command(seated):
    welcome = [row for row in to(seated.app, "ref@players.test") if row.kind == "notice"]
    assert len(welcome) == 1
    assert welcome[0].subject == "[duel-0001] Referee: you referee Duel (test game)"
    text = text_of(welcome[0].raw)
    assert f"SECRET {seated.referee_secret}" in text and "GAME duel-0001" in text and "ROLE referee" in text
    for command in commands_for(REFEREE):
        assert command.usage in text, command.name
    assert "North: north@players.test" in flat(text) and "Write from ref@players.test" in flat(text)


def test_the_welcome_s_envelope_works_as_it_is_written(seated):
    text = text_of(next(row for row in to(seated.app, "ref@players.test") if row.kind == "notice").raw)
    envelope = text[text.index("  GAME "):text.index("  STATUS\n") + len("  STATUS\n")]
    outcome = seated.app.receive(player_mail("ref@players.test", envelope))
    assert outcome.status == "command"
    answer = to(seated.app, "ref@players.test", "receipt")[-1]
    assert answer.subject == "[duel-0001] Referee: answer to STATUS"
    assert "WHO OWES WHAT" in text_of(answer.raw)


def test_a_game_without_a_referee_mails_no_welcome_and_no_digest(app):
    app.create_game("duel", addresses={"north": "n@players.test", "south": "s@players.test"})
    assert all(row.recipient in ("n@players.test", "s@players.test") for row in outbox_rows(app))


# ---------------------------------------------------------------- the digest


def test_one_digest_when_the_game_starts_and_one_per_game_turn(seated):
    app = seated.app
    assert [row.subject for row in digests(app)] == ["[duel-0001] Referee: the game has started"]
    seated.send("north", "ATTACK\n")  # the round goes on: both commit, then south may react
    assert [row.subject for row in digests(app)] == ["[duel-0001] Referee: the game has started"]
    run_out_deadlines(app, 1)  # both commitments defaulted; south's reaction by the game's standing NONE
    assert seated.state()["round"] == 2
    assert [row.subject for row in digests(app)][1:] == ["[duel-0001] Referee: Turn 1 digest: 2 missed deadlines"]
    run_out_deadlines(app, 1)  # south rests by default: round 2 ends
    assert seated.state()["round"] == 3
    assert [row.subject for row in digests(app)][2:] == ["[duel-0001] Referee: Turn 2 digest: 1 missed deadline"]


def test_a_digest_says_who_owes_what_by_when_what_was_defaulted_and_the_missed_deadlines(seated):
    app = seated.app
    seated.send("north", "ATTACK\n")
    run_out_deadlines(app, 1)
    text = flat(text_of(digests(app)[-1].raw))
    assert "Turn 1 has ended. Now: R2-SOUTH; the game has 8 turns." in text
    assert 'South owes a decision on "Your turn" (act), due' in text
    assert "ATTACK or REST?" not in text  # the prompt is south's
    assert 'North: "Face-down commitment" (commit), the default (face down).' in text
    assert 'South: "Face-down commitment" (commit), the default (face down).' in text
    assert "South, by the game's standing defaults: Reaction window." in text
    assert "In the whole game: North 1, South 1." in text
    run_out_deadlines(app, 1)
    text = flat(text_of(digests(app)[-1].raw))
    missed = text[text.index("MISSED DEADLINES"):text.index("ANSWERED BY STANDING ORDERS")]
    assert 'South: "Your turn" (act), the default REST.' in missed and "North:" not in missed
    assert "In the whole game: North 1, South 2." in text


def test_standing_orders_that_answered_are_counted_by_kind_never_quoted(seated):
    app = seated.app
    seated.send("south", "STANDING react IF HOLD 1: NONE\n")
    seated.send("north", "ATTACK\n")
    run_out_deadlines(app, 1)
    text = flat(text_of(digests(app)[-1].raw))
    assert "South, by their own standing orders: Reaction window." in text
    assert "IF HOLD" not in text


def test_quarantined_mail_for_the_game_waits_in_the_next_digest(seated):
    app = seated.app
    stranger = player_mail("mallory@else.test", f"GAME {seated.game_id}\nROLE north\nSECRET AAAA-BBBB\nREST\n",
                           subject="let me in")
    assert app.receive(stranger).status == "quarantined"
    run_out_deadlines(app, 1)
    first = digests(app)[-1]
    assert first.subject.endswith("1 new mail in quarantine")
    text = flat(text_of(first.raw))
    assert "1 message(s) about this game were kept unprocessed, 1 new since the last digest" in text
    assert "NEW" in text and "mallory@else.test" in text and "'let me in'" in text and "unknown sender" in text
    run_out_deadlines(app, 1)
    second = digests(app)[-1]
    assert "quarantine" not in second.subject
    assert "1 message(s) about this game were kept unprocessed:" in flat(text_of(second.raw))


def test_a_digest_names_no_card_an_observer_has_not_seen(app):
    """Hands, face-down commitments, standing orders that test a hand, defaults of secret questions:
    the referee learns no card before it is revealed to everyone."""
    created = app.create_game("duel", addresses={"north": "n@players.test", "south": "s@players.test"},
                              referee_address="ref@players.test", observers={"club": "club@players.test"})
    secrets = {}
    for role, address in (("north", "n@players.test"), ("south", "s@players.test")):
        welcome = text_of(app.receive(player_mail(address, f"JOIN {created.invitations[role]}\n")).replies[0].raw)
        secrets[role] = re.search(r"Your secret is (\S+)\.", welcome).group(1)
    with app.db.session() as session:
        hands = load_table(session, app.registry, created.game_id).state["hands"]

    def send(role, address, body):
        app.receive(player_mail(address, f"GAME {created.game_id}\nROLE {role}\nSECRET {secrets[role]}\n{body}"))

    send("north", "n@players.test", f"ATTACK\nCOMMIT {hands['north'][0]}\n")
    send("south", "s@players.test", f"STANDING react IF HOLD 4: COUNTER {hands['south'][0]}\nNOTIFY ASKED\n")
    run_out_deadlines(app, 4)
    with app.db.session() as session:
        still_hidden = {card for hand in load_table(session, app.registry, created.game_id).state["hands"].values()
                        for card in hand}
    named = {card for row in digests(app) for card in CARD.findall(text_of(row.raw))}
    watched = {card for row in to(app, "club@players.test") for card in CARD.findall(text_of(row.raw))}
    assert len(digests(app)) >= 4
    assert named <= watched
    assert not named & still_hidden


def test_the_digest_is_the_same_whatever_hand_a_player_holds(seated):
    """Rendered from public facts only: swapping a hidden hand changes the player's own report
    and the options they are asked, never a byte of the referee's digest."""
    app = seated.app
    seated.send("north", "ATTACK\n")  # both now commit a card from a hidden hand
    with app.db.session() as session:
        table = load_table(session, app.registry, seated.game_id)
        turn = Turn(opening=False, ended=1, finished=False)
        before = app.referee_mail.digest_text(table, app.clock.now(), turn, [])
        pending = table.engine.pending(table.state)
        hands = table.state["hands"]
        deck = table.state["deck"]
        hands["south"], deck[:3] = deck[:3], hands["south"]
        assert table.engine.pending(table.state) != pending  # the swap changed what south is asked
        after = app.referee_mail.digest_text(table, app.clock.now(), turn, [])
    assert after == before


# ---------------------------------------------------------------- STATUS


def test_the_referee_s_status_says_who_owes_which_decision_by_when_in_the_referee_s_time_zone(app):
    created = app.create_game("duel", addresses={"north": "n@players.test", "south": "s@players.test"},
                              referee_address="ref@players.test", settings={"referee_timezone": "Europe/Madrid"})
    for role, address in (("north", "n@players.test"), ("south", "s@players.test")):
        app.receive(player_mail(address, f"JOIN {created.invitations[role]}\n"))
    app.receive(player_mail("ref@players.test", f"GAME {created.game_id}\nROLE referee\nSECRET "
                                                f"{created.referee_secret}\nSTATUS\n"))
    text = flat(text_of(to(app, "ref@players.test", "receipt")[-1].raw))
    assert "WHO OWES WHAT (times in Europe/Madrid)" in text
    assert 'North owes a decision on "Your turn" (act), due Sat 03 Jan 13:00 CET.' in text
    assert "ATTACK or REST?" not in text
    assert "Missed deadlines in the game: North 0, South 0." in text


def test_a_player_s_status_names_the_opponent_s_question_only_by_its_kind(seated):
    seated.send("north", "ATTACK\n")  # both owe a face-down card now
    north_hand = seated.state()["hands"]["north"]
    text = flat(text_of(seated.send("south", "STATUS\n").replies[0].raw))
    assert "You (South): Commit one card from your hand face down. Due" in text
    assert 'North owes a decision on "Face-down commitment" (commit), due' in text
    assert not any(card in text for card in north_hand)


def test_a_status_says_when_a_deadline_has_passed(seated):
    seated.app.clock.advance(hours=80)  # north's deadline passed; the game has not run since
    referee_mail(seated, "STATUS\n")
    text = flat(text_of(to(seated.app, "ref@players.test", "receipt")[-1].raw))
    assert "(passed: the default applies at the next run)" in text


# ---------------------------------------------------------------- observers


FORBIDDEN_TO_OBSERVERS = ("WHAT WE NEED FROM YOU", "What we need from you", "HOW TO ANSWER", "How to answer",
                          "send orders", "SECRET", "JOIN ", "Reply to this mail", "ROLE ")


def parts_of(raw: bytes) -> list[str]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return [part.get_content() for part in message.walk() if part.get_content_type() in ("text/plain", "text/html")]


def test_observers_get_an_invitation_and_reports_that_never_ask_for_orders(app):
    created = app.create_game("duel", addresses={"north": "n@players.test", "south": "s@players.test"},
                              referee_address="ref@players.test", observers={"club": "club@players.test"})
    invitation = to(app, "club@players.test")
    assert [row.subject for row in invitation] == ["[duel-0001] Observer: you are invited to watch"]
    assert "Nothing is asked of you" in flat(text_of(invitation[0].raw))
    for role, address in (("north", "n@players.test"), ("south", "s@players.test")):
        app.receive(player_mail(address, f"JOIN {created.invitations[role]}\n"))
    app.receive(player_mail("ref@players.test", f"GAME {created.game_id}\nROLE referee\nSECRET "
                                                f"{created.referee_secret}\nANNOUNCE Round 2 on Sunday\n"))
    run_out_deadlines(app, 4)
    mails = to(app, "club@players.test")
    assert {row.kind for row in mails} == {"notice", "report"} and len(mails) >= 4
    for row in mails:
        for part in parts_of(row.raw):
            for phrase in FORBIDDEN_TO_OBSERVERS:
                assert phrase not in part, (row.subject, phrase)


def test_seating_by_seat_duel_gives_the_referee_exactly_a_welcome_and_the_opening_digest(app):
    seated = seat_duel(app)
    assert [row.kind for row in to(app, "ref@players.test")] == ["notice", "digest"]
    assert seated.referee_secret in text_of(to(app, "ref@players.test")[0].raw)
    assert seated.referee_secret not in text_of(to(app, "ref@players.test")[1].raw)
