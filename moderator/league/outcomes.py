"""How a league game's result is read, and how the league ends a game early (issue 15): the round's
time ran out (the engine's score, or the referee's adjudication) or a seat was forfeited.

The engines' contract (core/contract.py) gives `outcome(state)` once a game is over, and
`score_now(state)`, the rules' verdict on an unfinished position (None for a game whose rules have
no such measure); the "score" time-out policy uses it, and falls back to the referee's adjudication
when it is None.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlmodel import Session

from moderator.core.contract import Outcome
from moderator.league.model import Result
from moderator.service.cadence import missed_deadline
from moderator.service.notices import Notices
from moderator.service.table import Table, dumps
from moderator.store.games import live_log
from moderator.store.league_tables import Reliability

ANSWERED_FOR_THEM = ("default", "standing", "game-standing")  # not the player's own answer in time


def result_of(winner: str | None, sides: tuple[str, str]) -> Result:
    """A game's winner as a league result, from the first side's member's point of view."""
    if winner is None:
        return "draw"
    return "first" if winner == sides[0] else "second"


def finished_result(table: Table, sides: tuple[str, str]) -> Result | None:
    """The result of a game that is over, or None while it runs."""
    if table.game.status != "over":
        return None
    return result_of(json.loads(table.game.result_json or "{}").get("winner"), sides)


def score_at_timeout(table: Table) -> Outcome | None:
    """The engine's verdict on the game as it stands: its outcome if over, else its score now, which is
    None for a game whose rules cannot say (the referee adjudicates)."""
    if table.state is None:
        return None
    outcome = table.engine.outcome(table.state)
    if outcome is not None:
        return outcome
    return table.engine.score_now(table.state)


def stop_game(table: Table, notices: Notices, winner: str | None, reason: str, now: datetime) -> None:
    """End a game for the league: record the result, stop its deadlines, tell every seat why."""
    game = table.game
    game.status = "over"
    game.result_json = dumps({"winner": winner, "reason": reason, "score": {}})
    game.next_deadline = None
    table.session.add(game)
    table.append("control", "referee", {"command": "LEAGUE-END", "winner": winner, "reason": reason,
                                        "source": "league"}, now)
    verdict = f"{winner.replace('_', ' ').title()} wins" if winner else "It is a draw"
    for seat in [*table.players(), *table.observers()]:
        if seat.address:
            notices.post(table.session, table, seat.address, seat.role, "The game is over",
                         [f"{game.id} ends here: {reason}. {verdict}.",
                          "No more orders are taken; the league's standings follow at the round's end."])


def record_ledger(ledger: dict[str, Reliability], table: Table, holders: dict[str, str]) -> None:
    """Add a finished game to its players' reliability ledgers: decisions answered in time (with the
    time taken since the game last moved before the answer), and deadlines missed.  `holders` are the
    seats' first players; a referee's REPLACE in the log hands a seat on from that entry."""
    holders = dict(holders)
    played = set(holders.values())
    previous: datetime | None = None
    for entry in table.log():
        payload = json.loads(entry.payload_json)
        if entry.kind == "control" and payload.get("command") == "REPLACE" and payload.get("role") in holders:
            holders[payload["role"]] = payload.get("address", "")
            played.add(holders[payload["role"]])
        address = holders.get(entry.role)
        if entry.kind == "answer" and address in ledger:
            row = ledger[address]
            if missed_deadline(payload):
                row.missed += 1
            elif payload.get("source", "") not in ANSWERED_FOR_THEM:
                row.answers += 1
                if previous is not None:
                    row.answer_seconds += max(0.0, (entry.created_at - previous).total_seconds())
        previous = entry.created_at
    for address in played:
        if address in ledger:
            ledger[address].games += 1


def missed_since(session: Session, game_id: str, role: str, since: datetime | None) -> int:
    """How many of `role`'s deadlines passed unanswered in the game (after `since`, when given)."""
    count = 0
    for entry in live_log(session, game_id, kinds=("answer",)):
        if entry.role != role or (since is not None and _utc(entry.created_at) <= since):
            continue
        if missed_deadline(json.loads(entry.payload_json)):
            count += 1
    return count


def _utc(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)
