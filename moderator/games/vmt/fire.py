"""Fire from afar and the reaction windows: Air Strike (L451-457), Fighter Cover (L447-449),
Fighter Escort (L443-445), Heavy (L463-465), Superheavy (L469-471), Soviet Coastal (L475-477)
and Field Artillery (L481-483), Interdiction (L457), and the Counterattack window (L439).

"At any moment" (L453) becomes a finite set of windows (ruling R-AIR): when Soviet blocks enter an
area (by move or retreat), and before each Soviet card.  Every window opens whatever the Axis
holds, so its timing tells the Soviet nothing (DESIGN §4); one that even the card could not answer
but with NONE, for reasons both players see, asks nothing (ruling R-WINDOW).
"""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.errors import IllegalOrder
from moderator.core.grammar import Order, Value
from moderator.games.vmt import activation
from moderator.games.vmt.board import Board, enemy
from moderator.games.vmt.combat import destroy_battery
from moderator.games.vmt.entering import interdiction_rolls
from moderator.games.vmt.frames import answered, ask, new_frame, options_as_orders
from moderator.games.vmt.state import (
    COVER_ORDER_STEPS,
    STRIKE_STEPS,
    CoverOrderFrame,
    PhaseFrame,
    StrikeFrame,
    WindowFrame,
)

ORDER_CARDS = {"heavy_artillery", "superheavy_artillery", "air_strike", "soviet_coastal_artillery",
               "soviet_field_artillery", "fighter_cover"}
COASTAL_RANGE = 3  # L477
#: What each Order card fired at an area needs there, told when a target is refused.
TARGET_RULES = {
    "heavy_artillery": "a Soviet-occupied area",
    "superheavy_artillery": "an area with an undestroyed Soviet battery",
    "soviet_coastal_artillery": "an Axis-occupied area within 3 areas of an undestroyed battery, ferry arrows "
                                "counting",
    "soviet_field_artillery": "an Axis-occupied area",
}


# ---------------------------------------------------------------- targets


def order_targets(board: Board, side: str, card: str) -> list[str]:
    """The plays of an Order card the player could make now, as order text."""
    name = card.upper()
    if card == "heavy_artillery":
        return [f"PLAY {name} {a}" for a in soviet_occupied(board)]
    if card == "superheavy_artillery":
        return [f"PLAY {name} {a}" for a in board.batteries_left()]
    if card == "air_strike":
        attack = [f"PLAY {name} ATTACK {a}" for a in soviet_occupied(board)]
        return attack + interdiction_plays(board, f"PLAY {name} INTERDICT", interdiction_targets(board))
    if card == "soviet_coastal_artillery":
        targets = coastal_targets(board)
        return [f"PLAY {name} {a}" for a in targets] if targets else [f"PLAY {name}"]
    if card == "soviet_field_artillery":
        return [f"PLAY {name} {a}" for a in sorted({board.area_on_map(b) for b in board.blocks_of("axis")})]
    if card == "fighter_cover" and soviet_has_airbase(board):
        return [f"PLAY {name} {a}" for a in board.markers_on_map("interdiction")]
    return []


def soviet_occupied(board: Board) -> list[str]:
    return sorted({board.area_on_map(b) for b in board.blocks_of("soviet")})


def interdiction_targets(board: Board) -> list[str]:
    """Every area without an Interdiction marker: the marker goes "in any area on the map" (L453)."""
    return sorted(a for a in board.geo.areas if not board.marker(a, "interdiction"))


def interdiction_plays(board: Board, prefix: str, targets: list[str]) -> list[str]:
    """`prefix <area>` for each target; with every marker on the map, also each choice of the marker to
    relocate, `prefix <area> REMOVING <old>` (without it the oldest moves) (L457)."""
    plays = [f"{prefix} {a}" for a in targets]
    on_map = board.markers_on_map("interdiction")
    if len(on_map) >= board.marker_limit("interdiction"):
        plays += [f"{prefix} {a} REMOVING {old}" for a in targets for old in on_map]
    return plays


def coastal_targets(board: Board) -> list[str]:
    """Axis-occupied areas within 3 areas of an undestroyed battery, ferries counting (L477)."""
    reach: set[str] = set()
    for battery in board.batteries_left():
        frontier = {battery}
        reach.add(battery)
        for _ in range(COASTAL_RANGE):
            frontier = {n for a in frontier for n in board.geo.neighbours(a, include_ferry=True)} - reach
            reach |= frontier
    return sorted(a for a in reach if board.blocks_in(a, "axis"))


def soviet_has_airbase(board: Board) -> bool:
    """Fighter Cover needs at least one airbase area Soviet-controlled (L394, L449)."""
    return any(board.controller(a.id) == "soviet" for a in board.scenario.areas_where(airbase=True))


# ---------------------------------------------------------------- Order cards in one's own phase


def play_order(board: Board, side: str, order: Order) -> None:
    """Play an Order card in one's own phase (L463-483, L449, L451-457); raises IllegalOrder."""
    card = str(order.get("card")).lower()
    target = str(order.get("target")) if order.get("target") else None
    if card not in ORDER_CARDS or side not in board.scenario.card_type(card).sides:
        raise IllegalOrder(f"{card.upper()} is not an Order card you can play this way")
    if card == "air_strike":
        mode = order.get("mode") or "ATTACK"
        area = check_strike(board, str(mode), target, order.get("removing"))
        card_id = board.take_from_hand(side, card)
        board.emit("card_played", side=side, card=card, mode=str(mode).lower(), area=area, divisions=[],
                   reaction=False, blocks=0)
        start_strike(board, card_id, str(mode), area, order.get("removing"), reaction=False, entering=[])
        return
    if card == "fighter_cover":
        if not soviet_has_airbase(board):
            raise IllegalOrder("Fighter Cover needs a Soviet-controlled airbase")
        if target is None or not board.marker(target, "interdiction"):
            raise IllegalOrder("name an area with an Axis Interdiction marker")
        card_id = board.take_from_hand(side, card)
        board.emit("card_played", side=side, card=card, mode="order", area=target, divisions=[], reaction=False,
                   blocks=0)
        cover: CoverOrderFrame = new_frame(board, "cover_order", card=card_id, target=target,
                                           stage=COVER_ORDER_STEPS.first, escorted=False)
        board.push(cover)
        return
    legal = [o.split(" ")[-1] for o in order_targets(board, side, card)]
    if card == "soviet_coastal_artillery" and target is None:
        if coastal_targets(board):
            raise IllegalOrder("name a target: an Axis-occupied area within 3 areas of a battery")
        card_id = board.take_from_hand(side, card)
        board.discard(side, card_id)
        board.emit("card_played", side=side, card=card, mode="discard", area=None, divisions=[], reaction=False,
                   blocks=0)
        return
    if target is None or target not in legal:
        raise IllegalOrder(f"{card.upper()} cannot target {target}: it needs {TARGET_RULES[card]}; targets now: "
                           f"{', '.join(legal) or 'none'}")
    card_id = board.take_from_hand(side, card)
    board.emit("card_played", side=side, card=card, mode="order", area=target, divisions=[], reaction=False, blocks=0)
    if card == "superheavy_artillery":
        superheavy(board, target)
        if board.batteries_left():
            board.discard(side, card_id)
        else:  # the card that destroys the last battery is removed from play (L471)
            board.remove_from_play(card_id, "it destroyed the last Soviet battery")
        return
    board.discard(side, card_id)
    if card == "heavy_artillery":
        bombard(board, target, "soviet", 4, six_only=board.has_intact_trench(target, "soviet"),
                source="Heavy Artillery")
    elif card == "soviet_coastal_artillery":
        bombard(board, target, "axis", 2, six_only=False, source="Coastal Artillery")  # even vs Axis trenches (L477)
    elif card == "soviet_field_artillery":
        printed = board.geo.areas[target].trench == "axis"
        bombard(board, target, "axis", 3, six_only=printed, source="Field Artillery")  # L483


def bombard(board: Board, area: str, victim: str, count: int, six_only: bool, source: str,
            only: list[str] | None = None) -> None:
    """Roll `count` dice; each hit falls on a victim block chosen at random, one hit at a time (ruling R-RANDOM)."""
    rolled = board.roll(count, f"{source} on {area}")
    need = 6 if six_only else 5
    hits = sum(1 for d in rolled if d.value >= need)
    board.remember("fire", area=area, side="axis" if victim == "soviet" else "soviet")
    board.emit("bombardment", area=area, source=source, dice=[d.to_json() for d in rolled], need=need, hits=hits,
               victim=victim)
    distribute(board, area, victim, hits, source, only)


def distribute(board: Board, area: str, victim: str, hits: int, source: str, only: list[str] | None = None) -> None:
    for _ in range(hits):
        pool = sorted(b for b in board.blocks_in(area, victim) if only is None or b in only)
        if not pool:
            break  # hits beyond the blocks present are lost (L471)
        block = board.choice(pool, f"{source}: which block is hit", stream="random")
        board.lose_step(block, cause=source)
        board.emit("step_lost", visible_to=(victim,), block=block, sp=board.sp(block), source=source)


def superheavy(board: Board, area: str) -> None:
    """3d6, 6s hit: the first destroys the battery, the rest fall on Soviet blocks (L336, L471)."""
    rolled = board.roll(3, f"Superheavy Artillery on {area}")
    hits = sum(1 for d in rolled if d.value == 6)
    board.emit("bombardment", area=area, source="Superheavy Artillery", dice=[d.to_json() for d in rolled],
               need=6, hits=hits, victim="soviet", battery_first=True)
    if hits:
        destroy_battery(board, area)
        distribute(board, area, "soviet", hits - 1, "Superheavy Artillery")
        if board.blocks_in(area, "axis") and not board.blocks_in(area, "soviet"):
            board.take_control(area, "axis")


# ---------------------------------------------------------------- the Air Strike and its answers


def check_strike(board: Board, mode: str, target: str | None, removing: Value = None) -> str:
    """The area an Air Strike may attack (Soviet blocks there) or interdict (no marker yet), and the marker
    it may relocate (L457); raises IllegalOrder."""
    if target is None:
        raise IllegalOrder("name the area of the Air Strike")
    if mode == "ATTACK" and not board.blocks_in(target, "soviet"):
        raise IllegalOrder(f"an Air Strike attack needs Soviet blocks in {target}")
    if mode == "INTERDICT" and board.marker(target, "interdiction"):
        raise IllegalOrder(f"{target} is already interdicted")
    if removing:
        on_map = board.markers_on_map("interdiction")
        if mode != "INTERDICT" or len(on_map) < board.marker_limit("interdiction") or str(removing) not in on_map:
            raise IllegalOrder(f"REMOVING relocates one of the Interdiction markers when all "
                               f"{board.marker_limit('interdiction')} are on the map; on the map now: "
                               f"{', '.join(on_map) or 'none'}")
    return target


def start_strike(board: Board, card_id: str, mode: str, target: str, removing: Value, reaction: bool,
                 entering: list[str]) -> None:
    strike: StrikeFrame = new_frame(board, "strike", card=card_id, mode=mode, target=target,
                                    removing=str(removing) if removing else None, reaction=reaction,
                                    entering=entering, stage=STRIKE_STEPS.first, cover=None, escorted=False)
    board.push(strike)


class Strike:
    """An Air Strike in flight: the Soviet may answer with Fighter Cover, the Axis with Escort."""

    def decisions(self, board: Board, frame: StrikeFrame) -> list[Decision]:
        if frame["stage"] == "cover":
            return [ask(frame, "soviet", "cover",
                        f"The Axis plays an Air Strike ({frame['mode'].lower()}) on {frame['target']}: "
                        f"answer with Fighter Cover?" + no_card_note(board, "soviet", "fighter_cover"),
                        ["COVER NONE"] + (["COVER"] if board.holds("soviet", "fighter_cover") else []), "COVER NONE",
                        deadline="reaction", interrupts="axis",
                        context={"area": frame["target"], "mode": frame["mode"]})]
        if frame["stage"] == "escort":
            return [ask(frame, "axis", "escort", "The Soviet answers with Fighter Cover: play Fighter Escort?"
                        + no_card_note(board, "axis", "fighter_escort"),
                        escort_options(board), "ESCORT NONE", deadline="reaction", interrupts="soviet")]
        return []

    def legal(self, board: Board, frame: StrikeFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: StrikeFrame, decision: Decision, order: Order) -> None:
        if decision.kind == "cover":
            if order.form == "play":
                if not soviet_has_airbase(board):
                    raise IllegalOrder("Fighter Cover needs a Soviet-controlled airbase")
                frame["cover"] = board.take_from_hand("soviet", "fighter_cover")
                board.emit("card_played", side="soviet", card="fighter_cover", mode="reaction",
                           area=frame["target"], divisions=[], reaction=True, blocks=0)
                frame["stage"] = STRIKE_STEPS.after("cover")
            else:
                frame["stage"] = "resolve"  # no Cover: nothing to escort
        elif decision.kind == "escort":
            cover = covering_card(frame)
            if order.form == "play":
                escort(board, cover)
                frame["escorted"] = True
            else:
                board.discard("soviet", cover)
            frame["stage"] = STRIKE_STEPS.after("escort")
        answered(frame)

    def step(self, board: Board, frame: StrikeFrame) -> bool:
        if board.top() is not frame:
            return False
        if frame["stage"] == "cover" and not soviet_has_airbase(board):
            frame["stage"] = "resolve"  # no airbase: no Fighter Cover is possible, publicly known (L449)
            return True
        if frame["stage"] != "resolve":
            return False
        board.pop()
        board.discard("axis", frame["card"])
        if frame["cover"] and not frame["escorted"]:
            board.emit("strike_cancelled", area=frame["target"])
            return True
        resolve_strike(board, frame)
        return True


def covering_card(frame: StrikeFrame) -> str:
    """The Fighter Cover card played against the strike; raises ValueError when none was."""
    if frame["cover"] is None:
        raise ValueError(f"no Fighter Cover was played against the Air Strike on {frame['target']}")
    return frame["cover"]


def escort_options(board: Board) -> list[str]:
    return ["ESCORT NONE"] + (["ESCORT"] if board.holds("axis", "fighter_escort") else [])


def escort(board: Board, cover_card: str) -> None:
    """Fighter Escort negates Fighter Cover and removes it from play; after the last Cover, the
    Escort leaves play too (L445)."""
    escort_card = board.take_from_hand("axis", "fighter_escort")
    board.emit("card_played", side="axis", card="fighter_escort", mode="reaction", area=None, divisions=[],
               reaction=True, blocks=0)
    board.remove_from_play(cover_card, "cancelled by Fighter Escort")
    covers_left = [c for c, t in board.data["cards"].items() if t == "fighter_cover" and c not in board.data["removed"]]
    if covers_left:
        board.discard("axis", escort_card)
    else:
        board.remove_from_play(escort_card, "the last Fighter Cover is gone")


def resolve_strike(board: Board, frame: StrikeFrame) -> None:
    """3d6 at the Soviet blocks there (the entering ones if a window opened it), or an Interdiction (L455-457)."""
    target = frame["target"]
    if frame["mode"] == "ATTACK":
        only = frame["entering"] or None
        bombard(board, target, "soviet", 3, six_only=board.has_intact_trench(target, "soviet"), source="Air Strike",
                only=only)
        return
    place_interdiction(board, target, frame["removing"])
    if frame["entering"]:
        interdiction_rolls(board, target, [b for b in frame["entering"] if board.is_in(b, target)])


def place_interdiction(board: Board, area: str, removing: str | None) -> None:
    """An Interdiction marker; with every marker on the map, the one named (or the oldest) moves (L457)."""
    on_map = board.data.setdefault("interdiction_order", [])
    on_map[:] = [a for a in on_map if board.marker(a, "interdiction")]
    if len(on_map) >= board.marker_limit("interdiction"):
        old = removing if removing is not None and removing in on_map else on_map[0]  # relocate a marker (L457)
        board.set_marker(old, "interdiction", False)
        on_map.remove(old)
        board.emit("marker_removed", area=old, marker="interdiction", by="relocation")
    board.set_marker(area, "interdiction", True)
    on_map.append(area)
    board.emit("marker_placed", area=area, marker="interdiction")


class CoverOrder:
    """Fighter Cover played as an Order against an Interdiction marker; the Axis may escort (L445)."""

    def decisions(self, board: Board, frame: CoverOrderFrame) -> list[Decision]:
        if frame["stage"] == "escort":
            return [ask(frame, "axis", "escort",
                        f"The Soviet plays Fighter Cover to clear the Interdiction in {frame['target']}: "
                        f"play Fighter Escort?" + no_card_note(board, "axis", "fighter_escort"),
                        escort_options(board), "ESCORT NONE", deadline="reaction",
                        interrupts="soviet")]
        return []

    def legal(self, board: Board, frame: CoverOrderFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: CoverOrderFrame, decision: Decision, order: Order) -> None:
        if order.form == "play":
            escort(board, frame["card"])
            frame["escorted"] = True
        frame["stage"] = COVER_ORDER_STEPS.after("escort")
        answered(frame)

    def step(self, board: Board, frame: CoverOrderFrame) -> bool:
        if board.top() is not frame or frame["stage"] != "resolve":
            return False
        board.pop()
        if not frame["escorted"]:
            board.discard("soviet", frame["card"])
            board.set_marker(frame["target"], "interdiction", False)
            board.emit("marker_removed", area=frame["target"], marker="interdiction", by="Fighter Cover")
        return True


# ---------------------------------------------------------------- windows


def between_cards_window(board: Board, phase: PhaseFrame) -> Decision:
    """Before each Soviet card the Axis may strike (ruling R-AIR); the question belongs to the phase frame."""
    return ask(phase, "axis", "air", "Before the next Soviet card: an Air Strike (Reaction)?"
               + no_card_note(board, "axis", "air_strike"), air_options(board, None, attack=True), "AIRSTRIKE NONE",
               deadline="reaction", interrupts="soviet", context={"area": None})


def no_card_note(board: Board, side: str, card: str) -> str:
    """What a player asked a window without its card is told: NONE is the only answer, and why it is asked
    anyway (ruling R-WINDOW). Only the player sees his questions' text."""
    if board.holds(side, card):
        return ""
    name = card.replace("_", " ").title()
    return (f" You hold no {name} card, so NONE is your only answer; this window is asked whatever you hold, "
            f"so that the time it takes tells your opponent nothing.")


def air_options(board: Board, area: str | None, attack: bool) -> list[str]:
    return ["AIRSTRIKE NONE"] + (air_plays(board, area, attack) if board.holds("axis", "air_strike") else [])


def air_plays(board: Board, area: str | None, attack: bool) -> list[str]:
    """The Air Strikes a window allows to one who holds the card: about `area`, or anywhere (ruling R-AIR)."""
    if area is None:
        return ([f"AIRSTRIKE ATTACK {a}" for a in soviet_occupied(board)]
                + interdiction_plays(board, "AIRSTRIKE INTERDICT", interdiction_targets(board)))
    plays = [f"AIRSTRIKE ATTACK {area}"] if attack else []
    if not board.marker(area, "interdiction"):
        plays += interdiction_plays(board, "AIRSTRIKE INTERDICT", [area])
    return plays


def apply_air(board: Board, order: Order, entering: list[str] | None = None, area: str | None = None,
              attack: bool = True) -> None:
    """An Air Strike played as a Reaction in a window (or AIRSTRIKE NONE); raises IllegalOrder."""
    if order.form == "none":
        return
    mode = str(order.get("mode"))
    target = str(order.get("target"))
    if area is not None and target != area:
        raise IllegalOrder(f"this window is about {area}: strike or interdict there, or NONE")
    if area is not None and mode == "ATTACK" and not attack:
        raise IllegalOrder(f"the Soviet blocks entering {area} do not attack an Axis-held area, so only an "
                           f"Interdiction can be placed there now")
    check_strike(board, mode, target, order.get("removing"))
    card_id = board.take_from_hand("axis", "air_strike")
    board.emit("card_played", side="axis", card="air_strike", mode=mode.lower(), area=target, divisions=[],
               reaction=True, blocks=0)
    start_strike(board, card_id, mode, target, order.get("removing"), reaction=True, entering=entering or [])


class Window:
    """A reaction window: the Axis after Soviet blocks enter an area, or the Counterattack window."""

    def decisions(self, board: Board, frame: WindowFrame) -> list[Decision]:
        if not window_open(board, frame):
            return []
        if frame["window"] == "entry":
            what = "attack into" if frame["attack"] else "enter"
            return [ask(frame, "axis", "air",
                        f"Soviet blocks {what} {frame['area']}: an Air Strike (Reaction) on them or there?"
                        + no_card_note(board, "axis", "air_strike"),
                        air_options(board, frame["area"], frame["attack"]), "AIRSTRIKE NONE", deadline="reaction",
                        interrupts="soviet", context={"area": frame["area"]})]
        side = frame["side"]
        return [ask(frame, side, "counterattack",
                    f"The combat in {frame['area']} is over: counterattack now with a Counterattack card (a Reaction)?"
                    + no_card_note(board, side, "counterattack"),
                    counterattack_options(board, side), "COUNTERATTACK NONE", deadline="reaction",
                    interrupts=enemy(side), context={"area": frame["area"], "winner": frame["winner"],
                                                     "mine": frame["winner"] == side})]

    def legal(self, board: Board, frame: WindowFrame, decision: Decision) -> list[Order]:
        return options_as_orders(board, decision)

    def apply(self, board: Board, frame: WindowFrame, decision: Decision, order: Order) -> None:
        board.pop()
        if frame["window"] == "entry":
            alive = [b for b in frame["blocks"] if board.is_in(b, frame["area"])]
            apply_air(board, order, alive, frame["area"], frame["attack"])
            return
        if order.form == "none":
            return
        if not board.holds(frame["side"], "counterattack"):
            raise IllegalOrder("you hold no Counterattack card")
        activation.start(board, frame["side"], "counterattack", order, reaction=True)

    def step(self, board: Board, frame: WindowFrame) -> bool:
        if board.top() is not frame or window_open(board, frame):
            return False
        board.pop()  # even the card would have no answer but NONE, as both players see (ruling R-WINDOW)
        return True


def window_open(board: Board, frame: WindowFrame) -> bool:
    """Whether the window asks: not when even its card would allow nothing but NONE, which both players see
    (an entry into an area already interdicted, no attack), so skipping it tells nothing (ruling R-WINDOW)."""
    if frame["window"] == "entry":
        return bool(air_plays(board, frame["area"], frame["attack"]))
    return bool(counterattack_plays(board, frame["side"]))


def counterattack_options(board: Board, side: str) -> list[str]:
    """COUNTERATTACK with any group or division on the map, if the side holds the card (L439)."""
    return ["COUNTERATTACK NONE"] + (counterattack_plays(board, side) if board.holds(side, "counterattack") else [])


def counterattack_plays(board: Board, side: str) -> list[str]:
    """Each Counterattack a side's blocks on the map would allow with the card (L439)."""
    options = []
    for area in activation.group_areas(board, side):
        options.append(f"COUNTERATTACK GROUP {area}")
        options += [f"COUNTERATTACK GROUP {area} TO {target}"
                    for target in sorted(board.geo.neighbours(area, include_ferry=True))]
    options += [f"COUNTERATTACK DIVISION {d}" for d in activation.divisions_on_map(board, side)]
    return options
