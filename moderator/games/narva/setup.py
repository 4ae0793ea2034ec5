"""Preparation for play (2.1.4, 14.0-14.10): the historical set-up, the cup, the air boxes, the PD
markers, the reinforcement schedule and initial control of the VP hexes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from moderator.games.narva.board import SIDES
from moderator.games.narva.scenario import Scenario
from moderator.games.narva.state import AirBox, Arrival, NarvaState, Options, Side, UnitRecord

STATE_VERSION = 1


def initial_state(scenario: Scenario, name: str, options: Mapping[str, Any]) -> NarvaState:
    """The state at the start of turn 1, before the engine starts the first turn's frame."""
    positions = scenario.setup_positions()
    reduced = scenario.setup_reduced()
    units: dict[str, UnitRecord] = {}
    seq = 0
    for unit in scenario.units:
        seq += 1
        units[unit.id] = {"hex": positions.get(unit.id), "reduced": unit.id in reduced,
                          "where": "map" if unit.id in positions else "pending", "supply": "ok", "seq": seq}
    arrivals: list[Arrival] = []
    for row in scenario.meta.reinforcements:
        for uid in row.units:
            arrivals.append({"unit": uid, "turn": row.turn, "entry": row.entry, "rerouted": False})
    air: dict[str, AirBox] = {a.id: "pending" for a in scenario.air_units}
    for placement in scenario.setup.air:
        air[placement.unit] = "ready"  # 2.1.4D: Air Army 13 box / Luftwaffe box
    cup = [c.id for c in scenario.chits_entering(0)]  # 2.1.4F: chits without a turn number
    preplayed = next(c for c in cup if scenario.chit(c).group == scenario.meta.first_turn.soviet_preplayed_chit)
    # The options are GameInfo.chosen_options: every option of engine.OPTIONS (the keys of `Options`),
    # each checked against its choices; the cast says so to the type checker.
    data: NarvaState = {
        "version": STATE_VERSION, "scenario": name, "options": cast(Options, dict(options)), "turn": 1, "result": None,
        "stack": [], "next_id": 0, "seq": seq, "units": units, "arrivals": arrivals,
        "cup": cup, "tracks": {s: [] for s in SIDES}, "used": {s: 0 for s in SIDES}, "drawn_actions": [],
        "parked": {}, "removed": [], "shock_oos": False, "preplayed": preplayed,
        "last_hq": {s: None for s in SIDES}, "strachwitz_used": False, "first_2sh_done": False,
        "air": air, "pd": dict(scenario.setup.pd_markers), "rp": 0, "freeze_extended": False,
        "pinned": {}, "control": initial_control(scenario, positions), "recent": [], "active_side": None,
        "returned_this_turn": [],
    }
    return data


def initial_control(scenario: Scenario, positions: dict[str, str]) -> dict[str, Side]:
    """Ruling N-48: a VP hex holding a combat unit with a ZOC at set-up belongs to its side (its units
    are the last to have passed through it); every other VP hex starts German."""
    occupant = {h: scenario.unit(u).side for u, h in positions.items()
                if scenario.unit(u).zoc and scenario.unit(u).type != "hq"}
    control: dict[str, Side] = {}
    for item in scenario.meta.vp_items:
        if item.basis != "control":
            continue
        for h in scenario.area_hexes(item.area):
            control[h] = occupant.get(h, "german")
    return control
