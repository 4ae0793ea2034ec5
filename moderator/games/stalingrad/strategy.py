"""§Strategy 1-6 (progress, campaign, reinforcements, consolidations, ready districts, maneuvers), the
battles of the turn in the German's order, victory at every check point (§Basic Game), and who would win if
the game stopped now (a league's time-out).  Rulings: S-05, S-53, S-54, S-55, S-56, S-77, S-84."""

from __future__ import annotations

from moderator.core.contract import Decision
from moderator.core.frames import Stage, StageSequence, answered, ask, new_frame
from moderator.core.grammar import Order
from moderator.games.stalingrad import campaign, teams
from moderator.games.stalingrad.battle import start_battle
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.maneuver import (
    assault_options,
    consolidate,
    consolidation_options,
    consolidators,
    defend_options,
    maneuver,
    seat_consolidators,
    seat_maneuverer,
)
from moderator.games.stalingrad.scenario import DISTRICTS, SIDES
from moderator.games.stalingrad.state import GameResult, TurnFrame, TurnStage
from moderator.games.stalingrad.tracks import reset_counters

TURN_STAGES: StageSequence[TurnStage] = StageSequence(
    Stage("progress", "§Strategy 1: the Hourglass advances"),
    Stage("campaign", "§Strategy 2: both Campaign Cards, the Soviet's first"),
    Stage("reinforce", "§Strategy 3: reinforcements"),
    Stage("consolidate", "§Strategy 4: consolidations"),
    Stage("ready", "§Strategy 5: ready districts"),
    Stage("assault", "§Strategy 6: the German maneuvers first"),
    Stage("defend", "§Strategy 6: then the Soviet defends"),
    Stage("battles", "§Battle: one battle a building assaulted, in the German's order"),
    Stage("end", "§Basic Game: the next turn, or victory after the last"),
)


def start_turn(board: Board) -> None:
    board.push(new_frame(board.data, "turn", stage=TURN_STAGES.first, demotes=0, depleted_arrivals=[],
                         consolidated=[], assaulted=False))


def win(board: Board, winner: str, reason: str) -> None:
    result: GameResult = {"winner": "german" if winner == "german" else "soviet", "reason": reason}
    board.data["result"] = result
    board.emit("game_over", winner=winner, reason=reason)


class Turn:
    """The Strategy Phase step by step, then the battles; it asks only where a player chooses."""

    def decisions(self, board: Board, frame: TurnFrame) -> list[Decision]:
        stage = frame["stage"]
        if stage == "reinforce" and frame["demotes"]:
            # The Campaign Cards were turned when the "campaign" stage ran; their demotions are chosen
            # before the reinforcements arrive (§Strategy 2 before §Strategy 3).
            return [ask(frame, "german", "demote", "A Campaign Card demotes a General: DEMOTE <formation> (a Lv. 1 "
                        "General flips, a Lv. 0 General dies) or DEMOTE AUTO (§Campaign Effects).",
                        [f"DEMOTE {f}" for f in campaign.generals(board)], "DEMOTE AUTO")]
        if stage == "consolidate":
            return [ask(frame, side, "consolidate", "Consolidations (§Strategy 4): CONSOLIDATE <depleted formation> "
                        "INTO <depleted formation>, then CONSOLIDATE DONE.", consolidation_options(board, side),
                        "CONSOLIDATE DONE") for side in consolidators(board, frame)]
        if stage in ("assault", "defend"):
            side = "german" if stage == "assault" else "soviet"
            options = assault_options(board, frame) if side == "german" else defend_options(board)
            if not options:
                return []
            verb = "ASSAULT" if side == "german" else "DEFEND"
            default = options[0] if side == "german" and not frame["assaulted"] else f"{verb} DONE"
            prompt = (f"Maneuvers (§Strategy 6): {verb} <building> WITH <formation> ..., then {verb} DONE. "
                      + ("You must assault at least one building or lose (ruling S-53)." if side == "german"
                         else "Only assaulted buildings may be defended."))
            return [ask(frame, side, stage, prompt, options, default)]
        if stage == "battles" and board.data["assaults"] and board.data["battle"] is None:
            options = [f"FIGHT {board.district(d)['building']}" for d in sorted(board.data["assaults"])]
            return [ask(frame, "german", "fight", "Choose the next battle (§Summary, ruling S-77): FIGHT <building>.",
                        options, "FIGHT AUTO")]
        return []

    def legal(self, board: Board, frame: TurnFrame, decision: Decision) -> list[Order]:
        return [_order(decision.kind, text) for text in decision.options] + (
            [_order(decision.kind, decision.default)] if decision.default not in decision.options else [])

    def apply(self, board: Board, frame: TurnFrame, decision: Decision, order: Order) -> None:
        answered(frame)
        kind = decision.kind
        if kind == "demote":
            formation = campaign.auto_demote(board) if order.form == "auto" else str(order.get("formation"))
            if formation not in campaign.generals(board):
                board.fail(f"{formation} has no General to demote (§Campaign Effects)", campaign.generals(board))
            campaign.demote(board, formation)
            frame["demotes"] -= 1
        elif kind == "consolidate":
            if order.form == "done":
                frame["consolidated"].append(board.seated(decision.role))
            else:
                consolidate(board, decision.role, str(order.get("sacrificed")), str(order.get("supplied")))
        elif kind == "fight":
            self._fight(board, order)
        else:
            maneuver(board, frame, decision.role, order)

    def _fight(self, board: Board, order: Order) -> None:
        assaulted = sorted(board.data["assaults"])
        if order.form == "auto":
            district = assaulted[0]
        else:
            district = next((d for d in assaulted if board.district(d)["building"] == order.get("building")), "")
            if not district:
                board.fail("that building is not assaulted this turn, or its battle is over (§Battle)",
                           [f"FIGHT {board.district(d)['building']}" for d in assaulted])
        start_battle(board, district)

    def step(self, board: Board, frame: TurnFrame) -> bool:
        stage = frame["stage"]
        if stage == "consolidate":
            seat_consolidators(board, frame)
        elif stage in ("assault", "defend"):
            seat_maneuverer(board, frame, "german" if stage == "assault" else "soviet")
        if stage in ("reinforce", "consolidate", "assault", "defend", "battles") and self.decisions(board, frame):
            return False
        if stage == "end":
            board.pop()
            end_turn(board)
            return True
        STEPS.get(stage, _nothing)(board, frame)
        if board.data["result"] is None:
            frame["stage"] = TURN_STAGES.after(stage)
        return True


def _nothing(board: Board, frame: TurnFrame) -> None:
    return None


def _progress(board: Board, frame: TurnFrame) -> None:
    """§Strategy 1: the Hourglass advances one space."""
    board.data["turn"] += 1
    board.emit("turn_begins", turn=board.turn, last=board.last_turn)
    teams.begin_turn(board)


def _campaign(board: Board, frame: TurnFrame) -> None:
    frame["demotes"] = campaign.turn_campaign_cards(board)
    frame["depleted_arrivals"] = [side for side in SIDES if _arrive_depleted(board, side)]


def _arrive_depleted(board: Board, side: str) -> bool:
    card = board.side(side)["campaign_card"]
    return bool(card) and "reinforce_depleted" in board.scenario.campaign_card(card or "").effects


def _reinforce(board: Board, frame: TurnFrame) -> None:
    for side in SIDES:
        campaign.reinforce(board, side, side in frame["depleted_arrivals"])
    teams.divide_formations(board)  # §Four Player, ruling S-29


def _ready(board: Board, frame: TurnFrame) -> None:
    """§Strategy 5: each captured district gets a new building or a Volga Card; none on the last turn."""
    for district in DISTRICTS:
        record = board.district(district)
        if record["building"] is not None or record["closed"]:
            continue
        if board.is_last_turn():
            record["closed"] = True  # §Strategy 5, ruling S-54: empty for the rest of the game
            board.emit("district_empty", district=district)
            continue
        ready_district(board, district)
    if board.volga_count() >= 4:
        win(board, "german", "four Volga Cards are in play (§Basic Game, §Strategy 5)")


def ready_district(board: Board, district: str) -> None:
    """§Strategy 5: a River Bank's Volga Card (ruling S-55), else the first building of the district or the
    first Volga Card dealt from the reshuffled deck; a deck without either closes it (ruling S-56)."""
    record = board.district(district)
    captured = board.scenario.building(record["captured"]) if record["captured"] else None
    deck = board.data["building_deck"]
    if captured is not None and captured.terrain == "river_bank":
        found = next((c for c in deck if c.startswith("Volga")), None)
    else:
        deck[:] = board.shuffle(deck, f"building deck for district {district}", "shuffle")
        found = next((c for c in deck if c.startswith("Volga") or board.scenario.building(c).district == district),
                     None)
    if found is not None:
        deck.remove(found)
    if found is not None and captured is not None and captured.terrain == "river_bank":
        deck[:] = board.shuffle(deck, "building deck reshuffled", "shuffle")
    record["captured"] = None
    if found is None or found.startswith("Volga"):
        record["closed"], record["volga"] = True, found is not None
        board.emit("district_closed", district=district, volga=found is not None)
        return
    record["building"] = found
    reset_counters(board, district, infernos_too=True)
    board.emit("building_readied", district=district, building=found)


def _assault(board: Board, frame: TurnFrame) -> None:
    """§Strategy 6, ruling S-53: a German who cannot assault a building loses at once, unless no building is left
    to assault (the last turn's empty districts): then the turn ends and §Basic Game's victory decides."""
    if not frame["assaulted"] and board.buildings_in_play():
        win(board, "soviet", "the German cannot maneuver a formation to assault a building (§Strategy 6)")


STEPS = {"progress": _progress, "campaign": _campaign, "reinforce": _reinforce, "ready": _ready,
         "assault": _assault}


def end_turn(board: Board) -> None:
    """§Basic Game victory at the end of the last turn: no Building Card left is a German victory, any left a
    Soviet one (ruling S-54); otherwise the next turn's Strategy Phase."""
    if board.is_last_turn():
        left = board.buildings_in_play()
        if left:
            names = ", ".join(board.building_name(d) for d in left)
            win(board, "soviet", f"the last turn ends with {names} still standing (§Basic Game)")
        else:
            win(board, "german", "the last turn ends with no Building Card in play (§Basic Game)")
        return
    start_turn(board)


def verdict_now(board: Board) -> tuple[str | None, str]:
    """Who wins if the game stops now (a league round's time-out, ruling S-84): §Basic Game's count at the end of
    the last turn taken now (option `unfinished=last_turn`), or who holds more of the four districts, the German
    objective being to close them (§Buildings A; `unfinished=districts`, two each a draw).  The sudden deaths need
    no look: the engine ends the game the moment one happens (§Basic Game, §Strategy 5-6)."""
    standing = standing_buildings(board)
    names = _names(board, standing)
    if board.options.get("unfinished", "last_turn") == "districts":
        taken = len(DISTRICTS) - len(standing)
        if taken == len(standing):
            return None, (f"two districts each when the game stopped ({names} still standing): a draw "
                          "(§Buildings A, ruling S-84)")
        return ("german" if taken > len(standing) else "soviet"), (
            f"the German had taken {taken} of the four districts and the Soviet held {len(standing)} "
            f"({names or 'no building'} standing) when the game stopped (§Buildings A, ruling S-84)")
    if standing:
        return "soviet", (f"{names} still standing when the game stopped: a Soviet victory, as at the end of the "
                          "last turn (§Basic Game, ruling S-84)")
    return "german", ("no Building Card in play when the game stopped: a German victory, as at the end of the last "
                      "turn (§Basic Game, ruling S-84)")


def standing_buildings(board: Board) -> list[str]:
    """The districts whose Building Card stands if the game stops now (ruling S-84): one whose battle is being
    fought stands (§Basic Game: not captured) unless the German has won its Break Test (§Battle 6 D); a district
    captured and not yet readied has none, as none are readied on the last turn (§Strategy 5)."""
    battle = board.data["battle"]
    won = battle["district"] if battle is not None and battle["winner"] == "german" else None
    return [district for district in board.buildings_in_play() if district != won]


def _names(board: Board, standing: list[str]) -> str:
    """The buildings standing, the one still fought for marked."""
    battle = board.data["battle"]
    fought = battle["district"] if battle is not None and battle["winner"] is None else None
    return ", ".join(board.building_name(d) + (" (its battle undecided)" if d == fought else "") for d in standing)


def _order(kind: str, text: str) -> Order:
    words = text.split()
    if kind == "fight":
        return Order.make(kind, "auto") if words[1] == "AUTO" else Order.make(kind, "building", building=words[1])
    if kind == "demote":
        return Order.make(kind, "auto") if words[1] == "AUTO" else Order.make(kind, "formation", formation=words[1])
    if words[1] == "DONE":
        return Order.make(kind, "done")
    if kind == "consolidate":
        return Order.make(kind, "into", sacrificed=words[1], supplied=words[3])
    return Order.make(kind, "with", building=words[1], formations=tuple(words[3:]))
