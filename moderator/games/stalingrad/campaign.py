"""§Strategy 2-3 and §Campaign: the Campaign Cards (hourglass, Commander's Disgrace, their effects) and
the reinforcements.  Rulings: S-04, S-05, S-12, S-58, S-65."""

from __future__ import annotations

from moderator.games.stalingrad import teams
from moderator.games.stalingrad.board import Board


def turn_campaign_cards(board: Board) -> int:
    """§Strategy 2 (ruling S-04): each player turns his top card, the Soviet's first; returns the German
    demotions still to be chosen."""
    demotes = 0
    for side in ("soviet", "german"):
        record = board.side(side)
        record["campaign_card"] = None
        if not record["campaign"]:
            continue
        card = board.scenario.campaign_card(record["campaign"].pop(0))
        record["campaign_card"] = card.id
        board.data["ash"].append(card.id)  # §Mats: a used Campaign Card goes to the Ash Heap
        board.emit("campaign_card", side=side, card=card.id, name=card.name, reinforcements=card.reinforcements,
                   hourglass=card.hourglass, disgrace=card.disgrace, effects=list(card.effects))
        if card.hourglass and side == "soviet":
            board.data["turn"] += 1  # §Campaign B, ruling S-05
            board.emit("hourglass", turn=board.turn)
        if card.disgrace:
            disgrace(board, side)
        for effect in card.effects:
            demotes += _campaign_effect(board, side, effect)
    return demotes


def disgrace(board: Board, side: str) -> None:
    """§Campaign C: flip Paulus or Lopatin; a replacement ignores further disgrace (ruling S-65)."""
    commander = board.commander(side)
    if not commander.disgrace or commander.replacement is None:
        board.emit("disgrace_ignored", side=side, commander=commander.name)
        return
    board.side(side)["commander"] = commander.replacement
    board.emit("disgraced", side=side, commander=commander.name, replacement=board.commander(side).name)


def _campaign_effect(board: Board, side: str, effect: str) -> int:
    """§Campaign Effects; returns the demotions the German must choose."""
    word, _, arg = effect.partition(" ")
    if word == "demote":
        return int(arg.lstrip("x") or 1)
    if word == "discard_hand":
        record = board.side(side)
        board.emit("hand_discarded", side=side, cards=list(record["hand"]))
        record["discard"] += record["hand"]
        record["hand"] = []
        teams.discard_teammate_hand(board, side)  # ruling S-31
    elif word == "execute_commissars":
        for f in board.scenario.formations_of("soviet"):
            if board.in_play(f.id):
                board.kill_leader(f.id, "Execute All Commissars")
    elif word == "burn_militia":
        burn_militia(board)
    return 0


def burn_militia(board: Board) -> None:
    """§Campaign Effects Burn Militia Brigade: one on the Staging Line (a depleted one first) to the Ash Heap;
    else one from the Destroyed Pile, else from the Formation Deck (reshuffled)."""
    militia = [f.id for f in board.scenario.formations_of("soviet") if f.kind == "militia"]
    staging = sorted((f for f in militia if board.where(f) == "staging"), key=lambda f: not board.is_depleted(f))
    destroyed = [f for f in militia if board.where(f) == "destroyed"]
    deck = board.side("soviet")["formation_deck"]
    in_deck = [f for f in deck if f in militia]
    candidates = staging or destroyed or in_deck
    if not candidates:
        board.emit("effect_lost", side="soviet", icon="burn_militia", why="no Militia Brigade left")
        return
    chosen = candidates[0]
    if chosen in deck:
        deck.remove(chosen)
        board.side("soviet")["formation_deck"] = board.shuffle(deck, "soviet formation deck reshuffled", "shuffle")
    board.kill_leader(chosen, "Burn Militia Brigade")
    record = board.data["formations"][chosen]
    record["at"], record["depleted"] = "ash", False
    board.data["ash"].append(chosen)
    board.emit("burned", formation=chosen)


def demote(board: Board, formation: str) -> None:
    """§Campaign Effects Demote General: a Lv. 1 General flips to Lv. 0, or a Lv. 0 General is destroyed."""
    record = board.data["formations"][formation]
    if record["leader"] == 1:
        record["leader"] = 0
        board.emit("demoted", formation=formation)
    else:
        board.kill_leader(formation, "Demote General")


def generals(board: Board) -> list[str]:
    return [f.id for f in board.scenario.formations_of("german") if board.in_play(f.id)
            and board.leader(f.id) is not None]


def auto_demote(board: Board) -> str:
    """DEMOTE AUTO: a Veteran General's flip before a General's death, on the weakest formation."""
    return min(generals(board), key=lambda f: (board.leader(f) != 1, board.formation(f).shock or 0))


def reinforce(board: Board, side: str, depleted: bool) -> None:
    """§Strategy 3: buildings in play + the Reinforcement Number formations (at least 0, at least 4 on turn 1:
    ruling S-58), each full strength (unless the card says otherwise) with a Lv. 0 leader (ruling S-12)."""
    record = board.side(side)
    card = board.scenario.campaign_card(record["campaign_card"]) if record["campaign_card"] else None
    count = max(0, len(board.buildings_in_play()) + (card.reinforcements if card else 0))
    if board.turn == 1:
        count = max(count, 4)
    arrived: list[str] = []
    for _ in range(count):
        formation = board.draw_formation(side)
        if formation is None:
            break
        arrived_record = board.data["formations"][formation]
        arrived_record["at"], arrived_record["depleted"], arrived_record["leader"] = "staging", depleted, None
        board.give_new_leader(formation)
        arrived.append(formation)
    board.emit("reinforcements", side=side, formations=arrived, depleted=depleted)
