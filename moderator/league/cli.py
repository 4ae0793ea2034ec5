"""`moderator league ...`: the referee's league commands at the console (issue 15).

The same commands as by mail (ADD, REMOVE, SEED, START, RESULT come from the one command table and
go through the same desk), plus what only the console does: declare a league, show it, write its
page.  The CLI module registers this sub-application and hands it its App factory.

A league of several games is declared with `--game` once per game (`ID` or `ID:SCENARIO`), its rule
options with `--option NAME=VALUE` (`ID.NAME=VALUE` in a league of several), and which round plays
which with `--schedule` (league/games.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from moderator.core.errors import ModeratorError
from moderator.league.games import declared_games, keys_of
from moderator.league.model import (
    FALLBACKS,
    FORMATS,
    TIE_BREAKS,
    TIMEOUT_POLICIES,
    Declaration,
    DeclaredGame,
    LeagueError,
)
from moderator.league.report import build_view, pairing_lines, table_lines
from moderator.store import leagues as stored


def build(make_app: Callable[..., Any], console: Console) -> typer.Typer:
    """The `league` sub-application, building the App with `make_app` when a command runs."""
    league_cli = typer.Typer(help="Club leagues: declare, sign members up, run rounds, standings.",
                             no_args_is_help=True)

    def fail(message: str) -> NoReturn:
        console.print(f"[red]error:[/red] {escape(' '.join(message.split()))}")
        raise typer.Exit(1)

    @league_cli.command("create")
    def create(
        league_id: Annotated[str, typer.Argument(help="A short id for mail and pages, e.g. spring-cup.")],
        game: Annotated[list[str], typer.Option(help="A game of the league, ID or ID:SCENARIO, e.g. vmt or "
                                                     "narva:campaign; repeat for a league of several games.")],
        name: Annotated[str, typer.Option(help="The league's name.")] = "",
        referee: Annotated[str, typer.Option(help="The league referee's address.")] = "",
        format: Annotated[str, typer.Option(help=" | ".join(FORMATS))] = "swiss",
        rounds: Annotated[int, typer.Option(help="Rounds (Swiss, ladder; a round robin has its own).")] = 3,
        round_days: Annotated[float, typer.Option(help="Days each round lasts.")] = 14.0,
        signup_days: Annotated[float, typer.Option(help="Days the sign-up stays open.")] = 7.0,
        timeout: Annotated[str, typer.Option(help="A game unfinished at the round's end: "
                                                  + " | ".join(TIMEOUT_POLICIES))] = "adjudicate",
        tie_break: Annotated[list[str] | None, typer.Option(help="In order; repeat: " + " | ".join(TIE_BREAKS))] = None,
        turn_hours: Annotated[float | None, typer.Option(help="Per-turn deadline of the league's games.")] = None,
        nmr_limit: Annotated[int, typer.Option(help="Missed deadlines before a seat goes to reserves.")] = 3,
        reserve_hours: Annotated[float, typer.Option(help="Hours an offer to reserves stays open.")] = 48.0,
        fallback: Annotated[str, typer.Option(help="No reserve takes the seat: " + " | ".join(FALLBACKS))] = "forfeit",
        option: Annotated[list[str] | None, typer.Option(help="A rule option NAME=VALUE (ID.NAME=VALUE in a "
                                                              "league of several games); repeat.")] = None,
        schedule: Annotated[list[str] | None, typer.Option(help="The games round after round, repeating, e.g. "
                                                                "vmt,vmt,narva (default: each game in turn).")] = None,
        min_reliability: Annotated[float, typer.Option(help="Share of deadlines met (0-1) a member signing up "
                                                            "must show in the club's league games.")] = 0.0,
        grace_minutes: Annotated[float | None, typer.Option(help="Minutes after a deadline of the league's games "
                                                                 "before its default applies (default: the "
                                                                 "house's).")] = None,
        pair_reliability: Annotated[float, typer.Option(help="Members below this share of deadlines met (0-1) "
                                                             "are paired among themselves.")] = 0.0,
    ) -> None:
        """Declare a league; prints the sign-up token to announce and the referee's secret."""
        app = make_app()
        try:
            declaration = Declaration(name or league_id, games_from_words(game, option or []),
                                      schedule_from_words(schedule or []), format,  # type: ignore[arg-type]
                                      rounds, round_days, signup_days, timeout,  # type: ignore[arg-type]
                                      tuple(tie_break or ("buchholz", "sonneborn-berger", "head-to-head")),  # type: ignore[arg-type]
                                      turn_hours, nmr_limit, reserve_hours, fallback, min_reliability,  # type: ignore[arg-type]
                                      grace_minutes, pair_reliability)
            created = app.leagues.office.declare(declaration, league_id, referee)
        except ModeratorError as error:
            fail(str(error))
        console.print(f"League {created.league_id} is open for sign-up.")
        console.print(f"Members sign up by mailing {app.settings.orders_address}: JOIN LEAGUE {created.signup_token}")
        console.print(f"Referee secret (shown once): {created.referee_secret}")

    _add_referee_commands(league_cli, make_app, console, fail)
    _add_views(league_cli, make_app, console, fail)
    return league_cli


def schedule_from_words(words: Sequence[str]) -> tuple[str, ...]:
    """The schedule from `--schedule` given once or more, each a game or several separated by commas."""
    return tuple(key for text in words for key in text.replace(",", " ").split())


def games_from_words(games: Sequence[str], options: Sequence[str]) -> tuple[DeclaredGame, ...]:
    """The declared games from `--game ID[:SCENARIO]` and `--option [ID.]NAME=VALUE`; raises LeagueError
    for an option that is not NAME=VALUE or names no declared game (a league of several must name it)."""
    declared = [(word.split(":", 1)[0].lower(), word.split(":", 1)[1] if ":" in word else None) for word in games]
    keys = keys_of([DeclaredGame(engine, scenario) for engine, scenario in declared])
    chosen: list[dict[str, object]] = [{} for _ in declared]
    for text in options:
        name, equals, value = text.partition("=")
        if not equals or not name:
            raise LeagueError(f"--option needs NAME=VALUE, not '{text}'")
        key, dot, bare = name.rpartition(".")
        if not dot and len(declared) > 1:
            raise LeagueError(f"the league plays several games: say whose option it is, e.g. {keys[0]}.{name}={value}")
        place = 0 if not dot else keys.index(key.lower()) if key.lower() in keys else -1
        if place < 0:
            raise LeagueError(f"--option {text} names '{key}', which is not one of the league's games "
                              f"({', '.join(keys)})")
        chosen[place][bare] = value
    return tuple(DeclaredGame(engine, scenario, options) for (engine, scenario), options in zip(declared, chosen,
                                                                                                strict=True))


def _add_referee_commands(league_cli: typer.Typer, make_app: Callable[..., Any], console: Console,
                          fail: Callable[[str], NoReturn]) -> None:
    def run(league_id: str, command: str, argument: str) -> None:
        app = make_app()
        with app.db.session() as session:
            league = stored.league(session, league_id, for_update=True)
            if league is None:
                fail(f"there is no league '{league_id}'")
            try:
                answer = app.leagues.desk.referee_command(session, league, command, argument, strict=True)
            except ModeratorError as error:
                fail(str(error))
        console.print(answer, markup=False)
        if command == "START":
            for line in app.leagues.run_due():
                console.print(line)

    @league_cli.command("add")
    def add(league_id: str, address: str, name: Annotated[str, typer.Option(help="The member's name.")] = "") -> None:
        """Sign a member up (their secret is mailed to them)."""
        run(league_id, "ADD", f"{address} {name}".strip())

    @league_cli.command("remove")
    def remove(league_id: str, address: str) -> None:
        """Take a member out; a seat they hold in a running game is offered to the reserves."""
        run(league_id, "REMOVE", address)

    @league_cli.command("seed")
    def seed(league_id: str, address: str, number: int) -> None:
        """Set a member's seed (1 is the top) before the league starts."""
        run(league_id, "SEED", f"{address} {number}")

    @league_cli.command("start")
    def start(league_id: str) -> None:
        """Close the sign-up and pair round 1 now."""
        run(league_id, "START", "")

    @league_cli.command("result")
    def result(league_id: str, game_id: str, side: Annotated[str, typer.Argument(help="The winning side or DRAW.")]
               ) -> None:
        """Adjudicate a league game."""
        run(league_id, "RESULT", f"{game_id} {side}")


def _add_views(league_cli: typer.Typer, make_app: Callable[..., Any], console: Console,
               fail: Callable[[str], NoReturn]) -> None:
    @league_cli.command("list")
    def listing() -> None:
        """Every league with its status."""
        app = make_app()
        with app.db.session() as session:
            for league in stored.all_leagues(session):
                played = ", ".join(keys_of(declared_games(league)))
                console.print(f"{league.id}: {league.name} ({played}, {league.format}) {league.status}, "
                              f"round {league.current_round} of {league.rounds}")

    @league_cli.command("show")
    def show(league_id: str) -> None:
        """The standings and the current round's pairings."""
        app = make_app()
        with app.db.session() as session:
            league = stored.league(session, league_id)
            if league is None:
                fail(f"there is no league '{league_id}'")
            view = build_view(session, app.registry, league)
        console.print(f"{league.name}: {league.status}, round {league.current_round} of {league.rounds}",
                      markup=False)
        for line in table_lines(view) + [""] + pairing_lines(view, league.current_round):
            console.print(line, markup=False, highlight=False)

    @league_cli.command("page")
    def page(league_id: str, out: Annotated[Path | None, typer.Option(help="Directory to write the page into "
                                                                            "(default: DATA_DIR/leagues/ID).")] = None
             ) -> None:
        """Write the league's static page and calendars."""
        app = make_app()
        try:
            index = app.leagues.write_page(league_id, out)
        except ModeratorError as error:
            fail(str(error))
        console.print(f"League page: {index}")


def demo(app: Any, games: Sequence[str], seed: int, console: Console) -> int:
    """`moderator demo --league`: bots play a whole league of `games` (one a round, in turn) by mail;
    returns the exit code."""
    from rich.progress import BarColumn, Progress, TextColumn

    from moderator.league.demo import DemoPlan, run_league_demo

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                  TextColumn("round {task.completed}/{task.total}"), TextColumn("{task.fields[status]}"),
                  console=console) as bar:
        task = bar.add_task(f"{' + '.join(games)} league: playing by mail", total=3, status="")

        def progress(number: int, rounds: int, status: str) -> None:
            bar.update(task, completed=number, total=rounds, status=status)

        try:
            summary = run_league_demo(app, DemoPlan(games=tuple(games)), seed, progress)
        except ModeratorError as error:
            console.print(f"[red]error:[/red] {escape(str(error))}")
            return 1
    with app.db.session() as session:
        league = stored.league(session, summary["league_id"])
        assert league is not None
        view = build_view(session, app.registry, league)
    console.print(f"League {league.name} ({view.title}) finished after {league.current_round} rounds:",
                  markup=False)
    for line in table_lines(view):
        console.print(line, markup=False, highlight=False)
    if view.several:
        console.print("Rounds played: " + "; ".join(f"{number}. {view.plays(number).title}"
                                                    for number in range(1, league.current_round + 1)) + ".",
                      markup=False)
    for line in summary["takeovers"] or ["No seat was taken over."]:
        console.print(line, markup=False, highlight=False)
    console.print(f"Players sent {summary['mails_from_players']} mails; every mail is under "
                  f"{app.settings.resolved_outbox}", markup=False)
    console.print(f"League page to open: {summary['page']}", markup=False)
    return 0
