"""`moderator verify`: prove a finished game from its public archive alone (DESIGN §5, issue 13).

Nothing in the archive is taken on trust.  The verifier checks, in order:

- the revealed seed against the commitment published when the game was created;
- the log's hash chain (core/chain.py): every entry numbered in place and chained to the one
  before it, so an entry changed, inserted, removed or renumbered is named;
- that every seat whose contribution keys the dice joined in the log before the set-up, with that
  contribution (with commit and reveal: that commitment, and the text revealed), so a join entry
  removed or changed is named although no replayed answer depends on it;
- the void marks against the rollbacks that set them, and that the dice never went back;
- every draw's counter continuing its stream, and the voided entries' draws against the seed;
- the whole game replayed with the real engine from the scenario, the options, the seed, the
  contributions and the answers: every event and every draw (value, bound, stream, counter) of
  the set-up and of each answer, shuffles and chit draws included, then the final outcome;
- that each player's game-over report closes the log, and that every die an event shows is a
  draw its own entry made;
- the checks in `ARCHIVE_CHECKS` (the committed set-ups' check belongs there).

Each problem is one sentence naming the entry ("log #57 (answer by axis: 'RETREAT TO C03'): …").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from moderator.core.chain import entry_hash, log_key, payload_digest
from moderator.core.contract import Engine, Event
from moderator.core.errors import ModeratorError, UnknownGame
from moderator.core.rng import Rng, RngRecord, commitment, derive_key
from moderator.registry import Registry
from moderator.service.archive import ARCHIVE_FORMAT
from moderator.service.commitments import check_commitments
from moderator.service.replay import GameReplay, normal_json


@dataclass(frozen=True)
class ReplayedArchive:
    """What a further check reads: the archive, its game's engine and the replayed final state."""

    archive: dict[str, Any]
    engine: Engine[Any]
    state: Any


ArchiveCheck = Callable[[ReplayedArchive], list[str]]

#: Further checks run on every archive whose replay got to the end.  The check of committed
#: set-ups (a set-up's placements and salt against the commitment published when it was filed)
#: goes here: add it to this tuple, and it runs on every `moderator verify`.
ARCHIVE_CHECKS: tuple[ArchiveCheck, ...] = ()


@dataclass
class Verification:
    """The verdict on one archive, with what was checked (for the one-line summary)."""

    problems: list[str] = field(default_factory=list)
    entries: int = 0
    answers: int = 0
    draws: int = 0
    replayed: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_archive(archive: dict[str, Any], registry: Registry,
                   checks: tuple[ArchiveCheck, ...] | None = None) -> Verification:
    """Check everything the archive says (see the module's docstring).  Raises KeyError, TypeError or
    ValueError when a part of it is missing or malformed."""
    result = Verification()
    engine = _header_problems(archive, registry, result)
    if engine is None:
        return result
    log: list[dict[str, Any]] = archive["log"]
    result.entries = len(log)
    result.problems += _chain_problems(archive)
    result.problems += _join_problems(archive)
    result.problems += _void_problems(log)
    result.problems += _draw_problems(archive)
    result.draws = sum(len(e.get("payload", {}).get("draws", [])) for e in log)
    state = _replay(archive, engine, result)
    if result.replayed:
        result.problems += _closing_problems(archive, engine.info.roles(archive["scenario"]))
        replayed = ReplayedArchive(archive, engine, state)
        for check in ARCHIVE_CHECKS if checks is None else checks:
            result.problems += check(replayed)
    result.problems += _event_dice_problems(log)
    result.problems += check_commitments(archive)  # set-ups filed face down, entropy commit-reveal
    return result


def entry_name(entry: dict[str, Any]) -> str:
    """`log #57 (answer by axis: 'RETREAT TO C03')`: how a problem names an entry."""
    seq, kind, role = entry.get("seq"), entry.get("kind"), entry.get("role")
    what = f"{kind} by {role}" if role else f"{kind}"
    text = entry.get("payload", {}).get("text") if kind == "answer" else None
    return f"log #{seq} ({what}{f': {text!r}' if text is not None else ''})"


# ---------------------------------------------------------------- the seed, the chain, the void marks


def _header_problems(archive: dict[str, Any], registry: Registry, result: Verification) -> Engine[Any] | None:
    """The format, the seed against its commitment, and the engine; None when nothing more can be checked."""
    if archive.get("format") != ARCHIVE_FORMAT:
        result.problems.append(f"unknown archive format {archive.get('format')!r} (this verifier reads "
                               f"{ARCHIVE_FORMAT!r})")
        return None
    try:
        seed = bytes.fromhex(archive["seed"])
    except (KeyError, TypeError, ValueError):
        result.problems.append("the archive has no valid revealed seed")
        return None
    if commitment(archive["game"], seed) != archive["commitment"]:
        result.problems.append("the revealed seed does not match the commitment published at the start")
    try:
        return registry.get(archive["engine"])
    except UnknownGame as error:
        result.problems.append(f"the game cannot be replayed: {error}")
        return None


def _chain_problems(archive: dict[str, Any]) -> list[str]:
    """Every entry in its place, carrying what its kind must, and chained to the entry before it."""
    problems: list[str] = []
    key = log_key(archive["game"], bytes.fromhex(archive["seed"]))
    previous = archive["commitment"]
    log = archive["log"]
    for place, entry in enumerate(log, start=1):
        name = entry_name(entry)
        if entry["seq"] != place:
            problems.append(f"{name}: it stands at place {place} of the log; entries before it were removed, "
                            f"inserted or renumbered")
        if "payload" in entry:
            digest = payload_digest(entry["payload"])
        elif entry["kind"] == "report":
            digest = entry["digest"]
        else:
            problems.append(f"{name}: its payload is missing (only a report's may be withheld)")
            digest = ""
        if entry_hash(key, previous, entry["seq"], entry["kind"], entry["role"], digest) != entry["hash"]:
            problems.append(f"{name}: its hash does not match its content and the hash of the entry before it: "
                            f"it was changed, or an entry before it was removed, inserted or renumbered")
        previous = entry["hash"]
    head = archive.get("head", {})
    last = log[-1] if log else {"seq": 0, "hash": ""}
    if (head.get("seq"), head.get("hash")) != (last["seq"], last["hash"]):
        problems.append(f"the archive's head is #{head.get('seq')} {head.get('hash')}, but its log ends at "
                        f"#{last['seq']} {last['hash']}: entries were removed or added")
    return problems


def _join_problems(archive: dict[str, Any]) -> list[str]:
    """Each seat of the archive's contributions joined before the set-up, and the log's join (and,
    with commit and reveal, its entropy entries) records what the contributions list says."""
    log = archive["log"]
    setup = next((entry["seq"] for entry in log if entry["kind"] == "setup"), None)
    problems: list[str] = []
    for seat in archive["contributions"]:
        role = seat["role"]
        mine = [entry for entry in log if entry["role"] == role and entry["kind"] in ("join", "entropy")]
        joined = next((entry for entry in mine if entry["kind"] == "join"), None)
        if joined is None:
            problems.append(f"seat {role}: no entry of the log records its join (its contribution keys the dice): "
                            f"the entry was removed")
            continue
        if setup is not None and joined["seq"] > setup:
            problems.append(f"{entry_name(joined)}: the seat joins after the set-up, log #{setup}")
        said = [entry.get("payload", {}) for entry in mine]
        if "commitment" not in seat:
            if said[0].get("contribution") != seat["contribution"]:
                problems.append(f"{entry_name(joined)}: it records the contribution {said[0].get('contribution')!r}, "
                                f"the archive keys the dice with {seat['contribution']!r}")
            continue
        committed = [p["entropy_commitment"] for p in said if "entropy_commitment" in p]
        if not committed or committed[-1] != seat["commitment"]:
            problems.append(f"seat {role}: its last commitment in the log is {committed[-1] if committed else None}, "
                            f"the archive lists {seat['commitment']}")
        revealed = [p["revealed"] for p in said if "revealed" in p]
        if not seat.get("dropped") and revealed != [seat["contribution"]]:
            problems.append(f"seat {role}: the log records the reveals {revealed!r}, the archive keys the dice with "
                            f"{seat['contribution']!r}")
    return problems


def _void_problems(log: list[dict[str, Any]]) -> list[str]:
    """A void mark exactly where a later rollback went back past an answer, report or held script."""
    voided: set[int] = set()
    for entry in log:
        payload = entry.get("payload", {})
        if entry["kind"] == "control" and payload.get("command") == "ROLLBACK":
            voided |= {e["seq"] for e in log if payload["to"] < e["seq"] < entry["seq"]
                       and e["kind"] in ("answer", "report", "hold")}
    problems = []
    for entry in log:
        if entry.get("void") and entry["seq"] not in voided:
            problems.append(f"{entry_name(entry)}: it is marked void, but no rollback went back past it")
        elif not entry.get("void") and entry["seq"] in voided:
            problems.append(f"{entry_name(entry)}: a rollback went back past it, but it is not marked void")
    return problems


# ---------------------------------------------------------------- the draws


def _draw_problems(archive: dict[str, Any]) -> list[str]:
    """Each stream's counters used once each, in order; a voided entry's draws recomputed from the
    seed (the live ones are drawn again by the replay); a rollback never winds the dice back."""
    problems: list[str] = []
    contributions = [c["contribution"] for c in archive["contributions"]]
    key = derive_key(archive["game"], bytes.fromhex(archive["seed"]), contributions)
    reached: dict[str, int] = {}
    listed: list[dict[str, Any]] = []
    for entry in archive["log"]:
        payload = entry.get("payload", {})
        if entry["kind"] == "control" and payload.get("command") == "ROLLBACK" and payload["counters"] != reached:
            problems.append(f"{entry_name(entry)}: it sets the dice to {_counters(payload['counters'])}, but they "
                            f"had reached {_counters(reached)}: a roll would be rolled again")
        for draw in payload.get("draws", []):
            listed.append(dict(draw, seq=entry["seq"]))
            stream = draw["stream"]
            if draw["first"] != reached.get(stream, 0):
                problems.append(f"{entry_name(entry)}: its draw {stream}#{draw['n']} starts at #{draw['first']}, "
                                f"but the stream had reached #{reached.get(stream, 0)}")
            if entry.get("void"):
                problems += _recomputed(entry, draw, key)
            reached[stream] = draw["n"] + 1
    if listed != archive.get("draws"):
        problems.append("the archive's list of draws differs from the draws in its log")
    return problems


def _recomputed(entry: dict[str, Any], draw: dict[str, Any], key: bytes) -> list[str]:
    """A voided entry's draw drawn again from the key, at the counter it started from."""
    again = Rng(key, {draw["stream"]: draw["first"]}).below(draw["bound"], draw["stream"])
    if (again.value, again.counter) != (draw["value"], draw["n"]):
        return [f"{entry_name(entry)}: its draw {draw['stream']}#{draw['n']} below {draw['bound']} is "
                f"{draw['value']} in the archive, but the seed gives {again.value} at #{again.counter}"]
    return []


def _counters(counters: dict[str, int]) -> str:
    return ", ".join(f"{stream} #{n}" for stream, n in sorted(counters.items())) or "nothing drawn"


# ---------------------------------------------------------------- the replay


def _replay(archive: dict[str, Any], engine: Engine[Any], result: Verification) -> Any:
    """Play the live log again with the engine, comparing every event and draw; the final state.
    `result.replayed` tells whether the replay got to the end of the log."""
    contributions = [c["contribution"] for c in archive["contributions"]]
    roles = list(engine.info.roles(archive["scenario"]))
    if [c["role"] for c in archive["contributions"]] != roles:
        result.problems.append(f"the contributions are not those of the seats {', '.join(roles)} in that order")
    record = RngRecord(archive["game"], bytes.fromhex(archive["seed"]), contributions)
    game = GameReplay(engine, archive["scenario"], archive["options"], record.rng())
    live = [entry for entry in archive["log"] if not entry.get("void")]
    for entry in live:
        payload = entry.get("payload", {})
        if entry["kind"] == "setup":
            if payload.get("contributions", contributions) != contributions:
                result.problems.append(f"{entry_name(entry)}: the set-up was keyed with other contributions than "
                                       f"the archive lists")
            result.problems += _compared(entry, "draw", payload.get("draws", []), [d.to_json() for d in game.setup()])
            started = [Event("core.started", {"game": archive["game"]}).to_json()]
            result.problems += _compared(entry, "event", payload.get("events", []), started)
        elif entry["kind"] == "answer":
            if game.state is None:
                result.problems.append(f"{entry_name(entry)}: it comes before the set-up")
                return None
            try:
                events, draws = game.answer(payload)
            # A forged archive may make the engine fail in any way: each is a finding, not a crash.
            except Exception as error:
                why = str(error) if isinstance(error, ModeratorError) else f"{type(error).__name__}: {error}"
                result.problems.append(f"{entry_name(entry)}: it cannot be replayed ({why}); the replay stops here")
                return game.state
            result.answers += 1
            result.problems += _compared(entry, "event", payload.get("events", []), [e.to_json() for e in events])
            result.problems += _compared(entry, "draw", payload.get("draws", []), [d.to_json() for d in draws])
        elif entry["kind"] == "control" and payload.get("command") == "ROLLBACK":
            game.rollback(payload)
    result.replayed = True
    result.problems += _outcome_problems(archive, engine, game.state, live)
    return game.state


def _compared(entry: dict[str, Any], what: str, archived: list[Any], replayed: list[Any]) -> list[str]:
    """One sentence for the first difference between the archived and replayed events (or draws)."""
    archived, replayed = normal_json(archived), normal_json(replayed)
    if archived == replayed:
        return []
    for number, (mine, theirs) in enumerate(zip(archived, replayed, strict=False), start=1):
        if mine != theirs:
            label = _label(what, theirs)
            path, was, should = _first_difference(mine, theirs)
            return [f"{entry_name(entry)}: {what} {number}{label} differs from the replay: {path or 'it'} is "
                    f"{_short(was)} in the archive, {_short(should)} in the replay"]
    return [f"{entry_name(entry)}: the archive has {len(archived)} {what}s, the replay {len(replayed)}"]


def _label(what: str, item: Any) -> str:
    if what == "event" and isinstance(item, dict):
        return f" ({item.get('kind')})"
    if what == "draw" and isinstance(item, dict):
        return f" ({item.get('stream')}#{item.get('n')}{', ' + item['purpose'] if item.get('purpose') else ''})"
    return ""


def _first_difference(mine: Any, theirs: Any, path: str = "") -> tuple[str, Any, Any]:
    """The path to the first place two JSON values differ, and the two values there."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in sorted(set(mine) | set(theirs)):
            if mine.get(key) != theirs.get(key):
                return _first_difference(mine.get(key), theirs.get(key), f"{path}.{key}" if path else key)
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{index}]")
    return path, mine, theirs


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _outcome_problems(archive: dict[str, Any], engine: Engine[Any], state: Any,
                      live: list[dict[str, Any]]) -> list[str]:
    outcome = engine.outcome(state) if state is not None else None
    answers = [e for e in live if e["kind"] == "answer"]
    last = entry_name(answers[-1]) if answers else "the set-up"
    if outcome is None:
        return [f"the replayed game has not ended after its last answer, {last}; the archive says "
                f"{_result(archive['result'])}: the answers after it were removed"]
    replayed = {"winner": outcome.winner, "reason": outcome.reason, "score": normal_json(dict(outcome.score))}
    if replayed != archive["result"]:
        return [f"the replayed game ends after {last}: {_result(replayed)}; the archive says "
                f"{_result(archive['result'])}"]
    return []


def _result(result: dict[str, Any]) -> str:
    """`soviet wins (more VP …; axis VP -3, soviet VP 12)`."""
    winner = result.get("winner")
    score = ", ".join(f"{name} {value}" for name, value in (result.get("score") or {}).items())
    return f"{'a draw' if winner is None else str(winner) + ' wins'} ({result.get('reason')}; {score})"


# ---------------------------------------------------------------- the closing reports, the dice shown


def _closing_problems(archive: dict[str, Any], roles: tuple[str, ...]) -> list[str]:
    """Every player's game-over report follows the last answer (else the log's end was cut off).  The
    archive a game-over report carries ends just before that report (its head is in the mail)."""
    sent_with = archive.get("sent_with")
    if sent_with is not None:
        if sent_with["seq"] != archive["head"]["seq"] + 1:
            return [f"the archive says it came with the game-over report #{sent_with['seq']}, but its log ends at "
                    f"#{archive['head']['seq']}"]
        return []
    live = [e for e in archive["log"] if not e.get("void")]
    last = max((i for i, e in enumerate(live) if e["kind"] in ("answer", "setup")), default=-1)
    closed = {e["role"] for e in live[last + 1:] if e["kind"] == "report"}
    where = entry_name(live[last]) if last >= 0 else "the start"
    return [f"no game-over report to {role} follows the last answer, {where}: the end of the log was removed"
            for role in roles if role not in closed]


def _event_dice_problems(log: list[dict[str, Any]]) -> list[str]:
    """Every die an event shows as [value, stream, counter] is a d6 its own entry drew."""
    streams = {d["stream"] for e in log for d in e.get("payload", {}).get("draws", [])} | {"dice"}
    problems: list[str] = []
    for entry in log:
        payload = entry.get("payload", {})
        drawn = {(d["stream"], d["n"]): d for d in payload.get("draws", [])}
        for value, stream, counter in _dice_in(payload.get("events", []), streams):
            draw = drawn.get((stream, counter))
            if draw is None:
                problems.append(f"{entry_name(entry)}: an event shows a {value} at {stream}#{counter}, a draw this "
                                f"entry did not make")
            elif draw["bound"] != 6 or draw["value"] + 1 != value:
                problems.append(f"{entry_name(entry)}: an event shows a {value} at {stream}#{counter}, but that draw "
                                f"is {draw['value'] + 1} on a d{draw['bound']}")
    return problems


def _dice_in(node: Any, streams: set[str]) -> Iterator[tuple[int, str, int]]:
    if isinstance(node, list):
        if (len(node) == 3 and type(node[0]) is int and isinstance(node[1], str) and node[1] in streams
                and type(node[2]) is int):
            yield node[0], node[1], node[2]
            return
        for item in node:
            yield from _dice_in(item, streams)
    elif isinstance(node, dict):
        for item in node.values():
            yield from _dice_in(item, streams)
