"""§Heroes: a hero enters play touching the Tracking Card (its major and minor effects at once), can be
sniped (a Hit wounds, two Hits or a Hideous Death kill: the Ash Heap), intercepts an opponent's card before it
resolves (§Heroes Intercept, ruling S-25), and survivors go to the Discard Pile healed.  Rulings: S-25, S-36."""

from __future__ import annotations

from typing import Any

from moderator.games.stalingrad.board import Board, enemy
from moderator.games.stalingrad.queue import items_of, queue_effects


def is_hero(board: Board, card: str) -> bool:
    return board.scenario.card_of(card).hero


def heroes_of(board: Board, side: str) -> list[str]:
    """`side`'s heroes in the current battle (alive)."""
    heroes: dict[str, Any] = board.battle.get("heroes", {})
    return [card for card, record in heroes.items() if record["side"] == side]


def hero_enters(board: Board, side: str, card: str, why: str) -> None:
    """The hero's card touches the Tracking Card; its effects resolve as it comes into play (§Heroes)."""
    battle = board.battle
    battle.setdefault("heroes", {})[card] = {"side": side, "wounds": 0}
    title = board.scenario.card_of(card)
    board.emit("hero_enters", side=side, card=card, name=title.name, why=why)
    queue_effects(board, items_of(title.effects, side, title.name, battle["district"]))


def can_intercept(board: Board, side: str) -> list[str]:
    """The Intercept heroes in `side`'s hand (§Heroes Intercept)."""
    return [card for card in board.side(side)["hand"]
            if is_hero(board, card) and any(e.icon == "intercept" for e in board.scenario.card_of(card).effects)]


def intercept(board: Board, side: str, hero: str) -> None:
    """§Heroes Intercept (ruling S-25): the card just played goes to its Discard Pile unresolved (it still
    counts against its formation); the hero enters; the intercept is the interceptor's round."""
    battle = board.battle
    pending = battle["pending_card"] or {}
    card = pending["card"]
    board.side(pending["side"])["discard"].append(card)
    # The Aftermath must not discard it again: by then a reshuffle may have put it back in a hand.
    battle.setdefault("intercepted", []).append(card)
    board.side(side)["hand"].remove(hero)
    board.emit("intercepted", side=side, hero=hero, card=card, name=board.card_name(card))
    battle["skip"] = True
    hero_enters(board, side, hero, f"intercepting {board.card_name(card)}")


def snipe_hero(board: Board, side: str, hero: str, why: str) -> None:
    """§Heroes Killing a Hero: Close Escape (one discard), Hit (wounded, killed by a second; one discard),
    Hideous Death (killed; two discards)."""
    result = board.scenario.carnage_card(board.draw_carnage(f"sniper shot at {hero}")).sniper
    owner = enemy(side)
    record = board.battle["heroes"][hero]
    board.emit("sniper_result", side=side, formation=hero, card="", result=result, why=why)
    board.discard_at_random(owner, 2 if result == "hideous_death" else 1, f"sniper shot: {result}")
    if result == "hit":
        record["wounds"] += 1
    if result == "hideous_death" or record["wounds"] >= 2:
        del board.battle["heroes"][hero]
        board.data["ash"].append(hero)
        board.emit("hero_killed", side=owner, card=hero)
    elif result == "hit":
        board.emit("hero_wounded", side=owner, card=hero)


def heroes_leave(board: Board) -> None:
    """§Heroes: a hero alive at the end of the battle, healthy or wounded, goes to the Discard Pile."""
    for card, record in board.battle.get("heroes", {}).items():
        board.side(record["side"])["discard"].append(card)
