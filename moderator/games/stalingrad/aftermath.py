"""§Battle 6 the Aftermath: used cards discarded, formations depleted and leaders graduated, units and
counters, the building captured.  Rulings: S-08, S-10, S-66, S-68."""

from __future__ import annotations

from collections import Counter

from moderator.games.stalingrad import teams
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.heroes import heroes_leave
from moderator.games.stalingrad.scenario import SIDES
from moderator.games.stalingrad.tracks import reset_counters


def aftermath(board: Board) -> None:
    battle = board.battle
    district, winner = battle["district"], battle["winner"] or "soviet"
    _discard_used_cards(board)
    _deplete_and_graduate(board)
    record = board.district(district)
    building = record["building"]
    if winner == "german":
        # §Battle 6 C-D: every unit to its pile, Infernos removed, counters reset, the building a trophy
        board.clear_units(district)
        reset_counters(board, district, infernos_too=True)
        record["building"], record["captured"] = None, building
        if building:
            board.side("german")["trophies"].append(building)
    else:
        record["hold"] = 0  # §Battle 6 C: only the Hold Counter goes back to the Smoldering Ruins
        # the units stay on the building for the next battle there (ruling S-71)
    name = board.scenario.building(building).name if building else district
    board.emit("battle_over", district=district, building=building, name=name, winner=winner, routed=battle["routed"])
    board.data["assaults"].pop(district, None)
    board.data["battle"] = None
    teams.after_battle(board)  # §Four Player: commanders checked, the senior seats back (rulings S-28, S-81)


def _discard_used_cards(board: Board) -> None:
    """§Battle 6 A, ruling S-68: every card played in the battle to its owner's Discard Pile; Motivator
    and Rifle counters parked on cards back to the Unit Pile (ruling S-08)."""
    battle = board.battle
    intercepted = Counter(battle.get("intercepted", []))
    for cards in battle["played"].values():
        for card in cards:
            if intercepted[card]:  # the Intercept sent it to the Discard Pile already (ruling S-25)
                intercepted[card] -= 1
                continue
            board.side(board.scenario.card_of(card).side)["discard"].append(card)
    heroes_leave(board)
    for kind, count in battle["parked"].items():
        board.side("soviet")["pile"][kind] += count


def _deplete_and_graduate(board: Board) -> None:
    """§Battle 6 B: every formation still in the battle is depleted (Depletion Effects do not act, ruling
    S-10) and returns to the Staging Line; surviving Lv. 0 leaders become Lv. 1 (ruling S-66)."""
    for side in SIDES:
        for formation in board.battling(side):
            record = board.data["formations"][formation]
            if record["depleted"]:
                board.destroy_formation(formation, "depleted again in the Aftermath")
                continue
            record["depleted"], record["at"] = True, "staging"
            graduated = record["leader"] == 0
            if graduated:
                record["leader"] = 1
            board.emit("aftermath_depleted", formation=formation, graduated=graduated)
