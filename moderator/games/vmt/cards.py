"""Command Cards in decks and hands: drawing (L106, ruling R-DECK), refilling (L146, L150), and the
battery cards that leave play once no battery is left (L336, L346, L471, L477).

Below the rules modules that draw: the set-up deals with it, the end of a phase refills with it,
and a destroyed battery purges the hands with it.
"""

from __future__ import annotations

from moderator.games.vmt.board import SIDES, Board
from moderator.games.vmt.scenario import Side

BATTERY_CARDS: dict[str, str] = {"axis": "superheavy_artillery", "soviet": "soviet_coastal_artillery"}
BOMBARDMENT_CARDS = ("air_strike", "heavy_artillery", "superheavy_artillery")  # L124, L128


def draw(board: Board, side: Side) -> str | None:
    """Draw one card; an empty deck is rebuilt from the discard pile (ruling R-DECK, AMB-B6)."""
    deck = board.data["decks"][side]
    if not deck:
        pile = board.data["discards"][side]
        if not pile:
            return None
        board.data["decks"][side] = board.shuffle(sorted(pile), f"{side} deck rebuilt", stream=f"deck-{side}")
        board.data["discards"][side] = []
        deck = board.data["decks"][side]
        board.emit("deck_rebuilt", side=side, cards=len(deck))
    card = deck.pop()
    if board.card_type(card) == BATTERY_CARDS[side] and not board.batteries_left():
        # Superheavy / Coastal Artillery with no battery left is retired and replaced (L336, L346, L471, L477).
        board.remove_from_play(card, "no Soviet battery is left")
        return draw(board, side)
    board.hand(side).append(card)
    return card


def refill(board: Board, side: Side) -> None:
    """Fill a hand up to 8 (Axis) or 6 (Soviet) cards (L106, L146, L150)."""
    size = board.scenario.meta.hand_size[side]
    drawn = 0
    while len(board.hand(side)) < size:
        if draw(board, side) is None:
            break
        drawn += 1
    if drawn:
        board.emit("drew", side=side, count=drawn)
        board.emit("drew_cards", visible_to=(side,), side=side,
                   cards=[board.card_type(c) for c in board.hand(side)[-drawn:]])


def purge_battery_cards(board: Board) -> None:
    """Once the last battery falls, held Superheavy/Coastal cards leave play and are replaced (L336, L346)."""
    if board.batteries_left():
        return
    for side in SIDES:
        for card in list(board.hand(side)):
            if board.card_type(card) == BATTERY_CARDS[side]:
                board.hand(side).remove(card)
                board.remove_from_play(card, "the last Soviet battery is destroyed")
                draw(board, side)
