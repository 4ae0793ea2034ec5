"""Test-only games, not in the product registry; tests/kit/games.py runs every kit test over them too.

* `duel` - the smallest engine that meets the contract without the frame machine (hidden hands,
  dice, a face-down commitment, a reaction);
* `skirmish` - an area game with hidden unit strengths written from docs/adding-a-game.md alone, in
  the layout a real game has (its rulebook is its package docstring).
"""
