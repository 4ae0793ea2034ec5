"""§Four Player: two players a side, each with his own Supreme Commander, hand and formations.

The rules modules work on one hand and one commander a side; in the four-player game these are the hand
and commander of the seat *at the table* for that side (ruling S-81): the Paulus and Lopatin seats through
the Strategy Phase (the Campaign Cards are theirs, ruling S-31), each battle's owners through its battle
(ruling S-30), each player in turn for his own consolidations and maneuvers.  The other seat's hand and
commander wait in ``state["seats"]`` until he sits down again.  Every function here does nothing in the
two-player game."""

from __future__ import annotations

from collections.abc import Callable

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.scenario.schema import Commander
from moderator.games.stalingrad.seating import (
    ALL_SEATS,
    FIXED_OWNERS,
    SEATS,
    SIDE_OF,
    STARTING_COMMANDER,
    TEAMMATE,
)
from moderator.games.stalingrad.state import GiveFrame

SARAEV_FORMATION = next(f for f, seat in FIXED_OWNERS.items() if seat == "saraev")


def is_four(board: Board) -> bool:
    return "table" in board.data


def setup_seats(board: Board) -> None:
    """§Four Player set-up: each player draws his own commander's hand size from his side's one Combat Deck
    (the Paulus and Lopatin seats drew theirs already, §Commanders A), then the four Starting Formations of
    each side are divided (ruling S-29)."""
    data = board.data
    data["seats"], data["table"], data["owners"] = {}, {side: seats[0] for side, seats in SEATS.items()}, {}
    for seat in ALL_SEATS:
        side = SIDE_OF[seat]
        commander = board.scenario.commander(STARTING_COMMANDER[seat])
        record = board.side(side)
        hand: list[str] = []
        if seat != SEATS[side][0]:
            hand, record["deck"] = record["deck"][:commander.hand], record["deck"][commander.hand:]
        data["seats"][seat] = {"side": side, "commander": commander.id, "hand": hand}
    divide_formations(board)


# ---------------------------------------------------------------- hands, commanders, formations by seat


def hand_of(board: Board, seat: str) -> list[str]:
    side = SIDE_OF[seat]
    return board.side(side)["hand"] if board.seated(side) == seat else board.data["seats"][seat]["hand"]


def commander_of(board: Board, seat: str) -> Commander:
    side = SIDE_OF[seat]
    commander = board.side(side)["commander"] if board.seated(side) == seat else board.data["seats"][seat]["commander"]
    return board.scenario.commander(commander)


def sit(board: Board, seat: str) -> None:
    """Ruling S-81: `seat` takes his side's place at the table, his hand and commander becoming the side's."""
    side = SIDE_OF[seat]
    table, record, seats = board.data["table"], board.side(side), board.data["seats"]
    current = table[side]
    if current == seat:
        return
    seats[current]["hand"], seats[current]["commander"] = record["hand"], record["commander"]
    record["hand"], record["commander"] = seats[seat]["hand"], seats[seat]["commander"]
    seats[seat]["hand"] = []
    table[side] = seat


def seat_seniors(board: Board) -> None:
    """The Paulus and Lopatin seats at the table: the Strategy Phase's Campaign Cards and battle order."""
    if is_four(board):
        for seats in SEATS.values():
            sit(board, seats[0])


def owner(board: Board, formation: str) -> str | None:
    return board.data.get("owners", {}).get(formation)


def owned(board: Board, seat: str) -> list[str]:
    return [f for f, s in board.data.get("owners", {}).items() if s == seat]


def own(board: Board, side: str) -> set[str] | None:
    """The formations of `side` the role at the table controls; None in the two-player game (every one)."""
    return set(owned(board, board.seated(side))) if is_four(board) else None


def divide_formations(board: Board) -> None:
    """Ruling S-29: each formation that enters play goes to the teammate with fewer formations (equal: the
    Paulus / Lopatin seat); the 14th Panzer is always Wietersheim's, the 10th NKVD Saraev's (§Four Player)."""
    if not is_four(board):
        return
    owners = board.data["owners"]
    for gone in [f for f in owners if not board.in_play(f)]:
        del owners[gone]
    divided: list[list[str]] = []  # pairs, not a mapping: the log stores mappings with sorted keys
    for formation in board.scenario.formations:
        if not board.in_play(formation.id) or formation.id in owners:
            continue
        seats = SEATS[formation.side]
        seat = FIXED_OWNERS.get(formation.id) or min(seats, key=lambda s: (len(owned(board, s)), seats.index(s)))
        owners[formation.id] = seat
        divided.append([formation.id, seat])
    if divided:
        board.emit("formations_divided", owners=divided)


# ---------------------------------------------------------------- whose turn it is to sit


def seat_first(board: Board, side: str, done: list[str], able: Callable[[str], bool]) -> None:
    """Ruling S-81: the first seat of `side` (Paulus / Lopatin first) not done and able to act sits down."""
    if not is_four(board) or (board.seated(side) not in done and able(board.seated(side))):
        return
    for seat in SEATS[side]:
        if seat not in done and able(seat):
            sit(board, seat)
            return


def begin_turn(board: Board) -> None:
    """The Strategy Phase starts with the senior seats at the table; from turn 2 the commanders are checked
    (ruling S-28: before turn 1's reinforcements no Panzer Division has been in play)."""
    if not is_four(board):
        return
    if board.turn > 1:
        check_commanders(board)
    seat_seniors(board)


def check_commanders(board: Board) -> None:
    """§Four Player: Wietersheim gives way to Hube when no Panzer Division is in play (ruling S-28); Saraev
    to his replacement when the 10th NKVD has gone to the Ash Heap."""
    panzers = [f.id for f in board.scenario.formations_of("german") if f.kind == "panzer" and board.in_play(f.id)]
    if not panzers:
        _replace(board, "wietersheim", "no Panzer Division is in play")
    if board.where(SARAEV_FORMATION) == "ash":
        _replace(board, "saraev", f"the {board.formation(SARAEV_FORMATION).name} is in the Ash Heap")


def _replace(board: Board, seat: str, why: str) -> None:
    commander = commander_of(board, seat)
    if commander.id != STARTING_COMMANDER[seat] or commander.replacement is None:
        return  # replaced already: the replacement stays for the rest of the game (§Commanders)
    side = SIDE_OF[seat]
    if board.seated(side) == seat:
        board.side(side)["commander"] = commander.replacement
    else:
        board.data["seats"][seat]["commander"] = commander.replacement
    board.emit("commander_replaced", seat=seat, commander=commander.name,
               replacement=board.scenario.commander(commander.replacement).name, why=why)


def discard_teammate_hand(board: Board, side: str) -> None:
    """Ruling S-31: a Campaign Card's Discard Hand empties the hands of both players of the side."""
    if not is_four(board):
        return
    seat = TEAMMATE[board.seated(side)]
    hand = board.data["seats"][seat]["hand"]
    board.emit("hand_discarded", side=side, seat=seat, cards=list(hand))
    board.side(side)["discard"].extend(hand)
    board.data["seats"][seat]["hand"] = []


# ---------------------------------------------------------------- battles


def begin_battle(board: Board) -> None:
    """Ruling S-30: each side's battle is fought by the seat with more of his formations there (equal: Paulus
    / Lopatin); then each side's other player may give him cards (GIVE, ruling S-83)."""
    if not is_four(board):
        return
    battle = board.battle
    for side, seats in SEATS.items():
        counts = {s: sum(1 for f in battle["formations"][side] if owner(board, f) == s) for s in seats}
        sit(board, max(seats, key=lambda s: (counts[s], -seats.index(s))))
    board.emit("battle_owners", german=board.seated("german"), soviet=board.seated("soviet"))
    givers = [TEAMMATE[board.seated(side)] for side in SEATS if hand_of(board, TEAMMATE[board.seated(side)])]
    if givers:
        board.push(new_frame(board.data, "give", waiting=givers))


def after_battle(board: Board) -> None:
    """After each battle the commanders are checked (ruling S-28) and the senior seats sit down again."""
    if is_four(board):
        check_commanders(board)
        seat_seniors(board)


GIVE_PROMPT = ("Your teammate {owner} fights the battle for {building}: GIVE <card> ... passes cards of your hand to "
               "him, GIVE NONE keeps them (§Four Player: teammates trade cards; ruling S-83).")


class Give:
    """Ruling S-83: at the start of a battle each side's other player may pass cards of his hand to the owner."""

    def decisions(self, board: Board, frame: GiveFrame) -> list[Decision]:
        building = board.building_name(board.battle["district"])
        return [ask(frame, seat, "give", GIVE_PROMPT.format(owner=TEAMMATE[seat].title(), building=building),
                    [f"GIVE {card}" for card in sorted(hand_of(board, seat))] + ["GIVE NONE"], "GIVE NONE")
                for seat in frame["waiting"]]

    def legal(self, board: Board, frame: GiveFrame, decision: Decision) -> list[Order]:
        return [Order.make("give", "cards", cards=(card,)) for card in sorted(hand_of(board, decision.role))] + [
            Order.make("give", "none")]

    def apply(self, board: Board, frame: GiveFrame, decision: Decision, order: Order) -> None:
        seat = decision.role
        cards = list(order.values("cards")) if order.form == "cards" else []
        hand = hand_of(board, seat)
        for card in cards:
            if card not in hand:
                board.fail(f"you do not hold {card} (§Four Player)", sorted(hand)[:4])
        answered(frame)
        frame["waiting"].remove(seat)
        if not cards:
            return
        receiver = TEAMMATE[seat]
        for card in cards:
            hand.remove(card)
        hand_of(board, receiver).extend(cards)
        side = SIDE_OF[seat]
        board.emit("cards_given", visible_to=[seat, receiver], side=side, seat=seat, to=receiver, cards=cards)
        board.emit("cards_given", hidden_from=[seat, receiver], side=side, seat=seat, to=receiver, count=len(cards))

    def step(self, board: Board, frame: GiveFrame) -> bool:
        if frame["waiting"]:
            return False
        board.pop()
        return True
