"""The public archive of a finished game, and its verification (DESIGN §5).

The archive holds the commitment, the revealed seed, the players' contributions in seat order, and
every draw with its stream and counter, next to the answers and events that used them.
`verify_archive` needs nothing else: it checks the commitment and recomputes every draw.
"""

from __future__ import annotations

import json
from typing import Any

from moderator.core.errors import ModeratorError
from moderator.core.rng import commitment, recompute
from moderator.registry import Registry
from moderator.service.commitments import check_commitments
from moderator.service.table import load_table
from moderator.store import games as stored
from moderator.store.db import Database
from moderator.store.models import Seat

ARCHIVE_FORMAT = "moderator-archive/1"


def export_archive(database: Database, registry: Registry, game_id: str) -> dict[str, Any]:
    """Everything public about a finished game.  Raises ModeratorError while the game runs (the
    seed is secret until it ends)."""
    with database.session() as session:
        table = load_table(session, registry, game_id)
        if table.game.status != "over":
            raise ModeratorError(f"{game_id} is {table.game.status}; its seed stays secret until it ends")
        # Voided entries (a referee's rollback) stay in the archive, marked: their dice were rolled.
        entries = stored.whole_log(session, game_id)
        log: list[dict[str, Any]] = []
        draws: list[dict[str, Any]] = []
        for entry in entries:
            payload = json.loads(entry.payload_json)
            if entry.kind == "report":
                # Reports are rendered per role; only the fact that one was sent is public.
                log.append({"seq": entry.seq, "kind": "report", "role": entry.role})
                continue
            if entry.kind in {"setup", "answer"}:
                for draw in payload.get("draws", []):
                    draws.append(dict(draw, seq=entry.seq))
            record = {"seq": entry.seq, "kind": entry.kind, "role": entry.role, "payload": payload}
            if entry.void:
                record["void"] = True
            log.append(record)
        return {
            "format": ARCHIVE_FORMAT,
            "game": game_id,
            "engine": table.game.engine,
            "scenario": table.game.scenario,
            "options": json.loads(table.game.options_json),
            "commitment": table.game.commitment,
            "seed": table.game.seed_hex,
            "contributions": [contribution_record(s) for s in table.players()],
            "result": json.loads(table.game.result_json or "{}"),
            "draws": draws,
            "log": log,
        }


def contribution_record(seat: Seat) -> dict[str, Any]:
    """A seat's contribution; with entropy=commit-reveal also its commitment, and whether it was
    dropped for want of a reveal (service/entropy.py)."""
    record: dict[str, Any] = {"role": seat.role, "contribution": seat.contribution}
    if seat.entropy_commitment:
        record["commitment"] = seat.entropy_commitment
        record["dropped"] = not seat.contribution
    return record


def verify_archive(archive: dict[str, Any]) -> list[str]:
    """Return every mismatch found (an empty list means the archive verifies)."""
    problems: list[str] = []
    if archive.get("format") != ARCHIVE_FORMAT:
        problems.append(f"unknown archive format {archive.get('format')!r}")
        return problems
    try:
        seed = bytes.fromhex(archive["seed"])
    except (KeyError, ValueError):
        return ["the archive has no valid revealed seed"]
    game_id = archive["game"]
    if commitment(game_id, seed) != archive["commitment"]:
        problems.append("the revealed seed does not match the commitment published at the start")
    contributions = [c["contribution"] for c in archive.get("contributions", [])]
    problems += recompute(game_id, seed, contributions, archive.get("draws", []))
    # The draws listed in the log must be exactly the draws verified above.
    in_log = [d for e in archive.get("log", []) for d in e.get("payload", {}).get("draws", [])]
    listed = [{k: v for k, v in d.items() if k != "seq"} for d in archive.get("draws", [])]
    if in_log != listed:
        problems.append("the draws in the log differ from the archive's list of draws")
    problems += _check_reported_dice(archive)
    problems += check_commitments(archive)
    return problems


def _check_reported_dice(archive: dict[str, Any]) -> list[str]:
    """Every die an event reports as [value, stream, counter] must be that draw of a d6."""
    by_counter = {(d["stream"], d["n"]): d for d in archive.get("draws", [])}
    problems: list[str] = []

    def walk(node: Any, seq: int) -> None:
        if isinstance(node, list):
            if (len(node) == 3 and isinstance(node[0], int) and isinstance(node[1], str)
                    and isinstance(node[2], int) and (node[1], node[2]) in by_counter):
                draw = by_counter[(node[1], node[2])]
                if draw["bound"] == 6 and draw["value"] + 1 != node[0]:
                    problems.append(f"log #{seq} reports a {node[0]} at {node[1]}#{node[2]}, "
                                    f"but that draw is a {draw['value'] + 1}")
                return
            for item in node:
                walk(item, seq)
        elif isinstance(node, dict):
            for item in node.values():
                walk(item, seq)

    for entry in archive.get("log", []):
        for event in entry.get("payload", {}).get("events", []):
            walk(event.get("data"), entry["seq"])
    return problems
