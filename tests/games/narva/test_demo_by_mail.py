"""`moderator demo --game narva`: two bot players play Across the Narva to its end through the
mail loop (Maildir in, Maildir out), and the archive verifies.  Each bot reads only its own
reports; neither side's orders ever reach the other side's mailbox."""

from __future__ import annotations

import email
import email.policy
import re

from typer.testing import CliRunner

from moderator import cli
from moderator.app import App
from moderator.games.narva.engine import engine
from moderator.registry import Registry

runner = CliRunner()
#: A receipt's echo of a keyed order, with what became of it (service/receipt_lines.py).
ECHOED = r"^\s+\d+ (?:ran|queued|held|not run|filed|read|not applied)\s+(ON .*)$"


def bodies(folder) -> list[str]:
    out = []
    for path in sorted(folder.glob("*/*")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        part = message.get_body(("plain",))
        out.append(part.get_content() if part else "")
    return out


def test_demo_plays_narva_to_the_end_by_mail_and_keeps_each_side_s_orders_private(tmp_path, monkeypatch):
    def factory(settings=None, clock=None, **_):
        return App(settings, registry=Registry([engine]), clock=clock)

    monkeypatch.setattr(cli._State, "factory", factory)
    out = tmp_path / "demo"
    result = runner.invoke(cli.app_cli, ["demo", "--game", "narva", "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "finished" in result.output and "verifies" in result.output
    assert runner.invoke(cli.app_cli, ["verify", str(out / "archive")]).exit_code == 0
    german = bodies(out / "mail" / "sent" / "german@players.demo")
    soviet = bodies(out / "mail" / "sent" / "soviet@players.demo")
    assert any("THE RESULT" in text for text in german) and any("THE RESULT" in text for text in soviet)
    # the game went on until turn 12 or a sudden death
    turns = {int(t) for text in soviet for t in re.findall(r"^Turn (\d+) of 12", text, re.M)}
    final = "\n".join(text for text in soviet if "THE RESULT" in text)
    assert max(turns) == 12 or "sudden death" in final
    # orders were keyed by chits and used: activations and combats happened
    assert any("activated: in command" in " ".join(text.split()) for text in soviet)
    assert any("COMBAT at" in text for text in german)
    # each side's keyed orders are echoed in its own receipts only
    assert any("ON HQ" in text or "ON ANY" in text for text in soviet)
    for text in german:
        for line in re.findall(ECHOED, text, re.M):
            assert all(line not in other for other in soviet)
    soviet_orders = {line for text in soviet for line in re.findall(ECHOED, text, re.M)}
    assert soviet_orders and not any(order in text for order in soviet_orders for text in german)
