"""Shared fixtures: an App on a temporary database with the Duel test game, and mail helpers."""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlmodel import select

from moderator.app import App
from moderator.clock import ManualClock
from moderator.registry import Registry
from moderator.settings import Settings
from moderator.store.models import LogEntry, Outbox, Snapshot
from tests.mailmaker import player_mail
from tests.testgame.duel import engine as duel_engine

POSTGRES_URL = os.environ.get("MODERATOR_TEST_POSTGRES_URL", "")


def database_urls(tmp_path: Path) -> list[str]:
    return [f"sqlite:///{tmp_path / 'moderator.db'}"] + ([POSTGRES_URL] if POSTGRES_URL else [])


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    """Store tests run against SQLite and against the real PostgreSQL started by scripts/test.sh."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'moderator.db'}"
    if not POSTGRES_URL:
        if os.environ.get("CI") or os.environ.get("MODERATOR_REQUIRE_SERVERS"):
            pytest.fail("MODERATOR_TEST_POSTGRES_URL is not set: scripts/test.sh starts PostgreSQL")
        pytest.skip("no PostgreSQL (run the suite through scripts/test.sh)")
    _reset_postgres(POSTGRES_URL)
    return POSTGRES_URL


def _reset_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def make_app(tmp_path: Path, url: str | None = None, registry: Registry | None = None, **settings) -> App:
    base = dict(data_dir=tmp_path, orders_address="moderator@demo.test", domain="demo.test",
                database_url=url or f"sqlite:///{tmp_path / 'moderator.db'}")
    base.update(settings)
    app = App(Settings(**base), registry=registry or Registry([duel_engine]), clock=ManualClock())
    app.migrate()
    return app


@pytest.fixture
def app(tmp_path) -> App:
    return make_app(tmp_path)


@dataclass
class Seated:
    """A started Duel game with both seats taken by mail."""

    app: App
    game_id: str
    secrets: dict[str, str]
    addresses: dict[str, str]
    referee_secret: str

    def send(self, role: str, body: str, secret: str | None = None, sender: str | None = None,
             envelope: bool = True, **kwargs):
        head = f"GAME {self.game_id}\nROLE {role}\nSECRET {secret or self.secrets[role]}\n" if envelope else ""
        raw = player_mail(sender or self.addresses[role], head + body, **kwargs)
        return self.app.receive(raw)

    def state(self):
        from moderator.service.table import load_table

        with self.app.db.session() as session:
            return load_table(session, self.app.registry, self.game_id).state

    def fingerprint(self) -> tuple:
        """Everything that would change if the game state changed."""
        with self.app.db.session() as session:
            log = session.exec(select(LogEntry).where(LogEntry.game_id == self.game_id)).all()
            snaps = session.exec(select(Snapshot).where(Snapshot.game_id == self.game_id)).all()
            return (len([e for e in log if e.kind in ("answer", "setup")]),
                    max((s.seq for s in snaps), default=0),
                    json.dumps(self.state(), sort_keys=True))


def seat_duel(app: App, game_id_hint: str | None = None) -> Seated:
    addresses = {"north": "north@players.test", "south": "south@players.test"}
    created = app.create_game("duel", addresses=addresses, referee_address="ref@players.test")
    secrets = {}
    for role in ("north", "south"):
        outcome = app.receive(player_mail(addresses[role], f"JOIN {created.invitations[role]}\nENTROPY {role}-dice\n"))
        assert outcome.status == "joined", outcome.reason
        welcome = text_of(outcome.replies[0].raw)
        secrets[role] = re.search(r"Your secret is ([A-Z0-9]{4}-[A-Z0-9]{4})", welcome).group(1)
    return Seated(app, created.game_id, secrets, addresses, created.referee_secret)


@pytest.fixture
def seated(app) -> Seated:
    return seat_duel(app)


def text_of(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    body = message.get_body(("plain",))
    return body.get_content().replace("\r\n", "\n") if body else ""


def flat(text: str) -> str:
    """Whitespace collapsed, so a phrase matches across the 72-column wrapping."""
    return " ".join(text.split())


def outbox_rows(app: App) -> list[Outbox]:
    with app.db.session() as session:
        return list(session.exec(select(Outbox).order_by(Outbox.id)))


#: Fixtures that reach the servers scripts/test.sh starts (one Dovecot + Postfix, one PostgreSQL).
SERVER_FIXTURES = {"mailstack", "clean_mail", "db_url"}


#: Test folders run in the servers' process, after the server tests, to even the two processes' time
#: (measured: server tests 2 min 45 s, these about 7 min, the rest about 5 min plus the non-interference
#: games' 3 min, which stay in the other process).
ALONGSIDE_SERVERS = ("tests/kit/", "tests/games/stalingrad/")
STAY_IN_THE_OTHER_PROCESS = ("tests/kit/test_noninterference.py",)
#: ... and the kit's Across the Narva playouts too, but one in four of its random games (about 15 s each).
#: Measured at stop 20 on an idle machine with all of them here: this process 19 min, the servers' 14.
STAY_IN_THE_OTHER_PROCESS_IF_NAMED = (("tests/kit/test_playouts.py", "[narva"),)
EVERY_FOURTH_NARVA_GAME = re.compile(r"test_a_random_game_ends_without_leaks\[narva-(\d+)\]")


def stays_in_the_other_process(nodeid: str) -> bool:
    game = EVERY_FOURTH_NARVA_GAME.search(nodeid)
    if game is not None and int(game.group(1)) % 4 == 0:
        return False
    return nodeid.startswith(STAY_IN_THE_OTHER_PROCESS) or any(
        nodeid.startswith(prefix) and part in nodeid for prefix, part in STAY_IN_THE_OTHER_PROCESS_IF_NAMED)


def pytest_collection_modifyitems(config, items):
    """The tests that reach the shared servers are marked `servers`: scripts/test.sh runs them in one
    process, one after another (each resets the same mailboxes or database before it starts), beside a
    second process that runs the others; the slow folders of ALONGSIDE_SERVERS join the first process."""
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())) or item.get_closest_marker("postgres") \
                or item.get_closest_marker("mailstack"):
            item.add_marker(pytest.mark.servers)
        elif item.nodeid.startswith(ALONGSIDE_SERVERS) and not stays_in_the_other_process(item.nodeid):
            item.add_marker(pytest.mark.alongside)
