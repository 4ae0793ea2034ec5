"""Across the Narva scenario validation of the forces: formations, units and air units, the set-up,
the reinforcement schedule, and the command groups and chits."""

from __future__ import annotations

from collections import Counter, defaultdict

from moderator.core.scenario_check import Problems
from moderator.games.narva.scenario.index import Scenario
from moderator.games.narva.scenario.schema import (
    SIDES,
    Chit,
    CommandGroup,
    EntryArea,
    Formation,
    ReinforcementRow,
    Unit,
)


def check_units(s: Scenario) -> list[str]:
    """Problems of units.yaml: unique ids and names, formations and their HQs, each unit's values,
    the special units and the air units."""
    problems = Problems()
    problems.duplicates([u.id for u in s.units] + [a.id for a in s.air_units], "units: id {} is used twice")
    for side in SIDES:
        names = [name for u in s.units if u.side == side
                 for name in {u.id.casefold(), *(a.casefold() for a in u.aliases)}]
        problems.duplicates(names, f"units: {side} name or alias '{{}}' is not unique")
    problems.duplicates((f.id for f in s.formations), "units: formation id {} is used twice")
    _check_formations(s, problems)
    formations = {f.id: f for f in s.formations}
    for u in s.units:
        _check_unit(u, formations, problems)
    problems.require(sum(1 for u in s.units if "strachwitz" in u.special) == 1,
                     "units: exactly one HQ must be the Strachwitz HQ (rule 4.2.3)")
    problems.require(sum(1 for u in s.units if "merekula_landing" in u.special) == 1,
                     "units: exactly one unit (the 260th MS) lands at Merekula (rule 8.6)")
    german_air = sum(1 for a in s.air_units if a.side == "german")
    problems.require(german_air == 1 and sum(1 for a in s.air_units if a.side == "soviet") == 6,
                     "units: Germany has one air unit and the Soviets six (rule 12.0A)")
    bombers = [a for a in {a.id: a for a in s.air_units}.values() if a.normal is None]
    problems.require(len(bombers) == 1 and bombers[0].side == "soviet" and bombers[0].full == 3,
                     "units: exactly one Soviet bomber is +3 full attack with no normal attack (rule 12.0C)")
    return problems


def _check_formations(s: Scenario, problems: Problems) -> None:
    """A formation's HQ heads it; Soviet formations belong to an army, German ones to a corps."""
    formations = {f.id: f for f in s.formations}
    units = {u.id: u for u in s.units}
    for f in s.formations:
        if f.hq is not None:
            hq = units.get(f.hq)
            if hq is None:
                problems.append(f"units: formation {f.id} names HQ {f.hq}, which does not exist")
            elif not hq.is_hq or hq.formation != f.id:
                problems.append(f"units: formation {f.id} names {f.hq} as HQ, but it is not an HQ of {f.id}")
        if f.parent is not None:
            if f.side == "soviet" and (f.parent not in formations or formations[f.parent].kind != "army"):
                problems.append(f"units: Soviet formation {f.id} must belong to an army formation, not {f.parent}")
            if f.side == "german" and f.parent not in ("26", "43", "3SS"):
                problems.append(f"units: German formation {f.id} must belong to corps 26, 43 or 3SS, not {f.parent}")


def _check_unit(u: Unit, formations: dict[str, Formation], problems: Problems) -> None:
    """One unit: its formation, and the values an HQ or a combat unit must have."""
    where = f"units: {u.id}"
    if u.formation is not None:
        f = formations.get(u.formation)
        if f is None:
            problems.append(f"{where}: unknown formation {u.formation}")
        elif f.side != u.side:
            problems.append(f"{where}: side {u.side} differs from its formation's ({f.side})")
        elif f.ss and not u.ss:
            problems.append(f"{where}: a unit of the SS formation {f.id} must be SS")
    if u.is_hq:
        problems.require(u.steps == 0 and u.reduced is None, f"{where}: HQs have no steps (rule 9.4C)")
        problems.require(u.command_range is not None, f"{where}: an HQ needs a command range (rule 4.2.4)")
        problems.require(not u.zoc, f"{where}: HQs exert no ZOC (rule 5.2A)")
        problems.require(u.formation is not None, f"{where}: an HQ must head a formation")
    else:
        _check_combat_unit(u, where, problems)
    problems.require(u.type != "assault_gun" or u.side == "soviet",
                     f"{where}: assault guns are a Soviet unit type here (rule 7.1B)")
    problems.require("strachwitz" not in u.special or u.is_hq, f"{where}: only an HQ can be Strachwitz (rule 4.2.3)")


def _check_combat_unit(u: Unit, where: str, problems: Problems) -> None:
    problems.require(u.steps in (1, 2), f"{where}: a combat unit has one or two steps, not {u.steps}")
    problems.require((u.steps == 2) == (u.reduced is not None),
                     f"{where}: two-step units need a reduced side, one-step units none (rule 9.4.3)")
    problems.require(u.command_range is None, f"{where}: only HQs have a command range")
    want_zoc = u.type != "assault_gun" and u.full.attack >= 1
    problems.require(u.zoc == want_zoc, f"{where}: zoc must be {want_zoc} (rule 5.2: HQs and Soviet assault guns "
                                        f"have none, attack 1+ has one)")
    problems.require(u.full.movement >= 1, f"{where}: a combat unit needs a movement allowance")
    problems.require(u.reduced is None or (u.reduced.attack <= u.full.attack and u.reduced.defense <= u.full.defense),
                     f"{where}: the reduced side is stronger than the full side")


def _stack_problems(s: Scenario, where: str, stacks: dict[str, list[Unit]]) -> list[str]:
    """Stacks of both sides, or over the limits of rule 7.1B."""
    problems = Problems()
    st = s.meta.stacking
    for h, us in sorted(stacks.items()):
        problems.require(len({u.side for u in us}) <= 1, f"{where}: units of both sides in {h}")
        combat = [u for u in us if u.is_combat and u.type != "assault_gun"]
        hqs = [u for u in us if u.is_hq]
        ags = [u for u in us if u.type == "assault_gun"]
        problems.require(len(combat) <= st.combat, f"{where}: {len(combat)} combat units in {h} "
                         f"({', '.join(u.id for u in combat)}), the limit is {st.combat} (rule 7.1B)")
        problems.require(len(hqs) <= st.hq, f"{where}: {len(hqs)} HQs in {h}, the limit is {st.hq} (rule 7.1B)")
        problems.require(len(ags) <= st.soviet_assault_gun, f"{where}: {len(ags)} assault guns in {h}, the limit is "
                                                            f"{st.soviet_assault_gun} (rule 7.1B)")
    return problems


def _placement_problems(s: Scenario, where: str, u: Unit, h: str) -> list[str]:
    """May `u` be placed in `h`: on the map, on land it may enter (6.3A), in PD hexes and in Narva
    or the enclave only if German units allowed there (6.3C, 6.3D)."""
    if not s.on_map(h):
        return [f"{where}: {u.id} is placed in hex {h}, which is not on the map"]
    problems = Problems()
    info = s.hex(h)
    if info.water:
        problems.append(f"{where}: {u.id} is placed in water hex {h} ({info.terrain}) (rule 6.3A)")
    elif not s.legal_for(u.id, h):
        problems.append(f"{where}: {u.id} ({u.movement_class}) may not stand in {h} ({info.terrain}, no road)")
    if u.side == "german":
        formation = s.lookups()["formations"].get(u.formation or "")
        problems.require(not info.pd_division or bool(formation and formation.pd), f"{where}: {u.id} may not be in "
                         f"prepared-defence hex {h}: only Nordland and Nederland (6.3C)")
        problems.require(not ("narva" in info.areas or "enclave" in info.areas) or u.ss or u.is_hq,
                         f"{where}: {u.id} is not SS and may not be in Narva or the enclave ({h}, rule 6.3D)")
    return problems


def check_setup(s: Scenario) -> list[str]:
    """Problems of setup.yaml: every unit set up or arriving (not both), where it may stand, stacking,
    the air units' boxes and the PD markers."""
    problems = Problems()
    units = {u.id: u for u in s.units}
    placed = [p.unit for p in s.setup.placements]
    problems.duplicates(placed, "set-up: {} is placed twice")
    reinforced = {uid for r in s.meta.reinforcements for uid in r.units}
    stacks: dict[str, list[Unit]] = defaultdict(list)
    for p in s.setup.placements:
        u = units.get(p.unit)
        if u is None:
            problems.append(f"set-up: unknown unit {p.unit}")
            continue
        problems.require(p.unit not in reinforced,
                         f"set-up: {p.unit} is placed at the start and also arrives as a reinforcement")
        problems.require(not p.reduced or u.steps == 2, f"set-up: {p.unit} sets up reduced but has {u.steps} step(s)")
        problems += _placement_problems(s, "set-up", u, p.hex)
        if s.on_map(p.hex):
            stacks[p.hex].append(u)
    problems += _stack_problems(s, "set-up", stacks)
    for u in s.units:
        problems.require(u.id in placed or u.id in reinforced, f"units: {u.id} is neither set up nor a reinforcement")
    _check_air_setup(s, problems)
    pd_divisions = {pd.division for pd in s.map.prepared_defences}
    problems.require(set(s.setup.pd_markers) == pd_divisions, f"set-up: PD markers {sorted(s.setup.pd_markers)} "
                     f"must match the PD divisions {sorted(pd_divisions)}")
    for div, box in s.setup.pd_markers.items():
        problems.require(0 <= box < len(s.tables.pd_track.boxes),
                         f"set-up: PD marker of {div} is in box {box}, off the track")
    return problems


def _check_air_setup(s: Scenario, problems: Problems) -> None:
    """Each air unit set up in its side's box (2.1.4D) or arriving as a reinforcement (14.8), once."""
    air = {a.id: a for a in s.air_units}
    air_placed = [p.unit for p in s.setup.air]
    air_reinf = [uid for r in s.meta.air_reinforcements for uid in r.units]
    problems.duplicates(air_placed + air_reinf, "set-up: air unit {} appears twice")
    for p in s.setup.air:
        a = air.get(p.unit)
        if a is None:
            problems.append(f"set-up: unknown air unit {p.unit}")
        elif (a.side == "german") != (p.box == "luftwaffe"):
            problems.append(f"set-up: air unit {p.unit} is in the wrong box {p.box} (rule 2.1.4D)")
    for r in s.meta.air_reinforcements:
        for uid in r.units:
            if uid not in air:
                problems.append(f"scenario: air reinforcement {uid} is unknown")
            elif air[uid].side != r.side:
                problems.append(f"scenario: air reinforcement {uid} is listed for the wrong side")
    for a in s.air_units:
        problems.require(a.id in air_placed or a.id in air_reinf,
                         f"units: air unit {a.id} is neither set up nor a reinforcement (14.8)")


def check_reinforcements(s: Scenario) -> list[str]:
    """Problems of the reinforcement schedule: turn, parent, entry, and each unit's right to arrive there."""
    problems = Problems()
    units = {u.id: u for u in s.units}
    entries: dict[str, EntryArea] = {e.id: e for e in s.map.entry_areas}
    formations = {f.id for f in s.formations}
    for i, r in enumerate(s.meta.reinforcements, start=1):
        where = f"reinforcements: row {i} (turn {r.turn} {r.side} {r.entry})"
        problems.require(r.turn <= s.meta.last_turn, f"{where}: after the last turn")
        problems.require(r.parent == "IND" or r.parent in formations, f"{where}: unknown parent formation {r.parent}")
        if r.entry in entries:
            problems.require(entries[r.entry].side == r.side,
                             f"{where}: entry area {r.entry} belongs to the other side")
        elif r.entry not in ("supplied_hex", "merekula"):
            problems.append(f"{where}: unknown entry {r.entry!r} (A-H, supplied_hex or merekula)")
        for uid in r.units:
            u = units.get(uid)
            if u is None:
                problems.append(f"{where}: unknown unit {uid}")
                continue
            _check_arrival(s, r, u, entries.get(r.entry), where, problems)
    problems.duplicates((uid for r in s.meta.reinforcements for uid in r.units), "reinforcements: {} arrives twice")
    return problems


def _check_arrival(s: Scenario, r: ReinforcementRow, u: Unit, entry: EntryArea | None, where: str,
                   problems: Problems) -> None:
    """One unit of a reinforcement row: of the row's side and parent, allowed to use its entry, and
    able to stand in every hex it may arrive in."""
    uid = u.id
    problems.require(u.side == r.side, f"{where}: {uid} is a {u.side} unit")
    problems.require((u.formation or "IND") == r.parent,
                     f"{where}: {uid} belongs to {u.formation or 'IND'}, not to parent {r.parent}")
    problems.require(r.entry != "supplied_hex" or (u.is_hq and u.size == "army"),
                     f"{where}: only Soviet Army HQs are placed in any supplied hex (rule 4.2.5B)")
    problems.require(r.entry != "merekula" or "merekula_landing" in u.special,
                     f"{where}: only the 260th MS lands at Merekula (rule 8.6)")
    if entry is not None:
        for h in entry.hexes:
            if s.on_map(h):
                problems += _placement_problems(s, where, u, h)
    if r.entry == "merekula":
        areas = s.lookups()["areas"]
        for h in areas.get("merekula", ()) + areas.get("merekula_landing", ()):
            problems += _placement_problems(s, where, u, h)


#: (action, side) -> how many action chits of that kind the game has (rule 2.5).
ACTION_CHITS = {("barrage", "german"): 1, ("barrage", "soviet"): 2, ("stavka", "soviet"): 1,
                ("free_move", "soviet"): 1, ("withdraw_59", "soviet"): 1, ("shock_out_of_supply", "soviet"): 1,
                ("withdraw_214", "german"): 1, ("random_event", "both"): 1}


def check_chits(s: Scenario) -> list[str]:
    """Problems of chits.yaml: command groups and their HQs, each chit, and the counts the rules fix."""
    problems = Problems()
    problems.duplicates((g.id for g in s.command_groups), "chits: command group {} is defined twice")
    problems.duplicates((c.id for c in s.chits), "chits: chit id {} is used twice")
    _check_command_groups(s, problems)
    groups = {g.id: g for g in s.command_groups}
    for c in s.chits:
        _check_chit(s, c, groups, problems)
    actions: Counter[tuple[str | None, str]] = Counter((c.action, c.side) for c in s.chits if c.kind == "action")
    for (action, side), n in ACTION_CHITS.items():
        problems.require(actions.get((action, side), 0) == n, f"chits: {n} {side} {action} chit(s) expected "
                                                               f"(rule 2.5), found {actions.get((action, side), 0)}")
    for gid, n in {"3SS": 2, "2SH": 4, "59": 3}.items():
        got = sum(1 for c in s.chits if c.group == gid)
        problems.require(got == n, f"chits: {n} '{gid}' command chits expected (rulebook 14.9), found {got}")
    wer = [c for c in s.chits if c.group == "WER"]
    problems.require(bool(wer) and all(c.leaves == 3 for c in wer),
                     "chits: the Wehrmacht chit leaves in the Turn 3 Reinforcement Phase (rule 2.4.1B)")
    _check_special_groups(s, problems)
    return problems


def _check_command_groups(s: Scenario, problems: Problems) -> None:
    """A group's HQs are HQs of its side (Soviet groups: Army HQs, 2.3A); every German HQ has a chit."""
    units = {u.id: u for u in s.units}
    for g in s.command_groups:
        for hq in g.hqs:
            u = units.get(hq)
            if u is None:
                problems.append(f"chits: command group {g.id} names unknown HQ {hq}")
            elif not u.is_hq or u.side != g.side:
                problems.append(f"chits: command group {g.id} names {hq}, which is not a {g.side} HQ")
        problems.require(g.side != "soviet" or all(units.get(h) is None or units[h].size == "army" for h in g.hqs),
                         f"chits: Soviet command chits activate Army HQs only (rule 2.3A), group {g.id}")
    german_hqs = {u.id for u in s.units if u.side == "german" and u.is_hq}
    covered = {h for g in s.command_groups if g.side == "german" for h in g.hqs}
    for hq in sorted(german_hqs - covered):
        problems.append(f"chits: German HQ {hq} can be activated by no command chit")


def _check_chit(s: Scenario, c: Chit, groups: dict[str, CommandGroup], problems: Problems) -> None:
    """One chit: a command chit of a known group of its side, an action chit with an action; drawable."""
    where = f"chits: {c.id}"
    if c.kind == "command":
        g = groups.get(c.group or "")
        if g is None:
            problems.append(f"{where}: command chit with unknown group {c.group}")
        elif g.side != c.side:
            problems.append(f"{where}: side {c.side} differs from its group's ({g.side})")
        problems.require(c.action is None, f"{where}: a command chit has no action")
    else:
        problems.require(c.action is not None, f"{where}: an action chit needs an action")
        problems.require(c.group is None, f"{where}: an action chit belongs to no command group")
    problems.require(c.enters <= s.meta.last_turn, f"{where}: enters after the last turn")
    problems.require(c.leaves is None or c.leaves >= max(c.enters, 1), f"{where}: leaves (turn {c.leaves}) before it "
                                                                       f"can be drawn")


def _check_special_groups(s: Scenario, problems: Problems) -> None:
    """Army Group Narwa activates any German HQ plus two units (2.4.2), and it alone activates KVO and
    285S (4.1.1F); the pre-played Turn 1 chit is a Soviet command group (14.10A)."""
    units = {u.id for u in s.units}
    groups = {g.id: g for g in s.command_groups}
    german_hqs = {u.id for u in s.units if u.side == "german" and u.is_hq}
    agn = groups.get("AGN")
    problems.require(agn is not None and agn.extra_units == 2 and set(agn.hqs) == german_hqs,
                     "chits: Army Group Narwa activates any German HQ plus two units (rule 2.4.2)")
    for special in ("KVO/HQ", "285S/HQ"):
        in_groups = [g.id for g in s.command_groups if special in g.hqs]
        problems.require(special not in units or in_groups == ["AGN"], f"chits: {special} may be activated only by "
                         f"the Army Group Narwa chit (rule 4.1.1F), not {in_groups}")
    pre = s.meta.first_turn.soviet_preplayed_chit
    problems.require(pre in groups and groups[pre].side == "soviet",
                     f"scenario: the pre-played Turn 1 chit {pre} must be a Soviet command group (14.10A)")
