"""The order language of Across the Narva: one line per order, keyed by the chits with ON lines.

Every order kind answers one kind of question the game asks; each kind's forms begin with their
own keyword so that an ON line can be read before the question exists.  Units are named as on
the counters (``381``, ``109/381``, ``FHH/PZG``); hexes by their four digits.
"""

from __future__ import annotations

from moderator.core.conditions import TURN_CONDITION
from moderator.core.grammar import ConditionSpec, Grammar, OrderSpec

SPECS = [
    OrderSpec("ready", "ready", "READY", "Start the turn: your orders for it are filed.", ("READY",)),
    # command chits (4.1)
    OrderSpec("hq", "activate", "ACTIVATE <hq:hq>",
              "Activate this HQ for the drawn chit (German: a divisional HQ of the chit's corps; Soviet: a corps "
              "HQ within the Army HQ's radius).", ("ACTIVATE 109", "ACTIVATE 11SS/HQ")),
    OrderSpec("hq", "relocate", "RELOCATE TO <hex:hex>",
              "Soviet: move the drawn army's HQ anywhere instead of activating a corps (4.1.3).",
              ("RELOCATE TO 2826",)),
    OrderSpec("hq", "pass", "PASS", "Use the chit for nothing (it still counts against the turn's limit)."),
    OrderSpec("attach", "units", "ATTACH <units:unit...> [EXTRA <extra:unit...>]",
              "Attach up to 3 units not of the HQ's formation within its range (Strachwitz: 4); with Army Group "
              "Narwa, EXTRA names 2 more units anywhere that may move but not fight.",
              ("ATTACH 48 50", "ATTACH GNES EXTRA 540 FBB")),
    OrderSpec("attach", "none", "ATTACH NONE", "No attachments."),
    OrderSpec("attach", "extra", "ATTACH EXTRA <extra:unit...>",
              "Army Group Narwa: no attachments, only the two extra units anywhere (2.4.2B).",
              ("ATTACH EXTRA 162G 176G",)),
    # movement (6.0)
    OrderSpec("move", "to", "MOVE <units:unit...> TO <hex:hex> [<mode:STRATEGIC|RAIL>]",
              "Move units, one after another, to a hex; the moderator finds the cheapest legal path when the "
              "order runs. STRATEGIC: along roads only (6.4); RAIL: arriving reinforcements on a major railway (6.5).",
              ("MOVE 381 456 TO 2223", "MOVE FHH/PZG TO 1928 STRATEGIC")),
    OrderSpec("move", "via", "MOVE <units:unit...> TO <hex:hex> VIA <via:hex...> [<mode:STRATEGIC|RAIL>]",
              "Move units to a hex by way of these hexes, in order: the cheapest legal path through them. The way "
              "matters: a VP hex belongs to the side that last passed through it (13.2), and a lone enemy HQ on the "
              "way is overrun (6.3B, 11.1.4). Not for RAIL, which follows the railway.",
              ("MOVE 381 TO 2422 VIA 2323",)),
    OrderSpec("move", "done", "MOVE DONE", "No more moves in this activation."),
    # combat (9.0, 12.1)
    OrderSpec("attack", "hex", "ATTACK <hex:hex> WITH <units:unit...> [FULL <full:air...>] [NORMAL <normal:air...>] "
              "[MIN <odds:odds>]",
              "Attack an enemy hex with adjacent activated units, optionally with one or two air units (FULL or "
              "NORMAL attack). MIN <odds> skips the attack below those odds (fog of war off only: under fog a line "
              "with MIN is refused when your message is read, 2.1.3).",
              ("ATTACK 2332 WITH 381 456 FULL IL-2M-1", "ATTACK 2332 WITH 381 456 MIN 2-1")),
    OrderSpec("attack", "done", "ATTACK DONE", "No more attacks in this activation."),
    # results (9.4-9.6, 11.1)
    OrderSpec("loss", "units", "LOSS <units:unit...>",
              "Take step losses on these units, one step per name (name a unit twice to lose both its steps); the "
              "first must be a strongest unit (9.4.1).", ("LOSS 131 163",)),
    OrderSpec("loss", "auto", "LOSS AUTO", "The moderator allocates: strongest first, then flip before eliminating."),
    OrderSpec("retreat", "via", "RETREAT [<units:unit...>] VIA <path:hex...>",
              "Retreat along these hexes (all units, or the named ones; the rest are asked again). Must be among "
              "the best paths under 9.5.", ("RETREAT VIA 3025",)),
    OrderSpec("retreat", "auto", "RETREAT AUTO", "The moderator picks the best retreat (9.5, then toward supply)."),
    OrderSpec("advance", "units", "ADVANCE <units:unit...> [TO <hex:hex>]",
              "Advance the units named into the vacated hex (the others stay, 9.6B); mechanized units may "
              "continue TO an adjacent hex (9.6.3), and then the others are asked again.",
              ("ADVANCE 381 456", "ADVANCE PZ TO 2232")),
    OrderSpec("advance", "auto", "ADVANCE AUTO", "Advance the strongest eligible units, up to the stacking limit."),
    OrderSpec("advance", "none", "ADVANCE NONE", "Do not advance."),
    OrderSpec("displace", "to", "DISPLACE TO <hex:hex>", "Put your displaced HQ in this hex (11.1.3).",
              ("DISPLACE TO 1627",)),
    OrderSpec("displace", "auto", "DISPLACE AUTO", "The nearest legal hex."),
    # action chits (2.5)
    OrderSpec("barrage", "hex", "BARRAGE <hex:hex>", "Barrage this enemy hex (2.5.1).", ("BARRAGE 3027",)),
    OrderSpec("barrage", "auto", "BARRAGE AUTO", "The moderator picks the target (PD hexes first for the Soviets)."),
    OrderSpec("barrage", "none", "BARRAGE NONE", "Forgo the remaining barrage attacks."),
    OrderSpec("stavka", "hex", "STAVKA <hex:hex>", "Stavka directive: attack this hex with every adjacent unit.",
              ("STAVKA 3027",)),
    OrderSpec("stavka", "auto", "STAVKA AUTO", "The moderator picks the target with the best odds."),
    OrderSpec("freemove", "hq", "FREEMOVE HQ <hq:hq> [ATTACH <units:unit...>]",
              "Free Move with a corps HQ, its units and up to 3 others in range (2.5.4).", ("FREEMOVE HQ 109",)),
    OrderSpec("freemove", "units", "FREEMOVE UNITS <units:unit...>", "Free Move with up to 3 units anywhere."),
    OrderSpec("freemove", "none", "FREEMOVE NONE", "Do not use the Free Move."),
    OrderSpec("regroup", "formation", "REGROUP <formation:formation>",
              "Random event: move all units of this formation (2.5.2B).", ("REGROUP 61",)),
    OrderSpec("regroup", "none", "REGROUP NONE", "Do not regroup."),
    OrderSpec("rebuild", "unit", "REBUILD <unit:unit>", "Spend a replacement point on this unit (11.2).",
              ("REBUILD 162G",)),
    OrderSpec("rebuild", "fortify", "FORTIFY <division:division>",
              "Spend a replacement point to raise a PD marker two boxes (11.2.4).", ("FORTIFY 4SS",)),
    OrderSpec("rebuild", "auto", "REBUILD AUTO",
              "Each point as a careful player would: a PD marker two or more boxes down first (2 VP, 13.3), "
              "then a reduced unit at the front, then a marker one box down, then any reduced unit."),
    OrderSpec("rebuild", "done", "REBUILD DONE", "Spend no more replacement points."),
    # reinforcement phase (8.0)
    OrderSpec("reroute", "to", "REROUTE <units:unit...> TO <entry:A|B|C>",
              "Delay these German reinforcements one turn to enter elsewhere (8.4).", ("REROUTE 11/HQ 11/2G TO A",)),
    OrderSpec("reroute", "none", "REROUTE NONE", "No reroute."),
    OrderSpec("place", "at", "PLACE <unit:unit> AT <hex:hex>", "Place a reinforcement whose entry is blocked, or an "
              "arriving Soviet Army HQ.", ("PLACE 8/HQ AT 1817",)),
    OrderSpec("place", "auto", "PLACE AUTO", "The nearest legal hex."),
    OrderSpec("land", "at", "LAND AT <hex:hex>", "Land the 260th MS brigade at Merekula (8.6).", ("LAND AT 2033",)),
    OrderSpec("land", "none", "LAND NONE", "Not this turn."),
    OrderSpec("coastal", "fire", "COASTAL FIRE", "Barrage the landing hex (8.6C)."),
    OrderSpec("coastal", "none", "COASTAL NONE", "Hold fire."),
    OrderSpec("improve", "division", "IMPROVE <division:division>", "Raise this PD marker one box (11.3.5).",
              ("IMPROVE 11SS",)),
    OrderSpec("improve", "auto", "IMPROVE AUTO", "Raise the lower marker (ties: Nordland)."),
    OrderSpec("improve", "none", "IMPROVE NONE", "No improvement."),
]

CONDITIONS = [
    ConditionSpec("CHIT", "<group|chit>", "the drawn chit is of this group (2SH, 8, 59, 3SS, WER, 26, 43, "
                  "AGN) or is this chit (2SH-1)"),
    ConditionSpec("HQ", "<hq>", "this HQ is the one activated (for MOVE and ATTACK lines)"),
    TURN_CONDITION,
    ConditionSpec("FROZEN", "", "major rivers and the winter trail are frozen"),
    ConditionSpec("EMPTY", "<hex>", "no unit stands in the hex"),
    ConditionSpec("ENEMY", "<hex>", "enemy units stand in the hex"),
    ConditionSpec("FRIENDLY", "<hex>", "your units stand in the hex"),
    ConditionSpec("PINNED", "<hex>", "the hex is pinned"),
    ConditionSpec("AT", "<unit> <hex>", "your unit is in the hex"),
    ConditionSpec("SUPPLIED", "<unit>", "your unit carries no out-of-supply or isolated marker"),
    ConditionSpec("HEX", "<hex>", "the combat, retreat or displacement asked about is in this hex"),
    ConditionSpec("REINFORCEMENTS", "", "the question belongs to the Reinforcement Phase"),
    ConditionSpec("ENEMY_HEIGHT", "<hex> <n>", "the enemy stack in the hex has at least n counters "
                  "(counters are visible; what they are is not, under fog)"),
]

KIND_TITLES = {
    "ready": "Start of turn", "hq": "Command chit: which HQ", "attach": "Attachments", "move": "Movement",
    "attack": "Combat", "loss": "Step losses", "retreat": "Retreats", "advance": "Advance after combat",
    "displace": "HQ displacement", "barrage": "Barrage", "stavka": "Stavka directive", "freemove": "Free Move",
    "regroup": "Regrouping (random event)", "rebuild": "Replacements", "reroute": "German reroute",
    "place": "Placing reinforcements", "land": "The 260th MS landing", "coastal": "Coastal artillery",
    "improve": "Prepared defences",
}

def _fixed_words_first(specs: list[OrderSpec]) -> list[OrderSpec]:
    """Within a kind, try keyword-only forms ("MOVE DONE") before forms with slots: a miss on a slot
    looks for near names among 1,400 hexes, which is slow, and the fixed forms are the common ones."""
    return sorted(specs, key=lambda spec: (list(dict.fromkeys(x.kind for x in specs)).index(spec.kind),
                                            "<" in spec.syntax))


GRAMMAR = Grammar(_fixed_words_first(SPECS), CONDITIONS, KIND_TITLES)
