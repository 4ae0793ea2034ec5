"""Human text among the orders (issue 12, DESIGN §4 "The text format").

People write "Hi Ref," above their orders and "Thanks – and sorry, Alice" below them.  Such a line
is reported as "not an order, ignored" and holds nothing back.  A line that *looks like* an order
and cannot be read still holds the whole message back, as it always has: guessing around a
mistyped order is how a player loses a move.  A line looks like an order when

* it starts with an order keyword (or a word of the script language: STOP, STANDING, ASK, ON, IF);
* or it starts with a number or a name the player's orders use (a unit, an area, a card), or with a
  word and a colon ("Plan:"), and nothing after it reads as prose: "50/121 TO A08" is an order gone
  wrong, but "A06 back. Fort Stalin needs a garrison.", "24th Division marches to North Fort",
  "Lyubimovka is ours.", "12-0. Now hold on." and "Plan: the 24th takes the fort." are a player's
  comments (no order begins with a name or a number, and a word of prose says so);
* or it starts with an abbreviation of a keyword (three letters or more; two only when an order
  word follows: "Hi Ref," begins like HITS but is a greeting);
* or it starts with a near miss of a keyword (one typing slip: a letter wrong, missing, doubled or
  two swapped; two in a long word): "ATACK now", "Retrat to C03", "asault division 22", unless a
  sentence of prose follows it ("Lost the tank, damn.": a comma or a full stop, two words of prose or
  more, no number, name or keyword).  A slip on
  the first letter is rarer than a word that happens to be close ("Best regards" is one letter from
  REST), so then something else in the line must read like an order (a number, a name, a keyword);
* or it starts with a word that orders hold inside (VMT's ATTACK, DIVISION), as written or with a
  slip, and something else in the line reads like an order: "atack A07" (AIRSTRIKE ATTACK A07 or an
  assault, gone wrong).

A word of prose is a word of two letters or more that is no keyword, no name, no abbreviation of a
keyword (three letters or more) and no near miss of one: "back", "needs", "is", "Now", "the".

YES and NO alone answer the yes/no question asked now (see `yes_no_answers`); so does NONE alone, as
NO, in a game where NONE is no order of its own.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from moderator.core.grammar import Grammar, Lexicon, tokenize

#: The words of the script language (core/plans.py) that begin a line.
SCRIPT_WORDS = ("STOP", "STANDING", "ASK", "ON", "IF")
#: The words that answer a yes/no question.
YES, NO = "YES", "NO"
#: Alone, in a game with no order of that word: says no, as NO does ("You hold no Fighter Cover
#: card, so NONE is your only answer" is answered "none" by a person, not "COVER NONE").
NONE = "NONE"
#: Punctuation that ends a word of prose ("Hi," "Thanks!") but is never part of an order word.
_PROSE_MARKS = ",.;:!?…"
#: Keywords that are also everyday English: alone they do not make prose read as an order.
_COMMON_WORDS = frozenset({"TO", "AND", "WITH", "AT", "VIA", "IF", "ON", "NO", "NOT", "ALL", "ANY", "NEXT"})


def plain_word(token: str) -> str:
    """A token as a word: upper case, without the punctuation prose puts after it."""
    return token.upper().rstrip(_PROSE_MARKS)


def slips(a: str, b: str) -> int:
    """Typing slips between two words: letters wrong, missing or extra, and neighbours swapped
    (the optimal-string-alignment distance)."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def near_miss(word: str, keywords: Iterable[str]) -> bool:
    """`word` is one typing slip from a keyword (two for a word of eight letters or more)."""
    if len(word) < 4 or not word.isalpha():
        return False
    allowed = 2 if len(word) >= 8 else 1
    return any(abs(len(k) - len(word)) <= allowed and slips(word, k) <= allowed for k in keywords)


def is_abbreviation(word: str, keywords: Iterable[str]) -> bool:
    """`word` (two letters or more) begins a keyword, as the grammar accepts."""
    return len(word) >= 2 and word.isalpha() and any(k.startswith(word) and k != word for k in keywords)


@dataclass(frozen=True)
class OrderWords:
    """What an order line of one game may start with, and the words inside orders."""

    keywords: frozenset[str]  # the first words of the game's orders and of the script language
    inner: frozenset[str]  # every other keyword of the orders (TO, WITH, NONE, AUTO ...)
    lexicon: Lexicon

    @classmethod
    def of(cls, grammar: Grammar, lexicon: Lexicon, kinds: Iterable[str] = ()) -> OrderWords:
        """The words of `grammar`, the names of `lexicon`, and the decision kinds (for ASK <kind>)."""
        first = frozenset(grammar.keywords) | frozenset(SCRIPT_WORDS)
        # Upper-case words of the syntax: keywords, and the choices of slots (<mode:ATTACK|INTERDICT>).
        inner = frozenset(word for spec in grammar.specs for word in re.findall(r"[A-Z][A-Z_]+", spec.syntax))
        inner |= {kind.upper() for kind in kinds} | {"CLEAR"}
        return cls(first, inner - first - _COMMON_WORDS, lexicon)

    def is_name(self, token: str) -> bool:
        """An exact name or alias the player's orders use (a unit, an area, a card ...)."""
        word = token.rstrip(_PROSE_MARKS)
        return any(self.lexicon.lookup(kind, word) is not None for kind in self.lexicon.names)

    def reads_as_order(self, token: str) -> bool:
        """A token that only an order would hold: a number, a name, a keyword."""
        word = plain_word(token)
        return bool(word) and (any(c.isdigit() for c in word) or word in self.keywords or word in self.inner
                               or self.is_name(token))

    def is_prose(self, token: str) -> bool:
        """A word no order holds, even mistyped: not a keyword, a name, an abbreviation or a near miss."""
        word = plain_word(token).replace("'", "").replace("’", "")
        if len(word) < 2 or not word.isalpha() or word in _COMMON_WORDS or self.reads_as_order(token):
            return False
        every = self.keywords | self.inner
        return not (len(word) >= 3 and is_abbreviation(word, every)) and not near_miss(word, every)

    def is_inner(self, word: str) -> bool:
        """A word orders hold inside (ATTACK, DIVISION), as written, cut short or with a slip."""
        return word in self.inner or (len(word) >= 3 and is_abbreviation(word, self.inner)) \
            or near_miss(word, self.inner)


def looks_like_order(text: str, words: OrderWords) -> bool:
    """Whether a line that is neither envelope nor command is meant as an order (module docstring)."""
    tokens = tokenize(text)
    if not tokens:
        return False
    first = plain_word(tokens[0])
    rest = tokens[1:]
    if first in SCRIPT_WORDS and first != "STOP":
        # "On Monday ..." and "If possible ..." are prose; a guard has its colon or THEN.
        return ":" in text or " THEN " in f" {text.upper()} " or any(words.reads_as_order(t) for t in rest)
    if first in words.keywords:
        return True
    if tokens[0].endswith(":") or any(c.isdigit() for c in first) or words.is_name(tokens[0]):
        # No order begins with a name, a number or a label: the line is a comment when prose follows.
        return not any(words.is_prose(t) for t in rest)
    if is_abbreviation(first, words.keywords):
        if len(first) >= 3:
            return True
        # "HI 50/121" is HITS cut short; "Hi", "Hi Ref," and "Hi Ref, back on 12 May" are greetings.
        return bool(rest) and words.reads_as_order(rest[0])
    if near_miss(first, [k for k in words.keywords if k[0] == first[0]]):
        # A slip in the middle of a keyword: "ATACK now", "Retrat to C03"; but a sentence of prose after
        # it is a comment ("Lost the tank, damn." begins one letter from LOSS, Narva 075).
        return not reads_as_sentence(text, rest, words)
    if near_miss(first, words.keywords) or words.is_inner(first):
        # A slip on the first letter is rarer than a word that happens to be close: "Best regards"
        # is one letter from REST.  Such a line, or one that begins with a word orders hold inside
        # ("atack A07"), is an order only if the rest of it reads as one.
        return any(words.reads_as_order(t) for t in rest)
    return False


def reads_as_sentence(text: str, rest: Sequence[str], words: OrderWords) -> bool:
    """After the first word, a sentence: punctuation, two words of prose or more, and nothing an
    order would hold (a number, a name, a keyword)."""
    return (any(mark in text for mark in ",.;!?") and sum(words.is_prose(t) for t in rest) >= 2
            and not any(words.reads_as_order(t) for t in rest))


def kinds_of_line(text: str, grammar: Grammar) -> set[str]:
    """The decision kinds an order line's first word (a keyword or an abbreviation of one) may answer."""
    tokens = tokenize(text)
    first = plain_word(tokens[0]) if tokens else ""
    exact = {spec.kind for spec in grammar.specs if spec.first_keyword == first}
    if exact or len(first) < 2:
        return exact
    return {spec.kind for spec in grammar.specs if (spec.first_keyword or "").startswith(first)}


# ---------------------------------------------------------------- YES and NO


@dataclass(frozen=True)
class YesNo:
    """What YES and NO mean now for one seat: the order each stands for, or why neither can be used."""

    yes: str | None = None
    no: str | None = None
    yes_problem: str = "YES answers a yes/no question, and none is asked of you now: write the order instead"
    no_problem: str = "NO answers a yes/no question, and none is asked of you now: write the order instead"

    def answer(self, word: str) -> tuple[str | None, str]:
        """(the order `word` stands for, or None; the problem when None)."""
        if word == YES:
            return self.yes, self.yes_problem
        return self.no, self.no_problem if word == NO else self.no_problem.replace(NO, word, 1)


def is_declining(text: str) -> bool:
    """An answer that says no: `NONE`, `COVER NONE`, `REINFORCE NONE`."""
    return text == "NONE" or text.endswith(" NONE")


def yes_no_answers(questions: Sequence[tuple[str, Sequence[str]]]) -> YesNo:
    """YES and NO for the questions asked of a seat now, each given as (prompt, its legal answers).

    A yes/no question is one with a declining answer (`COVER NONE`, `COASTAL NONE`) or with a single
    answer (`READY`).  NO is its declining answer; YES its one other answer (a question with several
    leaves YES to be written out, and says which).  With several yes/no questions open, each answer
    must be written out.
    """
    yes_no = [(prompt, list(answers)) for prompt, answers in questions
              if len(answers) == 1 or any(is_declining(a) for a in answers)]
    if not yes_no:
        return YesNo()
    if len(yes_no) > 1:
        asked = "; ".join(prompt for prompt, _ in yes_no)
        problem = f"several yes/no questions are asked of you now ({asked}): write each answer as an order"
        return YesNo(yes_problem=problem, no_problem=problem)
    prompt, answers = yes_no[0]
    no = next((a for a in answers if is_declining(a)), None)
    others = [a for a in answers if not is_declining(a)]
    no_problem = f"NO is not an answer to what you are asked ({prompt}): write the order instead"
    if len(others) == 1:
        return YesNo(others[0], no, no_problem=no_problem)
    if not others:
        return YesNo(None, no, yes_problem=f"YES is not open now ({prompt}): the only answer is {no}")
    listed = " or ".join(others[:6]) + (f" (and {len(others) - 6} more)" if len(others) > 6 else "")
    return YesNo(None, no, yes_problem=f"YES could mean {listed}: write the one you mean")


def closest_answer(text: str, answers: list[str]) -> list[str]:
    """The legal answer closest to a line, compared without case (the answers name units in mixed case:
    '185Tk' is nearer '185TK' than '30GD/188' is)."""
    upper = {answer.upper(): answer for answer in reversed(answers)}
    near = difflib.get_close_matches(text.strip().upper(), list(upper), n=1, cutoff=0.0)
    return [upper[word] for word in near]


def yes_no_word(text: str, grammar: Grammar) -> str:
    """YES or NO when the line is that word alone, NONE when it is NONE alone and the game has no
    order NONE (the Duel's reaction is `NONE`); else ''."""
    words = text.split()
    if len(words) != 1:
        return ""
    word = plain_word(words[0])
    if word in (YES, NO) or (word == NONE and NONE not in grammar.keywords):
        return word
    return ""
