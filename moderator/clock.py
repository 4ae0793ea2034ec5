"""Time is injected everywhere (DESIGN §7), so tests move the clock instead of sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


class ManualClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None):
        self._now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> datetime:
        self._now += timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when


def as_utc(when: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; every instant we store is UTC."""
    if when is None:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)
