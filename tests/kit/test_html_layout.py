"""The HTML report of every registered game, looked at in headless Chromium (Debian's package,
installed by scripts/test.sh): no horizontal overflow at 375 px and 1024 px, every image loads.
Screenshots are kept in test-artifacts/ for a person to look at."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from moderator.registry import Registry
from tests.conftest import make_app, outbox_rows
from tests.kit.games import EVERY, game_id
from tests.mailmaker import player_mail

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def state_of(engine):
    """A game's initial state (to ask whether the game draws a map at all)."""
    from moderator.core.rng import RngRecord

    rng = RngRecord("layout", bytes(32), ["a", "b"]).rng()
    return engine.setup(engine.info.scenario().name, engine.info.chosen_options({}), rng)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Headless Chromium will not make a window narrower than 500 px, so the report is shown in an
# iframe of the width under test (a phone is 375 px wide) and measured from the host page.
HOST = """<!DOCTYPE html><html><head><title>waiting</title></head><body style="margin:0">
<iframe id="r" style="width:{width}px;height:2400px;border:0" srcdoc="{srcdoc}"></iframe>
<script>
document.getElementById('r').addEventListener('load', function () {{
  var d = this.contentDocument;
  var images = Array.prototype.map.call(d.images, function (i) {{ return i.naturalWidth; }});
  var wide = Array.prototype.filter.call(d.querySelectorAll('body *'), function (e) {{
    return e.getBoundingClientRect().right > d.documentElement.clientWidth + 1; }}).length;
  document.title = 'PROBE' + JSON.stringify({{scroll: d.documentElement.scrollWidth,
    client: d.documentElement.clientWidth, images: images, wide: wide}});
}});
</script></body></html>"""


def chromium(*args: str) -> str:
    if CHROMIUM is None:
        if os.environ.get("MODERATOR_REQUIRE_SERVERS"):
            pytest.fail("chromium is not installed: scripts/test.sh installs it")
        pytest.skip("no chromium (run the suite through scripts/test.sh)")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", "--virtual-time-budget=3000"]
    result = subprocess.run([CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=90)
    return result.stdout


def report_html(raw: bytes, folder: Path, width: int) -> Path:
    """The HTML part with its inline images as data: URLs (what a mail client shows)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    html = message.get_body(("html",)).get_content()
    for part in message.walk():
        cid = part.get("Content-ID")
        if cid:
            data = base64.b64encode(part.get_content()).decode()
            html = html.replace(f"cid:{cid.strip('<>')}", f"data:{part.get_content_type()};base64,{data}")
    assert "cid:" not in html, "an inline image has no matching part"
    import html as html_lib

    path = folder / "report.html"
    path.write_text(HOST.format(width=width, srcdoc=html_lib.escape(html, quote=True)))
    return path


def a_report(tmp_path: Path, engine) -> bytes:
    app = make_app(tmp_path, registry=Registry([engine]))
    roles = engine.info.roles(engine.info.scenario().name)
    addresses = {role: f"{role}@players.test" for role in roles}
    created = app.create_game(engine.info.id, addresses=addresses)
    for role in roles:
        app.receive(player_mail(addresses[role], f"JOIN {created.invitations[role]}\n"))
    return [r for r in outbox_rows(app) if r.kind == "report"][-1].raw


@pytest.mark.parametrize("engine", EVERY, ids=game_id)
@pytest.mark.parametrize("width", [375, 1024])
def test_the_html_report_fits_and_its_map_loads(tmp_path, engine, width):
    page = report_html(a_report(tmp_path, engine), tmp_path, width)
    profile = tmp_path / "profile"
    window = max(width, 500)
    dom = chromium(f"--user-data-dir={profile}", f"--window-size={window},2400", "--dump-dom", page.as_uri())
    probe = json.loads(re.search(r"PROBE(\{.*?\})</title>", dom).group(1))
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"report-{engine.info.id}-{width}.png"
    chromium(f"--user-data-dir={profile}", f"--window-size={window},2400", f"--screenshot={shot}", page.as_uri())
    assert shot.exists() and shot.stat().st_size > 10_000
    assert probe["scroll"] <= width, probe  # no horizontal scrolling
    assert probe["wide"] == 0, probe  # no element sticks out of the page
    if engine.map_png(engine.view(state_of(engine), "observer")) is not None:
        assert probe["images"] and all(w > 0 for w in probe["images"]), probe  # the map loaded
