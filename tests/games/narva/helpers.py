"""Building Across the Narva positions for rule tests.

`position(...)` returns a Board over a fresh game state with only the named units on the map (every
other unit is set aside as "pending" and will not arrive unless the test asks), at the turn and with
the options given.  `play(state, role, text)` applies one order through the engine; `run(board)`
settles the engine after a test pushes a frame by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from moderator.core.rng import Rng, RngRecord
from moderator.games.narva.board import Board
from moderator.games.narva.engine import HANDLERS, engine, scenario_named
from moderator.games.narva.setup import initial_state

SCENARIO = scenario_named("campaign")
DEFAULT_OPTIONS = {spec.name: spec.default for spec in engine.info.options}


class FixedDice(Rng):
    """An Rng whose d6 rolls come from a list (then fall back to the keyed stream)."""

    def __init__(self, rolls: Iterable[int] = (), key: bytes = bytes(32)):
        super().__init__(key)
        self.rolls = list(rolls)

    def below(self, bound: int, stream: str = "dice", purpose: str = ""):
        if bound == 6 and self.rolls and stream == "dice":
            value = self.rolls.pop(0)
            draw = super().below(bound, stream, purpose)
            return type(draw)(draw.stream, draw.counter, draw.first, bound, value - 1, purpose)
        return super().below(bound, stream, purpose)


def fresh_rng(seed: int = 1) -> Rng:
    return RngRecord("test", seed.to_bytes(32, "big"), ["t"]).rng()


def position(units: Mapping[str, str], *, turn: int = 1, options: Mapping[str, Any] | None = None,
             reduced: Iterable[str] = (), supply: Mapping[str, str] | None = None, rolls: Iterable[int] = (),
             arrivals: bool = False) -> Board:
    """A board with exactly these units (id -> hex) on the map."""
    chosen = dict(DEFAULT_OPTIONS)
    chosen.update(options or {})
    data = initial_state(SCENARIO, "campaign", chosen)
    for st in data["units"].values():
        st["where"] = "pending"
        st["hex"] = None
        st["reduced"] = False
    for uid, hex_id in units.items():
        data["units"][uid].update(where="map", hex=hex_id)
    for uid in reduced:
        data["units"][uid]["reduced"] = True
    for uid, status in (supply or {}).items():
        data["units"][uid]["supply"] = status
    if not arrivals:
        data["arrivals"] = []
    data["turn"] = turn
    data["preplayed"] = None
    return Board(data, SCENARIO, FixedDice(rolls))


def settle(board: Board) -> None:
    """Run automatic steps until a decision is needed (as the engine does after each answer)."""
    engine.settle(board)


def decisions(board: Board):
    frame = board.top()
    return HANDLERS[frame["kind"]].decisions(board, frame) if frame else []


def answer(board: Board, text: str) -> None:
    """Answer the top frame's (first matching) decision with an order line, then settle."""
    pending = decisions(board)
    assert pending, "nothing is being asked"
    order = engine.grammar.parse(text, engine.lexicon(board.data, pending[0].role), kinds=[d.kind for d in pending])
    decision = next(d for d in pending if d.kind == order.kind)
    frame = board.top()
    HANDLERS[frame["kind"]].apply(board, frame, decision, order)
    settle(board)


def emitted(board: Board, kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in board.events if e.kind == kind]
