"""The leak check every game's random playouts run, and the games' tuning of them.

At every report boundary (the phase changes, or the game ends) each role's text report is
rendered from its own view and the events it may see since the last boundary.  For every other
role, no name that only that role knows now (`engine.secrets`) may appear in the report or in
the view, unless an event the viewer saw named it and that event is one the game's rules let
reveal it (KitSettings.reveals: a combat reveal, a set-up revealed at the end; issue 13: a free
set-up revealed at the start and a hidden unit's rebuild named to the enemy passed the older check,
which let any event the viewer saw name anything).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from moderator.core.contract import OBSERVER, Engine, Event
from moderator.service.reports import report_text
from tests.kit.games import KitSettings, active_choice
from tests.playout import names_in


def mentioned(text: str, name: str) -> bool:
    # "[dice#138]" is a die counter, not the 138th Brigade.
    return re.search(r"(?<![\w/#])" + re.escape(name) + r"(?![\w/])", text) is not None


def flattened(text: str) -> str:
    """The report with its spaces made single, so that a name wrapped over two lines is still found.
    (Reports print no order examples: the "change:" line of a standing order shows its form, see
    service/standing.py, so every name in the report is searched.)"""
    return " ".join(text.split())


class LeakChecker:
    def __init__(self, engine: Engine[Any], app: Any, settings: KitSettings, scenario: str):
        self.engine = engine
        self.app = app
        self.settings = settings
        self.roles = engine.info.roles(scenario)
        self.viewers = (*self.roles, OBSERVER)
        self.seen: dict[str, list[Event]] = {role: [] for role in self.viewers}
        self.label = ""
        self.reports = 0
        self.secrets_checked = 0

    def __call__(self, state: Any, role: str, text: str, events: list[Event]) -> None:
        for viewer in self.viewers:
            self.seen[viewer] += [e for e in events if e.is_visible_to(viewer)]
        label = self.engine.phase_label(state)
        if label == self.label and self.engine.outcome(state) is None:
            return
        self.label = label
        for viewer in self.viewers:
            self.check(state, viewer)
            self.seen[viewer] = []

    def check(self, state: Any, viewer: str) -> None:
        visible = self.seen[viewer]
        payload = {"role": viewer, "observer": viewer == OBSERVER, "address": "x@y", "seq": 1,
                   "message_id": "<m@x>", "date": "2026-01-01T00:00:00+00:00", "subject": "s", "heading": "h",
                   "commitment": "c" * 64}
        text = flattened(report_text(self.engine, self.app.environment, self.app.addressing,
                                   "kit-test", state, visible, payload))
        self.reports += 1
        over = self.engine.outcome(state) is not None
        reveals = self.settings.reveals
        revealing = [e for e in visible if reveals is None or reveals(e, over)]
        allowed = set().union(*(names_in(e.data) for e in revealing)) if revealing else set()
        view = self.engine.view(state, viewer)
        in_view = names_in(dict(view))
        for owner in self.roles:
            if owner == viewer:
                continue
            for name in self.engine.secrets(state, owner) - allowed:
                self.secrets_checked += 1
                assert not mentioned(text, name), (viewer, owner, name, "named in a report without being seen")
                if self.settings.secrets_never_in_view:
                    assert name not in in_view, (viewer, owner, name, "in the view of another role")
        for check in self.settings.view_checks:
            check(view, viewer)


# ---------------------------------------------------------------- what each game tunes


def vmt_view_hides_hands_and_enemy_blocks(view: Mapping[str, Any], viewer: str) -> None:
    """Hidden hands show their size only; an area shows an enemy's blocks as a count (L95-100)."""
    assert "hands" not in view
    for side in ("axis", "soviet"):
        if side != viewer:
            assert not any(f"{side}_blocks" in area for area in view["areas"]), (viewer, side)
            if view["combat"]:
                assert f"{side}_cards" not in view["combat"]


def narva_enemy_stacks_show_their_top_unit(view: Mapping[str, Any], viewer: str) -> None:
    """Under fog an enemy stack shows only its top item: the marker on it, else its top unit (2.1.3B, N-57)."""
    if not view.get("fog", True):
        return
    for hex_id, stack in view["hexes"].items():
        if stack["side"] != viewer and viewer in ("german", "soviet", OBSERVER):
            shown = 0 if stack["marker"] else 1
            assert len(stack["units"]) == shown, (viewer, hex_id, "an enemy stack shows more than its top item")


def duel_view_hides_hands(view: Mapping[str, Any], viewer: str) -> None:
    assert "hands" not in view and "commits" not in view


def skirmish_view_shows_enemy_units_as_counts(view: Mapping[str, Any], viewer: str) -> None:
    """§3.1: a side sees its own units; of the enemy only how many stand in each area."""
    for unit in view["units"]:
        assert unit["side"] == viewer, (viewer, unit["id"], "a unit of another side in the view")
    for area in view["areas"]:
        assert all(unit["side"] == viewer for unit in area["units"]), (viewer, area["id"])


#: VMT: blocks are named to the enemy when a combat reveals them (L272) and takes its casualties, when
#: one is eliminated, and when reinforcements arrive (L414-423); set-ups only when the game ends (L100).
VMT_REVEALS = frozenset({"revealed", "casualties", "eliminated", "reinforcement_placed", "axis_reinforcement"})


def vmt_reveals(event: Event, over: bool) -> bool:
    return event.kind in VMT_REVEALS or (event.kind == "setup_revealed" and over)


#: Narva under fog (N-57): an announced attack reveals both stacks, and the combat, its cancellation
#: and the advance after it keep them revealed; a barrage's losses and retreats reveal the units they
#: touch; a move or a retreat shows the top counter; the activated HQ (4.1.2D), an HQ overrun, displaced
#: or relocated, arrivals, landings and withdrawals are public.  A unit rebuilt is named only when it
#: returns from the (public) eliminated box.
NARVA_REVEALS = frozenset({
    "attack_announced", "combat", "attack_cancelled", "advanced", "step_lost", "enemy_retreated", "enemy_moved",
    "hq_activated", "overrun", "enemy_hq_displaced", "hq_eliminated", "army_relocated", "reinforcement",
    "reinforcement_waits", "reinforcement_lost", "landing", "withdrawn"})


def narva_reveals(event: Event, over: bool) -> bool:
    return event.kind in NARVA_REVEALS or (event.kind == "rebuilt" and str(event.data["how"]).startswith("returned"))


SETTINGS: dict[str, KitSettings] = {
    # A VMT block's name is public (the reinforcement schedule lists it); where it stands is not.
    "vmt": KitSettings(playouts=60, secrets_never_in_view=False, variant_playouts=2,
                       view_checks=(vmt_view_hides_hands_and_enemy_blocks,), reveals=vmt_reveals),
    # 20 Narva games (about 15 s each on this machine; MODERATOR_SOAK plays more): the suite's 15 minutes.
    "narva": KitSettings(playouts=20, choose=active_choice, variant_playouts=1,
                         view_checks=(narva_enemy_stacks_show_their_top_unit,), reveals=narva_reveals),
    "duel": KitSettings(playouts=200, view_checks=(duel_view_hides_hands,)),
    "skirmish": KitSettings(playouts=50, choose=active_choice, variant_playouts=5,
                            view_checks=(skirmish_view_shows_enemy_units_as_counts,)),
}
