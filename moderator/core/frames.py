"""The interrupt stack shared by the games: each step of play is a frame; the top frame asks or
moves on by itself (DESIGN §3).

Wargames nest: an attack inside an activation inside a turn, a retreat and a displacement inside
the attack.  Each such step is a frame (a JSON dict) on ``state["stack"]``; a game's handler per
frame kind says what it asks (`decisions`), which answers are legal, what an answer does and how
it moves on without asking (`step`).  These helpers are the parts every game shares.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from moderator.core.contract import Decision


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
