"""Commitments to secrets a game keeps until its end (DESIGN §5: "secret set-ups and hands can be
committed the same way"), and to the entropy players contribute by commit and reveal.

A secret set-up is committed when it is filed:

    commitment = SHA-256("moderator-setup/v1" LF side LF placements LF salt)

where `placements` is ``block=area`` for every piece, sorted by piece and joined by ``;``, and the
salt is 16 hex digits drawn from the game's verifiable stream ``commit`` (so it is secret until the
seed is revealed, and `verify` recomputes it then).  The commitment is announced at once, the
opponent sees only where pieces stand, and the placements are revealed with their salt when the
game ends.  A player can recompute the hash with any SHA-256 tool, e.g.
``printf 'moderator-setup/v1\\naxis\\n%s\\n%s' "$PLACEMENTS" "$SALT" | sha256sum``.

Games emit the two events under the names below, so that `verify` can check any game's set-ups.
An entropy commitment is the plain SHA-256 of the text the player will reveal (see
docs/design-notes.md, "Entropy by commit and reveal").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

SETUP_TAG = "moderator-setup/v1"
#: the event a game emits when a secret set-up is filed: data {side, commitment}
SETUP_FILED = "setup_filed"
#: the event a game emits when it reveals one at the end: data {side, placements, salt, salt_draw, commitment}
SETUP_REVEALED = "setup_revealed"
#: the stream and bound a set-up's salt is drawn from (64 bits, as 16 hex digits)
SALT_STREAM = "commit"
SALT_BOUND = 2**64

_HEX64 = re.compile(r"[0-9a-f]{64}")


def canonical_setup(placements: Mapping[str, str]) -> str:
    """``block=area`` for every piece, sorted by piece, joined by ``;``."""
    return ";".join(f"{block}={area}" for block, area in sorted(placements.items()))


def setup_commitment(side: str, placements: Mapping[str, str], salt: str) -> str:
    """The SHA-256 (hex) a filed secret set-up is committed to."""
    text = "\n".join((SETUP_TAG, side, canonical_setup(placements), salt))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def salt_text(value: int) -> str:
    """A salt draw's value as the 16 hex digits the commitment hashes."""
    return f"{value:016x}"


def entropy_commitment(text: str) -> str:
    """The SHA-256 (hex) of the entropy text a player will reveal, as UTF-8, spaces at its ends removed."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def is_commitment(text: str) -> bool:
    """64 lower-case hex digits (a SHA-256 as commitments are written)."""
    return _HEX64.fullmatch(text) is not None
