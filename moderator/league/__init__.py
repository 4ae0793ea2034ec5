"""Club leagues (issue 15): sign-up, pairings, rounds of one game or several (games.py), standings, ratings and
reserves."""
