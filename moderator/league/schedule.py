"""A league's calendar (issue 15): when rounds start and end, and the `.ics` feed of every deadline of
a member's games (the round's end, and each open decision's deadline in their running games)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from icalendar import Calendar, Event


def round_end(starts_at: datetime, round_days: float) -> datetime:
    """A round lasts the league's declared number of days from its start."""
    return starts_at + timedelta(days=round_days)


@dataclass(frozen=True)
class Deadline:
    """One deadline for the calendar: when, a short title, and what it is about."""

    uid: str
    at: datetime
    title: str
    detail: str = ""


def calendar(name: str, deadlines: Sequence[Deadline], stamp: datetime) -> bytes:
    """An iCalendar feed (RFC 5545) with one event per deadline, each a quarter of an hour long
    ending at the deadline, so a calendar shows it before it passes."""
    feed = Calendar()
    feed.add("prodid", "-//moderator//league deadlines//EN")
    feed.add("version", "2.0")
    feed.add("x-wr-calname", name)
    for deadline in sorted(deadlines, key=lambda d: d.at):
        event = Event()
        event.add("uid", deadline.uid)
        event.add("dtstamp", stamp)
        event.add("dtstart", deadline.at - timedelta(minutes=15))
        event.add("dtend", deadline.at)
        event.add("summary", deadline.title)
        if deadline.detail:
            event.add("description", deadline.detail)
        feed.add_component(event)
    return bytes(feed.to_ical())
