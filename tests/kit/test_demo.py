"""`moderator demo --game <id>` for every registered game: its bots (or the demo's random players)
play it to the end through the mail loop (Maildir in, Maildir out), the archive verifies (and so
does a player's own Maildir), every seat received the result, and no player's own order lines ever
reach another seat's mailbox."""

from __future__ import annotations

import email
import email.policy
import email.utils
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator import cli
from moderator.app import App
from moderator.registry import Registry
from tests.kit.games import EVERY, game_id

runner = CliRunner()
#: A receipt's echo of one line of a player's message, with what became of it (service/receipt_lines.py).
ECHOED = re.compile(r"^\s+\d+ (?:ran|queued|held|not run|skipped|filed|read|not applied)\s+(\S.*?)\s*$", re.M)


def bodies(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.glob("*/*")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        part = message.get_body(("plain",))
        out.append(part.get_content() if part else "")
    return out


def written_lines(inbox: Path) -> dict[str, set[str]]:
    """Every line each player wrote (case-folded), read from the moderator's inbox (the bots' own mails)."""
    lines: dict[str, set[str]] = {}
    for path in sorted(inbox.glob("*/*")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        sender = email.utils.parseaddr(str(message["From"]))[1]
        part = message.get_body(("plain",))
        text = part.get_content() if part else ""
        lines.setdefault(sender, set()).update(" ".join(line.split()).casefold() for line in text.splitlines())
    return lines


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
def test_the_demo_plays_the_game_to_its_end_by_mail(engine, tmp_path, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda settings=None, clock=None, **_: App(
        settings, registry=Registry([engine]), clock=clock))
    monkeypatch.setattr(cli._State, "registry", Registry([engine]))
    out = tmp_path / "demo"
    result = runner.invoke(cli.app_cli, ["demo", "--game", engine.info.id, "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "finished" in result.output and "verifies" in result.output
    assert runner.invoke(cli.app_cli, ["verify", str(out / "archive")]).exit_code == 0
    first = engine.info.roles()[0]  # a player verifies the game from their own Maildir alone (issue 13)
    mailbox = runner.invoke(cli.app_cli, ["verify", str(out / "mail" / "sent" / f"{first}@players.demo")])
    assert mailbox.exit_code == 0 and "reports of" in mailbox.output, mailbox.output
    mail = {role: bodies(out / "mail" / "sent" / f"{role}@players.demo") for role in engine.info.roles()}
    for role, texts in mail.items():
        assert any("THE RESULT" in text for text in texts), f"{role} never heard how the game ended"
    written = written_lines(out / "mail" / "inbox")
    for role, texts in mail.items():
        own = written.get(f"{role}@players.demo", set())
        others = set().union(*(lines for address, lines in written.items() if address != f"{role}@players.demo"))
        echoed = {line.casefold() for text in texts for line in ECHOED.findall(text)}
        assert echoed, f"{role} got no receipt echoing its orders"
        leaked = (echoed & others) - own
        assert leaked == set(), f"lines only another player wrote reached {role}"
