"""Turns VMT events into report sentences.  Only events visible to the reader reach here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from moderator.core.contract import Event


def side_name(side: str | None) -> str:
    return {"axis": "Axis", "soviet": "Soviet", None: "nobody"}.get(side, str(side).title())


#: The markers as the rulebook names them (L232-246, L457).
MARKER_NAMES = {"at": "AT", "bunker": "Bunker", "minefield": "Minefield", "interdiction": "Interdiction"}


def marker_name(kind: str) -> str:
    return MARKER_NAMES.get(kind, kind.replace("_", " ").title())


def a_marker(kind: str, capital: bool = False) -> str:
    """'an AT marker', 'a Bunker marker' (AT is read letter by letter: an A-T)."""
    name = marker_name(kind)
    article = "an" if name[0] in "AEIOU" else "a"
    return f"{article.title() if capital else article} {name} marker"


def card_name(card: str) -> str:
    return card.replace("_", " ").title().replace("88Mm", "88mm")


def dice_text(dice: list[list[Any]]) -> str:
    """Each die with its counter: '5 [dice#41]'."""
    return ", ".join(f"{v} [{s}#{n}]" for v, s, n in dice)


def narrate(event: Event, role: str) -> str:
    d = event.data
    kind = event.kind
    handler = _NARRATORS.get(kind)
    if handler is None:
        return f"{kind}: {d}"
    return handler(d)


def _phase(d: Mapping[str, Any]) -> str:
    return f"Turn {d['turn']}: the {side_name(d['side'])} action phase begins."


def _phase_end(d: Mapping[str, Any]) -> str:
    refill = (" The game ends with this turn, so nobody refills a hand." if d.get("final")
              else " Both players refill their hands.")
    return f"The {side_name(d['side'])} action phase ends" + (" (passed)." if d["passed"] else ".") + refill


def _card_played(d: Mapping[str, Any]) -> str:
    what = card_name(d["card"])
    if d["card"] in ("assault", "counterattack", "redeployment") and d["mode"] in ("group", "division"):
        target = f"the {d['blocks']} block(s) in {d['area']}" if d["mode"] == "group" else \
            f"division {', '.join(d['divisions'])} ({d['blocks']} block(s))"
        how = " as a Reaction" if d["reaction"] else ""
        return f"{side_name(d['side'])} plays {what}{how} on {target}."
    if d["mode"] == "discard":
        return f"{side_name(d['side'])} plays {what} with no target in range, only to discard it."
    place = f" on {d['area']}" if d["area"] else ""
    mode = f" ({d['mode']})" if d["mode"] in ("attack", "interdict") else ""
    how = " as a Reaction" if d["reaction"] else ""
    return f"{side_name(d['side'])} plays {what}{mode}{how}{place}."


def _moved(d: Mapping[str, Any]) -> str:
    via = f" via {', '.join(d['via'])}" if d["via"] else ""
    assets = f" with {', '.join(d['assets'])}" if d["assets"] else ""
    verb = "attack" if d["attack"] else "move"
    return f"{side_name(d['side'])}: {d['count']} block(s){assets} {verb} from {d['origin']}{via} into {d['to']}."


def _moved_blocks(d: Mapping[str, Any]) -> str:
    return f"(Your blocks {', '.join(d['blocks'])} went from {d['origin']} to {d['to']}.)"


def _combat(d: Mapping[str, Any]) -> str:
    what = "the battery of " if d["battery"] else ""
    assets = "; ".join(f"{side_name(s)} {', '.join(a['asset'] + ' (' + str(a['steps']) + ')' for a in xs)}"
                       for s, xs in d["assets"].items() if xs)
    return (f"COMBAT in {d['area']}: {side_name(d['attacker'])} attacks {what}{d['area']} with "
            f"{d['attackers']} block(s) from {', '.join(d['origins'])}"
            + (f" against {d['defenders']} block(s)" if not d["battery"] else "")
            + (f"; assets: {assets}" if assets else "") + ".")


def _revealed(d: Mapping[str, Any]) -> str:
    parts = []
    for side, blocks in d["blocks"].items():
        listed = ", ".join(f"{b['block']} ({b['sp']}{', exhausted' if b['exhausted'] else ''})" for b in blocks)
        cards = ", ".join(card_name(c) for c in d["cards"][side]) or "no card"
        parts.append(f"{side_name(side)}: {listed or 'no block'}; support: {cards}")
    return f"Revealed in {d['area']}: " + ". ".join(parts) + "."


def _roll(d: Mapping[str, Any]) -> str:
    parts = []
    for side, x in d["dice"].items():
        counts = ", ".join(f"{label} {'+' if n >= 0 else ''}{n}" for label, n in x["parts"])
        mods = f"; {', '.join(x['notes'])}" if x["notes"] else ""
        parts.append(f"{side_name(side)} rolls {x['total']}d6 ({counts}): {dice_text(x['dice'])}{mods}"
                     f" -> {x['modified']}")
    cancel = "; ".join(_cancelled(side, by) for side, by in d.get("cancelled_by", {}).items() if by)
    hits = ", ".join(f"{side_name(s)} {n} hit(s)" for s, n in d["hits"].items())
    return " ".join(parts) + f". Hits scored: {hits}" + (f" ({cancel})" if cancel else "") + \
        (f"; {d['sixes']} of the defender's are 6s." if d["sixes"] else ".")


def _cancelled(side: str, by: list[str]) -> str:
    """'1 Soviet hit cancelled by the Axis STUGB': only the hits a counter or marker really took away (L252, L310)."""
    other = side_name("soviet" if side == "axis" else "axis")
    names = [f"the {what.title()}" if what in ("bunker", "minefield") else f"the {other} {what}" for what in by]
    return f"{len(by)} {side_name(side)} hit{'s' if len(by) > 1 else ''} cancelled by {' and '.join(names)}"


def _casualties(d: Mapping[str, Any]) -> str:
    listed = ", ".join(f"{b['block']} -{b['hits']} (now {b['sp']}{', exhausted' if b['exhausted'] else ''})"
                       if b["sp"] else f"{b['block']} eliminated" for b in d["blocks"])
    return f"{side_name(d['side'])} casualties in {d['area']}: {listed}."


def _result(d: Mapping[str, Any]) -> str:
    hits = ", ".join(f"{side_name(s)} suffered {n}" for s, n in d["hits"].items())
    if d["winner"] is None:
        return f"Both sides are wiped out in {d['area']} ({hits})."
    return f"{side_name(d['winner'])} wins the combat in {d['area']} ({hits})."


def _retreat(d: Mapping[str, Any]) -> str:
    """One group's retreat in one line: how many of the retreating blocks go where, how many have no room
    (each then named by its own "eliminated" line), and the group's extra losses (L298, L382, L400-404)."""
    count = f"{d['count']} of {d['of']}" if d.get("of") else str(d["count"])
    left = d.get("left", 0)
    room = (f" (no room there for the other {left}: {'it is' if left == 1 else 'they are'} eliminated)"
            if left else "")
    extra = f"; extra losses: {', '.join(d['penalties'])}" if d["penalties"] else ""
    return f"{side_name(d['side'])}: {count} block(s) retreat from {d['origin']} to {d['destination']}{room}{extra}."


#: How an elimination's cause reads in a report.
ELIMINATION_CAUSES = {"no retreat": "it has nowhere to retreat", "no retreat: no room": "no room to retreat"}


def _eliminated(d: Mapping[str, Any]) -> str:
    cause = ELIMINATION_CAUSES.get(d["cause"], d["cause"])
    why = f" ({cause})" if cause else ""
    return f"{side_name(d['side'])} block {d['block']} is eliminated in {d['area']}{why}."


def _bombardment(d: Mapping[str, Any]) -> str:
    text = f"{d['source']} on {d['area']}: {dice_text(d['dice'])}; hits on {d['need']}+: {d['hits']}"
    victims = f"the {side_name(d['victim'])} blocks there"
    if not d["hits"]:
        return text + "."
    if not d.get("battery_first"):
        return text + f", distributed at random among {victims}."
    # Superheavy Artillery: "The first hit obtained destroys the battery; the rest ... among the Soviet blocks" (L471)
    if d["hits"] == 1:
        return text + ", on the battery."
    return text + f", the first on the battery, the other {d['hits'] - 1} at random among {victims}."


def _anti_armor(d: Mapping[str, Any]) -> str:
    return (f"Anti-armor fire in {d['area']}: {side_name(d['side'])} {d['reason']} at {d['target']} rolls "
            f"{dice_text([d['die']])}: " + ("a hit." if d["hit"] else "a miss."))


def _interdiction(d: Mapping[str, Any]) -> str:
    return f"Interdiction in {d['area']}: {dice_text([d['die']])} (a hit on {d['need']}+): " + \
        ("a Soviet block loses a step." if d["hit"] else "no effect.")


def _reinf_roll(d: Mapping[str, Any]) -> str:
    if not d["success"]:
        return f"Soviet reinforcement roll: {dice_text([d['die']])}: no arrival."
    if d.get("wasted"):
        return (f"Soviet reinforcement roll: {dice_text([d['die']])}: the {d['brigade']} could land, "
                f"but no anchor area is free.")
    return f"Soviet reinforcement roll: {dice_text([d['die']])}: the {d['brigade']} Brigade arrives."


_NARRATORS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "phase": _phase, "phase_end": _phase_end, "card_played": _card_played, "moved": _moved,
    "moved_blocks": _moved_blocks, "combat": _combat, "revealed": _revealed, "combat_roll": _roll,
    "casualties": _casualties, "combat_result": _result, "retreat": _retreat, "eliminated": _eliminated,
    "bombardment": _bombardment, "anti_armor": _anti_armor, "interdiction": _interdiction,
    "soviet_reinforcement_roll": _reinf_roll,
    "activated": lambda d: f"(Activated: {', '.join(d['blocks'])}.)",
    "coordinated": lambda d: f"{side_name(d['side'])} coordinates division {d['division']} "
                             f"({card_name(d['card'])}, {d['blocks']} more block(s)).",
    "assets_placed": lambda d: f"{side_name(d['side'])} places " + ", ".join(
        f"{a['asset']} ({a['type']}) in {a['area']}" for a in d["assets"]) + ".",
    "control": lambda d: (f"{d['area']} passes to {side_name(d['side'])} control"
                          + (f" ({d['vp']} VP)." if d["vp"] else ".")),
    "trench_disabled": lambda d: f"The Soviet trenches of {d['area']} are out of order for good.",
    "marker_withdrawn": lambda d: f"The {marker_name(d['marker'])} marker in {d['area']} is withdrawn.",
    "marker_placed": lambda d: f"{a_marker(d['marker'], capital=True)} is placed in {d['area']}.",
    "marker_removed": lambda d: f"The {marker_name(d['marker'])} marker in {d['area']} is removed ({d['by']}).",
    "marker_cancelled": lambda d: (f"The {marker_name(d['marker'])} placement in {d['area']} is cancelled by "
                                   f"{card_name(d['by'])}."),
    "marker_short": lambda d: f"No {marker_name(d['marker'])} marker is left to place in {d['area']}.",
    "asset_hit": lambda d: f"{d['asset']} is hit ({d['cause']}) and flips to its {d['steps']}-step side.",
    "asset_eliminated": lambda d: f"{d['asset']} is eliminated for good ({d['cause']}).",
    "asset_set_aside": lambda d: f"{d['asset']} has no block left with it in {d['area']} and is set aside.",
    "support_committed": lambda d: f"{side_name(d['side'])} commits {d['count']} Combat Support card(s) face down.",
    "support_committed_cards": lambda d: ("(You committed: " + (", ".join(card_name(c) for c in d["cards"])
                                                                 or "nothing") + ".)"),
    "retreat_blocks": lambda d: f"(Your {', '.join(d['blocks'])} retreated to {d['destination']}.)",
    "retreat_loss": lambda d: f"{side_name(d['side'])} loses a step retreating into {d['destination']} ({d['reason']})"
                              + (", eliminating a block." if d["eliminated"] else "."),
    "retreat_loss_block": lambda d: f"(Your {d['block']} took that loss; now {d['sp']}.)",
    "step_lost": lambda d: f"(Your {d['block']} is hit by {d['source']}; now {d['sp']}.)",
    "returned": lambda d: f"{side_name(d['side'])}: {d['count']} block(s) return from {d['area']} to "
                          f"{', '.join(d['origins'])} (over-stack; not a retreat).",
    "combat_over": lambda d: f"The combat in {d['area']} is over.",
    "combat_void": lambda d: f"No defender is left in {d['area']}: {side_name(d['side'])} takes it without a fight.",
    "battery_assault": lambda d: f"Battery assault in {d['area']}: {d['hits']} Axis hit(s): the battery is "
                                 + ("destroyed." if d["destroyed"] else "still firing."),
    "battery_destroyed": lambda d: f"The coastal battery in {d['area']} is destroyed.",
    "strike_cancelled": lambda d: f"Fighter Cover turns the Air Strike on {d['area']} away.",
    "pioneer_roll": lambda d: f"Pioneer {d['asset']} rolls {dice_text([d['die']])} for its own losses: "
                              + ("a step lost." if d["hit"] else "unharmed."),
    "pass": lambda d: f"{side_name(d['side'])} passes: {d['rallied']} exhausted block(s) rally"
                      + (f", discards {', '.join(card_name(c) for c in d['discarded'])}" if d["discarded"] else "")
                      + (f", withdraws {', '.join(d['withdrawn'])}" if d["withdrawn"] else "") + ".",
    "drew": lambda d: f"{side_name(d['side'])} draws {d['count']} card(s).",
    "drew_cards": lambda d: "(You drew: " + ", ".join(card_name(c) for c in d["cards"]) + ".)",
    "deck_rebuilt": lambda d: (f"The {side_name(d['side'])} deck is empty: the discard pile ({d['cards']} cards) "
                               f"is shuffled into a new deck."),
    "card_removed": lambda d: f"{card_name(d['card'])} leaves play ({d['reason']}).",
    "turn_end": lambda d: f"End of turn {d['turn']}: Axis {d['axis_vp']} VP, Soviet {d['soviet_vp']} VP.",
    "game_over": lambda d: f"GAME OVER: {d['reason']}.",
    "axis_reinforcement": lambda d: f"Axis reinforcements: the {d['name']} arrive ({', '.join(d['blocks'])}), "
                                    f"costing {d['vp']} VP.",
    "reinforcement_placed": lambda d: f"{side_name(d['side'])} reinforcement {d['block']} is placed in {d['area']}.",
    "bombard_discard": lambda d: ("Initial Bombardment: the Axis discards "
                                  + ", ".join(card_name(c) for c in d["cards"]) + " and draws as many."
                                  if d["cards"] else "Initial Bombardment: the Axis discards no card and draws none."),
    "bombard_reshuffle": lambda d: (f"Initial Bombardment over: {d['cards']} card(s) are shuffled back into "
                                    f"the Axis deck."),
    "setup_filed": lambda d: f"{side_name(d['side'])} files a secret set-up; commitment {d['commitment']}.",
    "setup_placed": lambda d: ("(Your set-up stands on the map: " + ", ".join(f"{b} {a}" for b, a in
                                                                           d["placements"].items())
                               + f". Its salt is {d['salt']}: with it you can check the commitment "
                                 f"{d['commitment']} now; your opponent learns it when the game ends.)"),
    "setup_standing": lambda d: (f"{side_name(d['side'])} blocks stand upright in "
                                 + ", ".join(f"{a} ({n})" for a, n in d["areas"].items())
                                 + f"; which blocks they are stays secret until the game ends (commitment "
                                   f"{d['commitment']})."),
    "setup_revealed": lambda d: (f"{side_name(d['side'])} set-up revealed (salt {d['salt']}, commitment "
                                 f"{d['commitment']}): "
                                 + ", ".join(f"{b} {a}" for b, a in d["placements"].items()) + "."),
    "activation_done": lambda d: f"{side_name(d['side'])} finishes the {card_name(d['card'])}.",
    "move_refused": lambda d: f"(Your TO move could not be made: {d['reason']}.)",
}
