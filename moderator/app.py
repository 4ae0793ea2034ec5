"""The application object, constructed from settings (never created at import time).

The App is where the services are wired: each service is given the collaborators it uses (the
database, the clock, the games, parts of the settings, the templates, other services) and never
the App itself, so no service imports this module (docs/design-notes.md, "How the services are
wired").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from moderator.clock import Clock, SystemClock
from moderator.league.service import Leagues
from moderator.mail.hygiene import ReadLimits
from moderator.mail.imap import ImapInbox
from moderator.mail.maildir import InboundItem, MaildirInbox, MaildirOutbound
from moderator.mail.smtp import SmtpOutbound
from moderator.registry import Registry, product_registry
from moderator.render.texts import make_environment
from moderator.service.archive import export_archive
from moderator.service.archive_html import HtmlArchive
from moderator.service.controls import Controls
from moderator.service.entropy import EntropyDesk
from moderator.service.games import CreatedGame
from moderator.service.held_receipts import HeldReceipts
from moderator.service.lobby import Lobby
from moderator.service.mailroom import MailLimits, Mailroom, Outcome
from moderator.service.notices import Notices
from moderator.service.outbox import Postman
from moderator.service.referee_mail import RefereeMail
from moderator.service.reminders import Reminders
from moderator.service.replay import Replayer
from moderator.service.replies import Replies
from moderator.service.reports import Addressing
from moderator.service.seat_mail import SeatDesk
from moderator.service.table import load_table
from moderator.service.turns import TurnRunner
from moderator.settings import Settings, load_settings
from moderator.store import games as stored
from moderator.store.db import Database


class App:
    """Settings, database, clock, games and transports, and the services wired from them."""

    def __init__(self, settings: Settings, registry: Registry | None = None, clock: Clock | None = None,
                 inbox: Any = None, outbound: Any = None):
        self.settings = settings
        self.registry = registry if registry is not None else product_registry()
        self.clock: Clock = clock or SystemClock()
        self.db = Database(settings.resolved_database_url)
        template_dirs: list[Path] = [settings.templates_dir]
        template_dirs += [engine.templates_dir for engine in self.registry if engine.templates_dir is not None]
        self.environment = make_environment(template_dirs)
        self.addressing = Addressing(settings.orders_address.lower(), settings.orders_name, settings.domain)
        self._inbox = inbox
        self._outbound = outbound
        self._wire()

    def _wire(self) -> None:
        """Construct the services, each from the collaborators it uses."""
        settings, db, clock, registry = self.settings, self.db, self.clock, self.registry
        self.notices = Notices(clock, self.addressing, self.environment)
        self.referee_mail = RefereeMail(self.notices, self.environment)
        self.turns = TurnRunner(settings.deadlines, self.addressing, self.environment, self.referee_mail)
        self.replayer = Replayer(db, registry, self.environment, self.addressing)
        self.html_archive = HtmlArchive(db, registry, self.environment, self.replayer)
        self.controls = Controls(clock, self.turns, self.notices, self.replayer)
        self.entropy = EntropyDesk(db, clock, registry, self.notices, self.turns, settings.deadlines)
        self.lobby = Lobby(db, clock, registry, self.addressing, self.notices, self.turns, self.referee_mail,
                           self.entropy, settings.deadlines.ask_new_players)
        self.desk = SeatDesk(clock, self.addressing, self.environment, Replies(self.notices), self.turns,
                             settings.deadlines, self.entropy)
        self.leagues = Leagues(db, clock, registry, self.lobby.create_game, self.notices, self.controls, self.turns,
                               self.environment, self.html_archive, settings.orders_address,
                               settings.data_dir / "leagues",
                               receive=lambda raw: self.mailroom.receive(raw, "league-bot"))  # bot seats' mail
        self.mailroom = Mailroom(db, clock, registry, self.addressing, mail_limits(settings),
                                 self.notices, self.lobby, self.desk, self.controls, leagues=self.leagues.desk)
        self.postman = Postman(db, clock)
        self.reminders = Reminders(db, clock, registry, self.notices, settings.deadlines)
        self.held_receipts = HeldReceipts(db, clock, registry, self.notices, settings.deadlines.receipt_hold_minutes)

    # ------------------------------------------------------------------ transports

    @property
    def inbox(self) -> Any:
        if self._inbox is None:
            if self.settings.inbound == "imap":
                self._inbox = ImapInbox(self.settings.imap)
            else:
                self._inbox = MaildirInbox(self.settings.resolved_inbox)
        return self._inbox

    @property
    def outbound(self) -> Any:
        if self._outbound is None:
            if self.settings.outbound == "smtp":
                smtp = self.settings.smtp
                already: Callable[[str], bool] | None = None
                if smtp.sent_copy_address and self.settings.inbound == "imap":
                    def in_sent_folder(message_id: str) -> bool:  # the sent copy, filed in our own mailbox
                        return bool(self.inbox.contains_message_id(smtp.sent_copy_folder, message_id))

                    already = in_sent_folder
                self._outbound = SmtpOutbound(smtp, self.settings.orders_address, smtp.sent_copy_address, already)
            else:
                self._outbound = MaildirOutbound(self.settings.resolved_outbox)
        return self._outbound

    # ------------------------------------------------------------------ jobs (each has a CLI twin)

    def migrate(self) -> None:
        self.db.migrate()

    def close(self) -> None:
        """Log out of mail servers and release database connections."""
        if isinstance(self._inbox, ImapInbox):
            self._inbox.close()
        self.db.dispose()

    def create_game(self, engine_id: str, scenario: str | None = None, options: Mapping[str, Any] | None = None,
                    addresses: Mapping[str, str] | None = None, referee_address: str = "",
                    settings: Mapping[str, Any] | None = None, observers: Mapping[str, str] | None = None,
                    invite: bool = True) -> CreatedGame:
        return self.lobby.create_game(engine_id, scenario, options, addresses, referee_address, settings,
                                      observers, invite)

    def receive(self, raw: bytes, source: str = "") -> Outcome:
        return self.mailroom.receive(raw, source)

    def poll_once(self) -> list[Outcome]:
        """Read every new message in the inbox; mark each processed after its result is committed."""
        outcomes = []
        done: list[InboundItem] = []
        quarantined: list[InboundItem] = []
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
        return self.mailroom.process_stranded()

    def run_due(self) -> list[str]:
        """Start games whose entropy reveals are overdue; run games whose deadline passed or whose
        change-of-mind delay is over."""
        started = self.entropy.close_due()  # entropy=commit-reveal: reveals past their deadline
        now = self.clock.now()
        with self.db.session() as session:
            due = stored.due_game_ids(session, now)
        for game_id in due:
            with self.db.session() as session:
                table = load_table(session, self.registry, game_id, for_update=True)
                table.game.ready_at = None
                self.turns.run(table, now)
        self.leagues.run_due()  # the leagues' rounds move on with their games (the daemon's "turns" job)
        return started + due

    def drain_outbox(self) -> int:
        return self.postman.drain(self.outbound)

    def retry_failed(self, game_id: str | None = None) -> int:
        return self.postman.retry_failed(game_id)

    def send_reminders(self) -> int:
        """Reminders before the deadlines of running games, and before the entropy reveals' deadline."""
        return self.reminders.send_due() + self.entropy.remind_due()

    def send_held_receipts(self) -> int:
        return self.held_receipts.send_due()

    def export_archive(self, game_id: str) -> dict[str, Any]:
        """The public archive of a finished game; raises ModeratorError while it runs."""
        return export_archive(self.db, self.registry, game_id)

    def tick(self) -> tuple[int, int]:
        """One pass of every job: poll, run what is due, send.  Returns (messages read, mails sent)."""
        read = len(self.poll_once())
        self.run_due()
        self.send_reminders()
        self.send_held_receipts()
        sent = self.drain_outbox()
        return read, sent


def mail_limits(settings: Settings) -> MailLimits:
    """The limits on inbound mail, from the settings (each one's default is explained there)."""
    reading = ReadLimits(max_bytes=settings.max_message_bytes, max_lines=settings.max_order_lines,
                         max_chars=settings.max_order_chars, max_hops=settings.max_received_headers,
                         echo_chars=settings.receipt_echo_chars, echo_lines=settings.receipt_echo_lines)
    return MailLimits(reading, settings.oversized_kept_bytes, settings.rate_limit_per_hour)


def build_app(settings: Settings | None = None, **kwargs: Any) -> App:
    app = App(settings or load_settings(), **kwargs)
    app.migrate()
    return app
