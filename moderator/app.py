"""The application object, constructed from settings (never created at import time)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from sqlmodel import or_, select

from moderator.clock import Clock, SystemClock
from moderator.mail.maildir import MaildirInbox, MaildirOutbound
from moderator.registry import Registry, product_registry
from moderator.render.texts import make_environment
from moderator.service import games as game_service
from moderator.service import outbox
from moderator.service.controls import Controls
from moderator.service.mailroom import Mailroom, Outcome
from moderator.service.reports import Addressing
from moderator.service.table import load_table
from moderator.service.turns import TurnRunner
from moderator.settings import Settings
from moderator.store.db import Database
from moderator.store.models import Game, InboundMail


class App:
    """Settings, database, clock, games and transports, wired together."""

    def __init__(self, settings: Settings, registry: Registry | None = None, clock: Clock | None = None,
                 inbox=None, outbound=None):
        self.settings = settings
        self.registry = registry if registry is not None else product_registry()
        self.clock = clock or SystemClock()
        self.db = Database(settings.resolved_database_url)
        template_dirs: list[Path] = [settings.templates_dir]
        for engine in self.registry:
            if engine.templates_dir is not None:
                template_dirs.append(engine.templates_dir)
        self.environment = make_environment(template_dirs)
        self.addressing = Addressing(settings.orders_address.lower(), settings.orders_name, settings.domain)
        self.turns = TurnRunner(settings.deadlines, self.addressing, self.environment)
        self.mailroom = Mailroom(self)
        self.controls = Controls(self)
        self._inbox = inbox
        self._outbound = outbound

    # ------------------------------------------------------------------ transports

    @property
    def inbox(self):
        if self._inbox is None:
            if self.settings.inbound == "imap":
                from moderator.mail.imap import ImapInbox

                self._inbox = ImapInbox(self.settings.imap)
            else:
                self._inbox = MaildirInbox(self.settings.resolved_inbox)
        return self._inbox

    @property
    def outbound(self):
        if self._outbound is None:
            if self.settings.outbound == "smtp":
                from moderator.mail.smtp import SmtpOutbound

                smtp = self.settings.smtp
                already = None
                if smtp.sent_copy_address and self.settings.inbound == "imap":
                    already = lambda message_id: self.inbox.contains_message_id(smtp.sent_copy_folder, message_id)
                self._outbound = SmtpOutbound(smtp, self.settings.orders_address, smtp.sent_copy_address, already)
            else:
                self._outbound = MaildirOutbound(self.settings.resolved_outbox)
        return self._outbound

    # ------------------------------------------------------------------ jobs (each has a CLI twin)

    def migrate(self) -> None:
        self.db.migrate()

    def close(self) -> None:
        """Log out of mail servers and release database connections."""
        if self._inbox is not None and hasattr(self._inbox, "close"):
            self._inbox.close()
        self.db.dispose()

    def create_game(self, engine_id: str, scenario: str | None = None, options: Mapping[str, Any] | None = None,
                    addresses: Mapping[str, str] | None = None, referee_address: str = "",
                    settings: Mapping[str, Any] | None = None, observers: Mapping[str, str] | None = None,
                    invite: bool = True) -> game_service.CreatedGame:
        with self.db.session() as session:
            created = game_service.create_game(session, self.registry, self.clock.now(), engine_id, scenario,
                                               options, addresses, referee_address, settings,
                                               observers=observers)
            if invite:
                table = load_table(session, self.registry, created.game_id)
                for role, token in created.invitations.items():
                    address = (addresses or {}).get(role)
                    if address:
                        from moderator.mail.compose import thread_root

                        self.mailroom._notice(session, table, address, role, "Invitation", [
                            f"You are invited to play {table.engine.info.title} as '{role}' in game "
                            f"{created.game_id}.",
                            f"To take the seat, reply with the line 'JOIN {token}'. You may add lines "
                            f"'NAME <your name>', 'TZ <your time zone, e.g. Europe/Madrid>' and "
                            f"'ENTROPY <any words you like>' (mixed into the dice).",
                            f"The moderator has committed to its secret dice seed: {created.commitment}.",
                        ], kind="notice", message_id=thread_root(created.game_id, role, self.addressing.domain))
            return created

    def receive(self, raw: bytes, source: str = "") -> Outcome:
        return self.mailroom.receive(raw, source)

    def poll_once(self) -> list[Outcome]:
        """Read every new message in the inbox; mark each processed after its result is committed."""
        outcomes = []
        done, quarantined = [], []
        for item in self.inbox.new_messages():
            outcome = self.mailroom.receive(item.read(), f"inbox:{item.key}")
            outcomes.append(outcome)
            if outcome.status == "quarantined" or (
                    outcome.status == "duplicate" and self.mailroom.was_quarantined(item.read())):
                quarantined.append(item)
            else:
                done.append(item)
        # Moved out of the inbox only now, after every result above is committed (a crash before
        # this leaves them in the inbox, and the store recognises them next time).
        mark_many = getattr(self.inbox, "mark_many", None)
        if mark_many is not None:
            mark_many(done, quarantined=False)
            mark_many(quarantined, quarantined=True)
        else:
            for item in done:
                self.inbox.mark_processed(item)
            for item in quarantined:
                self.inbox.mark_processed(item, quarantined=True)
        outcomes.extend(self.reprocess_stranded())
        return outcomes

    def reprocess_stranded(self) -> list[Outcome]:
        """Messages stored but never processed (a crash between the two steps) are processed now."""
        with self.db.session() as session:
            ids = list(session.exec(select(InboundMail.id).where(InboundMail.status == "new")))
        return [self.mailroom.process(inbound_id) for inbound_id in ids]

    def run_due(self) -> list[str]:
        """Run games whose deadline passed or whose change-of-mind delay is over."""
        now = self.clock.now()
        with self.db.session() as session:
            due = list(session.exec(select(Game.id).where(
                Game.status == "running",
                or_(Game.next_deadline <= now, Game.ready_at <= now))))  # type: ignore[operator]
        ran = []
        for game_id in due:
            with self.db.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                table.game.ready_at = None
                self.turns.run(table, now)
            ran.append(game_id)
        return ran

    def drain_outbox(self) -> int:
        return outbox.drain(self)

    def send_reminders(self) -> int:
        from moderator.service.reminders import send_reminders

        return send_reminders(self)

    def tick(self) -> tuple[int, int]:
        """One pass of every job: poll, run what is due, send.  Returns (messages read, mails sent)."""
        read = len(self.poll_once())
        self.run_due()
        self.send_reminders()
        sent = self.drain_outbox()
        return read, sent


def build_app(settings: Settings | None = None, **kwargs) -> App:
    from moderator.settings import load_settings

    app = App(settings or load_settings(), **kwargs)
    app.migrate()
    return app
