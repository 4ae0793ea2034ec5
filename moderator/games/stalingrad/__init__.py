"""The Hell of Stalingrad (Clash of Arms): a card game on four districts of building cards (issue 14).

The rulebook is ../shared/rulebooks/hell-of-stalingrad.txt, cited by its headings as §<heading>
(the table is in RULINGS.md); rulings are `ruling S-…`.

Built: the basic game (3 turns) and the advanced game (6 turns, the 24 advanced cards, heroes, Intercept,
Promote, 2nd actions), two players; the four-player game (§Four Player: scenario `four-player`, a seat per
commander, rulings S-28 to S-31 and S-81 to S-83).

The modules form layers, lowest first; each imports only from layers below it, at the top:

1. scenario (the data), state (the types of the game state), seating (the four-player seats)
2. board (the working copy of a state and the words the rules use)
3. setup (the state at the start), teams (the four-player seats at the table, their hands and formations)
4. tracks, queue (the effects queue, Overrun), then advanced and heroes (§Advanced, §Heroes), then effects
   (the icon primitives, Terror Tactics, spillover, sniper shots, deplete/supply)
5. actions (Play, Reload, Hold), breaktest (§Battle 5), aftermath (§Battle 6)
6. battle (§Battle 1-4: vanguards, intensity, initiative, action rounds, the Intercept window)
7. campaign, maneuver, strategy (§Strategy 1-6 and victory)
8. orders, conditions, narrate, views, mapdraw (what each role may see and say)
9. bot, engine (the engine contract)
"""
