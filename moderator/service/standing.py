"""The standing orders in force for a player, the game's defaults included, each with how to change
it (issue 12: "nothing decided for a player without their knowing").

Every report and the welcome mail list them: a player who filed nothing sees what the game will
answer for them (VMT's `SUPPORT NONE`, `COUNTERATTACK NONE` ...) and the line to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moderator.core.contract import Engine
from moderator.core.plans import ASK
from moderator.service.options import group_options


@dataclass(frozen=True)
class InForce:
    """One kind of question and what answers it for the player now."""

    kind: str
    title: str  # what the questions of this kind are about (the grammar's title for the kind)
    answers: tuple[str, ...]  # the player's own standing lines, or the game's default answer
    game_default: bool  # the answer is the game's, not the player's
    change: str  # one line: how to change it
    #: what answers when none of the player's lines does (all have IF): the game's default, or ASK; "": never
    fallback: str = ""

    @property
    def text(self) -> str:
        """The lines in the order they are tried, the game's default last when it can still answer."""
        answers = " / ".join(self.answers)
        if self.game_default:
            return f"{answers}  (the game's default)"
        tried = f"tried in this order: {answers}" if len(self.answers) > 1 else answers
        if not self.fallback:
            return tried
        return tried + ("; otherwise you are asked" if self.fallback == ASK else
                        f"; otherwise the game's default {self.fallback}")


def kind_of(rendered: str) -> str:
    """The kind of a standing line as `Standing.render` writes it: `STANDING SUPPORT IF ...: ...`."""
    return rendered.split()[1].rstrip(":").lower()


def is_conditional(rendered: str) -> bool:
    """Whether a standing line as `Standing.render` writes it has IF tests (else it is the kind's catch-all)."""
    return " IF " in rendered.split(":", 1)[0]


def standing_in_force(engine: Engine[Any], role: str, rendered: Sequence[str]) -> list[InForce]:
    """Every kind the game answers by default for `role`, then any other the player filed, in that order."""
    mine: dict[str, list[str]] = {}
    for line in rendered:
        mine.setdefault(kind_of(line), []).append(line)
    defaults = {d.kind: d.answer for d in engine.info.standing_defaults if d.applies_to(role)}
    kinds = list(dict.fromkeys([*defaults, *mine]))
    found = []
    for kind in kinds:
        title = engine.grammar.kind_titles.get(kind, kind)
        fallback = ""
        if kind in mine:
            answers, game_default = tuple(mine[kind]), False
            # Only IF lines: when none holds, the game's default answers (core/runner.py tries it after them).
            fallback = defaults.get(kind, ASK) if all(is_conditional(line) for line in answers) else ""
        else:
            answers, game_default = (defaults[kind] if defaults[kind] != ASK else "ASK (you are asked)",), True
        found.append(InForce(kind, title, answers, game_default, how_to_change(engine, kind, answers, game_default),
                             fallback))
    return found


def how_to_change(engine: Engine[Any], kind: str, answers: Sequence[str], game_default: bool) -> str:
    """One line: the form of a standing order of this kind (the way back is in CHANGE_NOTE).

    The form, not one of HELP's examples: an example names real blocks or cards (HITS 50/121 24/32),
    which in the other side's mail would read as a hint about pieces it has not seen."""
    forms = [readable_form(spec.syntax) for spec in engine.grammar.specs if spec.kind == kind]
    current = {answer.split(": ", 1)[-1] for answer in answers}
    example = next((f for f in forms if f not in current), forms[0] if forms else "<order>")
    # What every line shares (an IF test, ASK to be asked, STANDING CLEAR for the default) is said once,
    # above the list (CHANGE_NOTE): repeated on each of Narva's fifteen kinds it made the block 45 lines.
    return f"STANDING {kind}: {example}"


#: Said to a new player while the game's defaults ask rather than answer (Plan.ask_first).
ASKED_FIRST = ("Until you first send orders, or first let a deadline pass, the moderator asks you every "
               "question itself, with a deadline, so that nothing is decided for you before you have read this.")

#: Said once above the list of standing orders in force (report and welcome), for every line of it.
CHANGE_NOTE = ("To change one, send the line under it (add IF <test> before the colon for a conditional "
               "order); ASK <kind> to be asked instead; STANDING CLEAR <kind> to go back to the game's default.")


def readable_form(syntax: str) -> str:
    """A grammar form as a player reads it: `HITS <blocks:block...>` becomes `HITS <blocks...>`."""
    return re.sub(r"<(\w+):\w+(\.\.\.)?>", r"<\1\2>", syntax)


#: At most this many (grouped) other answers are named: a few show the choice there was; Narva's five or
#: six long MOVE and ATTACK alternatives made each line of a report four lines long.
OTHERS_SHOWN = 3


def answered_line(answered: Mapping[str, Any]) -> str:
    """One line of "answered for you" (an entry of `Table.answered_since`): which standing order or
    default answered what, and what else was open.  When a standing order was passed over because its
    answer was not legal then, the line says so and names that order: no deadline passed (core/runner.py)."""
    text, prompt, others, choices = answered["text"], answered["prompt"], answered["others"], answered["choices"]
    who = answered_by(answered["source"], text, answered.get("unfit", ""), answered.get("unfit_source", ""),
                      answered.get("deadline", False), answered.get("keyed_unfit", ()),
                      answered.get("unfit_reason", ""))
    groups = group_options(others)
    listed = " | ".join(groups[:OTHERS_SHOWN])
    question = question_head(prompt)
    if answered.get("repeats", 1) > 1:
        more = answered["repeats"] - 1
        question += f" (and the {more} question{'s' if more > 1 else ''} like it that followed)"
    if not others:  # listed only because a standing or keyed order could not be used: there was no choice
        return f"{who} answered: {question} (the only legal answer)."
    if choices - 1 > len(others) or len(groups) > OTHERS_SHOWN:
        # The question is past, so OPTIONS cannot show the rest; no total either: where the options are a
        # sample of the legal answers (Narva's moves, Engine.answers) it would undercount them.
        return f"{who} answered: {question} (you could have answered, among others, {listed})."
    return f"{who} answered: {question} (you could have answered {listed})."


def answered_by(source: str, text: str, unfit: str, unfit_source: str, deadline: bool,
                keyed: Sequence[Sequence[str]] = (), unfit_reason: str = "") -> str:
    """Who answered: the player's standing order, the game's, or the game's default, and why; when the
    player's keyed orders for the question were not legal then (`keyed`: each line as written, with the
    engine's reason), or a standing order was passed over for that reason, those first, with the
    refusal's reason when the log kept it (answers logged before it did have none)."""
    if deadline:
        return f"The deadline passed: the default {text}"
    if unfit or keyed:
        said = [keyed_not_legal(keyed)] if keyed else []
        if unfit:
            whose = "Your standing order" if unfit_source == "standing" else "The game's standing default"
            why = f" ({unfit_reason})" if unfit_reason else ""
            said.append(f"{whose if not keyed else whose[0].lower() + whose[1:]} {unfit} was not legal "
                        f"{'either' if keyed else 'for this question'}{why}")
        answer = {"standing": "your standing order", "game-standing": "the game's standing default"}.get(
            source, "the game's default")
        return f"{'; '.join(said)}, so {answer} {text}"
    if source == "standing":
        return f"Your standing order {text}"
    if source == "game-standing":
        return f"The game's standing default {text} (you filed none for this)"
    # logged before answers named the order that did not fit: only such a default is listed here
    return f"A standing order could not be used here, so the game's default {text}"


def keyed_not_legal(keyed: Sequence[Sequence[str]]) -> str:
    """`Your keyed order line 20, 'ON ...', was not legal for this question (why)`: the player's ON lines
    the engine refused for the question (each "line N: ON ..."), with the engine's reason for that
    player's own order (core/runner.py), as a held script line is told."""
    named = []
    for line, why in keyed:
        number, _, order = line.partition(": ")
        # A line whose reason its receipt in the same mail gives is named by its number only (told_in_receipts).
        named.append((f"{number}, '{order}'", why) if why else (number, ""))
    above = " (why: under YOUR MESSAGE above)" if any(not why for _, why in named) else ""
    if len(named) == 1:
        name, why = named[0]
        because = f" ({why})" if why else above
        return f"Your keyed order {name}{',' if why else ''} was not legal for this question{because}"
    listed = " and ".join(f"{n} ({why})" if why else n for n, why in named)
    return f"Your keyed orders {listed} were not legal for this question{above}"


def told_in_receipts(answered: Sequence[Mapping[str, Any]], receipts: Sequence[Mapping[str, Any]]
                     ) -> list[Mapping[str, Any]]:
    """The answered entries, with the reason of a refused keyed line left out where a receipt of the same
    mail shows that line with its reason (a tester's Narva mail said each reason twice, 6 KB of a report)."""
    told = {f"line {line.get('line_no')}: {line.get('canonical')}" for receipt in receipts
            for line in receipt.get("lines", []) if line.get("why")}
    if not told:
        return list(answered)
    return [dict(entry, keyed_unfit=[[label, "" if label in told else why] for label, why in entry["keyed_unfit"]])
            if entry.get("keyed_unfit") else entry for entry in answered]


#: A question's first sentence longer than this is named by what comes before its colon.
HEAD_CHARS = 80


def question_head(prompt: str) -> str:
    """What a question was about, in its own words: its first sentence ("Before the next Soviet card: an
    Air Strike (Reaction)?"), or when that is long the part before its colon ("Combat in A08"), cut at a
    word if it is still long.  (The whole prompt was in the report that asked; repeated, it made each
    answered line four lines long.)"""
    sentence = re.split(r"(?<=[.?!])\s", prompt.strip(), maxsplit=1)[0].rstrip(".")
    if len(sentence) <= HEAD_CHARS:
        return sentence
    head = sentence.split(": ", 1)[0]
    if len(head) <= HEAD_CHARS:
        return head
    return head[:HEAD_CHARS].rsplit(" ", 1)[0].rstrip(",;") + " …"


#: What two answers must share to be told as one (besides a question of the same shape).
SAME_ANSWER = ("source", "text", "others", "choices", "unfit", "unfit_source", "unfit_reason", "keyed_unfit",
               "deadline")


def fold_repeats(answered: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Answers in a row by the same order to questions of one shape (Narva's "Chit barrage: 4 barrage
    attack(s) left", then 3, 2, 1) told once, with how many followed: four lines that differ in one
    digit made a tester's report longer, not clearer."""
    folded: list[dict[str, Any]] = []
    for entry in answered:
        last = folded[-1] if folded else None
        if last is not None and all(last.get(key) == entry.get(key) for key in SAME_ANSWER) \
                and shape(last["prompt"]) == shape(entry["prompt"]):
            last["repeats"] = last.get("repeats", 1) + 1
        else:
            folded.append(dict(entry))
    return list(folded)


def shape(prompt: str) -> str:
    """A question's head with its numbers left out."""
    return re.sub(r"\d+", "#", question_head(prompt))
