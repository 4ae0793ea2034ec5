"""Every CLI command given bad input answers with one clean line and a non-zero exit, never a
traceback (issue 12): an unknown game, a game still waiting for players, a bad file, a missing or
unreadable settings file.  The walk covers every command the CLI has: a new command must be listed."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from moderator import cli
from tests.service.test_cli import cli_app  # noqa: F401  (the fixture)

runner = CliRunner()

FORMING = "{forming}"  # a game created, its seats not taken yet
MISSING = "{tmp}/nothing-here"

#: The bad inputs of each command (besides the bad settings files every command is given).
BAD_INPUTS: dict[str, list[list[str]]] = {
    "games": [],
    "new-game": [
        ["new-game", "chess", "--seat", "north=n@x.test", "--seat", "south=s@x.test"],
        ["new-game", "duel", "--scenario", "marathon", "--seat", "north=n@x.test", "--seat", "south=s@x.test"],
        ["new-game", "duel"],  # no seats at all
        ["new-game", "duel", "--seat", "north=n@x.test"],  # a seat missing
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test", "--seat", "east=e@x.test"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=not an address"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=<s@x.test>, m@evil.test"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "north=o@x.test", "--seat", "south=s@x.test"],
        ["new-game", "duel", "--seat", "north", "--seat", "south=s@x.test"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test", "--referee", "ref"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test", "--option", "speed=9"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test", "--observer", "kibitzer=x"],
        ["new-game", "duel", "--seat", "north=n@x.test", "--seat", "south=s@x.test", "--referee-tz", "Mars/Olympus"],
    ],
    "mail process": [
        ["mail", "process", MISSING],
        ["mail", "process", "{tmp}"],  # a directory
        ["mail", "process", "{tmp}/empty.eml"],
    ],
    "mail poll": [],
    "mail send": [],
    "mail retry": [["mail", "retry", "--game", "nope-0001"]],
    "turn run": [["turn", "run", "nope-0001"], ["turn", "run", FORMING]],
    "turn replay": [["turn", "replay", "nope-0001"], ["turn", "replay", FORMING]],
    "verify": [
        ["verify", MISSING],
        ["verify", "{tmp}"],  # a directory without archive.json
        ["verify", "{tmp}/empty.eml"],
        ["verify", "{tmp}/broken.json"],
        ["verify", "{tmp}/list.json"],
        ["verify", "{tmp}/other.json"],
        ["verify", "{tmp}/mangled.json"],
        ["verify", "{tmp}/plain.mbox"],  # a mailbox with no game-over mail
        ["verify", "{tmp}/maildir"],  # an empty Maildir
        ["verify", "{tmp}/plain.mbox", "--archive", "{tmp}/list.json"],
    ],
    "archive": [
        ["archive", "nope-0001", "--out", "{tmp}/out"],
        ["archive", FORMING, "--out", "{tmp}/out"],
        ["archive", "{running}", "--out", "{tmp}/empty.eml"],  # a file where a directory goes
    ],
    "referee": [
        ["referee", "nope-0001", "STATUS"],
        *[["referee", FORMING, command, *argument] for command, argument in
          (("STATUS", []), ("FORCE", []), ("PREVIEW", []), ("ROLLBACK", ["3"]), ("ANNOUNCE", ["hello"]))],
        ["referee", "{running}", "SHOUT"],
        ["referee", "{running}", "ROLLBACK"],
    ],
    "demo": [["demo", "--game", "chess", "--out", "{tmp}/demo"], ["demo", "--out", "{tmp}/empty.eml"]],
    "serve": [],
    "doctor": [],
    "db upgrade": [],
    "league create": [["league", "create", "cup", "--game", "chess"],
                      ["league", "create", "cup", "--game", "duel", "--format", "knockout"]],
    "league add": [["league", "add", "nope", "a@x.test"]],
    "league remove": [["league", "remove", "nope", "a@x.test"]],
    "league seed": [["league", "seed", "nope", "a@x.test", "1"]],
    "league start": [["league", "start", "nope"]],
    "league result": [["league", "result", "nope", "duel-0001", "north"]],
    "league list": [],
    "league show": [["league", "show", "nope"]],
    "league page": [["league", "page", "nope"]],
}


def command_names(group: typer.Typer) -> set[str]:
    """Every command of the CLI, as typed after `moderator` ('mail process')."""

    def walk(command: typer.core.TyperCommand | typer.core.TyperGroup, prefix: str) -> set[str]:
        if isinstance(command, typer.core.TyperGroup):
            return {name for sub_name, sub in command.commands.items()
                    for name in walk(sub, f"{prefix} {sub_name}".strip())}
        return {prefix}

    return walk(typer.main.get_command(group), "")


def test_every_command_is_walked():
    assert command_names(cli.app_cli) == set(BAD_INPUTS)


def _cases():
    for command, cases in BAD_INPUTS.items():
        words = command.split()
        yield pytest.param([*cases_with_config(words, "missing.toml")], id=f"{command}: missing settings file")
        yield pytest.param([*cases_with_config(words, "broken.toml")], id=f"{command}: settings file not TOML")
        for n, case in enumerate(cases):
            yield pytest.param(case, id=f"{command}: {n}")


def cases_with_config(words: list[str], config: str) -> list[str]:
    return ["--config", f"{{tmp}}/{config}", *words]


@pytest.fixture
def bad_files(cli_app, tmp_path):  # noqa: F811  (cli_app is the fixture imported above)
    from tests.conftest import seat_duel

    running = seat_duel(cli_app).game_id
    forming = cli_app.create_game("duel", addresses={"north": "n@x.test", "south": "s@x.test"}).game_id
    (tmp_path / "empty.eml").write_bytes(b"")
    (tmp_path / "broken.toml").write_text("data_dir = [unclosed\n")
    (tmp_path / "broken.json").write_text('{"format": ')
    (tmp_path / "list.json").write_text("[1, 2, 3]")
    (tmp_path / "other.json").write_text(json.dumps({"name": "a package.json, perhaps"}))
    (tmp_path / "mangled.json").write_text(json.dumps({"format": "moderator-archive/2", "seed": "00" * 32,
                                                       "game": "duel-0001", "commitment": 7, "draws": "none"}))
    (tmp_path / "plain.mbox").write_bytes(b"From x@y.test Thu Jan  1 00:00:00 2026\nSubject: hello\n\nhi\n")
    for folder in ("cur", "new", "tmp"):
        (tmp_path / "maildir" / folder).mkdir(parents=True)
    return {"tmp": str(tmp_path), "forming": forming, "running": running}


@pytest.mark.parametrize("args", list(_cases()))
def test_bad_input_gets_one_clean_line_and_a_non_zero_exit(bad_files, args):
    result = runner.invoke(cli.app_cli, [arg.format(**bad_files) for arg in args])
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output


def test_the_invitations_of_a_game_still_waiting_for_players_can_be_retried(bad_files):
    """The one command a game waiting for players is no error for: its invitations may have failed."""
    result = runner.invoke(cli.app_cli, ["mail", "retry", "--game", bad_files["forming"]])
    assert result.exit_code == 0 and "queued again 0" in result.output
