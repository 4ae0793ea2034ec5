"""Outbound mail over SMTP with aiosmtplib (DESIGN §6).

Each message may also be addressed, in the same SMTP transaction, to a "sent copy" address that
delivers into a folder of the moderator's own mailbox.  One transaction is queued whole or not at
all, so if the daemon dies after the server accepted a message but before the outbox row says so,
the next drain finds the copy by its Message-ID and does not send the message again.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Callable
from typing import Any

import aiosmtplib

from moderator.core.errors import MailMaybeDelivered, MailServerUnavailable
from moderator.mail.failures import WAITS_BEHIND, describe_failure  # the outbox treats these apart
from moderator.settings import SmtpSettings

# A connection that breaks while the server takes a message (it may have been accepted).
BROKEN = (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError, OSError)


def opening_failed(error: Exception) -> MailServerUnavailable:
    """Connecting, TLS, the greeting or the login failed: the server, not a message, is the trouble."""
    return MailServerUnavailable(f"{type(error).__name__}: {error}")


def offering_failed(error: Exception) -> Exception:
    """`error` from handing a message over, as the outbox should read it."""
    if isinstance(error, BROKEN):
        return MailMaybeDelivered(f"{type(error).__name__}: {error}")
    return error  # the server's reply to this message (refused, try later): it counts an attempt


class SmtpOutbound:
    def __init__(self, settings: SmtpSettings, sender: str, sent_copy: str = "",
                 already_sent: Callable[[str], bool] | None = None):
        self.settings = settings
        self.sender = sender
        self.sent_copy = sent_copy
        self._already_sent = already_sent  # callable(message_id) -> bool, e.g. an IMAP search

    def _tls(self) -> ssl.SSLContext:
        if self.settings.ca_file:
            return ssl.create_default_context(cafile=self.settings.ca_file)
        return ssl.create_default_context()

    async def open(self) -> aiosmtplib.SMTP:
        """A connected, logged-in client (TLS or STARTTLS as configured)."""
        settings = self.settings
        kwargs: dict[str, Any] = dict(hostname=settings.host, port=settings.port, timeout=settings.timeout_seconds)
        if settings.security == "tls":
            kwargs.update(use_tls=True, tls_context=self._tls())
        elif settings.security == "starttls":
            kwargs.update(start_tls=True, tls_context=self._tls())
        else:
            kwargs.update(start_tls=False, use_tls=False)
        client = aiosmtplib.SMTP(**kwargs)
        await client.connect()
        if settings.username:
            await client.login(settings.username, settings.password.get_secret_value())
        return client

    async def _send(self, raw: bytes, recipients: list[str]) -> None:
        try:
            client = await self.open()
        except Exception as error:
            raise opening_failed(error) from error
        try:
            await client.sendmail(self.sender, recipients, raw)
        except Exception as error:
            raise offering_failed(error) from error
        finally:
            await _close_quietly(client)

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        recipients = [recipient] + ([self.sent_copy] if self.sent_copy else [])
        asyncio.run(self._send(raw, recipients))

    def batch(self) -> SmtpBatch:
        """One connection for many messages (the outbox drain sends through it)."""
        return SmtpBatch(self)

    def was_sent(self, message_id: str) -> bool:
        """Did an earlier attempt already hand this message over?  (Needs the sent copy.)"""
        return bool(self._already_sent and self._already_sent(message_id))


class SmtpBatch:
    """A few reusable SMTP connections for one drain of the outbox.

    `submit` queues a message, `wait` sends everything queued, `collect` returns (row id, error
    or None) for what has finished.  One recipient's messages go in order, one after the other,
    so a player's reports arrive in the order they were written; a message that fails holds back
    the later ones to its address (WAITS_BEHIND); different players' mail goes in parallel.
    """

    CONNECTIONS = 4

    def __init__(self, outbound: SmtpOutbound):
        self.outbound = outbound
        self.loop = asyncio.new_event_loop()
        self.pool: list[aiosmtplib.SMTP] = []  # open connections not in use
        self._slots: asyncio.Semaphore | None = None
        self._last: dict[str, asyncio.Task[str | None]] = {}  # each recipient's newest message
        self._pending: set[asyncio.Task[str | None]] = set()
        self._results: list[tuple[int, str | None]] = []

    def __enter__(self) -> SmtpBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        for task in self._pending:
            task.cancel()  # its row stays 'handed': the outbox checks the sent copy later
        if self._pending:
            self.loop.run_until_complete(asyncio.gather(*self._pending, return_exceptions=True))
        for client in self.pool:
            with contextlib.suppress(Exception):  # the server may have closed it already
                self.loop.run_until_complete(client.quit())
        self.loop.close()

    # ------------------------------------------------------------------ driving

    def submit(self, row_id: int, raw: bytes, recipient: str) -> None:
        previous = self._last.get(recipient)
        task = self.loop.create_task(self._deliver_after(previous, row_id, raw, recipient))
        self._last[recipient] = task
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def wait(self) -> None:
        while self._pending:
            self.loop.run_until_complete(asyncio.gather(*self._pending, return_exceptions=True))

    def collect(self) -> list[tuple[int, str | None]]:
        results, self._results = self._results, []
        return results

    def send_many(self, items: list[tuple[int, bytes, str, str]]) -> list[tuple[int, str | None]]:
        """Send (row id, raw, recipient, Message-ID) items and wait; return errors by row."""
        for row_id, raw, recipient, _ in items:
            self.submit(row_id, raw, recipient)
        self.wait()
        return self.collect()

    # ------------------------------------------------------------------ in the loop

    async def _deliver_after(self, previous: asyncio.Task[str | None] | None, row_id: int, raw: bytes,
                             recipient: str) -> str | None:
        if previous is not None:
            failed = await asyncio.shield(previous) if not previous.done() else previous.result()
            if failed is not None:  # keep the order: later mail waits behind the failed one
                self._results.append((row_id, f"{WAITS_BEHIND}: {failed}"))
                return failed
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.CONNECTIONS)
        async with self._slots:
            try:
                await self._deliver(raw, recipient)
            except Exception as error:  # waits for the next drain
                failed = describe_failure(error)
                self._results.append((row_id, failed))
                return failed
        self._results.append((row_id, None))
        return None

    async def _deliver(self, raw: bytes, recipient: str) -> None:
        recipients = [recipient] + ([self.outbound.sent_copy] if self.outbound.sent_copy else [])
        # Connections stay open between messages: a TLS handshake and a login cost more than a
        # dozen small messages.
        kept = bool(self.pool)
        client = self.pool.pop() if kept else await self._connect()
        try:
            try:
                await client.sendmail(self.outbound.sender, recipients, raw)
            except (aiosmtplib.SMTPServerDisconnected, ConnectionError):
                if not kept:
                    raise
                # A kept connection the server closed meanwhile (its idle timeout): one fresh try.
                client = await self._connect()
                await client.sendmail(self.outbound.sender, recipients, raw)
        except MailServerUnavailable:
            raise
        except Exception as error:
            await _close_quietly(client)  # the server may be in any state now: do not reuse it
            raise offering_failed(error) from error
        self.pool.append(client)

    async def _connect(self) -> aiosmtplib.SMTP:
        try:
            return await self.outbound.open()
        except Exception as error:
            raise opening_failed(error) from error

    def was_sent(self, message_id: str) -> bool:
        return self.outbound.was_sent(message_id)


async def _close_quietly(client: aiosmtplib.SMTP) -> None:
    """Say QUIT if the server still listens, else just drop the connection; never raise."""
    with contextlib.suppress(Exception):
        if client.is_connected:
            await client.quit()
            return
    with contextlib.suppress(Exception):
        client.close()
