"""Builds player mails the way mail clients do, for tests."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime

_counter = itertools.count(1)


def player_mail(sender: str, body: str, subject: str = "orders", to: str = "moderator@demo.test",
                headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime(2026, 1, 1, tzinfo=UTC))
    msg["Message-ID"] = f"<t{next(_counter)}.{abs(hash(body)) % 10**8}@client.test>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg.as_bytes()
