"""Teams (issue 15: "games with 3-4 seats ... are paired into teams"): a league of a game with several
seats a side forms its members into teams when the sign-up closes, and from then on pairs, schedules
and ranks the teams as it would members.

A team is kept as its members' ids, the captain first; the captain's id stands for the team in the
pairings (a league game's first and second member), the standings and the ladder, so the formats,
the tie-breaks and the pages need nothing new.  Teams are formed by a snake draft over the seeds
(1st, 2nd, ... then back), which keeps their strengths even; members left over when the count does
not divide become reserves, the first to be offered a seat.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from moderator.store.league_tables import League


def form(member_ids: Sequence[int], size: int) -> tuple[list[list[int]], list[int]]:
    """Teams of `size` from members in seed order (best first) by a snake draft, and the members left over."""
    count = len(member_ids) // size
    teams: list[list[int]] = [[] for _ in range(count)]
    for index, member_id in enumerate(member_ids[:count * size]):
        turn, place = divmod(index, count)
        teams[place if turn % 2 == 0 else count - 1 - place].append(member_id)
    return teams, list(member_ids[count * size:])


def teams_of(league: League) -> dict[int, list[int]]:
    """The league's teams by captain (empty for a league that pairs members)."""
    return {team[0]: team for team in json.loads(league.teams_json or "[]") if team}


def team_with(teams: dict[int, list[int]], member_id: int) -> tuple[int, int] | None:
    """The captain of `member_id`'s team and the member's place in it (its seat), or None."""
    for captain, team in teams.items():
        if member_id in team:
            return captain, team.index(member_id)
    return None


def unit(teams: dict[int, list[int]], member_id: int) -> list[int]:
    """Who plays for a pairing's member: the team `member_id` captains, or that member alone."""
    return teams.get(member_id, [member_id])
