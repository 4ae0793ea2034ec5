"""Across the Narva (Estonia 1944): a hex-and-counter game with one chit cup for both sides.

The modules form layers; each imports only from layers below it, at the top of the module (a
module's own layer is listed left to right where one needs another):

 1. scenario (the counters, map and tables as data), state (the types of the game state)
 2. board (the working copy of a state and the vocabulary the rules use)
 3. setup (the state at the start, the scenarios loaded once), supply (10.0)
 4. hq (command range 4.2.4, displacement and overruns 11.1), then movement (6.0), losses (9.4)
 5. retreat (9.5), then combat (9.0-9.4, 9.6), then barrage (2.5.1), advance (9.6)
 6. activation (4.0, moves and attacks), then reinforce (8.0), actions (2.5, 11.2)
 7. command (4.1-4.2, the Command Phase), sequence (3.0, the Sequence of Play, 13.0)
 8. orders, conditions, narrate, views (what each role may see and say)
 9. mapdraw_style, mapdraw_frame, mapdraw_units, mapdraw_base, mapdraw (the map images)
10. bot, engine (the engine contract of DESIGN §3)
"""
