"""The shape of a Skirmish game's state: the JSON tree the engine keeps (`SkirmishState`), its records,
and one frame type per kind of step on ``state["stack"]``, with each frame's stages as `Literal`s.

Types only (each fixed sequence of stages is a `StageSequence` beside its handler, in `sequence`):
a TypedDict is a plain dict at run time, so the state stays plain JSON and round-trips unchanged.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from moderator.core.frames import Frame

Side = Literal["red", "blue"]
TieRule = Literal["fall_back", "stand"]  # ruling S-TIE


class UnitRecord(TypedDict):
    """One unit: whose, where (None once eliminated) and its strength now (§3, §6.2)."""

    side: Side
    area: str | None
    strength: int


class Options(TypedDict):
    """The rule options of engine.OPTIONS, as chosen when the game was created."""

    tie: TieRule


class GameResult(TypedDict):
    winner: Side | None  # None: a draw (§8)
    reason: str
    vp: dict[str, int]


class SkirmishState(TypedDict):
    version: int
    scenario: str
    options: Options
    turn: int
    result: GameResult | None
    stack: list[Any]  # the frames below, the top one acting
    next_id: int
    units: dict[str, UnitRecord]
    control: dict[str, Side | None]  # area -> who controls it (§7)


# ---------------------------------------------------------------- frames and their stages

TurnStage = Literal["red", "blue", "end"]
PhaseStage = Literal["move", "battles", "end"]


class TurnFrame(Frame):
    """One game turn (§4): the red phase, the blue phase, then the next turn or the end of the game."""

    stage: TurnStage


class PhaseFrame(Frame):
    """One side's phase (§4.1): movement, battles, end."""

    side: Side
    stage: PhaseStage
    moved: list[str]  # units that moved this phase (ruling S-ONCE)
    battles: list[str]  # areas still to be fought, in map order (§6)


class BattleFrame(Frame):
    """One battle (§6.1-6.2), resolved without asking anybody."""

    area: str
    attacker: Side
    defender: Side


class RetreatFrame(Frame):
    """The loser's retreat from a battle's area (§6.3)."""

    side: Side
    origin: str
    units: list[str]
    why: str
