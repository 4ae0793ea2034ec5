"""`moderator verify MAILBOX`: a player checks a finished game from their own mails alone (issue 13).

North's mails of a Duel game played to the end are exported, as a player would, to an mbox file
and to a Maildir.  The game-over report carries the archive; every report printed the log head
and the draw counters.  The true mailbox verifies; a mail whose die, log head or counters were
changed fails, naming the mail; and an archive re-chained after an entry was removed, which holds
on its own, fails against the heads the player kept.
"""

from __future__ import annotations

import copy
import email
import email.policy
import json
import mailbox
import re
from pathlib import Path

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from moderator import cli
from moderator.service.mailbox_check import check_reports, read_mailbox, read_reports
from moderator.service.verify import verify_archive
from moderator.store.models import Outbox
from tests.conftest import make_app, seat_duel
from tests.service.test_store_and_replay import play_random_game
from tests.service.test_verify import rechain

runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """(app, north's mails as sent, in order) of a Duel game played to the end by mail."""
    app = make_app(tmp_path_factory.mktemp("mailbox"))
    seated = seat_duel(app)
    play_random_game(seated, seed=7)
    with app.db.session() as session:
        rows = session.exec(select(Outbox).where(Outbox.recipient == seated.addresses["north"])
                            .order_by(Outbox.id)).all()
        return app, [row.raw for row in rows]


@pytest.fixture
def use_app(played, monkeypatch):
    monkeypatch.setattr(cli._State, "registry", played[0].registry)
    return played[0]


def export_mbox(raws: list[bytes], path: Path) -> Path:
    box = mailbox.mbox(path)
    for raw in raws:
        box.add(raw)
    box.flush()
    box.close()
    return path


def export_maildir(raws: list[bytes], path: Path) -> Path:
    box = mailbox.Maildir(path, create=True)
    for raw in raws:
        box.add(raw)
    return path


def edited(raw: bytes, change) -> bytes:
    """The mail with its text part rewritten by `change` (as a player's tampering would)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    body = message.get_body(("plain",))
    body.set_content(change(body.get_content()))
    return message.as_bytes()


def subject_of(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])


def first_with(raws: list[bytes], pattern: str) -> int:
    for index, raw in enumerate(raws):
        message = email.message_from_bytes(raw, policy=email.policy.default)
        body = message.get_body(("plain",))
        if body is not None and re.search(pattern, " ".join(body.get_content().split())):
            return index
    raise AssertionError(f"no mail shows {pattern}")


def test_the_game_over_report_carries_the_archive_and_every_report_its_head(played):
    _, raws = played
    reading = read_reports(read_mailbox(export_mbox(raws, Path(played[0].settings.data_dir) / "plain.mbox")))
    assert list(reading.archives) == ["duel-0001"]
    archive = reading.archives["duel-0001"]
    assert archive["sent_with"]["role"] == "north" and archive["head"]["seq"] == archive["sent_with"]["seq"] - 1
    assert len(reading.reports) > 5 and reading.unheaded == 0
    assert all(r.role == "north" and r.counters is not None for r in reading.reports)
    assert sum(len(r.dice) for r in reading.reports) > 5


@pytest.mark.parametrize("export", [export_mbox, export_maildir], ids=["mbox", "maildir"])
def test_the_true_mailbox_verifies_with_one_command(played, use_app, tmp_path, export):
    path = export(played[1], tmp_path / "north")
    result = runner.invoke(cli.app_cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "OK: duel-0001" in result.output and re.search(r"OK: the \d+ reports of duel-0001", result.output)


def test_a_changed_die_in_a_mail_fails_naming_the_mail(played, use_app, tmp_path):
    raws = list(played[1])
    index = first_with(raws, r"\d \[dice#\d+\]")

    def change(text: str) -> str:
        return re.sub(r"(\d) \[dice#", lambda m: f"{7 - int(m.group(1)) if m.group(1) != '3' else 5} [dice#",
                      text, count=1)

    raws[index] = edited(raws[index], change)
    result = runner.invoke(cli.app_cli, ["verify", str(export_mbox(raws, tmp_path / "north.mbox"))])
    assert result.exit_code == 1, result.output
    flat = " ".join(result.output.split())
    assert "MISMATCH mail" in flat and subject_of(raws[index]) in flat and "the archive's draw dice#" in flat


def test_a_changed_head_in_a_mail_fails_naming_the_mail(played, tmp_path):
    raws = list(played[1])
    index = first_with(raws, r"Log head: #\d+ [0-9a-f]{64}")
    raws[index] = edited(raws[index], lambda t: re.sub(r"(Log head: #\d+\s+)([0-9a-f])", lambda m: m.group(1) + (
        "0" if m.group(2) != "0" else "1"), t, count=1))
    reading = read_reports(read_mailbox(export_mbox(raws, tmp_path / "north.mbox")))
    problems = check_reports(reading.reports, reading.archives["duel-0001"])
    assert len(problems) == 1 and subject_of(raws[index]) in problems[0] and "log head" in problems[0], problems


def test_changed_draw_counters_in_a_mail_fail_naming_the_mail(played, tmp_path):
    raws = list(played[1])
    index = first_with(raws, r"Next draws: [^.]*dice #[1-9]")
    raws[index] = edited(raws[index], lambda t: re.sub(r"(Next draws: [^.]*dice #)(\d+)",
                                                       lambda m: f"{m.group(1)}{int(m.group(2)) + 1}", t))
    reading = read_reports(read_mailbox(export_mbox(raws, tmp_path / "north.mbox")))
    problems = check_reports(reading.reports, reading.archives["duel-0001"])
    assert len(problems) == 1 and subject_of(raws[index]) in problems[0] and "next draws" in problems[0], problems


def test_an_archive_rewritten_whole_holds_alone_but_not_against_the_heads_kept(played, use_app, tmp_path):
    """A report entry removed, the entries after it renumbered and every hash recomputed: nothing
    in the archive alone betrays it, but the player's mails printed the old heads."""
    reading = read_reports(read_mailbox(export_mbox(played[1], tmp_path / "north.mbox")))
    forged = copy.deepcopy(reading.archives["duel-0001"])
    log = forged["log"]
    place = next(i for i, e in enumerate(log) if e["kind"] == "report" and i > 5)
    del log[place]
    for entry in log[place:]:
        entry["seq"] -= 1
    forged["sent_with"]["seq"] -= 1
    rechain(forged)
    assert verify_archive(forged, use_app.registry).problems == []
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    result = runner.invoke(cli.app_cli, ["verify", str(tmp_path / "north.mbox"), "--archive",
                                         str(tmp_path / "forged.json")])
    assert result.exit_code == 1 and "its log head is" in " ".join(result.output.split()), result.output


# ---------------------------------------------------------------- entries no replay depends on


@pytest.fixture(scope="module")
def eventful(tmp_path_factory):
    """(app, north's mails) of a Duel game with a referee's announcement and a held script in its log."""
    from moderator.service.table import load_table

    app = make_app(tmp_path_factory.mktemp("eventful"))
    seated = seat_duel(app)
    with app.db.session() as session:
        table = load_table(session, app.registry, seated.game_id, for_update=True)
        app.controls.apply(table, "ANNOUNCE", "Play fair.")
    card = seated.state()["hands"]["north"][0]
    seated.send("north", f"ATTACK\nSTOP\nCOMMIT {card}\n")  # STOP holds the line after it
    play_random_game(seated, seed=11)
    with app.db.session() as session:
        rows = session.exec(select(Outbox).where(Outbox.recipient == seated.addresses["north"])
                            .order_by(Outbox.id)).all()
        return app, [row.raw for row in rows]


def content_free(kind: str, role: str):
    """A tamper: the first entry of `kind` by `role` that some later report of north's covers is removed,
    the entries after it numbered down, and the chain recomputed from the revealed seed."""
    def remove(archive, heads: list[int]) -> int:
        log = archive["log"]
        place = next(i for i, e in enumerate(log) if e["kind"] == kind and e["role"] == role
                     and any(head >= e["seq"] for head in heads))
        seq = log[place]["seq"]
        del log[place]
        for entry in log[place:]:
            entry["seq"] -= 1
        archive["sent_with"]["seq"] -= 1
        rechain(archive)
        return seq
    remove.__name__ = f"remove_{kind}_by_{role}"
    return remove


CONTENT_FREE = [content_free("report", "south"), content_free("report", "north"), content_free("hold", "north"),
                content_free("control", "referee")]


@pytest.mark.parametrize("tamper", CONTENT_FREE, ids=[t.__name__ for t in CONTENT_FREE])
def test_a_content_free_entry_removed_is_not_seen_in_the_archive_alone_but_in_the_mailbox(eventful, tmp_path,
                                                                                            tamper, monkeypatch):
    """No replayed answer, draw or join depends on a report, a held script or a referee's
    announcement: removed and re-chained (the seed is public at the end), the archive still holds
    (docs/storage.md says why that cannot be helped).  North's reports printed the heads of the log
    as it was, so the mailbox names the first report after the removed entry."""
    app, raws = eventful
    reading = read_reports(read_mailbox(export_mbox(raws, tmp_path / "north.mbox")))
    true = reading.archives["duel-0001"]
    assert verify_archive(true, app.registry).problems == [] and check_reports(reading.reports, true) == []
    forged = copy.deepcopy(true)
    removed = tamper(forged, [r.head_seq for r in reading.reports])
    assert verify_archive(forged, app.registry).problems == []
    problems = check_reports(reading.reports, forged)
    first = min((r for r in reading.reports if r.head_seq >= removed), key=lambda r: r.head_seq)
    assert any(first.name in p and "its log head is" in p for p in problems), problems
    monkeypatch.setattr(cli._State, "registry", app.registry)  # the one command a player runs
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    result = runner.invoke(cli.app_cli, ["verify", str(tmp_path / "north.mbox"), "--archive",
                                         str(tmp_path / "forged.json")])
    assert result.exit_code == 1 and "its log head is" in " ".join(result.output.split()), result.output
