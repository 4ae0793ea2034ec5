"""A league's games (issue 15: "many games of one or several of our games"): which games it plays,
which one each round plays, and how their seats are filled.

A league declares one game or several, each a registered game with its scenario and rule options.
How a round picks its game: the league keeps a cycle of its games, the declared schedule or, without
one, the games in the order declared, and round r plays entry (r - 1) mod the cycle's length.  A
league of VMT and Narva with no schedule plays VMT in rounds 1, 3, 5 and Narva in rounds 2, 4, 6; a
schedule "vmt vmt narva" plays two rounds of VMT for each round of Narva; a schedule as long as the
league names the game of every round.  Every pairing of a round plays that round's game, so a
round's games start, time out and are rated together, and a member's calendar reads one game a round.

The games of a league must seat alike (one player a side, or teams of as many members), because
the members or teams paired in round 1 are paired again whatever the round plays.  Pairing evens
out seat positions, not sides of one game: a member's first seat is the side the round's engine
lists first (Axis in VMT, German in Narva), and the Swiss pairing balances firsts against seconds
across every game.  Per game would be stricter but cannot be kept: in a five-round league of two
games a member plays one of them two or three times, and pairing by one game's sides alone would
forget the other rounds entirely (docs/leagues.md).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from moderator.league.model import Declaration, DeclaredGame, LeagueError
from moderator.registry import Registry
from moderator.store.league_tables import League


@dataclass(frozen=True)
class Seating:
    """A game's two sides as a league pairs them: each side's name and its seats, one or a team's."""

    names: tuple[str, str]
    roles: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def team_size(self) -> int:
        """Seats a side: 1 pairs members, more pairs teams of that many members."""
        return len(self.roles[0])

    @property
    def every_role(self) -> tuple[str, ...]:
        return self.roles[0] + self.roles[1]

    def side_of(self, role: str) -> int:
        """0 for a role of the first side, 1 for one of the second."""
        return 0 if role in self.roles[0] else 1

    def other_side(self, role: str) -> str:
        return self.names[1 - self.side_of(role)]

    def seats(self, first: Sequence[str], second: Sequence[str]) -> dict[str, str]:
        """Each role's address: the first side's seats to `first` (a team in order), the second's to `second`."""
        return dict(zip(self.roles[0], first, strict=True)) | dict(zip(self.roles[1], second, strict=True))


def seating_for(title: str, sides: Sequence[tuple[str, tuple[str, ...]]]) -> Seating:
    """The two sides of equal seats a league pairs; raises LeagueError naming what the game has instead."""
    if len(sides) != 2 or len(sides[0][1]) != len(sides[1][1]):
        seats = " and ".join(f"{len(roles)} ({name})" for name, roles in sides)
        raise LeagueError(f"leagues pair two sides of as many seats each (a member a seat, or a team a side); "
                          f"{title} has sides of {seats} seats, which are not paired")
    return Seating((sides[0][0], sides[1][0]), (sides[0][1], sides[1][1]))


def seating_of_game(registry: Registry, game: DeclaredGame) -> Seating:
    """The sides and seats of one of a league's games; raises LeagueError for a game a league cannot pair."""
    info = registry.get(game.engine).info
    return seating_for(title_of(registry, game), info.scenario(game.scenario).sides())


def title_of(registry: Registry, game: DeclaredGame) -> str:
    """The game's title as members read it, with its scenario when that is not the game's first."""
    info = registry.get(game.engine).info
    first = info.scenario().name
    return info.title if game.scenario in (None, first) else f"{info.title} ({game.scenario})"


def keys_of(games: Sequence[DeclaredGame]) -> list[str]:
    """Each game's name in a schedule: its id, or id:scenario when the league declares the game twice."""
    count = Counter(game.engine for game in games)
    return [game.engine if count[game.engine] == 1 else f"{game.engine}:{game.scenario}" for game in games]


# ---------------------------------------------------------------------- when a league is made


def resolved(registry: Registry, declaration: Declaration) -> tuple[list[DeclaredGame], list[int]]:
    """The declared games with their scenarios named and every option chosen, and the schedule as
    places in that list.  Raises LeagueError (a game declared twice, games that seat differently, a
    schedule naming a game not declared or leaving one out, a Swiss or ladder league too short to play
    every game), UnknownGame or OptionError."""
    games = []
    for wanted in declaration.games:
        info = registry.get(wanted.engine).info
        games.append(DeclaredGame(wanted.engine, info.scenario(wanted.scenario).name,
                                  info.chosen_options(wanted.options)))
    keys = keys_of(games)
    twice = [key for key, count in Counter(keys).items() if count > 1]
    if twice:
        raise LeagueError(f"{twice[0]} is declared twice; declare each game (and scenario) once")
    check_shapes(registry, games)
    schedule = [key.lower() for key in declaration.schedule]
    unknown = [key for key in schedule if key not in keys]
    if unknown:
        raise LeagueError(f"the schedule names '{unknown[0]}', which is not one of the league's games "
                          f"({', '.join(keys)})")
    unplayed = [key for key in keys if schedule and key not in schedule]
    if unplayed:
        raise LeagueError(f"the schedule never plays {unplayed[0]}; declare only the games it plays")
    cycle = [keys.index(key) for key in schedule] or list(range(len(games)))
    # A round robin's rounds are counted when it starts (one fewer than its members, or twice that).
    if declaration.format in ("swiss", "ladder"):
        unplayed = [keys[place] for place in range(len(games)) if place not in cycle[:declaration.rounds]]
        if unplayed:
            raise LeagueError(f"the league's {declaration.rounds} round(s) never play {unplayed[0]}; declare more "
                              f"rounds or fewer games")
    return games, [keys.index(key) for key in schedule]


def check_shapes(registry: Registry, games: Sequence[DeclaredGame]) -> None:
    """Raises LeagueError unless every game seats two sides alike (one player each, or teams of as many)."""
    seatings = [seating_of_game(registry, game) for game in games]
    if len({seating.team_size for seating in seatings}) > 1:
        shapes = ", ".join(f"{title_of(registry, game)} {_shape(seating)}" for game, seating in zip(games, seatings,
                                                                                                    strict=True))
        raise LeagueError(f"the games of a league must seat alike, so that whoever is paired fits every round: "
                          f"{shapes}")


def _shape(seating: Seating) -> str:
    return "is played one a side" if seating.team_size == 1 else f"by teams of {seating.team_size}"


def games_json(games: Sequence[DeclaredGame]) -> str:
    """The games as the league row keeps them."""
    return json.dumps([{"engine": g.engine, "scenario": g.scenario, "options": g.options} for g in games],
                      sort_keys=True)


# ---------------------------------------------------------------------- a league's rounds


def declared_games(league: League) -> list[DeclaredGame]:
    """The league's games in the order declared."""
    return [DeclaredGame(g["engine"], g.get("scenario"), g.get("options", {})) for g in json.loads(league.games_json)]


def cycle_of(league: League) -> list[int]:
    """The places of the games the rounds play in turn: the schedule, or every game in the order declared."""
    return json.loads(league.schedule_json or "[]") or list(range(len(declared_games(league))))


def game_of_round(league: League, number: int) -> DeclaredGame:
    """The game round `number` plays (round 1's before the league starts)."""
    cycle = cycle_of(league)
    return declared_games(league)[cycle[(max(number, 1) - 1) % len(cycle)]]


def seating_of(registry: Registry, league: League, number: int) -> Seating:
    """The sides and seats of the game of round `number`."""
    return seating_of_game(registry, game_of_round(league, number))


def team_size(registry: Registry, league: League) -> int:
    """Seats a side in every game of the league (they seat alike: `check_shapes`)."""
    return seating_of(registry, league, 1).team_size


def every_side(registry: Registry, league: League) -> list[str]:
    """Every side of every game of the league, each once, in the order declared."""
    sides: list[str] = []
    for game in declared_games(league):
        sides += [name for name in seating_of_game(registry, game).names if name not in sides]
    return sides


def seat_labels(registry: Registry, league: League) -> tuple[str, str]:
    """The first and the second seat named by the sides that sit there, e.g. ("axis/german", "soviet")."""
    firsts: list[str] = []
    seconds: list[str] = []
    for game in declared_games(league):
        first, second = seating_of_game(registry, game).names
        firsts += [first] if first not in firsts else []
        seconds += [second] if second not in seconds else []
    return "/".join(firsts), "/".join(seconds)
