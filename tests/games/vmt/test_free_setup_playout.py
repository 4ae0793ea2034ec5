"""A random game with the secret free set-up (L95-100): both sides' set-ups are committed face down
before either is revealed, and the game plays to its end."""

from __future__ import annotations

from moderator.games.vmt.engine import engine
from tests.playout import random_playout


def test_a_random_free_setup_game_commits_both_set_ups_and_ends():
    result = random_playout(engine, 1000, options={"setup": "free"})
    assert engine.outcome(result.state) is not None
    assert set(result.state["setup_commitments"]) == {"axis", "soviet"}
