"""How a failed hand-over of a message is written down, so the outbox can tell the kinds apart.

The transports (mail/smtp.py) write these texts and the outbox (service/outbox.py) reads their
prefixes: the kind of failure decides whether the try counts against the message's attempts.
"""

from __future__ import annotations

from moderator.core.errors import MailMaybeDelivered, MailServerUnavailable

WAITS_BEHIND = "waits behind an earlier message to the same address that failed"
# The server failed before it was offered the message (unreachable, refused our login, closing):
# the try backs off but does not count against the message's attempts, so a mail provider's
# outage of a weekend costs nobody a report.  The cap is for messages the server keeps refusing.
SERVER_UNAVAILABLE = "the mail server was unavailable"
# The connection broke while the server was taking the message: it may have gone.  The row stays
# 'handed', so the sent copy decides before it is sent again.
MAYBE_DELIVERED = "the connection broke while the server took the message"


def describe_failure(error: Exception) -> str:
    """How a failed hand-over is recorded: the kind of failure first."""
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, MailServerUnavailable):
        return f"{SERVER_UNAVAILABLE}: {text}"
    if isinstance(error, MailMaybeDelivered):
        return f"{MAYBE_DELIVERED}: {text}"
    return text
