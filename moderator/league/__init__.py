"""Club leagues (issue 15): sign-up, pairings, rounds of games, standings, ratings and reserves."""
