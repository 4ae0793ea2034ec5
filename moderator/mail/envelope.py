"""The envelope shared by every game: which game, which seat, the seat's secret, the phase.

    GAME vmt-0001
    ROLE axis            (SIDE is accepted too)
    SECRET 7QK2-MX4D
    PHASE T3-AXIS        (optional: refuse these orders if the game has moved on)

Commands (the players' and the referee's, listed once in mail/commands.py) and JOIN are recognised
here too; everything else is handed to the game's grammar.  The subject line ("[vmt-0001] Turn 3 Axis:
your move ...", or an older "[game/role]" tag) fills GAME and ROLE when the body leaves them out, so a
plain reply works.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from moderator.mail.commands import BY_NAME
from moderator.mail.echo import clip
from moderator.mail.hygiene import plain_spaces

#: No game id, role, secret, phase, token or time zone is longer; a longer value is kept cut and
#: marked (so it matches nothing) and a receipt that quotes it back quotes a bounded amount.
MAX_VALUE_CHARS = 100

ENVELOPE_KEYS = {"GAME": "game", "ROLE": "role", "SIDE": "role", "SECRET": "secret", "PHASE": "phase"}
JOIN_KEYS = ("JOIN", "NAME", "TZ", "ENTROPY")

_SUBJECT_TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_-]*)/([A-Za-z][A-Za-z0-9_-]*)\]")
#: A report's subject, "[vmt-0001] Turn 3 Axis: your move ...", or a notice's, "[vmt-0001] Axis: orders received".
_SUBJECT_SEAT = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_-]*)\] (?:Turn \d+ )?([A-Za-z][A-Za-z0-9 _-]*?):")


@dataclass
class Envelope:
    game: str | None = None
    role: str | None = None
    secret: str | None = None
    phase: str | None = None
    join_token: str | None = None
    join_name: str | None = None
    join_tz: str | None = None
    join_entropy: str | None = None
    commands: list[tuple[int, str, str]] = field(default_factory=list)  # (line, COMMAND, argument)
    order_lines: list[tuple[int, str]] = field(default_factory=list)
    envelope_lines: list[int] = field(default_factory=list)

    def has(self, command: str) -> bool:
        return any(c == command for _, c, _ in self.commands)

    def argument(self, command: str) -> str | None:
        for _, c, argument in self.commands:
            if c == command:
                return argument
        return None


def read_envelope(lines: list[tuple[int, str]], subject: str = "") -> Envelope:
    """Split numbered body lines into envelope, commands and order lines."""
    envelope = Envelope()
    for number, line in lines:
        text = plain_spaces(line).strip()
        if not text or text.startswith("#") or text.startswith("//"):
            continue
        if "#" in text:
            text = text.split("#", 1)[0].rstrip()
        head, _, rest = text.partition(" ")
        key = head.upper().rstrip(":")
        rest = rest.strip()
        if key in ENVELOPE_KEYS and rest and " " not in rest:
            setattr(envelope, ENVELOPE_KEYS[key], clip(rest, MAX_VALUE_CHARS))
            envelope.envelope_lines.append(number)
        elif key == "JOIN" and rest:
            envelope.join_token = clip(rest.split()[0], MAX_VALUE_CHARS)
            envelope.envelope_lines.append(number)
        elif key == "NAME" and rest:
            envelope.join_name = rest[:120]
            envelope.envelope_lines.append(number)
        elif key == "TZ" and rest:
            envelope.join_tz = clip(rest.split()[0], MAX_VALUE_CHARS)
            envelope.envelope_lines.append(number)
        elif key == "ENTROPY" and rest:
            envelope.join_entropy = rest[:200]
            envelope.envelope_lines.append(number)
        elif key in BY_NAME:
            envelope.commands.append((number, key, rest))
        else:
            envelope.order_lines.append((number, text))
    match = _SUBJECT_TAG.search(subject or "") or _SUBJECT_SEAT.search(subject or "")
    if match:
        envelope.game = envelope.game or clip(match.group(1), MAX_VALUE_CHARS)
        envelope.role = envelope.role or clip(match.group(2).replace(" ", "_"), MAX_VALUE_CHARS)
    if envelope.game:
        envelope.game = envelope.game.lower()
    if envelope.role:
        envelope.role = envelope.role.lower()
    return envelope
