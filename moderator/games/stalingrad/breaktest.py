"""§Battle 5 the Break Test: the dice pools (Formation, Unit, Inferno, Defensive, Determination), the roll
read by the single highest die, and the three results.  Rulings: S-20, S-21, S-22, S-23, S-24, S-75."""

from __future__ import annotations

from typing import Any

from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.effects import items_of, queue_effects
from moderator.games.stalingrad.scenario import SIDES, Effect


def pools(board: Board) -> tuple[dict[str, int], dict[str, dict[str, int]], bool]:
    """The dice each side rolls, their sources, and whether the German rolls only the Determination die."""
    battle = board.battle
    district = battle["district"]
    source: dict[str, dict[str, int]] = {side: {} for side in SIDES}
    full = {side: sum(1 for f in board.battling(side) if not board.is_depleted(f)) for side in SIDES}
    units = {side: board.unit_count(district, side) for side in SIDES}
    for name, counts in (("formation", full), ("unit", units)):
        # §Battle 5 A, B: the side with more gets the die; equal (and not none) both do
        best = max(counts.values())
        for side in SIDES:
            if best and counts[side] == best:
                source[side][name] = 1
    source["german"]["inferno"] = board.district(district)["infernos"]  # §Battle 5 C
    building = board.building_of(district)
    source["soviet"]["defense"] = building.defense if building else 0  # §Battle 5 D
    heroes = battle.get("hero_dice", {"german": 0, "steal": 0})
    if heroes["german"]:
        source["german"]["heroes"] = heroes["german"]  # §Heroes +2 Break Test dice, even if the hero died
    stolen = min(heroes["steal"], sum(source["german"].values()))  # ruling S-21: never the Pity die
    if stolen:
        source["german"]["stolen"], source["soviet"]["stolen"] = -stolen, stolen
    dice: dict[str, int] = {side: sum(source[side].values()) for side in SIDES}
    pity = dice["german"] == 0  # §Battle 5 E, ruling S-21: counted after everything else
    if pity:
        source["german"]["determination"] = dice["german"] = 1
    return dice, source, pity


def compare(german: list[int], soviet: list[int]) -> str:
    """§Battle 5 Dice Results, ruling S-22: the higher single die wins; equal highs, the more dice showing
    it; equal again, a Bloody Slaughter."""
    top_g, top_s = max(german, default=0), max(soviet, default=0)
    if top_g != top_s:
        return "german" if top_g > top_s else "soviet"
    count_g, count_s = german.count(top_g), soviet.count(top_s)
    if count_g != count_s:
        return "german" if count_g > count_s else "soviet"
    return "slaughter"


def start_break_test(board: Board) -> None:
    battle = board.battle
    dice, source, pity = pools(board)
    battle["dice"], battle["pity"] = dice, pity
    board.emit("break_dice", district=battle["district"], german=dice["german"], soviet=dice["soviet"],
               sources={side: dict(sorted(source[side].items())) for side in SIDES}, pity=pity)
    battle["stage"] = "roll"


def roll(board: Board) -> None:
    """Roll both pools (d6, ruling S-75) and act on the result."""
    battle = board.battle
    rolled = {side: board.roll(battle["dice"][side], f"{side} break test dice") for side in SIDES}
    values = {side: [die.value for die in rolled[side]] for side in SIDES}
    result = compare(values["german"], values["soviet"])
    if result == "slaughter" and battle["pity"]:
        result = "soviet"  # §Battle 5 E: a Bloody Slaughter with the Determination die is a Soviet Victory
    record: dict[str, Any] = {"german": [d.to_json() for d in rolled["german"]],
                              "soviet": [d.to_json() for d in rolled["soviet"]], "result": result}
    battle["rolls"].append(record)
    board.emit("break_roll", district=battle["district"], german=record["german"], soviet=record["soviet"],
               result=result)
    if result == "german":
        battle["winner"], battle["stage"] = "german", "aftermath"
        return
    _ten_kills(board)  # §Battle 5 B, C (ruling S-24: each result its own Kills)
    battle["stage"] = "aftermath" if result == "soviet" else "slaughter"
    if result == "soviet":
        battle["winner"] = "soviet"


def _ten_kills(board: Board) -> None:
    """Each player receives 10 Kills: shielded units immune, extras lost, never Spillover (§Battle 5 B)."""
    district, kills = board.battle["district"], board.scenario.meta.break_test_kills
    for side in SIDES:
        queue_effects(board, items_of([Effect("kill", None, kills)], side, "Break Test", district, no_spill=True))


def after_slaughter(board: Board) -> None:
    """§Battle 5 C: the side with more units after the Kills gains a die; another Break Test is rolled (ruling
    S-23: the previous pools plus that die; option slaughter_dice=recount counts them afresh)."""
    battle = board.battle
    district = battle["district"]
    units = {side: board.unit_count(district, side) for side in SIDES}
    if board.options["slaughter_dice"] == "recount":
        battle["dice"], _, battle["pity"] = pools(board)
    extra: str | None = None if units["german"] == units["soviet"] else max(SIDES, key=lambda s: units[s])
    if extra:
        battle["dice"][extra] += 1
    board.emit("slaughter_die", district=district, side=extra, german=battle["dice"]["german"],
               soviet=battle["dice"]["soviet"])
    battle["stage"] = "roll"
