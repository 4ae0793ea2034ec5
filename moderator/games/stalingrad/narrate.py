"""One line of report text per event kind, from the event's own data (already filtered per role): the
owner's copy of a draw names the cards, the opponent's says how many."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from moderator.core.contract import Event


def _s(side: Any) -> str:
    return str(side).title() if side else "The moderator"


def _dice(dice: Any) -> str:
    return ", ".join(f"{value} [{stream}#{counter}]" for value, stream, counter in dice) or "none"


def _drew(d: Mapping[str, Any]) -> str:
    if "cards" in d:
        return f"You draw {', '.join(d['cards'])} ({d['why']})."
    return f"{_s(d['side'])} draws {d['count']} card(s) ({d['why']})."


def _given(d: Mapping[str, Any]) -> str:
    what = ", ".join(d["cards"]) if "cards" in d else f"{d['count']} card(s)"
    return f"{_s(d['seat'])} gives {what} to {_s(d['to'])} for his battle (§Four Player)."


def _sources(d: Mapping[str, Any], side: str) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(d["sources"][side].items()) if n) or "none"


def _break_dice(d: Mapping[str, Any]) -> str:
    pity = " (the German rolls only the Determination die)" if d["pity"] else ""
    return (f"BREAK TEST at district {d['district']}: German {d['german']} dice ({_sources(d, 'german')}), Soviet "
            f"{d['soviet']} dice ({_sources(d, 'soviet')}){pity}.")


def _gains(side: Any) -> str:
    return f"the {_s(side)} gains a die" if side else "nobody gains a die"


def _break_roll(d: Mapping[str, Any]) -> str:
    result = {"german": "German Victory", "soviet": "Soviet Victory", "slaughter": "Bloody Slaughter"}[d["result"]]
    return f"Break Test roll: German {_dice(d['german'])}; Soviet {_dice(d['soviet'])}: {result}."


def _campaign(d: Mapping[str, Any]) -> str:
    extras = [f"reinforcements +{d['reinforcements']}"] + (["hourglass"] if d["hourglass"] else []) + (
        ["Commander's Disgrace"] if d["disgrace"] else []) + list(d["effects"])
    return f"{_s(d['side'])} Campaign Card {d['card']} '{d['name']}': {', '.join(extras)}."


def _unit_added(d: Mapping[str, Any]) -> str:
    shown = f"{d['unit']} (flips to {d['core']})" if d["elite"] else d["unit"]
    return f"{_s(d['side'])} adds {shown} at district {d['district']} ({d['why']})."


def _battle_over(d: Mapping[str, Any]) -> str:
    how = " (every German formation and unit gone)" if d["routed"] else ""
    taken = "captured" if d["winner"] == "german" else "held"
    return f"BATTLE OVER at district {d['district']}: {d['name']} is {taken}; {_s(d['winner'])} victory{how}."


TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "turn_begins": lambda d: f"TURN {d['turn']} of {d['last']} begins: the Hourglass advances (§Strategy 1).",
    "hourglass": lambda d: f"The Hourglass advances one more space, to turn {d['turn']} (§Campaign B).",
    "campaign_card": _campaign,
    "disgraced": lambda d: f"{d['commander']} is disgraced; {d['replacement']} takes over (§Campaign C).",
    "disgrace_ignored": lambda d: f"{d['commander']} ignores the Commander's Disgrace (§Campaign C).",
    "hand_discarded": lambda d: (f"{_s(d.get('seat') or d['side'])} discards the whole hand: "
                                 f"{', '.join(d['cards']) or 'no cards'}."),
    "formations_divided": lambda d: "Formations divided (ruling S-29): " + ", ".join(
        f"{f} to {_s(seat)}" for f, seat in d["owners"]) + ".",
    "battle_owners": lambda d: (f"{_s(d['german'])} and {_s(d['soviet'])} fight this battle for their sides "
                                "(ruling S-30)."),
    "commander_replaced": lambda d: f"{d['commander']} is replaced by {d['replacement']}: {d['why']} (§Four Player).",
    "cards_given": _given,
    "burned": lambda d: f"{d['formation']} is burnt: to the Ash Heap (Burn Militia Brigade).",
    "demoted": lambda d: f"The General of {d['formation']} is demoted to Lv. 0.",
    "reinforcements": lambda d: (f"{_s(d['side'])} reinforcements: {', '.join(d['formations']) or 'none'}"
                                 f"{' (depleted)' if d['depleted'] else ''}."),
    "consolidated": lambda d: (f"{_s(d['side'])} consolidates {d['sacrificed']} into {d['supplied']}"
                               f"{' (its leader moves across)' if d['leader_moved'] else ''}."),
    "district_empty": lambda d: f"District {d['district']} stays empty on the last turn: it counts as closed.",
    "district_closed": lambda d: (f"District {d['district']} is closed"
                                  f"{' by a Volga Card' if d['volga'] else ' (no card left for it)'}."),
    "building_readied": lambda d: f"District {d['district']}: {d['building']} is the new building.",
    "maneuvered": lambda d: f"{_s(d['side'])} maneuvers {', '.join(d['formations'])} to {d['building']}.",
    "maneuvers_over": lambda d: "Maneuvers complete; the battles follow in the German's order.",
    "battle_begins": lambda d: (f"BATTLE for {d['name']} (district {d['district']}): German "
                                f"{', '.join(d['german'])} against Soviet {', '.join(d['soviet']) or 'no formation'}."),
    "intensity": lambda d: (f"Battle Intensity {d['intensity']} ({d['card']}): the Hold Counter starts on space "
                            f"{d['hold']}; initiative icon: {d['initiative']}."),
    "initiative": lambda d: f"{_s(d['side'])} wins Initiative ({d['icon']}).",
    "card_played": lambda d: f"{_s(d['side'])} plays {d['name']} ({d['card']}) on {d['formation']}.",
    "motivated": lambda d: f"{d['pairs']} Motivator and Rifle pair(s) purchase the card for {d['formation']}.",
    "sacrificed": lambda d: f"A Rifle unit is sacrificed for {d['card']}.",
    "reloaded": lambda d: f"{_s(d['side'])} reloads, discarding {', '.join(d['discarded']) or 'nothing'}.",
    "hold_called": lambda d: f"{_s(d['side'])} calls a Hold Action and draws Carnage Card {d['card']}.",
    "hold_taken": lambda d: f"{_s(d['side'])} takes '{d['option']}' from {d['card']}.",
    "hold_advanced": lambda d: f"The Hold Counter advances to {d['hold']} of {d['skull']}.",
    "drew": _drew,
    "discarded": lambda d: f"{_s(d['side'])} discards {d['card']} ({d['why']}).",
    "reshuffled": lambda d: f"{_s(d['side'])} {d['pile']} pile reshuffled ({d['cards']} cards).",
    "unit_added": _unit_added,
    "unit_destroyed": lambda d: f"{_s(d['side'])} loses a {d['unit']} at district {d['district']} ({d['why']}).",
    "effect_lost": lambda d: f"{_s(d['side'])}'s {d['icon']} is lost ({d['why']}).",
    "kill_deferred": lambda d: f"{_s(d['side'])} holds a Kill until the German vanguards arrive ({d['why']}).",
    "fires": lambda d: f"{d['count']} fire(s) at district {d['district']} ({d['why']}): Fire Counter on {d['fire']}.",
    "buckets": lambda d: (f"{d['count']} bucket(s) at district {d['district']} ({d['why']}): Bucket Counter on "
                          f"{d['bucket']}."),
    "inferno": lambda d: f"An Inferno at district {d['district']} ({d['infernos']} now).",
    "inferno_doused": lambda d: f"An Inferno at district {d['district']} is put out ({d['infernos']} left).",
    "fire_doused": lambda d: f"The Fire Counter at district {d['district']} goes back to the Smoldering Ruins.",
    "sniper_result": lambda d: f"Sniper shot at the leader of {d['formation']}: {d['result'].replace('_', ' ')}.",
    "leader_killed": lambda d: f"The leader of {d['formation']} is killed ({d['why']}).",
    "depleted": lambda d: f"{d['formation']} is depleted ({d['why']}).",
    "executed": lambda d: f"{d['rifles']} Rifle unit(s) executed for {d['formation']} (Machine Gun).",
    "retreated": lambda d: f"{d['formation']} retreats to the Staging Line ({d['why']}).",
    "formation_destroyed": lambda d: (f"{d['formation']} is destroyed ({d['why']})"
                                      f"{': to the Ash Heap' if d['unique'] else ''}."),
    "supplied": lambda d: f"{d['formation']} is supplied to full strength ({d['why']}).",
    "overrun": lambda d: f"{_s(d['side'])} overruns with {d['formation']} ({d['why']}).",
    "overrun_declined": lambda d: f"{_s(d['side'])} uses no Overrun.",
    "spillover_declined": lambda d: f"{_s(d['side'])} takes no Spillover Damage.",
    "routed": lambda d: f"Every German formation and unit at district {d['district']} is gone: Soviet victory.",
    "break_dice": _break_dice,
    "break_roll": _break_roll,
    "slaughter_die": lambda d: (f"After the Bloody Slaughter {_gains(d['side'])}: German {d['german']}, Soviet "
                                f"{d['soviet']} dice."),
    "aftermath_depleted": lambda d: (f"{d['formation']} is depleted"
                                     f"{' and its leader graduates' if d['graduated'] else ''}."),
    "battle_over": _battle_over,
    "hero_enters": lambda d: f"{_s(d['side'])} hero {d['name']} ({d['card']}) enters the battle ({d['why']}).",
    "hero_wounded": lambda d: f"{_s(d['side'])} hero {d['card']} is wounded.",
    "hero_killed": lambda d: f"{_s(d['side'])} hero {d['card']} is killed: to the Ash Heap.",
    "intercepted": lambda d: f"{_s(d['side'])} intercepts {d['name']} ({d['card']}) with {d['hero']}.",
    "promoted": lambda d: f"The General of {d['formation']} is now Lv. {d['level']} (Promote).",
    "retrieved": lambda d: f"{_s(d['side'])} takes {d['card']} back from the Discard Pile (Rat's War).",
    "ghost": lambda d: "Stalin's Ghost: the next costly Soviet card this battle costs no Patriotism.",
    "second_action": lambda d: f"{_s(d['side'])} takes a 2nd action.",
    "hand_shown": lambda d: (f"The German hand is shown to you: {', '.join(d['cards'])}." if "cards" in d
                             else f"The German hand ({d['count']} cards) is shown to the Soviet (Collecting Tongues)."),
    "game_over": lambda d: f"GAME OVER: {_s(d['winner'])} victory: {d['reason']}.",
}


def narrate(event: Event, role: str) -> str:
    seat = event.data.get("seat")
    if event.kind == "drew" and seat and seat != role and "cards" in event.data:  # a teammate's draw, hands open
        return f"{_s(seat)} draws {', '.join(event.data['cards'])} ({event.data['why']})."
    text = TEXT.get(event.kind)
    if text is None:
        return f"{event.kind}: {dict(event.data)}"
    return text(event.data)
