"""Combat (L264-326): the procedure step by step, exhaustion, and the battery assault (L338-344).

Steps 5-7 of the procedure are missing from the rulebook text; they are reconstructed from the
worked example (L300-314) and the cross-references, and each such point cites its ruling in
RULINGS.md (R-xx).  Rule options that players could reasonably set otherwise are in `options`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.core.rng import Die
from moderator.games.vmt import retreat
from moderator.games.vmt.board import Board, enemy
from moderator.games.vmt.cards import purge_battery_cards
from moderator.games.vmt.frames import answered, ask, new_frame, options_as_orders
from moderator.games.vmt.state import (
    BATTERY_ASSAULT,
    COMBAT_PROCEDURE,
    ActivationFrame,
    AttackEntry,
    CombatFrame,
    CombatResult,
    CombatStage,
    CombatSummary,
    CounterattackWindowFrame,
    DiceCount,
    StageSequence,
)

SUPPORT_CARDS = {"axis": ("axis_field_artillery", "goliath", "88mm"),
                 "soviet": ("mortars", "minefield", "bunker")}
ATTACK_ONLY = ("goliath", "88mm")  # L495, L501
DEFENCE_ONLY = ("minefield", "bunker")  # L513, L517
EXTRA_DICE = {"axis_field_artillery": 3, "mortars": 2}  # L489, L507


def combat_blocks(board: Board, frame: CombatFrame, side: str) -> list[str]:
    area = frame["area"]
    if side == frame["attacker"]:
        return [e["block"] for e in frame["attackers"] if board.is_in(e["block"], area)]
    return [b for b in frame["defenders"] if board.is_in(b, area)]


def combat_assets(board: Board, frame: CombatFrame, side: str) -> list[str]:
    return board.assets_in(frame["area"], side)


def armor_in(board: Board, frame: CombatFrame, side: str) -> str | None:
    return board.asset_of_kind_in(frame["area"], side, "armor")


def pioneer_in(board: Board, frame: CombatFrame, side: str) -> str | None:
    return board.asset_of_kind_in(frame["area"], side, "pioneer")


# ---------------------------------------------------------------- step 1: the attack is announced


def procedure(frame: CombatFrame) -> StageSequence[CombatStage]:
    """The steps this combat goes through: the battery assault's (L338-344) or the combat procedure's."""
    return BATTERY_ASSAULT if frame["battery"] else COMBAT_PROCEDURE


def next_step(frame: CombatFrame) -> None:
    """Move the combat on to the next step of its procedure."""
    frame["stage"] = procedure(frame).after(frame["stage"])


def result_of(frame: CombatFrame) -> CombatResult:
    """The dice of step 4 and what they did; raises ValueError before the dice are rolled."""
    if frame["result"] is None:
        raise ValueError(f"the combat in {frame['area']} has not rolled yet")
    return frame["result"]


def open_combat(board: Board, activation: ActivationFrame, area: str, entries: list[AttackEntry]) -> None:
    """Step 1 (L270): the attack is announced; with no defender left the area is simply taken."""
    attacker = activation["side"]
    defender = enemy(attacker)
    defenders = sorted(board.blocks_in(area, defender))
    battery = not defenders and attacker == "axis" and board.has_battery(area)
    if not defenders and not battery:
        # The defenders are gone (an air strike or interdiction before the fight): the area is simply taken.
        board.take_control(area, attacker)
        board.emit("combat_void", area=area, side=attacker)
        _return_overstack(board, area, attacker, entries, keep=None)
        return
    frame: CombatFrame = new_frame(
        board, "combat", area=area, attacker=attacker, defender=defender, attackers=entries, defenders=defenders,
        battery=battery, stage=(BATTERY_ASSAULT if battery else COMBAT_PROCEDURE).first,
        cards={attacker: [], defender: []}, counter_window=not activation["reaction"], activation=activation["id"],
        result=None, winner=None, retreating=[], pioneer_acted={attacker: False, defender: False}, allocated={},
        armor_via={}, asset_origins=dict(activation.get("asset_origin", {}).get(area, {})))
    armor = armor_in(board, frame, attacker)
    crossed = activation.get("asset_via", {}).get(area, {})
    if armor is not None and armor in crossed:
        # The boundary the armor counter itself crossed decides the AT ditch die (L352).
        frame["armor_via"] = {"asset": armor, "via": crossed[armor]}
    board.push(frame)
    board.remember("combat", side=attacker, area=area)
    board.emit("combat", area=area, attacker=attacker, attackers=len(entries),
               origins=sorted({e["origin"] for e in entries}), defenders=len(defenders), battery=battery,
               assets={s: [{"asset": a, "type": board.asset(a)["type"], "steps": board.asset(a)["steps"]}
                           for a in combat_assets(board, frame, s)] for s in (attacker, defender)})


# ---------------------------------------------------------------- the frame


class Combat:
    """The handler of a combat frame: support cards, hits, retreat and keep are asked; the rest steps."""

    def decisions(self, board: Board, frame: CombatFrame) -> list[Decision]:
        stage = frame["stage"]
        attacker, defender = frame["attacker"], frame["defender"]
        context = combat_context(board, frame)
        if stage == "support_att":
            return [ask(frame, attacker, "support",
                        f"Combat in {frame['area']}: commit Combat Support cards face down (you attack).",
                        support_options(board, frame, attacker), "SUPPORT NONE", secret=True,
                        deadline="phase" if attacker == board.data["phase_side"] else "reaction",
                        interrupts=None if attacker == board.data["phase_side"] else board.data["phase_side"],
                        context=dict(context, role="attacker"))]
        if stage == "support_def":
            return [ask(frame, defender, "support",
                        f"Combat in {frame['area']}: {context['attackers']} block(s) attack you, with "
                        f"{context['enemy_cards']} card(s) face down. Commit Combat Support cards face down.",
                        support_options(board, frame, defender), "SUPPORT NONE", secret=True,
                        deadline="reaction", interrupts=attacker, context=dict(context, role="defender"))]
        if stage == "hits":
            out = []
            for side in (attacker, defender):
                due = result_of(frame)["hits_on"][side]
                if due and side not in frame["allocated"] and combat_blocks(board, frame, side):
                    sixes = result_of(frame)["sixes_on_attacker"] if side == attacker else 0
                    prompt = (f"Combat in {frame['area']}: allocate {due} hit(s) to your blocks"
                              + (f"; {sixes} of them are 6s that must hit different blocks and exhaust them"
                                 if sixes else "") + "; the first hit goes to a strongest block.")
                    out.append(ask(frame, side, "hits", prompt, ["HITS AUTO", *hit_options(board, frame, side)],
                                   "HITS AUTO",
                                   deadline="reaction", context=dict(context, role="attacker" if side == attacker
                                                                     else "defender")))
            return out
        if stage == "retreat":
            if frame.get("retreat_plan"):
                return []  # the rest of a split retreat goes by itself
            side = retreat.losing_side(frame)
            return [ask(frame, side, "retreat",
                        f"You lost the combat in {frame['area']}: retreat (extra losses in brackets); "
                        f"split your blocks over several areas with AND.",
                        ["RETREAT AUTO", *retreat.retreat_options(board, frame)], "RETREAT AUTO", deadline="reaction",
                        context=dict(context, role="defender", lost=True))]
        if stage == "keep":
            return [ask(frame, attacker, "keep",
                        f"You won {frame['area']} with more than 3 blocks: keep at most 3; the rest go home "
                        f"(not a retreat).", ["KEEP AUTO"], "KEEP AUTO", deadline="reaction")]
        return []

    def legal(self, board: Board, frame: CombatFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: CombatFrame, decision: Decision, order: Order) -> None:
        side = decision.role
        if decision.kind == "support":
            commit_support(board, frame, side, order)
            next_step(frame)  # the attacker's cards, then the defender's (L214)
        elif decision.kind == "hits":
            allocate(board, frame, side, order)
        elif decision.kind == "retreat":
            retreat.apply_retreat(board, frame, order)
        elif decision.kind == "keep":
            keep(board, frame, order)
        answered(frame)

    def step(self, board: Board, frame: CombatFrame) -> bool:
        if board.top() is not frame:
            return False
        stage = frame["stage"]
        if stage == "reveal":
            reveal_and_roll(board, frame)
            return True
        if stage == "roll":
            battery_roll(board, frame)
            return True
        if stage == "hits":
            return auto_allocate_forced(board, frame)
        if stage == "aftermath":
            aftermath(board, frame)
            return True
        if stage == "retreat":
            return retreat.step_retreat(board, frame)
        if stage == "settle":
            settle(board, frame)
            return True
        if stage == "keep":
            if len(combat_blocks(board, frame, frame["attacker"])) <= board.scenario.meta.stacking:
                next_step(frame)
                return True
            return False
        if stage == "counter":
            finish_combat(board, frame)
            return True
        return False


def combat_context(board: Board, frame: CombatFrame) -> dict[str, Any]:
    """What both sides can see at the table when they decide (for standing orders)."""
    attacker = frame["attacker"]
    return {"area": frame["area"], "attackers": len(combat_blocks(board, frame, attacker)),
            "defenders": len(combat_blocks(board, frame, frame["defender"])),
            "armor": {s: armor_in(board, frame, s) is not None for s in (attacker, frame["defender"])},
            "enemy_cards": len(frame["cards"][attacker]),
            "winner": frame.get("winner")}


# ---------------------------------------------------------------- steps 1-2: face-down support


def support_options(board: Board, frame: CombatFrame, side: str) -> list[str]:
    """SUPPORT NONE, then every legal set of the Combat Support cards held, fewest cards first; two copies of
    one card count, for "You can play several cards of the same type in a single combat" (L214)."""
    attacking = side == frame["attacker"]
    held = Counter(card for card in board.hand_types(side) if card in SUPPORT_CARDS[side]
                   and not (card in ATTACK_ONLY and not attacking) and not (card in DEFENCE_ONLY and attacking))
    kinds = sorted(held)
    sets = []
    for counts in itertools.product(*(range(held[card] + 1) for card in kinds)):
        cards = [card for card, count in zip(kinds, counts, strict=True) for _ in range(count)]
        if not cards:
            continue
        try:
            check_support(board, frame, side, cards)
        except IllegalOrder:
            continue
        sets.append(cards)
    sets.sort(key=lambda cards: (len(cards), cards))
    return ["SUPPORT NONE"] + ["SUPPORT " + " ".join(card.upper() for card in cards) for cards in sets]


def check_support(board: Board, frame: CombatFrame, side: str, cards: list[str]) -> None:
    attacking = side == frame["attacker"]
    hand = board.hand_types(side)
    for card in set(cards):
        if card not in SUPPORT_CARDS[side]:
            raise IllegalOrder(f"{card.upper()} is not one of your Combat Support cards")
        if hand.count(card) < cards.count(card):
            raise IllegalOrder(f"you hold {hand.count(card)} {card.upper()} card(s)")
        if card in ATTACK_ONLY and not attacking:
            raise IllegalOrder(f"{card.upper()} is played only when attacking")
        if card in DEFENCE_ONLY and attacking:
            raise IllegalOrder(f"{card.upper()} is played only when defending")
    if cards.count("88mm") > 1:
        raise IllegalOrder("at most one 88mm card per combat")
    for marker in ("minefield", "bunker"):
        if cards.count(marker) > 1:
            raise IllegalOrder(f"at most one {marker.upper()} card per combat")
        if marker in cards and board.marker(frame["area"], marker):
            raise IllegalOrder(f"{frame['area']} already has a {marker} marker")
    if cards.count("axis_field_artillery") > 1 and _romanians_involved(board, frame):
        raise IllegalOrder("with Romanian blocks in the combat, at most one Field Artillery card")


def _romanians_involved(board: Board, frame: CombatFrame) -> bool:
    blocks = combat_blocks(board, frame, frame["attacker"]) + combat_blocks(board, frame, frame["defender"])
    return any(board.is_romanian(b) for b in blocks)


def commit_support(board: Board, frame: CombatFrame, side: str, order: Order) -> None:
    """Commit face down; once the defender has committed, nothing changes (L214)."""
    cards = [] if order.form == "none" else [str(c).lower() for c in order.values("cards")]
    check_support(board, frame, side, cards)
    taken = [board.take_from_hand(side, c) for c in cards]
    frame["cards"][side] = taken
    board.emit("support_committed", side=side, count=len(taken), area=frame["area"])
    board.emit("support_committed_cards", visible_to=(side,), side=side, cards=cards)


# ---------------------------------------------------------------- steps 2-4: reveal and roll


def reveal_and_roll(board: Board, frame: CombatFrame) -> None:
    area = frame["area"]
    attacker, defender = frame["attacker"], frame["defender"]
    cards = {s: [board.card_type(c) for c in frame["cards"][s]] for s in (attacker, defender)}
    for side in (attacker, defender):
        for card in frame["cards"][side]:
            board.discard(side, card)
    # Both sides reveal their blocks and the cards played (L272).
    board.emit("revealed", area=area, cards=cards,
               blocks={s: [{"block": b, "sp": board.sp(b), "exhausted": board.is_exhausted(b)}
                           for b in combat_blocks(board, frame, s)] for s in (attacker, defender)})
    soviet_defends = defender == "soviet"
    # -- markers placed by the revealed cards, and their removal (L495, L501, L513, L517, L260)
    if soviet_defends:
        for card, marker in (("minefield", "minefield"), ("bunker", "bunker")):
            if card in cards["soviet"]:
                cancelled_by = "goliath" if marker == "minefield" else "88mm"
                if cancelled_by in cards["axis"]:
                    # Goliath / 88mm cancel "placement of the Minefield/Bunker" only (L495, L501);
                    # the card's AT marker is still placed (L513, L517).
                    board.emit("marker_cancelled", area=area, marker=marker, by=cancelled_by)
                else:
                    board.set_marker(area, marker, True)
                    board.emit("marker_placed", area=area, marker=marker)
                place_at_marker(board, area)
        if "goliath" in cards["axis"] and board.marker(area, "minefield"):
            board.set_marker(area, "minefield", False)
            board.emit("marker_removed", area=area, marker="minefield", by="goliath")
        if "88mm" in cards["axis"] and board.marker(area, "bunker"):
            board.set_marker(area, "bunker", False)
            board.emit("marker_removed", area=area, marker="bunker", by="88mm")
    if board.marker(area, "minefield") and pioneer_in(board, frame, "axis") is not None:
        board.set_marker(area, "minefield", False)
        frame["pioneer_acted"]["axis"] = True
        board.emit("marker_removed", area=area, marker="minefield", by=pioneer_in(board, frame, "axis"))
    # -- anti-armor fire, all rolled then applied (L246, L252, L352; ruling R-ARMOR)
    anti_armor(board, frame)
    # -- step 3: dice
    dice = {side: count_dice(board, frame, side, cards) for side in (attacker, defender)}
    rolled = {side: board.roll(dice[side]["total"], f"combat {area} {side}") for side in (attacker, defender)}
    finish_roll(board, frame, dice, rolled)


def place_at_marker(board: Board, area: str) -> None:
    """The Minefield/Bunker card also places an AT marker, if one is free and the area has none (L513)."""
    if board.marker(area, "at"):
        return
    if len(board.markers_on_map("at")) >= board.marker_limit("at"):
        board.emit("marker_short", area=area, marker="at")
        return
    board.set_marker(area, "at", True)
    board.emit("marker_placed", area=area, marker="at")


def anti_armor(board: Board, frame: CombatFrame) -> None:
    area = frame["area"]
    axis_armor = armor_in(board, frame, "axis")
    soviet_armor = armor_in(board, frame, "soviet")
    shots: list[tuple[str, str, str]] = []  # (firing side, reason, target asset)
    if axis_armor is not None:
        if board.marker(area, "at"):
            shots.append(("soviet", "AT gun", axis_armor))
        if soviet_armor is not None:
            shots.append(("soviet", f"armor {soviet_armor}", axis_armor))
        if frame["defender"] == "soviet" and frame["attacker"] == "axis" and frame["armor_via"]:
            border = board.geo.border(frame["armor_via"]["via"], area)
            if border is not None and border.kind == "ditch" and border.teeth_from == frame["armor_via"]["via"]:
                shots.append(("soviet", "AT ditch", axis_armor))
    if soviet_armor is not None and axis_armor is not None:
        shots.append(("axis", f"armor {axis_armor}", soviet_armor))
    if not shots:
        return
    results = []
    for side, reason, target in shots:
        die = board.roll(1, f"anti-armor {reason} at {target}")[0]
        results.append((side, reason, target, die))
    for side, reason, target, die in results:
        hit = die.value >= 5
        board.emit("anti_armor", area=area, side=side, reason=reason, target=target, die=die.to_json(), hit=hit)
        if hit and board.asset(target)["status"] == "map":
            board.hit_asset(target, f"{reason} fire")


def count_dice(board: Board, frame: CombatFrame, side: str, cards: dict[str, list[str]]) -> DiceCount:
    """Step 3 (L274-290): dice per block, superiority, terrain, counters, cards; never below one."""
    area = frame["area"]
    attacker = frame["attacker"]
    mine = combat_blocks(board, frame, side)
    theirs = combat_blocks(board, frame, enemy(side))
    parts: list[tuple[str, int]] = [("blocks", len(mine))]
    if side == "soviet" and any("nkvd_extra_die" in board.geo.blocks[b].special for b in mine):
        parts.append(("456th NKVD", 1))
    if sum(board.sp(b) for b in mine) > sum(board.sp(b) for b in theirs):
        parts.append(("more strength points", 1))
    if side == attacker:
        crossed = [e["crossed"] for e in frame["attackers"] if board.is_in(e["block"], area)]
        if crossed and all(c in ("river", "ferry") for c in crossed) and river_die_lost(board, side):
            parts.append(("all attackers crossed a river or ferry", -1))
        if board.geo.areas[area].terrain == "rough":
            parts.append(("rough terrain", -1))
    if side == "soviet" and pioneer_in(board, frame, "soviet") is not None:
        parts.append(("Soviet pioneers", 1))
        frame["pioneer_acted"]["soviet"] = True
    armor = armor_in(board, frame, side)
    if side == "axis" and armor is not None and board.asset(armor)["type"] == "stug":
        parts.append(("StuG assault guns", 1))
    if side == "soviet" and frame["defender"] == "soviet" and board.marker(area, "minefield") \
            and board.options.get("minefield_effect") == "extra_die":
        parts.append(("minefield", 1))
    for card in cards[side]:
        if card in EXTRA_DICE:
            parts.append((card.replace("_", " "), EXTRA_DICE[card]))
    total = max(1, sum(n for _, n in parts))
    return {"parts": parts, "total": total}


def river_die_lost(board: Board, side: str) -> bool:
    """L282's die lost across a river applies to both sides: "(this can only be done by the Germans)" restates
    the ferry restriction of L380 (ruling R-RIVER); option soviet_river_attack=no_penalty spares the Soviet."""
    return side == "axis" or board.options.get("soviet_river_attack") != "no_penalty"


def finish_roll(board: Board, frame: CombatFrame, dice: dict[str, DiceCount], rolled: dict[str, list[Die]]) -> None:
    """Step 4 (L292-296, L366): modifiers, hits, cancellation (L252, L310), the defender's 6s (L320)."""
    area = frame["area"]
    attacker, defender = frame["attacker"], frame["defender"]
    modified: dict[str, list[int]] = {}
    notes: dict[str, list[str]] = {}
    for side in (attacker, defender):
        modified[side], notes[side] = modify_dice(board, frame, side, [d.value for d in rolled[side]])
    hits = {side: sum(1 for v in modified[side] if v >= 5) for side in modified}
    sixes = {side: sum(1 for v in modified[side] if v >= 6) for side in modified}
    # A cancellation takes away a hit scored (L252 "subtract one hit from the hits inflicted", L310): with no
    # hit to take, nothing is cancelled, so only the cancellations that found a hit are told.
    cancelled_by = {side: by[:hits[side]] for side, by in hits_cancelled(board, frame).items()}
    cancels = {side: len(by) for side, by in cancelled_by.items()}
    for side in modified:
        n = cancels[side]
        hits[side] -= n
        if side == defender:
            sixes[side] -= min(n, sixes[side])  # the canceller removes 6s first: that spares an exhaustion (L310)
    result: CombatResult = {
        "dice": {s: dice[s] for s in modified},
        "rolls": {s: [d.to_json() for d in rolled[s]] for s in modified},
        "modified": modified, "notes": notes, "cancelled": cancels,
        "hits_on": {attacker: hits[defender], defender: hits[attacker]},
        "hits_suffered": {attacker: hits[defender], defender: hits[attacker]},
        "sixes_on_attacker": sixes[defender],
    }
    frame["result"] = result
    board.emit("combat_roll", area=area, attacker=attacker, defender=defender,
               dice={s: {"parts": dice[s]["parts"], "total": dice[s]["total"], "dice": result["rolls"][s],
                         "modified": modified[s], "notes": notes[s]} for s in modified},
               cancelled=cancels, cancelled_by=cancelled_by, hits={attacker: hits[attacker], defender: hits[defender]},
               sixes=sixes[defender])
    next_step(frame)


def modify_dice(board: Board, frame: CombatFrame, side: str, values: list[int]) -> tuple[list[int], list[str]]:
    """One side's dice after the trench and armor modifiers (L292-296, L366), with a note per modifier."""
    area = frame["area"]
    notes: list[str] = []
    defending = side == frame["defender"]
    if side == "axis" and defending and board.has_intact_trench(area, "axis"):
        values = [v + 1 for v in values]  # Axis trench: +1 to ALL dice (L366)
        notes.append("+1 to every die (Axis trench)")
    plus_ones = []
    armor = armor_in(board, frame, side)
    if armor is not None and board.asset(armor)["type"] in ("pz3", "t26"):
        plus_ones.append(f"+1 to one die ({armor})")
    if side == "soviet" and defending and board.has_intact_trench(area, "soviet"):
        plus_ones.append("+1 to one die (Soviet trench)")
    used: set[int] = set()
    for label in plus_ones[:len(values)]:  # one die rolled: only one +1 (L296)
        index = _best_die(values, used, defending)
        if index is None:
            continue
        used.add(index)
        values[index] += 1
        notes.append(label)
    return values, notes


def hits_cancelled(board: Board, frame: CombatFrame) -> dict[str, list[str]]:
    """What may cancel each side's hits, one hit each: an enemy Armor counter (its id); a Bunker (and, by
    option, a Minefield) an Axis hit ("bunker", "minefield") (L252, L310; ruling R-MINES)."""
    attacker, defender = frame["attacker"], frame["defender"]
    cancels: dict[str, list[str]] = {attacker: [], defender: []}
    for side in (attacker, defender):
        armor = armor_in(board, frame, side)
        if armor is not None:
            cancels[enemy(side)].append(armor)
    area = frame["area"]
    if defender == "soviet":
        if board.marker(area, "bunker"):
            cancels["axis"].append("bunker")
        if board.marker(area, "minefield") and board.options.get("minefield_effect", "cancel_hit") == "cancel_hit":
            cancels["axis"].append("minefield")
    return cancels


def _best_die(values: list[int], used: set[int], defending: bool) -> int | None:
    """Where a +1 does most: a 4 becomes a hit; for a defender a 5 becomes an exhausting 6 (ruling R-MOD)."""
    free = [i for i in range(len(values)) if i not in used]
    if not free:
        return None
    for wanted in (4, 5) if defending else (4,):
        for i in free:
            if values[i] == wanted:
                return i
    return free[0]


# ---------------------------------------------------------------- step 5: casualties (reconstructed)


def allocation_constraints(board: Board, frame: CombatFrame, side: str) -> tuple[int, int, list[str]]:
    due = result_of(frame)["hits_on"][side]
    sixes = result_of(frame)["sixes_on_attacker"] if side == frame["attacker"] else 0
    return due, sixes, combat_blocks(board, frame, side)


def auto_hits(board: Board, frame: CombatFrame, side: str) -> list[str]:
    """The default: each hit to the currently strongest block; 6s to different blocks first."""
    due, sixes, blocks = allocation_constraints(board, frame, side)
    sp = {b: board.sp(b) for b in blocks}
    order: list[str] = []
    distinct = min(sixes, len(blocks))
    for _ in range(distinct):
        candidates = [b for b in blocks if b not in order and sp[b] > 0]
        if not candidates:
            break
        choice = max(candidates, key=lambda b: (sp[b], b))
        order.append(choice)
        sp[choice] -= 1
    while len(order) < due and any(v > 0 for v in sp.values()):
        choice = max((b for b in blocks if sp[b] > 0), key=lambda b: (sp[b], b))
        order.append(choice)
        sp[choice] -= 1
    return order


#: Hit allocations are listed as options while there are no more candidate orders than this to check.
MOST_HIT_ORDERS = 729


def hit_options(board: Board, frame: CombatFrame, side: str) -> list[str]:
    """Every legal allocation of the hits due (L312, L320), as HITS orders, when there are few enough
    to list (a player then sees the blocks each hit may fall on); else none (HITS AUTO stays)."""
    due, _sixes, blocks = allocation_constraints(board, frame, side)
    needed = min(due, sum(board.sp(b) for b in blocks))
    if not needed or len(blocks) ** needed > MOST_HIT_ORDERS:
        return []
    legal = []
    for order in itertools.product(sorted(blocks), repeat=needed):
        try:
            check_hits(board, frame, side, list(order))
        except IllegalOrder:
            continue
        legal.append("HITS " + " ".join(order))
    return legal


def check_hits(board: Board, frame: CombatFrame, side: str, order: list[str]) -> None:
    due, sixes, blocks = allocation_constraints(board, frame, side)
    capacity = sum(board.sp(b) for b in blocks)
    needed = min(due, capacity)
    if len(order) != needed:
        raise IllegalOrder(f"name {needed} block(s), one per hit (you named {len(order)})")
    for block in order:
        if block not in blocks:
            raise IllegalOrder(f"{block} is not one of your blocks in this combat")
    for block in set(order):
        if order.count(block) > board.sp(block):
            raise IllegalOrder(f"{block} has only {board.sp(block)} SP")
    strongest = max(board.sp(b) for b in blocks)
    distinct = min(sixes, len(blocks))
    # The first hit goes to a block with the most SP (L312).  When 6s must be placed first, the
    # strongest block may take either a 6 or the first ordinary hit (ruling R-WIN).
    first = order[:distinct + 1] if distinct else order[:1]
    if not any(board.sp(b) == strongest for b in first):
        raise IllegalOrder(f"the first hit must go to a block with the most SP ({strongest})")
    if len(set(order[:distinct])) != distinct:
        raise IllegalOrder(f"the first {distinct} block(s) you name take the 6s and must be different blocks")


def allocate(board: Board, frame: CombatFrame, side: str, order: Order) -> None:
    hits = auto_hits(board, frame, side) if order.form == "auto" else [str(b) for b in order.values("blocks")]
    check_hits(board, frame, side, hits)
    apply_hits(board, frame, side, hits)


def apply_hits(board: Board, frame: CombatFrame, side: str, hits: list[str]) -> None:
    _, sixes, blocks = allocation_constraints(board, frame, side)
    exhausted = hits[:min(sixes, len(blocks))] if side == frame["attacker"] else []
    public = []
    for block in hits:
        board.lose_step(block, cause=f"combat in {frame['area']}")
    for block in set(exhausted):
        if board.is_on_map(block):
            board.block(block)["exhausted"] = True  # L320: a block hit by a 6 is Exhausted
    for block in dict.fromkeys(hits):
        public.append({"block": block, "hits": hits.count(block), "sp": board.sp(block),
                       "exhausted": block in exhausted and board.is_on_map(block)})
    frame["allocated"][side] = hits
    board.emit("casualties", area=frame["area"], side=side, blocks=public)
    if frame["stage"] == "hits" and all(
            s in frame["allocated"] or not result_of(frame)["hits_on"][s] or not combat_blocks(board, frame, s)
            for s in (frame["attacker"], frame["defender"])):
        next_step(frame)


def auto_allocate_forced(board: Board, frame: CombatFrame) -> bool:
    """No choice to make (no hit, one block, or hits enough to kill everything): apply at once."""
    changed = False
    for side in (frame["attacker"], frame["defender"]):
        if side in frame["allocated"]:
            continue
        due, _sixes, blocks = allocation_constraints(board, frame, side)
        if not due or not blocks:
            frame["allocated"][side] = []
            changed = True
            continue
        if len(blocks) == 1 or due >= sum(board.sp(b) for b in blocks):
            apply_hits(board, frame, side, auto_hits(board, frame, side))
            changed = True
    if all(s in frame["allocated"] for s in (frame["attacker"], frame["defender"])) and frame["stage"] == "hits":
        next_step(frame)
        changed = True
    return changed


# ---------------------------------------------------------------- steps 5b-7: who won, retreat


def aftermath(board: Board, frame: CombatFrame) -> None:
    area = frame["area"]
    attacker, defender = frame["attacker"], frame["defender"]
    # Pioneer self-loss roll (L260): the Soviet pioneer always acts; the Axis one if it lifted mines
    # (ruling R-PIONEER; option pioneer_roll=always makes every pioneer in a combat roll).
    for side in (attacker, defender):
        pioneer = pioneer_in(board, frame, side)
        if pioneer is None:
            continue
        if frame["pioneer_acted"][side] or board.options.get("pioneer_roll") == "always":
            die = board.roll(1, f"pioneer {pioneer} self-loss")[0]
            board.emit("pioneer_roll", area=area, asset=pioneer, die=die.to_json(), hit=die.value >= 5)
            if die.value >= 5:
                board.hit_asset(pioneer, "engineering losses")
    if frame["battery"]:
        battery_outcome(board, frame)
        return
    frame["winner"] = decide_winner(board, frame)
    loser = None if frame["winner"] is None else enemy(frame["winner"])
    frame["loser"] = loser
    suffered = result_of(frame)["hits_suffered"]
    board.emit("combat_result", area=area, winner=frame["winner"], attacker=attacker,
               hits={s: suffered[s] for s in (attacker, defender)})
    if loser is not None and combat_blocks(board, frame, loser):
        next_step(frame)
        if loser == defender:
            frame["retreating"] = combat_blocks(board, frame, defender)
    else:
        frame["stage"] = retreat.AFTER_RETREAT  # nobody left to retreat


def decide_winner(board: Board, frame: CombatFrame) -> str | None:
    """Step 6 (ruling R-WIN): the side that suffered more hits loses (L314); ties go to a defender in
    its own intact trench (L362, L367), otherwise to the option `tie_winner` (default: attacker)."""
    attacker, defender = frame["attacker"], frame["defender"]
    alive_a = bool(combat_blocks(board, frame, attacker))
    alive_d = bool(combat_blocks(board, frame, defender))
    if not alive_a and not alive_d:
        return None
    if not alive_d:
        return attacker
    if not alive_a:
        return defender
    suffered = result_of(frame)["hits_suffered"]
    if suffered[attacker] > suffered[defender]:
        return defender
    if suffered[defender] > suffered[attacker]:
        return attacker
    if board.has_intact_trench(frame["area"], defender):
        return defender
    return defender if board.options.get("tie_winner", "attacker") == "defender" else attacker


def settle(board: Board, frame: CombatFrame) -> None:
    """After the retreat: markers, trenches, control (L238, L370, L390)."""
    area = frame["area"]
    winner = frame["winner"]
    attacker, defender = frame["attacker"], frame["defender"]
    if winner == attacker and not board.blocks_in(area, defender):
        if defender == "soviet":
            for kind in ("at", "bunker"):
                if board.marker(area, kind):
                    board.set_marker(area, kind, False)
                    board.emit("marker_withdrawn", area=area, marker=kind)
            if board.has_intact_trench(area, "soviet"):
                board.disable_trench(area)
        if board.blocks_in(area, attacker):
            board.take_control(area, attacker)
    next_step(frame)


def keep(board: Board, frame: CombatFrame, order: Order) -> None:
    """The winner of an over-stacked attack keeps 3 blocks; the rest go home (L190, L206)."""
    area = frame["area"]
    present = combat_blocks(board, frame, frame["attacker"])
    if order.form == "auto":
        chosen = sorted(present, key=lambda b: (board.is_exhausted(b), -board.sp(b), b))[:board.scenario.meta.stacking]
    else:
        chosen = [str(b) for b in order.values("blocks")]
    if len(chosen) > board.scenario.meta.stacking or any(b not in present for b in chosen):
        raise IllegalOrder(f"name at most {board.scenario.meta.stacking} of your blocks in {area}")
    _return_overstack(board, area, frame["attacker"], frame["attackers"], keep=chosen)
    next_step(frame)


def _return_overstack(board: Board, area: str, side: str, entries: list[AttackEntry], keep: list[str] | None) -> None:
    present = [e for e in entries if board.is_in(e["block"], area)]
    if keep is None:
        keep = [e["block"] for e in present][:board.scenario.meta.stacking]
    going = [e for e in present if e["block"] not in keep]
    for entry in going:
        board.relocate(entry["block"], entry["origin"])
    if going:
        board.emit("returned", area=area, side=side, count=len(going),
                   origins=sorted({e["origin"] for e in going}))
        # One Armor and one Pioneer per area at all times (L190): extra assets go home too.
        for kind in ("armor", "pioneer"):
            mine = [a for a in board.assets_in(area, side) if board.asset_kind(a) == kind]
            for asset_id in mine[1:]:
                board.asset(asset_id)["area"] = going[0]["origin"]


def finish_combat(board: Board, frame: CombatFrame) -> None:
    """The combat is over: it is remembered for the views, and the Counterattack window may open (L439)."""
    board.pop()
    summary: CombatSummary = {"area": frame["area"], "attacker": frame["attacker"], "winner": frame["winner"],
                              "battery": frame["battery"]}
    board.data["last_combat"] = summary
    board.emit("combat_over", area=summary["area"], attacker=summary["attacker"], winner=summary["winner"],
               battery=summary["battery"])
    if frame["counter_window"]:
        open_counterattack_window(board, frame)


def open_counterattack_window(board: Board, combat: CombatFrame) -> None:
    """After each combat the phasing player resolves, the opponent may Counterattack (L160, L192, L439);
    combats a Counterattack starts open no new window (ruling R-CA).  The window is a frame: the fire
    module's handler answers it, starting the Counterattack's activation from above."""
    phasing = board.data["phase_side"]
    if combat["attacker"] != phasing:
        return
    window: CounterattackWindowFrame = new_frame(board, "window", window="counterattack", side=enemy(phasing),
                                                 area=combat["area"], winner=combat["winner"])
    board.push(window)


# ---------------------------------------------------------------- battery assault (L338-344)


def battery_roll(board: Board, frame: CombatFrame) -> None:
    """The battery rolls 2d6; the Axis 1d6 per fresh block in the area, with Armor; no cards (L340-342)."""
    area = frame["area"]
    axis_blocks = [b for b in board.blocks_in(area, "axis") if not board.is_exhausted(b)]
    frame["attackers"] = [e for e in frame["attackers"] if e["block"] in axis_blocks] + [
        {"block": b, "origin": area, "crossed": "none", "via": area}
        for b in axis_blocks if b not in [e["block"] for e in frame["attackers"]]]
    anti_armor(board, frame)
    parts = [("blocks", len(axis_blocks))]
    armor = armor_in(board, frame, "axis")
    if armor is not None and board.asset(armor)["type"] == "stug":
        parts.append(("StuG assault guns", 1))
    axis_dice: DiceCount = {"parts": parts, "total": max(1, sum(n for _, n in parts))}
    battery_dice: DiceCount = {"parts": [("battery", 2)], "total": 2}
    rolled = {"axis": board.roll(axis_dice["total"], f"battery assault {area}"),
             "soviet": board.roll(2, f"battery {area} defence")}
    finish_roll(board, frame, {"axis": axis_dice, "soviet": battery_dice}, rolled)
    result_of(frame)["hits_on"]["soviet"] = 0  # the battery has no blocks; Axis hits strike the battery


def battery_outcome(board: Board, frame: CombatFrame) -> None:
    area = frame["area"]
    hits = result_of(frame)["hits_suffered"]["soviet"]
    destroyed = hits >= 1
    frame["winner"] = "axis" if destroyed else "soviet"
    board.emit("battery_assault", area=area, hits=hits, destroyed=destroyed)
    if destroyed:
        destroy_battery(board, area)
    next_step(frame)  # no retreat either way (L343)


def destroy_battery(board: Board, area: str) -> None:
    """A battery hit once is destroyed for good (L336, L344); its cards leave the hands once none is left."""
    if area not in board.data["batteries_destroyed"]:
        board.data["batteries_destroyed"].append(area)
        board.emit("battery_destroyed", area=area)
    if board.blocks_in(area, "axis") and not board.blocks_in(area, "soviet"):
        board.take_control(area, "axis")  # the area changes to Axis control at once (L344, ruling R-BATTERY)
    purge_battery_cards(board)
