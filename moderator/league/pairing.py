"""The formats' pairings (issue 15): round robin (single, and double with the sides swapped), Swiss
(no rematch, sides balanced, one bye at most each, by maximum-weight matching; members below the
league's pairing reliability among themselves), and a challenge ladder.

Swiss pairing is a matching problem: members are nodes, every pair that has not met yet is an edge
whose weight prefers equal scores and opposite side wishes, and a bye is one more node that only
members without a bye may take (the lowest scores first).  networkx finds the maximum-cardinality
matching of greatest weight; a round with no complete matching raises PairingImpossible instead
of forcing a rematch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from moderator.league.model import Entrant, Pairing, PairingImpossible, Played

BYE = -1  # the bye's node in the matching graph (member ids are positive)


# ---------------------------------------------------------------------- round robin


def round_robin(member_ids: Sequence[int], double: bool = False) -> list[list[Pairing]]:
    """Every round of a round robin (Berger tables, the circle method); with `double` a second cycle
    follows in which every pairing is played again with the sides swapped.  With an odd number of
    members each round one member has a bye."""
    players: list[int | None] = list(member_ids)
    if len(players) < 2:
        raise PairingImpossible("a round robin needs at least two members")
    if len(players) % 2:
        players.append(None)
    count = len(players)
    rounds: list[list[Pairing]] = []
    circle = players[:-1]
    fixed = players[-1]
    for number in range(count - 1):
        rotated = circle[number:] + circle[:number]
        # The fixed member alternates sides; the others keep the side their place on the circle gives.
        pairs: list[tuple[int | None, int | None]] = [(fixed, rotated[0]) if number % 2 else (rotated[0], fixed)]
        for index in range(1, count // 2):
            pairs.append((rotated[index], rotated[count - 1 - index]))
        rounds.append([_pairing(first, second) for first, second in pairs if first is not None or second is not None])
    if double:
        rounds += [[p if p.is_bye else Pairing(p.second, p.first) for p in cycle]  # type: ignore[arg-type]
                   for cycle in rounds]
    return rounds


def _pairing(first: int | None, second: int | None) -> Pairing:
    if first is None:
        assert second is not None
        return Pairing(second, None)
    return Pairing(first, second)


# ---------------------------------------------------------------------- Swiss


@dataclass
class History:
    """What a member's earlier rounds say for pairing: points, opponents met, sides played, a bye."""

    points: float = 0.0
    met: set[int] = field(default_factory=set)
    firsts: int = 0
    seconds: int = 0
    last_side: str = ""
    had_bye: bool = False

    @property
    def side_wish(self) -> int:
        """Positive: this member should play the first side next; negative: the second."""
        return self.seconds - self.firsts


def histories(member_ids: Sequence[int], played: Sequence[Played]) -> dict[int, History]:
    """Each member's history from the pairings played so far (pending ones count as met, not scored)."""
    seen = {member_id: History() for member_id in member_ids}
    for game in played:
        for member_id in (game.first, game.second):
            if member_id is None or member_id not in seen:
                continue
            history = seen[member_id]
            history.points += game.points_of(member_id) or 0.0
            if game.second is None:
                history.had_bye = True
                continue
            history.met.add(game.opponent_of(member_id))  # type: ignore[arg-type]
            if member_id == game.first:
                history.firsts += 1
                history.last_side = "first"
            else:
                history.seconds += 1
                history.last_side = "second"
    return seen


def swiss_round(entrants: Sequence[Entrant], played: Sequence[Played]) -> list[Pairing]:
    """The next Swiss round: no rematch, equal scores together, sides evened, at most one bye each.
    Raises PairingImpossible when no such pairing exists."""
    ids = [entrant.member_id for entrant in entrants]
    doubtful = frozenset(entrant.member_id for entrant in entrants if not entrant.reliable)
    seen = histories(ids, played)
    rank = {entrant.member_id: index for index, entrant in
            enumerate(sorted(entrants, key=lambda e: (-seen[e.member_id].points, e.seed)))}
    # Near scores first (a sparse graph matches much faster); every pair only if that leaves someone out.
    lowest = min((seen[m].points for m in ids if not seen[m].had_bye), default=0.0)
    # Sides are a hard limit (nobody three games more on one side) until only a softer try can pair
    # everyone; the windowed try must also give the bye to a lowest score, else the wider one decides.
    for window, strict_sides in ((_NEAR, True), (None, True), (None, False)):
        graph = _graph(ids, seen, rank, window, strict_sides, doubtful)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        bye_to = [a if b == BYE else b for a, b in matching if BYE in (a, b)]
        if 2 * len(matching) == graph.number_of_nodes() and all(seen[m].points == lowest for m in bye_to):
            break
        if window is None and 2 * len(matching) == graph.number_of_nodes():
            break
    else:
        raise PairingImpossible(f"no pairing of {len(ids)} members avoids a rematch or a second bye")
    pairings = [_sided(a, b, seen, rank) for a, b in matching]
    return sorted(pairings, key=lambda p: (p.is_bye, min(rank[p.first], rank.get(p.second or 0, len(ids)))))


_BASE = 1_000_000
#: The first try pairs only members within a point and this many places of each other.
_NEAR = 12
#: A reliable member paired with one below the league's pairing reliability costs more than half a
#: point between them and less than a whole one: the unreliable are paired among themselves within a point.
_MIXED_RELIABILITY = 30_000


def _graph(ids: Sequence[int], seen: dict[int, History], rank: dict[int, int], window: int | None,
           strict_sides: bool = True, doubtful: frozenset[int] = frozenset()) -> nx.Graph:
    """The pairs allowed this round (no rematch; with a `window`, only near scores and ranks; with
    `strict_sides`, no pair that would leave one of them three games more on one side), and the bye;
    a pair of one `doubtful` (unreliable) member and one reliable member weighs less."""
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for index, a in enumerate(ids):
        for b in ids[index + 1:]:
            if b in seen[a].met or (window is not None and (abs(seen[a].points - seen[b].points) > 1.0
                                                            or abs(rank[a] - rank[b]) > window)):
                continue
            if strict_sides and _too_uneven(seen[a], seen[b]):
                continue
            mixed = _MIXED_RELIABILITY if (a in doubtful) != (b in doubtful) else 0
            graph.add_edge(a, b, weight=_pair_weight(seen[a], seen[b], rank[a], rank[b]) - mixed)
    if len(ids) % 2:
        graph.add_node(BYE)
        for member_id in ids:
            if not seen[member_id].had_bye:
                # The bye goes to the lowest score (above any other wish), then the lowest rank.
                graph.add_edge(member_id, BYE, weight=_BASE - int(seen[member_id].points * 2) * 100 * _BASE
                               + rank[member_id])
    return graph


def _too_uneven(a: History, b: History) -> bool:
    """Both already two games more on the same side: whoever takes it again would be three over."""
    return a.side_wish * b.side_wish > 0 and min(abs(a.side_wish), abs(b.side_wish)) >= 2


def _pair_weight(a: History, b: History, rank_a: int, rank_b: int) -> int:
    """Higher for a better pairing: equal points first, then side wishes that fit, then near ranks."""
    score_gap = abs(a.points - b.points) * 2  # in half points
    weight = _BASE - int(score_gap * score_gap) * 10_000
    if a.side_wish * b.side_wish > 0:  # both want the same side: one of them grows more uneven
        uneven = min(abs(a.side_wish), abs(b.side_wish)) + 1
        weight -= 5_000 if uneven < 3 else 400_000  # two games more on one side is the most allowed
        if a.last_side == b.last_side:
            weight -= 2_000
    return weight - abs(rank_a - rank_b)


def _sided(a: int, b: int, seen: dict[int, History], rank: dict[int, int]) -> Pairing:
    """Put the member who most needs the first side on it (the bye has no side)."""
    if BYE in (a, b):
        return Pairing(b if a == BYE else a, None)
    key_a = (seen[a].side_wish, seen[a].last_side == "second", -rank[a])
    key_b = (seen[b].side_wish, seen[b].last_side == "second", -rank[b])
    return Pairing(a, b) if key_a >= key_b else Pairing(b, a)


# ---------------------------------------------------------------------- challenge ladder


def ladder_round(ladder: Sequence[int], number: int) -> list[Pairing]:
    """Each member challenges the one just above them: rungs 2v1, 4v3, … in odd rounds and 3v2, 5v4, …
    in even ones, so everyone may climb; the challenger plays the first side in odd rounds."""
    start = 0 if number % 2 else 1
    pairings = []
    for upper in range(start, len(ladder) - 1, 2):
        challenger, holder = ladder[upper + 1], ladder[upper]
        pairings.append(Pairing(challenger, holder) if number % 2 else Pairing(holder, challenger))
    return pairings


def ladder_after(ladder: Sequence[int], played: Sequence[Played]) -> list[int]:
    """The ladder after a round: a challenger who beat the member above takes their rung."""
    order = list(ladder)
    for game in played:
        if game.second is None or game.result not in ("first", "second"):
            continue
        winner = game.first if game.result == "first" else game.second
        loser = game.opponent_of(winner)
        if loser is None or winner not in order or loser not in order:
            continue
        upper, lower = sorted((order.index(winner), order.index(loser)))
        if order[lower] == winner:
            order[upper], order[lower] = order[lower], order[upper]
    return order
