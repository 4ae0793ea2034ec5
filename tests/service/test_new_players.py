"""A new player is asked, not answered by the game's standing defaults, until they first send orders
or first let a deadline pass (Plan.ask_first; settings.deadlines.ask_new_players; issue 12 tried by
hand: a defender's support card was decided by SUPPORT NONE seven minutes after the welcome)."""

from __future__ import annotations

import pytest

from moderator.core.plans import Plan
from moderator.core.runner import Runner
from moderator.service.table import load_table
from tests.conftest import flat, make_app, outbox_rows, seat_duel, text_of
from tests.testgame.duel import engine


@pytest.fixture
def duel(tmp_path, monkeypatch):
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(2, 34)))
    return seat_duel(make_app(tmp_path))


def waiting_for(seated) -> list[tuple[str, str]]:
    with seated.app.db.session() as session:
        table = load_table(session, seated.app.registry, seated.game_id)
        return [(d.role, d.kind) for d in table.engine.pending(table.state)]


def north_attacks(seated) -> None:
    hand = list(seated.state()["hands"]["north"])
    seated.send("north", f"ATTACK\nCOMMIT {hand[0]}\n")


def test_the_welcome_says_a_new_player_is_asked_until_they_first_write(duel):
    welcomes = [flat(text_of(r.raw)) for r in outbox_rows(duel.app) if "Welcome" in r.subject]
    assert len(welcomes) == 2
    assert all("Until you first send orders, or first let a deadline pass, the moderator asks you every "
               "question itself" in text for text in welcomes)


def test_both_players_start_asked_and_their_reports_say_so(duel):
    assert load_plan(duel, "north").ask_first and load_plan(duel, "south").ask_first
    north_attacks(duel)
    report = flat(text_of([r for r in outbox_rows(duel.app) if r.recipient.startswith("south")][-1].raw))
    assert "WHAT WE NEED FROM YOU" in report and "the moderator asks you every question itself" in report


def test_a_player_asked_first_waits_for_their_own_answer_where_the_game_s_default_would_answer():
    """The runner's side of it: south's reaction window, whose game default NONE answers at once for a
    player who has written, waits for south while south's plan says ask_first."""
    from dataclasses import replace

    from tests.core.test_agenda import fresh, parsed

    for ask_first, waits in ((True, ["react"]), (False, ["act"])):
        state, rng = fresh()
        north_card = state["hands"]["north"][0]
        south_card = state["hands"]["south"][0]
        plans = {"north": Plan(script=parsed(state, "north", f"ATTACK\nCOMMIT {north_card}").script),
                 "south": replace(Plan(script=parsed(state, "south", f"COMMIT {south_card}").script),
                                  ask_first=ask_first)}
        result = Runner(engine).advance(state, plans, rng)
        assert [d.kind for d in result.waiting if d.role == "south"] == waits
        defaulted = [s.source for s in result.steps if s.kind == "react"]
        assert defaulted == ([] if ask_first else ["game-standing"])  # without the flag NONE answered at once


def test_once_a_player_has_sent_orders_the_game_s_defaults_answer_for_them(duel):
    duel.send("south", "STANDING act: REST\n")  # any orders: the player has read the welcome
    north_attacks(duel)
    assert ("south", "react") not in waiting_for(duel)
    assert not load_plan(duel, "south").ask_first


def test_a_player_who_lets_a_deadline_pass_is_answered_by_the_defaults_from_then_on(duel):
    north_attacks(duel)
    assert waiting_for(duel) == [("south", "commit")]
    duel.app.clock.advance(hours=200)
    duel.app.tick()
    assert ("south", "commit") not in waiting_for(duel)  # the deadline's default committed for south
    assert not load_plan(duel, "south").ask_first and load_plan(duel, "north").ask_first is False


def test_a_club_may_keep_the_old_rule_and_let_defaults_answer_from_the_start(tmp_path, monkeypatch):
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(2, 34)))
    seated = seat_duel(make_app(tmp_path, deadlines={"ask_new_players": False}))
    assert not load_plan(seated, "north").ask_first and not load_plan(seated, "south").ask_first


def load_plan(seated, role):
    with seated.app.db.session() as session:
        return load_table(session, seated.app.registry, seated.game_id).plan(role)


def test_the_flag_survives_the_plan_s_json_round_trip():
    assert Plan.from_json(Plan(ask_first=True).to_json()).ask_first
    assert "ask_first" not in Plan().to_json()
