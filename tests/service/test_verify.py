"""`moderator verify` proves the game, not only the dice (issue 13).

A finished Duel game's archive verifies; then it is tampered with in each way a dishonest operator
might try, once naively and once re-chained (every hash and the head recomputed, as a forger who
knows the construction would), and `verify` must fail with a sentence naming the tampered entry.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from moderator.cli import app_cli
from moderator.core.chain import entry_hash, log_key, payload_digest
from moderator.core.rng import derive_key, raw_draw
from moderator.service.archive import export_archive
from moderator.service.verify import ReplayedArchive, verify_archive
from tests.conftest import make_app, seat_duel
from tests.service.test_store_and_replay import play_random_game

Archive = dict[str, Any]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """(app, archive) of a Duel game played to the end by mail."""
    app = make_app(tmp_path_factory.mktemp("verify"))
    seated = seat_duel(app)
    play_random_game(seated, seed=3)
    return app, export_archive(app.db, app.registry, seated.game_id)


@pytest.fixture
def archive(finished) -> Archive:
    return copy.deepcopy(finished[1])


@pytest.fixture
def registry(finished):
    return finished[0].registry


def problems_of(archive: Archive, registry) -> list[str]:
    return verify_archive(archive, registry).problems


def names(problems: list[str], seq: int) -> bool:
    return any(re.search(rf"\blog #{seq}\b", problem) for problem in problems)


def rechain(archive: Archive) -> None:
    """What a forger who knows core/chain.py does after a change: recompute every hash, the head and
    the list of draws, so that the chain itself holds."""
    key = log_key(archive["game"], bytes.fromhex(archive["seed"]))  # revealed with the seed at the end
    previous = archive["commitment"]
    for entry in archive["log"]:
        digest = payload_digest(entry["payload"]) if "payload" in entry else entry["digest"]
        entry["hash"] = previous = entry_hash(key, previous, entry["seq"], entry["kind"], entry["role"], digest)
    archive["head"] = {"seq": archive["log"][-1]["seq"], "hash": previous}
    archive["draws"] = [dict(d, seq=e["seq"]) for e in archive["log"] for d in e.get("payload", {}).get("draws", [])]


def clashes(archive: Archive) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every answer whose events hold a clash, with that clash's data, in log order."""
    return [(entry, event["data"]) for entry in archive["log"]
            for event in entry.get("payload", {}).get("events", []) if event["kind"] == "clash"]


def clash(archive: Archive) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first answer whose events hold a clash, and that clash's data."""
    found = clashes(archive)
    assert found, "no clash in the game"
    return found[0]


# ---------------------------------------------------------------- the tampers (each returns the entry to be named)


def forge_die_with_its_bound(archive: Archive) -> int:
    """A die turned into a 6, its recorded bound changed so that the seed gives that face at that
    counter (what the old verifier recomputed and accepted), the event and the list changed to match.
    (Such a bound exists for a die only when its raw draw minus 5 has a divisor of a few digits; the
    game's seed is new each run, so the first die that has one is taken.)"""
    key = derive_key(archive["game"], bytes.fromhex(archive["seed"]), [c["contribution"] for c in
                                                                       archive["contributions"]])
    for entry, data in clashes(archive):
        for side in (s for s in data["sides"].values() if s["die"][0] != 6):
            _, stream, counter = side["die"]
            x = raw_draw(key, stream, counter)
            bound = next((b for b in range(7, 100_000) if x % b == 5 and x < (1 << 256) - (1 << 256) % b), None)
            if bound is None:
                continue
            draw = next(d for d in entry["payload"]["draws"] if (d["stream"], d["n"]) == (stream, counter))
            draw["bound"], draw["value"] = bound, 5
            side["total"] += 6 - side["die"][0]
            side["die"][0] = 6
            archive["draws"] = [dict(d, seq=e["seq"]) for e in archive["log"]
                                for d in e.get("payload", {}).get("draws", [])]
            return int(entry["seq"])
    raise AssertionError("no die of the game can be forged with its bound")


def point_a_die_at_no_draw(archive: Archive) -> int:
    entry, data = clash(archive)
    next(iter(data["sides"].values()))["die"][2] = 9999
    return entry["seq"]


def change_a_combat_result(archive: Archive) -> int:
    entry, data = clash(archive)
    data["loser"] = next(role for role in data["sides"] if role != data["loser"])
    return entry["seq"]


def change_an_answer_text(archive: Archive) -> int:
    entry = next(e for e in archive["log"] if e["kind"] == "answer" and e["payload"]["text"] in ("REST", "ATTACK"))
    entry["payload"]["text"] = "ATTACK" if entry["payload"]["text"] == "REST" else "REST"
    return entry["seq"]


def delete_the_last_entries(archive: Archive) -> int:
    """The last answer and everything after it go: the named entry is the answer left last."""
    log = archive["log"]
    last = max(i for i, e in enumerate(log) if e["kind"] == "answer")
    del log[last:]
    return max(e["seq"] for e in log if e["kind"] == "answer")


def delete_the_closing_reports(archive: Archive) -> int:
    """Only the reports after the last answer go (the game still ends as archived)."""
    log = archive["log"]
    last = max(i for i, e in enumerate(log) if e["kind"] == "answer")
    del log[last + 1:]
    return log[last]["seq"]


def renumber_entries(archive: Archive) -> int:
    """An answer taken out, and the entries after it numbered down to close the gap."""
    log = archive["log"]
    place = next(i for i, e in enumerate(log) if e["kind"] == "answer" and i > 10)
    del log[place]
    for entry in log[place:]:
        entry["seq"] -= 1
    return log[place]["seq"]


def swap_two_answers(archive: Archive) -> int:
    """Two answers of different players exchange their numbers (and so their places)."""
    log = archive["log"]
    i = next(i for i in range(10, len(log) - 1) if log[i]["kind"] == log[i + 1]["kind"] == "answer"
             and log[i]["role"] != log[i + 1]["role"])
    log[i], log[i + 1] = log[i + 1], log[i]
    log[i]["seq"], log[i + 1]["seq"] = log[i + 1]["seq"], log[i]["seq"]
    return log[i]["seq"]


def change_a_roll(archive: Archive) -> int:
    entry, _ = clash(archive)
    draw = entry["payload"]["draws"][0]
    draw["value"] = (draw["value"] + 1) % 6
    archive["draws"] = [dict(d, seq=e["seq"]) for e in archive["log"] for d in e.get("payload", {}).get("draws", [])]
    return entry["seq"]


def report_a_die_differently(archive: Archive) -> int:
    entry, data = clash(archive)
    die = next(iter(data["sides"].values()))["die"]
    die[0] = 1 if die[0] != 1 else 2
    return entry["seq"]


def void_an_answer(archive: Archive) -> int:
    entry = next(e for e in archive["log"] if e["kind"] == "answer")
    entry["void"] = True
    return entry["seq"]


def remove_a_join(archive: Archive) -> int:
    """North's join taken out and the entries after it numbered down: no replayed answer depends on
    it, but north's contribution keys the dice, so the seat must have joined."""
    log = archive["log"]
    place = next(i for i, e in enumerate(log) if e["kind"] == "join" and e["role"] == "north")
    del log[place]
    for entry in log[place:]:
        entry["seq"] -= 1
    return 1


def change_a_join_s_contribution(archive: Archive) -> int:
    entry = next(e for e in archive["log"] if e["kind"] == "join")
    entry["payload"]["contribution"] = "chosen after the others"
    return entry["seq"]


TAMPERS: list[Callable[[Archive], int]] = [
    forge_die_with_its_bound, point_a_die_at_no_draw, change_a_combat_result, change_an_answer_text,
    delete_the_last_entries, delete_the_closing_reports, renumber_entries, swap_two_answers, change_a_roll,
    report_a_die_differently, void_an_answer, remove_a_join, change_a_join_s_contribution,
]


def test_the_true_archive_verifies_every_entry(archive, registry):
    verdict = verify_archive(archive, registry)
    assert verdict.problems == []
    assert verdict.replayed and verdict.answers > 10 and verdict.draws > 10
    assert verdict.entries == len(archive["log"]) == archive["head"]["seq"]


@pytest.mark.parametrize("rechained", [False, True], ids=["naive", "rechained"])
@pytest.mark.parametrize("tamper", TAMPERS, ids=[t.__name__ for t in TAMPERS])
def test_each_tamper_fails_and_names_the_entry(archive, registry, tamper, rechained):
    seq = tamper(archive)
    if rechained:
        rechain(archive)
    problems = problems_of(archive, registry)
    assert problems, f"{tamper.__name__} went unnoticed"
    if tamper is remove_a_join:
        assert any(p.startswith("seat north: no entry of the log records its join") for p in problems), problems
    elif rechained and tamper is renumber_entries:
        # Re-chained, the gap is gone: what is left is an answer missing, named where the replay
        # finds that the game went otherwise (at the gap or after it).
        named = [int(n) for p in problems for n in re.findall(r"\blog #(\d+)\b", p)]
        assert named and min(named) >= seq and "not pending" in problems[0], problems
    else:
        assert names(problems, seq), problems


def test_a_naive_tamper_is_named_by_the_chain_itself(archive, registry):
    seq = change_a_combat_result(archive)
    problems = problems_of(archive, registry)
    assert any(f"log #{seq} " in p and "its hash does not match" in p for p in problems), problems


def test_the_head_names_entries_cut_off_the_end(archive, registry):
    head = archive["head"]["seq"]
    del archive["log"][-2:]
    problems = problems_of(archive, registry)
    assert any(f"head is #{head}" in p and f"ends at #{head - 2}" in p for p in problems), problems


def test_a_wrong_seed_fails_the_commitment(archive, registry):
    archive["seed"] = "00" * 32
    assert any("commitment" in p for p in problems_of(archive, registry))


def test_a_forged_archive_that_breaks_the_engine_is_a_finding_not_a_crash(archive, registry):
    entry = next(e for e in archive["log"] if e["kind"] == "answer")
    entry["payload"]["decision"] = "no-such-decision"
    problems = problems_of(archive, registry)
    assert names(problems, entry["seq"]) and any("cannot be replayed" in p for p in problems), problems


def test_further_checks_run_on_the_replayed_game(archive, registry):
    """The hook the committed set-ups' check plugs into: it sees the replayed final state."""
    seen: list[ReplayedArchive] = []

    def check(replayed: ReplayedArchive) -> list[str]:
        seen.append(replayed)
        return ["log #1 (join by north): a set-up commitment does not hold"]

    verdict = verify_archive(archive, registry, checks=(check,))
    assert verdict.problems == ["log #1 (join by north): a set-up commitment does not hold"]
    assert seen[0].engine.outcome(seen[0].state) is not None


def test_the_cli_prints_each_mismatch_and_fails(finished, tmp_path, monkeypatch):
    from moderator import cli

    app, true_archive = finished
    monkeypatch.setattr(cli._State, "registry", app.registry)
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(true_archive))
    runner = CliRunner()
    ok = runner.invoke(app_cli, ["verify", str(path)])
    assert ok.exit_code == 0 and "OK: duel-0001" in ok.output and "answers replayed" in ok.output, ok.output
    forged = copy.deepcopy(true_archive)
    seq = forge_die_with_its_bound(forged)
    path.write_text(json.dumps(forged))
    bad = runner.invoke(app_cli, ["verify", str(path)])
    assert bad.exit_code == 1 and "MISMATCH" in bad.output and f"log #{seq} " in bad.output, bad.output


def test_the_archive_is_refused_while_the_game_runs(tmp_path):
    from moderator.core.errors import ModeratorError

    app = make_app(tmp_path)
    seated = seat_duel(app)
    with pytest.raises(ModeratorError, match="stays secret"):
        export_archive(app.db, app.registry, seated.game_id)
