"""A demo player for VMT that reads its report mails like a person would and writes orders.

It knows only what its reports say plus the public map.  It files standing orders for the
questions asked inside combats (support cards, counterattacks) once, then answers each report:
attacks with `ASSAULT GROUP <area> TO <target>` where it has three blocks next to a weak enemy
area, redeploys toward the front, passes when it has nothing better.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace

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
            lines += self.answer(decision, seen, scenario, rng)
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

    def answer(self, decision, seen, scenario, rng: random.Random) -> list[str]:
        """The lines for one question: a whole phase's plan where the question opens a phase."""
        options = decision.options
        kind_hint = decision.key.rsplit(".", 1)[-1]
        if kind_hint == "card":
            return self.card(decision, seen, scenario, rng)
        if kind_hint == "reinforce":
            # The action phase comes next (L423: "before any card"): plan it in the same mail.
            then = self.card(replace(decision, options=["PASS", "ASSAULT GROUP"]), seen, scenario, rng)
            if seen["turn"] < 4 or rng.random() >= 0.6:
                return ["REINFORCE NONE", *then]
            return ["REINFORCE NEXT", *self.placements(decision.prompt, seen, scenario), *then]
        if kind_hint == "move":
            attacks = [o for o in options if o.startswith("MOVE") and o.split(" TO ")[-1].split()[0] in seen["enemy"]]
            if attacks and rng.random() < 0.7:
                return [rng.choice(attacks)]
            return ["DONE"]
        if kind_hint == "discard":
            # The opening bombardment and the action phase after it, planned in the same mail: an Air
            # Strike on the strongest enemy area next to the front, then the assaults.
            strikes = [f"PLAY AIR_STRIKE ATTACK {target}" for target in self.strike_targets(seen, scenario)[:1]
                       if "air strike" in seen["hand"] or "air_strike" in seen["hand"]]
            then = self.card(replace(decision, options=["PASS", "ASSAULT GROUP"]), seen, scenario, rng)
            return ["DISCARD NONE", *strikes, "END", *then]
        if options:
            return [without_label(rng.choice(options))]
        return [decision.default] if decision.default else []

    def card(self, decision, seen, scenario, rng) -> list[str]:
        """A careful player plans the whole phase in one mail: the bombardments worth firing then
        END, or the assaults it can make at odds (each from another area) then END; when a plan did
        not fit, it plans again from what is listed now."""
        options = decision.options
        plays = [o for o in options if o.startswith("PLAY") and "AIR_STRIKE INTERDICT" not in o]
        if "END" in options and plays and not any(o.startswith(("ASSAULT", "PASS")) for o in options):
            return [*self.affordable(plays, seen["hand"], rng.choice((0, 1, 2)), rng), "END"]
        attacks = self.planned_attacks(seen, scenario, rng) if any(
            o.startswith("ASSAULT GROUP") for o in options) else []
        if attacks:
            return [*attacks, "END"]
        if plays and rng.random() < 0.6:
            return [*self.affordable(plays, seen["hand"], 1, rng), "END"]
        if any(o.startswith("PASS") for o in options):
            return ["PASS"]
        return ["END"]

    def placements(self, prompt: str, seen, scenario) -> list[str]:
        """The arriving blocks (named in the question) placed at once on an Axis map-edge area the
        bot holds (L423), so that taking a reinforcement costs no extra round trip."""
        named = re.search(r"\(([^()]+)\)\s+for\b", prompt)
        room = {a.id: 3 - seen["own"][a.id] for a in scenario.areas_where(axis_edge=True)
                if a.id in seen["own"]}  # 3 blocks at most in an area (L95)
        lines = []
        for block in named.group(1).split(",") if named else []:
            roomiest = max(sorted(room), key=lambda area: room[area], default=None)
            if roomiest is None or room[roomiest] <= 0:
                return []  # nowhere it surely fits: answer each placement when asked
            room[roomiest] -= 1
            lines.append(f"PLACE {block.strip()} {roomiest}")
        return lines

    def planned_attacks(self, seen, scenario, rng) -> list[str]:
        """Up to three assaults at odds, each from another area on another target (the Axis attacks
        whenever the odds are even; the Soviet only with the odds in its favour)."""
        wanted = 0 if self.side == "axis" else 1
        candidates = []
        for area, count in seen["own"].items():
            if count < 2:
                continue
            for target in scenario_neighbours(scenario, area):
                defenders = seen["enemy"].get(target)
                if defenders is not None and count - defenders >= wanted:
                    candidates.append((count - defenders, rng.random(), area, target))
        # An assault plays an Assault card, or a Counterattack card in its place: as many as the hand holds.
        cards = ["" for card in seen["hand"] if card == "assault"] + [
            " USING COUNTERATTACK" for card in seen["hand"] if card == "counterattack"]
        lines: list[str] = []
        used: set[str] = set()
        for _, _, area, target in sorted(candidates, reverse=True):
            if area in used or target in used or len(lines) >= min(3, len(cards)):
                continue
            used |= {area, target}
            lines.append(f"ASSAULT GROUP {area} TO {target}{cards[len(lines)]}")
        return lines

    @staticmethod
    def strike_targets(seen, scenario) -> list[str]:
        """Enemy areas next to the bot's own, the most crowded first."""
        front = {t for area in seen["own"] for t in scenario_neighbours(scenario, area) if t in seen["enemy"]}
        return sorted(front, key=lambda t: (-seen["enemy"][t], t))

    @staticmethod
    def affordable(plays: list[str], hand: list[str], wanted: int, rng: random.Random) -> list[str]:
        """Up to `wanted` of the listed plays, no more of a card than the hand holds."""
        left = [card.replace(" ", "_").upper() for card in hand]
        chosen: list[str] = []
        for play in rng.sample(plays, k=len(plays)):
            card = play.split()[1]
            if len(chosen) < wanted and card in left:
                left.remove(card)
                chosen.append(play)
        return chosen


def without_label(option: str) -> str:
    """An option as an order: the note a report prints after it, such as a retreat's extra losses
    "(1: enemy field of fire)", is not part of the order."""
    return LABEL.sub("", option)


LABEL = re.compile(r"\s+\(\d+(?::[^()]*)?\)\s*$")


def scenario_neighbours(scenario: Scenario, area: str) -> tuple[str, ...]:
    return geography(scenario).neighbours(area)


def brains(public_map: Scenario) -> dict[str, VmtBrain]:
    return {"axis": VmtBrain("axis", public_map), "soviet": VmtBrain("soviet", public_map)}
