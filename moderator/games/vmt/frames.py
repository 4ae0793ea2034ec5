"""The interrupt stack: each step of play is a frame; the top frame asks or moves on by itself.

VMT nests deeply (an Axis attack, a Soviet Counterattack inside it, an Air Strike inside that, a
Fighter Cover, a Fighter Escort, a retreat with an Interdiction...).  Every such step is a frame on
`state["stack"]`, typed per kind in `state.py`; a handler per frame kind (the core's
`frames.Handler`) says what it asks (`decisions`), which answers are legal (`legal`), what an answer
does (`apply`) and how it moves on without asking (`step`).
"""

from __future__ import annotations

from typing import Any

from moderator.core import frames as core_frames
from moderator.core.contract import OPTION_LABEL, Decision
from moderator.core.frames import answered as answered  # re-exported for the VMT handlers
from moderator.core.frames import ask as ask
from moderator.core.grammar import Order
from moderator.games.vmt.board import Board
from moderator.games.vmt.lexicon import lexicon_for
from moderator.games.vmt.orders import GRAMMAR


def new_frame(board: Board, kind: str, **fields: Any) -> Any:
    """A frame of `kind` with a game-unique id; the caller annotates it with its kind's TypedDict."""
    return core_frames.new_frame(board.data, kind, **fields)


def options_as_orders(board: Board, decision: Decision) -> list[Order]:
    """The decision's listed options, parsed as orders of its kind (labels after two spaces dropped)."""
    lexicon = lexicon_for(board, decision.role)
    return [GRAMMAR.parse(text.split("  (")[0], lexicon, kinds=[decision.kind]) for text in decision.options]


def any_of(prefix: str, items: list[str]) -> list[str]:
    """One option naming every item after `prefix`, labelled to say that any one or more of them may be
    named: every selection is an answer, too many to list one by one (issue 12)."""
    if len(items) <= 1:
        return [f"{prefix} {item}" for item in items]
    return [f"{prefix} {' '.join(items)}{OPTION_LABEL}any one or more of them)"]
