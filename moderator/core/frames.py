"""The interrupt stack shared by the games: each step of play is a frame; the top frame asks or
moves on by itself (DESIGN §3).

Wargames nest: an attack inside an activation inside a turn, a retreat and a displacement inside
the attack.  Each such step is a frame (a JSON dict, typed per kind as a `Frame` TypedDict) on
``state["stack"]``; a game's `Handler` per frame kind says what it asks (`decisions`), which
answers are legal, what an answer does and how it moves on without asking (`step`).  The handler
protocol, the frame helpers and the engine body that drives them live here once; a game supplies
its handlers, its Board and its rules.
"""

from __future__ import annotations

import pickle
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypedDict, TypeVar

from moderator.core.contract import Decision, Event, S, View
from moderator.core.engine_base import EngineBase
from moderator.core.errors import WrongDecision

if TYPE_CHECKING:  # pragma: no cover - typing only
    from moderator.core.grammar import Lexicon, Order
    from moderator.core.rng import Rng


class Frame(TypedDict):
    """What every frame holds; a game's frame kinds extend it with their own keys."""

    kind: str
    id: int  # game-unique: it keys the frame's decisions, so deadlines restart per frame
    asked: int  # answers taken so far: part of each decision's key


class FrameState(TypedDict):
    """What the frame machine reads of a game's state (every frame-stack game's state has these)."""

    stack: list[Any]
    result: Any
    next_id: int


class FrameStack:
    """A board's view of ``data["stack"]`` (the games' boards keep their state in ``self.data``)."""

    data: Any

    @property
    def stack(self) -> list[Any]:
        return self.data["stack"]  # type: ignore[no-any-return]

    def top(self) -> Any:
        return self.stack[-1] if self.stack else None

    def push(self, frame: Any) -> Any:
        self.stack.append(frame)
        return frame

    def pop(self) -> Any:
        return self.stack.pop()

    def frames(self, kind: str) -> list[Any]:
        return [f for f in self.stack if f["kind"] == kind]


B = TypeVar("B", bound=FrameStack, contravariant=True)
F = TypeVar("F", contravariant=True)


class Handler(Protocol[B, F]):
    """What the frame machine asks of the handler of one frame kind."""

    def decisions(self, board: B, frame: F) -> list[Decision]:
        """The questions this frame asks now (empty: it moves on by itself)."""
        ...

    def legal(self, board: B, frame: F, decision: Decision) -> list[Order]:
        """The legal answers to one of its decisions."""
        ...

    def apply(self, board: B, frame: F, decision: Decision, order: Order) -> None:
        """Take an answer; raises IllegalOrder (the engine works on a copy, so nothing is left half done)."""
        ...

    def step(self, board: B, frame: F) -> bool:
        """Move on without asking; False when the frame waits for an answer."""
        ...


class Automatic(Generic[B, F]):
    """A frame kind that never asks: it only steps (a combat's resolution, the chit cup)."""

    def decisions(self, board: B, frame: F) -> list[Decision]:
        return []

    def legal(self, board: B, frame: F, decision: Decision) -> list[Order]:
        return []

    def apply(self, board: B, frame: F, decision: Decision, order: Order) -> None:  # pragma: no cover
        raise AssertionError(f"{type(self).__name__} never asks, so it takes no answer")

    @abstractmethod
    def step(self, board: B, frame: F) -> bool: ...


StageName = TypeVar("StageName", bound=str)


@dataclass(frozen=True)
class Stage(Generic[StageName]):
    """One stage of a fixed sequence, with the rule it comes from."""

    name: StageName
    rule: str


class StageSequence(Generic[StageName]):
    """A fixed sequence of stages in rulebook order: a handler asks it which stage follows the one it is
    in, so the order reads as data beside its rules instead of hiding in if/elif chains."""

    def __init__(self, *stages: Stage[StageName]):
        self.stages = stages
        self._index = {stage.name: number for number, stage in enumerate(stages)}

    @property
    def first(self) -> StageName:
        return self.stages[0].name

    def after(self, stage: StageName) -> StageName:
        """The stage that follows `stage`; raises KeyError for an unknown stage, IndexError after the last."""
        return self.stages[self._index[stage] + 1].name

    def rule(self, stage: StageName) -> str:
        return self.stages[self._index[stage]].rule

    def names(self) -> tuple[StageName, ...]:
        return tuple(stage.name for stage in self.stages)

    def __contains__(self, stage: object) -> bool:
        return stage in self._index


def new_frame(data: Any, kind: str, **fields: Any) -> Any:
    """A frame with a game-unique id (the id keys its decisions, so deadlines restart per frame)."""
    data["next_id"] += 1
    frame = {"kind": kind, "id": data["next_id"], "asked": 0}
    frame.update(fields)
    return frame


def ask(frame: Any, role: str, kind: str, prompt: str, options: Sequence[str], default: str,
        secret: bool = False, deadline: str = "phase", interrupts: str | None = None,
        context: Mapping[str, Any] | None = None) -> Decision:
    """A decision whose key changes after every answer the frame takes (so deadlines restart)."""
    key = f"f{frame['id']}.{frame['asked']}.{role}.{kind}"
    return Decision(key, role, kind, prompt, default, tuple(options), secret, deadline, interrupts,
                    dict(context or {}))


def answered(frame: Any) -> None:
    frame["asked"] += 1


@dataclass(frozen=True)
class BoardFunctions:
    """A game's own pure functions that answer the contract's views, words and pictures: what a role
    sees of the board (`view`) and the names it may write (`lexicon`), an event told to a role
    (`narrate`), a standing order's named test (`condition`), and the map painters (None: no map).
    The engine gives each its board, so a game states them once instead of wrapping each in a method."""

    view: Callable[[Any, str], View]
    lexicon: Callable[[Any, str], Lexicon]
    narrate: Callable[[Event, str], str]
    condition: Callable[[str, View, Decision, Sequence[str]], bool]
    draw_map: Callable[[View], bytes | None] | None = None
    draw_detail: Callable[[View], bytes | None] | None = None


class FrameStackEngine(EngineBase[S]):
    """The decision machinery shared by the frame-stack games (VMT, Across the Narva).

    A game supplies `handlers` (frame kind -> Handler), `info`, `grammar`, `functions` (its views,
    narration, conditions and map painters) and `make_board(data, rng)` wrapping a state in its Board;
    this class answers the engine contract's pending / legal_orders / apply, runs the automatic steps in
    between, and answers view / lexicon / narrate / condition / map_png / map_detail_png from `functions`.
    """

    functions: BoardFunctions
    handlers: Mapping[str, Handler[Any, Any]] = {}
    #: Frame kinds whose questions have more legal answers than their options list and `legal` samples
    #: (every move of every unit): the function that lists the rest, for `answers` (OPTIONS).
    more_answers: Mapping[str, Callable[[Any, Any, Decision], list[str]]] = {}
    settle_limit = 100_000

    @abstractmethod
    def make_board(self, data: S, rng: Rng | None) -> Any: ...

    def _board(self, state: S, rng: Rng | None = None, copy: bool = False) -> Any:
        # Engines never change their input: answers work on a deep copy (pickle is the fastest).
        data = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)) if copy else state
        return self.make_board(data, rng)

    # ---------------------------------------------------------------- views, words and pictures

    def view(self, state: S, role: str) -> View:
        return self.functions.view(self._board(state), role)

    def lexicon(self, state: S, role: str) -> Lexicon:
        return self.functions.lexicon(self._board(state), role)

    def narrate(self, event: Event, role: str) -> str:
        return self.functions.narrate(event, role)

    def condition(self, name: str, view: View, decision: Decision, args: Sequence[str]) -> bool:
        return self.functions.condition(name, view, decision, args)

    def map_png(self, view: View) -> bytes | None:
        return self.functions.draw_map(view) if self.functions.draw_map else None

    def map_detail_png(self, view: View) -> bytes | None:
        return self.functions.draw_detail(view) if self.functions.draw_detail else None

    # ---------------------------------------------------------------- decisions

    def pending(self, state: S) -> list[Decision]:
        stack_state: Any = state
        if stack_state["result"] is not None or not stack_state["stack"]:
            return []
        board = self._board(state)
        frame = board.top()
        return self.handlers[frame["kind"]].decisions(board, frame)

    def legal_orders(self, state: S, decision: Decision) -> list[Order]:
        board = self._board(state)
        frame = board.top()
        return self.handlers[frame["kind"]].legal(board, frame, decision)

    def answers(self, state: S, decision: Decision) -> list[str]:
        listed = super().answers(state, decision)
        board = self._board(state)
        frame = board.top()
        more = self.more_answers.get(frame["kind"])
        return listed if more is None else list(dict.fromkeys([*listed, *more(board, frame, decision)]))

    def asked_of(self, state: S, role: str) -> list[Decision]:
        """The questions `role` answers now, as the handlers asked them (a game that seats several
        players on one side maps them here)."""
        return [d for d in self.pending(state) if d.role == role]

    def apply(self, state: S, role: str, order: Order, rng: Rng) -> tuple[S, list[Event]]:
        mine = self.asked_of(state, role)
        if not mine:
            raise WrongDecision(f"nothing is asked of the {role} player now")
        decision = next((d for d in mine if d.kind == order.kind), None)
        if decision is None:
            raise WrongDecision(f"'{self.grammar.render(order)}' does not answer: {mine[0].prompt}")
        board = self._board(state, rng, copy=True)
        frame = board.top()
        self.handlers[frame["kind"]].apply(board, frame, decision, order)
        self.settle(board)
        return board.data, board.events

    def settle(self, board: Any) -> None:
        """Run every automatic step until somebody must decide or the game is over."""
        for _ in range(self.settle_limit):
            if board.data["result"] is not None or not board.stack:
                return
            frame = board.top()
            if not self.handlers[frame["kind"]].step(board, frame):
                return
        raise RuntimeError(f"{self.info.title} did not settle")
