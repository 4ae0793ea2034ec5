"""Absences: a seat's deadlines that fall while its player is away move past the absence (a
player's VACATION, the referee's ABSENT), and new deadlines are set with the absences counted."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.service.table import Table, dumps


def record_absence(table: Table, role: str, start: str, end: str,
                   now: datetime) -> tuple[str, dict[str, Any] | None]:
    """An absence moves the seat's deadlines that fall inside it past its end (plus the time lost).
    Returns the answer for the sender and what to log (None when nothing changed)."""
    seat = table.seats[role]
    try:
        zone = ZoneInfo(seat.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    try:
        first = datetime.fromisoformat(start).replace(tzinfo=zone)
        last = datetime.fromisoformat(end).replace(tzinfo=zone) + timedelta(days=1)
    except ValueError:
        return "Dates are written YYYY-MM-DD, e.g. 2026-07-01 2026-07-14.", None
    if last <= first:
        return "The absence must end after it starts.", None
    absences = json.loads(seat.absences_json or "[]")
    absences.append([first.astimezone(UTC).isoformat(), last.astimezone(UTC).isoformat()])
    seat.absences_json = dumps(absences)
    moved = {}
    for key, due in json.loads(seat.deadlines_json or "{}").items():
        moved[key] = push_past_absences(datetime.fromisoformat(due), now, absences).isoformat()
    seat.deadlines_json = dumps(moved)
    table.session.add(seat)
    return (f"{role} is away from {start} to {end}; deadlines falling then move past the absence.",
            {"role": role, "from": start, "to": end})


def push_past_absences(due: datetime, opened: datetime, absences: list[list[str]]) -> datetime:
    """A deadline keeps the time the player had before an absence: the overlap is added after it."""
    for start, end in absences:
        first, last = datetime.fromisoformat(start), datetime.fromisoformat(end)
        overlap = min(due, last) - max(opened, first)
        if overlap.total_seconds() > 0:
            due = due + overlap
    return due
