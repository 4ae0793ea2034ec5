"""The one table of mail and referee commands (mail/commands.py, issue 11): every command in it is
read from mail, listed in the help of everyone who may send it, and handled; the CLI's `referee`
help lists every referee command and checks the argument against the table."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from moderator import cli
from moderator.mail.commands import COMMANDS, PLAYER, REFEREE, commands_for, names_for
from moderator.mail.envelope import read_envelope
from tests.conftest import flat, outbox_rows, text_of
from tests.mailmaker import player_mail

PLAYER_COMMANDS = commands_for(PLAYER)
REFEREE_COMMANDS = commands_for(REFEREE)


def referee_mail(seated, body: str) -> bytes:
    head = f"GAME {seated.game_id}\nROLE referee\nSECRET {seated.referee_secret}\n"
    return player_mail("ref@players.test", head + body)


def referee_receipt(seated, body: str) -> str:
    outcome = seated.app.receive(referee_mail(seated, body))
    assert outcome.status == "command", outcome.reason
    return flat(text_of([r for r in outbox_rows(seated.app) if r.recipient == "ref@players.test"][-1].raw))


def test_the_table_gives_each_command_an_audience_a_help_and_an_example_of_itself():
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)
    for command in COMMANDS:
        assert command.audiences and command.help and command.example.split()[0] == command.name
        assert command.argument_problem(command.example.partition(" ")[2]) is None


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_every_command_is_read_from_mail_in_any_case(command):
    argument = command.example[len(command.name):]
    for name in (command.name, command.name.lower(), command.name.title()):
        envelope = read_envelope([(1, "GAME duel-0001"), (2, name + argument)])
        assert [c for _, c, _ in envelope.commands] == [command.name]
        assert envelope.argument(command.name) == argument.strip()
        assert envelope.order_lines == []


def test_every_player_command_is_in_the_help_mail(seated):
    text = text_of(seated.send("north", "HELP\n").replies[0].raw)
    section = text.split("COMMANDS\n--------\n")[1].split("\n\n")[0]
    for command in PLAYER_COMMANDS:
        assert command.usage in section and command.help in section
    assert not any(command.usage in section for command in REFEREE_COMMANDS if PLAYER not in command.audiences)


def test_every_referee_command_is_in_the_referee_s_help(seated):
    for text in (referee_receipt(seated, "\n"), referee_receipt(seated, "SHOUT\n")):
        for command in REFEREE_COMMANDS:
            assert command.usage in text and command.help_for(REFEREE) in text, (command.name, text)


def test_the_seat_desk_and_the_referee_controls_handle_exactly_the_table_s_commands(app):
    assert app.desk.handled == names_for(PLAYER)
    assert set(app.controls.handlers) == names_for(REFEREE)


@pytest.mark.parametrize("command", PLAYER_COMMANDS, ids=lambda c: c.name)
def test_every_player_command_by_mail_is_answered_not_read_as_an_order(seated, command):
    outcome = seated.send("north", command.example + "\n")
    assert outcome.replies, outcome
    text = flat(text_of(outcome.replies[0].raw))
    assert "unknown order" not in text.lower() and "could not be read" not in text


@pytest.mark.parametrize("command", REFEREE_COMMANDS, ids=lambda c: c.name)
def test_every_referee_command_by_mail_reaches_its_handler(seated, command):
    text = referee_receipt(seated, command.example + "\n")
    assert "Unknown referee command" not in text and "No referee command found" not in text


def test_the_cli_referee_help_lists_every_referee_command():
    result = CliRunner().invoke(cli.app_cli, ["referee", "--help"], terminal_width=200)
    assert result.exit_code == 0
    output = flat(result.output)
    for command in REFEREE_COMMANDS:
        assert command.name in output and command.help_for(REFEREE) in output, command.name


def test_the_cli_refuses_an_unknown_command_or_a_wrong_argument_before_touching_the_game(tmp_path, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda **_: pytest.fail("no app may be built"))
    runner = CliRunner()
    unknown = runner.invoke(cli.app_cli, ["referee", "duel-0001", "SHOUT"])
    assert unknown.exit_code == 1 and "PAUSE" in unknown.output
    wrong = runner.invoke(cli.app_cli, ["referee", "duel-0001", "REPLACE", "north"])
    assert wrong.exit_code == 1 and "REPLACE <role> <address>" in flat(wrong.output)


def test_the_cli_passes_a_command_s_words_as_one_argument(cli_app_seated):
    seated = cli_app_seated
    result = CliRunner().invoke(cli.app_cli, ["referee", seated.game_id, "announce", "Turn", "3", "on", "Sunday"])
    assert result.exit_code == 0 and "Announcement sent to 2 seat(s)" in result.output
    assert "Turn 3 on Sunday" in text_of(outbox_rows(seated.app)[-1].raw)


@pytest.fixture
def cli_app_seated(seated, monkeypatch):
    monkeypatch.setattr(cli._State, "factory", lambda **_: seated.app)
    return seated
