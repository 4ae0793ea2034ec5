"""A demo player for The Hell of Stalingrad that reads its report mails as a person would and writes what
a careful player sends: its standing policies once; maneuvers to the weakest buildings up to their
Concentration; and, when a battle asks for its first action, a whole battle script (every card it can
afford, each on a formation with room for it, then Holds), each line guarded by `IF AT <building>` so a
line left over never acts in the next battle.

It knows only its report text: the districts, formations, the battle's room per formation, its hand.  In
the four-player game each seat has a bot of its side; the report lists only the seat's own formations among
its maneuver options, and its teammate's hand on a line of its own (which the bot leaves alone).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from moderator.core.bots import AskedDecision, ReportMail
from moderator.games.stalingrad.scenario import Scenario
from moderator.games.stalingrad.seating import ALL_SEATS, SIDE_OF

DISTRICT = re.compile(r"^  ([ABCD]) .* \[(\w+)\] .*concentration (\d+), defense (\d)")
FORMATION = re.compile(r"^  (\S+)\s+(German|Soviet) .*: (\S+), (depleted|full strength), leader")
ROOM = re.compile(r"^  (German|Soviet) (\S+): (\d+) (card\(s\)|patriotism) left")
HAND = re.compile(r"^  (\S+\.\d+)\s+.*\((value (\d)|\w+ doctrine)\)")
PRESENT = re.compile(r"^     formations: German (.*); Soviet (.*)$")
BATTLE = re.compile(r"^BATTLE for .* \(district ([ABCD])\), round (\d+).*; (\d+) Hold\(s\) left")
POLICIES = {
    "german": ["STANDING casualty: LOSE Grenadier Recon", "STANDING sniper: SNIPE AUTO"],
    "soviet": ["STANDING casualty: LOSE Recon Rifle Motivator", "STANDING target: TARGET Armor Grenadier Recon"],
}


@dataclass
class Seen:
    buildings: dict[str, tuple[str, int, int]]  # district -> building id, concentration, defense
    formations: dict[str, tuple[str, bool]]  # id -> where, depleted
    room: dict[str, int]
    hand: dict[str, int | None]  # card copy -> Soviet value (None for a German card)
    battle: tuple[str, int, int] | None  # district, round, holds left
    present: dict[str, dict[str, int]]  # building id -> side -> formations there already (a teammate's too)


def read_situation(text: str) -> Seen:
    seen = Seen({}, {}, {}, {}, None, {})
    building = ""
    for line in text.split("\n"):
        if m := DISTRICT.match(line):
            seen.buildings[m[1]] = (m[2], int(m[3]), int(m[4]))
            building = m[2]
        elif m := PRESENT.match(line):
            seen.present[building] = {side: 0 if names == "none" else len(names.split(", "))
                                      for side, names in (("german", m[1]), ("soviet", m[2]))}
        elif m := FORMATION.match(line):
            seen.formations[m[1]] = (m[3], m[4] == "depleted")
        elif m := ROOM.match(line):
            seen.room[m[2]] = int(m[3])
        elif m := HAND.match(line):
            seen.hand[m[1]] = int(m[3]) if m[3] else None
        elif m := BATTLE.match(line):
            seen.battle = (m[1], int(m[2]), int(m[3]))
    return seen


@dataclass
class StalingradBrain:
    side: str
    scenario: Scenario
    filed: bool = False

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        seen = read_situation(report.text)
        out: list[str] = [] if self.filed else list(POLICIES[self.side])
        self.filed = True
        for decision in report.decisions:
            kind = decision.key.rsplit(".", 1)[-1]
            if kind in ("assault", "defend"):
                out += self.maneuvers(seen, decision, kind)
            elif kind == "action":
                out += self.battle_script(seen, decision)
            elif kind == "intercept":
                out.append(decision.options[-1])  # a careful player intercepts whenever he can
            elif kind == "consolidate":
                out += [o for o in decision.options[:1] if o != "CONSOLIDATE DONE"] + ["CONSOLIDATE DONE"]
            else:
                out.append(decision.default)
        return out

    def maneuvers(self, seen: Seen, decision: AskedDecision, kind: str) -> list[str]:
        """Full-strength formations first, to the buildings of lowest Defense, up to each Concentration."""
        verb = kind.upper()
        offered: dict[str, list[str]] = {}
        for option in decision.options:
            words = option.split()
            if len(words) == 4:
                offered.setdefault(words[1], []).append(words[3])
        order = sorted(seen.buildings.values(), key=lambda b: b[2])
        used: set[str] = set()
        lines: list[str] = []
        for building, concentration, _ in order:
            free = [f for f in offered.get(building, []) if f not in used]
            free.sort(key=lambda f: seen.formations.get(f, ("", False))[1])
            room = concentration - seen.present.get(building, {}).get(self.side, 0)
            chosen = free[:min(room, concentration if kind == "assault" else max(1, concentration - 1))]
            if chosen and (kind == "defend" or not seen.formations.get(chosen[0], ("", True))[1] or not lines):
                used.update(chosen)
                lines.append(f"{verb} {building} WITH {' '.join(chosen)}")
        return lines + [f"{verb} DONE"]

    def battle_script(self, seen: Seen, decision: AskedDecision) -> list[str]:
        """Every card that fits a formation's room, then Holds up to the Break Test, all for this building."""
        if seen.battle is None:
            return [decision.default]
        building = seen.buildings.get(seen.battle[0], ("", 0, 0))[0]
        guard = f"IF AT {building}: "
        room = dict(seen.room)
        plays: list[str] = []
        for option in decision.options:
            words = option.split()
            if words[0] != "PLAY" or words[1] in {p.split()[1] for p in plays}:
                continue
            if len(words) == 2:  # a hero plays without a formation (§Heroes)
                plays.append(option)
                continue
            cost = seen.hand.get(words[1]) if self.side == "soviet" else 1
            if room.get(words[3], 0) >= (cost or 0) and (cost or room.get(words[3], 0) > 0 or self.side == "soviet"):
                room[words[3]] = room.get(words[3], 0) - (cost or 0)
                plays.append(option)
        reload = [] if seen.hand or plays else ["RELOAD"]
        holds = ["HOLD"] * max(1, seen.battle[2])
        return [guard + line for line in reload + plays + holds]


def brains(scenario: Scenario, four_player: bool = False) -> dict[str, StalingradBrain]:
    if four_player:
        return {seat: StalingradBrain(SIDE_OF[seat], scenario) for seat in ALL_SEATS}
    return {"german": StalingradBrain("german", scenario), "soviet": StalingradBrain("soviet", scenario)}
