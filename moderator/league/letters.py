"""The league's mail (issue 15): welcomes, round starts, reserve offers, the referee's notes and the
standings after each round.  Each is queued with the caller's transaction through the notices."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session

from moderator.league.report import LeagueView, pairing_lines, table_lines
from moderator.mail.commands import MEMBER, ORGANISER, Audience, commands_for
from moderator.service.notices import Notices
from moderator.store.league_tables import League, LeagueMember
from moderator.store.models import Outbox

MEMBER_ROLE = "member"


def command_help(audience: Audience) -> list[str]:
    """One paragraph per command of the table (mail/commands.py): its usage, then what it does."""
    return [f"{command.usage} -- {command.help_for(audience)}" for command in commands_for(audience)]


def when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "-"


class Letters:
    """Writes the league's mail; needs the notices (which compose and queue it)."""

    def __init__(self, notices: Notices, orders_address: str):
        self.notices = notices
        self.orders_address = orders_address

    def post(self, session: Session, league: League, recipient: str, title: str, paragraphs: Sequence[str],
             envelope: Sequence[str] = (), body: str | None = None) -> Outbox:
        return self.notices.post(session, None, recipient, MEMBER_ROLE, f"{league.name}: {title}", paragraphs,
                                 envelope=envelope, kind="notice", body=body)

    def welcome(self, session: Session, league: League, member: LeagueMember, secret: str, title: str) -> Outbox:
        role = "a reserve" if member.status == "reserve" else "a member"
        paragraphs = [
            f"You are {role} of the league '{league.name}' ({title}, {league.format}, {league.rounds} rounds of "
            f"{league.round_days:g} days). The sign-up closes {when(league.signup_deadline)}; round 1 starts then.",
            f"Your league secret is {secret}. Mail about the league starts with the lines 'LEAGUE {league.id}' "
            f"and 'SECRET {secret}'. Each round's game comes with its own invitation and its own seat secret.",
            "League commands (each on a line of its own, after LEAGUE and SECRET):", *command_help(MEMBER)]
        return self.post(session, league, member.address, "welcome", paragraphs,
                         envelope=[f"LEAGUE {league.id}", f"SECRET {secret}"])

    def receipt(self, session: Session, league: League | None, recipient: str, lines: Sequence[str],
                organiser: bool = False) -> Outbox:
        if organiser:
            lines = [*lines, "Referee commands (after LEAGUE, ROLE referee and SECRET):", *command_help(ORGANISER)]
        title = f"{league.name}: your message" if league else "League: your message"
        return self.notices.post(session, None, recipient, MEMBER_ROLE, title, lines, kind="receipt")

    def round_started(self, session: Session, view: LeagueView, number: int, member: LeagueMember,
                      game_id: str | None, side: str, opponent: str, ends_at: datetime) -> Outbox:
        league = view.league
        if game_id is None:
            title = f"round {number}: a bye"
            prose = [f"Round {number} of {league.name}: you have a bye this round (1 point)."]
        else:
            title = f"round {number}: you play {opponent}"
            prose = [f"Round {number} of {league.name}: you play {opponent} as {side.replace('_', ' ').title()} "
                     f"in {view.plays(number).title}, game {game_id}. The game's invitation, with the JOIN line "
                     f"that takes your seat, comes in a separate mail.",
                     f"The round ends {when(ends_at)}; a game still running then is decided "
                     f"{self._timeout_words(league)}."]
        heading = f"{league.name}: {title}"
        body = [heading, "=" * len(heading), ""]
        for paragraph in prose:
            body += [*textwrap.wrap(paragraph, 72), ""]
        body += ["This round's pairings:", *pairing_lines(view, number), ""]
        return self.post(session, league, member.address, title, [], body="\n".join(body) + "\n")

    @staticmethod
    def _timeout_words(league: League) -> str:
        if league.timeout == "score":
            return "by the game's score at that point (or by the referee, for a game that keeps none)"
        return "by the referee"

    def referee_round(self, session: Session, view: LeagueView, number: int, secrets: dict[str, str],
                      flagged: Sequence[str] = ()) -> Outbox:
        """The round's pairings and game secrets to the referee, flagging the members paired as unreliable."""
        lines = [f"Round {number} of {view.league.name} has started:", *pairing_lines(view, number)]
        if flagged:
            lines += [f"Below the league's pairing reliability ({view.league.pair_reliability:.0%} of deadlines "
                      f"met), so paired among themselves where the format allows: {', '.join(flagged)}."]
        if secrets:
            lines += ["Each game's referee secret, for referee commands by mail (GAME <id>, ROLE referee, SECRET):",
                      *(f"  {game_id}: {secret}" for game_id, secret in sorted(secrets.items()))]
        return self.post(session, view.league, view.league.referee_address, f"round {number} started", lines)

    def standings(self, session: Session, view: LeagueView, number: int, final: bool) -> list[Outbox]:
        """The standings mail to every member after a round (the final one says so)."""
        league = view.league
        title = "final standings" if final else f"standings after round {number}"
        text = self._standings_text(view, title, number, final)
        recipients = sorted({m.address for m in view.members.values() if m.status != "removed"}
                            | {league.referee_address} - {""})
        return [self.post(session, league, address, title, [], body=text) for address in recipients]

    def standings_to(self, session: Session, view: LeagueView, recipient: str) -> Outbox:
        """The standings as they stand now, to one member who asked (STANDINGS)."""
        number = view.league.current_round
        title = f"standings in round {number}" if view.league.status == "running" else "standings"
        return self.post(session, view.league, recipient, title, [],
                         body=self._standings_text(view, title, number, view.league.status == "over"))

    def _standings_text(self, view: LeagueView, title: str, number: int, final: bool) -> str:
        league = view.league
        heading = f"{league.name}: {title}"
        body = [heading, "=" * len(heading), "",
                f"{view.title}, {league.format}, round {number} of {league.rounds}.", "",
                *table_lines(view), "", f"Round {number}:", *pairing_lines(view, number), ""]
        body += self._legend(view)
        if not final and league.current_round > number:
            body += ["", f"Round {league.current_round} pairings (invitations follow):",
                     *pairing_lines(view, league.current_round)]
        return "\n".join(body) + "\n"

    @staticmethod
    def _legend(view: LeagueView) -> list[str]:
        breaks = [t for t in view.league.tie_breaks.split(",") if t]
        text = "Pts: points (win 1, draw ½, bye 1). W-D-L: won, drawn, lost over the board. "
        if breaks:
            text += ("Ties are broken by " + ", then ".join(breaks) + " (Buch: Buchholz, the opponents' points; "
                     "S-B: Sonneborn-Berger; H2H: points against the members still level). ")
        if view.several:
            text += ("The side columns give won-drawn-lost on each seat: the side each game lists first, and "
                     "second. Rating: Glicko-2 across the club and every game (the league page shows each "
                     "game's own).")
        else:
            text += "The side columns give won-drawn-lost on each side. Rating: Glicko-2, across the club."
        return textwrap.wrap(text, 72, break_on_hyphens=False)

    def offer(self, session: Session, league: League, recipient: str, offer_id: int, game_id: str, role: str,
              why: str, expires_at: datetime) -> Outbox:
        return self.post(session, league, recipient, f"a seat to take over in {game_id}", [
            f"A seat is free in {league.name}: '{role}' in game {game_id} ({why}).",
            f"As a reserve you may take it over: reply with 'LEAGUE {league.id}', your league SECRET and "
            f"'ACCEPT {offer_id}' before {when(expires_at)}. The first reserve to accept takes the seat, "
            f"with a new secret of its own."], envelope=[f"LEAGUE {league.id}", f"ACCEPT {offer_id}"])

    def to_referee(self, session: Session, league: League, title: str, lines: Sequence[str]) -> Outbox | None:
        if not league.referee_address:
            return None
        return self.post(session, league, league.referee_address, title, lines)
