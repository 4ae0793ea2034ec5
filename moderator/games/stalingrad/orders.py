"""The order language of The Hell of Stalingrad: maneuvers and consolidations (§Strategy 4, 6), the battle
order, the action of a round (§Battle 4), a Hold's option (§Carnage C), and the choices inside effects
(casualties, targets, sniper shots, depletions, supplies, overruns, spillover), each with an AUTO answer
a standing order can give.

HELP's examples are orders a player could send (issue 12; tests/kit/test_help_examples.py finds each
legal in some position).  They name card copies of the decks: HELP is the same text for every player
whatever anyone holds, so naming a card there says nothing about any hand.
"""

from __future__ import annotations

from moderator.core.conditions import TURN_CONDITION
from moderator.core.grammar import ConditionSpec, Grammar, OrderSpec


def _auto(kind: str, word: str, what: str) -> OrderSpec:
    return OrderSpec(kind, "auto", f"{word} AUTO", f"The moderator chooses {what} (the rulings' defaults).",
                     (f"{word} AUTO",))


SPECS = [
    OrderSpec("consolidate", "done", "CONSOLIDATE DONE", "No (more) consolidations this turn.", ("CONSOLIDATE DONE",)),
    OrderSpec("consolidate", "into", "CONSOLIDATE <sacrificed:formation> INTO <supplied:formation>",
              "Destroy one depleted formation of your Staging Line to Supply another (§Strategy 4).",
              ("CONSOLIDATE 112RD INTO 39Gd",)),
    _auto("demote", "DEMOTE", "which General a Campaign Card demotes"),
    OrderSpec("demote", "formation", "DEMOTE <formation:formation>",
              "Demote this formation's General (§Campaign Effects).", ("DEMOTE 71ID",)),
    OrderSpec("assault", "done", "ASSAULT DONE", "End your maneuvers (at least one building assaulted, §Strategy 6).",
              ("ASSAULT DONE",)),
    OrderSpec("assault", "with", "ASSAULT <building:building> WITH <formations:formation...>",
              "Maneuver formations from your Staging Line to assault a building (§Strategy 6).",
              ("ASSAULT PavlovsHouse WITH 71ID",)),
    OrderSpec("defend", "done", "DEFEND DONE", "End your maneuvers (§Strategy 6).", ("DEFEND DONE",)),
    OrderSpec("defend", "with", "DEFEND <building:building> WITH <formations:formation...>",
              "Maneuver formations to defend an assaulted building (§Strategy 6).",
              ("DEFEND PavlovsHouse WITH 308RD",)),
    _auto("fight", "FIGHT", "the next battle (district order)"),
    OrderSpec("fight", "building", "FIGHT <building:building>", "Fight this assaulted building's battle next.",
              ("FIGHT PavlovsHouse",)),
    OrderSpec("action", "play", "PLAY <card:card> ON <formation:formation>",
              "Play a Combat Card of your hand on one of your formations in the battle (§Battle 4 A).",
              ("PLAY StormGroup.1 ON 42Bde",)),
    OrderSpec("action", "hero", "PLAY <card:card>",
              "Play a Hero Card of your hand: no formation needed (§Heroes, advanced game).",
              ("PLAY VonLoringhoven.1",)),
    OrderSpec("action", "reload", "RELOAD [DISCARD <discards:card...>] [FIRE <district:district>]",
              "Reload Hand: discard any cards, draw up to your hand size, then your commander's action (§Commanders "
              "B); FIRE names the district of Paulus' fire (this battle's if left out).",
              ("RELOAD", "RELOAD DISCARD NotOneStepBack.2")),
    OrderSpec("action", "hold", "HOLD", "Hold Action: draw a Carnage Card, take one of its two effects (§Battle 4 C).",
              ("HOLD",)),
    _auto("holdpick", "TAKE", "the Hold option (your side's fire or bucket, then Precision Kill, sniper, Kill ...)"),
    OrderSpec("holdpick", "take", "TAKE <which:FIRST|SECOND>", "Take the Hold card's first or second option.",
              ("TAKE FIRST",)),
    _auto("casualty", "LOSE", "your casualty (Rifle, Grenadier, Recon, Motivator first)"),
    OrderSpec("casualty", "units", "LOSE <units:unit...>",
              "Lose the first of these unshielded units you have on the building (§Effects Kill).",
              ("LOSE Rifle Recon",)),
    _auto("target", "TARGET", "the Precision Kill's target (Armor or Fort first)"),
    OrderSpec("target", "units", "TARGET <units:unit...>", "Destroy the first of these enemy units (§Effects).",
              ("TARGET Fort Motivator",)),
    _auto("sniper", "SNIPE", "the sniper's target (a Veteran leader first)"),
    OrderSpec("sniper", "leader", "SNIPE LEADER <formation:formation>",
              "Shoot this formation's leader (a Carnage Card decides, §Sniper).", ("SNIPE LEADER 14Pz",)),
    OrderSpec("sniper", "hero", "SNIPE HERO <hero:hero>", "Shoot this enemy hero (a Carnage Card decides, §Heroes).",
              ("SNIPE HERO OberstSelle.1",)),
    OrderSpec("sniper", "units", "SNIPE <units:unit...>", "Shoot the first of these unshielded units (§Sniper).",
              ("SNIPE Motivator Rifle",)),
    _auto("deplete", "DEPLETE", "the formation depleted (a depleted one first: it is destroyed)"),
    OrderSpec("deplete", "formation", "DEPLETE <formation:formation>", "Deplete this enemy formation (§Deplete A).",
              ("DEPLETE 138RD",)),
    _auto("supply", "SUPPLY", "the formation supplied (one in this battle first)"),
    OrderSpec("supply", "formation", "SUPPLY <formation:formation>", "Supply this depleted formation (§Deplete B).",
              ("SUPPLY 193RD",)),
    _auto("overrun", "OVERRUN", "the overrunning formation (a full-strength one, else none)"),
    OrderSpec("overrun", "none", "OVERRUN NONE", "Use no Overrun.", ("OVERRUN NONE",)),
    OrderSpec("overrun", "formation", "OVERRUN <formation:formation>",
              "Maneuver this formation of your Staging Line into the battle (§Overrun).", ("OVERRUN 92Bde",)),
    OrderSpec("intercept", "none", "INTERCEPT NONE", "Let the card resolve (the default).", ("INTERCEPT NONE",)),
    OrderSpec("intercept", "hero", "INTERCEPT <card:card>",
              "Cancel the card just played with this Intercept hero of your hand (§Heroes).",
              ("INTERCEPT VasilyZaitsev.1",)),
    _auto("promote", "PROMOTE", "the General promoted (one in this battle first)"),
    OrderSpec("promote", "target", "PROMOTE <target:formation>",
              "Promote this formation's Lv. 0 General, or give a leaderless one a Lv. 0 General (§Advanced).",
              ("PROMOTE 76ID",)),
    _auto("tongues", "TONGUES", "the German card discarded by Collecting Tongues"),
    OrderSpec("tongues", "target", "TONGUES <target:foecard>",
              "Collecting Tongues: this card of the German hand shown to you goes to his Discard Pile.",
              ("TONGUES StukaCarpet.1",)),
    _auto("ratswar", "RETRIEVE", "the card Rat's War takes back (the last discarded)"),
    OrderSpec("ratswar", "target", "RETRIEVE <target:discarded>",
              "Rat's War: take this card of your Discard Pile into your hand.", ("RETRIEVE Counterattack.1",)),
    OrderSpec("give", "none", "GIVE NONE", "Keep your cards (four-player game; the default).", ("GIVE NONE",)),
    OrderSpec("give", "cards", "GIVE <cards:card...>",
              "Four-player game: pass these cards of your hand to your teammate for his battle (§Four Player, ruling "
              "S-83).", ("GIVE PanzerBreakthrough.2",)),
    OrderSpec("spillover", "to", "SPILL <where:FIRE|BUCKET|NONE|AUTO|HOLD>",
              "Spillover Damage (§Destroying): advance the Fire or Bucket Counter; HOLD: a Soviet vanguard's Kill "
              "waits for the German vanguards (§Battle 1); AUTO: hold a vanguard's Kill, else the German's fire, the "
              "Soviet's bucket (ruling S-16).", ("SPILL FIRE",)),
]

CONDITIONS = [
    TURN_CONDITION,
    ConditionSpec("HOLDS", "<n>", "at most n Holds are left before the Break Test of this battle"),
    ConditionSpec("AHEAD", "", "your projected Break Test dice are more than your opponent's"),
    ConditionSpec("HAND", "<n>", "you hold at least n Combat Cards"),
    ConditionSpec("HAS", "<card>", "you hold a copy of this card title (e.g. HAS PanzerGroup)"),
    ConditionSpec("AT", "<building>", "the decision is about this building's battle"),
    ConditionSpec("MINE", "<unit> <n>", "you have at least n of this unit on the building"),
    ConditionSpec("ROUND", "<n>", "the battle's action round is n or later"),
]

KIND_TITLES = {
    "consolidate": "Consolidations", "demote": "Demotions", "assault": "German maneuvers", "defend": "Soviet maneuvers",
    "fight": "Battle order", "action": "Action rounds", "holdpick": "Hold options", "casualty": "Kill casualties",
    "target": "Precision Kill targets", "sniper": "Sniper targets", "deplete": "Depletions", "supply": "Supplies",
    "overrun": "Overruns", "spillover": "Spillover", "intercept": "Intercepts", "promote": "Promotions",
    "tongues": "Collecting Tongues", "ratswar": "Rat's War", "give": "Cards for a teammate",
}

GRAMMAR = Grammar(SPECS, CONDITIONS, KIND_TITLES)
