"""§Battle 1-4: Vanguards (with the Soviet's held fire), Battle Intensity and its fires, Initiative, and the
alternating action rounds; then the Break Test (§Battle 5) and the Aftermath (§Battle 6).
Rulings: S-13, S-17, S-18, S-19, S-20, S-52, S-63."""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.stalingrad import actions, breaktest, teams
from moderator.games.stalingrad.aftermath import aftermath
from moderator.games.stalingrad.board import Board, enemy
from moderator.games.stalingrad.heroes import can_intercept, intercept
from moderator.games.stalingrad.queue import items_of, queue_effects, queue_vanguard
from moderator.games.stalingrad.scenario import SIDES
from moderator.games.stalingrad.state import BattleFrame, BattleRecord
from moderator.games.stalingrad.tracks import add_fires


def start_battle(board: Board, district: str) -> None:
    """One Battle Phase for an assaulted building (§Battle): its six steps in order."""
    building = board.district(district)["building"] or ""
    record: BattleRecord = {
        "district": district, "building": building, "stage": "soviet_vanguard", "round": 0, "active": None,
        "initiative": None, "intensity": 0, "formations": {side: board.formations_at(district, side) for side in SIDES},
        "retreated": [], "played": {}, "spent": {}, "acted": False, "carnage_card": None, "parked": {},
        "depleted_round": [], "deferred": [], "hold_card": None, "pending_hold": False, "dice": {}, "pity": False,
        "rolls": [], "winner": None, "routed": False, "pending_card": None, "heroes": {},
        "hero_dice": {"german": 0, "steal": 0}, "ghost": False, "second": None, "skip": False,
    }
    board.data["battle"] = record
    board.emit("battle_begins", district=district, building=building, name=board.building_name(district),
               german=record["formations"]["german"],
               soviet=record["formations"]["soviet"])
    board.push(new_frame(board.data, "battle"))
    teams.begin_battle(board)  # §Four Player: each side's battle owner (ruling S-30)


def vanguards(board: Board, side: str) -> None:
    """§Battle 1: the Soviet's Vanguard Effects first (his Kills may wait for German units, ruling S-17),
    then the German's; each vanguard step is a round for the one-depletion limit (ruling S-52)."""
    battle = board.battle
    battle["depleted_round"] = []
    for formation in reversed(battle["formations"][side]):  # queued in front: reversed keeps the order
        queue_vanguard(board, formation, defer=side == "soviet")
    battle["stage"] = "german_vanguard" if side == "soviet" else "intensity"


def intensity(board: Board) -> None:
    """§Battle 2: a Carnage Card's Intensity places the Hold Counter (at least one Hold short of the Break
    Test, ruling S-13) and adds that many fires (ruling S-18)."""
    battle = board.battle
    if battle["deferred"]:
        queue_effects(board, battle["deferred"])  # §Battle 1: the held Soviet fire, now at German units
        battle["deferred"] = []
        return
    card = board.scenario.carnage_card(board.draw_carnage("battle intensity"))
    battle["carnage_card"], battle["intensity"] = card.id, card.intensity
    record = board.district(battle["district"])
    record["hold"] = min(card.intensity, board.scenario.meta.skull_track - 1)
    board.emit("intensity", district=battle["district"], card=card.id, intensity=card.intensity, hold=record["hold"],
               initiative=card.initiative)
    if board.options["intensity_fires"] == "on":
        add_fires(board, battle["district"], card.intensity, "battle intensity")
    battle["stage"] = "initiative"


def initiative(board: Board) -> None:
    """§Battle 3 (the summary's "Initiative Effect", ruling S-59), §Carnage B (ruling S-19): Stuka, Rat, or
    Binoculars (most Recon units, the Soviet wins ties); the winner applies his Initiative Effect of the
    building and takes the first round."""
    battle = board.battle
    icon = board.scenario.carnage_card(battle["carnage_card"] or "").initiative
    if icon == "binoculars":
        recon = {side: board.cores_on(battle["district"], side).get("Recon", 0) for side in SIDES}
        winner = "german" if recon["german"] > recon["soviet"] else "soviet"
    else:
        winner = "german" if icon == "stuka" else "soviet"
    battle["initiative"], battle["active"], battle["round"], battle["stage"] = winner, winner, 1, "rounds"
    battle["depleted_round"] = []
    board.emit("initiative", district=battle["district"], side=winner, icon=icon)
    building = board.building_of(battle["district"])
    if building is not None:
        effects = building.german_initiative if winner == "german" else building.soviet_initiative
        queue_effects(board, items_of(effects, winner, f"Initiative Effect of {building.name}", battle["district"]))


def end_round(board: Board) -> None:
    """§Battle 4: a Hold moves the Hold Counter on (the Break Test space ends the battle); then the other
    player takes the next round."""
    battle = board.battle
    battle["acted"] = False
    if battle.get("second") == "pending" and not battle["pending_hold"]:
        battle["second"] = "used"  # §Advanced Take a 2nd Action: the same player acts again (ruling S-26)
        board.emit("second_action", side=battle["active"])
        return
    skip, battle["skip"] = battle["skip"], False
    if battle["pending_hold"]:
        battle["pending_hold"] = False
        record = board.district(battle["district"])
        record["hold"] += 1
        board.emit("hold_advanced", district=battle["district"], hold=record["hold"],
                   skull=board.scenario.meta.skull_track)
        if record["hold"] >= board.scenario.meta.skull_track:
            battle["stage"] = "break"
            return
    if not skip:
        battle["active"] = enemy(battle["active"] or "german")
    battle["round"] += 2 if skip else 1  # ruling S-48: an intercept is the interceptor's round
    battle["depleted_round"], battle["second"] = [], None


def intercept_question(board: Board, frame: BattleFrame) -> Decision:
    """§Heroes Intercept (ruling S-25): after every card the opponent may cancel it with an Intercept hero; the
    question is put the same way whatever his hand holds, and a standing INTERCEPT NONE answers it."""
    battle = board.battle
    pending = battle["pending_card"] or {}
    side = enemy(pending["side"])
    prompt = (f"The {pending['side'].title()} plays {board.card_name(pending['card'])} on {pending['formation']}: "
              "INTERCEPT <hero> to cancel it with an Intercept hero of your hand, or INTERCEPT NONE (§Heroes).")
    options = ["INTERCEPT NONE"] + [f"INTERCEPT {h}" for h in can_intercept(board, side)]
    return ask(frame, side, "intercept", prompt, options, "INTERCEPT NONE", deadline="reaction",
               interrupts=pending["side"], context={"district": battle["district"], "card": pending["card"]})


def answer_intercept(board: Board, side: str, order: Order) -> None:
    battle = board.battle
    pending = battle["pending_card"] or {}
    battle["stage"], battle["pending_card"] = "rounds", None
    if order.form == "none":
        actions.resolve_card(board, pending["side"], pending["card"])
        return
    hero = str(order.get("card"))
    if hero not in can_intercept(board, side):
        board.fail("only an Intercept hero of your hand intercepts (§Heroes)", can_intercept(board, side))
    battle["pending_card"] = pending
    intercept(board, side, hero)
    battle["pending_card"] = None


ACTION_PROMPT = ("Action round {round} at {building}: PLAY <card> ON <formation>, RELOAD [DISCARD <card> ...] "
                 "[FIRE <district>], or HOLD (§Battle 4).")


class Battle:
    """One battle: it asks the active player for each action round's action and a Hold's option."""

    def decisions(self, board: Board, frame: BattleFrame) -> list[Decision]:
        battle = board.battle
        side = battle["active"] or "german"
        building = board.building_name(battle["district"])
        context = {"district": battle["district"], "round": battle["round"]}
        if battle["stage"] == "hold_choice":
            card = board.scenario.carnage_card(battle["hold_card"] or "")
            prompt = (f"The {side.title()} Hold at {building} drew {card.id}: TAKE FIRST ({card.hold[0].text()}) or "
                      f"TAKE SECOND ({card.hold[1].text()}) (§Carnage C).")
            return [ask(frame, side, "holdpick", prompt, actions.hold_options(board, side), "TAKE AUTO",
                        context=context)]
        if battle["stage"] == "intercept":
            return [intercept_question(board, frame)]
        if battle["stage"] != "rounds" or battle["acted"]:
            return []
        prompt = ACTION_PROMPT.format(round=battle["round"], building=building)
        options = [f"PLAY {card} ON {f}" if f else f"PLAY {card}" for card, f in actions.playable(board, side)]
        options += ["RELOAD", "HOLD"]
        return [ask(frame, side, "action", prompt, options, "HOLD", context=context)]

    def legal(self, board: Board, frame: BattleFrame, decision: Decision) -> list[Order]:
        side = decision.role
        if decision.kind == "holdpick":
            return [Order.make("holdpick", "take", which=o.split()[1]) for o in actions.hold_options(board, side)]
        if decision.kind == "intercept":
            return [Order.make("intercept", "none")] + [Order.make("intercept", "hero", card=h)
                                                        for h in can_intercept(board, side)]
        orders = [Order.make("action", "play", card=c, formation=f) if f else Order.make("action", "hero", card=c)
                  for c, f in actions.playable(board, side)]
        return orders + [Order.make("action", "reload"), Order.make("action", "hold")]

    def apply(self, board: Board, frame: BattleFrame, decision: Decision, order: Order) -> None:
        battle = board.battle
        side = decision.role
        answered(frame)
        if decision.kind == "intercept":
            answer_intercept(board, side, order)
            return
        if decision.kind == "holdpick":
            which = actions.auto_hold(board, side) if order.form == "auto" else f"TAKE {order.get('which')}"
            actions.take_hold_option(board, side, which)
            return
        if order.form in ("play", "hero"):
            if battle["round"] > actions.ROUND_CAP:
                board.fail("this battle has passed 200 rounds: only HOLD now (ruling S-63)", ["HOLD"])
            formation = order.get("formation")
            actions.play_card(board, side, str(order.get("card")), str(formation) if formation else None)
        elif order.form == "reload":
            fire = order.get("district")
            actions.reload_hand(board, side, order.values("discards"), str(fire) if fire else None)
        else:
            battle["hold_card"] = board.draw_carnage("hold action")
            board.emit("hold_called", side=side, district=battle["district"], card=battle["hold_card"])
            battle["stage"] = "hold_choice"
            return
        battle["acted"] = True

    def step(self, board: Board, frame: BattleFrame) -> bool:
        battle = board.battle
        stage = battle["stage"]
        if battle["routed"] and stage not in ("aftermath",):
            battle["winner"], battle["stage"] = "soviet", "aftermath"  # ruling S-20: no Break Test
            board.emit("routed", district=battle["district"])
            return True
        if stage in ("soviet_vanguard", "german_vanguard"):
            vanguards(board, "soviet" if stage == "soviet_vanguard" else "german")
        elif stage == "intensity":
            intensity(board)
        elif stage == "initiative":
            initiative(board)
        elif stage == "intercept":
            return False
        elif stage == "rounds":
            if not battle["acted"]:
                return False
            end_round(board)
        elif stage == "hold_choice":
            return self._forced_hold(board)
        else:
            return self._after_rounds(board, stage)
        return True

    def _forced_hold(self, board: Board) -> bool:
        side = board.battle["active"] or "german"
        options = actions.hold_options(board, side)
        if len(options) > 1:
            return False
        actions.take_hold_option(board, side, options[0])
        return True

    def _after_rounds(self, board: Board, stage: str) -> bool:
        if stage == "break":
            breaktest.start_break_test(board)
        elif stage == "roll":
            breaktest.roll(board)
        elif stage == "slaughter":
            breaktest.after_slaughter(board)
        else:
            board.pop()
            aftermath(board)
        return True
