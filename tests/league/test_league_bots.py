"""A whole league played by bots through the mail loop with the app's injected clock (issue 15):
sign-up by mail, three Swiss rounds of games created through the lobby, a member who withdraws and
is replaced by a reserve, a member who falls silent so that the round runs out of time and the
referee (a bot too) adjudicates, a standings mail after every round, ratings and the league page."""

from __future__ import annotations

import json

from icalendar import Calendar

from moderator.league.demo import LEAGUE_ID, REFEREE, DemoPlan, run_league_demo
from moderator.store import leagues as stored
from tests.conftest import flat, make_app
from tests.league.club import mails_to


def test_a_league_of_bots_plays_to_its_final_standings_by_mail(tmp_path):
    app = make_app(tmp_path)
    plan = DemoPlan(games=("duel",), players=8, reserves=2, rounds=3, round_days=2.0, turn_hours=72.0,
                    withdrawing_member=3, silent_member=5)
    summary = run_league_demo(app, plan, seed=7)
    with app.db.session() as session:
        league = stored.league(session, LEAGUE_ID)
        rows = stored.games(session, LEAGUE_ID)
        offers = stored.offers(session, LEAGUE_ID)
        members = {m.address: m for m in stored.members(session, LEAGUE_ID)}
        ratings = stored.ratings(session, list(members), "*")
    assert league.status == "over" and league.current_round == 3
    assert members["player3@club.demo"].status == "withdrawn"
    taken = [o for o in offers if o.status == "taken"]
    assert taken and taken[0].leaving == "player3@club.demo" and taken[0].taken_by.startswith("reserve")
    substituted = [r for r in rows if json.loads(r.substitutes_json)]
    assert substituted and substituted[0].round == 2
    adjudicated = [r for r in rows if r.how == "adjudicated"]
    assert adjudicated and all(r.round == 3 and r.result == "draw" for r in adjudicated)  # the silent round ran out
    assert any(mails_to(app, REFEREE, "needs your adjudication"))
    assert all(r.result != "pending" for r in rows)
    for number in (1, 2):
        assert mails_to(app, "player1@club.demo", f"standings after round {number}")
    final = flat(mails_to(app, "player1@club.demo", "final standings")[-1])
    assert "Player 1" in final and "Player 8" in final
    assert sum(r.games for r in ratings.values()) >= 2 * 10  # at least ten rated games, two players each
    assert any(r.address.startswith("reserve") for r in ratings.values())  # the reserve's games count for them
    page = summary["page"].read_text()
    assert "Final standings" in page and "Reliability" in page and 'href="games/duel-0001/index.html"' in page
    feed = Calendar.from_ical((summary["page"].parent / "league.ics").read_bytes())
    assert len(feed.walk("VEVENT")) == 3
