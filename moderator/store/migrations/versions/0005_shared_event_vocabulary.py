"""log: the games' events in the shared vocabulary (issue 11)

Von Manstein's Triumph and Across the Narva now name the same things alike: a block losing a step is
the event `step_lost` (VMT called it `block_hit`), a list of dice in an event is `dice` (VMT's
`bombardment` and `combat_roll` called it `rolls`), and a modified or summed roll is `total`
(Narva's `combat` and `random_event` called it `roll`).  Replay compares the events it recomputes
with the logged ones, so the logged events of games already under way are renamed the same way.
The renames are written out here, not imported, so this migration keeps meaning what it meant.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

KINDS = {"vmt": {"block_hit": "step_lost"}}
#: (engine, event kind) -> renamed keys of the event's data
KEYS = {("vmt", "bombardment"): {"rolls": "dice"}, ("narva", "combat"): {"roll": "total"},
        ("narva", "random_event"): {"roll": "total"}}
#: (engine, event kind) -> renamed keys inside each value of the data's `dice` mapping
NESTED = {("vmt", "combat_roll"): {"rolls": "dice"}}


def _renamed(mapping: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {names.get(key, key): value for key, value in mapping.items()}


def convert_event(engine: str, event: dict[str, Any], forward: bool = True) -> dict[str, Any]:
    """One logged event in the new vocabulary (or back, with forward=False)."""
    kinds = KINDS.get(engine, {})
    if not forward:
        kinds = {new: old for old, new in kinds.items()}
    kind = kinds.get(event["kind"], event["kind"])
    old_kind = event["kind"] if forward else kind
    data = event.get("data", {})
    keys = KEYS.get((engine, old_kind))
    if keys:
        data = _renamed(data, keys if forward else {new: old for old, new in keys.items()})
    nested = NESTED.get((engine, old_kind))
    if nested and isinstance(data.get("dice"), dict):
        names = nested if forward else {new: old for old, new in nested.items()}
        data = dict(data, dice={side: _renamed(value, names) for side, value in data["dice"].items()})
    return dict(event, kind=kind, data=data)


def _rewrite(forward: bool) -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT log_entry.id, log_entry.payload_json, game.engine FROM log_entry JOIN game ON game.id = log_entry.game_id "
        "WHERE log_entry.kind IN ('answer', 'setup') AND game.engine IN ('vmt', 'narva')")).fetchall()
    for entry_id, payload_json, engine in rows:
        payload = json.loads(payload_json)
        events = payload.get("events")
        if not events:
            continue
        converted = [convert_event(engine, event, forward) for event in events]
        if converted == events:
            continue
        payload["events"] = converted
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        bind.execute(sa.text("UPDATE log_entry SET payload_json = :text WHERE id = :id"), {"text": text, "id": entry_id})


def upgrade() -> None:
    _rewrite(forward=True)


def downgrade() -> None:
    _rewrite(forward=False)
