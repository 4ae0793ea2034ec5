"""200 random playouts of the basic game and 100 of the advanced game (issue 14): each ends with an outcome,
every answer re-parses to itself, and at every change of phase no role's view names a card in the other
role's hand (the kit's playouts do the same through the rendered reports for 20 games); the benchmark
prints games per second."""

from __future__ import annotations

import time

import pytest

from moderator.core.contract import OBSERVER
from moderator.games.stalingrad.engine import engine
from tests.playout import names_in, random_playout


class ViewLeaks:
    """At each phase label change, no role's view names a card only another role holds."""

    def __init__(self):
        self.label = ""
        self.checked = 0

    def __call__(self, state, role, text, events):
        label = engine.phase_label(state)
        if label == self.label:
            return
        self.label = label
        # Every card copy is in one place: an intercepted card discarded twice (once by the Intercept, again
        # in the Aftermath after a reshuffle had dealt it back) sat in a hand and a Discard Pile at once.
        places = [card for side in ("german", "soviet") for pile in ("hand", "deck", "discard")
                  for card in state["sides"][side][pile]]
        assert len(places) == len(set(places)), sorted(c for c in set(places) if places.count(c) > 1)
        for viewer in ("german", "soviet", OBSERVER):
            seen = names_in(dict(engine.view(state, viewer)))
            for owner in ("german", "soviet"):
                if owner != viewer:
                    hidden = engine.secrets(state, owner)
                    assert not hidden & seen, (viewer, owner, hidden & seen)
                    self.checked += len(hidden)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "games"), [("basic", 200), ("advanced", 100)])
def test_random_games_end_without_leaks(capsys, game, games):
    start = time.perf_counter()
    winners = {"german": 0, "soviet": 0}
    checked = 0
    for seed in range(games):
        leaks = ViewLeaks()
        result = random_playout(engine, 5000 + seed, options={"game": game}, on_step=leaks)
        outcome = engine.outcome(result.state)
        assert outcome is not None and outcome.reason
        winners[outcome.winner] += 1
        checked += leaks.checked
    rate = games / (time.perf_counter() - start)
    with capsys.disabled():
        print(f"\n  stalingrad: {games} random {game} games, {rate:.1f} games/s with view leak checks; "
              f"wins {winners}; {checked} hidden cards checked")
    assert checked > games
