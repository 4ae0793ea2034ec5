"""One line of report text per event, from the event's own data (already filtered per role)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from moderator.core.contract import Event


def _units(ids: Any) -> str:
    return ", ".join(ids) if ids else "none"


def _die(die: Any) -> str:
    value, stream, counter = die
    return f"{value} [{stream}#{counter}]"


def _side(side: str | None) -> str:
    return (side or "").title()


def _combat(d: Mapping[str, Any]) -> str:
    attackers = ", ".join(f"{a['unit']} {a['value']}" + (f" ({', '.join(a['why'])})" if a["why"] else "")
                          for a in d["attackers"])
    defenders = ", ".join(f"{x['unit']} {x['value']}" + (f" ({', '.join(x['why'])})" if x["why"] else "")
                          for x in d["defenders"])
    shifts = "; ".join(f"{why} {n:+d}" for why, n in d["shifts"]) or "none"
    after_d = d["defender_after"]
    after_a = d["attacker_after"]
    notes = "; ".join(after_d["notes"] + after_a.get("notes", []))
    roll = _die(d["die"]) + (f", modified {d['total']} (Turn 1 Soviet +1, 14.10B)" if d["total"] != d["die"][0] else "")
    text = (f"COMBAT at {d['target']} ({_side(d['side'])} attacking{', Stavka' if d.get('stavka') else ''}): "
            f"attack {attackers} = {d['attack']}; defence {defenders} = {d['defense']}"
            + (" (zero: highest column, 9.3.2C)" if d["zero_defense"] else "")
            + f"; shifts: {shifts}; column {d['odds']}; die {roll}: {d['result']}. "
            f"Defender takes {after_d['losses']} loss(es), retreats {after_d['retreat']}; attacker takes "
            f"{after_a['losses']} loss(es), retreats {after_a['retreat']}.")
    return text + (f" ({notes})" if notes else "")


TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "ready": lambda d: f"{_side(d['side'])} is ready.",
    "turn_begins": lambda d: f"Turn {d['turn']} begins.",
    "command_phase": lambda d: f"Command Phase of turn {d['turn']}: {len(d['cup'])} chits in the cup.",
    "chit_drawn": lambda d: (f"Chit {d['n']}: {d['name']} ({d['chit']})"
                             + (f", {_side(d.get('side'))} activation {d['activation']} of {d['limit']}"
                                if d.get("activation") else "") + "."),
    "chit_unused": lambda d: f"  {d['chit']} activates nothing: {d['reason']}.",
    "command_phase_over": lambda d: ("The last command chit is drawn; the Command Phase ends"
                                     + (f" (left in the cup: {', '.join(d['action_chits_left'])})"
                                        if d["action_chits_left"] else "") + "."),
    "activated": lambda d: (f"  {d['hq']} at {d['hex']} activated: in command {_units(d['in_command'])}"
                            + (f"; out of command {_units(d['out_of_command'])}" if d["out_of_command"] else "")
                            + (f"; with {_units(d['extra'])}" if d["extra"] else "") + "."),
    "hq_activated": lambda d: f"  {_side(d['side'])} activates {d['hq']} at {d['hex']}.",
    "attached": lambda d: (f"  Attached: {_units(d['units'])}"
                           + (f"; extra (move only): {_units(d['extra'])}" if d["extra"] else "") + "."),
    "activation_passed": lambda d: (f"  {_side(d['side'])} passes with {d['chit']}"
                                    + (f" ({d['reason']})" if d.get("reason") else "") + "."),
    "army_relocated": lambda d: f"  Army HQ {d['hq']} relocates from {d['origin']} to {d['hex']} (4.1.3).",
    "activation_over": lambda d: "",
    "moved": lambda d: f"  {d['unit']} moves {d['how']}" + (f" [{d['mode']}]" if d["mode"] != "normal" else "") + ".",
    "enemy_moved": lambda d: (f"  An enemy unit moves from {d['start']} to {d['end']}"
                              + (f" (top of the stack there: {d['top']})" if d.get("top") else "") + "."),
    "attack_announced": lambda d: (f"  {_side(d['side'])} attacks {d['target']} with {_units(d['units'])}"
                                   + (f", air {', '.join(f'{a} {m}' for a, m in d['air'].items())}" if d["air"] else "")
                                   + "."),
    "combat": lambda d: "  " + _combat(d),
    "attack_cancelled": lambda d: (f"  The attack on {d['target']} is cancelled: {d['reason']} "
                                   f"(attack {d['attack']}, defence {d['defense']})."),
    "step_lost": lambda d: f"  {d['unit']} in {d['hex']} is {d['result']} ({d['why']}).",
    "retreated": lambda d: (f"  {_units(d['units'])} retreat from {d['origin']}"
                            + (f" via {'-'.join(d['path'])}" if d["path"] else " nowhere")
                            + (f"; {d['short']} hex(es) short" if d["short"] else "")
                            + (f"; {d['ezoc']} enemy ZOC hex(es)" if d["ezoc"] else "") + "."),
    "enemy_retreated": lambda d: (f"  The enemy stack in {d['origin']} (top: {d['top']}) retreats"
                                  + (f" to {d['path'][-1]}" if d["path"] else "") + "."),
    "overrun": lambda d: f"  {d['hq']} in {d['hex']} is overrun by {d['by']} (11.1.4).",
    "hq_displaced": lambda d: f"  {d['hq']} is displaced from {d['origin']} to {d['hex']} (11.1.3).",
    "enemy_hq_displaced": lambda d: (f"  {d['hq']} is displaced from {d['origin']}"
                                     + (f" to {d['hex']}" if d.get("hex") else "") + " (11.1.3)."),
    "hq_eliminated": lambda d: f"  {d['hq']} is eliminated: {d['why']}.",
    "advanced": lambda d: (f"  {_units(d['units'])} advance into "
                           f"{d['via'] + ' and ' if d.get('via') else ''}{d['hex']}."),
    "barrage_roll": lambda d: f"  Barrage roll {_die(d['die'])}: {d['count']} barrage attack(s) (2.5.1.1).",
    "barrage": lambda d: (f"  {_side(d['side'])} {d['source']} barrage on {d['hex']}: die {_die(d['die'])}: "
                          f"{d['result']}" + (f" ({'; '.join(d['after']['notes'])})" if d["after"]["notes"] else "")
                          + "."),
    "barrage_forgone": lambda d: (f"  {d['left']} barrage attack(s) forgone"
                                  + (f" ({d['reason']})" if d.get("reason") else "") + "."),
    "random_event": lambda d: (f"  Random event: {' + '.join(_die(x) for x in d['dice'])} = {d['total']}: "
                               f"{d['name']}. {d['text']}"),
    "withdrawal_announced": lambda d: (f"  {d['chit']}: the withdrawal takes effect in the Reinforcement Phase of "
                                       f"turn {d['turn']}."),
    "shock_out_of_supply": lambda d: "  2nd Shock out of supply: the next 2nd Shock chit used is then removed (2.5.6).",
    "chit_removed": lambda d: f"Chit {d['chit']} leaves the game: {d['reason']}.",
    "stavka_over": lambda d: f"  Stavka directive done: {d['attacks']} attack(s).",
    "free_move": lambda d: f"  Free Move: {_units(d['units'])}.",
    "regroup": lambda d: f"  {_side(d['side'])} regroups {d['formation']}.",
    "pd_improved": lambda d: f"Prepared defences {d['division']} up {d['boxes']} box(es) ({d['why']}).",
    "rebuilt": lambda d: f"  {d['unit']} rebuilt in {d['hex']}: {d['how']} (11.2).",
    "hidden_unit_rebuilt": lambda d: f"  A {_side(d['side'])} unit hidden in a stack is flipped to full strength "
                                     f"(11.2).",
    "rp_lost": lambda d: f"  {d['rp']} unspent replacement point(s) lost.",
    "chit_added": lambda d: f"Chit {d['name']} ({d['chit']}) enters the cup.",
    "chit_returned": lambda d: f"Chit {d['chit']} returns to the cup.",
    "withdrawn": lambda d: f"{d['what'].capitalize()} is withdrawn: {_units(d['units'])}.",
    "reinforcement": lambda d: f"Reinforcement {d['unit']} enters at {d['hex']}.",
    "reinforcement_waits": lambda d: f"{d['unit']} waits: {d['reason']}.",
    "reinforcement_lost": lambda d: f"{d['unit']} cannot enter and is eliminated: {d['reason']}.",
    "rerouted": lambda d: (f"German reinforcements {_units(d['units'])} rerouted to entry {d['entry']} "
                           f"for turn {d['turn']} (8.4)."),
    "landing": lambda d: f"The 260th MS brigade ({d['unit']}) lands at {d['hex']} (8.6).",
    "overstack_moved": lambda d: f"  {d['unit']} moved from overstacked {d['origin']} to {d['hex']} (7.2A).",
    "air_phase": lambda d: "Air Unit Phase: " + ", ".join(f"{a} to {box}" for a, box in d["moved"]) + ".",
    "air_arrives": lambda d: f"Air unit {d['air']} arrives.",
    "supply_changes": lambda d: ("Supply Phase: " + ("; ".join(f"{c['unit']} in {c['hex']} {c['from']}->{c['to']}"
                                                          for c in d["changes"]) or "all your units as before") + "."),
    "supply_markers": lambda d: ("Enemy supply markers: "
                                 + (f"out of supply/isolated in {', '.join(d['hexes'])}" if d["hexes"] else "none new")
                                 + (f"; lifted in {', '.join(d['cleared'])}" if d["cleared"] else "") + "."),
    "supply_phase": lambda d: "Narva is cut off (10.2.2)." if d["narva_cut"] else "",
    "turn_advance": lambda d: "Turn Advance: drawn chits return to the cup, pins are removed (11.4).",
    "game_over": lambda d: f"GAME OVER: {d['reason']}.",
}


def narrate(event: Event, role: str) -> str:
    text = TEXT.get(event.kind)
    if text is None:
        return f"{event.kind}: {dict(event.data)}"
    return text(event.data)
