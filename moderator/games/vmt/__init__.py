"""Von Manstein's Triumph (rules cited as L<line> of the rulebook).

The modules form layers, lowest first; each imports only from the layers below it, and none
imports another moderator module inside a function:

1. ``scenario``, ``orders``, ``narrate``, ``conditions``: data, grammar and prose, no rules state
2. ``board``: the state with the vocabulary the rules read and change it by
3. ``lexicon``, ``frames``: the names orders may use; the frame helpers every handler uses
4. ``cards``: decks, hands, draws and refills
5. ``entering``: what Soviet blocks entering an area set off (Interdiction, the Air Strike window)
6. ``retreat``: step 7 of a combat
7. ``combat``: the combat procedure and the battery assault
8. ``activation``: Assault, Counterattack, Redeployment and their moves, which open combats
9. ``fire``: Order cards, the Air Strike and its answers, the reaction windows
10. ``cardplay``: which cards a player may play in his phase, and what a play starts
11. ``sequence``: the action phase, its end, the turn, reinforcements and victory
12. ``setup``: the set-up and the Initial Bombardment
13. ``views``, ``mapdraw``, ``engine``, ``bot``: what each role sees, and the engine contract

A lower step that hands over to a higher one pushes a frame and lets the engine's handler table
answer it: a combat over opens the Counterattack window, a move or a retreat the Air Strike window,
and the ``fire`` module's Window handler starts the Counterattack or the Air Strike.
"""
