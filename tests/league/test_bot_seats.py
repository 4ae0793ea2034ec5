"""The "bot" fallback (issue 15: "if nobody accepts by a deadline, the referee's declared fallback (bot
seat ...)"): a seat whose player left, or passed the NMR limit, with no reserve to take it, is handed
to the game's bot, which reads its mail in the house and plays by mail until the game ends; the result
counts for the standings, unrated; and the per-league grace after a deadline."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlmodel import select

from moderator.league.botseats import bot_address, is_bot
from moderator.mail.maildir import mailbox_dir
from moderator.store import leagues as stored
from moderator.store import outbox as mail_rows
from moderator.store.models import Game, InboundMail, LogEntry, Outbox
from tests.conftest import flat
from tests.league.club import REFEREE, Club, mails_to

NORTH, SOUTH = "north@club.test", "south@club.test"


def started(app, **declared) -> Club:
    club = Club.found(app, format="round-robin", round_days=30.0, **declared)
    club.join(NORTH)
    club.join(SOUTH)
    club.referee("START\n")
    app.tick()
    club.answer_invitations()
    app.tick()
    return club


def answers_of(app, game_id: str, role: str) -> list[str]:
    """The sources of a role's answers in the game's log (script: orders by mail; default: a deadline)."""
    with app.db.session() as session:
        entries = session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.kind == "answer",
                                                      LogEntry.role == role))
        return [json.loads(e.payload_json).get("source", "") for e in entries]


def test_a_withdrawn_member_s_seat_goes_to_the_bot_which_plays_the_game_to_its_end(app):
    club = started(app, fallback="bot", nmr_limit=50)
    [row] = club.games(1)
    bot = bot_address(row.game_id, "north")

    assert "withdrawn" in flat(club.member(NORTH, "WITHDRAW\n").replies[0].raw.decode(errors="replace"))
    row = club.games(1)[0]
    assert json.loads(row.substitutes_json) == {"north": bot} and row.how == "bot"
    assert "the game's bot plays it on" in flat(mails_to(app, SOUTH, "a bot plays on")[0])
    assert any(f"plays it from {bot}" in flat(text) for text in mails_to(app, REFEREE))

    club.run()
    row = club.games(1)[0]
    assert row.result in ("first", "second", "draw") and row.how == "bot"
    with app.db.session() as session:
        game = session.get(Game, row.game_id)
        assert game.status == "over" and "LEAGUE-END" not in game.result_json  # the board decided it
        from_bot = session.exec(select(InboundMail).where(InboundMail.sender == bot)).all()
        to_bot = session.exec(select(Outbox).where(Outbox.recipient == bot)).all()
        assert from_bot and all(m.status == "done" for m in from_bot), {m.status for m in from_bot}
        assert to_bot and {m.status for m in to_bot} == {"sent"}  # read in the house ...
        assert stored.ratings(session, [NORTH, SOUTH, bot], "duel") == {}  # not rated
        assert stored.ledgers(session, [bot]) == {}  # the bot keeps no reliability record
    assert not mailbox_dir(app.settings.resolved_outbox, bot).exists()  # ... never handed to the transport
    assert "script" in answers_of(app, row.game_id, "north")  # the bot's own orders, not only defaults


def test_a_seat_past_the_nmr_limit_with_no_reserve_goes_to_the_bot_and_stays_there(app):
    club = started(app, fallback="bot", nmr_limit=1, turn_hours=10.0)
    [row] = club.games(1)
    with app.db.session() as session:
        deadline = session.get(Game, row.game_id).next_deadline
    app.clock.set(deadline.replace(tzinfo=UTC) + timedelta(minutes=1))  # north's first deadline passes
    app.tick()
    app.tick()
    row = club.games(1)[0]
    assert json.loads(row.substitutes_json) == {"north": bot_address(row.game_id, "north")}
    with app.db.session() as session:
        [offer] = stored.offers(session, "cup")
        assert (offer.status, offer.leaving) == ("expired", NORTH)
    app.tick()
    with app.db.session() as session:
        assert len(stored.offers(session, "cup")) == 1  # the bot's seat is not offered again


def test_in_house_mail_is_never_handed_to_the_postman_and_is_read_once(app):
    now = datetime(2026, 12, 2, tzinfo=UTC)
    with app.db.session() as session:
        for recipient in ("someone@club.test", bot_address("g1", "north")):
            mail_rows.queue_mail(session, recipient=recipient, message_id=f"<{recipient}>", raw=b"x", created_at=now)
    with app.db.session() as session:
        assert [row.recipient for row in mail_rows.unsent(session, 10)] == ["someone@club.test"]
        assert [row.recipient for row in mail_rows.unread_in_house(session)] == ["north.g1@bots.invalid"]
    assert is_bot("North.G1@Bots.Invalid") and not is_bot("north@club.test")


def test_a_league_s_grace_holds_a_missed_deadline_open_that_long(app):
    club = started(app, grace_minutes=90.0, nmr_limit=50, turn_hours=10.0)
    [row] = club.games(1)
    with app.db.session() as session:
        game = session.get(Game, row.game_id)
        assert json.loads(game.settings_json)["grace_minutes"] == 90.0
        deadline = game.next_deadline.replace(tzinfo=UTC)
    app.clock.set(deadline + timedelta(minutes=80))
    app.tick()
    assert "default" not in answers_of(app, row.game_id, "north")  # still within the league's grace
    app.clock.set(deadline + timedelta(minutes=91))
    app.tick()
    assert "default" in answers_of(app, row.game_id, "north")

