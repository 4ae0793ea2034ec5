"""The game log as a hash chain (DESIGN §5): each entry commits to every entry before it.

    key           = HMAC-SHA256(seed, "moderator-log/v1" ‖ game id)
    digest(entry) = SHA-256(canonical JSON of the entry's payload)
    hash(entry)   = HMAC-SHA256(key, previous hash ‖ seq ‖ kind ‖ role ‖ digest)

where the previous hash of the first entry is the game's seed commitment, every text is
length-prefixed, and `seq` is 8 bytes.  The hash of the newest entry, the head, is printed in
every report: a player who kept a report can show later that an entry up to it was changed,
removed, inserted or renumbered.

Why keyed with the seed: a head printed while the game runs covers hidden entries (a face-down
answer, the opponent's set-up).  A plain hash of them could be tested against guesses by a player
who knows or guesses everything else in the entries; keyed with the secret seed, the head tells
nothing until the seed is revealed at the end, when anyone can recompute the chain.  It still
binds: the seed is fixed by the commitment published when the game was created, so the key is
fixed, and two logs with one head would be a collision of HMAC-SHA256 under a known key.

An entry's hash covers its payload through the digest, so an archive may publish only the digest
of a payload that stays private (a report's payload holds its seat's secret) and the chain can
still be checked from end to end.  The void mark a referee's rollback sets is not hashed: it is
derived from the rollback entries, which are.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

LOG_TAG = b"moderator-log/v1"


def canonical_json(value: Any) -> str:
    """The one text of a JSON value that is hashed: keys sorted, no spaces, UTF-8 as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def payload_digest(payload: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def log_key(game_id: str, seed: bytes) -> bytes:
    """The key a game's log is chained with, derived from its seed."""
    return hmac.new(seed, LOG_TAG + _framed(game_id), hashlib.sha256).digest()


def entry_hash(key: bytes, previous: str, seq: int, kind: str, role: str, digest: str) -> str:
    """The hash of log entry `seq`, chained to `previous` (the hash of the entry before it)."""
    message = _framed(previous) + seq.to_bytes(8, "big") + _framed(kind) + _framed(role) + _framed(digest)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _framed(text: str) -> bytes:
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data
