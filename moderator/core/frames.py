"""The interrupt stack shared by the games: each step of play is a frame; the top frame asks or
moves on by itself (DESIGN §3).

Wargames nest: an attack inside an activation inside a turn, a retreat and a displacement inside
the attack.  Each such step is a frame (a JSON dict) on ``state["stack"]``; a game's handler per
frame kind says what it asks (`decisions`), which answers are legal, what an answer does and how
it moves on without asking (`step`).  These helpers are the parts every game shares.
"""

from __future__ import annotations

import pickle
from typing import Any, Mapping, Sequence

from moderator.core.contract import Decision


class FrameStack:
    """A board's view of ``data["stack"]`` (the games' boards keep their state in ``self.data``)."""

    data: dict[str, Any]

    @property
    def stack(self) -> list[dict[str, Any]]:
        return self.data["stack"]

    def top(self) -> dict[str, Any] | None:
        return self.stack[-1] if self.stack else None

    def push(self, frame: dict[str, Any]) -> dict[str, Any]:
        self.stack.append(frame)
        return frame

    def pop(self) -> dict[str, Any]:
        return self.stack.pop()

    def frames(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.stack if f["kind"] == kind]


def new_frame(data: dict[str, Any], kind: str, **fields: Any) -> dict[str, Any]:
    """A frame with a game-unique id (the id keys its decisions, so deadlines restart per frame)."""
    data["next_id"] += 1
    frame = {"kind": kind, "id": data["next_id"], "asked": 0}
    frame.update(fields)
    return frame


def ask(frame: Mapping[str, Any], role: str, kind: str, prompt: str, options: Sequence[str], default: str,
        secret: bool = False, deadline: str = "phase", interrupts: str | None = None,
        context: Mapping[str, Any] | None = None) -> Decision:
    """A decision whose key changes after every answer the frame takes (so deadlines restart)."""
    key = f"f{frame['id']}.{frame['asked']}.{role}.{kind}"
    return Decision(key, role, kind, prompt, default, tuple(options), secret, deadline, interrupts,
                    dict(context or {}))


def answered(frame: dict[str, Any]) -> None:
    frame["asked"] += 1


class FrameStackEngine:
    """The decision machinery shared by the frame-stack games (VMT, Across the Narva).

    A game supplies `handlers` (frame kind -> handler with decisions/legal/apply/step), `grammar`,
    `title`, and `make_board(data, rng)` wrapping a state in its Board; this class answers the
    engine contract's pending / legal_orders / apply and runs the automatic steps in between.
    """

    handlers: Mapping[str, Any] = {}
    grammar: Any = None
    title = ""
    settle_limit = 100_000

    def make_board(self, data: dict[str, Any], rng: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _board(self, state: dict[str, Any], rng: Any = None, copy: bool = False) -> Any:
        # Engines never change their input: answers work on a deep copy (pickle is the fastest).
        data = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)) if copy else state
        return self.make_board(data, rng)

    def pending(self, state: dict[str, Any]) -> list[Decision]:
        if state["result"] is not None or not state["stack"]:
            return []
        board = self._board(state)
        frame = board.top()
        return self.handlers[frame["kind"]].decisions(board, frame)

    def legal_orders(self, state: dict[str, Any], decision: Decision) -> list[Any]:
        board = self._board(state)
        frame = board.top()
        return self.handlers[frame["kind"]].legal(board, frame, decision)

    def apply(self, state: dict[str, Any], role: str, order: Any, rng: Any) -> tuple[dict[str, Any], list[Any]]:
        from moderator.core.errors import WrongDecision

        mine = [d for d in self.pending(state) if d.role == role]
        if not mine:
            raise WrongDecision(f"nothing is asked of the {role} player now")
        decision = next((d for d in mine if d.kind == order.kind), None)
        if decision is None:
            raise WrongDecision(f"'{self.grammar.render(order)}' does not answer: {mine[0].prompt}")
        board = self._board(state, rng, copy=True)
        frame = board.top()
        self.handlers[frame["kind"]].apply(board, frame, decision, order)
        self._settle(board)
        return board.data, board.events

    def _settle(self, board: Any) -> None:
        """Run every automatic step until somebody must decide or the game is over."""
        for _ in range(self.settle_limit):
            if board.data["result"] is not None or not board.stack:
                return
            frame = board.top()
            if not self.handlers[frame["kind"]].step(board, frame):
                return
        raise RuntimeError(f"{self.title} did not settle")
