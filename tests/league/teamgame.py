"""Tug: a test-only game of two teams of two, for the league's teams (issue 15: "games with 3-4 seats
... are paired into teams").  Each round every seat PULLs 1-3; a side's pulls and a die add up, and
the higher total wins the round (a tie wins it for nobody).  After three rounds the side that won
more rounds wins the game; equal is a draw.  The Outcome names the winning side, as a game of teams does."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moderator.core.contract import Decision, Event, GameInfo, Outcome, ScenarioInfo
from moderator.core.engine_base import EngineBase
from moderator.core.errors import IllegalOrder, WrongDecision
from moderator.core.grammar import Grammar, Lexicon, Order, OrderSpec
from moderator.core.rng import Rng

TEAMS = (("north", ("north_a", "north_b")), ("south", ("south_a", "south_b")))
ROLES = tuple(role for _, roles in TEAMS for role in roles)
ROUNDS = 3

GRAMMAR = Grammar([OrderSpec("pull", "pull", "PULL <n:int>", "Pull with a strength of 1 to 3.", ("PULL 2",))], [],
                  {"pull": "Your pull"})

INFO = GameInfo(id="tug", title="Tug (test game of teams)",
                scenarios=(ScenarioInfo("teams", "Two teams of two", ROLES, "Three rounds.", TEAMS),))


def side_of(role: str) -> str:
    return role.split("_")[0]


class TugEngine(EngineBase[dict[str, Any]]):
    info = INFO
    grammar = GRAMMAR
    templates_dir = Path(__file__).parent / "templates"

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        return {"version": INFO.state_version, "round": 1, "pulls": {}, "won": {"north": 0, "south": 0},
                "over": False}

    def pending(self, state: dict[str, Any]) -> list[Decision]:
        if state["over"]:
            return []
        return [Decision(f"r{state['round']}.{role}", role, "pull", "How hard do you pull (1-3)?", "PULL 1",
                         ("PULL 1", "PULL 2", "PULL 3")) for role in ROLES if role not in state["pulls"]]

    def legal_orders(self, state: dict[str, Any], decision: Decision) -> list[Order]:
        return [GRAMMAR.parse(text, Lexicon()) for text in decision.options]

    def apply(self, state: dict[str, Any], role: str, order: Order, rng: Rng) -> tuple[dict[str, Any], list[Event]]:
        state = json.loads(json.dumps(state))
        if not any(d.role == role for d in self.pending(state)):
            raise WrongDecision(f"nothing is asked of {role} now")
        strength = int(order.get("n"))  # type: ignore[arg-type]
        if not 1 <= strength <= 3:
            raise IllegalOrder("a pull is 1, 2 or 3")
        state["pulls"][role] = strength
        events = [Event("pulled", {"role": role})]
        if len(state["pulls"]) == len(ROLES):
            totals = {side: sum(state["pulls"][r] for r in roles) + rng.d6(f"{side} die").value
                      for side, roles in TEAMS}
            if totals["north"] != totals["south"]:
                state["won"][max(totals, key=lambda s: totals[s])] += 1
            events.append(Event("round_over", {"totals": totals}))
            state["pulls"] = {}
            state["over"] = state["round"] >= ROUNDS
            state["round"] += 0 if state["over"] else 1
        return state, events

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if not state["over"]:
            return None
        won = state["won"]
        if won["north"] == won["south"]:
            return Outcome(None, "as many rounds won", dict(won))
        return Outcome(max(won, key=lambda s: won[s]), "more rounds won", dict(won))

    def view(self, state: dict[str, Any], role: str) -> dict[str, Any]:
        return {"role": role, "round": state["round"], "rounds": ROUNDS, "won": dict(state["won"]),
                "pulled": sorted(state["pulls"])}

    def lexicon(self, state: dict[str, Any], role: str) -> Lexicon:
        return Lexicon()

    def condition(self, name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
        raise IllegalOrder(f"unknown test {name}")

    def narrate(self, event: Event, role: str) -> str:
        if event.kind == "pulled":
            return f"{event.data['role']} has pulled."
        totals = event.data["totals"]
        return f"The round is pulled: north {totals['north']}, south {totals['south']}."

    def phase_label(self, state: dict[str, Any]) -> str:
        return "OVER" if state["over"] else f"R{state['round']}"

    def progress(self, state: dict[str, Any]) -> tuple[int, int]:
        return state["round"], ROUNDS
