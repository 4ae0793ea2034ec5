"""What each player adds to the dice (DESIGN §5; service/entropy.py; issue 13).

Plain: without an ENTROPY line the contribution is derived from the lines the player wrote and from
nothing else, so headers written by servers the operator runs cannot change it, and the welcome
echoes it.  Commit and reveal (entropy=commit-reveal): commitments first, reveals once all are in,
a missing reveal dropped at the deadline (the declared rule), everything by mail.
"""

from __future__ import annotations

import email.policy
import hashlib
import re
from datetime import timedelta
from email.message import EmailMessage

import pytest

from moderator.clock import as_utc
from moderator.core.commitments import entropy_commitment
from moderator.core.contract import OptionError
from moderator.mail.hygiene import read_letter
from moderator.registry import Registry, product_registry
from moderator.service.archive import export_archive
from moderator.service.entropy import reminder_lead, written_entropy
from moderator.service.replay import replay_game
from moderator.service.reports import local_time
from moderator.service.table import load_table
from moderator.service.verify import verify_archive as verify_whole
from tests.conftest import Seated, duel_engine, flat, outbox_rows, text_of
from tests.mailmaker import player_mail
from tests.service.test_store_and_replay import play_random_game

ADDRESSES = {"north": "north@players.test", "south": "south@players.test"}
JOIN_BODY = "JOIN {token}\nNAME  Ann   Example\nTZ Europe/Madrid\n\nSee you on the field.\n"


def verify_archive(archive):
    """The problems the whole verify (service/verify.py: replay, chain, commitments) finds."""
    return verify_whole(archive, Registry([duel_engine, *product_registry()])).problems


def contribution_of(app, game_id: str, role: str) -> str:
    with app.db.session() as session:
        return load_table(session, app.registry, game_id).seats[role].contribution


def mail_with_headers(sender: str, body: str, headers: dict[str, str], encoding: str = "quoted-printable") -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = "moderator@demo.test"
    msg["Subject"] = "Re: Invitation"
    for name, value in headers.items():
        msg[name] = value
    msg.set_content(body, cte=encoding)
    return msg.as_bytes()


# ---------------------------------------------------------------- plain: from what the player wrote


def test_the_same_words_under_other_headers_and_encodings_give_the_same_contribution(app):
    """Received lines, Message-ID, Date and the transfer encoding are written by the servers on the
    way (the operator's among them): two copies of one text that differ in all of them give one
    contribution; another word in the text gives another."""
    limits = app.mailroom.limits.reading
    body = "JOIN K3F9-QW2M\nNAME Ann\n\n> quoted invitation text\n-- \nAnn's signature\n"
    first = mail_with_headers("ann@players.test", body, {
        "Received": "from mx1.club.example by mail.club.example; Mon, 1 Jun 2026 10:00:00 +0000",
        "Message-ID": "<one@client.test>", "Date": "Mon, 1 Jun 2026 10:00:00 +0000"}, "quoted-printable")
    second = mail_with_headers("ann@players.test", body, {
        "Received": "from relay.operator.example by mx.operator.example; Tue, 2 Jun 2026 11:11:11 +0000",
        "X-Operator-Stamp": "a9f0c3", "Message-ID": "<two@elsewhere.test>",
        "Date": "Tue, 2 Jun 2026 11:11:11 +0000"}, "base64")
    assert first != second
    contributions = [written_entropy([t for _, t in read_letter(raw, {"moderator@demo.test"}, limits).lines()])
                     for raw in (first, second)]
    assert contributions[0] == contributions[1]
    assert contributions[0][1] == ["JOIN K3F9-QW2M", "NAME Ann"]  # no quote, no signature
    other = mail_with_headers("ann@players.test", body.replace("Ann", "Anne"), {}, "quoted-printable")
    assert written_entropy([t for _, t in read_letter(other, {"moderator@demo.test"}, limits).lines()]) \
        != contributions[0]


def test_a_join_without_entropy_contributes_the_hash_of_its_lines_echoed_in_the_welcome(app):
    """The contribution is recomputed here from the body alone (spaces collapsed, blank lines left
    out), so nothing the mail gathered on the way can be in it."""
    created = app.create_game("duel", addresses=ADDRESSES)
    body = JOIN_BODY.format(token=created.invitations["north"])
    raw = player_mail(ADDRESSES["north"], body, headers={
        "Received": "from mx.operator.example by mail.operator.example; Mon, 1 Jun 2026 10:00:00 +0000"})
    outcome = app.receive(raw)
    assert outcome.status == "joined", outcome.reason
    lines = [" ".join(line.split()) for line in body.splitlines() if line.strip()]
    expected = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:32]
    assert contribution_of(app, created.game_id, "north") == expected
    welcome = text_of(outcome.replies[0].raw)
    assert f"Your contribution to the dice: '{expected}'" in flat(welcome)
    assert "    NAME Ann Example" in welcome and "    See you on the field." in welcome
    assert hashlib.sha256(raw).hexdigest()[:32] != expected


def test_an_entropy_line_is_the_contribution_as_written(app):
    created = app.create_game("duel", addresses=ADDRESSES)
    outcome = app.receive(player_mail(ADDRESSES["north"], f"JOIN {created.invitations['north']}\nENTROPY owl 17\n"))
    assert contribution_of(app, created.game_id, "north") == "owl 17"
    welcome = flat(text_of(outcome.replies[0].raw))
    assert "Your contribution to the dice: 'owl 17'" in welcome and "You sent no ENTROPY line" not in welcome


# ---------------------------------------------------------------- commit and reveal, by mail

SECRETS = {"north": "north's dozen random words: ember quill tundra", "south": "  south keeps 9 odd words here  "}


def invite_commit_reveal(app):
    created = app.create_game("duel", options={"entropy": "commit-reveal"}, addresses=ADDRESSES,
                              referee_address="ref@players.test")
    return created


def join(app, created, role: str, commitment: str | None = None) -> tuple[object, str]:
    commit = commitment if commitment is not None else entropy_commitment(SECRETS[role])
    outcome = app.receive(player_mail(ADDRESSES[role],
                                      f"JOIN {created.invitations[role]}\nENTROPY-COMMIT {commit}\n"))
    secret = re.search(r"Your secret is ([A-Z0-9]{4}-[A-Z0-9]{4})", text_of(outcome.replies[0].raw))
    return outcome, secret.group(1) if secret else ""


def send(app, created, role: str, secret: str, body: str):
    head = f"GAME {created.game_id}\nROLE {role}\nSECRET {secret}\n"
    return app.receive(player_mail(ADDRESSES[role], head + body))


def game_status(app, game_id: str) -> str:
    with app.db.session() as session:
        return load_table(session, app.registry, game_id).game.status


def last_mail_to(app, role: str) -> str:
    return flat(text_of([r for r in outbox_rows(app) if r.recipient == ADDRESSES[role]][-1].raw))


def test_the_invitation_asks_for_a_commitment_and_declares_the_rule_for_a_missing_reveal(app):
    invite_commit_reveal(app)
    invitation = last_mail_to(app, "north")
    assert "ENTROPY-COMMIT <64 hex digits>" in invitation and "sha256sum" in invitation
    assert "that player's contribution is dropped (it counts as empty)" in invitation
    assert "'ENTROPY <any words you like>'" not in invitation


def test_a_join_without_a_commitment_or_with_its_text_takes_no_seat(app):
    created = invite_commit_reveal(app)
    outcome = app.receive(player_mail(ADDRESSES["north"], f"JOIN {created.invitations['north']}\n"))
    assert outcome.status == "receipt" and "has no ENTROPY-COMMIT line" in flat(text_of(outcome.replies[0].raw))
    outcome = app.receive(player_mail(ADDRESSES["north"], f"JOIN {created.invitations['north']}\nENTROPY words\n"))
    assert outcome.status == "receipt" and "do not send your text now" in flat(text_of(outcome.replies[0].raw))
    outcome, _ = join(app, created, "north", commitment="1234")
    assert outcome.status == "receipt" and "not 64 hex digits" in flat(text_of(outcome.replies[0].raw))
    with app.db.session() as session:
        assert load_table(session, app.registry, created.game_id).seats["north"].joined_at is None


def test_commit_then_reveal_starts_the_game_with_the_revealed_texts(app):
    created = invite_commit_reveal(app)
    north, north_secret = join(app, created, "north")
    assert north.status == "joined" and "once every seat is taken" in flat(text_of(north.replies[0].raw))
    early = send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    assert "No reveal is asked now (the seats are not all taken yet)" in flat(text_of(early.replies[0].raw))
    south, south_secret = join(app, created, "south")
    welcome = flat(text_of(south.replies[0].raw))
    assert "Reveal your secret text now: send 'ENTROPY-REVEAL <your secret text>'" in welcome
    assert "Reveal your secret text now" in last_mail_to(app, "north")  # the other player is asked too
    assert game_status(app, created.game_id) == "forming"
    wrong = send(app, created, "north", north_secret, "ENTROPY-REVEAL north's other words\n")
    assert "does not match your commitment" in flat(text_of(wrong.replies[0].raw))
    assert contribution_of(app, created.game_id, "north") == ""
    ok = send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    assert "recorded. The game starts once all have revealed" in flat(text_of(ok.replies[0].raw))
    assert game_status(app, created.game_id) == "forming"
    last = send(app, created, "south", south_secret, f"ENTROPY-REVEAL {SECRETS['south']}\n")
    assert "Every player has revealed: the game starts" in flat(text_of(last.replies[0].raw))
    assert game_status(app, created.game_id) == "running"
    assert any(r.kind == "report" for r in last.replies)  # the first reports went out with it
    assert [contribution_of(app, created.game_id, r) for r in ("north", "south")] == \
        [SECRETS["north"].strip(), SECRETS["south"].strip()]
    late = send(app, created, "south", south_secret, "ENTROPY-COMMIT " + "a" * 64 + "\n")
    assert "the commitments are closed" in flat(text_of(late.replies[0].raw))


def test_a_commitment_may_be_replaced_until_every_seat_is_taken(app):
    created = invite_commit_reveal(app)
    _, north_secret = join(app, created, "north", commitment="b" * 64)
    replaced = send(app, created, "north", north_secret, f"ENTROPY-COMMIT {entropy_commitment(SECRETS['north'])}\n")
    assert "Your entropy commitment is now" in flat(text_of(replaced.replies[0].raw))
    join(app, created, "south")
    ok = send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    assert "matches your commitment" in flat(text_of(ok.replies[0].raw))


def test_a_player_who_does_not_reveal_by_the_deadline_is_dropped_and_everyone_is_told(app):
    """The declared rule: at the deadline the missing contribution counts as empty, the drop is
    logged and announced to every seat, and the game starts."""
    created = invite_commit_reveal(app)
    _, north_secret = join(app, created, "north")
    join(app, created, "south")
    send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    app.clock.advance(hours=47)
    assert app.run_due() == [] and game_status(app, created.game_id) == "forming"
    app.clock.advance(hours=2)
    assert app.run_due() == [created.game_id]
    assert game_status(app, created.game_id) == "running"
    assert contribution_of(app, created.game_id, "south") == ""
    for role in ("north", "south"):
        told = [flat(text_of(r.raw)) for r in outbox_rows(app) if r.recipient == ADDRESSES[role]]
        assert any("without a reveal from south: as the rule declared at the start, that contribution is dropped"
                   in t for t in told), role
    with app.db.session() as session:
        table = load_table(session, app.registry, created.game_id)
        assert [(e.role, e.payload_json) for e in table.log(kinds=("entropy",)) if "dropped" in e.payload_json] \
            == [("south", '{"dropped":true,"entropy_commitment":"' + entropy_commitment(SECRETS["south"]) + '"}')]
        assert table.rng_record().contributions == [SECRETS["north"], ""]
    replayed = replay_game(app, created.game_id)
    assert replayed.ok, replayed.mismatches


def test_the_archive_of_a_commit_reveal_game_verifies_its_reveals(app):
    created = invite_commit_reveal(app)
    _, north_secret = join(app, created, "north")
    _, south_secret = join(app, created, "south")
    send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    send(app, created, "south", south_secret, f"ENTROPY-REVEAL {SECRETS['south']}\n")
    seated = Seated(app, created.game_id, {"north": north_secret, "south": south_secret}, ADDRESSES,
                    created.referee_secret)
    play_random_game(seated, seed=5)
    replayed = replay_game(app, created.game_id)  # the key from the reveals, not from the joins
    assert replayed.ok, replayed.mismatches
    archive = export_archive(app.db, app.registry, created.game_id)
    assert [c["commitment"] for c in archive["contributions"]] == \
        [entropy_commitment(SECRETS["north"]), entropy_commitment(SECRETS["south"])]
    assert verify_archive(archive) == []
    archive["contributions"][1]["contribution"] = "south's other words"
    problems = verify_archive(archive)
    assert "seat south: the entropy revealed does not hash to the commitment" in " ".join(problems)


def test_an_unknown_entropy_mode_is_refused(app):
    with pytest.raises(OptionError, match="option entropy must be one of plain, commit-reveal"):
        app.create_game("duel", options={"entropy": "trust-me"}, addresses=ADDRESSES)


# ---------------------------------------------------------------- one reminder before the reveal deadline


@pytest.mark.parametrize(("window", "thresholds", "lead"), [
    (48, [24.0, 2.0], 24), (12, [24.0, 2.0], 2), (3, [24.0, 2.0], 1.5), (48, [], 24), (48, [30.0], 24)])
def test_the_reveal_reminder_goes_at_the_largest_threshold_in_the_window_s_second_half(window, thresholds, lead):
    assert reminder_lead(window, thresholds) == lead


def mails_to(app, role: str, containing: str) -> list[str]:
    return [t for t in (flat(text_of(r.raw)) for r in outbox_rows(app) if r.recipient == ADDRESSES[role])
            if containing in t]


def test_a_player_who_has_not_revealed_gets_one_reminder_then_the_declared_rule_applies(app):
    """The reveals open for 48 hours; 24 hours before their deadline the one player who has not
    revealed is reminded once (when, what to send, the rule), however often the job runs; the
    player who revealed is not; at the deadline the missing contribution is dropped as declared."""
    created = invite_commit_reveal(app)
    _, north_secret = join(app, created, "north")
    _, south_secret = join(app, created, "south")
    send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    with app.db.session() as session:
        due = as_utc(load_table(session, app.registry, created.game_id).game.next_deadline)
    assert due == app.clock.now() + timedelta(hours=48)
    app.clock.advance(hours=23)
    assert app.send_reminders() == 0
    app.clock.advance(hours=1, minutes=5)
    assert app.send_reminders() == 1
    for _ in range(4):
        app.clock.advance(hours=5)
        assert app.send_reminders() == 0  # the job runs every five minutes: still one mail
    reminders = mails_to(app, "south", "reminder: reveal your entropy")
    assert len(reminders) == 1 and mails_to(app, "north", "reminder: reveal your entropy") == []
    reminder = reminders[0]
    assert f"entropy reveal, due {local_time(due, 'UTC')}." in reminder
    assert f"You committed to {entropy_commitment(SECRETS['south'])}" in reminder
    assert "'ENTROPY-REVEAL <your secret text>'" in reminder and "This is the only reminder" in reminder
    assert f"SECRET {south_secret}" in reminder and f"GAME {created.game_id}" in reminder
    assert "that player's contribution is dropped (it counts as empty)" in reminder
    app.clock.advance(hours=4)
    assert app.run_due() == [created.game_id]
    assert contribution_of(app, created.game_id, "south") == ""
    assert any("without a reveal from south" in t for t in mails_to(app, "south", "Entropy: a reveal is missing"))
    app.clock.advance(hours=1)
    assert mails_to(app, "south", "reminder: reveal your entropy") == reminders  # none after the start


def test_no_reminder_once_every_player_has_revealed_or_before_the_seats_are_taken(app):
    created = invite_commit_reveal(app)
    _, north_secret = join(app, created, "north")
    app.clock.advance(hours=30)
    assert app.send_reminders() == 0  # no deadline yet: the seats are not all taken
    _, south_secret = join(app, created, "south")
    send(app, created, "north", north_secret, f"ENTROPY-REVEAL {SECRETS['north']}\n")
    send(app, created, "south", south_secret, f"ENTROPY-REVEAL {SECRETS['south']}\n")
    app.clock.advance(hours=30)
    app.send_reminders()
    assert [t for role in ADDRESSES for t in mails_to(app, role, "reminder: reveal your entropy")] == []
