"""The three actions of an action round (§Battle 4): Play a Combat Card (§German Cards, §Soviet Cards,
§Brutality), Reload Hand (§Commanders B) and Hold (§Carnage C, §Tracking A).  Rulings: S-08, S-37, S-39,
S-63, S-69, S-80."""

from __future__ import annotations

from moderator.games.stalingrad.board import Board, enemy
from moderator.games.stalingrad.heroes import hero_enters, is_hero
from moderator.games.stalingrad.queue import items_of, queue_effects
from moderator.games.stalingrad.scenario.effects import Effect

ROUND_CAP = 200  # ruling S-63: after this many rounds every action is a Hold


def card_ok_on(board: Board, side: str, card: str, formation: str) -> bool:
    """Whether `card` may be played on `formation` now (doctrine and Shock, or Patriotism, Motivators and
    Sacrifices; §German Cards A-B, §Soviet Cards A, §Brutality)."""
    if formation not in board.battling(side):
        return False
    title = board.scenario.card_of(card)
    if title.hero:
        return False
    played = board.battle["played"].get(formation, [])
    if side == "german":
        return _doctrine_ok(board, title.doctrine, formation) and len(played) < shock_strength(board, formation)
    pairs = motivator_pairs_needed(board, formation, cost_of(board, card))
    if pairs is None:
        return False
    return sacrifices_of(title.effects) <= rifles(board) - pairs


def _doctrine_ok(board: Board, doctrine: str | None, formation: str) -> bool:
    """§German Cards B: Infantry cards on Infantry or Mixed, Tracked on Tracked or Mixed (ruling S-50), the
    General's Doctrine only with a leader."""
    kind = board.formation(formation).doctrine
    if doctrine == "general":
        return board.leader(formation) is not None
    return kind == "mixed" or kind == doctrine


def shock_strength(board: Board, formation: str) -> int:
    """§German Cards A: Shock Strength, +1 with a Veteran General (Lv. 1)."""
    return (board.formation(formation).shock or 0) + (1 if board.leader(formation) == 1 else 0)


def patriotism_left(board: Board, formation: str) -> int:
    """§Soviet Cards A, ruling S-39: Patriotism (+1 with a Brutal Commissar) less what this battle used."""
    base = (board.formation(formation).patriotism or 0) + (board.leader(formation) or 0)
    return base - board.battle["spent"].get(formation, 0)


def rifles(board: Board) -> int:
    return board.cores_on(board.battle["district"], "soviet").get("Rifle", 0)


def motivator_pairs_needed(board: Board, formation: str, value: int) -> int | None:
    """Ruling S-08 (§Brutality): Motivator + Rifle pairs to make up the Patriotism a card lacks; None when
    there are not enough pairs.  A 0-value card always plays (§Soviet Cards A)."""
    if value == 0:
        return 0
    lacking = max(0, value - patriotism_left(board, formation))
    motivators = board.cores_on(board.battle["district"], "soviet").get("Motivator", 0)
    return lacking if lacking <= min(motivators, rifles(board)) else None


def cost_of(board: Board, card: str) -> int:
    """A Soviet card's Patriotism Value; 0 for the first costly card after Stalin's Ghost (ruling S-61)."""
    value = board.scenario.card_of(card).value or 0
    return 0 if value and board.battle.get("ghost") else value


def sacrifices_of(effects: tuple[Effect, ...]) -> int:
    return sum(e.times for e in effects if e.icon == "sacrifice")


def playable(board: Board, side: str) -> list[tuple[str, str]]:
    """Every (card, formation) the side may play now, in hand and battle order."""
    if board.battle["round"] > ROUND_CAP:
        return []
    heroes = [(card, "") for card in board.side(side)["hand"] if is_hero(board, card)]  # ruling S-36
    return [(card, f) for card in board.side(side)["hand"] for f in board.battling(side)
            if card_ok_on(board, side, card, f)] + heroes


def play_card(board: Board, side: str, card: str, formation: str | None) -> None:
    """Pay for the card on its formation; in the advanced game the opponent may Intercept it (§Heroes, ruling
    S-25); then the Sacrifices (§Soviet Cards C) and its effects.  A hero plays without a formation."""
    if formation is None:
        if card not in board.side(side)["hand"] or not is_hero(board, card):
            board.fail("only a hero of your hand plays without a formation (§Heroes)")
        board.side(side)["hand"].remove(card)
        hero_enters(board, side, card, "played")
        return
    if not card_ok_on(board, side, card, formation):
        board.fail(f"{board.card_name(card)} cannot be played on {formation} now (§German Cards A-B, §Soviet "
                   "Cards A, §Brutality)", [f"PLAY {c} ON {f}" for c, f in playable(board, side)][:4])
    title = board.scenario.card_of(card)
    battle = board.battle
    board.side(side)["hand"].remove(card)
    battle["played"].setdefault(formation, []).append(card)
    board.emit("card_played", side=side, card=card, name=title.name, formation=formation)
    if side == "soviet":
        _pay_patriotism(board, formation, cost_of(board, card))
        if title.value and battle.get("ghost"):
            battle["ghost"] = False  # ruling S-61: used up by the first costly card
    if board.options["game"] != "basic":
        battle["pending_card"], battle["stage"] = {"card": card, "side": side, "formation": formation}, "intercept"
        return
    resolve_card(board, side, card)


def resolve_card(board: Board, side: str, card: str) -> None:
    """The card was not intercepted: its Sacrifices first (§Soviet Cards C), then its effects in order."""
    title = board.scenario.card_of(card)
    battle = board.battle
    if side == "soviet":
        for _ in range(sacrifices_of(title.effects)):
            board.remove_core(battle["district"], "soviet", "Rifle")
            board.emit("sacrificed", card=card, district=battle["district"])
    effects = [e for e in title.effects if e.icon != "sacrifice"]
    queue_effects(board, items_of(effects, side, title.name, battle["district"]))


def _pay_patriotism(board: Board, formation: str, value: int) -> None:
    """§Soviet Cards A and ruling S-08: the formation's Patriotism, then Motivator + Rifle pairs parked on the card."""
    battle = board.battle
    pairs = motivator_pairs_needed(board, formation, value) or 0
    for core in ("Motivator", "Rifle") * pairs:
        kind = board.remove_core(battle["district"], "soviet", core, to_pile=False)
        if kind:
            battle["parked"][kind] = battle["parked"].get(kind, 0) + 1
    if pairs:
        board.emit("motivated", formation=formation, pairs=pairs)
    battle["spent"][formation] = battle["spent"].get(formation, 0) + value - pairs


def reload_hand(board: Board, side: str, discards: tuple[str, ...], fire_district: str | None) -> None:
    """§Commanders B: discard any cards, draw up to the hand size (ruling S-37), then the commander's action
    (Paulus: a fire on any district's Tracking Card, ruling S-80)."""
    record = board.side(side)
    for card in discards:
        if card not in record["hand"]:
            board.fail(f"you do not hold {card} (§Commanders B)", record["hand"][:4])
    district = fire_district or board.battle["district"]
    if board.district(district)["closed"] or board.district(district)["building"] is None:
        board.fail(f"district {district} has no building to set on fire (ruling S-80)", board.buildings_in_play())
    for card in discards:
        record["hand"].remove(card)
        record["discard"].append(card)
    board.emit("reloaded", side=side, discarded=list(discards))
    commander = board.commander(side)
    board.draw_cards(side, max(0, commander.hand - len(record["hand"])), "Reload Hand")
    items = items_of(commander.reload, side, f"{commander.name}'s reload", board.battle["district"])
    for item in items:
        if item.get("anywhere"):
            item["target_district"] = district
    queue_effects(board, items)


def hold_options(board: Board, side: str) -> list[str]:
    """§Carnage C: the two options of the Hold card; a fire/bucket pair gives the German the fire and the
    Soviet the bucket; a fire without a bucket stays open to the Soviet too (ruling S-35)."""
    card = board.scenario.carnage_card(board.battle["hold_card"] or "")
    icons = {card.hold[0].icon, card.hold[1].icon}
    if icons == {"fire", "bucket"}:
        mine = "fire" if side == "german" else "bucket"
        return ["TAKE FIRST" if card.hold[0].icon == mine else "TAKE SECOND"]
    return ["TAKE FIRST", "TAKE SECOND"]


AUTO_HOLD = ("pkill", "sniper", "kill", "deplete", "discard", "draw", "supply", "overrun")


def auto_hold(board: Board, side: str) -> str:
    """TAKE AUTO: the option whose icon comes first in AUTO_HOLD (the side's own fire or bucket first)."""
    card = board.scenario.carnage_card(board.battle["hold_card"] or "")
    options = hold_options(board, side)
    if len(options) == 1:
        return options[0]
    ranking = ("fire" if side == "german" else "bucket",) + AUTO_HOLD
    rank = [next((n for n, icon in enumerate(ranking) if icon == e.icon), 99) for e in card.hold]
    return "TAKE FIRST" if rank[0] <= rank[1] else "TAKE SECOND"


def take_hold_option(board: Board, side: str, which: str) -> None:
    """§Battle 4 Hold: resolve the chosen option (one that cannot be used is lost, ruling S-79); the Hold Counter
    advances once it is done."""
    if which not in hold_options(board, side):
        board.fail("the German takes the fire and the Soviet the bucket of a fire/bucket card (§Carnage C)",
                   hold_options(board, side))
    battle = board.battle
    card = board.scenario.carnage_card(battle["hold_card"] or "")
    effect = card.hold[0 if which == "TAKE FIRST" else 1]
    board.emit("hold_taken", side=side, card=card.id, option=effect.text())
    battle["hold_card"], battle["stage"], battle["pending_hold"], battle["acted"] = None, "rounds", True, True
    queue_effects(board, items_of([effect], side, "Hold Action", battle["district"]))


def opponent(side: str) -> str:
    return enemy(side)
