"""Von Manstein's Triumph (rules cited as L<line> of the rulebook).

The modules form layers, lowest first; each imports only from the layers below it, and none
imports another moderator module inside a function (tests/games/vmt/test_module_layers.py holds
them to this list):

1. ``scenario``, ``state``, ``orders``, ``narrate``, ``conditions``: data, types, grammar and prose
2. ``board``: the state with the vocabulary the rules read and change it by
3. ``lexicon``: the names a role's orders may use
4. ``frames``: the frame helpers every handler uses
5. ``cards``: decks, hands, draws and refills
6. ``entering``: what Soviet blocks entering an area set off (Interdiction, the Air Strike window)
7. ``retreat``: step 7 of a combat
8. ``combat``: the combat procedure and the battery assault
9. ``activation``: Assault, Counterattack, Redeployment and their moves, which open combats
10. ``fire``: Order cards, the Air Strike and its answers, the reaction windows
11. ``cardplay``: the cards a player may play in his phase, and what a play starts
12. ``sequence``: the action phase, its end, the turn, reinforcements and victory
13. ``setup``: the set-up and the Initial Bombardment
14. ``views``: what each role sees

Above them ``engine`` puts the game together for the services, with ``mapdraw`` and ``bot``.

A lower step that hands over to a higher one pushes a frame and lets the engine's handler table
answer it: a combat over opens the Counterattack window, a move or a retreat the Air Strike window,
and the ``fire`` module's Window handler starts the Counterattack or the Air Strike.
"""
