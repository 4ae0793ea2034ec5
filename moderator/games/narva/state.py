"""The shape of an Across the Narva game's state: the JSON tree the engine keeps (`NarvaState`), its
unit, arrival and result records, and one frame type per kind of step on ``state["stack"]``.

Types only (a fixed sequence of stages is a `core.frames.StageSequence` beside its handler): the
state stays plain JSON (dicts, lists, strings, numbers) so that it round-trips through the engine's
`dump_state` / `load_state` unchanged; these types say what each key holds.
A stage is a `Literal`: the value a frame's ``"stage"`` key may take.  Keys marked `NotRequired`
appear only once something has happened (a combat resolved, a displacement computed).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Side = Literal["german", "soviet"]
Where = Literal["map", "pending", "eliminated", "withdrawn", "displacing"]  # "pending": not arrived yet
SupplyState = Literal["ok", "oos", "isolated"]  # 10.0: in supply, out of supply, isolated
AirBox = Literal["pending", "ready", "grounded", "refit"]  # 12.1.2, 12.2; "pending": not arrived yet
AirMode = Literal["full", "normal"]  # 12.1.1
StrengthUsed = Literal["attack", "defense"]  # which printed strength ranks a loss (9.4.1B)
BarrageSource = Literal["chit", "event", "strachwitz", "coastal"]  # 2.5.1.1, 2.5.1.4, 4.2.3C, 8.6C


# -- records ----------------------------------------------------------------------------------------


class UnitRecord(TypedDict):
    """One unit of the counter mix (scenario data says what it is; this says where and how it is)."""

    hex: str | None
    reduced: bool
    where: Where
    supply: SupplyState
    seq: int  # order of arrival in its hex: the stack order (combat units first, then HQs)


class Arrival(TypedDict):
    """A scheduled reinforcement (8.0); `entry` is an entry letter, "merekula" (8.6) or "supplied_hex" (4.2.5B)."""

    unit: str
    turn: int
    entry: str
    rerouted: bool  # 8.4B: a unit is rerouted at most once


class Options(TypedDict):
    """The rule options of engine.OPTIONS, as chosen when the game was created."""

    fog: Literal["on", "off"]
    fog_stack_height: Literal["shown", "hidden"]
    ezoc_retreat_loss: Literal["strongest", "owner"]
    corps_choice: Literal["any", "own_army"]
    rp_timing: Literal["immediate", "bank"]
    free_move_hq: Literal["corps", "any"]


class GameResult(TypedDict):
    winner: Side
    reason: str
    vp: int
    level: str


# What the map highlights of the current activation (Board.remember): moves, combats, barrages, retreats.
class RecentMove(TypedDict):
    kind: Literal["move"]
    side: Side
    unit: str
    path: list[str]
RecentCombat = TypedDict("RecentCombat", {"kind": Literal["combat"], "side": Side, "hex": str, "result": str,
                                          "from": list[str]})
class RecentBarrage(TypedDict):
    kind: Literal["barrage"]
    side: Side
    hex: str
    result: str
class RecentRetreat(TypedDict):
    kind: Literal["retreat"]
    side: Side
    path: list[str]
RecentAction = RecentMove | RecentCombat | RecentBarrage | RecentRetreat


# -- stages -----------------------------------------------------------------------------------------

TurnStage = Literal["air", "ready", "command", "reinforce", "supply", "sudden_death", "advance", "improve", "next"]
CommandStage = Literal["hq", "attach", "move", "attack", "end"]
ActivationStage = Literal["move", "attack", "end"]
ActivationMode = Literal["command", "free", "regroup", "rebuild", "reinforce"]
CombatStage = Literal["resolve", "defender_losses", "defender_retreat", "attacker_losses", "attacker_retreat",
                      "advance", "done"]
ReinforceStage = Literal["start", "reroute", "place", "land", "move"]

# -- frames -----------------------------------------------------------------------------------------


class _Frame(TypedDict):
    id: int  # unique in the game: it keys the frame's decisions
    asked: int  # answers taken so far: a new answer makes a new decision key (and deadline)


class TurnFrame(_Frame):
    """The Sequence of Play of one turn (3.0)."""

    kind: Literal["turn"]
    stage: TurnStage
    ready: list[Side]


class CupFrame(_Frame):
    """The Command Phase: chits drawn one at a time (4.1.1)."""

    kind: Literal["cup"]
    draws: int


class CommandFrame(_Frame):
    """A command chit's activation: the HQ, its attachments, then moves and attacks (4.1-4.2)."""

    kind: Literal["command"]
    side: Side
    chit: str
    chit_group: str
    stage: CommandStage
    mode: Literal["command"]
    hq: str | None
    movers: list[str]  # may move
    fighters: list[str]  # may also attack
    moved: list[str]
    attacked: list[str]
    ferries: list[str]  # hexsides whose ferry carried a unit this activation (6.2.2.2B)
    context: dict[str, Any]  # what ON and IF tests may ask about this activation
    remove_after: NotRequired[bool]  # 2.5.6: the chit leaves the game after this activation


class ActivationFrame(_Frame):
    """Any other activation: free move, regroup, reinforcements, a rebuilt unit (see activation.py)."""

    kind: Literal["activation"]
    side: Side
    mode: ActivationMode
    chit: str | None
    hq: str | None
    stage: ActivationStage
    movers: list[str]
    fighters: list[str]
    moved: list[str]
    attacked: list[str]
    ferries: list[str]
    context: dict[str, Any]


MovingFrame = CommandFrame | ActivationFrame


class DefenderResult(TypedDict):
    losses: int
    retreat: int
    notes: list[str]
    pd_boxes: int
    pd_division: str | None


class AttackerResult(TypedDict):
    losses: int
    retreat: int


class CombatOutcome(TypedDict, total=False):
    """What the CRT gave, after negations: empty until the die is rolled."""

    defender: DefenderResult
    attacker: AttackerResult


class CombatFrame(_Frame):
    """One attack, from the odds to the advance (9.0-9.6)."""

    kind: Literal["combat"]
    side: Side
    target: str
    attackers: list[str]
    air: dict[str, AirMode]
    stavka: bool
    min_column: int | None
    stage: CombatStage
    defenders: list[str]
    result: CombatOutcome
    retreated: NotRequired[list[str]]  # attackers that retreated, who may not advance


class LossesFrame(_Frame):
    """Step losses to take among a group of units (9.4)."""

    kind: Literal["losses"]
    side: Side
    units: list[str]
    count: int
    why: str
    strongest_first: bool
    by: StrengthUsed
    hex: str | None
    interrupts: Side | None


class RetreatFrame(_Frame):
    """A stack's retreat (9.5)."""

    kind: Literal["retreat"]
    side: Side
    units: list[str]
    origin: str
    length: int
    why: str
    by: StrengthUsed
    interrupts: Side | None


class OverstackFrame(_Frame):
    """A retreat that ended overstacked goes on or loses the excess (7.2B-C)."""

    kind: Literal["overstack"]
    side: Side
    units: list[str]
    hex: str
    origin: str
    distance: int
    by: StrengthUsed
    interrupts: Side | None


class AdvanceFrame(_Frame):
    """Advance after combat into a vacated hex (9.6)."""

    kind: Literal["advance"]
    side: Side
    target: str
    units: list[str]
    origins: dict[str, str]
    moved: list[str]


class DisplaceFrame(_Frame):
    """An HQ left alone or overrun, waiting for its new hex (11.1.3)."""

    kind: Literal["displace"]
    hq: str
    origin: str
    legal: NotRequired[list[str]]  # computed when the frame first comes up


class BarrageFrame(_Frame):
    """Barrage attacks to make (2.5.1)."""

    kind: Literal["barrage"]
    side: Side
    count: int
    source: BarrageSource
    targeted: list[str]
    next_to_any: bool
    fixed: str | None
    pending: None  # never set; kept so that saved games read the same


class StavkaFrame(_Frame):
    """The Stavka directive's two attacks (2.5.3)."""

    kind: Literal["stavka"]
    done: int
    targets: list[str]
    used: list[str]
    announced: NotRequired[list[str]]  # the attackers of the attack just announced


class FreeMoveFrame(_Frame):
    """The Soviet Free Move chit (2.5.4)."""

    kind: Literal["freemove"]


class RegroupFrame(_Frame):
    """The random event that moves one formation (2.5.2B)."""

    kind: Literal["regroup"]
    side: Side


class RebuildFrame(_Frame):
    """Spending German replacement points (11.2)."""

    kind: Literal["rebuild"]
    lose_rest: bool


class ReinforceFrame(_Frame):
    """One side's Reinforcement Segment (8.0)."""

    kind: Literal["reinforce"]
    side: Side
    stage: ReinforceStage
    placed: list[str]
    skip: list[str]


class CoastalFrame(_Frame):
    """The German coastal artillery's answer to the 260th MS landing (8.6C)."""

    kind: Literal["coastal"]
    hex: str


Frame = (
    TurnFrame
    | CupFrame
    | CommandFrame
    | ActivationFrame
    | CombatFrame
    | LossesFrame
    | RetreatFrame
    | OverstackFrame
    | AdvanceFrame
    | DisplaceFrame
    | BarrageFrame
    | StavkaFrame
    | FreeMoveFrame
    | RegroupFrame
    | RebuildFrame
    | ReinforceFrame
    | CoastalFrame
)


# -- the whole state --------------------------------------------------------------------------------


class NarvaState(TypedDict):
    """Everything the engine keeps between answers (built by setup.initial_state)."""

    version: int
    scenario: str
    options: Options
    turn: int
    result: GameResult | None
    stack: list[Frame]
    next_id: int  # the last frame id handed out
    seq: int  # the last arrival counter handed out (UnitRecord.seq)
    units: dict[str, UnitRecord]
    arrivals: list[Arrival]
    cup: list[str]  # chits in the cup (2.3)
    tracks: dict[Side, list[str]]  # the Activations Tracks: command chits used this turn (4.2.1B)
    used: dict[Side, int]  # command chits drawn this turn, counted against the turn's limit (4.1.1B)
    drawn_actions: list[str]  # action chits drawn this turn
    parked: dict[str, int]  # chits on the Turn Record Track -> the turn they come back (2.5.3E, 2.5.5-2.5.7)
    removed: list[str]  # chits out of the game
    shock_oos: bool  # the 2nd Shock out-of-supply chit waits beside the track (2.5.6)
    preplayed: str | None  # the 2nd Shock chit the Soviets play first on Turn 1 (14.10A)
    last_hq: dict[Side, str | None]  # the HQ activated last (4.1.2)
    strachwitz_used: bool  # 4.2.3D: once per turn
    first_2sh_done: bool  # 8.6D: the 260th MS goes with the first 2nd Shock activation of a turn
    air: dict[str, AirBox]
    pd: dict[str, int]  # division -> box on the prepared-defence track (11.3)
    rp: int  # German replacement points not spent (11.2)
    freeze_extended: bool  # a random event prolonged the freeze (2.5.2)
    pinned: dict[str, list[str]]  # hex -> the units pinned there this turn (2.5.1.3)
    control: dict[str, Side]  # VP hex -> the side that last passed through it (13.2)
    recent: list[RecentAction]  # the current activation's public actions, for the map
    active_side: Side | None
    returned_this_turn: list[str]  # units returned from the eliminated box this turn: not rebuilt again (11.2.1B)
    recent_activation: NotRequired[list[str]]  # set empty at each command activation and never read
    last_combat_cancelled: NotRequired[bool]  # the last attack did not reach the table (9.3.2A): Stavka retries
