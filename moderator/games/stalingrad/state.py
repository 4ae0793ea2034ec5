"""The shape of a Hell of Stalingrad game's state: the JSON tree the engine keeps, its records and
one frame type per kind of step on ``state["stack"]`` (types only: the state stays plain JSON)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from moderator.core.frames import Frame

Side = Literal["german", "soviet"]
#: where a formation card is: a deck or pile, the Staging Line, or maneuvered to a district's building
Place = Literal["deck", "staging", "destroyed", "ash", "A", "B", "C", "D"]


class Options(TypedDict):
    """The rule options of engine.OPTIONS (RULINGS.md), as chosen when the game was created."""

    game: str
    volga_cards: str
    machine_gun: str
    intensity_fires: str
    slaughter_dice: str
    teammate_hands: NotRequired[str]  # the four-player game (ruling S-82)
    unfinished: NotRequired[str]  # how a game stopped unfinished is judged (ruling S-84; games made before it lack it)


class GameResult(TypedDict):
    winner: str  # a Side
    reason: str


class SideRecord(TypedDict):
    """One player's cards and counters (§Mats): decks, hand, piles, trophies."""

    commander: str
    deck: list[str]  # physical Combat Cards, top first (hidden from everybody)
    hand: list[str]  # hidden from the opponent (§Commanders A)
    discard: list[str]
    formation_deck: list[str]
    campaign: list[str]
    pile: dict[str, int]  # unit counters by kind not on a building (§Mats)
    trophies: list[str]  # captured buildings (German, §Battle 6 D)
    campaign_card: str | None  # the card turned this turn


class SeatRecord(TypedDict):
    """A four-player seat (§Four Player): its commander and hand while another seat of its side is at the table
    (the seated seat's live hand and commander are its side's, ruling S-81)."""

    side: str
    commander: str
    hand: list[str]


class FormationRecord(TypedDict):
    side: str  # a Side
    at: str  # a Place
    depleted: bool
    leader: int | None  # None: no leader; 0 / 1: the level (§Leaders)


class DistrictRecord(TypedDict):
    """A district's building slot and its Tracking Card (§Tracking, §Buildings)."""

    building: str | None
    volga: bool
    closed: bool
    captured: str | None  # the building captured last, until the district is readied (§Strategy 5)
    hold: int
    fire: int
    bucket: int
    infernos: int
    units: dict[str, dict[str, int]]  # side -> counter kind -> how many on the building (core side up)


class BattleRecord(TypedDict):
    """The battle being fought (§Battle 1-6): public to both players."""

    district: str
    building: str
    stage: str
    round: int
    active: str | None  # a Side
    initiative: str | None
    intensity: int
    formations: dict[str, list[str]]  # side -> formations in the battle (maneuvered or overrun)
    retreated: list[str]
    played: dict[str, list[str]]  # formation -> cards played on it this battle (ruling S-69)
    spent: dict[str, int]  # formation -> Patriotism used this battle (§Soviet Cards A, ruling S-39)
    acted: bool  # the active player's action is done; its effects resolved, the round ends
    carnage_card: str | None  # the Battle Intensity card (§Battle 2-3)
    parked: dict[str, int]  # Motivator and Rifle counters lying on purchased cards (ruling S-08)
    depleted_round: list[str]  # formations depleted this round (§Deplete A: once a round)
    deferred: list[dict[str, Any]]  # Soviet vanguard Kills held until the German vanguards (§Battle 1)
    hold_card: str | None  # the Carnage Card drawn for a Hold, while its option is chosen
    pending_hold: bool  # the Hold Counter advances once the Hold's effect is done (§Battle 4)
    dice: dict[str, int]  # Break Test pools (§Battle 5)
    pity: bool
    rolls: list[dict[str, Any]]
    winner: str | None
    routed: bool  # the immediate Soviet victory (§Battle 4 note, ruling S-20)
    # the advanced game (§Advanced, §Heroes)
    pending_card: dict[str, Any] | None  # a card played, waiting for the Intercept window (ruling S-25)
    heroes: dict[str, dict[str, Any]]  # hero card -> {side, wounds}
    hero_dice: dict[str, int]  # the German's extra Break dice and the dice the Soviet steals
    ghost: bool  # Stalin's Ghost waits for the next costly Soviet card (ruling S-61)
    second: str | None  # a 2nd action: None, "pending" or "used" this round (ruling S-26)
    skip: bool  # an intercept took the interceptor's round (ruling S-48)
    intercepted: NotRequired[list[str]]  # cards an Intercept sent to the Discard Pile already (ruling S-25)


class StalingradState(TypedDict):
    version: int
    scenario: str
    options: Options
    turn: int  # the Hourglass position (ruling S-05)
    result: GameResult | None
    stack: list[Any]
    next_id: int
    sides: dict[str, SideRecord]
    formations: dict[str, FormationRecord]
    districts: dict[str, DistrictRecord]
    building_deck: list[str]
    carnage: list[str]
    ash: list[str]
    assaults: dict[str, list[str]]  # district -> buildings assaulted this turn, not yet fought
    battle: BattleRecord | None
    # the four-player game only (§Four Player, rulings S-28 to S-31, S-81, S-82)
    seats: NotRequired[dict[str, SeatRecord]]
    table: NotRequired[dict[str, str]]  # side -> the seat whose hand and commander are the side's now
    owners: NotRequired[dict[str, str]]  # formation in play -> the seat that controls it (ruling S-29)


# ---------------------------------------------------------------- frames

TurnStage = Literal["progress", "campaign", "reinforce", "consolidate", "ready", "assault", "defend", "battles",
                    "end"]
BattleStage = Literal["soviet_vanguard", "german_vanguard", "intensity", "initiative", "rounds", "hold_choice", "roll",
                      "break", "slaughter", "aftermath"]


class TurnFrame(Frame):
    stage: TurnStage
    demotes: int
    depleted_arrivals: list[str]  # sides whose reinforcements arrive depleted this turn (campaign)
    consolidated: list[str]  # sides done consolidating
    assaulted: bool
    seats_done: NotRequired[list[str]]  # four-player: seats done maneuvering this stage (ruling S-81)


class BattleFrame(Frame):
    pass


class GiveFrame(Frame):
    waiting: list[str]  # four-player seats still to say which cards they give their teammate (ruling S-83)


class EffectsFrame(Frame):
    queue: list[dict[str, Any]]
