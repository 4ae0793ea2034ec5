"""Club ratings with maintained libraries (issue 15): Glicko-2 for two-player games (the `glicko2`
package), OpenSkill's Plackett–Luce model for games played by teams (the `openskill` package).

A league round is one Glicko-2 rating period: each member's games of the round are rated together
against the opponents' ratings as they stood before the round, and a member who played no game only
grows less certain (their deviation widens).  Ratings are kept per game and overall ("*").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import glicko2
from openskill.models import PlackettLuce

OVERALL = "*"


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating on the familiar scale: rating, deviation and volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True)
class RatedGame:
    """One two-player game of a rating period: `score` is what `first` scored (1, ½ or 0)."""

    first: str
    second: str
    score: float


def glicko_period(ratings: Mapping[str, Glicko], games: Sequence[RatedGame],
                  everyone: Sequence[str] = ()) -> dict[str, Glicko]:
    """Every rating after one period of `games`; `everyone` adds members who did not play (their
    deviation widens).  Members never rated start at the library's defaults."""
    before = {key: ratings.get(key, Glicko()) for key in {*everyone, *(g.first for g in games),
                                                          *(g.second for g in games)}}
    results: dict[str, list[tuple[Glicko, float]]] = {key: [] for key in before}
    for game in games:
        results[game.first].append((before[game.second], game.score))
        results[game.second].append((before[game.first], 1.0 - game.score))
    after = {}
    for key, rating in before.items():
        player = glicko2.Player(rating=rating.rating, rd=rating.deviation, vol=rating.volatility)
        faced = results[key]
        if faced:
            player.update_player([r.rating for r, _ in faced], [r.deviation for r, _ in faced],
                                 [score for _, score in faced])
        else:
            player.did_not_compete()
        after[key] = Glicko(player.rating, player.rd, player.vol)
    return after


@dataclass(frozen=True)
class Skill:
    """An OpenSkill rating: mean and uncertainty; `ordinal` is the conservative figure shown."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


def team_game(teams: Sequence[Sequence[Skill]], ranks: Sequence[float], tau: float | None = None) -> list[list[Skill]]:
    """Each team member's rating after one game of teams; lower `ranks` placed better (equal ranks
    draw).  `tau` is the library's additive dynamics (None: its default)."""
    model = PlackettLuce() if tau is None else PlackettLuce(tau=tau)
    rated = model.rate([[model.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=list(ranks))
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]
