"""The state of a VMT game as types: the whole state, the records in it, one TypedDict per frame kind,
each frame's stages as literals, and the fixed stage sequences in rulebook order.

Types only: a TypedDict is a plain dict at run time, so the JSON the engine keeps is what it was.
Sides are plain strings ("axis" or "soviet"), as orders and decisions carry them.

(No `from __future__ import annotations` here: with string annotations Python 3.11 cannot tell
NotRequired keys from required ones at run time, and the tests read `__required_keys__`.)
"""

from typing import Any, Literal, NotRequired, TypedDict

from moderator.core.frames import Stage, StageSequence

# ---------------------------------------------------------------- records

BlockStatus = Literal["waiting", "reinforcement", "map", "eliminated"]
AssetStatus = Literal["pool", "map", "eliminated"]


class BlockRecord(TypedDict):
    """One block: where it is, its strength (SP, L89) and whether it is Exhausted (L320-324)."""

    side: str
    area: str | None
    sp: int
    exhausted: bool
    status: BlockStatus


class AssetRecord(TypedDict):
    """One Armor or Pioneer counter: 2 steps, then 1, then gone (L236)."""

    side: str
    type: str  # pz3, stug, t26, axis_pioneer, soviet_pioneer
    steps: int
    area: str | None
    status: AssetStatus


class Reinforcements(TypedDict):
    axis: int  # Axis groups taken so far, in the fixed order (L418-423)
    soviet: int  # Soviet brigades landed so far (L414)
    axis_turn: int  # the turn the last Axis group came (one group a turn, L423)


class GameResult(TypedDict):
    winner: str | None  # None: a draw
    reason: str
    axis_vp: int
    soviet_vp: int
    turn: int


class CombatSummary(TypedDict):
    """The last combat fought, for the views."""

    area: str
    attacker: str
    winner: str | None
    battery: bool


class RecentAction(TypedDict):
    """A public action of the current phase, for the map's highlights."""

    kind: Literal["move", "combat", "fire", "retreat"]
    side: str
    path: NotRequired[list[str]]  # a move or a retreat
    area: NotRequired[str]  # a combat or a bombardment


# ---------------------------------------------------------------- stages and their sequences

BombardStage = Literal["discard", "play"]
BOMBARDMENT_STEPS: StageSequence[BombardStage] = StageSequence(
    Stage("discard", "L124-126 a-b) discard any cards but the bombardment cards, draw as many"),
    Stage("play", "L128-132 c-e) play bombardment cards, reshuffle, refill to 8"),
)

PhaseStage = Literal["start", "reinforce", "place", "cards"]
PHASE_STEPS: StageSequence[PhaseStage] = StageSequence(
    Stage("start", "L138, L148, L414: the phase begins (the Soviet reinforcement roll from turn 2)"),
    Stage("reinforce", "L416-423: the Axis may take the next reinforcement group, before any card"),
    Stage("place", "L414, L423: the arriving blocks are placed"),
    Stage("cards", "L142-144: play cards, or pass"),
)

ActivationStage = Literal["coordinate", "assets", "moves"]
ACTIVATION_STEPS: StageSequence[ActivationStage] = StageSequence(
    Stage("coordinate", "L186-200: more divisions join a Coordinated Assault, one card each"),
    Stage("assets", "L178, L228, L435: Armor and Pioneer counters placed with the blocks, before moving"),
    Stage("moves", "L172-180, L194, L461: the activated blocks move, each once; combats are resolved"),
)

CombatStage = Literal["support_att", "support_def", "reveal", "roll", "hits", "aftermath", "retreat", "settle",
                      "keep", "counter"]
COMBAT_PROCEDURE: StageSequence[CombatStage] = StageSequence(
    Stage("support_att", "L214, L270 step 1: the attack is announced; the attacker commits support face down"),
    Stage("support_def", "L214, L272 step 2: the defender commits support face down"),
    Stage("reveal", "L272-296 steps 2-4: reveal, markers and anti-armor fire, count the dice, roll"),
    Stage("hits", "L312, L320 step 5 (reconstructed): casualties, the defender's 6s exhausting"),
    Stage("aftermath", "L260, L314 step 6 (ruling R-WIN): pioneers' self-loss, who won"),
    Stage("retreat", "L270, L298 step 7 (ruling R-RETREAT): the loser retreats"),
    Stage("settle", "L238, L370, L390: markers, trenches and control after the retreat"),
    Stage("keep", "L190, L206: an over-stacked winner keeps 3 blocks, the rest go home"),
    Stage("counter", "L439: the combat is over; the Counterattack window"),
)
BATTERY_ASSAULT: StageSequence[CombatStage] = StageSequence(
    Stage("roll", "L338-342: the battery rolls 2d6, the Axis 1d6 per fresh block, no cards"),
    Stage("hits", "L312: the battery's hits on the Axis blocks"),
    Stage("aftermath", "L260, L342: pioneers' self-loss; one Axis hit destroys the battery"),
    Stage("keep", "L343, L190: no retreat either way; an over-stacked winner keeps 3 blocks"),
    Stage("counter", "L439: the combat is over; the Counterattack window"),
)

StrikeStage = Literal["cover", "escort", "resolve"]
STRIKE_STEPS: StageSequence[StrikeStage] = StageSequence(
    Stage("cover", "L449: the Soviet may answer an Air Strike with Fighter Cover"),
    Stage("escort", "L445: the Axis may answer Fighter Cover with Fighter Escort"),
    Stage("resolve", "L453-457: the Air Strike attacks or interdicts, unless covered"),
)

CoverStage = Literal["escort", "resolve"]
COVER_ORDER_STEPS: StageSequence[CoverStage] = StageSequence(
    Stage("escort", "L445: the Axis may answer Fighter Cover with Fighter Escort"),
    Stage("resolve", "L449: Fighter Cover removes the Interdiction marker, unless escorted"),
)


# ---------------------------------------------------------------- frames


class FrameBase(TypedDict):
    """What every frame holds besides its `kind` (a literal per frame kind below)."""

    id: int  # game-unique: it keys the frame's decisions, so deadlines restart per frame
    asked: int  # answers taken so far: part of each decision's key


class SetupFrame(FrameBase):
    """The secret free set-up (L100): each side's placements, filed with a commitment."""

    kind: Literal["setup"]
    filed: list[str]
    placements: dict[str, dict[str, str]]  # side -> block -> area
    salts: dict[str, str]
    salt_draws: NotRequired[dict[str, list[str | int]]]  # side -> [stream, counter] of its salt's draw


class SetupSecret(TypedDict):
    """A filed free set-up kept secret until the game ends, when it is revealed (core/commitments.py)."""

    placements: dict[str, str]  # block -> area, as filed
    salt: str
    salt_draw: list[str | int]  # [stream, counter]


class BombardFrame(FrameBase):
    """The Initial Bombardment (L122-136)."""

    kind: Literal["bombard"]
    stage: BombardStage
    pile: list[str]


class PhaseFrame(FrameBase):
    """An action phase (L138-150), or the card plays of the Initial Bombardment (`bombardment`)."""

    kind: Literal["phase"]
    side: str
    stage: PhaseStage
    played: bool  # a card was played this phase (no Pass then, L144)
    bombardment: bool
    placing: list[str]  # reinforcements still to place, in order
    air_window: bool  # the Axis may strike before the next Soviet card (ruling R-AIR)


class AttackEntry(TypedDict):
    """A block that moved into a combat: where from, and the border it crossed (L272, L352)."""

    block: str
    origin: str
    crossed: str  # a border kind, "river", or "none" for a battery stormed from within
    via: str  # the last area before the combat area


class ActivationFrame(FrameBase):
    """An Assault, Counterattack or Redeployment card's activation (L166-200, L437-441, L459-461)."""

    kind: Literal["activation"]
    side: str
    card: str
    mode: Literal["group", "division"]
    area: str | None  # the group's area
    divisions: list[str]
    blocks: list[str]  # every activated block
    moved: list[str]
    reaction: bool  # a Counterattack played as a Reaction (L439)
    move_kind: Literal["assault", "redeploy"]
    stage: ActivationStage
    assets_left: int  # asset placements still allowed (one per Assault card, L200)
    pending: dict[str, list[AttackEntry]]  # combat area -> the attackers waiting to fight there
    order_of_pending: list[str]
    fight: str | None  # the combat to open next
    closing: bool  # DONE was answered: fight what waits, then end
    target: str | None  # ASSAULT GROUP a TO b
    asset_start: dict[str, str | None]  # where each asset began the activation (L230)
    assets_moved: list[str]
    auto_moved: bool
    asset_via: NotRequired[dict[str, dict[str, str]]]  # combat area -> asset -> the area it came from
    asset_origin: NotRequired[dict[str, dict[str, str]]]  # combat area -> asset -> the area its blocks left


class DiceCount(TypedDict):
    """How many dice a side rolls, with the reason for each part (L274-290); never below one."""

    parts: list[tuple[str, int]]  # JSON gives them back as two-item lists
    total: int


class CombatResult(TypedDict):
    """The dice of a combat's step 4 and what they did (L292-296, L310, L320)."""

    dice: dict[str, DiceCount]  # how many dice, and why
    rolls: dict[str, list[list[Any]]]  # side -> each die as [value, stream, counter] (events call this list `dice`)
    modified: dict[str, list[int]]
    notes: dict[str, list[str]]
    cancelled: dict[str, int]
    hits_on: dict[str, int]  # hits each side still has to allocate
    hits_suffered: dict[str, int]
    sixes_on_attacker: int


class ArmorVia(TypedDict, total=False):
    """The attacking armor counter and the area it came from, for the AT ditch die (L352)."""

    asset: str
    via: str


class RetreatGroup(TypedDict):
    """One group of a retreat still to go: its blocks, where to, and who takes its extra losses (L404)."""

    blocks: list[str]
    to: str
    losses: list[str]
    #: on RETREAT AUTO's last group: the blocks its plan leaves behind for want of room, eliminated as that
    #: group goes (one retreat; not a second chance once a block lost on the way frees room, ruling R-RETREAT)
    left: NotRequired[list[str]]


class CombatFrame(FrameBase):
    """One combat (L264-326) or battery assault (L338-344)."""

    kind: Literal["combat"]
    area: str
    attacker: str
    defender: str
    attackers: list[AttackEntry]
    defenders: list[str]
    battery: bool
    stage: CombatStage
    cards: dict[str, list[str]]  # side -> support card ids committed face down
    counter_window: bool  # a Counterattack may follow (not after a reactive one, ruling R-CA)
    activation: int  # the id of the activation frame that opened it
    result: CombatResult | None
    winner: str | None
    loser: NotRequired[str | None]
    retreating: list[str]
    retreat_plan: NotRequired[list[RetreatGroup]]  # the groups of a split or AUTO retreat still to go (L206)
    pioneer_acted: dict[str, bool]
    allocated: dict[str, list[str]]  # side -> the blocks its hits went to
    armor_via: ArmorVia
    asset_origins: NotRequired[dict[str, str]]  # asset -> the area it attacked from with its blocks (L230, L270)


class StrikeFrame(FrameBase):
    """An Air Strike in flight (L451-457), answered by Fighter Cover and Escort (L443-449)."""

    kind: Literal["strike"]
    card: str
    mode: str  # ATTACK or INTERDICT
    target: str
    removing: str | None  # the Interdiction marker to relocate (L457)
    reaction: bool
    entering: list[str]  # the Soviet blocks whose entry opened the window
    stage: StrikeStage
    cover: str | None  # the Fighter Cover card played against it
    escorted: bool


class CoverOrderFrame(FrameBase):
    """Fighter Cover played as an Order against an Interdiction marker (L449)."""

    kind: Literal["cover_order"]
    card: str
    target: str
    stage: CoverStage
    escorted: bool


class EntryWindowFrame(FrameBase):
    """Soviet blocks entered an area: the Axis may strike them or interdict it (L455, L457)."""

    kind: Literal["window"]
    window: Literal["entry"]
    side: str
    area: str
    blocks: list[str]
    attack: bool


class CounterattackWindowFrame(FrameBase):
    """A combat the phasing player fought is over: the opponent may Counterattack (L439)."""

    kind: Literal["window"]
    window: Literal["counterattack"]
    side: str
    area: str
    winner: str | None


WindowFrame = EntryWindowFrame | CounterattackWindowFrame

Frame = (
    SetupFrame
    | BombardFrame
    | PhaseFrame
    | ActivationFrame
    | CombatFrame
    | StrikeFrame
    | CoverOrderFrame
    | EntryWindowFrame
    | CounterattackWindowFrame
)


# ---------------------------------------------------------------- the whole state


class VmtState(TypedDict):
    """Everything the engine keeps between two answers (written by setup.initial_state)."""

    version: int
    scenario: str
    options: dict[str, Any]
    turn: int
    next_id: int  # the last frame id given out
    blocks: dict[str, BlockRecord]
    control: dict[str, str]  # area -> the side controlling it (L388-390)
    trench_disabled: list[str]  # Soviet trenches out of order for good (L370)
    batteries_destroyed: list[str]
    markers: dict[str, list[str]]  # area -> its AT, minefield, bunker and interdiction markers
    assets: dict[str, AssetRecord]
    cards: dict[str, str]  # card id -> card type
    decks: dict[str, list[str]]  # side -> card ids, drawn from the end
    hands: dict[str, list[str]]
    discards: dict[str, list[str]]
    removed: list[str]  # card ids out of play for good
    vp_paid: int  # VP the Axis paid for reinforcements (L112)
    reinforcements: Reinforcements
    stack: list[Frame]
    last_combat: CombatSummary | None
    setup_commitments: dict[str, str]  # side -> SHA-256 of its filed free set-up
    setup_secrets: NotRequired[dict[str, SetupSecret]]  # side -> its set-up and salt, revealed at the end
    result: GameResult | None
    phase_side: str | None
    recent: NotRequired[list[RecentAction]]
    interdiction_order: NotRequired[list[str]]  # interdicted areas, oldest first (L457)
