"""Inbound mail over IMAP with imapclient (DESIGN §6).

New mail is whatever is still in the inbox folder, found by UID (never by a date window).  A
message leaves the inbox (moved to the processed or quarantine folder) only after the caller has
committed its result, so a crash at any point neither loses nor repeats an order: the next poll
sees the message again and the store recognises it by its content hash.  Dropped connections,
server restarts and sessions the server ends are retried with backoff; a refused login is tried
again only after a delay that doubles (1 minute to an hour), so the account is not locked out.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from moderator.settings import ImapSettings

log = logging.getLogger("moderator.imap")
T = TypeVar("T")

RETRYABLE = (OSError, socket.error, ssl.SSLError, IMAPClientError, EOFError)
# A refused login is tried again after these delays, doubling in between: many servers lock an
# account (or ban an address) after a run of failed logins, and a daemon polling every minute
# (its IDLE watcher every few seconds) would soon get there.
LOGIN_RETRY_FIRST = 60.0
LOGIN_RETRY_MAX = 3600.0


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=ca_file) if ca_file else ssl.create_default_context()
    return context


def connect(settings: ImapSettings, timeout: float = 30) -> IMAPClient:
    """A logged-in client; raises LoginError for a wrong password (not retried)."""
    context = tls_context(settings.ca_file)
    if settings.security == "tls":
        client = IMAPClient(settings.host, port=settings.port, ssl=True, ssl_context=context, timeout=timeout)
    else:
        client = IMAPClient(settings.host, port=settings.port, ssl=False, timeout=timeout)
        if settings.security == "starttls":
            client.starttls(context)
    client.login(settings.username, settings.password.get_secret_value())
    return client


@dataclass(frozen=True)
class ImapItem:
    key: str
    uid: int
    raw: bytes

    def read(self) -> bytes:
        return self.raw


class ImapInbox:
    """The moderator's mailbox on an IMAP server."""

    def __init__(self, settings: ImapSettings, sleep: Callable[[float], None] = time.sleep,
                 max_backoff: float = 300, clock: Callable[[], float] = time.monotonic):
        self.settings = settings
        self._client: IMAPClient | None = None
        self._sleep = sleep
        self._max_backoff = max_backoff
        self._clock = clock
        self._ready_folders = False
        self._login_delay = 0.0  # after a refused login: how long until the next try
        self._login_refused_at = 0.0

    # ------------------------------------------------------------------ connection

    def client(self) -> IMAPClient:
        if self._client is None:
            self._client = self._connect_with_backoff()
        return self._client

    def login_retry_in(self) -> float:
        """Seconds until a refused login may be tried again (0: now)."""
        if not self._login_delay:
            return 0.0
        return max(0.0, self._login_refused_at + self._login_delay - self._clock())

    def _connect_with_backoff(self) -> IMAPClient:
        wait = self.login_retry_in()
        if wait:
            raise LoginError(f"the IMAP server refused the login for {self.settings.username}; "
                             f"not trying again for {wait:.0f} s (so the account is not locked)")
        delay = 1.0
        while True:
            try:
                client = connect(self.settings)
                self._prepare(client)
                self._login_delay = 0.0
                return client
            except LoginError as error:
                self._login_delay = min(LOGIN_RETRY_MAX, max(LOGIN_RETRY_FIRST, 2 * self._login_delay))
                self._login_refused_at = self._clock()
                log.error("IMAP login refused (%s); next try in %.0f s", error, self._login_delay)
                raise
            except RETRYABLE as error:
                log.warning("IMAP connection failed (%s); retrying in %.0f s", error, delay)
                self._sleep(delay)
                delay = min(self._max_backoff, delay * 2)

    def _prepare(self, client: IMAPClient) -> None:
        for folder in (self.settings.processed_folder, self.settings.quarantine_folder):
            if not client.folder_exists(folder):
                client.create_folder(folder)
        client.select_folder(self.settings.folder)

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(*RETRYABLE):  # a dead connection needs no logout
                self._client.logout()
            self._client = None

    def _retry(self, action: Callable[[IMAPClient], T]) -> T:
        """Run `action(client)`; on a dropped connection reconnect (with backoff) and run it again."""
        for attempt in range(5):
            try:
                return action(self.client())
            except LoginError:
                raise
            except RETRYABLE as error:
                log.warning("IMAP operation failed (%s); reconnecting", error)
                self._client = None
                if attempt == 4:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    # ------------------------------------------------------------------ the inbox contract

    def new_messages(self) -> Iterator[ImapItem]:
        def fetch(client: IMAPClient) -> list[ImapItem]:
            client.select_folder(self.settings.folder)
            uids = sorted(client.search(["ALL"]))
            items = []
            for start in range(0, len(uids), 50):
                batch = uids[start:start + 50]
                for uid, data in sorted(client.fetch(batch, ["BODY.PEEK[]"]).items()):
                    raw = data.get(b"BODY[]")
                    if raw is not None:
                        items.append(ImapItem(f"imap:{uid}", uid, raw))
            return items

        yield from self._retry(fetch)

    def mark_processed(self, item: ImapItem, quarantined: bool = False) -> None:
        self.mark_many([item], quarantined)

    def mark_many(self, items: list[ImapItem], quarantined: bool = False) -> None:
        """Move processed messages out of the inbox in one command."""
        if not items:
            return
        folder = self.settings.quarantine_folder if quarantined else self.settings.processed_folder
        uids = [item.uid for item in items]

        def move(client: IMAPClient) -> None:
            client.select_folder(self.settings.folder)
            if client.has_capability("MOVE"):
                client.move(uids, folder)
            else:
                client.copy(uids, folder)
                client.add_flags(uids, [b"\\Deleted"])
                client.expunge(uids) if client.has_capability("UIDPLUS") else client.expunge()

        self._retry(move)

    def wait_for_mail(self, timeout: float) -> bool:
        """Block until the server announces mail (IDLE) or `timeout` passes; True if something came."""
        def idle(client: IMAPClient) -> bool:
            if not (self.settings.idle and client.has_capability("IDLE")):
                self._sleep(timeout)
                return False
            client.select_folder(self.settings.folder)
            client.idle()
            try:
                responses = client.idle_check(timeout=timeout)
            finally:
                client.idle_done()
            return any(r[1] in (b"EXISTS", b"RECENT") for r in responses if len(r) > 1)

        return bool(self._retry(idle))

    def contains_message_id(self, folder: str, message_id: str) -> bool:
        """Whether a message with this Message-ID is in a folder (used to avoid sending twice)."""
        def search(client: IMAPClient) -> bool:
            if not client.folder_exists(folder):
                return False
            client.select_folder(folder, readonly=True)
            found = client.search(["HEADER", "Message-ID", message_id.strip("<>")])
            client.select_folder(self.settings.folder)
            return bool(found)

        return bool(self._retry(search))
