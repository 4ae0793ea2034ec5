"""Fixtures for tests against the real Dovecot + Postfix stack started by scripts/test.sh."""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import aiosmtplib
import pytest
from imapclient import IMAPClient

from moderator.app import App
from moderator.clock import ManualClock
from moderator.registry import Registry
from moderator.settings import ImapSettings, Settings, SmtpSettings
from tests.testgame.duel import engine as duel


@dataclass(frozen=True)
class MailStack:
    host: str
    imap_port: int
    smtp_port: int
    smtps_port: int
    imaps_port: int
    domain: str
    ca: str
    dovecot_conf: str

    def address(self, user: str) -> str:
        return f"{user}@{self.domain}"

    def imap(self, user: str) -> IMAPClient:
        client = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=20)
        client.starttls(ssl.create_default_context(cafile=self.ca))
        client.login(self.address(user), f"{user}-pw")
        return client

    def submit(self, user: str, raw: bytes, recipients: list[str]) -> None:
        """A player's mail client submitting a message: STARTTLS and AUTH, like Thunderbird."""
        asyncio.run(aiosmtplib.send(raw, hostname=self.host, port=self.smtp_port, start_tls=True,
                                    tls_context=ssl.create_default_context(cafile=self.ca),
                                    username=self.address(user), password=f"{user}-pw",
                                    sender=self.address(user), recipients=recipients))

    def messages(self, user: str, folder: str = "INBOX") -> list[email.message.EmailMessage]:
        with self.imap(user) as client:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            fetched = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [email.message_from_bytes(fetched[u][b"BODY[]"], policy=email.policy.default)
                    for u in sorted(fetched)]

    def wait_for(self, user: str, count: int, folder: str = "INBOX", timeout: float = 20) -> list:
        deadline = time.monotonic() + timeout
        while True:
            found = self.messages(user, folder)
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.2)

    def reset(self) -> None:
        subprocess.run(["doveadm", "-c", self.dovecot_conf, "expunge", "-A", "mailbox", "*", "all"],
                       check=True, capture_output=True)


@pytest.fixture(scope="session")
def mailstack() -> MailStack:
    host = os.environ.get("MAILSTACK_HOST")
    if not host:
        if os.environ.get("CI") or os.environ.get("MODERATOR_REQUIRE_SERVERS"):
            pytest.fail("MAILSTACK_* is not set: scripts/test.sh starts Dovecot and Postfix")
        env = Path("/tmp/moderator-test/mail/env.sh")
        if not env.exists():
            pytest.skip("no mail stack (run the suite through scripts/test.sh)")
        for line in env.read_text().split("\n"):
            for pair in line.removeprefix("export ").split():
                key, _, value = pair.partition("=")
                os.environ.setdefault(key, value)
        host = os.environ["MAILSTACK_HOST"]
    return MailStack(host, int(os.environ["MAILSTACK_IMAP_PORT"]), int(os.environ["MAILSTACK_SMTP_PORT"]),
                     int(os.environ["MAILSTACK_SMTPS_PORT"]), int(os.environ["MAILSTACK_IMAPS_PORT"]),
                     os.environ["MAILSTACK_DOMAIN"], os.environ["MAILSTACK_CA"], os.environ["MAILSTACK_DOVECOT_CONF"])


@pytest.fixture
def clean_mail(mailstack) -> MailStack:
    mailstack.reset()
    return mailstack


def real_settings(stack: MailStack, tmp_path: Path, **extra) -> Settings:
    imap = ImapSettings(host=stack.host, port=stack.imap_port, security="starttls",
                        username=stack.address("moderator"), password="moderator-pw", ca_file=stack.ca)
    smtp = SmtpSettings(host=stack.host, port=stack.smtp_port, security="starttls",
                        username=stack.address("moderator"), password="moderator-pw", ca_file=stack.ca,
                        sent_copy_address=f"moderator+Sent@{stack.domain}")
    values = dict(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'm.db'}",
                  orders_address=stack.address("moderator"), domain=stack.domain, inbound="imap",
                  outbound="smtp", imap=imap, smtp=smtp)
    values.update(extra)
    return Settings(**values)


def real_app(stack: MailStack, tmp_path: Path, registry: Registry | None = None, clock=None, **extra) -> App:
    app = App(real_settings(stack, tmp_path, **extra), registry=registry or Registry([duel]),
              clock=clock or ManualClock())
    app.migrate()
    return app
