"""The referee's hand on mail kept in quarantine, and on the game's time zone (issue 12).

A message about a game that the mailroom kept unprocessed (a stranger's, one from another address
than the seat's, one whose processing failed) is listed by number in the referee's digest and
STATUS.  `RELEASE <number>` hands it back to the mailroom as if it had just arrived: it is marked
new and read once the referee's command is committed (service/mailroom.py; the CLI does the same),
so every check a message passes runs again; it is not let through unchecked.  `DISMISS <number>`
takes it off the list unprocessed (its bytes stay stored).  `TIMEZONE <zone>` sets the time zone
the referee's digests and STATUS give times in (`new-game --referee-tz`, changed later).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.mail.echo import clip
from moderator.service.owed import REFEREE_TIMEZONE
from moderator.service.table import Table, dumps
from moderator.store import inbound as inbound_rows
from moderator.store.models import InboundMail

#: What a handler answers: the text for the referee, and what to log (None: nothing changed).
Answer = tuple[str, dict[str, Any] | None]
#: How much of a kept message's sender and subject an answer quotes.
QUOTED_CHARS = 80


def release(table: Table, argument: str, now: datetime) -> Answer:
    """RELEASE <number>: the kept message is read again as if it had just arrived."""
    kept = _kept(table, argument, "RELEASE")
    if isinstance(kept, str):
        return kept, None
    inbound_rows.release(table.session, kept, "new", f"released by the referee at {now:%Y-%m-%d %H:%M} UTC")
    return (f"Message #{kept.id} ({_named(kept)}) is released: it is read now as if it had just arrived, with "
            f"every check a message passes (a sender who is not the seat's is kept again)."), {"inbound_id": kept.id}


def dismiss(table: Table, argument: str, now: datetime) -> Answer:
    """DISMISS <number>: the kept message leaves the quarantine unprocessed."""
    kept = _kept(table, argument, "DISMISS")
    if isinstance(kept, str):
        return kept, None
    inbound_rows.release(table.session, kept, "dismissed", f"dismissed by the referee at {now:%Y-%m-%d %H:%M} UTC")
    return (f"Message #{kept.id} ({_named(kept)}) is dismissed: it is never processed and no longer listed."), {
        "inbound_id": kept.id}


def set_time_zone(table: Table, argument: str, now: datetime) -> Answer:
    """TIMEZONE <zone>: the time zone of the referee's digests and STATUS."""
    zone = argument.strip()
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return f"'{clip(zone, QUOTED_CHARS)}' is not a time zone name; use one like Europe/Madrid or UTC.", None
    settings: dict[str, Any] = json.loads(table.game.settings_json or "{}")
    before = str(settings.get(REFEREE_TIMEZONE) or "UTC")
    settings[REFEREE_TIMEZONE] = zone
    table.game.settings_json = dumps(settings)
    return (f"Times in your digests and STATUS answers are now given in {zone} (they were in {before})."), {
        "before": before, "zone": zone}


def _kept(table: Table, argument: str, command: str) -> InboundMail | str:
    """The message kept in quarantine for this game that `argument` numbers, or why there is none."""
    try:
        number = int(argument.strip().lstrip("#"))
    except ValueError:
        return (f"{command} needs the number of a kept message: {command} 17 for the one the digest and STATUS "
                f"list as #17.")
    found = inbound_rows.kept_message(table.session, table.game.id, number)
    if found is None:
        listed = ", ".join(f"#{k.inbound_id}" for k in inbound_rows.quarantined_for_game(table.session, table.game.id))
        return (f"No message #{number} is kept in quarantine for {table.game.id}; kept now: {listed or 'none'}.")
    return found


def _named(row: InboundMail) -> str:
    return f"from {clip(row.sender, QUOTED_CHARS)}, subject '{clip(row.subject, QUOTED_CHARS)}'"
