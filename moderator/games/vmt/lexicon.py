"""The names a role may use in its orders (areas, its own blocks, divisions, cards, assets).

Below every rules module: a handler's `legal` parses its listed options with this lexicon.
"""

from __future__ import annotations

from moderator.core.grammar import Lexicon
from moderator.games.vmt.board import SIDES, Board


def lexicon_for(board: Board, role: str | None) -> Lexicon:
    """The names a role may use in orders: every area, its own blocks, divisions, cards and assets.

    Cached on the scenario object (never by its id, which a later scenario may reuse): it changes
    only when an asset enters or leaves a pool (the bare type names follow the pool), so the key is
    the role and the pool contents.
    """
    sides = SIDES if role not in SIDES else (role,)
    pool = tuple(sorted(a for a, x in board.data["assets"].items() if x["status"] == "pool" and x["side"] in sides))
    key = (role, pool)
    lexicons: dict[tuple[str | None, tuple[str, ...]], Lexicon] = board.scenario.memo("lexicons", lambda _: {})
    cached = lexicons.get(key)
    if cached is None:
        if len(lexicons) > 256:
            lexicons.clear()
        cached = lexicons[key] = _build_lexicon(board, role)
    return cached


def _build_lexicon(board: Board, role: str | None) -> Lexicon:
    lexicon = Lexicon()
    scenario = board.scenario
    for area in scenario.map.areas:
        lexicon.add("area", area.id, area.aliases)
    sides = SIDES if role not in SIDES else (role,)
    for block in scenario.blocks:
        if block.side in sides:
            lexicon.add("block", block.id, block.aliases)
    for division in scenario.divisions:
        if division.side in sides:
            lexicon.add("division", division.id)
    for card in scenario.card_types:
        if any(s in sides for s in card.sides):
            lexicon.add("card", card.id.upper(), tuple(a.upper() for a in card.aliases))
    by_type: dict[str, str] = {}
    for asset_id, asset in sorted(board.data["assets"].items()):
        if asset["side"] in sides:
            aliases = []
            # The bare type name ("STUG") stands for the first counter of that type in the pool.
            if asset["status"] == "pool" and asset["type"] not in by_type:
                by_type[asset["type"]] = asset_id
                aliases.append(asset["type"].upper())
            lexicon.add("asset", asset_id, aliases)
    return lexicon
