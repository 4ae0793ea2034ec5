"""Which line of a script answers a question: the first queued line of its kind in the current round
(issue 12).

A player writes a script in the order they expect the questions, and is sometimes wrong about it:
`ASSETS NONE` before `COORDINATE 22` when VMT asks the Coordinated Assault first, `ASSETS NONE` for
an assault whose Armor and Pioneer question never comes (the pool is empty), or twice for one
activation.  Read from its head only, such a script held every line after the misplaced one, and
the default answered the question in between: the player's COORDINATE was lost in silence.

So a question takes the first queued line that answers it (a line of its kind), even when lines of
other kinds come before it; lines of one kind are used in the order written.  The lines it goes
past are *passed over*: they stay queued for their own question.  Three limits keep a line from
answering a question it was not written for:

* **Rounds.**  A game names the kinds of question that open a new round of a player's questions
  within a phase (`GameInfo.opening_kinds`; VMT: `card`, each card played opens an activation with
  its own Coordinated Assault, Armor and Pioneer and move questions).  A question never reads past
  a line of such a kind: the lines after it are the next round's.  When a question of such a kind
  is asked, the round is over: the lines passed over in it expire, and so do the lines before the
  line that answers it (their questions did not come).  S34's `ASSETS NONE`, passed over because
  the pool was empty, expires at the next card question, so it can never answer the next assault's
  Armor and Pioneer question in place of the `ASSETS ARMOR …` written for that one.  The lines of a
  running script that no question of the round reached expire then too, up to the next round's first
  line (Narva's `ATTACK DONE` after an attack segment that ended by itself).  And S12's first
  assault, asked for Armor and Pioneer counters, does not reach the `ASSETS NONE` written after the
  third assault's card: the second assault's card line stands between them.
* **A running script.**  Only a script that answered a question in the current phase (the engine's
  `phase_label`: VMT's "T3-AXIS"), or a question that was open when the script was filed (its lines
  were written for it), is read past its head.  A script at rest, waiting for the player's next
  phase, is read from its head as before, so a defence question in the other player's phase never
  takes the SUPPORT line written for the player's own attack.  A line passed over expires, too,
  when the phase it was passed over in ends.
* **STOP.**  A STOP not reached yet is a wall: nothing after it is read (its IF is read when the
  script gets there, as before).
* **A round's own lines** (games that name `GameInfo.round_kinds`).  When a question takes a line, the
  lines right after it that answer questions a player is asked only in a round of their own (Narva:
  attach, move, attack, advance) are that round's: `mark_round` stamps them with the period.  If their question
  never comes (Narva's trailing `MOVE DONE` once every unit has moved, `ATTACK DONE` once no attack
  is left), they lapse at the next question of an opening kind, whatever phase it comes in and even
  when the player's message answers it (`last_rounds`), or when the period (the turn) ends
  (`past_period`), and the receipt and report say so.  Without this, a script at rest in the next turn
  was read from its head, and its stale `ATTACK DONE` would have skipped the first combat of the next
  turn's first activation.  The stamp stops at the first line of another kind (a `READY` or an
  `ACTIVATE` written for later keeps waiting for its question).

A game that names no opening kind keeps scripts read from their head only: without rounds, a line
passed over could wait for a later activation's question.  Everything here is pure: the runner
(core/runner.py) calls it with the script and the question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from moderator.core.plans import ScriptLine

#: Why a line expired unused (the receipt and the report say it).
PHASE_ENDED = "its question did not come before the phase ended"
ROUND_ENDED = "its question did not come before a {kind} question opened the next round"
PERIOD_ENDED = "its question did not come before the turn ended"


def pass_over(script: list[ScriptLine], used: int, kind: str, phase: str) -> None:
    """The lines before `script[used]`, which a question of `kind` has just gone past, are passed over
    (those passed over before keep what they had)."""
    for index in range(used):
        line = script[index]
        if not line.passed:
            script[index] = replace(line, passed=kind, phase=phase)


def round_ended(script: list[ScriptLine]) -> list[ScriptLine]:
    """A question of an opening kind is asked: the lines passed over leave `script` (returned)."""
    return _take(script, lambda line: bool(line.passed))


def round_over(script: list[ScriptLine], opens_round: Callable[[ScriptLine], bool]) -> list[ScriptLine]:
    """A question of an opening kind is asked of a running script: the lines before the next round's
    first line (or a STOP) were the last round's, whose questions did not come (a segment that ended by
    itself: Narva's MOVE DONE once every unit has moved); they leave `script` and are returned."""
    end = next((i for i, line in enumerate(script) if line.is_stop or opens_round(line)), len(script))
    gone = script[:end]
    del script[:end]
    return gone


def past_phase(script: list[ScriptLine], phase: str) -> list[ScriptLine]:
    """The lines passed over in another phase than `phase` leave `script`; they are returned."""
    return _take(script, lambda line: bool(line.passed) and line.phase != phase)


def reached(script: Sequence[ScriptLine], index: int) -> bool:
    """Every line before `script[index]` is passed over: the script has got to it."""
    return all(line.passed for line in script[:index])


def readable(script: Sequence[ScriptLine], index: int, running: bool,
             opens_round: Callable[[ScriptLine], bool]) -> bool:
    """Whether a question may read `script[index]`: the script has got to it, or (a running script) no
    STOP and no line opening the next round stands before it (module docstring)."""
    if reached(script, index):
        return True
    earlier = script[:index]
    return running and not script[index].is_stop and not any(line.is_stop or opens_round(line) for line in earlier)


def mark_round(script: list[ScriptLine], start: int, in_round: Callable[[ScriptLine], bool], mark: str) -> None:
    """A question took the line before `script[start]`: the lines from there that `in_round` accepts
    (lines of a round kind), up to the first it does not, belong to this round and are stamped `mark`."""
    for index in range(start, len(script)):
        line = script[index]
        if line.is_stop or not in_round(line):
            return
        if not line.in_round:
            script[index] = replace(line, in_round=mark)


def last_rounds(script: list[ScriptLine]) -> list[ScriptLine]:
    """A question of an opening kind is asked: the lines stamped by a round begun before it leave
    `script` (returned)."""
    return _take(script, lambda line: bool(line.in_round))


def past_period(script: list[ScriptLine], period: str) -> list[ScriptLine]:
    """The lines stamped by a round of another period than `period` leave `script` (returned)."""
    return _take(script, lambda line: bool(line.in_round) and line.in_round != period)


def _take(script: list[ScriptLine], leaves: Callable[[ScriptLine], bool]) -> list[ScriptLine]:
    """The lines `leaves` accepts leave `script`, in order; they are returned."""
    gone = [line for line in script if leaves(line)]
    script[:] = [line for line in script if not leaves(line)]
    return gone
