"""Creating games, seating players, starting play."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets as pysecrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlmodel import Session

from moderator.core.contract import Event, OptionError
from moderator.core.rng import commitment, new_seed
from moderator.registry import Registry
from moderator.service.table import Table, dumps, load_table, secret_hash
from moderator.store import games as stored
from moderator.store.models import Game, Seat


def new_secret() -> str:
    """Eight base32 characters in two groups, easy to copy: 'K3F9-QW2M'."""
    text = base64.b32encode(pysecrets.token_bytes(5)).decode().rstrip("=")
    return f"{text[:4]}-{text[4:8]}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.strip().upper().encode()).hexdigest()


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    commitment: str
    invitations: dict[str, str]  # role -> invitation token (shown once)
    referee_secret: str


def create_game(session: Session, registry: Registry, now: datetime, engine_id: str, scenario: str | None = None,
                options: Mapping[str, Any] | None = None, addresses: Mapping[str, str] | None = None,
                referee_address: str = "", settings: Mapping[str, Any] | None = None,
                game_id: str | None = None, observers: Mapping[str, str] | None = None) -> CreatedGame:
    """Create a game in the 'forming' state with one invitation per role."""
    engine = registry.get(engine_id)
    scenario = engine.info.scenario(scenario).name
    rule_options, entropy = split_entropy_option(options or {})
    chosen = engine.info.chosen_options(rule_options)  # raises OptionError
    settings = dict(settings or {})
    if entropy != ENTROPY_MODES[0]:
        settings[ENTROPY_OPTION] = entropy
    if game_id is None:
        game_id = stored.next_game_id(session, engine_id)
    seed = new_seed()
    referee_secret = new_secret()
    game = Game(id=game_id, engine=engine_id, scenario=scenario, options_json=dumps(chosen), status="forming",
                seed_hex=seed.hex(), commitment=commitment(game_id, seed), created_at=now,
                referee_address=(referee_address or "").lower(),
                referee_secret_hash=secret_hash(game_id, "referee", referee_secret),
                settings_json=dumps(settings))
    session.add(game)
    invitations = {}
    for role in engine.info.roles(scenario):
        token = new_secret()
        invitations[role] = token
        session.add(Seat(game_id=game_id, role=role, address=(addresses or {}).get(role, "").lower(),
                         invite_token_hash=token_hash(token)))
    for name, address in (observers or {}).items():
        session.add(Seat(game_id=game_id, role=name, kind="observer", address=address.lower(), joined_at=now))
    session.flush()
    return CreatedGame(game_id, game.commitment, invitations, referee_secret)


#: How the players' entropy is gathered (service/entropy.py): the default first.
ENTROPY_OPTION = "entropy"
ENTROPY_MODES = ("plain", "commit-reveal")


def split_entropy_option(options: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The game's rule options, and the moderator's own option `entropy` taken out of them (it is
    not a rule of the game: the dice key is the moderator's business); raises OptionError."""
    rule_options = dict(options)
    mode = str(rule_options.pop(ENTROPY_OPTION, ENTROPY_MODES[0])).lower()
    if mode not in ENTROPY_MODES:
        raise OptionError(f"option {ENTROPY_OPTION} must be one of {', '.join(ENTROPY_MODES)}")
    return rule_options, mode


def entropy_mode(game: Game) -> str:
    """`plain` or `commit-reveal` (split_entropy_option)."""
    return str(json.loads(game.settings_json or "{}").get(ENTROPY_OPTION, ENTROPY_MODES[0]))


def find_invitation(session: Session, token: str) -> Seat | None:
    """The open seat the invitation `token` is for, or None (unknown, or the seat is taken)."""
    return stored.open_invitation(session, token_hash(token))


def seat_player(session: Session, registry: Registry, seat: Seat, address: str, now: datetime, name: str = "",
                tz: str = "UTC", contribution: str = "", commitment: str = "",
                ask_first: bool = False) -> tuple[Table, str]:
    """Fill a seat: record the address, time zone and entropy (or, with entropy=commit-reveal, the
    commitment to it); return the table and the new secret.  With `ask_first`, the player's questions
    are asked, not answered by the game's standing defaults, until they first file orders or let a
    deadline pass (Plan.ask_first)."""
    table = load_table(session, registry, seat.game_id, for_update=True)
    seat = table.seats[seat.role]
    secret = new_secret()
    seat.address = address.lower()
    seat.name = name
    seat.timezone = tz
    seat.secret = secret
    seat.contribution = contribution
    seat.entropy_commitment = commitment
    seat.joined_at = now
    session.add(seat)
    if ask_first:
        table.save_plan(seat.role, replace(table.plan(seat.role), ask_first=True))
    joined = {"role": seat.role, "contribution": contribution, "name": name}
    if commitment:
        joined["entropy_commitment"] = commitment
    table.append("join", seat.role, joined, now)
    return table, secret


def all_seated(table: Table) -> bool:
    return all(s.joined_at is not None for s in table.players())


def start(table: Table, now: datetime) -> None:
    """Every seat is filled: set the game up with the players' entropy mixed into the key."""
    rng = table.rng()
    options = json.loads(table.game.options_json)
    table.state = table.engine.setup(table.game.scenario, options, rng)
    draws = rng.take_draws()
    table.counters = dict(rng.counters)
    table.append("setup", "", {"events": [Event("core.started", {"game": table.game.id}).to_json()],
                               "draws": [d.to_json() for d in draws],
                               "contributions": [s.contribution for s in table.players()]}, now)
    table.game.status = "running"
    table.session.add(table.game)
    table.snapshot("setup", now)
