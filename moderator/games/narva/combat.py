"""Combat (9.0-9.6) with the prepared defences (11.3.2-11.3.4), air support (12.1) and Stavka
attacks (2.5.3).

A ``combat`` frame announces the attack (which reveals both stacks, 2.1.3A), computes the odds,
rolls, and then runs the results in the rule's order: the defender's losses and retreat, then
the attacker's (9.1C, 9.5A), then the advance after combat (9.6).  Losses, retreats, advances and
displacements are frames of their own, so each can ask its owner.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from moderator.core.frames import Automatic, Stage, StageSequence, new_frame
from moderator.core.rng import Die
from moderator.games.narva.board import Board, enemy
from moderator.games.narva.losses import push_losses
from moderator.games.narva.retreat import push_retreat
from moderator.games.narva.state import AirMode, CombatFrame, CombatStage, DefenderResult, Side


@dataclass
class Odds:
    attack: int
    defense: int
    attack_detail: list[dict[str, Any]] = field(default_factory=list)
    defense_detail: list[dict[str, Any]] = field(default_factory=list)
    base_column: int | None = 0  # column on the attacker's line before shifts (<1: below the table)
    shifts: list[tuple[str, int]] = field(default_factory=list)
    column: int | None = None  # final column; None = the attack is cancelled (9.3.2A)
    zero_defense: bool = False

    @property
    def total_shift(self) -> int:
        return sum(n for _, n in self.shifts)


def odds_label(board: Board, side: str, column: int) -> str:
    col = sorted(board.scenario.tables.crt.columns, key=lambda c: c.index)[column - 1]
    return getattr(col, side)


def pd_value(board: Board, division: str) -> int:
    track = board.scenario.tables.pd_track
    return track.boxes[board.data["pd"][division]]


def pd_at_zero(board: Board, division: str) -> bool:
    return board.data["pd"][division] >= len(board.scenario.tables.pd_track.boxes) - 1


def extended_column(board: Board, side: Side, attack: int, defense: int) -> int:
    """The attacker's CRT column, continued below the table (1-3 is column 0, 1-4 column -1 ...)
    so that right shifts can lift a low ratio back onto the table (ruling N-33)."""
    column = board.scenario.odds_column(side, attack, defense)
    if column is not None:
        return column
    if attack <= 0:
        return -99
    ratio = Fraction(defense, attack)  # defender per attacker, > 2 here
    return 1 - (math.ceil(ratio) - 2)


def halved_attack(board: Board, uid: str, target: str) -> tuple[Fraction, list[str]]:
    """9.3C: halve once for any river or ferry between attacker and target (a bridge too, 2.2.8B),
    and once for being out of supply or isolated; the effects multiply (2.1.1)."""
    value = Fraction(board.attack(uid))
    why = []
    side = board.hexside(board.hex_on_map(uid), target)
    if side.river is not None:
        value /= 2
        why.append("across a river")
    if board.supply(uid) != "ok":
        value /= 2
        why.append(board.supply(uid))
    return value, why


def modified_defense(board: Board, uid: str, target: str) -> tuple[Fraction, list[str]]:
    value = Fraction(board.defense(uid))
    why = []
    effect = board.scenario.terrain_effect(board.scenario.terrain(target))
    if effect.defense_multiplier > 1:
        value *= effect.defense_multiplier  # 9.3C: doubled once, before any halving
        why.append(f"{board.scenario.terrain(target)} x{effect.defense_multiplier}")
    if board.supply(uid) != "ok":
        value /= 2
        why.append(board.supply(uid))
    return value, why


def compute_odds(board: Board, side: Side, attackers: list[str], target: str, air: Mapping[str, AirMode],
                 stavka: bool = False) -> Odds:
    defenders = [u for u in board.units_at(target)]
    a_total = Fraction(0)
    d_total = Fraction(0)
    odds = Odds(0, 0)
    for uid in attackers:
        value, why = halved_attack(board, uid, target)
        a_total += value
        odds.attack_detail.append({"unit": uid, "printed": board.attack(uid), "value": str(value), "why": why})
    for uid in defenders:
        value, why = modified_defense(board, uid, target)
        d_total += value
        odds.defense_detail.append({"unit": uid, "printed": board.defense(uid), "value": str(value), "why": why})
    odds.attack = math.floor(a_total)  # 2.1.2, ruling N-31: add the fractions, then round the totals down once
    odds.defense = math.floor(d_total)
    columns = board.scenario.crt_columns()
    if odds.defense <= 0:
        odds.zero_defense = True  # 9.3.2C: highest column, regardless of shifts
        odds.base_column = odds.column = columns
        return odds
    odds.base_column = extended_column(board, side, odds.attack, odds.defense)
    effect = board.scenario.terrain_effect(board.scenario.terrain(target))
    if effect.column_shift:
        odds.shifts.append((f"{board.scenario.terrain(target)} (TEC)", effect.column_shift))
    if board.hex_pinned(target):
        odds.shifts.append(("pinned (2.5.1.3B)", 1))
    for air_id, mode in sorted(air.items()):
        unit = board.scenario.air_unit(air_id)
        odds.shifts.append((f"{unit.name} {mode} attack (12.1)", unit.full if mode == "full" else unit.normal or 0))
    if stavka:
        odds.shifts.append(("Stavka directive (2.5.3B)", 1))
    division = board.scenario.hex(target).pd_division
    if side == "soviet" and division is not None and board.owner_of(target) == "german":
        pd_shift = pd_value(board, division)
        if pd_shift:
            odds.shifts.append((f"prepared defences {division} (11.3.2)", -pd_shift))
    final = odds.base_column + odds.total_shift
    odds.column = None if final < 1 else min(final, columns)
    return odds


def combat_die(board: Board, side: str, purpose: str) -> tuple[Die, int]:
    """The combat die and the modified total read on the CRT (14.10B: +1 to Soviet rolls on Turn 1)."""
    die = board.d6(purpose)
    modifier = board.scenario.meta.first_turn.soviet_combat_modifier if (side == "soviet" and board.turn == 1) else 0
    return die, die.value + modifier


def start_combat(board: Board, side: Side, target: str, attackers: list[str], air: dict[str, AirMode],
                 stavka: bool = False, min_column: int | None = None) -> CombatFrame:
    """Push the combat frame of an announced attack; it resolves when it comes up."""
    frame: CombatFrame = board.push(new_frame(
        board.data, "combat", side=side, target=target, attackers=list(attackers), air=dict(air), stavka=stavka,
        min_column=min_column, stage=COMBAT_STAGES.first, defenders=[], result={}))
    return frame


def pd_absorb(board: Board, division: str, losses: int, retreat: int) -> tuple[int, int, int]:
    """11.3.4: each loss, then each un-negated retreat hex, moves the division's marker one box
    down until the zero box; what is left falls on the units.  Returns (losses, retreat, boxes)."""
    boxes = 0
    left_losses = 0
    for _ in range(losses):
        if pd_at_zero(board, division):
            left_losses += 1
        else:
            board.data["pd"][division] += 1
            boxes += 1
    left_retreat = 0
    for _ in range(retreat):
        if pd_at_zero(board, division):
            left_retreat += 1
        else:
            board.data["pd"][division] += 1
            boxes += 1
    return left_losses, left_retreat, boxes


def defender_result(board: Board, target: str, losses: int, retreat: int, barrage: bool) -> DefenderResult:
    """Negations (9.4.4, 9.5.6, 11.3.3; none against barrage, 2.5.1.2) and the PD track (11.3.4)."""
    info = board.scenario.hex(target)
    effect = board.scenario.terrain_effect(info.terrain)
    notes = []
    defender_side = board.owner_of(target)
    # the prepared defences of a hex count for a German defender only (11.3)
    german_pd = info.pd_division if defender_side == "german" else None
    if not barrage and effect.negate_first_loss and losses:
        losses -= 1
        notes.append("first loss negated in a city (9.4.4)")
    if not barrage and retreat and (effect.negate_first_retreat or german_pd is not None):
        retreat -= 1
        notes.append("first retreat negated (9.5.6, 11.3.3)")
    boxes = 0
    if german_pd is not None and (losses or retreat):
        losses, retreat, boxes = pd_absorb(board, german_pd, losses, retreat)
        notes.append(f"{boxes} box(es) down the {german_pd} prepared defence track (11.3.4)")
    return {"losses": losses, "retreat": retreat, "notes": notes, "pd_boxes": boxes, "pd_division": german_pd}


# The steps of one combat in the rules' order: the odds and the die, then the results, the
# defender's first (9.1C), losses before retreats, the defender's retreat before the attacker's
# (9.5A), and the advance into a vacated hex (9.6).
COMBAT_STAGES: StageSequence[CombatStage] = StageSequence(
    Stage("resolve", "9.3, 12.1, 14.10B: the odds, the shifts and the die"),
    Stage("defender_losses", "9.4: the defender's step losses"),
    Stage("defender_retreat", "9.5: the defender's retreat"),
    Stage("attacker_losses", "9.4: the attacker's step losses"),
    Stage("attacker_retreat", "9.5, 9.5.6B: the attacker's retreat"),
    Stage("advance", "9.6: the advance into a vacated hex"),
    Stage("done", "9.0: the combat is over"),
)


class Combat(Automatic[Board, CombatFrame]):
    """A combat resolves by itself (9.0): odds, the die, losses, retreats and the advance."""

    def step(self, board: Board, frame: CombatFrame) -> bool:
        stage = frame["stage"]
        if stage == "done":
            board.pop()
        elif stage == "resolve":
            resolve(board, frame)
        else:
            frame["stage"] = COMBAT_STAGES.after(stage)
            RESULT_STEPS[stage](board, frame)
        return True


# ---------------------------------------------------------------- the odds and the die


def resolve(board: Board, frame: CombatFrame) -> None:
    """Reveal both stacks (2.1.3A), compute the odds, cancel an attack below the table (9.3.2A) or
    roll and read the CRT."""
    side, target = frame["side"], frame["target"]
    attackers = frame["attackers"]
    frame["defenders"] = [u for u in board.units_at(target)]
    odds = compute_odds(board, side, attackers, target, frame["air"], frame["stavka"])
    reveal: dict[str, Any] = {
        "attackers": odds.attack_detail, "defenders": odds.defense_detail,
        "attack": odds.attack, "defense": odds.defense, "base_column": odds.base_column,
        "shifts": [[why, n] for why, n in odds.shifts], "zero_defense": odds.zero_defense,
        "air": frame["air"], "stavka": frame["stavka"],
    }
    min_column = frame.get("min_column")
    if odds.column is None or (min_column and odds.column < min_column):
        cancel(board, frame, odds.column is None, reveal)
        return
    board.data["last_combat_cancelled"] = False
    air_to_base(board, frame["air"])  # after the cancellation test: N-54, unused air goes back
    die, total = combat_die(board, side, f"combat {target}")
    cell = board.scenario.crt_result(side, odds.column, total)
    attacker = attacker_result(board, frame, cell.attacker_steps, cell.attacker_retreat)
    defender = defender_result(board, target, cell.defender_steps, cell.defender_retreat, barrage=False)
    frame["result"] = {"defender": defender, "attacker": {"losses": attacker["losses"], "retreat": attacker["retreat"]}}
    board.emit("combat", side=side, target=target, column=odds.column,
               odds=odds_label(board, side, odds.column), die=die.to_json(), total=total, result=cell.code,
               defender_after=defender, attacker_after=attacker, **reveal)
    board.remember("combat", side=side, hex=target, result=cell.code,
                   **{"from": sorted({board.hex_on_map(u) for u in attackers})})
    frame["stage"] = COMBAT_STAGES.after("resolve")


def cancel(board: Board, frame: CombatFrame, below_table: bool, reveal: dict[str, Any]) -> None:
    """9.3.2A (or the MIN of the attack order): no die is rolled and the attackers are free again."""
    side, target, attackers = frame["side"], frame["target"], frame["attackers"]
    why = "below the lowest column after shifts (9.3.2A)" if below_table else \
        "below the odds the attack order required (MIN)"
    board.data["last_combat_cancelled"] = True
    board.emit("attack_cancelled", side=side, target=target, reason=why, **reveal)
    board.remember("combat", side=side, hex=target, result="cancelled",
                   **{"from": sorted({board.hex_on_map(u) for u in attackers})})
    board.pop()
    release(board, attackers)


def attacker_result(board: Board, frame: CombatFrame, crt_losses: int, crt_retreat: int) -> dict[str, Any]:
    """The attacker's losses and retreat after a Stavka attack's extra A1 (2.5.3) and the city's
    negation (9.4.4A), with notes saying why."""
    attackers = frame["attackers"]
    losses, retreat, notes = crt_losses, crt_retreat, []
    if frame["stavka"]:
        # 2.5.3C-D: an additional A1; every attacker retreat becomes step losses
        if retreat and all(board.scenario.terrain_effect(board.scenario.terrain(board.hex_on_map(u)))
                           .negate_first_retreat for u in attackers):
            retreat -= 1  # ruling N-26: 9.5.6B cancels the first hex if every attacker is in a village/city
        losses += 1 + retreat
        notes.append(f"Stavka: +1 loss and {retreat} retreat(s) taken as losses (2.5.3)")
        retreat = 0
    if crt_losses and all(board.scenario.terrain(board.hex_on_map(u)) == "city" for u in attackers):
        # 9.4.4A ignores the first loss *from the CRT* (ruling N-34); Stavka's extra A1 is not one
        losses -= 1
        notes.append("attackers in a city: first loss negated (9.4.4)")
    return {"losses": losses, "retreat": retreat, "notes": notes}


def release(board: Board, attackers: list[str]) -> None:
    """Ruling N-33: the units of a cancelled attack have not attacked and may still attack
    elsewhere in this Combat Segment (9.2.1B counts only attacks that were made)."""
    for below in reversed(board.stack):
        if below["kind"] == "stavka":
            return  # a Stavka attack names its own units (ruling N-26)
        if isinstance(below.get("attacked"), list):
            below["attacked"][:] = [u for u in below["attacked"] if u not in attackers]
            return


def air_to_base(board: Board, air: dict[str, AirMode]) -> None:
    """12.1.2: full attack -> Grounded, normal attack -> Refit."""
    for air_id, mode in air.items():
        board.data["air"][air_id] = "grounded" if mode == "full" else "refit"


# ---------------------------------------------------------------- the results, in order


def surviving_attackers(board: Board, frame: CombatFrame) -> list[str]:
    return [u for u in frame["attackers"] if board.is_on_map(u)]


def defender_losses(board: Board, frame: CombatFrame) -> None:
    side, target = frame["side"], frame["target"]
    push_losses(board, enemy(side), [u for u in frame["defenders"] if board.hex_of(u) == target],
                frame["result"]["defender"]["losses"], f"combat in {target}", by="defense", hex_id=target,
                interrupts=side)


def defender_retreat(board: Board, frame: CombatFrame) -> None:
    side, target = frame["side"], frame["target"]
    defender = enemy(side)
    push_retreat(board, defender, [u for u in board.units_at(target) if board.side_of(u) == defender],
                 target, frame["result"]["defender"]["retreat"], f"combat in {target}", by="defense", interrupts=side)


def attacker_losses(board: Board, frame: CombatFrame) -> None:
    side, target = frame["side"], frame["target"]
    push_losses(board, side, surviving_attackers(board, frame), frame["result"]["attacker"]["losses"],
                f"attack on {target}", by="attack", hex_id=target)


def attacker_retreat(board: Board, frame: CombatFrame) -> None:
    """Each hex of attackers retreats as a stack, with the HQs stacked there (11.1.1); attackers in a
    village or city ignore the first hex (9.5.6B)."""
    length = frame["result"]["attacker"]["retreat"]
    if not length:
        return
    side, target = frame["side"], frame["target"]
    by_hex: dict[str, list[str]] = {}
    for uid in surviving_attackers(board, frame):
        by_hex.setdefault(board.hex_on_map(uid), []).append(uid)
    for origin, units in sorted(by_hex.items(), reverse=True):
        effect = board.scenario.terrain_effect(board.scenario.terrain(origin))
        negated = 1 if effect.negate_first_retreat else 0
        hq = [u for u in board.hqs_at(origin)]
        if length - negated > 0:
            frame.setdefault("retreated", []).extend(units)
        push_retreat(board, side, units + hq, origin, length - negated, f"attack on {target}", by="attack")


def offer_advance(board: Board, frame: CombatFrame) -> None:
    """9.6: attackers that did not retreat may advance into the vacated hex, with the HQs stacked
    with them (9.6.5)."""
    side, target = frame["side"], frame["target"]
    vacated = not any(board.side_of(u) == enemy(side) for u in board.units_at(target))
    movers = [u for u in surviving_attackers(board, frame) if u not in frame.get("retreated", [])
              and board.is_combat(u)]
    if vacated and movers:
        movers += sorted({h for u in movers for h in board.hqs_at(board.hex_on_map(u))})
        board.push(new_frame(board.data, "advance", side=side, target=target, units=movers,
                             origins={u: board.hex_on_map(u) for u in movers}, moved=[]))


RESULT_STEPS: dict[CombatStage, Callable[[Board, CombatFrame], None]] = {
    "defender_losses": defender_losses, "defender_retreat": defender_retreat, "attacker_losses": attacker_losses,
    "attacker_retreat": attacker_retreat, "advance": offer_advance,
}
