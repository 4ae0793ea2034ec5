"""What the moderator takes for an e-mail address when it is told one (a seat's, the referee's, an
observer's on the command line): a bare address, name@domain, nothing around it."""

from __future__ import annotations

import re

from moderator.mail.echo import clip

# Permissive on purpose (internationalised names pass): it refuses what cannot be an address
# someone meant, not every address RFC 5321 would refuse.
_ADDRESS = re.compile(r'[^\s@<>()\[\],;:"]+@[^\s@<>()\[\],;:".]+(\.[^\s@<>()\[\],;:".]+)*')
MAX_ADDRESS_CHARS = 254  # RFC 5321, 4.5.3.1.3: a path holds at most 256 characters with its brackets


def address_problem(text: str) -> str | None:
    """Why `text` is not an e-mail address, or None when it is one."""
    if not text:
        return "an empty address"
    if len(text) > MAX_ADDRESS_CHARS or not _ADDRESS.fullmatch(text):
        return f"'{clip(text, 60)}' is not an e-mail address (write it as name@example.org)"
    return None
