"""Skirmish: a small test-only area game written from docs/adding-a-game.md alone (not in the product registry).

THE RULEBOOK (invented for the tests; the code and the tests cite its sections as §n.n)

§1 Sides.  Two sides play, red and blue.

§2 The map.  The map is 6 to 8 named areas joined by borders (scenario data); two areas that share
   a border are adjacent.  Some areas are VP areas (scenario data).  Each area is controlled by
   one side or by nobody (the scenario gives who controls it at the start).

§3 Units.  Each side has 3 or 4 units, each with a strength of 1 to 3 (scenario data), set up in
   areas its side controls.
   §3.1 Hidden strength.  A side sees its own units' names, strengths and areas; of the enemy it
        sees only how many units stand in each area.  The names and strengths of a side's units are
        its secrets.

§4 Sequence of play.  The game lasts 4 game turns (the scenario's number).  Each turn is the red
   side's phase, then the blue side's phase.
   §4.1 A phase is: movement (§5), then battles (§6), then the end of the phase (§4.2).
   §4.2 At the end of each phase the VP standing is announced.

§5 Movement.  The active side moves its units one at a time: MOVE <unit> TO <area>, to an adjacent
   area, or DONE to end its movement.
   §5.1 A unit moves only to an area adjacent to the one it stands in.
   §5.2 A unit may enter an area holding enemy units: that area becomes a battle (§6).

§6 Battles.  After movement, every area holding both sides' units is a battle, fought one after
   another in map order.  The active side is the attacker, the other the defender.
   §6.1 Each side rolls 1d6 and adds its strength total in the area.
   §6.2 The side with the lower total loses a step on its strongest unit there: its strength
        drops by 1; a unit of strength 1 that loses a step is eliminated.  On equal totals the
        defender holds and nobody loses a step.
   §6.3 The loser then retreats all its units in the area to one adjacent area that it controls
        or that is empty, and that holds no enemy unit: a decision for the loser
        (RETREAT TO <area>, or RETREAT AUTO).

§7 Control.  A side takes control of an area the moment its units stand there alone.

§8 Victory.  At the end of the last turn the side controlling more VP areas wins; equal is a draw.

Where the rulebook is silent (a retreat with nowhere to go, moving a unit twice, which of two
equally strong units loses the step, what happens after a tie) the rulings in RULINGS.md apply.

The modules form layers, lowest first; each imports only from layers below it, at the top:

1. scenario (the data), state (the types of the game state)
2. board (the working copy of a state and the words the rules use)
3. setup (the state at the start)
4. retreat (§6.3), then battle (§6.1-6.2), then movement (§5)
5. sequence (§4, §8: the turn and the phase)
6. orders, conditions, narrate, views (what each role may see and say)
7. bot, engine (the engine contract)
"""
