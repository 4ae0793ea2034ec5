"""The games the kit tests run over: every game of the product registry, plus the Duel test game.

A new game registered in `moderator.registry.product_registry` gets every kit test (scenario data,
random playouts with leak checks, the golden playthrough, the HTML report in Chromium) without
writing one.  What a game may tune lives in `SETTINGS` (how many playouts, which rule options to
play once each, how the random player chooses); a game not listed gets the defaults.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.core.contract import Engine
from moderator.registry import product_registry
from tests.testgame.duel import engine as duel
from tests.testgame.skirmish.engine import engine as skirmish

PRODUCT: list[Engine[Any]] = list(product_registry())
#: the product's games and the two test games: Duel (no frame machine) and Skirmish (written from the guide)
EVERY: list[Engine[Any]] = [*PRODUCT, duel, skirmish]


def game_id(engine: Engine[Any]) -> str:
    return engine.info.id


def uniform_choice(pick: random.Random, orders: list[Any]) -> Any:
    return pick.choice(orders)


def active_choice(pick: random.Random, orders: list[Any]) -> Any:
    """Prefer doing something: activate rather than pass, move and attack rather than stop."""
    doing = [o for o in orders if o.form not in ("pass", "done", "none")]
    if doing and pick.random() < 0.85:
        return pick.choice(doing)
    return pick.choice(orders)


@dataclass(frozen=True)
class KitSettings:
    playouts: int = 20
    #: option sets each played by a few more random games; None: every choice of every option other than
    #: its default, one at a time (the rulings' alternatives), read from the game's GameInfo
    variants: tuple[Mapping[str, Any], ...] | None = None
    variant_playouts: int = 1
    #: whether `engine.secrets` names may never appear in another role's view (not only its report)
    secrets_never_in_view: bool = True
    choose: Callable[[random.Random, list[Any]], Any] = uniform_choice
    #: game-specific checks of a view, beyond "names only another role knows never appear"
    view_checks: tuple[Callable[[Mapping[str, Any], str], None], ...] = field(default=())
    #: which events may name what only another role knows (a combat's reveal, a set-up revealed at the
    #: end), given the event and whether the game is over; None: any event the viewer saw may
    reveals: Callable[[Any, bool], bool] | None = None


def variants_for(engine: Engine[Any]) -> tuple[Mapping[str, Any], ...]:
    """The option sets a game's extra random games are played with (see KitSettings.variants)."""
    chosen = settings_for(engine).variants
    if chosen is not None:
        return chosen
    return tuple({spec.name: choice} for spec in engine.info.options for choice in spec.choices
                 if choice != spec.default)


#: How many times the usual number of random games to play: the suite must stay under 15 minutes on the CI
#: machine, so a longer search for rare positions is its own run (README: MODERATOR_SOAK=10 bash scripts/test.sh).
SOAK = max(1, int(os.environ.get("MODERATOR_SOAK", "1")))


def settings_for(engine: Engine[Any]) -> KitSettings:
    from tests.kit.leaks import SETTINGS

    settings = SETTINGS.get(engine.info.id, KitSettings())
    return dataclasses.replace(settings, playouts=settings.playouts * SOAK,
                               variant_playouts=settings.variant_playouts * SOAK)
