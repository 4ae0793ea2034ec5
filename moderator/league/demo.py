"""`moderator demo --league`: bots play a whole league through the real mail loop (issue 15).

The bots are the game demo's mail users (moderator/demo.py): they sign up with `JOIN LEAGUE`, take
the seat of each round's invitation, and play from their reports, each report with the brain of the
game it comes from (a league may play several games, one a round: league/games.py).  Two more sign
up as reserves: one member withdraws during round 2 and a reserve takes the seat; the reserves then
take no more offers, so when another member falls silent in round 3 and their seat passes the NMR
limit, nobody accepts it and the league's declared fallback, the game's bot, plays it on (or the
round runs out of time first).  The league's referee is a bot too: it adjudicates a game whose
round ran out of time.  The clock is injected: when nobody has anything to send it jumps to the
next deadline, so a league of days plays in minutes.
"""

from __future__ import annotations

import email
import email.policy
import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid
from typing import Any, Protocol

from moderator.clock import Clock, ManualClock, as_utc
from moderator.core.bots import Brain, RandomBrain, ReportMail
from moderator.demo import Bot, Host
from moderator.league.botseats import is_bot
from moderator.league.model import Declaration, DeclaredGame
from moderator.league.report import build_view
from moderator.mail.maildir import ensure_maildir, mailbox_dir
from moderator.store import leagues as stored
from moderator.store.models import Game

LEAGUE_ID = "demo-league"
REFEREE = "referee@club.demo"
SECRET = re.compile(r"Your league secret is ([A-Z0-9]{4}-[A-Z0-9]{4})")
OFFER = re.compile(r"'ACCEPT (\d+)'")
ADJUDICATE = re.compile(r"'RESULT (\S+) <")


class LeagueHost(Host, Protocol):
    """The application as the league demo drives it: the game demo's host with its leagues."""

    leagues: Any


@dataclass
class Willing:
    """How many more reserve offers the reserves accept between them (then they are away)."""

    left: int

    def take(self) -> bool:
        """Whether one more offer is accepted (and counted)."""
        if self.left <= 0:
            return False
        self.left -= 1
        return True


@dataclass
class Member:
    """A bot that is a league member: the game demo's Bot, plus its league secret and offers taken."""

    bot: Bot
    secret: str = ""
    accepted: list[int] = field(default_factory=list)
    withdrawn: bool = False
    silent: bool = False
    willing: Willing | None = None  # a reserve's: the offers the reserves still accept

    def league_mail(self, clock: Clock) -> int:
        """Read the league's own mail first (the welcome's secret, reserve offers); the Bot reads the rest."""
        ensure_maildir(self.bot.mailbox)
        sent = 0
        for path in sorted((self.bot.mailbox / "new").iterdir()):
            text = _plain(path.read_bytes())
            found = SECRET.search(text)
            if found:
                self.secret = found.group(1)
            offer = OFFER.search(text)
            if offer and self.secret and int(offer.group(1)) not in self.accepted and self.willing is not None \
                    and self.willing.take():
                self.accepted.append(int(offer.group(1)))
                sent += send(self.bot, clock, "Re: a seat to take over",
                             f"LEAGUE {LEAGUE_ID}\nSECRET {self.secret}\nACCEPT {offer.group(1)}\n")
        return sent


def send(bot: Bot, clock: Clock, subject: str, body: str) -> int:
    """A plain mail from the bot into the moderator's inbox."""
    message = EmailMessage(policy=SMTP)
    message["From"] = f"{bot.name} <{bot.address}>"
    message["To"] = bot.moderator
    message["Subject"] = subject
    message["Date"] = format_datetime(clock.now())
    message["Message-ID"] = make_msgid(domain=bot.address.split("@")[1])
    message.set_content(body)
    bot.inbox.drop(message.as_bytes(), str(message["Message-ID"]))
    bot.sent += 1
    return 1


class Referee:
    """The league's referee as a bot: answers each request for adjudication (the side ahead on the
    mail's word is unknown to it, so it rules a draw, as a cautious referee might)."""

    def __init__(self, bot: Bot, secret: str):
        self.bot = bot
        self.secret = secret
        self.ruled: set[str] = set()

    def step(self, clock: Clock) -> int:
        ensure_maildir(self.bot.mailbox)
        sent = 0
        for path in sorted((self.bot.mailbox / "new").iterdir()):
            text = _plain(path.read_bytes())
            path.rename(self.bot.mailbox / "cur" / (path.name + ":2,S"))
            for game_id in ADJUDICATE.findall(text):
                if game_id not in self.ruled:
                    self.ruled.add(game_id)
                    sent += send(self.bot, clock, f"Result of {game_id}",
                                 f"LEAGUE {LEAGUE_ID}\nROLE referee\nSECRET {self.secret}\nRESULT {game_id} DRAW\n")
        return sent


@dataclass(frozen=True)
class DemoPlan:
    """The demo league: how many members and reserves, its format and rounds, its games (played in
    turn, a round each), and the members who drop out: one withdraws once their round-2 game has
    started (a reserve takes the seat), one falls silent in round 3 (their deadlines pass: the NMR
    limit, or the round's end).  The reserves accept `reserve_accepts` offers between them; a seat
    offered after that goes to the declared `fallback` (the game's bot)."""

    games: tuple[str, ...] = ("vmt",)
    players: int = 8
    reserves: int = 2
    rounds: int = 3
    format: str = "swiss"
    round_days: float = 12.0
    turn_hours: float | None = None
    withdrawing_member: int = 3  # 0: nobody
    silent_member: int = 5  # 0: nobody
    nmr_limit: int = 2
    fallback: str = "bot"
    reserve_accepts: int = 1


def run_league_demo(app: LeagueHost, plan: DemoPlan, seed: int, progress: Callable[[int, int, str], None] | None = None,
                    max_cycles: int = 50_000) -> dict[str, Any]:
    """Play a whole league by mail; returns a summary (the league id, mails sent, the page, and who took
    over which seat: `takeovers`, a line each)."""
    rng = random.Random(seed)
    created = app.leagues.office.declare(Declaration(
        "Demo Club League", tuple(DeclaredGame(game) for game in plan.games), format=plan.format,  # type: ignore[arg-type]
        rounds=plan.rounds, round_days=plan.round_days, signup_days=1.0, timeout="adjudicate",
        nmr_limit=plan.nmr_limit, turn_hours=plan.turn_hours, reserve_hours=24.0,
        fallback=plan.fallback), LEAGUE_ID, REFEREE)  # type: ignore[arg-type]
    brains = GameBrains(app)
    willing = Willing(plan.reserve_accepts)
    members = [_member(app, f"player{n}@club.demo", f"Player {n}", rng, brains) for n in range(1, plan.players + 1)]
    reserves = [_member(app, f"reserve{n}@club.demo", f"Reserve {n}", rng, brains, willing)
                for n in range(1, plan.reserves + 1)]
    clock = app.clock
    assert isinstance(clock, ManualClock)
    sides = app.registry.get(plan.games[0]).info.roles()  # round 1's game
    for number, member in enumerate(members + reserves):
        extra = "RESERVE\n" if member in reserves else f"SIDES {sides[number % 2]}\nAVAILABILITY 1\n"
        send(member.bot, clock, "Sign-up", f"JOIN LEAGUE {created.signup_token}\nNAME {member.bot.name}\n"
                                           f"TZ Europe/Madrid\n{extra}")
    referee = Referee(Bot(REFEREE, "Referee", mailbox_dir(app.settings.resolved_outbox, REFEREE),
                          app.settings.orders_address, app.inbox, random.Random(0)), created.referee_secret)
    cycles = _play(app, members, reserves, referee, plan, progress, max_cycles)
    page = app.leagues.write_page(LEAGUE_ID)
    return {"league_id": LEAGUE_ID, "cycles": cycles, "page": page, "takeovers": takeovers(app),
            "mails_from_players": sum(m.bot.sent for m in members + reserves)}


def takeovers(app: LeagueHost) -> list[str]:
    """Each seat a reserve or the game's bot took over, in words, for the demo's summary."""
    with app.db.session() as session:
        league = stored.league(session, LEAGUE_ID)
        assert league is not None
        view = build_view(session, app.registry, league)
        offers = {(o.league_game_id, o.role): o for o in stored.offers(session, LEAGUE_ID)}
        lines = []
        for row in stored.games(session, LEAGUE_ID):
            title = view.plays(row.round).title
            for role, address in sorted(json.loads(row.substitutes_json).items()):
                offer = offers.get((row.id or 0, role))
                leaving = offer.leaving if offer is not None else "its player"
                if is_bot(address):
                    lines.append(f"Round {row.round}, {row.game_id} ({title}): no reserve accepted the seat "
                                 f"'{role}' of {leaving}, so the game's bot played it on.")
                else:
                    lines.append(f"Round {row.round}, {row.game_id} ({title}): {address} took over the seat "
                                 f"'{role}' of {leaving}.")
    return lines


class GameBrains:
    """A member plays a different side, and perhaps a different game, from round to round: the brain of
    the report's game (its engine and scenario, read from the store) for the report's ROLE."""

    def __init__(self, app: LeagueHost):
        self.app = app
        self.known: dict[str, Mapping[str, Brain]] = {}

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        role = next((line.split()[1] for line in report.envelope if line.startswith("ROLE ")), "")
        game_id = next((line.split()[1] for line in report.envelope if line.startswith("GAME ")), "")
        return self._brains(game_id).get(role, RandomBrain()).orders(report, rng)

    def _brains(self, game_id: str) -> Mapping[str, Brain]:
        if game_id not in self.known:
            with self.app.db.session() as session:
                game = session.get(Game, game_id)
            self.known[game_id] = {} if game is None else self.app.registry.get(game.engine).bots(game.scenario)
        return self.known[game_id]


def _member(app: LeagueHost, address: str, name: str, rng: random.Random, brains: Brain,
            willing: Willing | None = None) -> Member:
    bot = Bot(address, name, mailbox_dir(app.settings.resolved_outbox, address), app.settings.orders_address,
              app.inbox, random.Random(rng.getrandbits(64)), brains, 0.0)
    return Member(bot, willing=willing)


def _play(app: LeagueHost, members: list[Member], reserves: list[Member], referee: Referee, plan: DemoPlan,
          progress: Callable[[int, int, str], None] | None, max_cycles: int) -> int:
    """The mail loop: the moderator's jobs, then every bot; when all are quiet, the clock jumps ahead."""
    clock = app.clock
    assert isinstance(clock, ManualClock)
    idle = 0
    for cycle in range(1, max_cycles + 1):
        app.tick()
        status, number = _league_status(app)
        sent = referee.step(clock) + _drop_outs(app, plan, members, number, clock)
        for member in members + reserves:
            sent += member.league_mail(clock) + member.bot.step(clock)
        if progress is not None:
            progress(number, plan.rounds, status)
        if status == "over":
            app.tick()
            return cycle
        idle = idle + 1 if sent == 0 else 0
        if idle >= 2:
            _jump(app, clock)
            idle = 0
        clock.advance(minutes=7)
    raise RuntimeError(f"the league did not finish in {max_cycles} cycles")


def _drop_outs(app: LeagueHost, plan: DemoPlan, members: list[Member], number: int, clock: Clock) -> int:
    """The plan's dropouts: a withdrawal in round 2 once the member's game runs; silence in round 3."""
    if plan.silent_member and number == 3 and not any(m.silent for m in members):
        # the planned member, or the next one with a game this round (the planned one may have the bye)
        order = members[plan.silent_member - 1:] + members[:plan.silent_member - 1]
        chosen = next((m for m in order if not m.withdrawn and _playing(app, m.bot.address)), None)
        if chosen is not None:
            chosen.silent = True
    for member in members:
        member.bot.silence = 1.0 if member.withdrawn or (member.silent and number == 3) else 0.0
    if not plan.withdrawing_member or number != 2:
        return 0
    leaving = members[plan.withdrawing_member - 1]
    if leaving.withdrawn or not _playing(app, leaving.bot.address):
        return 0
    leaving.withdrawn = True
    return send(leaving.bot, clock, "Withdrawal", f"LEAGUE {LEAGUE_ID}\nSECRET {leaving.secret}\nWITHDRAW\n")


def _playing(app: LeagueHost, address: str) -> bool:
    """Whether `address` holds a seat in a running game of the current round."""
    with app.db.session() as session:
        league = stored.league(session, LEAGUE_ID)
        member = stored.member_by_address(session, LEAGUE_ID, address)
        if league is None or member is None:
            return False
        for row in stored.games(session, LEAGUE_ID, league.current_round):
            game = session.get(Game, row.game_id) if row.game_id else None
            if member.id in (row.first_id, row.second_id) and game is not None and game.status == "running":
                return True
    return False


def _league_status(app: LeagueHost) -> tuple[str, int]:
    with app.db.session() as session:
        league = stored.league(session, LEAGUE_ID)
        assert league is not None
        return league.status, league.current_round


def _jump(app: LeagueHost, clock: ManualClock) -> None:
    """Move the clock to just after the next thing due: a game's deadline, the round's end, an offer's."""
    with app.db.session() as session:
        league = stored.league(session, LEAGUE_ID)
        assert league is not None
        moments: list[datetime | None] = [league.signup_deadline] if league.status == "signup" else []
        current = stored.round_of(session, LEAGUE_ID, league.current_round)
        if current is not None:
            moments.append(current.ends_at)
        for row in stored.games(session, LEAGUE_ID, league.current_round):
            game = session.get(Game, row.game_id) if row.game_id else None
            if game is not None and game.status == "running":
                moments.append(game.next_deadline)
        moments += [offer.expires_at for offer in stored.offers(session, LEAGUE_ID, "open")]
    due = [as_utc(m) for m in moments if m is not None]
    future = [m for m in due if m is not None and m > clock.now()]
    if future:
        clock.set(min(future) + timedelta(seconds=1))


def _plain(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    body = message.get_body(("plain",))
    return body.get_content() if body else ""
