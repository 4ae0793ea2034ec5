"""Setting up the game (rulebook "Setting Up the Game", L97-108) and the Initial Bombardment
(L122-136), including the secret free set-up filed with a commitment."""

from __future__ import annotations

from typing import Any

from moderator.core.commitments import SETUP_FILED, setup_commitment
from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order
from moderator.core.rng import Rng
from moderator.games.vmt.board import SIDES, Board
from moderator.games.vmt.cards import BOMBARDMENT_CARDS, draw, refill
from moderator.games.vmt.frames import answered, any_of, ask, new_frame, options_as_orders
from moderator.games.vmt.scenario import Scenario
from moderator.games.vmt.sequence import open_card_play, start_phase
from moderator.games.vmt.state import (
    BOMBARDMENT_STEPS,
    AssetRecord,
    BlockRecord,
    BlockStatus,
    BombardFrame,
    SetupFrame,
    VmtState,
)

ASSET_TYPES = ("pz3", "stug", "t26", "axis_pioneer", "soviet_pioneer")
LETTERS = "ABCDEFGHIJ"


def asset_ids(scenario: Scenario) -> dict[str, AssetRecord]:
    """One record per Armor and Pioneer counter of the countersheet (L236: 2 steps each)."""
    prefixes = {"pz3": "PZ3", "stug": "STUG", "t26": "T26", "axis_pioneer": "APIO", "soviet_pioneer": "SPIO"}
    assets: dict[str, AssetRecord] = {}
    for counter in scenario.counters:
        if counter.id not in ASSET_TYPES:
            continue
        side = counter.side
        for n in range(counter.count):
            name = prefixes[counter.id] + (LETTERS[n] if counter.count > 1 else "")
            assets[name] = {"side": side, "type": counter.id, "steps": counter.steps or 2, "area": None,
                            "status": "pool"}
    return assets


def initial_state(scenario: Scenario, options: dict[str, Any], rng: Rng) -> VmtState:
    """Everything on and off the map before play (L97-106)."""
    blocks: dict[str, BlockRecord] = {}
    positions = scenario.setup_positions() if options.get("setup", "historical") == "historical" else {}
    for block in scenario.blocks:
        status: BlockStatus = "reinforcement" if block.reinforcement else "waiting"
        area = None
        if block.id in positions:
            status, area = "map", positions[block.id]
        blocks[block.id] = {"side": block.side, "area": area, "sp": block.sp, "exhausted": False,
                            "status": status}
    cards: dict[str, str] = {}
    decks: dict[str, list[str]] = {}
    for side in SIDES:
        prefix = side[0]
        ids = []
        for n, card_type in enumerate(scenario.deck(side), start=1):
            card_id = f"{prefix}{n:02d}"
            cards[card_id] = card_type
            ids.append(card_id)
        # Both decks are shuffled (L106); the shuffle is a verifiable draw sequence.
        decks[side] = rng.shuffle(ids, f"{side} deck", stream=f"deck-{side}")
    data: VmtState = {
        "version": 1, "scenario": scenario.meta.name, "options": dict(options), "turn": 1, "next_id": 0,
        "blocks": blocks, "control": {a.id: a.initial_control for a in scenario.map.areas},
        "trench_disabled": [], "batteries_destroyed": [], "markers": {}, "assets": asset_ids(scenario),
        "cards": cards, "decks": decks, "hands": {s: [] for s in SIDES}, "discards": {s: [] for s in SIDES},
        "removed": [], "vp_paid": 0, "reinforcements": {"axis": 0, "soviet": 0, "axis_turn": 0},
        "stack": [], "last_combat": None, "setup_commitments": {}, "result": None, "phase_side": None,
    }
    return data


def deal(board: Board) -> None:
    """Both players draw their full hands: 8 for the Axis, 6 for the Soviet (L106)."""
    for side in SIDES:
        refill(board, side)


# ---------------------------------------------------------------- free set-up (secret, committed)
# Option `setup`: the reconstructed historical set-up or a free one, filed face down (ruling R-SETUP).


class FreeSetup:
    """Each side places its blocks face down; a commitment is published when a side files, the blocks
    stand upright once both have filed, and the set-ups are revealed when the game ends (L95-100;
    DESIGN §5 on committed secrets)."""

    def decisions(self, board: Board, frame: SetupFrame) -> list[Decision]:
        out = []
        for side in SIDES:
            if side in frame["filed"]:
                continue
            placed = frame["placements"][side]
            missing = [b for b in _setup_blocks(board, side) if b not in placed]
            prompt = (f"Free set-up: place your {len(missing)} remaining block(s) (PLACE <block> <area>), "
                      f"or SETUP HISTORICAL for the rest; then SETUP DONE." if missing else
                      "Free set-up: every block is placed; SETUP DONE files it face down.")
            places = [f"PLACE {missing[0]} {area}"
                      for area in legal_setup_areas(board, frame, side, missing[0])] if missing else []
            fill = ["SETUP HISTORICAL"] if missing and _historical_fits(board, placed, missing) else []
            options = ["SETUP DONE"] if not missing else fill + places
            default = "SETUP DONE" if not missing else (fill or places)[0]
            out.append(ask(frame, side, "setup", prompt, options, default, secret=True, deadline="setup"))
        return out

    def legal(self, board: Board, frame: SetupFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: SetupFrame, decision: Decision, order: Order) -> None:
        side = decision.role
        placed = frame["placements"][side]
        if order.form == "place":
            block = str(order.get("block"))
            area = str(order.get("area"))
            if board.side_of(block) != side or block not in _setup_blocks(board, side):
                raise IllegalOrder(f"{block} is not one of your blocks to set up")
            if area not in legal_setup_areas(board, frame, side, block):
                raise IllegalOrder(f"{block} cannot start in {area}: your blocks start in areas your side controls "
                                   f"at the start, at most 3 per area")
            placed[block] = area
        elif order.form == "historical":
            history = board.scenario.setup_positions()
            for block in _setup_blocks(board, side):
                if block not in placed:
                    area = history[block]
                    if sum(1 for a in placed.values() if a == area) >= board.scenario.meta.stacking:
                        raise IllegalOrder(f"the historical area of {block}, {area}, is already full")
                    placed[block] = area
        elif order.form == "done":
            missing = [b for b in _setup_blocks(board, side) if b not in placed]
            if missing:
                raise IllegalOrder(f"{len(missing)} block(s) are not placed yet, e.g. {missing[0]}")
            file_setup(board, frame, side)
        answered(frame)

    def step(self, board: Board, frame: SetupFrame) -> bool:
        """Both set-ups are filed: the blocks stand upright on the map (L95-100).  The opponent sees
        how many stand in each area, as with the historical set-up; which blocks they are is revealed
        with the salts when the game ends (sequence.reveal_setups)."""
        if len(frame["filed"]) < 2:
            return False
        secrets = board.data.setdefault("setup_secrets", {})
        for side in SIDES:
            placements = dict(sorted(frame["placements"][side].items()))
            for block, area in placements.items():
                board.place(block, area)
            secrets[side] = {"placements": placements, "salt": frame["salts"][side],
                             "salt_draw": frame.get("salt_draws", {}).get(side, [])}
            standing: dict[str, int] = {}
            for area in placements.values():
                standing[area] = standing.get(area, 0) + 1
            board.emit("setup_placed", side=side, placements=placements, salt=frame["salts"][side],
                       commitment=board.data["setup_commitments"][side], visible_to=(side,))
            board.emit("setup_standing", side=side, areas=dict(sorted(standing.items())),
                       commitment=board.data["setup_commitments"][side])
        board.pop()
        start_bombardment(board)
        return True


def file_setup(board: Board, frame: SetupFrame, side: str) -> None:
    """SETUP DONE: the set-up is committed (core/commitments.py) and the commitment announced to both."""
    salt, draw = board.salt(f"{side} set-up salt")
    digest = setup_commitment(side, frame["placements"][side], salt)
    frame["filed"].append(side)
    frame["salts"][side] = salt
    frame.setdefault("salt_draws", {})[side] = draw
    board.data["setup_commitments"][side] = digest
    board.emit(SETUP_FILED, side=side, commitment=digest)


def _historical_fits(board: Board, placed: dict[str, str], missing: list[str]) -> bool:
    history = board.scenario.setup_positions()
    counts: dict[str, int] = {}
    for area in list(placed.values()) + [history[b] for b in missing]:
        counts[area] = counts.get(area, 0) + 1
    return all(n <= board.scenario.meta.stacking for n in counts.values())


def _setup_blocks(board: Board, side: str) -> list[str]:
    return [b for b, x in board.data["blocks"].items() if x["side"] == side and x["status"] == "waiting"]


def legal_setup_areas(board: Board, frame: SetupFrame, side: str, block: str) -> list[str]:
    placed = frame["placements"][side]
    counts: dict[str, int] = {}
    for other, area in placed.items():
        if other != block:
            counts[area] = counts.get(area, 0) + 1
    return [a.id for a in board.scenario.map.areas
            if a.initial_control == side and counts.get(a.id, 0) < board.scenario.meta.stacking]


# ---------------------------------------------------------------- initial bombardment (L122-136)


def start_bombardment(board: Board) -> None:
    if board.scenario.meta.initial_bombardment and board.options.get("initial_bombardment", True):
        bombard: BombardFrame = new_frame(board, "bombard", stage=BOMBARDMENT_STEPS.first, pile=[])
        board.push(bombard)
    else:
        start_phase(board, "axis")


class Bombardment:
    """The handler of the Initial Bombardment: a) the discard is asked, c) the plays are a phase frame above it."""

    def decisions(self, board: Board, frame: BombardFrame) -> list[Decision]:
        if frame["stage"] == "discard":
            hand = sorted(t.upper() for t in board.hand_types("axis") if t not in BOMBARDMENT_CARDS)
            options = ["DISCARD NONE", *any_of("DISCARD", hand)]  # "as many cards ... as desired" (L124)
            return [ask(frame, "axis", "discard",
                        "Initial Bombardment a): discard any cards but Air Strike, Heavy and Superheavy Artillery; "
                        "you draw as many.", options, "DISCARD NONE")]
        return []

    def legal(self, board: Board, frame: BombardFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: BombardFrame, decision: Decision, order: Order) -> None:
        cards = [] if order.form == "none" else [str(c).lower() for c in order.values("cards")]
        for card_type in cards:
            if card_type in BOMBARDMENT_CARDS:
                raise IllegalOrder(f"{card_type.upper()} may not be discarded in the Initial Bombardment")
        taken = []
        for card_type in cards:
            taken.append(board.take_from_hand("axis", card_type))
        for card in taken:
            board.discard("axis", card)
        board.emit("bombard_discard", cards=[board.card_type(c) for c in taken])
        for _ in taken:
            draw(board, "axis")  # b) draw as many as discarded
        frame["stage"] = BOMBARDMENT_STEPS.after("discard")
        answered(frame)
        # c) the plays: an action-phase-like frame that only takes bombardment cards
        open_card_play(board, "axis", bombardment=True)

    def step(self, board: Board, frame: BombardFrame) -> bool:
        if frame["stage"] == "play" and board.top() is frame:  # the plays of c) are over
            finish_bombardment(board, frame)
            return True
        return False


def finish_bombardment(board: Board, frame: BombardFrame) -> None:
    """d) the discarded and played cards go back into the deck, reshuffled; e) refill to 8."""
    # The Axis discard pile is empty before the bombardment, so it now holds exactly the cards
    # discarded in a) and played in c) (cards removed from play are not in it).
    back = list(board.data["discards"]["axis"])
    board.data["discards"]["axis"] = []
    deck = board.data["decks"]["axis"] + back
    board.data["decks"]["axis"] = board.shuffle(sorted(deck), "Initial Bombardment reshuffle", stream="deck-axis")
    board.emit("bombard_reshuffle", cards=len(back))
    refill(board, "axis")
    board.pop()
    start_phase(board, "axis")
