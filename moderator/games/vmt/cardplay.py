"""Playing Command Cards in one's own action phase (L156-222): which plays are open, and what a
play starts.  One card's actions are completed before the next card (L160)."""

from __future__ import annotations

from moderator.core.contract import OPTION_LABEL, Decision
from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.games.vmt import activation, fire
from moderator.games.vmt.board import Board
from moderator.games.vmt.cards import BOMBARDMENT_CARDS
from moderator.games.vmt.frames import any_of, ask
from moderator.games.vmt.state import PhaseFrame


def card_decision(board: Board, frame: PhaseFrame) -> Decision:
    """The phase's card question: play a card, END, or PASS (L142-144)."""
    side = frame["side"]
    options = play_options(board, frame)
    if frame["bombardment"]:
        prompt = ("Initial Bombardment c): play Air Strike, Heavy or Superheavy Artillery cards one at a time, "
                  "then END.")
        default = "END"
    elif frame["played"]:
        prompt = "Play another card, or END your action phase."
        default = "END"
    else:
        prompt = "Your action phase: play a card, or PASS (rally, discard, withdraw assets)."
        default = "PASS"
    return ask(frame, side, "card", prompt, options, default, deadline="phase")


def play_options(board: Board, frame: PhaseFrame) -> list[str]:
    """Every card play open now, as order text (the bombardment's plays only in its c), L128)."""
    side = frame["side"]
    held = set(board.hand_types(side))
    options: list[str] = []
    if frame["bombardment"]:
        options.append("END")
        for card in BOMBARDMENT_CARDS:
            if card in held:
                options += fire.order_targets(board, side, card)
        return options
    options.append("END" if frame["played"] else "PASS")
    if not frame["played"]:
        options += pass_options(board, side)
    for card in ("assault", "counterattack"):
        if card in held:
            using = " USING COUNTERATTACK" if card == "counterattack" else ""
            for area in activation.group_areas(board, side):
                # With TO, the group moves into a neighbouring area (ferries count, L384) and the card ends.
                options.append(f"ASSAULT GROUP {area}{using}")
                options += [f"ASSAULT GROUP {area} TO {target}{using}"
                            for target in sorted(board.geo.neighbours(area, include_ferry=True))]
            options += [f"ASSAULT DIVISION {d}{using}" for d in activation.divisions_on_map(board, side)]
    if "redeployment" in held:
        options += [f"REDEPLOY GROUP {a}" for a in activation.group_areas(board, side)]
        options += [f"REDEPLOY DIVISION {d}" for d in activation.divisions_on_map(board, side)]
    for card in sorted(held):
        options += fire.order_targets(board, side, card)
    return list(dict.fromkeys(options))


def pass_options(board: Board, side: str) -> list[str]:
    """A Pass discards "as many cards ... as desired" and may withdraw any Pioneer and Armor assets (L144)."""
    cards = sorted(card.upper() for card in board.hand_types(side))
    assets = sorted(a for a, x in board.data["assets"].items() if x["side"] == side and x["status"] == "map")
    options = [*any_of("PASS DISCARD", cards), *any_of("PASS WITHDRAW", assets)]
    if cards and assets:
        options.append(f"PASS DISCARD {' '.join(cards)} WITHDRAW {' '.join(assets)}{OPTION_LABEL}any of the cards, "
                       f"any of the counters)")
    return options


def play_card(board: Board, frame: PhaseFrame, order: Order) -> None:
    """Play one card: it opens an activation or fires (the phase's END and PASS are the phase's own)."""
    side = frame["side"]
    if frame["bombardment"]:
        card = str(order.get("card", "")).lower()
        if order.form != "play" or card not in BOMBARDMENT_CARDS:
            raise IllegalOrder("in the Initial Bombardment only Air Strike, Heavy and Superheavy Artillery "
                               "may be played")
    if side == "soviet":
        frame["air_window"] = True  # the Axis may react between Soviet cards (ruling R-AIR)
    if order.form in ("assault_group", "assault_division"):
        card = "counterattack" if order.get("using") else "assault"
        activation.start(board, side, card, order, reaction=False)
    elif order.form in ("redeploy_group", "redeploy_division"):
        activation.start(board, side, "redeployment", order, reaction=False)
    elif order.form == "play":
        fire.play_order(board, side, order)
    else:  # pragma: no cover - the grammar has no other card forms
        raise IllegalOrder("that is not a card play")
    frame["played"] = True
