"""A corpus of real-shaped player mail, each message sent through the real Postfix and read back
from the real Dovecot (tests/mail/corpus/*.eml, expectations in tests/mail/corpus/expected.yaml).

For every message:

1. A fresh App (`real_app`) on a fresh SQLite creates a Duel game for alice (north) and bob
   (south).  The seats are joined by handing JOIN mails to `app.receive` directly (no SMTP round
   trip: it keeps the corpus fast), and the outbox of that setup (invitations, welcomes, first
   reports) is marked sent without sending, so every mail a player receives during the case was
   caused by the corpus message.  `setup: north_open` leaves north unjoined (for JOIN cases).
2. The runtime values are substituted for the placeholders of the .eml bytes: {GAME},
   {SECRET_NORTH}, {SECRET_SOUTH}, {TOKEN_NORTH}, {PHASE}, {CARD_NORTH} (a card in north's
   hand) and, after `setup: north_moved` (round 1 played), {OLD_REPORT_NORTH} and
   {OLD_PHASE_NORTH}.  They are ASCII, so they are replaced in the raw bytes; quoted-printable
   leaves braces and letters alone, so a QP body carries its placeholders literally.  A base64 part cannot, so
   the .eml holds the base64 of text *with* placeholders, and the test decodes that part,
   substitutes, and re-encodes it in place with the same line length.  {BASE64_PAYLOAD_15MB} is
   replaced by 15 MB of generated JPEG-like bytes in base64 (not committed).
3. The message is submitted by SMTP (STARTTLS + AUTH, as a mail client does) to
   moderator@test.example, as the From address's user unless the entry names `smtp_user`, and with
   `mail_from` as the envelope sender when given ("" = the null sender of bounces; Dovecot then
   writes `Return-Path: <>`).
4. The daemon is pumped with `app.tick()`; the outcome of each delivery is recorded by wrapping
   `app.mailroom.receive` (Outcome.status is asserted).  Replies are read back by IMAP from the
   players' mailboxes; everyone else's mailbox must stay empty; every reply has exactly one To
   (the expected player) and no Cc/Bcc.  The moderator's Quarantine folder, the game fingerprint
   (answers, snapshots, engine state) and, for DSNs, the bounce log are checked.
5. What the moderator kept of the message (issue 12): the status of its stored row (`kept_as`:
   done, quarantined or duplicate) and, for one too large to read, how many bytes of it
   (`kept_bytes`).  `new_message_id` gives every delivery after the first a Message-ID of its
   own, as a client's "send again" does.

A case the moderator gets wrong keeps its correct expectation and is listed in XFAIL (strict).
"""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import json
import random
import re
import ssl
import time
from email.utils import getaddresses
from pathlib import Path

import aiosmtplib
import pytest
import yaml
from sqlmodel import select

from moderator.service.table import load_table
from moderator.store.models import InboundMail, LogEntry, Outbox
from tests.conftest import Seated, flat, text_of
from tests.mail.conftest import MailStack, real_app
from tests.mailmaker import player_mail

pytestmark = pytest.mark.mailstack

CORPUS = Path(__file__).parent / "corpus"
EXPECTED: dict[str, dict] = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
STATUSES = {"applied", "receipt", "quarantined", "command", "joined", "duplicate"}
KEPT = {"done", "quarantined", "duplicate"}
SEAT_USERS = {"north": "alice", "south": "bob"}
WATCHED = ("alice", "bob", "carol", "dave")  # every mailbox a reply could wrongly reach
PAYLOAD_MARKER = b"{BASE64_PAYLOAD_15MB}"
PAYLOAD_SIZE = 15 * 1024 * 1024

# Messages the moderator handles wrongly today.  The expectation stays the correct behaviour.
XFAIL: dict[str, str] = {}  # every discrepancy the corpus found is fixed


# ------------------------------------------------------------------ the game a message arrives in


def seat_game(stack: MailStack, tmp_path: Path, setup: str | None) -> tuple[Seated, dict[str, str]]:
    app = real_app(stack, tmp_path)
    addresses = {role: stack.address(user) for role, user in SEAT_USERS.items()}
    created = app.create_game("duel", addresses=addresses)
    joining = ("south",) if setup == "north_open" else ("north", "south")
    secrets = {}
    for role in joining:
        outcome = app.receive(player_mail(addresses[role], f"JOIN {created.invitations[role]}\n",
                                          to=stack.address("moderator")))
        assert outcome.status == "joined", outcome.reason
        secrets[role] = re.search(r"Your secret is ([A-Z0-9]{4}-[A-Z0-9]{4})", text_of(outcome.replies[0].raw)).group(1)
    old_report = ""
    if setup == "north_moved":  # north has an older report once round 1 is over
        old_report = _first_report(app, addresses["north"])
        _play_round_1(app, created.game_id, addresses, secrets, stack)
    with app.db.session() as session:
        for row in session.exec(select(Outbox)):  # the setup's mail is not part of the case
            row.status = "sent"
            session.add(row)
        table = load_table(session, app.registry, created.game_id)
        phase = table.game.phase_label
        hand = (table.state or {}).get("hands", {}).get("north", []) if table.game.status == "running" else []
    values = {"GAME": created.game_id, "SECRET_NORTH": secrets.get("north", "NOTJ-OINED"),
              "SECRET_SOUTH": secrets["south"], "TOKEN_NORTH": created.invitations["north"],
              "PHASE": phase or "NONE", "CARD_NORTH": hand[0] if hand else "C00",
              "OLD_REPORT_NORTH": old_report, "OLD_PHASE_NORTH": "R1-NORTH"}
    return Seated(app, created.game_id, secrets, addresses, created.referee_secret), values


def _first_report(app, address: str) -> str:
    with app.db.session() as session:
        rows = session.exec(select(Outbox).where(Outbox.recipient == address, Outbox.kind == "report")).all()
    return rows[0].message_id


def _play_round_1(app, game_id: str, addresses: dict[str, str], secrets: dict[str, str], stack: MailStack) -> None:
    """North attacks, both commit a card: round 2 begins and north is sent a newer report."""
    with app.db.session() as session:
        hands = load_table(session, app.registry, game_id).state["hands"]
    for role, orders in (("north", f"ATTACK\nCOMMIT {hands['north'][0]}"), ("south", f"COMMIT {hands['south'][0]}")):
        body = f"GAME {game_id}\nROLE {role}\nSECRET {secrets[role]}\n{orders}\n"
        outcome = app.receive(player_mail(addresses[role], body, to=stack.address("moderator")))
        assert outcome.status == "applied", outcome.reason


# ------------------------------------------------------------------ placeholders


def substitute(data: bytes, values: dict[str, str]) -> bytes:
    for key, value in values.items():
        data = data.replace(b"{" + key.encode() + b"}", value.encode())
    return data


def render(raw: bytes, values: dict[str, str]) -> bytes:
    """The .eml with runtime values in place (base64 parts decoded, substituted, re-encoded)."""
    raw = substitute(raw, values)
    message = email.message_from_bytes(raw, policy=email.policy.compat32)
    for part in message.walk():
        if part.is_multipart() or str(part.get("Content-Transfer-Encoding", "")).strip().lower() != "base64":
            continue
        encoded = part.get_payload()
        if PAYLOAD_MARKER.decode() in encoded:
            continue
        decoded = base64.b64decode(encoded)
        if b"{" not in decoded:
            continue
        original = encoded.encode("ascii").rstrip(b"\r\n")
        newline = b"\r\n" if b"\r\n" in original else b"\n"
        again = base64.encodebytes(substitute(decoded, values)).rstrip(b"\n").replace(b"\n", newline)
        assert raw.count(original) == 1
        raw = raw.replace(original, again)
    if PAYLOAD_MARKER in raw:
        photo = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + random.Random(15).randbytes(PAYLOAD_SIZE)
        raw = raw.replace(PAYLOAD_MARKER, base64.encodebytes(photo).rstrip(b"\n").replace(b"\n", b"\r\n"))
    return raw


# ------------------------------------------------------------------ the servers


def submit(stack: MailStack, raw: bytes, user: str, mail_from: str | None) -> None:
    """A client's SMTP submission (STARTTLS, AUTH) with a chosen envelope sender ("" = null)."""

    async def send() -> None:
        client = aiosmtplib.SMTP(hostname=stack.host, port=stack.smtp_port, start_tls=True,
                                 tls_context=ssl.create_default_context(cafile=stack.ca), timeout=60)
        await client.connect()
        try:
            await client.login(stack.address(user), f"{user}-pw")
            await client.sendmail(stack.address(user) if mail_from is None else mail_from,
                                  [stack.address("moderator")], raw)
        finally:
            await client.quit()

    asyncio.run(send())


def count(stack: MailStack, user: str, folder: str = "INBOX") -> int:
    with stack.imap(user) as client:
        if not client.folder_exists(folder):
            return 0
        return int(client.select_folder(folder, readonly=True)[b"EXISTS"])


def wait_count(stack: MailStack, user: str, wanted: int, folder: str = "INBOX", timeout: float = 20) -> int:
    deadline = time.monotonic() + timeout
    while True:
        found = count(stack, user, folder)
        if found >= wanted or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def sender_user(raw: bytes, domain: str) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.compat32)
    address = getaddresses([str(message.get("From", ""))])[0][1].lower()
    local, _, host = address.partition("@")
    assert host == domain, f"name smtp_user for a sender outside {domain}: {address}"
    return local


def new_outbox(app, after: int) -> list[Outbox]:
    with app.db.session() as session:
        return list(session.exec(select(Outbox).where(Outbox.id > after).order_by(Outbox.id)))


def last_outbox_id(app) -> int:
    rows = new_outbox(app, 0)
    return rows[-1].id if rows else 0


def held_receipt_text(app, game_id: str) -> str:
    """North's receipts that wait for north's next report, as that report will show them."""
    from moderator.render.texts import render

    with app.db.session() as session:
        seat = load_table(session, app.registry, game_id).seats["north"]
        receipts = [item["receipt"] for item in json.loads(seat.held_receipts_json or "[]")]
    assert receipts, "north has no receipt waiting for its next report"
    return flat(render(app.environment, "mail/notice.txt.j2", heading="held", paragraphs=[], receipts=receipts,
                       envelope=[], orders_address=""))


# ------------------------------------------------------------------ the cases


def cases():
    for name in sorted(EXPECTED):
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[name])] if name in XFAIL else []
        yield pytest.param(name, EXPECTED[name], id=name.removesuffix(".eml"), marks=marks)


def test_every_message_has_an_expectation():
    files = {path.name for path in CORPUS.glob("*.eml")}
    assert files == set(EXPECTED), (files ^ set(EXPECTED))
    assert len(files) >= 60
    assert set(XFAIL) <= files
    for name, spec in EXPECTED.items():
        assert spec.get("why"), name
        assert spec["status"] in STATUSES, name
        assert spec["reply_to"] in ("none", *SEAT_USERS.values()), name
        assert isinstance(spec["quarantine"], bool) and isinstance(spec["state_changes"], bool), name
        assert spec["quarantine"] == (spec["status"] == "quarantined"), name
        assert spec.get("kept_as", "done") in KEPT, name
        assert not spec.get("new_message_id") or spec.get("deliveries", 1) > 1, name
        assert not spec.get("held_contains") or spec["status"] == "applied", name


@pytest.mark.parametrize("name, spec", list(cases()))
def test_corpus_message(clean_mail, tmp_path, name, spec):
    stack = clean_mail
    seated, values = seat_game(stack, tmp_path, spec.get("setup"))
    try:
        check_message(stack, seated, values, name, spec)
    finally:  # an App holds an IMAP login; Dovecot allows 10 per user
        seated.app.inbox.close()
        seated.app.db.engine.dispose()


def check_message(stack: MailStack, seated: Seated, values: dict[str, str], name: str, spec: dict) -> None:
    app = seated.app
    outcomes = []
    receive = app.mailroom.receive

    def recording(raw, source=""):
        outcomes.append(receive(raw, source))
        return outcomes[-1]

    app.mailroom.receive = recording
    raw = render((CORPUS / name).read_bytes(), values)
    smtp_user = spec.get("smtp_user") or sender_user(raw, stack.domain)
    deliveries = spec.get("deliveries", 1)

    for delivery in range(deliveries):
        if delivery:  # expectations are about the last delivery: start its bookkeeping afresh
            stack.reset()
        if delivery and spec.get("new_message_id"):
            raw = re.sub(rb"(?im)^(Message-ID:\s*<)", rb"\1again" + str(delivery).encode() + b".", raw, count=1)
        before = seated.fingerprint()
        first_row = last_outbox_id(app)
        submit(stack, raw, smtp_user, spec.get("mail_from"))
        assert wait_count(stack, "moderator", 1) == 1, "the message did not reach the moderator's inbox"
        for _ in range(2):
            app.tick()
        assert len(outcomes) == delivery + 1, "the daemon did not read the message exactly once"
        if spec.get("receipt_held"):  # a quiet receipt waits for a report; none comes, so it goes alone
            app.clock.advance(minutes=app.settings.deadlines.receipt_hold_minutes + 1)
            app.tick()
        sent = new_outbox(app, first_row)
        assert all(row.status == "sent" for row in sent), [(row.recipient, row.status, row.last_error) for row in sent]
        wait_count(stack, "moderator", len(sent), folder="Sent")  # the copies travel with the replies

    outcome = outcomes[-1]
    # ---- the mailroom's verdict
    assert outcome.status == spec["status"], outcome.reason
    # ---- who was written to, according to the outbox and according to the mailboxes
    expected_users = ([] if spec["reply_to"] == "none" else [spec["reply_to"]]) + list(spec.get("also_to", []))
    assert sorted({row.recipient for row in sent}) == sorted(stack.address(u) for u in expected_users)
    for user in WATCHED:
        wanted = sum(1 for row in sent if row.recipient == stack.address(user))
        got = wait_count(stack, user, wanted) if wanted else count(stack, user)
        assert got == wanted, f"{user} received {got} message(s), expected {wanted}"
    # ---- every reply goes to its player alone: header injection must not add recipients
    replies = {user: stack.messages(user) for user in expected_users}
    for user, messages in replies.items():
        for message in messages:
            to_headers = message.get_all("To") or []
            assert len(to_headers) == 1, to_headers
            assert [address.lower() for _, address in getaddresses([str(to_headers[0])])] == [stack.address(user)]
            assert message.get("Bcc") is None and message.get("Cc") is None
            head = message.as_bytes(policy=email.policy.SMTP).split(b"\r\n\r\n", 1)[0].lower()
            assert b"\r\nbcc:" not in head and head.count(b"\r\nto:") + head.startswith(b"to:") == 1
    if spec["reply_to"] != "none":
        text = flat(" ".join(m.get_body(("plain",)).get_content() for m in replies[spec["reply_to"]]))
        for wanted in spec.get("reply_contains", []):
            assert flat(substitute(wanted.encode(), values).decode()) in text, wanted
    # ---- a quiet receipt waits for the seat's next report: what it will say
    if spec.get("held_contains"):
        held = held_receipt_text(app, seated.game_id)
        for wanted in spec["held_contains"]:
            assert flat(substitute(wanted.encode(), values).decode()) in held, wanted
    # ---- where the moderator filed it
    assert count(stack, "moderator") == 0
    assert count(stack, "moderator", "Quarantine") == (1 if spec["quarantine"] else 0)
    assert count(stack, "moderator", "Processed") == (0 if spec["quarantine"] else 1)
    # ---- the game
    assert (seated.fingerprint() != before) == spec["state_changes"]
    # ---- what was kept of it
    with app.db.session() as session:
        kept = session.exec(select(InboundMail).order_by(InboundMail.id.desc())).first()
    assert kept.status == spec.get("kept_as", "quarantined" if spec["quarantine"] else "done"), kept.outcome
    if "kept_bytes" in spec:
        assert len(kept.raw) == spec["kept_bytes"] < kept.size
    if spec.get("bounce_logged_for"):
        with app.db.session() as session:
            bounces = [e for e in session.exec(select(LogEntry).where(LogEntry.kind == "control"))
                       if '"bounce"' in e.payload_json]
        assert [e.role for e in bounces] == [spec["bounce_logged_for"]]
