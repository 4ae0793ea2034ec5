"""When a seat is mailed, and what the mail's subject says (issue 12, DESIGN §6 "Cadence").

A player is mailed when something is newly asked of them (or their script was held), when the game
ends, and at the end of each game turn (or phase: the game declares which in `GameInfo.report_every`);
what happened in between is folded into that mail.  `NOTIFY EVERY` asks for a mail whenever something
happens while the seat owes no answer (while it does, what others do meanwhile rides on the mail its
answer brings), `NOTIFY ASKED` only when something is asked.  The receipt of orders that were all accepted
rides on the sender's next report instead of going alone, unless none follows within
`receipt_hold_minutes` (the held-receipts job then sends it).  Whether a seat is mailed never
depends on another seat's hidden state: only on what is asked of this seat, the public turn and
phase, and this seat's own messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from moderator.core.contract import Decision, Engine
from moderator.core.runner import Step
from moderator.service.reports import local_time
from moderator.service.table import dumps
from moderator.store.models import Seat

Notify = Literal["every", "turn", "asked"]
#: The answers a player did not write at that moment: their standing orders, the game's, a deadline's.
ANSWERED_FOR_THEM = ("standing", "game-standing", "default")
#: At most this many of a question's other options are kept to tell the player what they could have said.
OTHER_OPTIONS = 6


@dataclass(frozen=True)
class Mark:
    """Where the game stands, to tell whether a run crossed the end of a turn or a phase."""

    turn: int
    phase: str

    @classmethod
    def of(cls, engine: Engine[Any], state: Any) -> Mark:
        return cls(engine.progress(state)[0], engine.phase_label(state))

    def passed(self, later: Mark, every: Literal["turn", "phase"]) -> bool:
        return later.turn != self.turn if every == "turn" else later.phase != self.phase


@dataclass(frozen=True)
class News:
    """What one run holds for one seat."""

    asked: bool  # a new question for the seat, or its script held
    events: bool  # something it may see happened
    boundary: bool  # a game turn (or phase) ended
    finished: bool
    receipt: bool  # the seat wrote the message that started this run
    remark: bool = False  # that message's receipt has something to say (a note, a problem)
    owes: bool = False  # a question the seat was mailed earlier still waits for its answer


def should_mail(notify: str, news: News, everyone: bool = False) -> bool:
    """Whether this run mails the seat (a quiet receipt with no other news waits: see `hold_receipt`)."""
    if everyone or news.asked or news.finished or news.remark:
        return True
    if notify == "every":
        # A seat that owes an answer it was already mailed waits on nothing but itself: what others
        # do meanwhile is their own answer to the same round ("Soviet is ready", "North has committed
        # a card"), and a game that changed the seat's question would ask it anew (`asked`).  Such a
        # mail would ask the old question again and tell nothing needed to answer it, so the news
        # rides on the mail the seat's answer brings.  `owes` is the seat's own question: no timing
        # of another seat's hidden state decides it.
        return (news.events and not news.owes) or news.boundary
    if notify == "asked":
        return False
    return news.boundary


# ---------------------------------------------------------------- receipts that wait


def has_remarks(receipt: dict[str, Any]) -> bool:
    """Whether a receipt says more than "your orders were received": such a receipt (or one that
    answers a message with no order in it, e.g. CONTINUE alone) is mailed at once, not held."""
    return bool(not receipt.get("lines") or receipt.get("notes") or receipt.get("problems")
                or any(not line.get("ok", True) for line in receipt.get("lines", [])))


def hold_receipt(seat: Seat, receipt: dict[str, Any], now: datetime) -> None:
    """Keep the receipt of accepted orders for the seat's next report."""
    held = json.loads(seat.held_receipts_json or "[]")
    held.append({"receipt": receipt, "held_at": now.isoformat()})
    seat.held_receipts_json = dumps(held)


def take_held_receipts(seat: Seat) -> list[dict[str, Any]]:
    """The receipts waiting for this seat's next mail, oldest first (and no longer waiting)."""
    held = json.loads(seat.held_receipts_json or "[]")
    seat.held_receipts_json = "[]"
    return [item["receipt"] for item in held]


def held_since(seat: Seat) -> datetime | None:
    """When the oldest receipt waiting for this seat was held, or None."""
    held = json.loads(seat.held_receipts_json or "[]")
    return min((datetime.fromisoformat(item["held_at"]) for item in held), default=None)


# ---------------------------------------------------------------- answers the player did not write


def missed_deadline(answer: dict[str, Any]) -> bool:
    """Whether a logged answer is a default applied because its deadline passed (a missed deadline,
    an NMR), not one taken at once because a standing order no longer fitted (core/runner.py): both
    are logged with the source "default"; only the first opens with the announcement of the default."""
    events = answer.get("events") or [{}]
    return answer.get("source") == "default" and events[0].get("kind") == "core.defaulted"


def answered_entry(step: Step) -> dict[str, Any]:
    """What a logged answer keeps so the owner's report can say that a standing order, the game's
    default or a deadline answered a question in which they had a real choice, or in which a standing
    order of theirs could not be used (else that order would seem to have been skipped in silence)."""
    # A keyed order the player wrote for the question and the engine refused is worth saying even where
    # the question had no other choice: the player meant to answer it.
    if step.source not in ANSWERED_FOR_THEM or (len(step.options) < 2 and not step.unfit and not step.keyed_unfit):
        return {}
    others = [option for option in step.options if option != step.text][:OTHER_OPTIONS]
    entry: dict[str, Any] = {"prompt": step.prompt, "choices": len(step.options), "others": others}
    if step.unfit:  # the default answered because this standing order did not fit (core/runner.py)
        entry.update(unfit=step.unfit, unfit_source=step.unfit_source, unfit_reason=step.unfit_reason)
    if step.keyed_unfit:  # only when set: the logged answers of other games keep their form
        entry["keyed_unfit"] = [list(pair) for pair in step.keyed_unfit]
    return entry


# ---------------------------------------------------------------- subjects


def report_subject(game_id: str, turn: int, role_title: str, asked: Sequence[Decision], deadlines: dict[str, str],
                   tz: str, outcome: str | None, observer: bool) -> str:
    """`[vmt-0001] Turn 3 Axis: your move, due Tue 02 Dec 18:00 CET`, `[vmt-0001] Turn 3 report`, or the result."""
    if outcome:
        return f"[{game_id}] Game over: {outcome}"
    if asked and not observer:
        dues = sorted(datetime.fromisoformat(deadlines[d.key]) for d in asked if d.key in deadlines)
        due = f", due {short_time(dues[0], tz)}" if dues else ""
        what = "your answer" if all(d.interrupts for d in asked) else "your move"
        return f"[{game_id}] Turn {turn} {role_title}: {what}{due}"
    return f"[{game_id}] Turn {turn} report"


def short_time(when: datetime, tz: str) -> str:
    """`Tue 02 Dec 18:00 CET` in the player's time zone (the year left out)."""
    text = local_time(when, tz)  # "Tue 02 Dec 2026 18:00 CET"
    day, date, month, _year, clock, zone = text.split(" ", 5)
    return f"{day} {date} {month} {clock} {zone}"
