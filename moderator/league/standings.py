"""Standings with declared tie-breaks (issue 15), and each member's record on each side.

A win is 1 point, a draw ½, a loss 0, a bye 1.  Members level on points are ordered by the league's
tie-breaks in the order declared:

- Buchholz: the sum of the points of every opponent met (byes count no opponent);
- Sonneborn–Berger: for each game, the points scored in it times that opponent's points;
- head to head: the points scored in the games between the members still level, which is why it is
  worked out inside each group of level members rather than once for everyone;
- wins: the number of games won over the board (byes are not wins).

Members still level after every tie-break keep their seed order (share the place in the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator.league.model import Played, TieBreak


@dataclass
class Row:
    """One member's line of the standings."""

    member_id: int
    place: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    tie_breaks: dict[str, float] = field(default_factory=dict)
    sides: dict[str, list[int]] = field(default_factory=dict)  # side -> [won, drawn, lost]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def side_record(self, side: str) -> str:
        """'2-1-0': won, drawn and lost on `side`."""
        won, drawn, lost = self.sides.get(side, [0, 0, 0])
        return f"{won}-{drawn}-{lost}"


def standings(members: Sequence[tuple[int, int]], played: Sequence[Played], tie_breaks: Sequence[TieBreak],
              sides: tuple[str, str] = ("first", "second")) -> list[Row]:
    """The table: `members` are (member id, seed) pairs; `played` the finished pairings (pending
    ones are left out); `sides` name the game's two sides for the per-side records."""
    finished = [game for game in played if game.result != "pending"]
    rows = {member_id: Row(member_id, sides={side: [0, 0, 0] for side in sides}) for member_id, _ in members}
    for game in finished:
        _score(rows, game, sides)
    points = {member_id: row.points for member_id, row in rows.items()}
    games_of: dict[int, list[Played]] = {member_id: [] for member_id in rows}
    for game in finished:
        for member_id in {game.first, game.second} & games_of.keys():
            games_of[member_id].append(game)  # type: ignore[index]
    for row in rows.values():
        row.tie_breaks = {name: _static(name, row.member_id, games_of[row.member_id], points, row)
                          for name in tie_breaks if name != "head-to-head"}
    seeds = dict(members)
    ordered = _order(list(rows), ["points", *tie_breaks], rows, games_of, seeds)
    table: list[Row] = []
    for group in ordered:  # members still level after every tie-break share a place
        for member_id in group:
            rows[member_id].place = len(table) - group.index(member_id) + 1
            table.append(rows[member_id])
    return table


def _score(rows: dict[int, Row], game: Played, sides: tuple[str, str]) -> None:
    for member_id, side in ((game.first, sides[0]), (game.second, sides[1])):
        if member_id is None or member_id not in rows:
            continue
        row = rows[member_id]
        points = game.points_of(member_id) or 0.0
        row.points += points
        if game.result == "bye":
            row.byes += 1
            continue
        column = {1.0: 0, 0.5: 1, 0.0: 2}[points]
        row.sides[side][column] += 1
        if column == 0:
            row.wins += 1
        elif column == 1:
            row.draws += 1
        else:
            row.losses += 1


def _static(name: str, member_id: int, played: Sequence[Played], points: dict[int, float], row: Row) -> float:
    """A tie-break that does not depend on who else is level: Buchholz, Sonneborn–Berger, wins."""
    if name == "wins":
        return float(row.wins)
    total = 0.0
    for game in played:
        scored = game.points_of(member_id)
        opponent = game.opponent_of(member_id)
        if scored is None or opponent is None or game.result == "bye":
            continue
        total += points.get(opponent, 0.0) * (scored if name == "sonneborn-berger" else 1.0)
    return total


def head_to_head(member_id: int, group: Sequence[int], played: Sequence[Played]) -> float:
    """The points `member_id` scored against the other members of `group` (`played`: their games)."""
    others = set(group) - {member_id}
    return sum(game.points_of(member_id) or 0.0 for game in played
               if game.result != "bye" and game.opponent_of(member_id) in others)


def _order(group: list[int], criteria: Sequence[str], rows: dict[int, Row], games_of: dict[int, list[Played]],
           seeds: dict[int, int]) -> list[list[int]]:
    """`group` split into ordered sub-groups, each still level on every criterion."""
    if len(group) == 1 or not criteria:
        return [sorted(group, key=lambda m: seeds[m])]
    name, rest = criteria[0], criteria[1:]
    if name == "points":
        values = {m: rows[m].points for m in group}
    elif name == "head-to-head":
        values = {m: head_to_head(m, group, games_of[m]) for m in group}
        for m in group:
            rows[m].tie_breaks["head-to-head"] = values[m]
    else:
        values = {m: rows[m].tie_breaks[name] for m in group}
    ordered: list[list[int]] = []
    for value in sorted(set(values.values()), reverse=True):
        ordered += _order([m for m in group if values[m] == value], rest, rows, games_of, seeds)
    return ordered
