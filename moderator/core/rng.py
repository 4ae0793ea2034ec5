"""Verifiable randomness (DESIGN §5).

The moderator draws 32 secret bytes when a game is created and publishes
``commitment = SHA-256("moderator-seed/v1" ‖ game id ‖ seed)`` in every report.  Players contribute
entropy when they join.  Once every seat has joined, the key is

    key = HMAC-SHA256(seed, "moderator-key/v1" ‖ game id ‖ contribution_1 ‖ … ‖ contribution_n)

(contributions in seat order, each length-prefixed), and draw *n* of stream *s* is
``HMAC-SHA256(key, s ‖ 0x00 ‖ n)`` read as a 256-bit integer.  A uniform integer below *k* takes
the first draw that falls under the largest multiple of *k* (rejection sampling, no modulo bias).
Shuffles are Fisher–Yates over such integers.  Every roll is reported with its stream and counter,
the seed is revealed when the game ends, and `moderator verify` recomputes every draw.

The commitment is published before any player contributes, so the referee cannot grind seeds
against the contributions; players cannot predict draws without the seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

COMMIT_TAG = b"moderator-seed/v1"
KEY_TAG = b"moderator-key/v1"
_SPACE = 1 << 256


def new_seed() -> bytes:
    """32 bytes from the operating system's secure source."""
    return secrets.token_bytes(32)


def commitment(game_id: str, seed: bytes) -> str:
    return hashlib.sha256(COMMIT_TAG + _framed(game_id.encode()) + seed).hexdigest()


def derive_key(game_id: str, seed: bytes, contributions: Sequence[str]) -> bytes:
    message = KEY_TAG + _framed(game_id.encode())
    for contribution in contributions:
        message += _framed(contribution.encode("utf-8"))
    return hmac.new(seed, message, hashlib.sha256).digest()


def _framed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def raw_draw(key: bytes, stream: str, counter: int) -> int:
    digest = hmac.new(key, stream.encode() + b"\x00" + counter.to_bytes(8, "big"), hashlib.sha256)
    return int.from_bytes(digest.digest(), "big")


@dataclass(frozen=True)
class Draw:
    """One uniform integer in [0, bound), with the counters it consumed."""

    stream: str
    counter: int  # the counter of the accepted raw draw; reports print this
    first: int  # the first counter tried (differs only after a rejection)
    bound: int
    value: int
    purpose: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"stream": self.stream, "n": self.counter, "first": self.first,
                "bound": self.bound, "value": self.value, "purpose": self.purpose}


@dataclass(frozen=True)
class Die:
    """A die result with the (stream, counter) that produced it, for reports."""

    value: int
    stream: str
    counter: int

    @property
    def tag(self) -> str:
        return f"{self.stream}#{self.counter}"

    def to_json(self) -> list[Any]:
        return [self.value, self.stream, self.counter]


class Rng:
    """Draws from the keyed streams and records every draw for the log and the verifier."""

    def __init__(self, key: bytes, counters: dict[str, int] | None = None):
        self._key = key
        self.counters: dict[str, int] = dict(counters or {})
        self.draws: list[Draw] = []

    def below(self, bound: int, stream: str = "dice", purpose: str = "") -> Draw:
        if bound < 1:
            raise ValueError("bound must be at least 1")
        limit = _SPACE - (_SPACE % bound)
        first = self.counters.get(stream, 0)
        counter = first
        while True:
            x = raw_draw(self._key, stream, counter)
            counter += 1
            if x < limit:
                break
        self.counters[stream] = counter
        draw = Draw(stream, counter - 1, first, bound, x % bound, purpose)
        self.draws.append(draw)
        return draw

    def d6(self, purpose: str = "", stream: str = "dice") -> Die:
        draw = self.below(6, stream, purpose)
        return Die(draw.value + 1, stream, draw.counter)

    def dice(self, count: int, purpose: str = "", stream: str = "dice") -> list[Die]:
        return [self.d6(purpose, stream) for _ in range(count)]

    def choice(self, items: Sequence[Any], purpose: str = "", stream: str = "random") -> Any:
        return items[self.below(len(items), stream, purpose).value]

    def shuffle(self, items: Sequence[Any], purpose: str = "", stream: str = "shuffle") -> list[Any]:
        """Fisher–Yates: for i from n-1 down to 1, swap i with a uniform j in [0, i]."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1, stream, purpose).value
            result[i], result[j] = result[j], result[i]
        return result

    def take_draws(self) -> list[Draw]:
        """Hand over the draws made since the last call (the runner logs them per answer)."""
        taken, self.draws = self.draws, []
        return taken


@dataclass
class RngRecord:
    """What the store keeps about a game's randomness."""

    game_id: str
    seed: bytes
    contributions: list[str] = field(default_factory=list)

    @property
    def commitment(self) -> str:
        return commitment(self.game_id, self.seed)

    def rng(self, counters: dict[str, int] | None = None) -> Rng:
        return Rng(derive_key(self.game_id, self.seed, self.contributions), counters)


def recompute(game_id: str, seed: bytes, contributions: Sequence[str],
              draws: Sequence[dict[str, Any]]) -> list[str]:
    """Recompute every recorded draw; return a list of mismatches (empty when all agree)."""
    key = derive_key(game_id, seed, contributions)
    replay = Rng(key)
    problems: list[str] = []
    for index, recorded in enumerate(draws):
        stream = recorded["stream"]
        if replay.counters.get(stream, 0) != recorded["first"]:
            problems.append(
                f"draw {index}: stream {stream} should continue at #{replay.counters.get(stream, 0)}, "
                f"archive says #{recorded['first']}")
            replay.counters[stream] = recorded["first"]
        again = replay.below(recorded["bound"], stream)
        if again.value != recorded["value"] or again.counter != recorded["n"]:
            problems.append(
                f"draw {index} ({stream}#{recorded['n']}, bound {recorded['bound']}"
                f"{', ' + recorded['purpose'] if recorded.get('purpose') else ''}): "
                f"archive says {recorded['value']}, recomputed {again.value} at #{again.counter}")
    return problems
