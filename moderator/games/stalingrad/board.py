"""The working copy of a Hell of Stalingrad game that the rules read and change, with words that read
as prose: ``board.units_on(district, side)``, ``board.draw_cards(side, n)``, ``board.deplete(f, why)``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moderator.core.board import BoardBase
from moderator.games.stalingrad.scenario import DISTRICTS, SIDES, Scenario
from moderator.games.stalingrad.scenario.schema import Building, Commander, Formation
from moderator.games.stalingrad.seating import TEAMMATE
from moderator.games.stalingrad.state import BattleRecord, DistrictRecord, Options, SideRecord, StalingradState


def enemy(side: str) -> str:
    return "soviet" if side == "german" else "german"


class Board(BoardBase[Scenario]):
    data: StalingradState

    @property
    def options(self) -> Options:
        return self.data["options"]

    @property
    def last_turn(self) -> int:
        """§Basic Game: 3 turns; §Advanced: 6."""
        meta = self.scenario.meta
        return meta.turns_advanced if self.options["game"] != "basic" else meta.turns_basic

    def is_last_turn(self) -> bool:
        """Ruling S-05: the turn whose Hourglass position reaches the last turn is the last."""
        return self.turn >= self.last_turn

    # ------------------------------------------------------------------ events and seats

    def emit(self, kind: str, visible_to: Iterable[str] | None = None, hidden_from: Iterable[str] = (),
             **data: Any) -> None:
        """An event; in the four-player game a side's private half goes to the seat whose hand it is (and to
        his teammate when teammates' hands are open, ruling S-82)."""
        if "table" in self.data:
            visible_to = None if visible_to is None else self.seats_of(visible_to)
            hidden_from = self.seats_of(hidden_from)
        super().emit(kind, visible_to, hidden_from, **data)

    def seats_of(self, roles: Iterable[str]) -> list[str]:
        """The roles with each side replaced by its seat at the table (and that seat's teammate, hands open)."""
        table = self.data.get("table", {})
        out: list[str] = []
        for role in roles:
            seat = table.get(role, role)
            out.append(seat)
            if seat != role and self.options.get("teammate_hands") == "open":
                out.append(TEAMMATE[seat])
        return out

    def seated(self, side: str) -> str:
        """The role answering for a side now: the side itself, or (four players) the seat at the table."""
        return self.data.get("table", {}).get(side, side)

    # ------------------------------------------------------------------ sides, hands, decks

    def side(self, side: str) -> SideRecord:
        return self.data["sides"][side]

    def commander(self, side: str) -> Commander:
        return self.scenario.commander(self.side(side)["commander"])

    def draw_cards(self, side: str, count: int, why: str) -> list[str]:
        """Draw from the Combat Deck, reshuffling the Discard Pile when it runs out (§Mats Replacing Decks).

        The owner is told the cards, the opponent only how many."""
        record = self.side(side)
        drawn: list[str] = []
        for _ in range(count):
            if not record["deck"]:
                if not record["discard"]:
                    break
                record["deck"] = self.shuffle(record["discard"], f"{side} discard pile reshuffled", "shuffle")
                record["discard"] = []
                self.emit("reshuffled", side=side, pile="combat", cards=len(record["deck"]))
            drawn.append(record["deck"].pop(0))
        record["hand"] += drawn
        if drawn:
            seat = {"seat": self.seated(side)} if "table" in self.data else {}
            self.emit("drew", visible_to=[side], side=side, cards=drawn, why=why, **seat)
            self.emit("drew", hidden_from=[side], side=side, count=len(drawn), why=why, **seat)
        return drawn

    def discard_at_random(self, side: str, count: int, why: str) -> None:
        """§Effects: the opponent picks at random; the card goes face up to the Discard Pile (ruling S-76:
        an empty hand loses the rest)."""
        record = self.side(side)
        for _ in range(count):
            if not record["hand"]:
                return
            card = self.choice(sorted(record["hand"]), f"random discard from the {side} hand", "random")
            record["hand"].remove(card)
            record["discard"].append(card)
            self.emit("discarded", side=side, card=card, why=why)

    def card_name(self, copy_id: str) -> str:
        return self.scenario.card_of(copy_id).name

    # ------------------------------------------------------------------ formations and leaders

    def formation(self, formation_id: str) -> Formation:
        return self.scenario.formation(formation_id)

    def where(self, formation_id: str) -> str:
        return self.data["formations"][formation_id]["at"]

    def formations_at(self, place: str, side: str | None = None) -> list[str]:
        """Formations at a place (a pile, the Staging Line or a district), in data order."""
        return [f.id for f in self.scenario.formations
                if self.data["formations"][f.id]["at"] == place and (side is None or f.side == side)]

    def is_depleted(self, formation_id: str) -> bool:
        return self.data["formations"][formation_id]["depleted"]

    def leader(self, formation_id: str) -> int | None:
        return self.data["formations"][formation_id]["leader"]

    def in_play(self, formation_id: str) -> bool:
        return self.where(formation_id) not in ("deck", "destroyed", "ash")

    def leaders_in_play(self, side: str) -> int:
        return sum(1 for f in self.scenario.formations_of(side)
                   if self.in_play(f.id) and self.leader(f.id) is not None)

    def give_new_leader(self, formation_id: str) -> bool:
        """A Lv. 0 leader for a formation entering play, unless the side's 13 are in play (ruling S-12)."""
        side = self.formation(formation_id).side
        if self.leaders_in_play(side) >= self.scenario.meta.leaders_per_side:
            return False
        self.data["formations"][formation_id]["leader"] = 0
        return True

    def kill_leader(self, formation_id: str, why: str) -> None:
        """§Leaders: a killed leader is discarded; the counter may serve a new formation later."""
        if self.leader(formation_id) is None:
            return
        self.data["formations"][formation_id]["leader"] = None
        self.emit("leader_killed", formation=formation_id, why=why)

    def destroy_formation(self, formation_id: str, why: str) -> None:
        """§Deplete A: to the Destroyed Pile with its leader killed; a unique one to the Ash Heap (Burning Skull)."""
        self.kill_leader(formation_id, "its formation was destroyed")
        unique = self.formation(formation_id).unique
        record = self.data["formations"][formation_id]
        record["at"], record["depleted"] = ("ash" if unique else "destroyed"), False
        if unique:
            self.data["ash"].append(formation_id)  # ruling S-38
        self.emit("formation_destroyed", formation=formation_id, unique=unique, why=why)

    def supply(self, formation_id: str, why: str) -> None:
        """§Deplete B: a depleted formation returns to full strength; no lost leader comes back."""
        self.data["formations"][formation_id]["depleted"] = False
        self.emit("supplied", formation=formation_id, why=why)

    def draw_formation(self, side: str) -> str | None:
        """The top of the Formation Deck, reshuffling the Destroyed Pile into it when it runs out (§Mats)."""
        record = self.side(side)
        if not record["formation_deck"]:
            destroyed = self.formations_at("destroyed", side)
            if not destroyed:
                return None
            record["formation_deck"] = self.shuffle(destroyed, f"{side} destroyed pile reshuffled", "shuffle")
            for formation_id in destroyed:
                self.data["formations"][formation_id]["at"] = "deck"
            self.emit("reshuffled", side=side, pile="formation", cards=len(destroyed))
        return record["formation_deck"].pop(0)

    # ------------------------------------------------------------------ districts, buildings, units

    def district(self, district: str) -> DistrictRecord:
        return self.data["districts"][district]

    def building_of(self, district: str) -> Building | None:
        building = self.district(district)["building"]
        return self.scenario.building(building) if building else None

    def buildings_in_play(self) -> list[str]:
        """Districts holding a Building Card (not a Volga Card, not empty)."""
        return [d for d in DISTRICTS if self.district(d)["building"] is not None]

    def volga_count(self) -> int:
        return sum(1 for d in DISTRICTS if self.district(d)["volga"])

    def units_on(self, district: str, side: str) -> dict[str, int]:
        """Counter kind -> how many of `side`'s counters lie core side up on the district's building."""
        return self.district(district)["units"][side]

    def unit_count(self, district: str, side: str) -> int:
        return sum(self.units_on(district, side).values())

    def cores_on(self, district: str, side: str) -> dict[str, int]:
        """Core unit type -> how many (what players see and name: Rifle, Armor, Fort ...)."""
        cores: dict[str, int] = {}
        for kind, count in self.units_on(district, side).items():
            if count:
                core = self.scenario.counter(kind).core
                cores[core] = cores.get(core, 0) + count
        return cores

    def unshielded_cores(self, district: str, side: str) -> list[str]:
        return [core for core in self.cores_on(district, side)
                if not self.scenario.counter(self.scenario.counters_with_core(side, core)[0]).shielded]

    def place_counter(self, district: str, side: str, kind: str) -> None:
        self.side(side)["pile"][kind] -= 1
        units = self.units_on(district, side)
        units[kind] = units.get(kind, 0) + 1

    def remove_core(self, district: str, side: str, core: str, to_pile: bool = True) -> str | None:
        """Take one `core` unit off the building (§Destroying: back to the Unit Pile); the counter kind, or None."""
        units = self.units_on(district, side)
        kinds = [k for k in self.scenario.counters_with_core(side, core) if units.get(k)]
        if not kinds:
            return None
        kind = max(kinds, key=lambda k: units[k])
        units[kind] -= 1
        if not units[kind]:
            del units[kind]
        if to_pile:
            self.side(side)["pile"][kind] += 1
        return kind

    def clear_units(self, district: str) -> None:
        """Every unit on the building back to its owner's pile (§Battle 6 C)."""
        for side in SIDES:
            for kind, count in self.units_on(district, side).items():
                self.side(side)["pile"][kind] += count
            self.district(district)["units"][side] = {}

    # ------------------------------------------------------------------ the battle

    @property
    def battle(self) -> BattleRecord:
        battle = self.data["battle"]
        if battle is None:
            raise RuntimeError("no battle is being fought")
        return battle

    def battling(self, side: str) -> list[str]:
        """`side`'s formations in the current battle, not retreated."""
        battle = self.battle
        return [f for f in battle["formations"][side] if f not in battle["retreated"] and self.in_play(f)
                and self.where(f) == battle["district"]]

    def has_routed(self) -> bool:
        """§Battle 4 note, ruling S-20: every German formation and unit in the battle gone."""
        battle = self.battle
        return not self.battling("german") and not self.unit_count(battle["district"], "german")

    def open_districts(self) -> list[str]:
        return [d for d in DISTRICTS if not self.district(d)["closed"]]

    def building_name(self, district: str) -> str:
        building = self.building_of(district)
        return building.name if building else f"district {district}"

    def draw_carnage(self, why: str) -> str:
        """§Carnage: the top card, read for one section and put in the Ash Heap; reshuffled from there when
        the deck runs out (§Mats)."""
        if not self.data["carnage"]:
            used = [c for c in self.data["ash"] if c.startswith("C") and c[1:].isdigit()]
            self.data["ash"] = [c for c in self.data["ash"] if c not in used]
            self.data["carnage"] = self.shuffle(used, "carnage cards reshuffled", "shuffle")
            self.emit("reshuffled", side=None, pile="carnage", cards=len(used))
        card = self.data["carnage"].pop(0)
        self.data["ash"].append(card)
        return card
