"""Outbound mail over SMTP with aiosmtplib (DESIGN §6).

Each message may also be addressed, in the same SMTP transaction, to a "sent copy" address that
delivers into a folder of the moderator's own mailbox.  One transaction is queued whole or not at
all, so if the daemon dies after the server accepted a message but before the outbox row says so,
the next drain finds the copy by its Message-ID and does not send the message again.
"""

from __future__ import annotations

import asyncio
import ssl

import aiosmtplib

from moderator.service.outbox import WAITS_BEHIND  # the outbox counts no attempt for these
from moderator.settings import SmtpSettings


class SmtpOutbound:
    def __init__(self, settings: SmtpSettings, sender: str, sent_copy: str = "", already_sent=None):
        self.settings = settings
        self.sender = sender
        self.sent_copy = sent_copy
        self._already_sent = already_sent  # callable(message_id) -> bool, e.g. an IMAP search

    def _tls(self) -> ssl.SSLContext:
        if self.settings.ca_file:
            return ssl.create_default_context(cafile=self.settings.ca_file)
        return ssl.create_default_context()

    async def _send(self, raw: bytes, recipients: list[str]) -> None:
        kwargs = dict(hostname=self.settings.host, port=self.settings.port, timeout=self.settings.timeout_seconds,
                      sender=self.sender, recipients=recipients)
        if self.settings.security == "tls":
            kwargs.update(use_tls=True, tls_context=self._tls())
        elif self.settings.security == "starttls":
            kwargs.update(start_tls=True, tls_context=self._tls())
        else:
            kwargs.update(start_tls=False, use_tls=False)
        if self.settings.username:
            kwargs.update(username=self.settings.username, password=self.settings.password.get_secret_value())
        await aiosmtplib.send(raw, **kwargs)

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        recipients = [recipient] + ([self.sent_copy] if self.sent_copy else [])
        asyncio.run(self._send(raw, recipients))

    def batch(self) -> "SmtpBatch":
        """One connection for many messages (the outbox drain sends through it)."""
        return SmtpBatch(self)

    def was_sent(self, message_id: str) -> bool:
        """Did an earlier attempt already hand this message over?  (Needs the sent copy.)"""
        return bool(self._already_sent and self._already_sent(message_id))


class SmtpBatch:
    """Reusable SMTP connections; `send_many` keeps a few of them busy at once."""

    CONNECTIONS = 4

    def __init__(self, outbound: SmtpOutbound):
        self.outbound = outbound
        self.loop = asyncio.new_event_loop()
        self.client: aiosmtplib.SMTP | None = None
        self.pool: list[aiosmtplib.SMTP] = []

    def __enter__(self) -> "SmtpBatch":
        return self

    def __exit__(self, *exc) -> None:
        for client in ([self.client] if self.client else []) + self.pool:
            try:
                self.loop.run_until_complete(client.quit())
            except Exception:
                pass
        self.loop.close()

    def send_many(self, items: list[tuple[int, bytes, str, str]]) -> list[tuple[int, str | None]]:
        """Send (row id, raw, recipient, Message-ID) items over a few connections; return errors by row."""
        return self.loop.run_until_complete(self._send_many(items))

    async def _send_many(self, items):
        # One recipient's messages go in order through one connection, so a player's reports
        # arrive in the order they were written; different players' mail goes in parallel.
        by_recipient: dict[str, list] = {}
        for item in items:
            by_recipient.setdefault(item[2], []).append(item)
        queue: asyncio.Queue = asyncio.Queue()
        for group in by_recipient.values():
            queue.put_nowait(group)
        results: list[tuple[int, str | None]] = []
        recipients_extra = [self.outbound.sent_copy] if self.outbound.sent_copy else []
        # Connections stay open between groups of one drain: a TLS handshake and a login cost
        # more than a dozen small messages.
        idle = list(self.pool)

        async def worker() -> None:
            client = idle.pop() if idle else None
            while not queue.empty():
                failed = None
                for row_id, raw, recipient, _ in queue.get_nowait():
                    if failed is not None:  # keep the order: later mail waits behind the failed one
                        results.append((row_id, f"{WAITS_BEHIND}: {failed}"))
                        continue
                    try:
                        client = await send_one(client, raw, recipient)
                        results.append((row_id, None))
                    except Exception as error:  # waits for the next drain; the worker reconnects
                        failed = f"{type(error).__name__}: {error}"
                        results.append((row_id, failed))
                        if client in self.pool:
                            self.pool.remove(client)
                        client = None

        async def send_one(client, raw: bytes, recipient: str) -> aiosmtplib.SMTP:
            if client is None:
                client = await self._connect()
                self.pool.append(client)
            try:
                await client.sendmail(self.outbound.sender, [recipient] + recipients_extra, raw)
            except (aiosmtplib.SMTPServerDisconnected, ConnectionError):
                # A kept connection the server has closed meanwhile: one fresh try.
                self.pool.remove(client)
                client = await self._connect()
                self.pool.append(client)
                await client.sendmail(self.outbound.sender, [recipient] + recipients_extra, raw)
            return client

        workers = min(self.CONNECTIONS, max(1, len(by_recipient)))
        await asyncio.gather(*(worker() for _ in range(workers)))
        return results

    async def _connect(self) -> aiosmtplib.SMTP:
        settings = self.outbound.settings
        kwargs = dict(hostname=settings.host, port=settings.port, timeout=settings.timeout_seconds)
        if settings.security == "tls":
            kwargs.update(use_tls=True, tls_context=self.outbound._tls())
        elif settings.security == "starttls":
            kwargs.update(start_tls=True, tls_context=self.outbound._tls())
        else:
            kwargs.update(start_tls=False, use_tls=False)
        client = aiosmtplib.SMTP(**kwargs)
        await client.connect()
        if settings.username:
            await client.login(settings.username, settings.password.get_secret_value())
        return client

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        recipients = [recipient] + ([self.outbound.sent_copy] if self.outbound.sent_copy else [])
        for attempt in (1, 2):
            try:
                if self.client is None:
                    self.client = self.loop.run_until_complete(self._connect())
                self.loop.run_until_complete(self.client.sendmail(self.outbound.sender, recipients, raw))
                return
            except (aiosmtplib.SMTPServerDisconnected, ConnectionError):
                self.client = None
                if attempt == 2:
                    raise

    def was_sent(self, message_id: str) -> bool:
        return self.outbound.was_sent(message_id)
