"""Benchmark (not a test): a league of 256 members playing 8 Swiss rounds (issue 15).

    .venv/bin/python benchmarks/league.py [MEMBERS] [ROUNDS] [REPETITIONS]

Each repetition pairs every round with the league's Swiss pairing (networkx maximum-weight matching,
moderator/league/pairing.py), plays it with seeded random results (wins, draws, losses), and works
out the standings with Buchholz, Sonneborn-Berger and head to head (moderator/league/standings.py).
Prints, for each round, the median over the repetitions of the pairing time and of the standings
time, then the medians over all rounds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from moderator.league.model import Entrant, Played  # noqa: E402
from moderator.league.pairing import swiss_round  # noqa: E402
from moderator.league.standings import standings  # noqa: E402

TIE_BREAKS = ("buchholz", "sonneborn-berger", "head-to-head")


def one_league(members: int, rounds: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds to pair each round, and to work out the standings after it."""
    rng = random.Random(seed)
    entrants = [Entrant(m, seed=m, rating=rng.gauss(1500, 200)) for m in range(1, members + 1)]
    seeds = [(e.member_id, e.seed) for e in entrants]
    played: list[Played] = []
    pairing_times, standing_times = [], []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        pairings = swiss_round(entrants, played)
        pairing_times.append(time.perf_counter() - start)
        played += [Played(number, p.first, p.second, "bye" if p.is_bye else rng.choice(["first", "second", "draw"]))
                   for p in pairings]
        start = time.perf_counter()
        standings(seeds, played, TIE_BREAKS)
        standing_times.append(time.perf_counter() - start)
    return pairing_times, standing_times


def main() -> None:
    members = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    repetitions = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    runs = [one_league(members, rounds, seed) for seed in range(repetitions)]
    print(f"{members} members, {rounds} Swiss rounds, {repetitions} repetitions (medians)")
    print(f"{'round':>5}  {'pairing (s)':>11}  {'standings (s)':>13}")
    for number in range(rounds):
        pairing = statistics.median(run[0][number] for run in runs)
        table = statistics.median(run[1][number] for run in runs)
        print(f"{number + 1:>5}  {pairing:>11.3f}  {table:>13.4f}")
    every_pairing = [t for run in runs for t in run[0]]
    every_table = [t for run in runs for t in run[1]]
    print(f"  all  {statistics.median(every_pairing):>11.3f}  {statistics.median(every_table):>13.4f}")


if __name__ == "__main__":
    main()
