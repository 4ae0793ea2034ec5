"""Benchmark (not a test): how fast complete random Across the Narva games play, engine only.

    .venv/bin/python benchmarks/narva_playouts.py [GAMES]

Random legal answers that prefer acting (the playout tests' chooser).  Prints each game's answers,
time and end, then the median games per second and answers per second; and, in the same run, the
median time of one answer split into choosing (listing legal orders) and applying it.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from moderator.core.rng import RngRecord
from moderator.games.narva.engine import engine, scenario_named
from tests.games.narva.test_playouts import active_choice


def play(seed: int) -> tuple[int, float, float, float, str]:
    pick = random.Random(seed)
    rng = RngRecord(f"bench-{seed}", seed.to_bytes(32, "big"), ["b"]).rng()
    state = engine.setup("campaign", {}, rng)
    choosing = applying = 0.0
    steps = 0
    while engine.outcome(state) is None:
        start = time.perf_counter()
        decision = pick.choice(engine.pending(state))
        order = active_choice(pick, engine.legal_orders(state, decision))
        middle = time.perf_counter()
        state, _ = engine.apply(state, decision.role, order, rng)
        applying += time.perf_counter() - middle
        choosing += middle - start
        steps += 1
    return steps, choosing + applying, choosing, applying, engine.outcome(state).reason


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    scenario_named("campaign")  # load the scenario once, outside the timing
    rates, step_rates, apply_ms, choose_ms = [], [], [], []
    for seed in range(games):
        steps, elapsed, choosing, applying, reason = play(seed)
        rates.append(1 / elapsed)
        step_rates.append(steps / elapsed)
        apply_ms.append(1000 * applying / steps)
        choose_ms.append(1000 * choosing / steps)
        print(f"game {seed:3d}: {steps:5d} answers in {elapsed:6.2f} s  ({reason})")
    print(f"median: {statistics.median(rates):.2f} games/s, {statistics.median(step_rates):.0f} answers/s over "
          f"{games} games (min {min(rates):.2f}, max {max(rates):.2f} games/s); per answer: "
          f"{statistics.median(apply_ms):.2f} ms applying, {statistics.median(choose_ms):.2f} ms listing legal orders")


if __name__ == "__main__":
    main()
