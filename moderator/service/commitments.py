"""What `moderator verify` checks of the commitments in an archive (core/commitments.py): each
secret set-up revealed at the end against the commitment announced when it was filed, with its salt
recomputed from the revealed seed; and each player's entropy revealed against the hash the player
committed to before anyone revealed (option entropy=commit-reveal).

Kept apart from the replay of the whole game (service/archive.py calls it), because it needs only
the archive's events and draws, not the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from moderator.core.commitments import (
    SALT_BOUND,
    SETUP_FILED,
    SETUP_REVEALED,
    entropy_commitment,
    salt_text,
    setup_commitment,
)


def check_commitments(archive: Mapping[str, Any]) -> list[str]:
    """Every mismatch of a set-up or entropy commitment, each naming its log entry or seat."""
    return check_setup_commitments(archive) + check_entropy_commitments(archive)


def _live_events(archive: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    for entry in archive.get("log", []):
        if entry.get("void"):
            continue  # rolled back by the referee: a set-up filed there was filed again later
        for event in entry.get("payload", {}).get("events", []):
            yield entry["seq"], event


def check_setup_commitments(archive: Mapping[str, Any]) -> list[str]:
    """Each filed set-up is revealed once the game is over, hashes to the commitment announced when it
    was filed, and its salt is the draw it names (so the salt was fixed by the seed, not chosen later)."""
    problems: list[str] = []
    filed: dict[str, tuple[int, str]] = {}
    revealed: set[str] = set()
    draws = {(d["stream"], d["n"]): d for d in archive.get("draws", [])}
    for seq, event in _live_events(archive):
        data = event.get("data", {})
        if event.get("kind") == SETUP_FILED:
            filed[data["side"]] = (seq, data["commitment"])
        elif event.get("kind") == SETUP_REVEALED:
            side = data["side"]
            revealed.add(side)
            problems += _check_reveal(seq, side, data, filed.get(side), draws)
    for side, (seq, _) in sorted(filed.items()):
        if side not in revealed:
            problems.append(f"log #{seq}: the {side} set-up committed there is never revealed")
    return problems


def _check_reveal(seq: int, side: str, data: Mapping[str, Any], filed: tuple[int, str] | None,
                  draws: Mapping[tuple[str, int], Mapping[str, Any]]) -> list[str]:
    problems = []
    if filed is None:
        return [f"log #{seq}: the {side} set-up revealed there was never committed"]
    if data["commitment"] != filed[1]:
        problems.append(f"log #{seq}: the {side} set-up is revealed under commitment {data['commitment']}, "
                        f"but log #{filed[0]} announced {filed[1]}")
    if setup_commitment(side, data["placements"], data["salt"]) != filed[1]:
        problems.append(f"log #{seq}: the {side} set-up revealed there (placements and salt) does not hash to "
                        f"the commitment announced at log #{filed[0]}")
    stream, counter = (list(data.get("salt_draw") or []) + [None, None])[:2]
    draw = draws.get((stream, counter))
    if draw is None or draw["bound"] != SALT_BOUND:
        problems.append(f"log #{seq}: the {side} set-up's salt names no salt draw of the archive ({stream}#{counter})")
    elif salt_text(draw["value"]) != data["salt"]:
        problems.append(f"log #{seq}: the {side} set-up's salt {data['salt']} is not its draw {stream}#{counter} "
                        f"({salt_text(draw['value'])})")
    return problems


def check_entropy_commitments(archive: Mapping[str, Any]) -> list[str]:
    """With entropy=commit-reveal, each revealed contribution hashes to the seat's commitment, and a
    contribution dropped for want of a reveal is empty (docs/design-notes.md)."""
    problems = []
    for seat in archive.get("contributions", []):
        committed = seat.get("commitment")
        if committed is None:
            continue
        if seat.get("dropped"):
            if seat["contribution"] != "":
                problems.append(f"seat {seat['role']}: its entropy was dropped (no reveal), yet the archive "
                                f"counts a contribution")
        elif entropy_commitment(seat["contribution"]) != committed:
            problems.append(f"seat {seat['role']}: the entropy revealed does not hash to the commitment {committed}")
    return problems
