"""Non-interference through the whole mail loop (issue 13, "Done when"): two Duel games alike in
everything (seed, secrets, clock, every mail) but south's hidden hand.  Everything north is sent
(receipts, CHECK, STATUS, OPTIONS, reports with their announcements) is the same text in both,
the log head aside: it is keyed with the secret seed and covers south's own entries, so it differs
without telling anything (core/chain.py).  South's own mail differs, so the swap was real.
"""

from __future__ import annotations

import itertools
import re

import pytest

from moderator.service.table import load_table
from tests.conftest import make_app, outbox_rows, seat_duel, text_of
from tests.kit.test_noninterference import duel_hand

HEAD = re.compile(r"(Log head: #\d+\s+)[0-9a-f]{64}")


def world(tmp_path, swapped: bool):
    """A seated Duel game with fixed seed and secrets; with `swapped`, south's hand traded for unseen cards."""
    counter = itertools.count(1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("moderator.service.games.new_seed", lambda: bytes(range(32)))
        patch.setattr("moderator.service.games.new_secret", lambda: f"N{next(counter):03d}-SAME")
        seated = seat_duel(make_app(tmp_path))
    if swapped:
        with seated.app.db.session() as session:
            table = load_table(session, seated.app.registry, seated.game_id, for_update=True)
            changed = duel_hand(table.state, "south")
            assert changed is not None
            table.state = changed
            table.snapshot(table.game.phase_label, seated.app.clock.now())
    return seated


def mails_to(seated, role: str) -> list[str]:
    return [HEAD.sub(r"\1<head>", text_of(row.raw)) for row in outbox_rows(seated.app)
            if row.recipient == seated.addresses[role]]


def test_north_s_mail_is_the_same_whatever_south_holds(tmp_path):
    worlds = [world(tmp_path / "held", False), world(tmp_path / "swapped", True)]
    assert worlds[0].state()["hands"]["south"] != worlds[1].state()["hands"]["south"]
    north_card = worlds[0].state()["hands"]["north"][0]
    assert worlds[1].state()["hands"]["north"][0] == north_card
    for seated in worlds:
        seated.send("north", "NOTIFY EVERY\n")  # a report whenever something happens
        seated.send("north", f"CHECK\nATTACK\nCOMMIT {north_card}\nREST\n")
        seated.send("north", "STATUS\n")
        seated.send("north", f"ATTACK\nCOMMIT {north_card}\n")  # runs up to south's face-down card
        seated.app.clock.advance(minutes=30)
        seated.app.send_held_receipts()
        seated.send("north", "OPTIONS\n")
        seated.send("north", "REST\n")  # refused: nothing of north's is asked now
        seated.send("south", "STATUS\n")
    north = [mails_to(seated, "north") for seated in worlds]
    said = " ".join(" ".join(text.split()) for text in north[0])
    for shown in ("would run ATTACK", "WHO OWES WHAT", "North attacks", "Log head: #", "ran ATTACK"):
        assert shown in said, shown
    assert north[0] == north[1]
    assert mails_to(worlds[0], "south") != mails_to(worlds[1], "south")
