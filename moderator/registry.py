"""The explicit registry of games (DESIGN §3).  Nothing registers itself by being imported."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from moderator.core.contract import Engine
from moderator.core.errors import UnknownGame


class Registry:
    def __init__(self, engines: Iterable[Engine]):
        self._engines: dict[str, Engine] = {}
        for engine in engines:
            if engine.info.id in self._engines:
                raise ValueError(f"two engines share the id {engine.info.id}")
            self._engines[engine.info.id] = engine

    def get(self, engine_id: str) -> Engine:
        try:
            return self._engines[engine_id]
        except KeyError:
            known = ", ".join(sorted(self._engines)) or "none"
            raise UnknownGame(f"no game '{engine_id}' (registered: {known})") from None

    def __iter__(self) -> Iterator[Engine]:
        return iter(self._engines.values())

    def __contains__(self, engine_id: str) -> bool:
        return engine_id in self._engines

    @property
    def ids(self) -> list[str]:
        return list(self._engines)


def product_registry() -> Registry:
    """The games the product ships.  Add a game here, and only here."""
    from moderator.games.narva.engine import engine as narva
    from moderator.games.stalingrad.engine import engine as stalingrad
    from moderator.games.vmt.engine import engine as vmt

    return Registry([vmt, narva, stalingrad])
