"""VMT scenario validation of the pieces: divisions, blocks, reinforcement groups, cards and counters."""

from __future__ import annotations

from collections import defaultdict

from moderator.core.scenario_check import Problems, consecutive
from moderator.games.vmt.scenario.index import Scenario
from moderator.games.vmt.scenario.schema import SIDES, Block, Side


def check_blocks(s: Scenario) -> list[str]:
    """Problems of blocks.yaml: blocks and divisions, the rulebook's hints, reinforcement groups."""
    problems = Problems()
    problems.require(len(s.blocks) == 62, f"blocks: {len(s.blocks)} blocks, the game has 62 (L65)")
    problems.duplicates((b.id for b in s.blocks), "blocks: block id {} is used twice")
    problems.unique_names(s.blocks, "blocks: block name or alias '{}' is not unique")
    problems.duplicates((d.id for d in s.divisions), "blocks: division id {} is used twice")
    members = _division_members(s, problems)
    for d in s.divisions:
        problems.require(bool(members.get(d.id)), f"blocks: division {d.id} has no block")
        problems.require(d.activation_marker, f"blocks: division {d.id} must have an activation marker (L105, L176)")
    _check_rulebook_blocks(s, members, problems)
    _check_reinforcements(s, problems)
    return problems


def _division_members(s: Scenario, problems: Problems) -> dict[str, list[Block]]:
    """Each division's blocks, noting blocks whose side or nationality do not fit (theirs or their division's)."""
    divisions = {d.id: d for d in s.divisions}
    members: dict[str, list[Block]] = defaultdict(list)
    for b in s.blocks:
        where = f"blocks: {b.id}"
        problems.require((b.nationality == "soviet") == (b.side == "soviet"),
                         f"{where}: nationality {b.nationality} does not fit side {b.side}")
        if b.division is None:
            continue
        division = divisions.get(b.division)
        if division is None:
            problems.append(f"{where}: unknown division {b.division}")
            continue
        members[b.division].append(b)
        problems.require(division.side == b.side,
                         f"{where}: side {b.side} differs from its division's ({division.side})")
        problems.require(division.nationality == b.nationality,
                         f"{where}: nationality differs from its division's ({division.nationality})")
    return members


def _check_rulebook_blocks(s: Scenario, members: dict[str, list[Block]], problems: Problems) -> None:
    """The blocks the rulebook's text and examples pin down."""
    pair = members.get("24", []) + members.get("50", [])
    strength: int = sum(b.sp for b in pair)
    problems.require(
        len(pair) == 6 and strength == 21,
        f"blocks: the 24th and 50th divisions must have 6 blocks of 21 SP together (L198, L308), "
        f"not {len(pair)} blocks of {strength} SP")
    problems.require(sum(1 for b in pair if b.sp == 4) >= 2,
                     "blocks: the 24th and 50th need at least two 4-SP blocks (L312)")
    problems.require(len(members.get("170", [])) == 2,
                     f"blocks: the 170th division must have 2 blocks (L196), not {len(members.get('170', []))}")
    for regiment in ("121", "122"):
        problems.require(any(regiment in (b.id.split("/")[-1], *b.aliases) for b in members.get("50", [])),
                         f"blocks: the 50th division must include the {regiment}th regiment (L204)")
    by_name = {n.casefold(): b for b in s.blocks for n in (b.id, *b.aliases)}
    perekop, r54 = by_name.get("perekop"), by_name.get("54")
    if perekop is None or r54 is None:
        problems.append("blocks: the Soviet Perekop and 54th regiments must exist (L200, L308)")
    elif perekop.sp + r54.sp != 7:
        problems.append(f"blocks: Perekop and 54th must total 7 SP (L308), not {perekop.sp + r54.sp}")
    problems.require("361" in by_name and by_name["361"].side == "soviet",
                     "blocks: the Soviet 361st regiment of the rulebook example must exist (L196)")
    nkvd = [b for b in s.blocks if "nkvd_extra_die" in b.special]
    problems.require(len(nkvd) == 1 and nkvd[0].side == "soviet",
                     "blocks: exactly one Soviet block (the 456th NKVD) must have nkvd_extra_die (L276)")
    problems.require(any(b.nationality == "romanian" and b.reinforcement is None for b in s.blocks),
                     "blocks: the Axis starts with Romanian as well as German blocks (L65, L93)")


#: (blocks, VP cost) of each side's reinforcement groups in order: the Axis 4th Romanian Mountain,
#: 46th and 420th (L418-421); the Soviet 138th then 142nd brigade (L414).
REINFORCEMENT_SHAPES: dict[Side, list[tuple[int, int]]] = {"axis": [(2, 1), (3, 2), (1, 1)], "soviet": [(1, 0), (1, 0)]}


def _check_reinforcements(s: Scenario, problems: Problems) -> None:
    """Reinforcement groups (L414-423): each block in one group of its side, and the rulebook's groups."""
    problems.duplicates((g.id for g in s.reinforcements), "blocks: reinforcement group {} is declared twice")
    blocks = {b.id: b for b in s.blocks}
    in_groups: dict[str, str] = {}
    for g in s.reinforcements:
        for block_id in g.blocks:
            problems.require(block_id not in in_groups, f"blocks: block {block_id} is in two reinforcement groups")
            in_groups[block_id] = g.id
            b = blocks.get(block_id)
            if b is None:
                problems.append(f"blocks: reinforcement group {g.id} names unknown block {block_id}")
            elif b.side != g.side:
                problems.append(f"blocks: reinforcement group {g.id} ({g.side}) holds {b.side} block {block_id}")
            elif b.reinforcement != g.id:
                problems.append(f"blocks: block {block_id} is in group {g.id} but says reinforcement {b.reinforcement}")
    for b in s.blocks:
        problems.require(b.reinforcement is None or in_groups.get(b.id) == b.reinforcement,
                         f"blocks: block {b.id} names reinforcement group {b.reinforcement}, which does not list it")
    _check_rulebook_groups(s, problems)


def _check_rulebook_groups(s: Scenario, problems: Problems) -> None:
    for side, shape in REINFORCEMENT_SHAPES.items():
        found = s.reinforcement_groups(side)
        got = [(len(g.blocks), g.vp_cost) for g in found]
        problems.require(got == shape, f"blocks: {side} reinforcement groups in order must have (blocks, VP cost) "
                                       f"{shape} (L414-421), not {got}")
        orders = [g.order for g in found]
        problems.require(consecutive(orders),
                         f"blocks: {side} reinforcement orders must be 1..{len(found)}, not {orders}")
    problems.require([g.blocks for g in s.reinforcement_groups("soviet")] == [("138",), ("142",)],
                     "blocks: the Soviet reinforcements are the 138th then the 142nd brigade (L414)")
    axis_ids = [g.id for g in s.reinforcement_groups("axis")]
    problems.require(axis_ids == ["4RM", "46", "420"],
                     f"blocks: Axis reinforcement groups must be 4RM, 46, 420 in that order (L418-421), not {axis_ids}")
    for gid in {g.id: g for g in s.reinforcements}:
        problems.require(gid in {"4RM", "46", "420", "138", "142"}, f"blocks: unexpected reinforcement group {gid}")


CARD_TYPES = {
    "assault": ({"axis", "soviet"}, {"assault"}),
    "counterattack": ({"axis", "soviet"}, {"assault", "reaction"}),
    "fighter_escort": ({"axis"}, {"reaction"}),
    "fighter_cover": ({"soviet"}, {"reaction", "order"}),
    "air_strike": ({"axis"}, {"order", "reaction"}),
    "redeployment": ({"axis", "soviet"}, {"order"}),
    "heavy_artillery": ({"axis"}, {"order"}),
    "superheavy_artillery": ({"axis"}, {"order"}),
    "soviet_coastal_artillery": ({"soviet"}, {"order"}),
    "soviet_field_artillery": ({"soviet"}, {"order"}),
    "axis_field_artillery": ({"axis"}, {"combat_support"}),
    "goliath": ({"axis"}, {"combat_support"}),
    "88mm": ({"axis"}, {"combat_support"}),
    "mortars": ({"soviet"}, {"combat_support"}),
    "minefield": ({"soviet"}, {"combat_support"}),
    "bunker": ({"soviet"}, {"combat_support"}),
}
"""Card type id -> (sides, labels) as fixed by the rulebook's Cards section (L431-517)."""


def check_cards(s: Scenario) -> list[str]:
    """Problems of cards.yaml: the rulebook's card types, sides, labels and deck counts."""
    problems = Problems()
    cards = {c.id: c for c in s.card_types}
    problems.duplicates((c.id for c in s.card_types), "cards: card type {} is listed twice")
    problems.unique_names(s.card_types, "cards: card name or alias '{}' is not unique")
    for card_id in sorted(set(CARD_TYPES) - set(cards)):
        problems.append(f"cards: card type {card_id} of the rulebook (L41-56) is missing")
    for card_id in sorted(set(cards) - set(CARD_TYPES)):
        problems.append(f"cards: unknown card type {card_id}")
    _check_card_types(s, problems)
    total = sum(sum(c.count.values()) for c in s.card_types)
    problems.require(total == 63, f"cards: {total} Command Cards, the game has 63 (L61)")
    fc = cards.get("fighter_cover")
    problems.require(fc is not None and fc.count.get("soviet", 0) == 2,
                     "cards: the Soviet deck must hold exactly 2 Fighter Cover cards (L445)")
    ca = cards.get("counterattack")
    problems.require(ca is not None and ca.count.get("axis", 0) > ca.count.get("soviet", 0),
                     "cards: the Axis deck must hold more Counterattack cards than the Soviet deck (L441)")
    for side in SIDES:
        counts = {c.id: c.count.get(side, 0) for c in s.card_types}
        top = max(counts.values(), default=0)
        problems.require(counts.get("assault", 0) == top and sum(1 for v in counts.values() if v == top) <= 1,
                         f"cards: Assault must be the most common card of the {side} deck (L168)")
    return problems


def _check_card_types(s: Scenario, problems: Problems) -> None:
    for card in s.card_types:
        where = f"cards: {card.id}"
        if card.id in CARD_TYPES:
            sides, labels = CARD_TYPES[card.id]
            problems.require(set(card.sides) == sides,
                             f"{where}: sides {sorted(card.sides)} differ from the rulebook's {sorted(sides)}")
            problems.require(set(card.labels) == labels,
                             f"{where}: labels {sorted(card.labels)} differ from the rulebook's {sorted(labels)}")
        for side in SIDES:
            n = card.count.get(side, 0)
            problems.require(n >= 0, f"{where}: negative count for {side}")
            problems.require(side not in card.sides or n != 0,
                             f"{where}: belongs to the {side} deck but has count 0 there")
            problems.require(side in card.sides or not n,
                             f"{where}: has {n} cards in the {side} deck but is not a {side} card")


#: Counter id -> (how many, rulebook line) where the rulebook fixes the number.
FIXED_COUNTERS = {
    "pz3": (1, "L252"), "stug": (3, "L252"), "t26": (2, "L252"), "interdiction": (2, "L457"),
    "destroyed_battery": (4, "L346"), "turn": (1, "L104"), "vp": (2, "L102"),
}


def check_counters(s: Scenario) -> list[str]:
    """Problems of counters.yaml: the countersheet's total and the numbers and steps the rules fix."""
    problems = Problems()
    counters = {c.id: c for c in s.counters}
    problems.duplicates((c.id for c in s.counters), "counters: counter type {} is listed twice")
    total = sum(c.count for c in s.counters)
    problems.require(total == 113, f"counters: {total} counters and markers, the countersheet has 113 (L67)")
    for counter_id, (n, line) in FIXED_COUNTERS.items():
        got = counters[counter_id].count if counter_id in counters else 0
        problems.require(got == n, f"counters: {counter_id} count is {got}, the rulebook implies {n} ({line})")
    for counter_id in ("axis_pioneer", "soviet_pioneer", "at", "minefield", "bunker", "no_trench",
                       "control", "current_combat", "division_activation"):
        problems.require(counter_id in counters and counters[counter_id].count >= 1,
                         f"counters: at least one {counter_id} counter is needed (L105, L224-262)")
    marker = counters.get("division_activation")
    if marker is not None and marker.count != len(s.divisions):
        problems.append(
            f"counters: {marker.count} divisional activation markers for {len(s.divisions)} divisions (L105)")
    for counter_id in ("pz3", "stug", "t26", "axis_pioneer", "soviet_pioneer"):
        c = counters.get(counter_id)
        problems.require(c is None or c.steps == 2, f"counters: {counter_id} must have 2 steps (L236)")
    return problems
