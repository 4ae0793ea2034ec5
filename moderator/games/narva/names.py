"""The names a role may write in Across the Narva orders (its lexicon).

A unit is named as the reports print it: its id (``30GD/30Tk``), the name on its counter (``30 Tk``),
that name without spaces (``30Tk``), the id without its formation (``30Tk``, ``2/24``) and the aliases
of ``units.yaml``, case aside.  A short name that two of a side's units bear (``191`` is 30GD/191 and
117/191, ruling N-52) names the one of them the question asked now can take, else the one on the map;
when that leaves more than one, the refusal names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from moderator.core.contract import OBSERVER, REFEREE
from moderator.core.errors import ParseError
from moderator.core.grammar import Lexicon
from moderator.games.narva.board import SIDES, Board
from moderator.games.narva.scenario import Unit, scenario_named

#: The lexicon types that name units (``ACTIVATE <hq>`` too).
UNIT_TYPES = ("unit", "hq")


def spelled(name: str) -> str:
    """A name as the lexicon compares it (as `Lexicon.lookup` does): case folded, hyphen and space as
    underscore."""
    return name.casefold().replace("-", "_").replace(" ", "_")


@dataclass
class NarvaLexicon(Lexicon):
    """The names a role may use.

    Odds (`MIN <odds>` of an ATTACK order) are refused outright under fog of war: a player cannot see
    the strength the odds depend on (2.1.3, ruling N-57), so the line is refused when the message is
    read, not when the attack would be made.  `shared` holds the short names several units bear, each
    with the units it may mean now (see the module's docstring); `base` is the lexicon of the role's
    fixed names when this one adds the present moment's choice among them."""

    fog: bool = False
    shared: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    base: Lexicon | None = None

    def lookup(self, type_: str, token: str) -> str | None:
        """The canonical name of `token`, or None: a shared short name only when it means one unit now."""
        found = self.base.lookup(type_, token) if self.base is not None else super().lookup(type_, token)
        if found is not None or type_ not in UNIT_TYPES:
            return found
        meant = self.shared.get(spelled(token), ())
        return meant[0] if len(meant) == 1 and meant[0] in self.names.get(type_, {}) else None

    def resolve(self, type_: str, token: str) -> str:
        """The canonical name for `token`; raises ParseError (under fog, for any odds, saying why; for a
        shared short name that means several units now, naming them)."""
        if type_ == "odds" and self.fog:
            raise ParseError(
                f"MIN {token} is refused under fog of war: the enemy stack's strength, and so the odds, stay hidden "
                f"until the attack is announced, and an announced attack is not called off (2.1.3, ruling N-57). "
                f"Write the ATTACK without 'MIN {token}': it is then fought at whatever odds it gets (unless below "
                f"1-2, 9.3.2A). To attack only in some situations, guard the line with tests of what you can see "
                f"(ENEMY, PINNED, ENEMY_HEIGHT: see HELP)")
        meant = self.shared.get(spelled(token), ())
        if type_ == "unit" and len(meant) > 1 and self.lookup(type_, token) is None:
            raise ParseError(f"'{token}' could be {' or '.join(meant)}: more than one of your units goes by "
                             f"that name now; write its formation too (ruling N-52)", meant)
        return super().resolve(type_, token)


def unit_names(unit: Unit) -> set[str]:
    """Every way of writing the unit besides its id: counter name, that name without spaces, the id
    without its formation (not for an HQ: every HQ's id ends in "/HQ"), and the data's aliases."""
    names = {unit.name, unit.name.replace(" ", ""), *unit.aliases}
    if "/" in unit.id and unit.type != "hq":
        names.add(unit.id.split("/", 1)[1])
    return names


@lru_cache(maxsize=16)
def fixed_lexicon(scenario_name: str, role: str, fog: bool) -> NarvaLexicon:
    """The role's names that do not depend on the position (cached: the lexicon is read per order line)."""
    s = scenario_named(scenario_name)
    sides = SIDES if role in (REFEREE, OBSERVER) else (role,)
    mine = [u for u in s.units if u.side in sides]
    bearers: dict[str, list[str]] = {}
    for u in mine:
        for name in {spelled(n) for n in unit_names(u)}:
            bearers.setdefault(name, []).append(u.id)
    lexicon = NarvaLexicon(fog=fog, shared={name: tuple(ids) for name, ids in bearers.items() if len(ids) > 1})
    for u in mine:
        # A number two units share (191, 328) is no alias: they are named FORMATION/NAME (ruling N-52),
        # or by the short name when the moment leaves one of them (`lexicon_for`).
        aliases = sorted(n for n in unit_names(u) if len(bearers[spelled(n)]) == 1 and spelled(n) != spelled(u.id))
        if u.type == "hq" and u.formation:
            aliases.append(u.formation)  # "ACTIVATE 109", "ACTIVATE 11SS"
        lexicon.add("unit", u.id, aliases)
        if u.type == "hq":
            lexicon.add("hq", u.id, aliases)
    for h in s.hex_ids():
        lexicon.add("hex", h)
    for a in s.air_units:
        if a.side in sides:
            same = [b for b in s.air_units if b.name.casefold() == a.name.casefold()]
            lexicon.add("air", a.id, [a.name] if len(same) == 1 else [])
    for f in s.formations:
        if f.side in sides:
            lexicon.add("formation", f.id, [f.name])
    lexicon.add("division", "11SS", ["NORDLAND"])
    lexicon.add("division", "4SS", ["NEDERLAND"])
    if not fog:
        # the odds of the side's own line of the CRT (the two lines differ: 3-2 is German only)
        for column in s.tables.crt.columns:
            for side in sides:
                lexicon.add("odds", getattr(column, side))
    return lexicon


def meant_now(board: Board, bearers: tuple[str, ...]) -> tuple[str, ...]:
    """The units a shared short name means in this position: those the question asked now can take
    (the activation's movers, the units of a combat, retreat or advance), else those on the map, else
    all of them."""
    frame: Any = board.top()
    asked = {u for key in ("movers", "units") for u in ((frame or {}).get(key) or ()) if isinstance(u, str)}
    for tier in (asked, {u for u in bearers if board.is_on_map(u)}):
        hits = tuple(u for u in bearers if u in tier)
        if hits:
            return hits
    return bearers


def lexicon_for(board: Board, role: str) -> Lexicon:
    """The names `role` may use now (the shared short names resolved for this position)."""
    fixed = fixed_lexicon(board.data["scenario"], role, board.fog)
    if not fixed.shared:
        return fixed
    shared = {name: meant_now(board, bearers) for name, bearers in fixed.shared.items()}
    return NarvaLexicon(names=fixed.names, fog=fixed.fog, shared=shared, base=fixed)
