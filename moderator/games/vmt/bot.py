"""A demo player for VMT that reads its report mails like a person would and writes orders.

It knows only what its reports say plus the public map.  It files standing orders for the
questions asked inside combats (support cards, counterattacks) once, then answers each report:
attacks with `ASSAULT GROUP <area> TO <target>` where it has three blocks next to a weak enemy
area, redeploys toward the front, passes when it has nothing better.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from moderator.core.bots import ReportMail
from moderator.games.vmt.board import geography
from moderator.games.vmt.scenario import Scenario

SECTION = re.compile(r"^([A-Z][A-Z ()]+):?$")


def parse_report(text: str) -> dict:
    """Own blocks by area, enemy block counts by area, hand, turn, phase, from the text report."""
    own: dict[str, int] = {}
    enemy: dict[str, int] = {}
    hand: list[str] = []
    section = ""
    current = None
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("YOUR BLOCKS"):
            section = "own"
            continue
        if stripped.startswith("ENEMY BLOCKS"):
            section = "enemy"
            continue
        if stripped.startswith("MARKERS AND COUNTERS") or stripped.startswith("WHAT WE NEED"):
            section = ""
        if stripped.startswith("YOUR HAND"):
            hand = [c.strip().lower() for c in stripped.split(":", 1)[1].split(",")
                    if c.strip() and c.strip() != "empty"]
            continue
        if section == "own":
            match = re.match(r"^  ([A-C]\d\d) ", line)
            if match:
                current = match.group(1)
                own[current] = 0
            elif current and re.match(r"^\s{5,}\S+\s+\d/\d SP", line):
                own[current] += 0 if "exhausted" in line else 1
        elif section == "enemy":
            match = re.match(r"^  ([A-C]\d\d) .*: (\d+) block", line)
            if match:
                enemy[match.group(1)] = int(match.group(2))
    turn = re.search(r"Turn (\d+) of", text)
    return {"own": own, "enemy": enemy, "hand": hand, "turn": int(turn.group(1)) if turn else 1}


@dataclass
class VmtBrain:
    side: str
    public_map: Scenario  # the map everybody may see
    filed_standing: bool = False
    cards_this_phase: int = 0
    last_phase: str = ""
    memory: dict = field(default_factory=dict)

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        scenario = self.public_map
        seen = parse_report(report.text)
        seen["held"] = "SCRIPT HELD" in report.text
        lines: list[str] = []
        if not self.filed_standing:
            lines += self.standing()
            self.filed_standing = True
        for decision in report.decisions:
            answer = self.answer(decision, seen, scenario, rng)
            if answer:
                lines.append(answer)
        return lines

    def standing(self) -> list[str]:
        """Standing orders: the questions inside combats are answered without a round trip."""
        if self.side == "axis":
            return ["STANDING support IF HOLD AXIS_FIELD_ARTILLERY AND ATTACKERS 2: SUPPORT AXIS_FIELD_ARTILLERY",
                    "STANDING support IF HOLD GOLIATH: SUPPORT GOLIATH"]
        return ["STANDING support IF HOLD BUNKER: SUPPORT BUNKER",
                "STANDING support IF HOLD MINEFIELD: SUPPORT MINEFIELD",
                "STANDING support IF HOLD MORTARS: SUPPORT MORTARS",
                "STANDING cover IF HOLD FIGHTER_COVER: COVER"]

    def answer(self, decision, seen, scenario, rng: random.Random) -> str | None:
        options = decision.options
        kind_hint = decision.key.rsplit(".", 1)[-1]
        if kind_hint == "card":
            return self.card(decision, seen, scenario, rng)
        if kind_hint == "reinforce":
            return "REINFORCE NEXT" if seen["turn"] >= 4 and rng.random() < 0.6 else "REINFORCE NONE"
        if kind_hint == "move":
            attacks = [o for o in options if o.startswith("MOVE") and o.split(" TO ")[-1].split()[0] in seen["enemy"]]
            if attacks and rng.random() < 0.7:
                return rng.choice(attacks)
            return "DONE"
        if kind_hint == "discard":
            return "DISCARD NONE"
        if options:
            return without_label(rng.choice(options))
        return decision.default

    def card(self, decision, seen, scenario, rng) -> str:
        options = decision.options
        if seen["held"]:  # the last plan did not fit: take one of the listed plays instead
            return rng.choice(options)
        if "END" in options and not any(o.startswith("PASS") for o in options):
            self.cards_this_phase += 1
            if self.cards_this_phase > 3:
                self.cards_this_phase = 0
                return "END"
        else:
            self.cards_this_phase = 0
        if "END" in options and any(o.startswith("PLAY") for o in options) and not any(
                o.startswith("ASSAULT") for o in options):
            plays = [o for o in options if o.startswith("PLAY")]
            return rng.choice(plays) if rng.random() < 0.5 else "END"
        attacks = []
        if any(o.startswith("ASSAULT GROUP") for o in options):
            for area, count in seen["own"].items():
                if count < 2:
                    continue
                for target in scenario_neighbours(scenario, area):
                    defenders = seen["enemy"].get(target)
                    if defenders is not None and defenders <= count:
                        attacks.append((count - defenders, rng.random(), f"ASSAULT GROUP {area} TO {target}"))
        # The Axis attacks whenever it can do so at odds; the Soviet only with the odds in its favour.
        wanted = 0 if self.side == "axis" else 1
        good = [a for a in attacks if a[0] >= wanted]
        if good:
            using = "" if "assault" in seen["hand"] else " USING COUNTERATTACK"
            return max(good)[2] + using
        artillery = [o for o in options if o.startswith("PLAY") and "AIR_STRIKE INTERDICT" not in o]
        if artillery and rng.random() < 0.6:
            return rng.choice(artillery)
        if any(o.startswith("PASS") for o in options):
            return "PASS"
        return "END"


def without_label(option: str) -> str:
    """An option as an order: the note a report prints after it, such as a retreat's extra losses
    "(1: enemy field of fire)", is not part of the order."""
    return LABEL.sub("", option)


LABEL = re.compile(r"\s+\(\d+(?::[^()]*)?\)\s*$")


def scenario_neighbours(scenario: Scenario, area: str) -> tuple[str, ...]:
    return geography(scenario).neighbours(area)


def brains(public_map: Scenario) -> dict[str, VmtBrain]:
    return {"axis": VmtBrain("axis", public_map), "soviet": VmtBrain("soviet", public_map)}
