"""The referee's hand on mail kept in quarantine (RELEASE, DISMISS) and on the game's time zone
(TIMEZONE), by mail and by the CLI (service/kept_mail.py, issue 12)."""

from __future__ import annotations

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from moderator import cli
from moderator.service.seat_mail import SeatDesk
from moderator.service.table import load_table
from moderator.store import inbound as inbound_rows
from moderator.store.models import InboundMail, LogEntry, Quarantine
from tests.conftest import flat, outbox_rows, text_of
from tests.mailmaker import player_mail


def referee_says(seated, body: str) -> str:
    """The referee mails `body`; the text of the answer the referee gets."""
    head = f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\n"
    outcome = seated.app.receive(player_mail("ref@players.test", head + body))
    assert outcome.status == "command", outcome.reason
    answers = [r for r in outbox_rows(seated.app) if r.recipient == "ref@players.test" and "answer to" in r.subject]
    return flat(text_of(answers[-1].raw))


def kept(seated) -> list[int]:
    with seated.app.db.session() as session:
        return [k.inbound_id for k in inbound_rows.quarantined_for_game(session, seated.game_id)]


def row(seated, inbound_id: int) -> InboundMail:
    with seated.app.db.session() as session:
        found = session.get(InboundMail, inbound_id)
        assert found is not None
        return found


@pytest.fixture
def failed_rest(seated, monkeypatch) -> int:
    """North's REST, kept because its processing failed (a fault, fixed afterwards): its number."""
    real = SeatDesk.handle

    def broken(*args, **kwargs):
        raise RuntimeError("a fault in the seat desk")

    monkeypatch.setattr(SeatDesk, "handle", broken)
    assert seated.send("north", "REST\n").status == "quarantined"
    monkeypatch.setattr(SeatDesk, "handle", real)
    assert seated.state()["round"] == 1
    (number,) = kept(seated)
    return number


def test_release_reads_a_kept_message_as_if_it_had_just_arrived(seated, failed_rest):
    status = referee_says(seated, "STATUS\n")
    assert f"Mail kept in quarantine for this game: 1 (#{failed_rest};" in status and "RELEASE <number>" in status
    text = referee_says(seated, f"RELEASE {failed_rest}\n")
    assert f"Message #{failed_rest} (from north@players.test" in text and "is released" in text
    assert seated.state()["round"] == 2  # north's REST ran
    assert row(seated, failed_rest).status == "done" and kept(seated) == []
    assert "ran REST" in flat(text_of([r for r in outbox_rows(seated.app) if r.recipient.startswith("north")][-1].raw))
    with seated.app.db.session() as session:
        assert all(q.released for q in session.exec(select(Quarantine).where(Quarantine.inbound_id == failed_rest)))
        logged = session.exec(select(LogEntry).where(LogEntry.kind == "control")).all()
    assert any('"RELEASE"' in entry.payload_json for entry in logged)


def test_a_released_message_is_checked_again_a_stranger_s_is_kept_again(seated):
    stranger = player_mail("mallory@else.test", f"GAME {seated.game_id}\nROLE north\nSECRET AAAA-BBBB\nREST\n")
    assert seated.app.receive(stranger).status == "quarantined"
    (number,) = kept(seated)
    referee_says(seated, f"RELEASE {number}\n")
    assert seated.state()["round"] == 1 and kept(seated) == [number]
    assert "unknown sender" in row(seated, number).outcome


def test_dismiss_takes_a_kept_message_off_the_list_unread(seated, failed_rest):
    text = referee_says(seated, f"DISMISS {failed_rest}\n")
    assert "is dismissed" in text and kept(seated) == []
    assert row(seated, failed_rest).status == "dismissed" and seated.state()["round"] == 1
    assert "No message" in referee_says(seated, f"RELEASE {failed_rest}\n")  # nothing left to release


def test_release_names_only_mail_kept_for_this_game(seated, failed_rest):
    assert seated.send("south", "STATUS\n").status == "command"
    with seated.app.db.session() as session:
        processed = max(r.id or 0 for r in session.exec(select(InboundMail)))
    text = referee_says(seated, f"RELEASE {processed}\nRELEASE soon\n")
    assert f"No message #{processed} is kept in quarantine for {seated.game_id}; kept now: #{failed_rest}" in text
    assert "RELEASE needs the number of a kept message" in text
    assert row(seated, processed).status == "done" and kept(seated) == [failed_rest]


def test_the_cli_releases_a_kept_message_and_reads_it(seated, failed_rest, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda **_: seated.app)
    result = CliRunner().invoke(cli.app_cli, ["referee", seated.game_id, "release", str(failed_rest)])
    assert result.exit_code == 0, result.output
    assert "is released" in flat(result.output) and "Read: applied" in result.output
    assert seated.state()["round"] == 2 and kept(seated) == []


def test_timezone_changes_the_time_zone_of_the_referee_s_mail(seated):
    assert "times in UTC" in referee_says(seated, "STATUS\n")
    text = referee_says(seated, "TIMEZONE Europe/Madrid\nSTATUS\n")
    assert "now given in Europe/Madrid (they were in UTC)" in text and "times in Europe/Madrid" in text
    assert "is not a time zone name" in referee_says(seated, "TIMEZONE Mars/Olympus\n")
    assert "times in Europe/Madrid" in referee_says(seated, "STATUS\n")


def test_the_cli_changes_the_time_zone(seated, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda **_: seated.app)
    result = CliRunner().invoke(cli.app_cli, ["referee", seated.game_id, "timezone", "Asia/Tokyo"])
    assert result.exit_code == 0 and "Asia/Tokyo" in result.output
    with seated.app.db.session() as session:
        assert '"referee_timezone":"Asia/Tokyo"' in load_table(session, seated.app.registry,
                                                               seated.game_id).game.settings_json.replace(" ", "")
