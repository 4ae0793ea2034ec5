"""The skeleton every demo player shares: reading a report mail as a person would, and the Brain
that turns what it read into order lines.

A bot knows only what its mail says.  `read_report` pulls the envelope lines and the open
questions (with their options and defaults) out of a report's plain text; a game's Brain reads the
rest of the text (its units, the enemy it can see) and writes the lines a careful player would.
`RandomBrain` answers every question with one of the listed options.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Protocol

DECISION = re.compile(r"^\s*\d+\. \[(?P<key>[^\]]+)\] (?P<prompt>.*)$")


@dataclass
class AskedDecision:
    key: str
    prompt: str
    options: list[str]
    default: str


@dataclass
class ReportMail:
    text: str
    subject: str
    message_id: str
    envelope: list[str]
    decisions: list[AskedDecision]


def read_report(text: str) -> tuple[list[str], list[AskedDecision]]:
    """Pull the envelope lines and the open decisions out of a report's plain text."""
    lines = text.split("\n")
    envelope: list[str] = []
    decisions: list[AskedDecision] = []
    section = ""
    current: AskedDecision | None = None
    buffer: list[str] = []
    mode = ""
    for line in lines:
        if re.match(r"^[A-Z][A-Z ]+$", line.strip()) and line.strip() == line.rstrip() and line.strip():
            section = line.strip()
            continue
        if section == "HOW TO ANSWER":
            stripped = line.strip()
            for key in ("GAME ", "ROLE ", "SECRET "):
                if stripped.startswith(key):
                    envelope.append(stripped)
        if section != "WHAT WE NEED FROM YOU":
            continue
        match = DECISION.match(line)
        if match:
            current = AskedDecision(match["key"], match["prompt"], [], "")
            decisions.append(current)
            mode = "prompt"
            buffer = []
            continue
        if current is None:
            continue
        stripped = line.strip()
        if stripped.startswith("Options"):
            mode = "options"
            buffer = []
        elif stripped.startswith("By "):
            if mode == "options":
                current.options = _expand_options(buffer)
            mode = "by"
            buffer = [stripped]
            current.default = stripped.split("if you do not answer:", 1)[-1].strip()
        elif mode == "prompt" and stripped:
            current.prompt += " " + stripped  # a question's text wraps over several lines
        elif mode == "options" and stripped and not stripped.startswith("..."):
            if line.startswith(" " * 9) and buffer:  # a long option wrapped onto the next line
                buffer[-1] += " " + stripped
            else:
                buffer.append(stripped)
        elif mode == "by" and stripped and not stripped.startswith("("):
            buffer.append(stripped)
            current.default = " ".join(buffer).split("if you do not answer:", 1)[-1].strip()
    return envelope, decisions


def _expand_options(lines: list[str]) -> list[str]:
    """The options a report lists, one group per line: `COMMIT C00|C06` stands for two of them."""
    options: list[str] = []
    for line in lines:
        if "  (" in line:  # an option with a label is listed whole
            options.append(line)
            continue
        expanded = [""]
        for word in line.split():
            expanded = [f"{start} {choice}".strip() for start in expanded for choice in word.split("|")]
        options += expanded
    return options


class Brain(Protocol):
    def orders(self, report: ReportMail, rng: random.Random) -> list[str]: ...


class RandomBrain:
    """Answers every open decision with one of the options the report lists."""

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        return [rng.choice(d.options) if d.options else d.default for d in report.decisions]
