"""Duel: a tiny test-only game that exercises the four hard patterns of the real games.

* hidden hands  — each side holds three cards drawn from a shuffled deck;
* dice          — every clash rolls 1d6 per side;
* simultaneous secret commitment — both sides commit a card face down before the reveal;
* a reaction that interrupts the other side's phase — after each clash the defender may COUNTER.

Rules: two roles, north and south, 5 hit points each, 8 rounds.  The active side either RESTs
(heal 1, up to 5) or ATTACKs.  On an attack both commit a card face down; revealed, each side adds
1d6 to its card; the lower total loses 1 HP (a tie hurts nobody).  Then the defender's reaction
window opens (always, whatever they hold): COUNTER with a card of value 4 or more rolls 1d6 and
hurts the attacker on 4+, or NONE.  Used cards go to the discard; hands refill to 3 (the discard
is reshuffled when the deck runs out).  The game ends when a side reaches 0 HP or after round 8;
more HP wins, equal HP is a draw.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moderator.core.contract import (
    REFEREE,
    Decision,
    Event,
    GameInfo,
    OptionSpec,
    Outcome,
    ScenarioInfo,
    StandingDefault,
)
from moderator.core.engine_base import EngineBase
from moderator.core.errors import IllegalOrder, WrongDecision
from moderator.core.grammar import ConditionSpec, Grammar, Lexicon, Order, OrderSpec
from moderator.core.rng import Rng

ROLES = ("north", "south")
MAX_HP = 5
ROUNDS = 8
HAND = 3
VALUES = (1, 2, 3, 4, 5, 6)


def other(role: str) -> str:
    return "south" if role == "north" else "north"


GRAMMAR = Grammar(
    [
        OrderSpec("act", "attack", "ATTACK", "Attack: both sides then commit a card face down.",
                  ("ATTACK",)),
        OrderSpec("act", "rest", "REST", "Rest: heal 1 hit point.", ("REST",)),
        OrderSpec("commit", "commit", "COMMIT <card:card>", "Commit a card from your hand face down.",
                  ("COMMIT C07",)),
        OrderSpec("react", "counter", "COUNTER <card:card>",
                  "Counter after a clash with a card of value 4+: 1d6, 4+ hurts the attacker.",
                  ("COUNTER C11",)),
        OrderSpec("react", "none", "NONE", "Do not react.", ("NONE",)),
    ],
    [
        ConditionSpec("HP_BELOW", "<n>", "your hit points are below n"),
        ConditionSpec("HOLD", "<value>", "you hold a card of at least that value"),
        ConditionSpec("LOST", "", "you lost the last clash"),
    ],
    {"act": "Your turn", "commit": "Face-down commitment", "react": "Reaction window"},
)


INFO = GameInfo(
    id="duel", title="Duel (test game)",
    scenarios=(ScenarioInfo("standard", "Standard duel", ROLES, "Two sides, eight rounds."),),
    options=(OptionSpec("rounds", ROUNDS, (4, 8, 12), "number of rounds"),),
    standing_defaults=(StandingDefault("react", "NONE"),))


class DuelEngine(EngineBase[dict[str, Any]]):
    info = INFO
    grammar = GRAMMAR
    templates_dir = Path(__file__).parent / "templates"

    # ------------------------------------------------------------------ state

    def setup(self, scenario: str, options: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        cards = {f"C{n:02d}": VALUES[n % 6] for n in range(18)}
        deck = rng.shuffle(sorted(cards), "initial deck", stream="deck")
        state = {
            "version": INFO.state_version, "cards": cards, "deck": deck, "discard": [],
            "hands": {r: [] for r in ROLES}, "hp": {r: MAX_HP for r in ROLES},
            "round": 1, "rounds": int(options.get("rounds", ROUNDS)), "active": "north",
            "phase": "act", "commits": {}, "last_loser": None, "log_round": [],
        }
        for role in ROLES:
            self._refill(state, role, rng)
        return state

    def progress(self, state: dict[str, Any]) -> tuple[int, int]:
        return state["round"], state["rounds"]

    def period(self, state: dict[str, Any]) -> str:
        """Keyed (ON) orders last one round."""
        return f"R{state['round']}"

    def phase_label(self, state: dict[str, Any]) -> str:
        return f"R{state['round']}-{state['active'].upper()}"

    # ------------------------------------------------------------------ decisions

    def pending(self, state: dict[str, Any]) -> list[Decision]:
        phase = state["phase"]
        active = state["active"]
        if phase == "act":
            return [Decision(f"r{state['round']}.act", active, "act", "ATTACK or REST?", "REST",
                             ("ATTACK", "REST"))]
        if phase == "commit":
            return [Decision(f"r{state['round']}.commit.{role}", role, "commit",
                             "Commit one card from your hand face down.",
                             f"COMMIT {min(state['hands'][role], key=lambda c: (state['cards'][c], c))}",
                             tuple(f"COMMIT {c}" for c in state["hands"][role]), secret=True)
                    for role in ROLES if role not in state["commits"]]
        if phase == "react":
            defender = other(active)
            hand = state["hands"][defender]
            return [Decision(f"r{state['round']}.react", defender, "react",
                             "Counter the attack (COUNTER <card of value 4+>) or NONE?", "NONE",
                             ("NONE", *(f"COUNTER {c}" for c in hand if state["cards"][c] >= 4)),
                             deadline="reaction", interrupts=active,
                             context={"last_loser": state["last_loser"]})]
        return []

    def legal_orders(self, state: dict[str, Any], decision: Decision) -> list[Order]:
        lexicon = self.lexicon(state, decision.role)
        return [GRAMMAR.parse(text, lexicon) for text in decision.options]

    def apply(self, state: dict[str, Any], role: str, order: Order, rng: Rng) -> tuple[dict[str, Any], list[Event]]:
        state = json.loads(json.dumps(state))  # engines never mutate their input
        decisions = [d for d in self.pending(state) if d.role == role]
        if not decisions:
            raise WrongDecision(f"nothing is asked of {role} now")
        decision = decisions[0]
        if order.kind != decision.kind:
            raise WrongDecision(f"'{GRAMMAR.render(order)}' does not answer: {decision.prompt}")
        events: list[Event] = []
        if order.kind == "act":
            if order.form == "rest":
                state["hp"][role] = min(MAX_HP, state["hp"][role] + 1)
                events.append(Event("rest", {"role": role, "hp": state["hp"][role]}))
                self._end_round(state, rng, events)
            else:
                state["phase"] = "commit"
                events.append(Event("attack", {"role": role}))
        elif order.kind == "commit":
            card = str(order.get("card"))
            if card not in state["hands"][role]:
                raise IllegalOrder(f"{card} is not in your hand", tuple(state["hands"][role]))
            state["commits"][role] = card
            events.append(Event("committed", {"role": role}))
            events.append(Event("committed_card", {"role": role, "card": card}, (role,)))
            if len(state["commits"]) == 2:
                self._clash(state, rng, events)
        elif order.kind == "react":
            if order.form == "counter":
                card = str(order.get("card"))
                if card not in state["hands"][role]:
                    raise IllegalOrder(f"{card} is not in your hand", tuple(state["hands"][role]))
                if state["cards"][card] < 4:
                    raise IllegalOrder(f"{card} has value {state['cards'][card]}; a counter needs 4 or more")
                state["hands"][role].remove(card)
                state["discard"].append(card)
                die = rng.d6("counter")
                hurt = die.value >= 4
                if hurt:
                    state["hp"][other(role)] -= 1
                events.append(Event("counter", {"role": role, "card": card, "value": state["cards"][card],
                                                "die": die.to_json(), "hurt": hurt}))
            else:
                events.append(Event("no_reaction", {"role": role}))
            self._end_round(state, rng, events)
        return state, events

    def _clash(self, state: dict[str, Any], rng: Rng, events: list[Event]) -> None:
        totals = {}
        detail = {}
        for role in ROLES:
            card = state["commits"][role]
            state["hands"][role].remove(card)
            state["discard"].append(card)
            die = rng.d6(f"clash {role}")
            totals[role] = state["cards"][card] + die.value
            detail[role] = {"card": card, "value": state["cards"][card], "die": die.to_json(),
                            "total": totals[role]}
        loser = None
        if totals["north"] != totals["south"]:
            loser = min(ROLES, key=lambda r: totals[r])
            state["hp"][loser] -= 1
        state["last_loser"] = loser
        state["commits"] = {}
        events.append(Event("clash", {"sides": detail, "loser": loser}))
        if self._finished(state):
            state["phase"] = "over"
        else:
            state["phase"] = "react"

    def _end_round(self, state: dict[str, Any], rng: Rng, events: list[Event]) -> None:
        for role in ROLES:
            self._refill(state, role, rng)
        if self._finished(state) or state["round"] >= state["rounds"]:
            state["phase"] = "over"
            events.append(Event("game_over", {"hp": dict(state["hp"])}))
            return
        state["round"] += 1
        state["active"] = other(state["active"])
        state["phase"] = "act"
        events.append(Event("round", {"round": state["round"], "active": state["active"]}))

    @staticmethod
    def _finished(state: dict[str, Any]) -> bool:
        return any(hp <= 0 for hp in state["hp"].values())

    def _refill(self, state: dict[str, Any], role: str, rng: Rng) -> None:
        while len(state["hands"][role]) < HAND:
            if not state["deck"]:
                state["deck"] = rng.shuffle(sorted(state["discard"]), "reshuffle", stream="deck")
                state["discard"] = []
            state["hands"][role].append(state["deck"].pop())

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["phase"] != "over":
            return None
        hp = state["hp"]
        if hp["north"] == hp["south"]:
            return Outcome(None, "equal hit points", dict(hp))
        winner = max(ROLES, key=lambda r: hp[r])
        return Outcome(winner, "more hit points", dict(hp))

    # ------------------------------------------------------------------ views

    def view(self, state: dict[str, Any], role: str) -> dict[str, Any]:
        """Built field by field: only what `role` may see."""
        view: dict[str, Any] = {
            "role": role, "round": state["round"], "rounds": state["rounds"], "active": state["active"],
            "phase": state["phase"], "hp": dict(state["hp"]), "deck_size": len(state["deck"]),
            "discard": [{"card": c, "value": state["cards"][c]} for c in state["discard"]],
            "hand_sizes": {r: len(state["hands"][r]) for r in ROLES},
            "committed": sorted(state["commits"]), "last_loser": state["last_loser"],
        }
        if role in ROLES:
            view["hand"] = [{"card": c, "value": state["cards"][c]} for c in state["hands"][role]]
            if role in state["commits"]:
                card = state["commits"][role]
                view["my_commit"] = {"card": card, "value": state["cards"][card]}
        if role == REFEREE:
            view["hands"] = {r: list(state["hands"][r]) for r in ROLES}
            view["commits"] = dict(state["commits"])
        return view

    def lexicon(self, state: dict[str, Any], role: str) -> Lexicon:
        lexicon = Lexicon()
        for card in (state["hands"].get(role, []) if role in ROLES else []):
            lexicon.add("card", card)
        return lexicon

    def condition(self, name: str, view: Mapping[str, Any], decision: Decision, args: Sequence[str]) -> bool:
        if name == "HP_BELOW":
            return view["hp"][view["role"]] < int(args[0])
        if name == "HOLD":
            return any(c["value"] >= int(args[0]) for c in view.get("hand", []))
        if name == "LOST":
            return view["last_loser"] == view["role"]
        raise IllegalOrder(f"unknown test {name}")

    def secrets(self, state: dict[str, Any], role: str) -> set[str]:
        """Tokens only `role` may know now (for leak tests): its hand and face-down card."""
        tokens = set(state["hands"][role])
        if role in state["commits"]:
            tokens.add(state["commits"][role])
        return tokens

    def narrate(self, event: Event, role: str) -> str:
        d = event.data
        if event.kind == "rest":
            return f"{d['role'].title()} rests and is back to {d['hp']} HP."
        if event.kind == "attack":
            return f"{d['role'].title()} attacks. Both sides commit a card face down."
        if event.kind == "committed":
            return f"{d['role'].title()} has committed a card face down."
        if event.kind == "committed_card":
            return f"You committed {d['card']} face down."
        if event.kind == "clash":
            parts = []
            for side, x in d["sides"].items():
                value, stream, n = x["die"]
                parts.append(f"{side.title()} reveals {x['card']} ({x['value']}) and rolls {value} "
                             f"[{stream}#{n}] = {x['total']}")
            loser = d["loser"]
            return "; ".join(parts) + ". " + (f"{loser.title()} loses 1 HP." if loser else "A tie: nobody is hurt.")
        if event.kind == "counter":
            value, stream, n = d["die"]
            return (f"{d['role'].title()} counters with {d['card']} ({d['value']}) and rolls {value} "
                    f"[{stream}#{n}]: " + ("a hit!" if d["hurt"] else "no effect."))
        if event.kind == "no_reaction":
            return f"{d['role'].title()} does not react."
        if event.kind == "round":
            return f"Round {d['round']} begins; {d['active'].title()} is active."
        if event.kind == "game_over":
            return f"The duel is over: north {d['hp']['north']} HP, south {d['hp']['south']} HP."
        return event.kind


engine = DuelEngine()
