"""Non-interference in random games (issue 13, "Done when"; DESIGN §5): at every report boundary
of random games of every game with a secret (every rule option played too: VMT's free set-up,
Narva with fog on and off), one role's secrets are changed as the rules allow nobody else to
notice, and every other role's report (text), view (from which the HTML and the map are drawn),
STATUS (who owes what) and CHECK of a first legal order (the dry run's steps, holds and the
questions it would lead to, and where it stopped) must be byte for byte what they were.  The owner's own report must
change somewhere in the game, so the check can fail.

What a role's secrets are, and how they may change unseen, is the game's: a hand traded for cards
from the unseen deck (VMT, Stalingrad, Duel), two of a side's blocks standing in different areas
trading places (VMT: the enemy sees only how many blocks stand where, L95-100), two units hidden
under the top of their stacks trading places (Narva under fog, 2.1.3).  Skirmish's secret is its
units' names, which no swap of state can change without changing what the enemy counts: its view
check (tests/kit/leaks.py) covers it.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from moderator.core.contract import OBSERVER, Engine, Event
from moderator.core.errors import ModeratorError
from moderator.core.plans import Plan, ScriptLine
from moderator.core.runner import Runner
from moderator.registry import Registry
from moderator.service.filing import dry_run_rng
from moderator.service.owed import open_questions, owed_lines
from moderator.service.reports import report_text
from moderator.service.seat_mail import where_the_check_stopped
from tests.conftest import make_app
from tests.kit.games import EVERY, game_id, settings_for, variants_for
from tests.kit.noninterference import PAYLOAD
from tests.playout import random_playout

Swap = Callable[[Any, str], Any | None]


def traded_hand(hand: list[str], deck: list[str], take: Callable[[list[str], int], list[str]]) -> list[str] | None:
    """Cards of the deck to hold instead of `hand` (as many, none of them in it), or None."""
    size = len(hand)
    if size == 0 or len(deck) < size:
        return None
    new = take(deck, size)
    return new if set(new).isdisjoint(hand) else None


def vmt_hand(state: Any, side: str) -> Any | None:
    """The side's hand traded for cards from the end of its deck (drawn from the end, unseen)."""
    if side not in state["hands"]:
        return None
    hand, deck = state["hands"][side], state["decks"][side]
    new = traded_hand(hand, deck, lambda d, n: d[-n:])
    if new is None:
        return None
    changed = copy.deepcopy(state)
    changed["hands"][side], changed["decks"][side] = new, deck[:-len(hand)] + hand
    return changed


def vmt_blocks(state: Any, side: str) -> Any | None:
    """Two of the side's blocks on the map, in different areas, alike as the enemy sees them (both
    Exhausted or neither) and named by no frame, recent action or combat, trade places."""
    named = json.dumps([state.get(key) for key in ("stack", "recent", "last_combat", "interdiction_order")])
    blocks = sorted(name for name, block in state["blocks"].items()
                    if block["side"] == side and block["status"] == "map" and f'"{name}"' not in named)
    for a, b in itertools.combinations(blocks, 2):
        first, second = state["blocks"][a], state["blocks"][b]
        if first["area"] != second["area"] and first["exhausted"] == second["exhausted"]:
            changed = copy.deepcopy(state)
            changed["blocks"][a]["area"], changed["blocks"][b]["area"] = second["area"], first["area"]
            return changed
    return None


def narva_hidden(state: Any, side: str) -> Any | None:
    """Two of the side's units hidden under the top of their stacks, in different hexes, trade places:
    alike in what marks a stack for the enemy (the supply marker, 10.0 and N-57; the pin marker,
    N-59), not HQs, and named by no frame under way."""
    from moderator.games.narva.engine import engine as narva

    board = narva.make_board(state, None)
    named = json.dumps([state.get("stack"), state.get("pinned")])
    hidden = sorted(u for u in narva.secrets(state, side) if f'"{u}"' not in named and not board.is_hq(u))
    for a, b in itertools.combinations(hidden, 2):
        units = state["units"]
        if units[a]["hex"] != units[b]["hex"] and board.supply(a) == board.supply(b):
            changed = copy.deepcopy(state)
            moved = changed["units"]
            for key in ("hex", "seq"):
                moved[a][key], moved[b][key] = moved[b][key], moved[a][key]
            return changed
    return None


def stalingrad_hand(state: Any, side: str) -> Any | None:
    """§Commanders A: the side's hand traded for cards from the top of its deck."""
    if side not in state["sides"]:
        return None
    record = state["sides"][side]
    new = traded_hand(record["hand"], record["deck"], lambda d, n: d[:n])
    if new is None:
        return None
    changed = copy.deepcopy(state)
    size = len(record["hand"])
    changed["sides"][side]["hand"], changed["sides"][side]["deck"] = new, record["deck"][size:] + record["hand"]
    return changed


def duel_hand(state: Any, role: str) -> Any | None:
    """The role's hand traded for cards from the top of the shared deck (its face-down card kept)."""
    hand, deck = state["hands"][role], state["deck"]
    new = traded_hand(hand, deck, lambda d, n: d[:n])
    if new is None:
        return None
    changed = copy.deepcopy(state)
    changed["hands"][role], changed["deck"] = new, deck[len(hand):] + hand
    return changed


SWAPS: dict[str, tuple[Swap, ...]] = {
    "vmt": (vmt_hand, vmt_blocks), "narva": (narva_hidden,), "stalingrad": (stalingrad_hand,), "duel": (duel_hand,),
}
SWAPPED = [engine for engine in EVERY if engine.info.id in SWAPS]
#: random games per game (default options), and per option set of `variants_for`
PLAYS = {"vmt": 4, "narva": 2, "stalingrad": 4, "duel": 20}
CASES = [pytest.param(engine, None, seed, id=f"{engine.info.id}-{seed}")
         for engine in SWAPPED for seed in range(PLAYS[engine.info.id])]
CASES += [pytest.param(engine, options, 500 + seed,
                       id=f"{engine.info.id}-{'-'.join(f'{k}={v}' for k, v in options.items())}-{seed}")
          for engine in SWAPPED for options in variants_for(engine)
          for seed in range(1 + (options.get("setup") == "free"))]  # VMT's free set-up: a second game


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    return {engine.info.id: make_app(tmp_path_factory.mktemp(engine.info.id), registry=Registry([engine]))
            for engine in SWAPPED}


class Interference:
    """At each report boundary: every swap of every role's secrets leaves every other role's report
    text and view as they were."""

    def __init__(self, engine: Engine[Any], app: Any, scenario: str):
        self.engine = engine
        self.app = app
        self.roles = engine.info.roles(scenario)
        self.viewers = (*self.roles, OBSERVER)
        self.seen: dict[str, list[Event]] = {viewer: [] for viewer in self.viewers}
        self.label = ""
        self.swaps = 0
        self.owner_saw_it = 0
        self.orders: dict[str, str | None] = {}
        self.order: str | None = None

    def __call__(self, state: Any, role: str, text: str, events: list[Event]) -> None:
        for viewer in self.viewers:
            self.seen[viewer] += [event for event in events if event.is_visible_to(viewer)]
        label = self.engine.phase_label(state)
        if label == self.label and self.engine.outcome(state) is None:
            return
        self.label = label
        before: dict[str, tuple[Any, str]] = {}  # each viewer's view and report, rendered once
        self.orders = {viewer: self.first_order(state, viewer) for viewer in self.roles}
        for owner in self.roles:
            for swap in SWAPS[self.engine.info.id]:
                changed = swap(state, owner)
                if changed is not None:
                    self.compare(state, changed, owner, f"{swap.__name__}({owner}) at {label}", before)
        for viewer in self.viewers:
            self.seen[viewer] = []

    def first_order(self, state: Any, role: str) -> str | None:
        """The first legal order of the role's first open question (what its CHECK is run with), as written."""
        decision = next((d for d in self.engine.pending(state) if d.role == role), None)
        orders = self.engine.legal_orders(state, decision) if decision is not None else []
        return self.engine.grammar.render(orders[0]) if orders else None

    def compare(self, state: Any, changed: Any, owner: str, what: str, before: dict[str, tuple[Any, str]]) -> None:
        self.swaps += 1
        for viewer in self.viewers:
            self.order = self.orders.get(viewer)
            if viewer not in before:
                before[viewer] = (self.engine.view(state, viewer), self.report(state, viewer))
            view, report = before[viewer]
            self.order = self.orders.get(viewer)
            if viewer == owner:
                self.owner_saw_it += self.report(changed, viewer) != report
                continue
            assert self.engine.view(changed, viewer) == view, f"{viewer}'s view changed with {what}"
            assert self.report(changed, viewer) == report, f"{viewer}'s report changed with {what}"

    def report(self, state: Any, viewer: str) -> str:
        """The viewer's report text, its STATUS (who owes what) and its CHECK of a first legal order."""
        payload = dict(PAYLOAD, role=viewer, observer=viewer == OBSERVER)
        text = report_text(self.engine, self.app.environment, self.app.addressing, "leak-test", state,
                           self.seen[viewer], payload)
        status = owed_lines(open_questions(self.engine, state, {}), viewer, "UTC")
        check = self.dry_run(state, viewer)
        return "\n".join([text, "STATUS", self.engine.phase_title(state), *status, "CHECK", check])

    def dry_run(self, state: Any, viewer: str) -> str:
        """What CHECK would say of the viewer's first legal order now: the steps it would take, the holds,
        and what the viewer would then be asked (service/seat_mail.py, `check`)."""
        if self.order is None:
            return "nothing asked"
        plan = Plan(script=[ScriptLine(1, self.order)])
        try:
            advance = Runner(self.engine).advance(copy.deepcopy(state), {viewer: plan}, dry_run_rng(),
                                                  may_answer=lambda d: d.role == viewer)
        except ModeratorError as error:  # the same refusal in both worlds, or a leak
            return f"refused: {error}"
        said = [f"would run {s.text}" for s in advance.steps if s.role == viewer]
        said += [f"held: {h.reason}" for h in advance.holds if h.role == viewer]
        asked = [d for d in advance.waiting if d.role == viewer]
        # Where the check stopped names another role's question by its public facts: the same in both worlds.
        stopped = where_the_check_stopped(self.engine, [d for d in advance.waiting if d.role != viewer], bool(asked))
        return "\n".join(said + [f"then asked: {d.prompt}" for d in asked] + [stopped])


@pytest.mark.parametrize(("engine", "options", "seed"), CASES)
def test_no_role_s_report_or_view_changes_with_another_role_s_secrets(engine, apps, options, seed):
    check = Interference(engine, apps[engine.info.id], engine.info.scenario().name)
    random_playout(engine, seed, options=options, on_step=check, choose=settings_for(engine).choose)
    fogless = engine.info.id == "narva" and (options or {}).get("fog") == "off"
    assert check.swaps > 0 or fogless, "no secret could be changed in the whole game"
    assert check.owner_saw_it > 0 or fogless, "no swap changed its owner's own report: the check cannot fail"


@pytest.mark.parametrize("engine", SWAPPED, ids=game_id)
def test_the_check_fails_when_a_report_shows_another_role_s_secrets(engine, apps, monkeypatch):
    """A report that shows what every role sees (its hand, its hidden blocks and units where they
    stand) is caught at the first swap."""
    import tests.kit.test_noninterference as here

    real = here.report_text

    def leaky(engine, environment, addressing, game, state, events, payload):
        views = [engine.view(state, role) for role in engine.info.roles()]
        return real(engine, environment, addressing, game, state, events, payload) + json.dumps(views, default=str)

    monkeypatch.setattr(here, "report_text", leaky)
    with pytest.raises(AssertionError, match="changed with"):
        for seed in range(5):
            test_no_role_s_report_or_view_changes_with_another_role_s_secrets(engine, apps, None, seed)
