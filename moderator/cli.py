"""The `moderator` command line (DESIGN §8).  Every daemon job has a CLI twin.

Bad input (an unknown game, a game still waiting for players, a file that is missing or is not
what the command reads, a settings file that is missing or unreadable) gets one line, "error: …",
and a non-zero exit, never a traceback (tests/service/test_cli_bad_input.py walks every command).
"""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from moderator.core.errors import ModeratorError
from moderator.league import cli as league_commands
from moderator.mail.addresses import address_problem
from moderator.mail.commands import REFEREE, commands_for

console = Console(soft_wrap=True)
app_cli = typer.Typer(help="A neutral referee for board wargames played by e-mail.", no_args_is_help=True,
                      pretty_exceptions_enable=False)
mail_cli = typer.Typer(help="Work on mail once, by hand (twins of the daemon's jobs).", no_args_is_help=True)
turn_cli = typer.Typer(help="Run or replay a game's turns.", no_args_is_help=True)
db_cli = typer.Typer(help="Database maintenance.", no_args_is_help=True)
app_cli.add_typer(mail_cli, name="mail")
app_cli.add_typer(turn_cli, name="turn")
app_cli.add_typer(db_cli, name="db")
app_cli.add_typer(league_commands.build(lambda **overrides: make_app(**overrides), console), name="league")

ConfigOption = Annotated[Path | None, typer.Option("--config", "-c", help="TOML settings file "
                                                      "(default: $MODERATOR_CONFIG; env MODERATOR_* overrides).")]


class _State:
    config: Path | None = None
    factory = None  # tests may install their own App factory
    registry = None  # and the games `verify` replays archives with (default: the product's)


def make_app(**overrides: Any) -> Any:
    """Build the application from settings (the CLI never imports a global app)."""
    if _State.factory is not None:
        return _State.factory(**overrides)
    from pydantic import ValidationError
    from sqlalchemy.exc import SQLAlchemyError

    from moderator.app import build_app
    from moderator.settings import load_settings

    if _State.config is None and os.environ.get("MODERATOR_CONFIG"):
        check_config(Path(os.environ["MODERATOR_CONFIG"]))
    try:
        return build_app(load_settings(_State.config, **overrides))
    except (ValidationError, SQLAlchemyError, OSError, ModeratorError) as error:
        fail(f"cannot start with these settings: {error}")


def check_config(path: Path) -> None:
    """A settings file that is missing or is not TOML is refused before anything starts."""
    try:
        tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail(f"no settings file {path}")
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read the settings file {path}: {error}")
    except tomllib.TOMLDecodeError as error:
        fail(f"the settings file {path} is not TOML: {error}")


@app_cli.callback()
def main_callback(config: ConfigOption = None) -> None:
    if config is not None:
        check_config(config)
    _State.config = config


def fail(message: str, code: int = 1) -> NoReturn:
    """Say what is wrong on one line and stop with `code`."""
    console.print(f"[red]error:[/red] {escape(' '.join(message.split()))}")
    raise typer.Exit(code)


def started_game(app: Any, game_id: str) -> None:
    """Refuse, on one line, a game that does not exist or still waits for players."""
    from moderator.store import games as stored
    from moderator.store.models import Game

    with app.db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            known = sorted(stored.running_game_ids(session))
            fail(f"no game '{game_id}'" + (f" (games under way: {', '.join(known[:8])}"
                                           f"{', …' if len(known) > 8 else ''})" if known else ""))
        if game.status == "forming":
            waiting = [s.role for s in stored.seats_of_game(session, game_id) if s.kind == "player"
                       and s.joined_at is None]
            fail(f"game {game_id} is still waiting for players ({', '.join(waiting)} not joined yet)")


def known_game(app: Any, game_id: str) -> None:
    """Refuse, on one line, a game that does not exist (one still waiting for players is fine)."""
    from moderator.store.models import Game

    with app.db.session() as session:
        if session.get(Game, game_id) is None:
            fail(f"no game '{game_id}'")


def readable_file(path: Path, what: str) -> bytes:
    """The bytes of `path`, or one line saying why it cannot be read as `what`."""
    if path.is_dir():
        fail(f"{path} is a directory, not {what}", 2)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        fail(f"no file {path}", 2)
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}", 2)
    if not data.strip():
        fail(f"{path} is empty, not {what}", 2)
    return data


def writable_directory(path: Path) -> None:
    """Refuse an output path that is an existing file."""
    if path.exists() and not path.is_dir():
        fail(f"{path} is a file; give a directory to write into", 2)


# ---------------------------------------------------------------- games


@app_cli.command()
def games() -> None:
    """List the registered games with their scenarios and roles."""
    from moderator.registry import product_registry

    table = RichTable("game", "title", "scenario", "roles", "options")
    for engine in product_registry():
        options = ", ".join(f"{o.name}={o.default}" for o in engine.info.options)
        for scenario in engine.info.scenarios:
            table.add_row(engine.info.id, engine.info.title, scenario.name, ", ".join(scenario.roles), options)
    console.print(table)


@app_cli.command("new-game")
def new_game(
    game: Annotated[str, typer.Argument(help="Registered game id, e.g. vmt.")],
    scenario: Annotated[str | None, typer.Option(help="Scenario name (default: the first).")] = None,
    seat: Annotated[list[str] | None, typer.Option(help="ROLE=ADDRESS; repeat for each seat. Invitations "
                                                        "are mailed to these addresses.")] = None,
    referee: Annotated[str, typer.Option(help="The referee's address (for referee commands by mail).")] = "",
    option: Annotated[list[str] | None, typer.Option(help="Rule option NAME=VALUE; repeat as needed. "
                                                          "entropy=commit-reveal makes players commit to "
                                                          "their entropy before revealing it.")] = None,
    observer: Annotated[list[str] | None, typer.Option(help="NAME=ADDRESS of an observer.")] = None,
    referee_tz: Annotated[str, typer.Option(help="The time zone the referee's mail gives times in, e.g. "
                                                 "Europe/Madrid.")] = "UTC",
) -> None:
    """Create a game; print its id, seed commitment, invitation tokens and referee secret."""
    from moderator.service.owed import REFEREE_TIMEZONE

    app = make_app()
    try:
        engine = app.registry.get(game)
        roles = engine.info.roles(engine.info.scenario(scenario).name)
        seats = _seats(seat or [], roles, engine.info.id)
        observers = dict(_pairs(observer or [], numbers=False))
        problems = [f"the referee's: {p}" for p in ([address_problem(referee)] if referee else []) if p]
        problems += [f"observer {name}'s: {p}" for name, a in observers.items() if (p := address_problem(a))]
        if not known_time_zone(referee_tz):
            problems.append(f"'{referee_tz}' is not a time zone name; use one like Europe/Madrid or UTC")
        if problems:
            fail("; ".join(problems))
        created = app.create_game(game, scenario, dict(_pairs(option or [])), seats, referee, observers=observers,
                                  settings={REFEREE_TIMEZONE: referee_tz} if referee_tz != "UTC" else None)
    except ModeratorError as error:
        fail(str(error))
    app.drain_outbox()
    console.print(f"Created [bold]{created.game_id}[/bold]")
    console.print(f"Seed commitment: {created.commitment}")
    console.print(f"Referee secret (shown once): {created.referee_secret}")
    for role, token in created.invitations.items():
        console.print(f"  invitation for {role}: JOIN {token}")


def known_time_zone(name: str) -> bool:
    """Whether `name` is a time zone the moderator can give times in (Europe/Madrid, UTC)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _seats(items: list[str], roles: tuple[str, ...], game: str) -> dict[str, str]:
    """ROLE=ADDRESS for every role of the scenario, each a role and an address; else one line naming every problem."""
    seats: dict[str, str] = {}
    problems = []
    for role, address in _pairs(items, numbers=False):
        role = role.lower()
        if role not in roles:
            problems.append(f"{game} has no role '{role}' (its roles: {', '.join(roles)})")
        elif role in seats:
            problems.append(f"--seat {role} is given twice")
        elif (problem := address_problem(address)) is not None:
            problems.append(f"the seat {role}: {problem}")
        seats.setdefault(role, address)
    missing = [role for role in roles if role not in seats]
    if missing:
        problems.append(f"no --seat for {', '.join(missing)} (every role needs --seat ROLE=ADDRESS)")
    if problems:
        fail("; ".join(problems))
    return seats


def _pairs(items: list[str], numbers: bool = True) -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = []
    for item in items:
        if "=" not in item:
            fail(f"'{item}' should be NAME=VALUE")
        key, _, value = item.partition("=")
        pairs.append((key.strip(), _number(value.strip()) if numbers else value.strip()))
    return pairs


def _number(value: str) -> int | str:
    try:
        return int(value)
    except ValueError:
        return value


# ---------------------------------------------------------------- mail


@mail_cli.command("process")
def mail_process(
    file: Annotated[Path, typer.Argument(help="A message file (.eml).")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the replies instead of sending; "
                                                            "change nothing.")] = False,
) -> None:
    """Process one message file exactly as the daemon would."""
    raw = readable_file(file, "a message")
    app = make_app()
    if dry_run:
        outcome = app.mailroom.dry_run(raw, f"file:{file.name}")
    else:
        outcome = app.receive(raw, f"file:{file.name}")
        app.drain_outbox()
    console.print(f"[bold]{outcome.status}[/bold]: {outcome.reason}")
    for reply in outcome.replies:
        console.rule(f"to {reply.recipient}: {reply.subject}")
        import email
        import email.policy

        message = email.message_from_bytes(reply.raw, policy=email.policy.default)
        body = message.get_body(("plain",))
        console.print(body.get_content() if body else "(no text part)", markup=False, highlight=False)


@mail_cli.command("poll")
def mail_poll() -> None:
    """Read the inbox once, run what is due, send the outbox."""
    app = make_app()
    read, sent = app.tick()
    console.print(f"read {read} message(s), sent {sent}")


@mail_cli.command("send")
def mail_send() -> None:
    """Send what is waiting in the outbox."""
    app = make_app()
    console.print(f"sent {app.drain_outbox()}")


@mail_cli.command("retry")
def mail_retry(game: Annotated[str | None, typer.Option(help="Only this game's mail.")] = None) -> None:
    """Queue again the mail given up after the attempt cap (fix the address first), and send it."""
    app = make_app()
    if game is not None:
        known_game(app, game)
    queued = app.retry_failed(game)
    console.print(f"queued again {queued}, sent {app.drain_outbox()}")


# ---------------------------------------------------------------- turns


@turn_cli.command("run")
def turn_run(
    game: str,
    force: Annotated[bool, typer.Option(help="Apply the default to every open decision now.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would happen; change nothing.")] = False,
) -> None:
    """Run a game now as far as its orders and passed deadlines allow."""
    from moderator.service.table import load_table

    app = make_app()
    started_game(app, game)
    with app.db.session() as session:
        table = load_table(session, app.registry, game, for_update=True)
        result = app.turns.run(table, app.clock.now(), force_defaults=force)
        console.print(f"{len(result.steps)} answer(s) applied ({len(result.defaulted)} by default); "
                      f"{len(result.waiting)} decision(s) open; {len(result.reports)} report(s)")
        for step in result.steps:
            console.print(f"  {step.role}: {step.text} [{step.source}]", markup=False)
        if dry_run:
            session.rollback()
            console.print("dry run: nothing was saved or sent")
            return
    app.drain_outbox()


@turn_cli.command("replay")
def turn_replay(game: str) -> None:
    """Replay a game from its log; compare every state and report byte for byte."""
    app = make_app()
    started_game(app, game)
    result = app.replayer.replay(game)
    console.print(f"{result.answers} answers, {result.states_checked} states, "
                  f"{result.reports_checked} reports compared")
    for mismatch in result.mismatches:
        console.print(f"[red]mismatch[/red] {mismatch}")
    raise typer.Exit(0 if result.ok else 1)


# ---------------------------------------------------------------- archive and verify


@app_cli.command()
def archive(game: str, out: Annotated[Path, typer.Option(help="Directory to write the archive into.")]) -> None:
    """Write a static HTML archive of a game (observer view; full reveal and archive.json once it ended)."""
    writable_directory(out)
    app = make_app()
    started_game(app, game)
    try:
        index = app.html_archive.write(game, out)
    except ModeratorError as error:
        fail(str(error))
    console.print(f"wrote {index}" + (f" and {out / 'archive.json'}" if (out / "archive.json").exists() else ""))


@app_cli.command()
def verify(
    path: Annotated[Path, typer.Argument(help="archive.json, the directory holding it, or a player's mailbox "
                                              "with the game's mails (an mbox file or a Maildir directory).")],
    archive_file: Annotated[Path | None, typer.Option(
        "--archive", help="With a mailbox: the archive to check it against (default: the one its game-over "
                          "mail carries).")] = None,
) -> None:
    """Replay a finished game from its public archive and check every entry, event and roll; given a
    player's mailbox, check every report in it against the archive too."""
    from moderator.service.mailbox_check import is_maildir

    if is_maildir(path) or (path.is_file() and readable_file(path, "an archive or a mailbox").startswith(b"From ")):
        _verify_mailbox(path, archive_file)
        return
    file = path / "archive.json" if path.is_dir() else path
    data = _read_archive(file)
    if not _report_verification(data):
        raise typer.Exit(1)


def _read_archive(file: Path) -> dict[str, Any]:
    """The archive in `file`, or one line saying why it is none."""
    from moderator.service.archive import ARCHIVE_FORMAT
    from moderator.service.mailbox_check import unpacked

    try:
        data = json.loads(unpacked(readable_file(file, "an archive")))  # as saved from the game-over mail: gzip
    except (json.JSONDecodeError, UnicodeDecodeError, OSError, EOFError) as error:
        fail(f"{file} is not JSON: {error}", 2)
    if not isinstance(data, dict):
        fail(f"{file} is not a moderator archive (it holds a JSON {type(data).__name__}, not an object)", 2)
    if data.get("format") != ARCHIVE_FORMAT:
        fail(f"{file} is not an archive this moderator reads (its format is {data.get('format')!r}; "
             f"this one reads {ARCHIVE_FORMAT!r})", 2)
    return data


def _report_verification(data: dict[str, Any], extra: list[str] | None = None) -> bool:
    """Verify one archive (and the mailbox's findings on it); print the verdict; True when it holds."""
    from moderator.service.verify import verify_archive

    try:
        verdict = verify_archive(data, game_registry())
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        fail(f"the archive of {data.get('game')} is malformed: a part of it is missing or wrong "
             f"({type(error).__name__}: {error})", 2)
    problems = verdict.problems + (extra or [])
    for problem in problems[:40]:
        console.print(f"[red]MISMATCH[/red] {escape(problem)}")
    if len(problems) > 40:
        console.print(f"… and {len(problems) - 40} more")
    if problems:
        console.print(f"{len(problems)} problem(s): {data['game']} does NOT verify")
        return False
    head = data["head"]
    console.print(f"OK: {data['game']}: the seed matches its commitment; {verdict.entries} log entries chained to "
                  f"head #{head['seq']} {head['hash'][:16]}…; {verdict.answers} answers replayed with the "
                  f"{data['engine']} engine, every event, {verdict.draws} draws and the outcome as archived")
    return True


def _verify_mailbox(path: Path, archive_file: Path | None) -> None:
    """`moderator verify MAILBOX`: the archive its game-over mail carries, and every report in it."""
    from moderator.service.mailbox_check import NotAMailbox, check_reports, read_mailbox, read_reports

    try:
        reading = read_reports(read_mailbox(path))
    except (NotAMailbox, OSError) as error:
        fail(str(error), 2)
    except (json.JSONDecodeError, KeyError, TypeError, EOFError) as error:
        fail(f"an archive attached in {path} is malformed ({type(error).__name__}: {error})", 2)
    archives = reading.archives
    if archive_file is not None:
        data = _read_archive(archive_file)
        archives = {data["game"]: data}
    if not archives:
        fail(f"no mail in {path} carries a game's archive: the game-over report does, once a game has ended", 2)
    holds = True
    for game, data in sorted(archives.items()):
        reports = [r for r in reading.reports if r.game == game]
        if not _report_verification(data, check_reports(reports, data)):
            holds = False
            continue
        dice = sum(len(r.dice) for r in reports)
        counted = sum(1 for r in reports if r.counters is not None)
        console.print(f"OK: the {len(reports)} reports of {game} in {path} match it: {len(reports)} log heads, "
                      f"{dice} dice, {counted} sets of draw counters"
                      + (f" ({reading.unheaded} older reports carry no log head)" if reading.unheaded else ""))
    if not holds:
        raise typer.Exit(1)


def game_registry() -> Any:
    """The games an archive may be of: the product's (a test may install others).  `verify` needs
    no settings and no database: a player runs it on their own machine."""
    if _State.registry is not None:
        return _State.registry
    from moderator.registry import product_registry

    return product_registry()


# ---------------------------------------------------------------- referee


REFEREE_HELP = "\n\n".join(
    ["Referee controls (the same as by mail); logged in the game's history.", "Commands:"]
    + [f"{command.usage}: {command.help_for(REFEREE)} (e.g. {command.example})" for command in commands_for(REFEREE)])


@app_cli.command(help=REFEREE_HELP)
def referee(
    game: str,
    command: Annotated[str, typer.Argument(help="One of " + ", ".join(c.name for c in commands_for(REFEREE))
                                                + " (see below).")],
    argument: Annotated[list[str] | None, typer.Argument(help="The command's argument, as listed below.")] = None,
) -> None:
    known = {c.name: c for c in commands_for(REFEREE)}
    chosen = known.get(command.upper())
    if chosen is None:
        fail(f"no referee command '{command}'; the commands are {', '.join(known)}")
        return
    text = " ".join(argument or [])
    problem = chosen.argument_problem(text)
    if problem:
        fail(problem)
    from moderator.service.table import load_table

    app = make_app()
    started_game(app, game)
    with app.db.session() as session:
        table = load_table(session, app.registry, game, for_update=True)
        console.print(app.controls.apply(table, chosen.name, text, source="cli"))
    if chosen.name == "RELEASE":  # read now, as if it had just arrived (service/kept_mail.py)
        for outcome in app.reprocess_stranded():
            console.print(escape(f"Read: {outcome.status}: {outcome.reason}".splitlines()[0][:300]))
    app.drain_outbox()


# ---------------------------------------------------------------- demo and daemon


@app_cli.command()
def demo(
    game: Annotated[list[str] | None, typer.Option(help="Which registered game to play (default vmt); with "
                                                      "--league, repeat for a league of several games.")] = None,
    out: Annotated[Path, typer.Option(help="Where to leave the database, every mail and the archive.")] = Path(
        "demo-out"),
    seed: Annotated[int, typer.Option(help="Seed for the bots' choices (the dice seed stays secret "
                                           "until the end, as in any game).")] = 1,
    league: Annotated[bool, typer.Option("--league", help="Play a whole club league of the game(s) instead "
                                                          "(8 members, 2 reserves, 3 Swiss rounds, a seat "
                                                          "left to the game's bot).")] = False,
    scenario: Annotated[str | None, typer.Option(help="Scenario name (default: the first).")] = None,
    option: Annotated[list[str] | None, typer.Option(help="Rule option NAME=VALUE; repeat as needed.")] = None,
) -> None:
    """Bots play a complete game by e-mail through the real loop; every mail stays in OUT."""
    import shutil

    from rich.progress import BarColumn, Progress, TextColumn

    from moderator.app import App
    from moderator.clock import ManualClock, SystemClock
    from moderator.demo import run_demo
    from moderator.service.verify import verify_archive
    from moderator.settings import load_settings

    writable_directory(out)
    if out.exists():
        shutil.rmtree(out)
    settings = load_settings(_State.config, data_dir=out, orders_address="moderator@referee.demo",
                             domain="referee.demo", database_url="", inbox_maildir=None, outbox_dir=None)
    clock = ManualClock(SystemClock().now())
    app = _State.factory(settings=settings, clock=clock) if _State.factory else App(settings, clock=clock)
    app.migrate()
    games = _demo_games(app, game or ["vmt"], league)
    if league:
        raise typer.Exit(league_commands.demo(app, games, seed, console))
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("turn {task.completed}/{task.total}"),
                  TextColumn("{task.fields[phase]}"), console=console) as bar:
        task = bar.add_task(f"{games[0]}: playing by mail", total=1, phase="")

        def progress(turn: int, total: int, label: str) -> None:
            bar.update(task, completed=turn, total=total, phase=label)

        try:
            summary = run_demo(app, games[0], out, seed, progress, scenario=scenario,
                               options=dict(_pairs(option or [])))
        except ModeratorError as error:
            fail(str(error))
    archive_dir = out / "archive"
    index = app.html_archive.write(summary["game_id"], archive_dir)
    data = json.loads((archive_dir / "archive.json").read_text())
    problems = verify_archive(data, app.registry).problems
    console.print(f"Game {summary['game_id']} finished: {data['result']}")
    console.print(f"Players sent {summary['mails_from_players']} mails; every mail is under {out / 'mail'}")
    console.print(f"Archive to browse: {index}")
    console.print(f"Public archive: {archive_dir / 'archive.json'} "
                  f"({'verifies' if not problems else 'DOES NOT VERIFY'}); check it with "
                  f"'moderator verify {archive_dir}'")
    if problems:
        raise typer.Exit(1)


def _demo_games(app: Any, games: list[str], league: bool) -> list[str]:
    """The demo's games, each registered, one unless a league plays them; fails the command otherwise."""
    unknown = [name for name in games if name not in app.registry]
    if unknown:
        fail(f"no game '{unknown[0]}'; registered: {', '.join(app.registry.ids) or 'none'}")
    if len(games) > 1 and not league:
        fail("a game demo plays one game; several games are for a league demo (--league)")
    return games


@app_cli.command()
def serve() -> None:
    """Run the daemon: poll the mailbox, run due turns, send the outbox (APScheduler)."""
    from moderator.daemon import run_daemon

    run_daemon(make_app())


@app_cli.command()
def doctor(wait: Annotated[float, typer.Option(help="Seconds to wait for the probe mail.")] = 30) -> None:
    """Check the configured IMAP and SMTP servers: login, folders, and a probe mail that comes back."""
    from moderator.doctor import run_checks

    checks = run_checks(make_app().settings, wait)
    for check in checks:
        mark = "[green]ok[/green]  " if check.ok else "[red]FAIL[/red]"
        console.print(f"{mark} {check.name}: {check.detail}")
    raise typer.Exit(0 if all(c.ok for c in checks) else 1)


@db_cli.command("upgrade")
def db_upgrade() -> None:
    """Apply every database migration (the app does this at start too)."""
    make_app().migrate()
    console.print("database is at the newest migration")


def main() -> None:
    try:
        app_cli()
    except ModeratorError as error:
        console.print(f"[red]error:[/red] {error}")
        sys.exit(1)


if __name__ == "__main__":
    main()
