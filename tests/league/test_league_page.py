"""The league page as a member opens it (issue 15), looked at in headless Chromium like the game
report (tests/kit/test_html_layout.py): no horizontal scrolling at 375 px and 1024 px, and nothing
outside the scrollable table boxes sticks out; at 1024 px the standings fit whole.  Its calendars are
valid iCalendar with every deadline of a member's running games."""

from __future__ import annotations

import html
import json
import re

import pytest
from icalendar import Calendar

from tests.conftest import make_app
from tests.kit.test_html_layout import ARTIFACTS, chromium
from tests.league.club import Club

PLAYERS = [f"member.with.a.long.name{n}@club.test" for n in range(1, 8)]

HOST = """<!DOCTYPE html><html><head><title>waiting</title></head><body style="margin:0">
<iframe id="r" style="width:{width}px;height:2400px;border:0" srcdoc="{srcdoc}"></iframe>
<script>
document.getElementById('r').addEventListener('load', function () {{
  var d = this.contentDocument;
  var outside = Array.prototype.filter.call(d.querySelectorAll('body *'), function (e) {{
    return !e.closest('.table-wrap') && e.getBoundingClientRect().right > d.documentElement.clientWidth + 1; }});
  var standings = d.querySelector('table.standings').getBoundingClientRect().right;
  document.title = 'PROBE' + JSON.stringify({{scroll: d.documentElement.scrollWidth,
    client: d.documentElement.clientWidth, outside: outside.length, standings: standings}});
}});
</script></body></html>"""


@pytest.fixture(scope="module")
def league_page(tmp_path_factory):
    """A round robin of seven in its second round: a bye, games running, results in."""
    tmp_path = tmp_path_factory.mktemp("league")
    app = make_app(tmp_path)
    club = Club.found(app, format="round-robin", round_days=2.0, timeout="adjudicate", nmr_limit=50)
    for address in PLAYERS:
        club.join(address)
    club.referee("START\n")
    app.tick()
    club.answer_invitations()
    for row in club.games(1):
        if row.game_id:
            club.referee(f"RESULT {row.game_id} north\n")
    app.tick()
    club.answer_invitations()
    app.tick()
    return app, app.leagues.write_page("cup", tmp_path / "page")


@pytest.mark.parametrize("width", [375, 1024])
def test_the_league_page_fits_a_phone_and_a_desktop(league_page, tmp_path, width):
    _, index = league_page
    text = index.read_text()
    assert "Round 2 (now)" in text and "bye" in text and "1-0" in text
    host = tmp_path / "host.html"
    host.write_text(HOST.format(width=width, srcdoc=html.escape(text, quote=True)))
    window = max(width, 500)
    dom = chromium(f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={window},2400", "--dump-dom",
                   host.as_uri())
    probe = json.loads(re.search(r"PROBE(\{.*?\})</title>", dom).group(1))
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"league-page-{width}.png"
    chromium(f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={window},2400", f"--screenshot={shot}",
             index.as_uri())
    assert probe["scroll"] <= width and probe["outside"] == 0, probe
    if width >= 1024:
        assert probe["standings"] <= probe["client"], probe


def test_each_member_s_calendar_holds_the_round_s_end_and_their_games_deadlines(league_page):
    _, index = league_page
    feeds = sorted((index.parent / "calendars").glob("*.ics"))
    assert len(feeds) == len(PLAYERS)
    summaries = []
    for feed in feeds:
        events = Calendar.from_ical(feed.read_bytes()).walk("VEVENT")
        summaries.append([str(e.get("summary")) for e in events])
        assert all(e.get("dtend").dt > e.get("dtstart").dt for e in events)
    assert all(sum("round" in s for s in mine) == 2 for mine in summaries)
    assert sum(any("orders are due" in s for s in mine) for mine in summaries) >= 2  # the side to move
    assert all(s.startswith("Duel (test game), duel-") for mine in summaries for s in mine if "orders are due" in s)
