"""The advanced game's text-card effects (§Advanced Card Effects and Advanced Cards) and the heroes' major
effects (§Heroes), as icons of the effect vocabulary.  Rulings: S-06, S-07, S-26, S-27, S-40, S-61, S-62,
S-64, S-67."""

from __future__ import annotations

from typing import Any

from moderator.games.stalingrad.board import Board, enemy
from moderator.games.stalingrad.queue import items_of, overrun, queue_effects
from moderator.games.stalingrad.scenario import DISTRICTS, Effect

#: advanced icons that ask their user, and the decision kind that asks
DECISIONS = {"promote": "promote", "tongues": "tongues", "rats_war": "ratswar", "deplete_own": "deplete"}
AUTO = {"promote": "PROMOTE AUTO", "tongues": "TONGUES AUTO", "ratswar": "RETRIEVE AUTO"}


def choices(board: Board, item: dict[str, Any]) -> list[str]:
    icon, side = item["icon"], item["side"]
    if icon == "promote":
        return [f"PROMOTE {f}" for f in promotable(board)]
    if icon == "tongues":
        return [f"TONGUES {card}" for card in sorted(board.side("german")["hand"])]
    if icon == "rats_war":
        return [f"RETRIEVE {card}" for card in sorted(set(board.side(side)["discard"]))]
    return [f"DEPLETE {f}" for f in board.battling(side) if f not in board.battle["depleted_round"]]


def promotable(board: Board) -> list[str]:
    """§Advanced Promote (ruling S-40): a Lv. 0 General anywhere in play flips; a leaderless formation in play gets
    a Lv. 0 General while fewer than 13 are in play (ruling S-67)."""
    room = board.leaders_in_play("german") < board.scenario.meta.leaders_per_side
    return [f.id for f in board.scenario.formations_of("german") if board.in_play(f.id)
            and (board.leader(f.id) == 0 or (board.leader(f.id) is None and room))]


def auto_choice(board: Board, item: dict[str, Any], options: list[str]) -> str:
    """AUTO: promote in this battle first; take the German's dearest-looking card (the first); retrieve the
    card discarded last; deplete an own depleted formation last."""
    if item["icon"] == "promote":
        here = set(board.battling("german"))
        return next((o for o in options if o.split()[1] in here), options[0])
    if item["icon"] == "rats_war":
        last = board.side(item["side"])["discard"][-1]
        return f"RETRIEVE {last}"
    if item["icon"] == "deplete_own":
        return next((o for o in options if not board.is_depleted(o.split()[1])), options[0])
    return options[0]


def resolve_choice(board: Board, item: dict[str, Any], text: str) -> None:
    word, target = text.split()[0], text.split()[1]
    side = item["side"]
    if word == "PROMOTE":
        record = board.data["formations"][target]
        record["leader"] = 0 if record["leader"] is None else 1
        board.emit("promoted", formation=target, level=record["leader"])
    elif word == "TONGUES":
        # §Advanced Collecting Tongues: the Soviet chooses the card (ruling S-64)
        board.side("german")["hand"].remove(target)
        board.side("german")["discard"].append(target)
        board.emit("discarded", side="german", card=target, why="Collecting Tongues")
    elif word == "RETRIEVE":
        pile = board.side(side)
        pile["discard"].remove(target)
        pile["hand"].append(target)
        board.emit("retrieved", side=side, card=target)


def resolve_auto(board: Board, item: dict[str, Any]) -> bool:
    """The advanced icons without a choice; False for an icon this module does not know."""
    icon, side, district, n = item["icon"], item["side"], item["district"], item["n"]
    battle = board.battle
    if icon == "second_action":
        if battle.get("second") is None:
            battle["second"] = "pending"  # §Advanced Take a 2nd Action; ruling S-26: one a round
        else:
            board.emit("effect_lost", side=side, icon="2nd action", why="one 2nd action a round (ruling S-26)")
    elif icon == "reload":
        _reload(board, side)
    elif icon == "discard_hand":
        foe = board.side(enemy(side))
        board.emit("hand_discarded", side=enemy(side), cards=list(foe["hand"]))
        foe["discard"] += foe["hand"]
        foe["hand"] = []
    elif icon == "execute_rifles":
        _execute_rifles(board, district, n)
    elif icon == "forced_march":
        _forced_march(board, side)
    elif icon == "ghost":
        battle["ghost"] = True  # ruling S-61, S-62: the next costly Soviet card this battle costs 0
        board.emit("ghost", side=side)
    elif icon == "last_stand":
        own = items_of([Effect("deplete")], side, item["why"], district)
        queue_effects(board, [dict(own[0], icon="deplete_own"), *own, dict(own[0], icon="fire_reset")])
    elif icon in ("hero_dice", "steal_die", "douse", "fire_reset"):
        _major(board, item)
    else:
        return icon == "intercept"  # the Intercept major effect acts only on the opponent's round (§Heroes)
    return True


def _reload(board: Board, side: str) -> None:
    """§Advanced Reload Hand: the Supreme Commander's directions, discarding nothing."""
    from_hand = board.side(side)["hand"]
    commander = board.commander(side)
    board.draw_cards(side, max(0, commander.hand - len(from_hand)), "Reload Hand (card)")
    queue_effects(board, items_of(commander.reload, side, f"{commander.name}'s reload", board.battle["district"]))


def _execute_rifles(board: Board, district: str, count: int) -> None:
    """§Advanced Militia Surrender: any Rifle units in play, this battle's first."""
    for where in [district, *[d for d in DISTRICTS if d != district]]:
        while count and board.cores_on(where, "soviet").get("Rifle", 0):
            board.remove_core(where, "soviet", "Rifle")
            board.emit("unit_destroyed", side="soviet", unit="Rifle", district=where, by="execute",
                       why="Militia Surrender")
            count -= 1


def _forced_march(board: Board, side: str) -> None:
    """§Advanced Forced March / Hidden Infiltrators: a new formation with a Lv. 0 leader joins as an Overrun."""
    formation = board.draw_formation(side)
    if formation is None:
        board.emit("effect_lost", side=side, icon="forced_march", why="no formation left to draw")
        return
    record = board.data["formations"][formation]
    record["at"], record["depleted"], record["leader"] = "staging", False, None
    board.give_new_leader(formation)
    overrun(board, formation, side, "Forced March")


def _major(board: Board, item: dict[str, Any]) -> None:
    """§Heroes major effects: +2 Break dice, a stolen die (never the Pity die), an Inferno removed (ruling
    S-27); Last Stand's Fire Counter back to the Smoldering Ruins."""
    battle, district = board.battle, item["district"]
    dice = battle.setdefault("hero_dice", {"german": 0, "steal": 0})
    if item["icon"] == "hero_dice":
        dice["german"] += item["n"]
    elif item["icon"] == "steal_die":
        dice["steal"] += 1
    elif item["icon"] == "douse":
        record = board.district(district)
        if record["infernos"]:
            record["infernos"] -= 1
            board.emit("inferno_doused", district=district, infernos=record["infernos"])
    else:
        board.district(district)["fire"] = 0
        board.emit("fire_doused", district=district)
