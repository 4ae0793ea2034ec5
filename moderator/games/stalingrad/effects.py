"""The icon primitives (§Effects), Terror Tactics (§Units), Spillover (§Destroying), Sniper Shots (§Sniper),
Deplete / Supply (§Deplete) and Overrun (§Overrun), resolved one at a time from an effects frame.

An effect is an item of the frame's queue: ``{icon, unit, n, side, why, district}``; `side` is the
attacker (the player using it, §Effects).  Items that need a choice ask the one player who makes it:
the defender for Kill casualties, the attacker for everything else.  Rulings: S-16, S-17, S-52,
S-70, S-74, S-76, S-78.
"""

from __future__ import annotations

from typing import Any

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask
from moderator.core.grammar import Order
from moderator.games.stalingrad import advanced
from moderator.games.stalingrad.board import Board, enemy
from moderator.games.stalingrad.heroes import heroes_of, snipe_hero
from moderator.games.stalingrad.queue import items_of, overrun, queue_effects
from moderator.games.stalingrad.scenario import Effect
from moderator.games.stalingrad.state import EffectsFrame
from moderator.games.stalingrad.tracks import add_buckets, add_fires

#: §Effects: what AUTO loses first, targets first, snipes first
AUTO_LOSSES = ("Rifle", "Grenadier", "Recon", "Motivator")
AUTO_TARGETS = ("Armor", "Fort", "Motivator", "Recon", "Grenadier", "Rifle")
DECISION_OF = {"kill": "casualty", "pkill": "target", "sniper": "sniper", "deplete": "deplete", "supply": "supply",
               "overrun": "overrun", "spill": "spillover", **advanced.DECISIONS}


# ---------------------------------------------------------------- what an item asks

def choices(board: Board, item: dict[str, Any]) -> list[str]:
    """The legal answers (order text) to the item's choice; empty: nothing to choose (auto or lost)."""
    icon, side, district = item["icon"], item["side"], item["district"]
    foe = enemy(side)
    if icon == "spill":
        return ["SPILL FIRE", "SPILL BUCKET", "SPILL NONE"] + (["SPILL HOLD"] if item.get("defer") else [])
    if icon == "kill":
        return [f"LOSE {core}" for core in board.unshielded_cores(district, foe)]
    if icon == "pkill":
        return [f"TARGET {core}" for core in board.cores_on(district, foe)]
    if icon == "sniper":
        leaders = [f"SNIPE LEADER {f}" for f in board.battling(foe) if board.leader(f) is not None]
        heroes = [f"SNIPE HERO {card}" for card in heroes_of(board, foe)]
        return leaders + heroes + [f"SNIPE {core}" for core in board.unshielded_cores(district, foe)]
    if icon in advanced.DECISIONS:
        return advanced.choices(board, item)
    if icon == "deplete":
        return [f"DEPLETE {f}" for f in deplete_targets(board, side)]
    if icon == "supply":
        return [f"SUPPLY {f}" for f in supply_targets(board, side)]
    if icon == "overrun":
        return [f"OVERRUN {f}" for f in board.formations_at("staging", side)] + (
            ["OVERRUN NONE"] if board.formations_at("staging", side) else [])
    return []


def chooser(item: dict[str, Any]) -> str:
    """§Effects: the defender chooses Kill casualties; the attacker every other target."""
    return enemy(item["side"]) if item["icon"] == "kill" else item["side"]


def deplete_targets(board: Board, side: str) -> list[str]:
    """Ruling S-34: the enemy's formations in the battle not yet depleted this round (§Deplete A)."""
    return [f for f in board.battling(enemy(side)) if f not in board.battle["depleted_round"]]


def supply_targets(board: Board, side: str) -> list[str]:
    """§Deplete B, ruling S-32: any of the side's depleted formations in play (in a battle, waiting, staging)."""
    return [f.id for f in board.scenario.formations_of(side) if board.in_play(f.id) and board.is_depleted(f.id)]


# ---------------------------------------------------------------- the frame

class Effects:
    """Resolves a queue of effects one at a time, asking whoever must choose (ruling S-70)."""

    def decisions(self, board: Board, frame: EffectsFrame) -> list[Decision]:
        item = frame["queue"][0]
        options = choices(board, item)
        role = chooser(item)
        kind = DECISION_OF[item["icon"]]
        active = board.battle["active"] if board.data["battle"] else None
        prompt = (f"{_title(item)} at {board.building_name(item['district'])} ({item['why']}): "
                  f"{_PROMPTS[kind]}")
        return [ask(frame, role, kind, prompt, options, AUTO_ANSWER[kind], deadline="reaction",
                    interrupts=active if active not in (None, role) else None,
                    context={"district": item["district"], "kind": kind})]

    def legal(self, board: Board, frame: EffectsFrame, decision: Decision) -> list[Order]:
        orders = [_order(decision.kind, text) for text in choices(board, frame["queue"][0])]
        return orders + [_order(decision.kind, AUTO_ANSWER[decision.kind])]

    def apply(self, board: Board, frame: EffectsFrame, decision: Decision, order: Order) -> None:
        item = frame["queue"].pop(0)
        answered(frame)
        from_order(board, item, order)

    def step(self, board: Board, frame: EffectsFrame) -> bool:
        if board.data["battle"] is not None and board.battle["routed"]:
            frame["queue"].clear()
        if not frame["queue"]:
            board.pop()
            return True
        item = frame["queue"][0]
        if item["icon"] == "tongues" and not item.get("shown"):
            show_german_hand(board, item)
            return True
        if item["icon"] in ("kill", "pkill") and not board.unit_count(item["district"], enemy(item["side"])):
            frame["queue"].pop(0)
            frame["queue"][0:0] = spill_or_defer(board, item)
            return True
        if item["icon"] in DECISION_OF:
            options = choices(board, item)
            if len(options) > 1 or (options and item["icon"] in ("spill", "overrun")):
                return False
            frame["queue"].pop(0)
            resolve_forced(board, item, options)
        else:
            frame["queue"].pop(0)
            resolve_auto(board, item)
        if board.data["battle"] is not None and board.has_routed():
            board.battle["routed"] = True  # §Battle 4 note, ruling S-20
        return True


def show_german_hand(board: Board, item: dict[str, Any]) -> None:
    """§Advanced Collecting Tongues: the German hands his hand to the Soviet (only he sees the cards)."""
    item["shown"] = True
    hand = sorted(board.side("german")["hand"])
    board.emit("hand_shown", visible_to=["soviet"], side="german", cards=hand)
    board.emit("hand_shown", hidden_from=["soviet"], side="german", count=len(hand))


def spill_or_defer(board: Board, item: dict[str, Any]) -> list[dict[str, Any]]:
    """§Destroying Spillover, ruling S-16: a Kill or Precision Kill on a building without defending units may
    advance the Fire or Bucket Counter instead; a Soviet vanguard's may wait for the German vanguards (§Battle 1,
    ruling S-17); never in a Break Test (§Battle 5 B)."""
    if item.get("no_spill"):
        return []
    return [dict(item, icon="spill", held=item["icon"])]


_PROMPTS = {
    "casualty": "choose the unshielded unit you lose (LOSE <unit> ..., in order of preference, or LOSE AUTO).",
    "target": "choose the enemy unit destroyed (TARGET <unit> ..., or TARGET AUTO).",
    "sniper": "choose the target (SNIPE LEADER <formation>, SNIPE <unit> ..., or SNIPE AUTO).",
    "deplete": "choose the enemy formation depleted (DEPLETE <formation>, or DEPLETE AUTO).",
    "supply": "choose your depleted formation supplied (SUPPLY <formation>, or SUPPLY AUTO).",
    "overrun": "choose a formation of your Staging Line to join the battle (OVERRUN <formation>, OVERRUN NONE).",
    "promote": "choose the formation whose General is promoted (PROMOTE <formation>, or PROMOTE AUTO).",
    "tongues": "the German hand is shown to you: choose the card it discards (TONGUES <card>, or TONGUES AUTO).",
    "ratswar": "choose the card of your Discard Pile you take back (RETRIEVE <card>, or RETRIEVE AUTO).",
    "spillover": ("no defending unit is left: advance the Fire or the Bucket Counter (SPILL FIRE|BUCKET|NONE|AUTO); "
                  "a Soviet vanguard's Kill may wait for the German vanguards (SPILL HOLD)."),
}
AUTO_ANSWER = {**advanced.AUTO, "casualty": "LOSE AUTO", "target": "TARGET AUTO", "sniper": "SNIPE AUTO",
               "deplete": "DEPLETE AUTO", "supply": "SUPPLY AUTO", "overrun": "OVERRUN AUTO", "spillover": "SPILL AUTO"}
_FORMS = {"LOSE": ("casualty", "units"), "TARGET": ("target", "units"), "DEPLETE": ("deplete", "formation"),
          "SUPPLY": ("supply", "formation"), "OVERRUN": ("overrun", "formation")}


def _title(item: dict[str, Any]) -> str:
    names = {"kill": "a Kill", "pkill": "a Precision Kill", "sniper": "a Sniper Shot", "deplete": "a Deplete",
             "supply": "a Supply", "overrun": "an Overrun", "spill": "Spillover Damage", "promote": "a Promotion",
             "tongues": "Collecting Tongues", "rats_war": "Rat's War", "deplete_own": "Last Stand's own Deplete"}
    return f"{item['side'].title()} {names[item['icon']]}"


def _order(kind: str, text: str) -> Order:
    """The canonical order for a choice's text (the grammar's forms, built without a lexicon)."""
    words = text.split()
    if words[-1] in ("AUTO", "NONE") and len(words) == 2:
        return Order.make(kind, words[-1].lower()) if kind != "spillover" else Order.make(kind, "to", where=words[1])
    if kind == "spillover":
        return Order.make(kind, "to", where=words[1])
    if kind in ("promote", "tongues", "ratswar"):
        return Order.make(kind, "target", target=words[1])
    if kind == "sniper":
        if words[1] == "HERO":
            return Order.make(kind, "hero", hero=words[2])
        if words[1] == "LEADER":
            return Order.make(kind, "leader", formation=words[2])
        return Order.make(kind, "units", units=(words[1],))
    form = _FORMS[words[0]][1]
    return Order.make(kind, form, **({"units": (words[1],)} if form == "units" else {"formation": words[1]}))


def _wanted(kind: str, order: Order) -> list[str]:
    """The choices an order names, in its order of preference."""
    if order.form == "none":
        return ["OVERRUN NONE"]
    if kind == "spillover":
        return [f"SPILL {order.get('where')}"]
    if order.form == "leader":
        return [f"SNIPE LEADER {order.get('formation')}"]
    if order.form == "hero":
        return [f"SNIPE HERO {order.get('hero')}"]
    if kind in ("promote", "tongues", "ratswar"):
        word = {"promote": "PROMOTE", "tongues": "TONGUES", "ratswar": "RETRIEVE"}[kind]
        return [f"{word} {order.get('target')}"]
    verb = {"casualty": "LOSE", "target": "TARGET", "sniper": "SNIPE"}.get(kind)
    if verb:
        return [f"{verb} {unit}" for unit in order.values("units")]
    return [f"{kind.upper()} {order.get('formation')}"]


def auto_choice(board: Board, item: dict[str, Any], options: list[str]) -> str:
    """What AUTO chooses (ruling S-74): cheap losses, strong targets, leaders first for snipers, a
    depleted enemy for a Deplete (it is destroyed), a formation in this battle for a Supply."""
    kind = DECISION_OF[item["icon"]]
    if item["icon"] in advanced.DECISIONS:
        return advanced.auto_choice(board, item, options)
    if kind == "spillover":
        if item.get("defer"):
            return "SPILL HOLD"  # §Battle 1: the Soviet holds his fire for the German vanguards' units
        return "SPILL FIRE" if item["side"] == "german" else "SPILL BUCKET"
    order = {"casualty": AUTO_LOSSES, "target": AUTO_TARGETS, "sniper": ("LEADER", "HERO") + AUTO_TARGETS[2:]}.get(kind)
    if order:
        ranked = sorted(options, key=lambda o: next((n for n, w in enumerate(order) if w in o.split()), 99))
        return ranked[0]
    if kind == "deplete":
        return next((o for o in options if board.is_depleted(o.split()[1])), options[0])
    if kind == "supply":
        here = board.battling(item["side"])
        return next((o for o in options if o.split()[1] in here), options[0])
    fresh = [o for o in options if o != "OVERRUN NONE" and not board.is_depleted(o.split()[1])]
    return fresh[0] if fresh else "OVERRUN NONE"


def from_order(board: Board, item: dict[str, Any], order: Order) -> None:
    """Resolve the item with the first choice the order names that is legal now; raises IllegalOrder."""
    options = choices(board, item)
    if order.form == "auto" or (DECISION_OF[item["icon"]] == "spillover" and order.get("where") == "AUTO"):
        resolve_forced(board, item, [auto_choice(board, item, options)] if options else [])
        return
    chosen = next((text for text in _wanted(DECISION_OF[item["icon"]], order) if text in options), None)
    if chosen is None:
        board.fail(f"{_title(item)}: that is not a legal choice now (§Effects)", options[:6])
    resolve_choice(board, item, chosen)


def resolve_forced(board: Board, item: dict[str, Any], options: list[str]) -> None:
    """No choice to make: the only legal answer, or the effect is lost (§Effects: an effect that cannot
    be used is lost; ruling S-70)."""
    if options:
        resolve_choice(board, item, options[0])
    else:
        board.emit("effect_lost", side=item["side"], icon=item["icon"], why=item["why"])


def resolve_choice(board: Board, item: dict[str, Any], text: str) -> None:
    words = text.split()
    side, district, why = item["side"], item["district"], item["why"]
    foe = enemy(side)
    if words[0] in ("LOSE", "TARGET") or (words[0] == "SNIPE" and words[1] not in ("LEADER", "HERO")):
        board.remove_core(district, foe, words[1])
        board.emit("unit_destroyed", side=foe, unit=words[1], district=district, by=item["icon"], why=why)
    elif words[:2] == ["SNIPE", "HERO"]:
        snipe_hero(board, side, words[2], why)
    elif words[0] == "SNIPE":
        snipe_leader(board, side, words[2], why)
    elif words[0] in ("PROMOTE", "TONGUES", "RETRIEVE"):
        advanced.resolve_choice(board, item, text)
    elif words[0] == "DEPLETE":
        deplete_formation(board, words[1], why)
    elif words[0] == "SUPPLY":
        board.supply(words[1], why)
    elif words == ["OVERRUN", "NONE"]:
        board.emit("overrun_declined", side=side)
    elif words[0] == "OVERRUN":
        overrun(board, words[1], side, why)
    elif words[1] == "FIRE":
        add_fires(board, district, 1, "spillover damage")
    elif words[1] == "BUCKET":
        add_buckets(board, district, 1, "spillover damage")
    elif words[1] == "HOLD":
        board.battle["deferred"].append(dict(item, icon=item["held"], defer=False))
        board.emit("kill_deferred", side=side, district=district, why=why)
    else:
        board.emit("spillover_declined", side=side)


def resolve_auto(board: Board, item: dict[str, Any]) -> None:
    """Icons without a choice: add, rubble_fort, draw, discard, fire, bucket, inferno (§Effects)."""
    icon, side, district, n, why = item["icon"], item["side"], item["district"], item["n"], item["why"]
    if advanced.resolve_auto(board, item):
        return
    if icon == "add":
        add_unit(board, district, side, item["unit"], why, defer=bool(item.get("defer")))
    elif icon == "rubble_fort":
        add_unit(board, district, "soviet", "Fort", f"Rubble Fort ({why})")  # §Effects: a negative effect
    elif icon == "draw":
        board.draw_cards(side, n, why)
    elif icon == "discard":
        board.discard_at_random(enemy(side), n, why)
    elif icon == "fire":
        add_fires(board, item.get("target_district") or district, n, why)
    elif icon == "bucket":
        add_buckets(board, district, n, why)
    elif icon == "inferno":
        board.district(district)["infernos"] += n
        board.emit("inferno", district=district, infernos=board.district(district)["infernos"])


def add_unit(board: Board, district: str, side: str, unit: str, why: str, defer: bool = False) -> None:
    """§Units, §On Buildings: an elite counter resolves its Terror Tactic, then lies core side up; a core unit
    is any counter of that core placed as it is; none left in the Unit Pile: lost (ruling S-78)."""
    s = board.scenario
    pile = board.side(side)["pile"]
    elite = unit in pile
    kinds = [unit] if elite else s.counters_with_core(side, unit)
    kinds = [k for k in kinds if pile.get(k, 0) > 0]
    if not kinds:
        board.emit("effect_lost", side=side, icon=f"add {unit}", why=f"no counter left in the Unit Pile ({why})")
        return
    kind = max(kinds, key=lambda k: pile[k])
    board.place_counter(district, side, kind)
    core = s.counter(kind).core
    board.emit("unit_added", side=side, unit=unit, core=core, district=district, elite=elite, why=why)
    if elite:
        # a Soviet vanguard's Terror Tactic may hold its fire like the vanguard itself (§Battle 1)
        queue_effects(board, items_of(s.counter(kind).terror, side, f"Terror Tactic of {unit}", district, defer=defer))


def snipe_leader(board: Board, side: str, formation: str, why: str) -> None:
    """§Sniper, §Carnage A: a Carnage Card decides; the defender discards 1, 1 or 2 cards; a Hit or a
    Hideous Death kills the leader."""
    card = board.draw_carnage(f"sniper shot at the leader of {formation}")
    result = board.scenario.carnage_card(card).sniper
    foe = enemy(side)
    board.emit("sniper_result", side=side, formation=formation, card=card, result=result, why=why)
    board.discard_at_random(foe, 2 if result == "hideous_death" else 1, f"sniper shot: {result}")
    if result != "close_escape":
        board.kill_leader(formation, f"sniper shot, {result}")


def deplete_formation(board: Board, formation: str, why: str) -> None:
    """§Deplete A: full strength to depleted (a Soviet Depletion Effect acts, ruling S-10); depleted to
    destroyed; at most once a round."""
    battle = board.battle
    battle["depleted_round"].append(formation)
    if board.is_depleted(formation):
        board.destroy_formation(formation, why)
        return
    board.data["formations"][formation]["depleted"] = True
    board.emit("depleted", formation=formation, why=why)
    effect = board.formation(formation).depletion
    if effect and effect != "skull":
        depletion_effect(board, formation, effect)


def depletion_effect(board: Board, formation: str, effect: str) -> None:
    """§Soviet Cards D: Machine Gun executes Rifles or the formation retreats and loses its Commissar
    (ruling S-09); Red Star Medal adds an elite unit."""
    word, arg = effect.split()
    district = board.battle["district"]
    if word == "star":
        queue_effects(board, items_of([Effect("add", arg)], "soviet", f"Red Star Medal of {formation}", district))
        return
    needed, rifles = int(arg), board.cores_on(district, "soviet").get("Rifle", 0)
    executions = needed if rifles >= needed else (0 if board.options["machine_gun"] == "all_or_nothing" else rifles)
    for _ in range(executions):
        board.remove_core(district, "soviet", "Rifle")
    if executions:
        board.emit("executed", formation=formation, rifles=executions)
    if rifles < needed:
        retreat(board, formation, f"Machine Gun: {needed} Rifles needed, {rifles} on the building")


def retreat(board: Board, formation: str, why: str) -> None:
    """§Soviet Cards D: back to the Staging Line; its Commissar is killed (§Leaders)."""
    board.data["formations"][formation]["at"] = "staging"
    board.battle["retreated"].append(formation)
    board.emit("retreated", formation=formation, why=why)
    board.kill_leader(formation, "its formation retreated")
