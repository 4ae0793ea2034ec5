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

    def was_sent(self, message_id: str) -> bool:
        """Did an earlier attempt already hand this message over?  (Needs the sent copy.)"""
        return bool(self._already_sent and self._already_sent(message_id))
