"""League mail (issue 15): sign-up by `JOIN LEAGUE <token>`, then members' and the referee's commands.

    JOIN LEAGUE K3F9-QW2M          LEAGUE spring-cup           LEAGUE spring-cup
    NAME Ann Smith                 SECRET 7QK2-MX4D            ROLE referee
    TZ Europe/Madrid               WITHDRAW                    SECRET 4PLM-Q2WE
    AVAILABILITY 2                                             ADD bob@example.org Bob
    SIDES axis                                                 SEED bob@example.org 1

The commands and their argument syntax come from the one command table (mail/commands.py: the
MEMBER and ORGANISER audiences); the help in the welcome and in receipts is derived from it too.
A message with neither a JOIN LEAGUE nor a LEAGUE line is not league mail: the mailroom goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session

from moderator.clock import Clock
from moderator.league.letters import Letters
from moderator.league.model import LeagueError
from moderator.league.office import LeagueOffice, SignUp, member_secret_hash
from moderator.league.report import build_view, titles
from moderator.league.reserves import Reserves
from moderator.league.rounds import RoundKeeper
from moderator.mail.commands import BY_NAME, MEMBER, ORGANISER, names_for
from moderator.mail.hygiene import Letter
from moderator.registry import Registry
from moderator.service.games import token_hash
from moderator.service.replies import Outcome
from moderator.store import leagues as stored
from moderator.store.league_tables import League

SIGN_UP_KEYS = ("NAME", "TZ", "AVAILABILITY", "SIDES", "RESERVE")


@dataclass
class LeagueLetter:
    """A message's league lines: the sign-up token or the league, the secret, the role, the commands."""

    join_token: str | None = None
    league: str | None = None
    secret: str | None = None
    role: str | None = None
    name: str = ""
    timezone: str = "UTC"
    commands: list[tuple[str, str]] = field(default_factory=list)  # (COMMAND, argument)


def read_league_letter(lines: list[tuple[int, str]]) -> LeagueLetter | None:
    """The league lines of a message, or None when it is not league mail."""
    found = LeagueLetter()
    for _, line in lines:
        text = line.split("#", 1)[0].strip()
        head, _, rest = text.partition(" ")
        key, rest = head.upper().rstrip(":"), rest.strip()
        words = rest.split()
        if key == "JOIN" and len(words) >= 2 and words[0].upper() == "LEAGUE":
            found.join_token = words[1][:100]
        elif key == "LEAGUE" and len(words) == 1:
            found.league = words[0].lower()[:64]
        elif key == "SECRET" and len(words) == 1:
            found.secret = words[0][:100]
        elif key in ("ROLE", "SIDE") and len(words) == 1:
            found.role = words[0].lower()
        elif key == "NAME" and rest:
            found.name = rest[:120]
        elif key == "TZ" and words:
            found.timezone = words[0][:64]
        elif key in BY_NAME and key != "LEAGUE":
            found.commands.append((key, rest))
    if found.join_token is None and found.league is None:
        return None
    return found


class LeagueDesk:
    """Answers league mail; needs the database session of the message, the clock, the games, the
    office, the round keeper (RESULT), the reserves (ACCEPT, dropouts) and the letters."""

    def __init__(self, clock: Clock, registry: Registry, office: LeagueOffice, rounds: RoundKeeper,
                 reserves: Reserves, letters: Letters):
        self.clock = clock
        self.registry = registry
        self.office = office
        self.rounds = rounds
        self.reserves = reserves
        self.letters = letters

    def route(self, session: Session, letter: Letter) -> Outcome | None:
        """Answer `letter` if it is league mail; None lets the mailroom carry on with it."""
        found = read_league_letter(letter.lines())
        if found is None:
            return None
        if found.join_token is not None:
            return self.sign_up(session, letter, found)
        league = stored.league(session, found.league or "", for_update=True)
        if league is None:
            if not stored.is_league_address(session, letter.sender):
                return Outcome("quarantined", f"league mail from a stranger for an unknown league {found.league}")
            return self._receipt(session, None, letter.sender, [f"There is no league '{found.league}'."])
        if found.role == "referee":
            return self.organiser(session, letter, found, league)
        return self.member(session, letter, found, league)

    def _receipt(self, session: Session, league: League | None, sender: str, lines: list[str],
                 organiser: bool = False) -> Outcome:
        reply = self.letters.receipt(session, league, sender, lines, organiser)
        return Outcome("command", "; ".join(lines)[:500], "", [reply])

    # ------------------------------------------------------------------ sign-up

    def sign_up(self, session: Session, letter: Letter, found: LeagueLetter) -> Outcome:
        league = stored.league_by_token(session, token_hash(found.join_token or ""))
        if league is None:
            if not stored.is_league_address(session, letter.sender):
                return Outcome("quarantined", "JOIN LEAGUE with an unknown token from a stranger")
            return self._receipt(session, None, letter.sender, ["That league sign-up token is unknown."])
        try:
            entry = SignUp(letter.sender, found.name or letter.sender_name, found.timezone,
                           self._number(found, "AVAILABILITY", 1), tuple(self._argument(found, "SIDES").split()),
                           any(c == "RESERVE" and a.upper() != "OFF" for c, a in found.commands))
            member, secret = self.office.sign_up(session, league, entry)
        except LeagueError as error:
            return self._receipt(session, league, letter.sender, [f"Your sign-up was not taken: {error}."])
        reply = self.letters.welcome(session, league, member, secret, titles(self.registry, league))
        return Outcome("joined", f"{letter.sender} joined league {league.id}", "", [reply])

    @staticmethod
    def _argument(found: LeagueLetter, command: str) -> str:
        return next((argument for name, argument in found.commands if name == command), "")

    def _number(self, found: LeagueLetter, command: str, default: int) -> int:
        text = self._argument(found, command)
        if not text:
            return default
        if not text.isdigit():
            raise LeagueError(f"{command} needs a whole number, not '{text}'")
        return int(text)

    # ------------------------------------------------------------------ members

    def member(self, session: Session, letter: Letter, found: LeagueLetter, league: League) -> Outcome:
        member = stored.member_by_address(session, league.id, letter.sender)
        if member is None:
            return Outcome("quarantined", f"{letter.sender} wrote to league {league.id} without being a member")
        if not found.secret or member_secret_hash(league.id, member.address, found.secret) != member.secret_hash:
            return self._receipt(session, league, letter.sender, [
                "League commands need your league SECRET (it is in your welcome mail); nothing was done."])
        commands = found.commands or [("STANDINGS", "")]
        lines = [self._member_command(session, league, member.address, command, argument)
                 for command, argument in commands]
        outcome = self._receipt(session, league, letter.sender, lines)
        if any(command == "STANDINGS" for command, _ in commands):
            view = build_view(session, self.registry, league)
            outcome.replies.append(self.letters.standings_to(session, view, letter.sender))
        return outcome

    def _member_command(self, session: Session, league: League, address: str, command: str, argument: str) -> str:
        if command not in names_for(MEMBER):
            return f"{command} is not a league command for members."
        problem = BY_NAME[command].argument_problem(argument)
        if problem:
            return problem
        member = self.office.member(session, league, address)
        now = self.clock.now()
        try:
            if command == "WITHDRAW":
                self.office.leave(session, league, address, "withdrawn")
                games = self.reserves.vacate(session, league, member, now)
                held = f" Your seat in {', '.join(games)} is offered to the reserves." if games else ""
                return f"You have withdrawn from {league.name}.{held}"
            if command == "AVAILABILITY":
                member.availability = int(argument) if argument.isdigit() else member.availability
                return f"Availability: {member.availability} league game(s) at once."
            if command == "SIDES":
                member.sides = ",".join(self.office.checked_sides(league, argument.split()))
                return f"Preferred sides: {member.sides.replace(',', ', ')}."
            if command == "RESERVE":
                member.reserve = argument.upper() != "OFF"
                return "You are in the reserve pool." if member.reserve else "You left the reserve pool."
            if command == "ACCEPT":
                return self.reserves.accept(session, league, member, int(argument) if argument.isdigit() else 0, now)
            return self._standings_line(league)
        except LeagueError as error:
            return f"{command}: {error}."
        finally:
            session.add(member)

    @staticmethod
    def _standings_line(league: League) -> str:
        return (f"{league.name} is in round {league.current_round} of {league.rounds} ({league.status}); the "
                f"standings follow in a separate mail (every member gets them after each round too).")

    # ------------------------------------------------------------------ the referee

    def organiser(self, session: Session, letter: Letter, found: LeagueLetter, league: League) -> Outcome:
        if letter.sender != league.referee_address:
            return Outcome("quarantined", f"{letter.sender} wrote as the referee of league {league.id}")
        if not found.secret or member_secret_hash(league.id, "referee", found.secret) != league.referee_secret_hash:
            return self._receipt(session, league, letter.sender,
                                 ["Referee commands need the league's referee SECRET; nothing was done."])
        lines = [self.referee_command(session, league, command, argument) for command, argument in found.commands]
        outcome = self._receipt(session, league, letter.sender, lines or ["No referee command found."], organiser=True)
        if any(command == "STANDINGS" for command, _ in found.commands):
            outcome.replies.append(self.letters.standings_to(session, build_view(session, self.registry, league),
                                                             letter.sender))
        return outcome

    def referee_command(self, session: Session, league: League, command: str, argument: str,
                        strict: bool = False) -> str:
        """One referee command (by mail or by the CLI); returns the answer.  With `strict` (the CLI) a
        command that cannot be carried out raises LeagueError instead of saying why in the answer."""
        if command not in names_for(ORGANISER):
            return self._refused(f"{command} is not a league referee command", strict)
        problem = BY_NAME[command].argument_problem(argument)
        if problem:
            return self._refused(problem, strict)
        words = argument.split()
        now = self.clock.now()
        try:
            if command == "ADD":
                member, secret = self.office.sign_up(session, league, SignUp(words[0].lower(), " ".join(words[1:])),
                                                     by_referee=True)
                self.letters.welcome(session, league, member, secret, titles(self.registry, league))
                return f"{member.address} is a member; their secret was mailed to them."
            if command == "REMOVE":
                member = self.office.leave(session, league, words[0].lower(), "removed")
                games = self.reserves.vacate(session, league, member, now)
                return f"{member.address} was removed." + (f" Seats offered: {', '.join(games)}." if games else "")
            if command == "SEED":
                if not words[1].isdigit():
                    raise LeagueError("SEED needs a whole number: SEED <address> <seed>")
                member = self.office.seed(session, league, words[0].lower(), int(words[1]))
                return f"{member.address} is seeded {member.seed}."
            if command == "START":
                self.office.start_now(session, league)
                return "The sign-up is closed; round 1 is paired at the next pass of the jobs."
            if command == "RESULT":
                return self.rounds.record_result(session, league, words[0], words[1], now)
            return self._standings_line(league)
        except LeagueError as error:
            return self._refused(f"{command}: {error}", strict)

    @staticmethod
    def _refused(problem: str, strict: bool) -> str:
        if strict:
            raise LeagueError(problem)
        return problem.rstrip(".") + "."
