"""The order grammar of Von Manstein's Triumph: every order and answer, with HELP examples.

Decision kinds (what a standing order or ASK names): setup, place, reinforce, discard, card,
coordinate, assets, move, support, hits, retreat, keep, counterattack, air, cover, escort.
"""

from __future__ import annotations

from moderator.core.conditions import TURN_CONDITION
from moderator.core.grammar import ConditionSpec, Grammar, OrderSpec

SPECS = [
    # -- set-up (free set-up, rulebook "Setting Up the Game")
    OrderSpec("setup", "place", "PLACE <block:block> <area:area>",
              "Free set-up: put one of your blocks in an area (max 3 per area).", ("PLACE 50/121 A04",)),
    OrderSpec("setup", "historical", "SETUP HISTORICAL",
              "Free set-up: put every block not yet placed where the historical set-up has it."),
    OrderSpec("setup", "done", "SETUP DONE", "Free set-up: file it (face down; revealed when both have filed)."),
    # -- reinforcements
    OrderSpec("reinforce", "take", "REINFORCE <what:NEXT|NONE>",
              "Axis, turn 3 on, before any card: take the next reinforcement group (paying its VP) or not.",
              ("REINFORCE NEXT", "REINFORCE NONE")),
    OrderSpec("place", "place", "PLACE <block:block> <area:area>",
              "Place an arriving reinforcement block (Axis: a map-edge area; Soviet: an anchor area).",
              ("PLACE 46/72 A04",)),
    # -- initial bombardment, step a)
    OrderSpec("discard", "cards", "DISCARD <cards:card...>",
              "Initial Bombardment a): discard these cards (not Air Strike, Heavy or Superheavy Artillery).",
              ("DISCARD REDEPLOYMENT",)),
    OrderSpec("discard", "none", "DISCARD NONE", "Initial Bombardment a): discard nothing."),
    # -- the action phase: play a card, pass, or end
    OrderSpec("card", "assault_group", "ASSAULT GROUP <area:area> [TO <target:area>] [USING <using:COUNTERATTACK>]",
              "Play an Assault (or a Counterattack as one) on the blocks in one area; with TO, move them all "
              "into the target and finish the card.", ("ASSAULT GROUP A06", "ASSAULT GROUP A06 TO A08")),
    OrderSpec("card", "assault_division", "ASSAULT DIVISION <division:division> [USING <using:COUNTERATTACK>]",
              "Play an Assault on every block of a division plus the non-divisional blocks stacked with them.",
              ("ASSAULT DIVISION 50",)),
    OrderSpec("card", "redeploy_group", "REDEPLOY GROUP <area:area>",
              "Play a Redeployment on the blocks of one area: each may move up to 4 areas, never into the enemy.",
              ("REDEPLOY GROUP C02",)),
    OrderSpec("card", "redeploy_division", "REDEPLOY DIVISION <division:division>",
              "Play a Redeployment on a division plus the non-divisional blocks stacked with it.",
              ("REDEPLOY DIVISION 172",)),
    OrderSpec("card", "play", "PLAY <card:card> [<mode:ATTACK|INTERDICT>] [<target:area>] [REMOVING <removing:area>]",
              "Play an Order card on a target: HEAVY_ARTILLERY, SUPERHEAVY_ARTILLERY, AIR_STRIKE ATTACK|INTERDICT, "
              "SOVIET_FIELD_ARTILLERY, SOVIET_COASTAL_ARTILLERY (no target: just discard it), FIGHTER_COVER "
              "(the interdicted area to clear).",
              ("PLAY HEAVY_ARTILLERY A08", "PLAY AIR_STRIKE INTERDICT C02")),
    OrderSpec("card", "pass", "PASS [DISCARD <discards:card...>] [WITHDRAW <withdraw:asset...>]",
              "Pass instead of playing: rally every exhausted block, discard any cards, withdraw assets.",
              ("PASS", "PASS DISCARD MORTARS WITHDRAW T26A")),
    OrderSpec("card", "end", "END", "End your action phase (after playing at least one card)."),
    # -- activation
    OrderSpec("coordinate", "add", "COORDINATE <division:division> [USING <using:COUNTERATTACK>]",
              "Coordinated Assault: play another Assault to add a division stacked with the activated ones.",
              ("COORDINATE 50 USING COUNTERATTACK",)),
    OrderSpec("coordinate", "none", "COORDINATE NONE", "No (further) coordinated division."),
    OrderSpec("assets", "place",
              "ASSETS [ARMOR <armor:asset> <armor_area:area>] [PIONEER <pioneer:asset> <pioneer_area:area>]",
              "Place up to one Armor and one Pioneer from your pool with your blocks, before moving.",
              ("ASSETS ARMOR PZ3 A04 PIONEER APIOA A04",)),
    OrderSpec("assets", "none", "ASSETS NONE", "Place no assets."),
    OrderSpec("move", "move", "MOVE <blocks:block...> TO <to:area> [VIA <via:area...>] [WITH <with_assets:asset...>]",
              "Move activated blocks (and assets that began with them) to an area; entering the enemy attacks.",
              ("MOVE 50/121 50/122 24/31 TO A08 WITH PZ3 APIOA", "MOVE 28/49 TO B05 VIA B10")),
    OrderSpec("move", "resolve", "RESOLVE <area:area>",
              "Divisional activation: fight the combat in that area now (all the blocks you wanted are in).",
              ("RESOLVE A08",)),
    OrderSpec("move", "storm", "STORM <area:area>",
              "Attack the undestroyed battery of an area with no Soviet block, with your activated blocks there.",
              ("STORM C08",)),
    OrderSpec("move", "done", "DONE", "Finish this card's activation (pending combats are fought first)."),
    # -- combat
    OrderSpec("support", "cards", "SUPPORT <cards:card...>",
              "Commit Combat Support cards face down to the combat.", ("SUPPORT AXIS_FIELD_ARTILLERY GOLIATH",)),
    OrderSpec("support", "none", "SUPPORT NONE", "Commit no Combat Support card."),
    OrderSpec("hits", "auto", "HITS AUTO", "Let the moderator allocate your casualties (strongest block first)."),
    OrderSpec("hits", "list", "HITS <blocks:block...>",
              "Allocate your casualties: one block per hit, in order (the first hit must go to a strongest block).",
              ("HITS 50/121 24/32",)),
    OrderSpec("retreat", "auto", "RETREAT AUTO",
              "Retreat as a careful player would: as many blocks as can, with the fewest losses, split over "
              "several areas when no one area has room for all."),
    OrderSpec("retreat", "to",
              "RETREAT [<blocks:block...>] TO <to:area> [AND <blocks2:block...> TO <to2:area>] "
              "[AND <blocks3:block...> TO <to3:area>] [LOSSES <losses:block...>]",
              "Retreat blocks (all remaining if none named) to an area, or split them with AND, each group to "
              "its own area (extra losses are per group, Armor and Pioneer go with the first group); "
              "LOSSES names who takes the extra losses.",
              ("RETREAT TO A12", "RETREAT Perekop TO A12 AND 25/54 TO A06")),
    OrderSpec("keep", "auto", "KEEP AUTO", "After an over-stacked victory, keep the 3 strongest; the rest go home."),
    OrderSpec("keep", "list", "KEEP <blocks:block...>", "Keep these (at most 3) in the conquered area.",
              ("KEEP 50/121 50/122 24/32",)),
    # -- reactions
    OrderSpec("counterattack", "group", "COUNTERATTACK GROUP <area:area> [TO <target:area>]",
              "React with a Counterattack card on the blocks of one area (TO: move them all into the target).",
              ("COUNTERATTACK GROUP A12 TO A08",)),
    OrderSpec("counterattack", "division", "COUNTERATTACK DIVISION <division:division>",
              "React with a Counterattack card on a division.", ("COUNTERATTACK DIVISION 25",)),
    OrderSpec("counterattack", "none", "COUNTERATTACK NONE", "No counterattack."),
    OrderSpec("air", "strike", "AIRSTRIKE <mode:ATTACK|INTERDICT> <target:area> [REMOVING <removing:area>]",
              "Axis reaction: Air Strike on the Soviet blocks entering/in an area, or Interdiction there "
              "(REMOVING: relocate a marker when both are on the map).", ("AIRSTRIKE INTERDICT C02",)),
    OrderSpec("air", "none", "AIRSTRIKE NONE", "No air strike now."),
    OrderSpec("cover", "play", "COVER", "Soviet reaction: Fighter Cover cancels the Air Strike just played."),
    OrderSpec("cover", "none", "COVER NONE", "No Fighter Cover."),
    OrderSpec("escort", "play", "ESCORT", "Axis reaction: Fighter Escort cancels the Fighter Cover just played."),
    OrderSpec("escort", "none", "ESCORT NONE", "No Fighter Escort."),
]

CONDITIONS = [
    ConditionSpec("WON", "", "you won the combat just fought"),
    ConditionSpec("LOST", "", "you lost the combat just fought"),
    ConditionSpec("AREA", "<area>", "the question is about that area (the combat area, the entered area)"),
    ConditionSpec("ATTACKERS", "<n>", "at least n blocks attack (in the combat being asked about)"),
    ConditionSpec("DEFENDING", "", "you defend in the combat being asked about"),
    ConditionSpec("ATTACKING", "", "you attack in the combat being asked about"),
    ConditionSpec("ARMOR", "", "enemy armor takes part in the combat"),
    ConditionSpec("ENEMY_CARDS", "<n>", "the enemy committed at least n cards face down"),
    ConditionSpec("COUNTERATTACKED", "", "the combat just fought was the enemy's counterattack in your phase"),
    ConditionSpec("HOLD", "<card>", "you hold that card"),
    ConditionSpec("CONTROL", "<area>", "you control that area"),
    TURN_CONDITION,
]

KIND_TITLES = {
    "setup": "Free set-up", "reinforce": "Reinforcements", "place": "Placing reinforcements",
    "discard": "Initial Bombardment: discards", "card": "Your action phase: play, pass or end",
    "coordinate": "Coordinated Assault", "assets": "Armor and Pioneer counters", "move": "Moving activated blocks",
    "support": "Combat Support (face down)", "hits": "Casualties", "retreat": "Retreat", "keep": "Over-stack",
    "counterattack": "Counterattack (reaction)", "air": "Air Strike (Axis reaction)",
    "cover": "Fighter Cover (Soviet reaction)", "escort": "Fighter Escort (Axis reaction)",
}

GRAMMAR = Grammar(SPECS, CONDITIONS, KIND_TITLES)
