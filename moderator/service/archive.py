"""The public archive of a finished game (DESIGN §5), verified by service/verify.py.

The archive holds the scenario, the options, the commitment, the revealed seed, the players'
contributions in seat order and the whole log as a hash chain (core/chain.py): every entry with
its hash, and its payload (the answers with their events and draws) or, for a report, whose
payload holds its seat's secret, only the payload's digest.  `draws` lists every draw with its
stream and counter once more, for anyone who wants to recompute the dice without the engine.
The game-over report carries the archive as it stands then (service/turns.py).
"""

from __future__ import annotations

import json
from typing import Any

from moderator.core.chain import payload_digest
from moderator.core.errors import ModeratorError
from moderator.registry import Registry
from moderator.service.table import Table, load_table
from moderator.store.db import Database
from moderator.store.models import Seat

ARCHIVE_FORMAT = "moderator-archive/2"


def export_archive(database: Database, registry: Registry, game_id: str) -> dict[str, Any]:
    """Everything public about a finished game.  Raises ModeratorError while the game runs (the
    seed is secret until it ends)."""
    with database.session() as session:
        return archive_of(load_table(session, registry, game_id))


def archive_of(table: Table, sent_with: dict[str, Any] | None = None) -> dict[str, Any]:
    """The archive of the game `table` holds, with the entries its session has appended; `sent_with`
    names the game-over report ({"seq", "role"}) that carries it, whose entry is not in it yet.
    Raises ModeratorError while the game runs."""
    if table.game.status != "over":
        raise ModeratorError(f"{table.game.id} is {table.game.status}; its seed stays secret until it ends")
    log: list[dict[str, Any]] = []
    draws: list[dict[str, Any]] = []
    # Voided entries (a referee's rollback) stay in the archive, marked: their dice were rolled.
    for row in table.whole_log():
        payload = json.loads(row["payload_json"])
        record: dict[str, Any] = {"seq": row["seq"], "kind": row["kind"], "role": row["role"],
                                  "hash": row["entry_hash"]}
        if row["kind"] == "report":
            # Reports are rendered per role; only the fact that one was sent, and its digest, are public.
            record["digest"] = payload_digest(payload)
        else:
            record["payload"] = payload
            draws += [dict(draw, seq=row["seq"]) for draw in payload.get("draws", [])]
        if row["void"]:
            record["void"] = True
        log.append(record)
    game = table.game
    sent = {"sent_with": sent_with} if sent_with else {}
    return sent | {
        "format": ARCHIVE_FORMAT,
        "game": game.id,
        "engine": game.engine,
        "scenario": game.scenario,
        "options": json.loads(game.options_json),
        "commitment": game.commitment,
        "seed": game.seed_hex,
        "contributions": [contribution_record(s) for s in table.players()],
        "result": json.loads(game.result_json or "{}"),
        "head": {"seq": log[-1]["seq"] if log else 0, "hash": log[-1]["hash"] if log else ""},
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
