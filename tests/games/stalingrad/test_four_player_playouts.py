"""50 random four-player games (issue 14, §Four Player): each ends with an outcome, every answer re-parses to
itself, and, at every change of phase, non-interference: a seat's whole report mail (text, HTML, map) is the
same byte for byte when an opponent's hand is swapped for other cards of his side's deck, and when the
teammate's hand is swapped with teammates' hands closed (ruling S-82); with them open the same swap must show
(so the check can fail).  The text of every report is searched for the opponents' cards too."""

from __future__ import annotations

import copy
import random
import time

import pytest

from moderator.core.rng import RngRecord
from moderator.games.stalingrad.engine import engine
from moderator.games.stalingrad.seating import ALL_SEATS, FOUR_PLAYER, SIDE_OF, TEAMMATE
from moderator.registry import Registry
from moderator.service.reports import report_text
from tests.conftest import make_app
from tests.kit.leaks import mentioned
from tests.kit.noninterference import mail_for
from tests.playout import names_in, random_playout

GAMES = 50
#: every fifth game compares whole mails (text, HTML and map); the others the report text (time: issue 14)
WHOLE_MAIL_EVERY = 5


def hand_swapped(state, seat):
    """`state` with `seat`'s hand traded for as many cards of his side's deck with other titles (None: too few)."""
    changed = copy.deepcopy(state)
    side = SIDE_OF[seat]
    record = changed["sides"][side]
    seated = changed["table"][side] == seat
    hand = record["hand"] if seated else changed["seats"][seat]["hand"]
    titles = {card.split(".")[0] for card in hand}
    fresh = [card for card in record["deck"] if card.split(".")[0] not in titles][-len(hand):] if hand else []
    if not hand or len(fresh) != len(hand):
        return None
    record["deck"] = [card for card in record["deck"] if card not in fresh] + list(hand)
    if seated:
        record["hand"] = fresh
    else:
        changed["seats"][seat]["hand"] = fresh
    return changed


class NonInterference:
    """At each change of phase one seat (in turn) is checked: its view names no card an opponent holds (nor,
    hands closed, its teammate's); at one change of phase a game, its report is rendered again with each other
    seat's hand swapped and must be the same, except for the teammate's with hands open, which must show."""

    def __init__(self, app, seed, open_hands):
        self.app, self.seed, self.open_hands = app, seed, open_hands
        self.label, self.boundaries, self.rendered, self.searched = "", 0, 0, 0
        self.events = {role: [] for role in ALL_SEATS}

    def hidden_from(self, viewer, other):
        return SIDE_OF[other] != SIDE_OF[viewer] or not self.open_hands

    def __call__(self, state, role, text, events):
        for viewer, seen in self.events.items():
            seen += [e for e in events if e.is_visible_to(viewer)]
        label = engine.phase_label(state)
        if label == self.label and engine.outcome(state) is None:
            return
        self.label = label
        self.boundaries += 1
        viewer = ALL_SEATS[(self.seed + self.boundaries) % len(ALL_SEATS)]
        seen = names_in(dict(engine.view(state, viewer)))
        for other in ALL_SEATS:
            if other != viewer and self.hidden_from(viewer, other):
                self.searched += len(engine.secrets(state, other))
                assert not engine.secrets(state, other) & seen, (viewer, other, "in the view")
        if self.boundaries == 4 + self.seed % 6 or (engine.outcome(state) is not None and not self.rendered):
            self.swap_each_hand(state, viewer)
        for seen_events in self.events.values():
            seen_events.clear()

    def swap_each_hand(self, state, viewer):
        events = self.events[viewer]
        render = (lambda s: mail_for(engine, self.app, s, events, viewer)) if self.seed % WHOLE_MAIL_EVERY == 0 \
            else (lambda s: _text(self.app, s, events, viewer))
        before = render(state)
        text = " ".join(_text(self.app, state, events, viewer).split()) if isinstance(before, bytes) else \
            " ".join(before.split())
        for other in ALL_SEATS:
            if other == viewer:
                continue
            if self.hidden_from(viewer, other):
                for card in engine.secrets(state, other) - _named(events):
                    assert not mentioned(text, card), (viewer, other, card, "named in the report")
            changed = hand_swapped(state, other)
            if changed is not None:
                self.rendered += 1
                same = render(changed) == before
                assert same == self.hidden_from(viewer, other), (
                    viewer, other, "the report changed" if same is False else "the teammate's hand is not shown")


def _named(events):
    return set().union(*(names_in(e.data) for e in events)) if events else set()


def _text(app, state, events, viewer):
    payload = {"role": viewer, "observer": False, "address": "x@y", "seq": 1, "message_id": "<m@x>",
               "date": "2026-01-01T00:00:00+00:00", "subject": "s", "heading": "h", "commitment": "c" * 64}
    return report_text(engine, app.environment, app.addressing, "four", state, events, payload)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("stalingrad4"), registry=Registry([engine]))


@pytest.mark.slow
def test_fifty_random_four_player_games_end_and_keep_each_hand_from_the_opponents(app, capsys):
    start = time.perf_counter()
    winners = {"german": 0, "soviet": 0}
    mails = searched = 0
    for seed in range(GAMES):
        options = {"teammate_hands": "closed" if seed % 5 == 4 else "open"}
        check = NonInterference(app, seed, options["teammate_hands"] == "open")
        result = random_playout(engine, 7000 + seed, scenario=FOUR_PLAYER, options=options, on_step=check)
        outcome = engine.outcome(result.state)
        assert outcome is not None and outcome.reason
        winners[outcome.winner] += 1
        mails, searched = mails + check.rendered, searched + check.searched
    rate = GAMES / (time.perf_counter() - start)
    with capsys.disabled():
        print(f"\n  stalingrad four-player: {GAMES} random games, {rate:.1f} games/s with non-interference; wins "
              f"{winners}; {mails} reports re-rendered with a hand swapped, {searched} hidden cards searched")
    assert mails > GAMES and searched > GAMES


def position_after(steps, options):
    """A four-player game's state after `steps` random answers."""
    rng = RngRecord("four", bytes(32), ["p1", "p2"]).rng()
    pick = random.Random(steps)
    state = engine.setup(FOUR_PLAYER, options, rng)
    for _ in range(steps):
        decision = pick.choice(engine.pending(state))
        state, _ = engine.apply(state, decision.role, pick.choice(engine.legal_orders(state, decision)), rng)
    return state


def test_the_teammate_sees_the_hand_only_when_hands_are_open():
    """Ruling S-82, both ways, on one position: the opponent never, the teammate only with hands open."""
    for hands in ("open", "closed"):
        state = position_after(40, {"teammate_hands": hands})
        for viewer in ALL_SEATS:
            view = engine.view(state, viewer)
            shown = {c["id"] for c in (view["teammate"] or {"hand": []})["hand"]}
            assert {c["id"] for c in view["hand"]} == engine.secrets(state, viewer) != set()
            assert shown == (engine.secrets(state, TEAMMATE[viewer]) if hands == "open" else set())
