"""Migration 0005: games logged before the shared event vocabulary (issue 11) are renamed in place,
so replay still recomputes every logged event; the downgrade gives the old names back."""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path

import pytest
from alembic import command
from sqlmodel import select

from moderator.registry import Registry, product_registry
from moderator.store.db import alembic_config
from moderator.store.models import LogEntry
from tests.conftest import make_app
from tests.kit.test_golden import play, script_of

VERSIONS = Path(__file__).resolve().parents[2] / "moderator" / "store" / "migrations" / "versions"
spec = importlib.util.spec_from_file_location("m0005", VERSIONS / "0005_shared_event_vocabulary.py")
m0005 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m0005)


def test_old_events_are_renamed_as_the_engines_now_write_them():
    """The shapes the engines wrote before the change, by hand: each comes out in the new vocabulary."""
    die = [4, "dice", 3]
    assert m0005.convert_event("vmt", {"kind": "block_hit", "data": {"block": "132", "sp": 2, "source": "x"}}) == \
        {"kind": "step_lost", "data": {"block": "132", "sp": 2, "source": "x"}}
    assert m0005.convert_event("vmt", {"kind": "bombardment", "data": {"rolls": [die], "need": 4}})["data"] == \
        {"dice": [die], "need": 4}
    rolled = m0005.convert_event("vmt", {"kind": "combat_roll", "data": {"dice": {"axis": {"parts": [], "total": 1,
                                                                                          "rolls": [die]}}}})
    assert rolled["data"]["dice"]["axis"] == {"parts": [], "total": 1, "dice": [die]}
    assert m0005.convert_event("narva", {"kind": "combat", "data": {"die": die, "roll": 5}})["data"] == \
        {"die": die, "total": 5}
    assert m0005.convert_event("narva", {"kind": "random_event", "data": {"dice": [die, die], "roll": 8}})["data"] == \
        {"dice": [die, die], "total": 8}
    # another game's events, and events that did not change, are left alone
    assert m0005.convert_event("duel", {"kind": "block_hit", "data": {}}) == {"kind": "block_hit", "data": {}}
    assert m0005.convert_event("narva", {"kind": "step_lost", "data": {"roll": 1}})["data"] == {"roll": 1}


def _events(app):
    with app.db.session() as session:
        # (Only the payload is read: the model's later columns are not there at old revisions.)
        return [e for payload in session.exec(select(LogEntry.payload_json).where(LogEntry.kind == "answer"))
                for e in json.loads(payload).get("events", [])]


#: the games that were logged in the old words (a game registered after issue 11 never was)
OLD_GAMES = ("vmt", "narva")


@pytest.mark.parametrize("engine", [e for e in product_registry() if e.info.id in OLD_GAMES], ids=lambda e: e.info.id)
def test_a_game_logged_in_the_old_words_replays_after_the_upgrade(engine, tmp_path, monkeypatch):
    counter = itertools.count(1)
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(32)))
    monkeypatch.setattr("moderator.service.games.new_secret", lambda: f"M{next(counter):03d}-GOLD")
    app = make_app(tmp_path, registry=Registry([engine]), orders_address="moderator@referee.test",
                   domain="referee.test")
    _, game = play(app, engine, script_of(engine))
    new_words = _events(app)
    config = alembic_config(app.db.engine)
    command.downgrade(config, "0004")  # the log as the old code wrote it
    old_words = _events(app)
    assert old_words != new_words
    old_kinds = {e["kind"] for e in old_words}
    if engine.info.id == "vmt":
        assert "bombardment" in old_kinds and all("rolls" in e["data"] for e in old_words if e["kind"] == "bombardment")
    else:
        assert all("roll" in e["data"] for e in old_words if e["kind"] in ("combat", "random_event"))
    # The later migrations' columns back, without 0005's renaming, to see that the old words do not replay ...
    command.stamp(config, "0005")
    command.upgrade(config, "head")
    assert not app.replayer.replay(game).ok
    command.downgrade(config, "0005")
    command.stamp(config, "0004")
    command.upgrade(config, "head")
    assert _events(app) == new_words  # ... the upgrade brings the new ones back, exactly
    assert app.replayer.replay(game).ok
