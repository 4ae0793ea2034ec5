"""A demo player for Across the Narva that reads its report mails and writes a turn's orders.

It knows only what its reports say (its own units by hex, the enemy stacks it can see) plus the
public map.  Each turn, when asked for READY, it files keyed orders: which HQs to activate for
the chits it may draw, and for each HQ, moves next to one enemy hex and an attack on it.  The
Soviet bot presses toward the nearest German stacks; the German bot counter-attacks only where
it has two units next to a visible Soviet stack, and sends its reinforcements toward Narva.
Everything else (losses, retreats, advances, barrages) is left to the game's standing orders.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from moderator.core.bots import ReportMail
from moderator.games.narva.scenario import Scenario

LINE = re.compile(r"^  (\d{4})  (.*)$")
UNIT = re.compile(r"([A-Za-z0-9\-]+/[A-Za-z0-9/\-]+) (\d+)-(\d+)-(\d+)")


def parse_report(text: str) -> tuple[dict[str, list[tuple[str, int]]], dict[str, list[str]], int]:
    """Own units by hex (id, attack), enemy tops by hex, and the turn."""
    own: dict[str, list[tuple[str, int]]] = {}
    enemy: dict[str, list[str]] = {}
    section = ""
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("YOUR UNITS"):
            section = "own"
            continue
        if stripped.startswith("ENEMY UNITS SEEN"):
            section = "enemy"
            continue
        if stripped.startswith("CHITS:"):
            section = ""
        match = LINE.match(line)
        if not match or not section:
            continue
        units = UNIT.findall(match.group(2))
        if section == "own":
            own[match.group(1)] = [(u[0], int(u[1])) for u in units]
        else:
            enemy[match.group(1)] = [u[0] for u in units]
    turn = re.search(r"Turn (\d+) of", text)
    return own, enemy, int(turn.group(1)) if turn else 1


@dataclass
class NarvaBrain:
    side: str
    public_map: Scenario  # the map everybody may see: terrain, hexes, distances

    def orders(self, report: ReportMail, rng: random.Random) -> list[str]:
        out: list[str] = []
        ready = [d for d in report.decisions if "READY" in d.options or d.default == "READY"]
        for decision in report.decisions:
            if decision in ready:
                continue
            out.append(decision.default)
        if ready:
            out = self.plan(report.text, rng) + ["READY"]
        return out

    # ------------------------------------------------------------------ the turn's plan

    def plan(self, text: str, rng: random.Random) -> list[str]:
        own, enemy, _turn = parse_report(text)
        s = self.public_map
        hqs = sorted(u for units in own.values() for u, _ in units if u.endswith("/HQ"))
        where = {u: h for h, units in own.items() for u, _ in units}
        attack_of = {u: a for units in own.values() for u, a in units}
        lines: list[str] = []
        taken: set[str] = set()  # hexes already chosen as destinations

        def front_target(hq: str) -> str | None:
            mine = [where[u] for u in where if u.split("/")[0] == hq.split("/")[0] and not u.endswith("/HQ")]
            if not mine or not enemy:
                return None
            return min(enemy, key=lambda e: (min(s.distance(e, m) for m in mine), e))

        plans = []
        for hq in hqs:
            target = front_target(hq)
            if target is None:
                continue
            formation = hq.split("/")[0]
            units = [u for u in where if u.split("/")[0] == formation and not u.endswith("/HQ") and attack_of[u] > 0]
            distance = {u: s.distance(where[u], target) for u in units}
            units.sort(key=lambda u: (distance[u], u))
            plans.append((min(distance.values()) if units else 99, hq, target, units[:4]))
        plans.sort()
        for _, hq, _target, _units in plans:
            if self.side == "soviet" and hq.split("/")[0] in ("2SH", "8", "59"):
                continue  # Army HQs are activated by their chits; they activate corps
            lines += [f"ON ANY: ACTIVATE {hq}", f"ON ANY: ACTIVATE {hq}"]
        for _, hq, target, units in plans:
            if self.side == "german" and not self._german_should_attack(own, enemy, target, where, units):
                continue
            spots = [n for n in s.land_neighbours(target) if n not in enemy and n not in taken]
            spots.sort(key=lambda h: (min(s.distance(h, where[u]) for u in units) if units else 0, h))
            movers: list[str] = []
            for i, uid in enumerate(units):
                if not spots:
                    break
                spot = spots[min(i // 2, len(spots) - 1)]
                if where[uid] in s.land_neighbours(target):
                    movers.append(uid)
                    continue
                lines.append(f"ON HQ {hq}: MOVE {uid} TO {spot}")
                taken.add(spot)
                movers.append(uid)
            if movers:
                lines.append(f"ON HQ {hq}: ATTACK {target} WITH {' '.join(movers)}")
                if len(movers) > 2:
                    lines.append(f"ON HQ {hq}: ATTACK {target} WITH {' '.join(movers[:2])}")
        if self.side == "german":
            lines += self._reinforcement_moves(text, own)
        return lines

    def _german_should_attack(self, own, enemy, target, where, units) -> bool:
        s = self.public_map
        adjacent = [u for u in units if s.distance(where[u], target) == 1]
        return len(adjacent) >= 2

    def _reinforcement_moves(self, text: str, own) -> list[str]:
        """Arriving German units head for the rollbahn near Narva."""
        s = self.public_map
        coming = re.findall(r"turn (\d+) at ([A-C]): (\S+) \(German\)", text)
        turn = re.search(r"Turn (\d+) of", text)
        now = int(turn.group(1)) if turn else 1
        lines = []
        goals = [h for h in s.rollbahn_vp_hexes() if s.hex(h).west_of_narva][-6:] or ["2930"]
        for i, (when, _entry, uid) in enumerate(coming):
            if int(when) == now and not uid.endswith("/HQ"):
                lines.append(f"ON REINFORCEMENTS: MOVE {uid} TO {goals[i % len(goals)]}")
        return lines


def brains(public_map: Scenario) -> dict[str, NarvaBrain]:
    return {"german": NarvaBrain("german", public_map), "soviet": NarvaBrain("soviet", public_map)}
