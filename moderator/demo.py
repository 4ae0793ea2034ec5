"""`moderator demo`: bot players play a whole game through the real mail loop, on disk.

The bots are ordinary mail users: they read the mails the moderator delivered into their own
Maildir, answer invitations, and reply to reports with real MIME messages dropped into the
moderator's inbox Maildir.  They learn the legal options only from the report text, exactly as a
human would.  A game may supply a smarter `brain` that writes whole-phase scripts.
"""

from __future__ import annotations

import email
import email.policy
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any, Protocol

from moderator.clock import Clock, ManualClock, as_utc
from moderator.core.bots import Brain, RandomBrain, ReportMail, read_report
from moderator.mail.maildir import MaildirInbox, ensure_maildir, mailbox_dir
from moderator.service.games import CreatedGame
from moderator.service.table import load_table
from moderator.store import games as stored
from moderator.store.db import Database


class Host(Protocol):
    """What the demo drives: the application as a club would run it (moderator.app.App).  (The
    settings and the registry lie beside the demo's layer, so they are not named here.)"""

    settings: Any
    registry: Any
    clock: Clock
    db: Database

    @property
    def inbox(self) -> Any: ...

    def create_game(self, engine_id: str, scenario: str | None = None, options: Mapping[str, Any] | None = None,
                    addresses: Mapping[str, str] | None = None, referee_address: str = "",
                    settings: Mapping[str, Any] | None = None, observers: Mapping[str, str] | None = None,
                    invite: bool = True) -> CreatedGame: ...

    def tick(self) -> tuple[int, int]: ...


@dataclass
class Bot:
    address: str
    name: str
    mailbox: Path
    moderator: str
    inbox: MaildirInbox
    rng: random.Random
    brain: Brain = field(default_factory=RandomBrain)
    silence: float = 0.0  # chance of not answering a report (to show deadline defaults)
    sent: int = 0
    secret: str = ""
    finished: bool = False

    def step(self, clock: Clock) -> int:
        """Read new mail; answer what needs answering: an invitation, and the newest report only (an
        older report's questions have been asked again, or have passed: answering it would be stale).
        Returns the number of mails sent."""
        ensure_maildir(self.mailbox)
        sent = 0
        newest: ReportMail | None = None
        for path in sorted((self.mailbox / "new").iterdir()):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            path.rename(self.mailbox / "cur" / (path.name + ":2,S"))
            body = message.get_body(("plain",))
            text = body.get_content() if body else ""
            subject = str(message["Subject"])
            message_id = str(message["Message-ID"])
            token = re.search(r"'JOIN ([A-Z0-9-]+)'", text)
            if token:
                sent += self._send(clock, f"Re: {subject}", message_id,
                                   f"JOIN {token.group(1)}\nNAME {self.name}\nTZ Europe/Madrid\n"
                                   f"ENTROPY {self.rng.getrandbits(64):016x}\n")
                continue
            if "THE RESULT" in text:
                self.finished = True
            if "THE SITUATION" in text:  # a report (a receipt or a notice asks nothing new)
                envelope, decisions = read_report(text)
                newest = ReportMail(text, subject, message_id, envelope, decisions)
        if newest is not None and newest.decisions and newest.envelope \
                and not (self.silence and self.rng.random() < self.silence):
            orders = self.brain.orders(newest, self.rng)
            if orders:
                quoted = "\n".join("> " + line for line in newest.text.split("\n")[:12])
                sent += self._send(clock, f"Re: {newest.subject}", newest.message_id,
                                   "\n".join(newest.envelope + [""] + orders) + "\n\n" + quoted + "\n")
        self.sent += sent
        return sent

    def _send(self, clock: Clock, subject: str, in_reply_to: str, body: str) -> int:
        msg = EmailMessage(policy=SMTP)
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = self.moderator
        msg["Subject"] = subject
        msg["Date"] = format_datetime(clock.now())
        msg["Message-ID"] = make_msgid(domain=self.address.split("@")[1])
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
        msg.set_content(body)
        self.inbox.drop(msg.as_bytes(), str(msg["Message-ID"]))
        return 1


def run_demo(app: Host, engine_id: str, out: Path, seed: int, progress: Callable[[int, int, str], None] | None = None,
             brains: Mapping[str, Brain] | None = None, silence: float = 0.03,
             max_cycles: int = 100_000, scenario: str | None = None,
             options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play one game (of `scenario`, the first when None, with rule `options`) to the end through the mail
    loop; return a summary.  Raises UnknownGame for a scenario the game does not have."""
    rng = random.Random(seed)
    engine = app.registry.get(engine_id)
    scenario = engine.info.scenario(scenario).name
    roles = engine.info.roles(scenario)
    addresses = {role: f"{role}@players.demo" for role in roles}
    created = app.create_game(engine_id, scenario, options=dict(options or {}), addresses=addresses,
                              referee_address="referee@players.demo", observers={"observer": "observer@players.demo"})
    inbox = app.inbox
    if brains is None:
        brains = engine.bots(scenario)
    bots = [Bot(address, role.replace("_", " ").title() + " Bot", mailbox_dir(app.settings.resolved_outbox, address),
                app.settings.orders_address, inbox, random.Random(rng.getrandbits(64)),
                (brains or {}).get(role, RandomBrain()), silence)
            for role, address in addresses.items()]
    clock = app.clock
    idle = 0
    for _ in range(max_cycles):
        app.tick()
        sent = sum(bot.step(clock) for bot in bots)
        status, label, turn = _game_status(app, created.game_id)
        if progress:
            progress(*turn, label)
        if status == "over" and sent == 0 and all(b.finished for b in bots):
            app.tick()
            break
        if sent == 0:
            idle += 1
            if idle >= 2 and isinstance(clock, ManualClock):
                _jump_to_deadline(app, created.game_id, clock)
                idle = 0
        else:
            idle = 0
        if isinstance(clock, ManualClock):
            clock.advance(minutes=7)
    return {"game_id": created.game_id, "commitment": created.commitment,
            "mails_from_players": sum(b.sent for b in bots),
            "sent_by": {bot.address: bot.sent for bot in bots}, "turns": _game_status(app, created.game_id)[2][0]}


def _game_status(app: Host, game_id: str) -> tuple[str, str, tuple[int, int]]:
    with app.db.session() as session:
        table = load_table(session, app.registry, game_id)
        turn = (0, 1)
        if table.state is not None:
            turn = table.engine.progress(table.state)
        return table.game.status, table.game.phase_label, turn


def _jump_to_deadline(app: Host, game_id: str, clock: ManualClock) -> None:
    with app.db.session() as session:
        deadline = as_utc(stored.next_deadline(session, game_id))
    if deadline and deadline > clock.now():
        clock.set(deadline + timedelta(seconds=1))
