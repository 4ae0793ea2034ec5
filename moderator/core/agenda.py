"""A seat's keyed orders (ON lines) after a message: the message's lines are added to them.

Issue 12 says a filed order is never dropped without the receipt saying so.  A Narva player files
the turn's ON lines at READY and answers questions in between; when a message's ON lines replaced
the agenda, one ON line written beside an attack dropped the chits' activations in silence
(notes/hand-narva.md, turn 8).  So:

* each ON line of a message is added to the keyed orders waiting for the current period, except one
  the same (same tests, same order) as a line already waiting: that one is not added twice.  Lines
  are matched one for one, so a line written twice in one message waits twice (Narva's two chits of
  one corps: "ON CHIT 2SH: ACTIVATE 109" twice);
* ``ON CLEAR`` drops every keyed order filed before the message, ``ON CLEAR <test>…`` those whose tests
  are exactly those (``ON CLEAR ANY``: those written ``ON ANY``); never the message's own ON lines,
  wherever it stands in the message (so "ON CLEAR" and new ON lines replace the agenda, as they did);
* lines of an earlier period stay where they are: the runner expires them and the report lists them.

The merge says, for the receipt, which agenda line each ON line of the message stands for (itself, or
the one already waiting), what each ON CLEAR dropped, and which earlier lines still wait.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from moderator.core.plans import AgendaClear, AgendaLine, same_tests


@dataclass(frozen=True)
class AgendaMerge:
    """What a message did to a seat's keyed orders."""

    agenda: list[AgendaLine]
    #: each ON line's number -> the agenda line that stands for it (itself, stamped, or the same one waiting)
    stands_for: dict[int, AgendaLine] = field(default_factory=dict)
    #: what an ON CLEAR did, or that an ON line was waiting already (by line number)
    effects: dict[int, str] = field(default_factory=dict)
    #: the keyed orders the message's ON CLEAR lines dropped, as `render` writes them
    dropped: tuple[str, ...] = ()
    #: the keyed orders filed before the message, for this period, that still wait after it
    kept: tuple[str, ...] = ()


def same_keyed(a: AgendaLine, b: AgendaLine) -> bool:
    """The same keyed order: the same order under the same tests (in whatever order written)."""
    return a.kind == b.kind and a.text == b.text and same_tests(a.guard, b.guard)


def merge_agenda(agenda: Sequence[AgendaLine], changes: Sequence[AgendaLine | AgendaClear],
                 period: str | None) -> AgendaMerge:
    """The seat's keyed orders after a message's ON lines and ON CLEARs (module docstring); the
    message's lines are stamped with `period`, the game's current one, so they expire with it."""
    merged = list(agenda)
    effects: dict[int, str] = {}
    dropped: list[str] = []
    for clear in (change for change in changes if isinstance(change, AgendaClear)):
        gone = [line for line in merged if clear.matches(line)]
        merged = [line for line in merged if not clear.matches(line)]
        dropped += [line.render() for line in gone]
        effects[clear.line_no] = dropped_note(gone)
    before = [line for line in merged if line.period in (None, period)]  # those a new line may repeat
    unmatched = list(before)
    stands_for: dict[int, AgendaLine] = {}
    for change in (change for change in changes if isinstance(change, AgendaLine)):
        same = next((line for line in unmatched if same_keyed(line, change)), None)
        if same is not None:
            unmatched.remove(same)
            stands_for[change.line_no] = same
            effects[change.line_no] = (f"the same keyed order, line {same.line_no} of an earlier message, waits "
                                       f"already, so it was not added twice")
            continue
        stamped = replace(change, period=period)
        merged.append(stamped)
        stands_for[change.line_no] = stamped
    return AgendaMerge(merged, stands_for, effects, tuple(dropped), tuple(line.render() for line in before))


def dropped_note(gone: Sequence[AgendaLine]) -> str:
    """What an ON CLEAR line did, for its receipt line."""
    if not gone:
        return "you had no such keyed order"
    return f"dropped {len(gone)} keyed order{'s' if len(gone) > 1 else ''}"
