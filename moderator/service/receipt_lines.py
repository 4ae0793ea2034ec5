"""What happened to each line of a message, as its receipt says it (issue 12: "a receipt never says
Accepted for a line that did not run").

Every order line is shown as *ran*, *queued* (with the question it waits for, and whether a later
line was used before it), *held* (with the reason), *not run* (after a held line), *skipped* (its IF
did not hold), *not used* (passed over, its question can no longer come: core/script_order.py),
*filed* (a standing order), or, when the message could not be read, *refused* (the bad line, with
why) and *read* (the others: nothing was applied).  Prose is *ignored*.  A CHECK says the same in
the conditional: *would run*, *would wait*, *would be refused*, *would not be used*.

The statuses are worked out when the run is done, from the runner's log of the lines that left the
script (a question takes the first line of its kind, not always the head, so the log says which);
the lines still in the script are queued.  A quiet receipt that waits for the seat's next report
keeps the statuses of the run it came from, brought up to date from the logged answers and holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moderator.core.plans import AgendaLine, ScriptLine

#: The label of each status in a receipt, and in a CHECK.
LABELS = {"ran": "ran", "queued": "queued", "held": "held", "not run": "not run", "skipped": "skipped",
          "not used": "not used", "filed": "filed", "refused": "refused", "read": "read", "ignored": "ignored",
          "not applied": "not applied"}
#: The order in which a verdict counts them.
ORDER = ("ran", "queued", "held", "not run", "skipped", "not used", "filed", "not applied")
CHECK_LABELS = dict(LABELS, ran="would run", queued="would wait", held="would be refused",
                    skipped="would skip", filed="would file", **{"not used": "would not be used"})


@dataclass(frozen=True)
class Fate:
    """What happened to one line: its status and, where it helps, why."""

    status: str
    why: str = ""


def script_fates(script: Sequence[ScriptLine], remaining: Sequence[ScriptLine],
                 log: Sequence[tuple[ScriptLine, str, str]], waits_for: Callable[[ScriptLine], str]) -> list[Fate]:
    """The fate of each line of `script` (the seat's script as the run began): what the run's log says
    became of it (ran, skipped, held, not run, not used), else queued, with the question it waits for
    (module docstring).  Lines that are the same are matched in the order written, as they are used."""
    left = list(log)
    fates = []
    for line in script:
        entry = next((item for item in left if item[0] == line), None)
        if entry is not None:
            left.remove(entry)
            fates.append(Fate(entry[1], entry[2]))
            continue
        still = next((queued for queued in remaining if queued == line), line)
        passed = "; passed over: a line written after it answered first, and it expires if the game comes " \
                 "round without asking it" if still.passed else ""
        fates.append(Fate("queued", waits_for(line) + passed))
    return fates


def settle_lines(receipt: dict[str, Any], positions: dict[int, int], fates: Sequence[Fate],
                 agenda_lines: Mapping[int, int], agenda_used: set[int], check: bool = False,
                 standing_why: Mapping[int, str] | None = None, keyed_why: Mapping[int, str] | None = None) -> None:
    """Write each order line's status into the receipt (script lines by their place in the filed
    script; keyed orders by whether a question used them (`agenda_lines`: each ON line's number -> the
    number of the agenda line that stands for it, kept in the receipt when it is another's); ON CLEAR
    and an ON line already waiting with what it did (`keyed_why`); standing orders are filed, each with
    what it did: `standing_why`, by line number)."""
    standing_why, keyed_why = standing_why or {}, keyed_why or {}
    labels = CHECK_LABELS if check else LABELS
    for line in receipt.get("lines", []):
        if line.get("status") in ("ignored", "refused", "not applied"):
            continue
        number = line["line_no"]
        if number in positions and positions[number] < len(fates):
            fate = fates[positions[number]]
        elif number in agenda_lines:
            if agenda_lines[number] != number:  # the same line filed before stands for it (core/agenda.py)
                line["stands_for"] = agenda_lines[number]
            fate = Fate("ran") if number in agenda_used else \
                Fate("queued", keyed_why.get(number, "a keyed order: used by the first question it fits this turn"))
        elif number in keyed_why:
            fate = Fate("filed", keyed_why[number])
        elif number in standing_why:
            fate = Fate("filed", standing_why[number])
        else:
            fate = Fate("filed", "in force from now on") if str(line.get("canonical", "")).startswith(
                ("STANDING", "ON CLEAR")) else Fate("filed")
        mark(line, fate, labels)


def catch_up(receipts: Sequence[dict[str, Any]], answers: Sequence[dict[str, Any]],
             holds: Sequence[dict[str, Any]]) -> None:
    """Receipts that waited for this report: their queued lines that a later run used (`answers`,
    `holds`: the seat's logged answers and holds since its last report) now say what became of them."""
    for receipt in receipts:
        for line in receipt.get("lines", []):
            if line.get("status") == "queued":
                fate = _later_fate(line.get("stands_for", line["line_no"]), str(line.get("canonical") or ""),
                                   answers, holds)
                if fate is not None:
                    mark(line, fate)
        if str(receipt.get("verdict", "")).startswith("Of your orders"):
            receipt["verdict"] = summary(receipt)


def _later_fate(number: int, canonical: str, answers: Sequence[dict[str, Any]],
                holds: Sequence[dict[str, Any]]) -> Fate | None:
    """What a later run did with a queued line, from the logged answers and holds (None: still queued)."""
    order = canonical.split(": ", 1)[-1]  # the order of a guarded (IF) or keyed (ON) line
    for hold in holds:
        if hold.get("unused") and hold.get("line") == number and hold.get("text") == canonical:
            return Fate("not used", str(hold.get("reason", "")))
    for hold in holds:
        if hold.get("line") == number and hold.get("text") in (canonical, "STOP"):
            return Fate("ran", "the script stopped here") if hold["text"] == "STOP" else \
                Fate("held", str(hold.get("reason", "")))
    if any(a.get("source") in ("script", "agenda") and a.get("line") == number and a.get("text") == order
           for a in answers):
        return Fate("ran")
    stop = next((h for h in holds if canonical in h.get("held", [])), None)
    if stop is not None:
        return Fate("not run", "after STOP" if stop.get("text") == "STOP" else f"line {stop.get('line')} was held")
    return None


#: Why a keyed (ON) line shown queued in a receipt was not used after all.
EXPIRED_WHY = "its turn ended before a question fitted it"


def expired_why(line: AgendaLine) -> str:
    """Why a keyed line expired: no question fitted it, or one did and the engine refused the order
    (core/runner.py keeps the last reason: the player's own order, judged as a held line is)."""
    return f"its question came, but it was not legal then: {line.refused}" if line.refused else EXPIRED_WHY


def mark_expired(receipts: Sequence[dict[str, Any]], expired: Sequence[AgendaLine]) -> list[AgendaLine]:
    """Keyed (ON) lines that expired unused when their turn ended: a receipt going out in the same mail
    that would still call them queued now says "not used" and why (a line is shown once, with its
    last fate: issue 12, "a receipt never says queued for a line that did not wait").  Returns the
    lines no receipt of this mail showed, which the report lists on their own."""
    rest = []
    for agenda_line in expired:
        text, shown = agenda_line.render(), False
        for receipt in receipts:
            for line in receipt.get("lines", []):
                if line.get("status") == "queued" and line.get("stands_for", line.get("line_no")) == \
                        agenda_line.line_no and line.get("canonical") == text:
                    mark(line, Fate("not used", expired_why(agenda_line)))
                    shown = True
                    if str(receipt.get("verdict", "")).startswith("Of your orders"):
                        receipt["verdict"] = summary(receipt)
        if not shown:
            rest.append(agenda_line)
    return rest


def expired_listing(receipts: Sequence[dict[str, Any]], expired: Sequence[AgendaLine]) -> list[str]:
    """The report's list of keyed lines that expired unused and no receipt of its mail shows (`mark_expired`),
    each with why where its question came and the engine refused it."""
    return [f"line {line.line_no}: {line.render()}" + (f" ({expired_why(line)})" if line.refused else "")
            for line in mark_expired(receipts, expired)]


def mark(line: dict[str, Any], fate: Fate, labels: dict[str, str] = LABELS) -> None:
    """Write a line's fate; a note from reading it ("YES stands for COVER") stays when the fate has none."""
    line["why"] = fate.why or (line.get("why", "") if line.get("status") == "read" else "")
    line["status"] = fate.status
    line["label"] = labels.get(fate.status, fate.status)


def mark_all(receipt: dict[str, Any], status: str, why: str, statuses: tuple[str, ...] = ()) -> None:
    """Every order line (of `statuses`, or all that are neither prose nor refused) gets `status`."""
    for line in receipt.get("lines", []):
        current = line.get("status")
        if current in ("ignored", "refused") or (statuses and current not in statuses):
            continue
        mark(line, Fate(status, why))


def summary(receipt: dict[str, Any], check: bool = False) -> str:
    """`Of your orders, 2 ran and 1 is queued.`: how many order lines of the message had each fate."""
    counts: dict[str, int] = {}
    for line in receipt.get("lines", []):
        if line.get("status") not in (None, "ignored", "refused", "read"):
            counts[line["status"]] = counts.get(line["status"], 0) + 1
    if not counts:
        return "Your message held no orders."
    told = [_counted(status, counts[status], check) for status in ORDER if status in counts]
    listed = told[0] if len(told) == 1 else ", ".join(told[:-1]) + " and " + told[-1]
    return f"{'Sent now, of your orders' if check else 'Of your orders,'} {listed}."


def _counted(status: str, count: int, check: bool) -> str:
    """`2 ran`, `1 is queued`, `3 would wait`."""
    if check:
        return f"{count} {CHECK_LABELS.get(status, status)}"
    verb = {"ran": "ran", "skipped": "were skipped" if count > 1 else "was skipped",
            "not run": "did not run", "not used": "were not used" if count > 1 else "was not used"}.get(status)
    if verb is None:
        verb = ("are " if count > 1 else "is ") + status
    return f"{count} {verb}"
