"""Local Maildir transports: the embedded default and the demo (DESIGN §6).

Inbound reads a Maildir's new/ folder; a message is moved to cur/ only after the caller has
committed it to the database.  Outbound writes each message into the recipient's own Maildir
(``ROOT/<address>/new``) under a name derived from its Message-ID, so writing the same message twice
leaves one file: a crash between "written" and "marked sent" cannot deliver twice.  The name starts
with the time of delivery, as Maildir names do, so a reader that lists a folder by name (Dovecot
numbers new mail that way) sees the mails in the order they were sent: a welcome before the first
report it announces, though both carry the same Date.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_SAFE = re.compile(r"[^a-z0-9@._+-]")


def ensure_maildir(path: Path) -> Path:
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return path


def mailbox_dir(root: Path, address: str) -> Path:
    return root / _SAFE.sub("_", address.lower())


_last_delivery = 0


def _delivery_time() -> int:
    """Nanoseconds since the epoch, never the same twice in this process (the order of delivery)."""
    global _last_delivery
    _last_delivery = max(time.time_ns(), _last_delivery + 1)
    return _last_delivery


def deliver(maildir: Path, raw: bytes, unique: str) -> Path:
    """Write `raw` into `maildir` atomically (tmp then rename); idempotent per `unique`."""
    ensure_maildir(maildir)
    name = hashlib.sha256(unique.encode()).hexdigest()[:32]
    # Written before (under an older name too: without the time), read or not: one file per message.
    for folder in ("new", "cur"):
        for earlier in (maildir / folder).glob(f"*{name}.moderator*"):
            return earlier
    final = maildir / "new" / f"{_delivery_time()}.{name}.moderator"
    temporary = maildir / "tmp" / f"{name}.{os.getpid()}"
    with open(temporary, "wb") as handle:
        handle.write(raw)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, final)
    return final


@dataclass(frozen=True)
class InboundItem:
    key: str
    path: Path

    def read(self) -> bytes:
        return self.path.read_bytes()


class MaildirInbox:
    """The moderator's own inbox as a Maildir."""

    def __init__(self, path: Path):
        self.path = ensure_maildir(path)

    def new_messages(self) -> Iterator[InboundItem]:
        for entry in sorted((self.path / "new").iterdir(), key=lambda p: (p.stat().st_mtime_ns, p.name)):
            if entry.is_file():
                yield InboundItem(entry.name, entry)

    def mark_processed(self, item: InboundItem, quarantined: bool = False) -> None:
        target = self.path / "cur" / (item.key.split(":", 1)[0] + ":2,S")
        if item.path.exists():
            os.replace(item.path, target)

    def drop(self, raw: bytes, unique: str) -> Path:
        """Put a message into the inbox (how the demo's players 'send' mail)."""
        return deliver(self.path, raw, unique)


class MaildirOutbound:
    """Delivers outgoing mail into one Maildir per recipient under `root`."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def send(self, raw: bytes, recipient: str, message_id: str) -> None:
        deliver(mailbox_dir(self.root, recipient), raw, message_id)

    def mailbox(self, address: str) -> Path:
        return ensure_maildir(mailbox_dir(self.root, address))
