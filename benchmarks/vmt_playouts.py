"""Benchmark (not a test): how fast complete random VMT games play, engine only.

    .venv/bin/python benchmarks/vmt_playouts.py [GAMES]

Prints each game's steps and time, then the median games per second and steps per second.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from moderator.games.vmt.engine import engine, scenario_named
from tests.playout import random_playout


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    scenario_named("campaign")  # load the scenario once, outside the timing
    rates, step_rates = [], []
    for seed in range(games):
        start = time.perf_counter()
        result = random_playout(engine, seed)
        elapsed = time.perf_counter() - start
        rates.append(1 / elapsed)
        step_rates.append(result.steps / elapsed)
        print(f"game {seed:3d}: {result.steps:4d} answers in {elapsed:6.3f} s")
    print(f"median: {statistics.median(rates):.2f} games/s, {statistics.median(step_rates):.0f} answers/s "
          f"over {games} games (min {min(rates):.2f}, max {max(rates):.2f} games/s)")


if __name__ == "__main__":
    main()
