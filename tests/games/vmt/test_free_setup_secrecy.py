"""The secret free set-up (option setup=free; L95-100, ruling R-SETUP; issue 13).

Blocks stand upright "so that the opponent cannot see the block identities": once both set-ups are
filed, a side sees how many enemy blocks stand in each area (as with the historical set-up), never
which.  Each set-up is committed when it is filed (core/commitments.py), revealed with its salt when
the game ends, and `moderator verify` checks the reveal against the commitment and the salt against
its draw.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from moderator.core.commitments import setup_commitment
from moderator.core.contract import OBSERVER, Event
from moderator.core.rng import RngRecord
from moderator.games.vmt.engine import engine
from moderator.registry import Registry
from moderator.service.archive import ARCHIVE_FORMAT
from moderator.service.commitments import check_commitments
from tests.conftest import make_app
from tests.kit.noninterference import mail_for, parts_masked, report_lines

SEED = RngRecord("vmt-setup", bytes(range(32)), ["axis words", "soviet words"])
HISTORICAL_AXIS = "SETUP HISTORICAL\nSETUP DONE"


def verify_archive(archive):
    """The problems verify's set-up commitment checks (service/commitments.py, called by
    service/verify.py) find in this hand-made archive (which has no hash chain to replay)."""
    return check_commitments(archive)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("vmt-setup"), registry=Registry([engine]))


def answer(state: Any, role: str, text: str, rng) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    for line in text.splitlines():
        decision = next(d for d in engine.pending(state) if d.role == role)
        order = engine.grammar.parse(line, engine.lexicon(state, role), kinds=[decision.kind])
        state, new = engine.apply(state, role, order, rng)
        events += new
    return state, events


def filed_world(axis_orders: str) -> tuple[Any, list[Event]]:
    """Both sides file a free set-up (the Soviets the historical one); the game moves on to the
    Initial Bombardment."""
    rng = SEED.rng()
    state = engine.setup("campaign", {"setup": "free"}, rng)
    state, axis = answer(state, "axis", axis_orders, rng)
    state, soviet = answer(state, "soviet", HISTORICAL_AXIS, rng)
    assert engine.phase_label(state) == "T1-BOMBARDMENT"
    return state, axis + soviet


def test_the_opponent_sees_where_blocks_stand_not_which_they_are(app):
    """Two Axis set-ups that differ only in which block stands where (22/16 in A03 and 24/31 in A09,
    or the other way round) give the Soviet player and an observer the same mail, the Axis
    commitment aside (a hash of the secret, checked apart); the Axis player's own mail differs."""
    worlds = [filed_world(HISTORICAL_AXIS), filed_world("PLACE 22/16 A09\nPLACE 24/31 A03\n" + HISTORICAL_AXIS)]
    axis_commitments = [state["setup_commitments"]["axis"] for state, _ in worlds]
    assert axis_commitments[0] != axis_commitments[1]
    for role in ("soviet", OBSERVER):
        mails = [parts_masked(mail_for(engine, app, state, events, role), {c: "<axis commitment>"})
                 for (state, events), c in zip(worlds, axis_commitments, strict=True)]
        assert mails[0] == mails[1], role
    assert mail_for(engine, app, *worlds[0], "axis") != mail_for(engine, app, *worlds[1], "axis")
    soviet = " ".join(report_lines(mail_for(engine, app, *worlds[0], "soviet")).split())
    assert "Axis files a secret set-up; commitment " + axis_commitments[0] in soviet
    assert "Axis blocks stand upright in A01 (1), A02 (3), A03 (3)" in soviet
    assert "22/16 A03" not in soviet and "set-up revealed" not in soviet


def test_the_owner_is_shown_its_set_up_and_salt_so_it_can_check_the_commitment_at_once(app):
    state, events = filed_world(HISTORICAL_AXIS)
    placed = next(e for e in events if e.kind == "setup_placed" and e.data["side"] == "axis")
    assert placed.visible_to == ("axis",)
    assert setup_commitment("axis", placed.data["placements"], placed.data["salt"]) == \
        state["setup_commitments"]["axis"]
    axis = " ".join(report_lines(mail_for(engine, app, state, events, "axis")).split())
    assert f"Its salt is {placed.data['salt']}" in axis and "22/16 A03" in axis


# ---------------------------------------------------------------- revealed at the end, checked by verify


def archived_game(seed: int) -> dict[str, Any]:
    """A whole random free set-up game written as the public archive (service/archive.py) would hold it."""
    record = RngRecord(f"vmt-free-{seed}", seed.to_bytes(32, "big"), ["a", "b"])
    rng = record.rng()
    pick = random.Random(seed)
    state = engine.setup("campaign", {"setup": "free"}, rng)
    log = [{"seq": 1, "kind": "setup", "role": "", "payload": {
        "events": [], "draws": [d.to_json() for d in rng.take_draws()]}}]
    while engine.outcome(state) is None:
        decision = pick.choice(engine.pending(state))
        order = pick.choice(engine.legal_orders(state, decision))
        state, events = engine.apply(state, decision.role, order, rng)
        log.append({"seq": len(log) + 1, "kind": "answer", "role": decision.role, "payload": {
            "events": [e.to_json() for e in events], "draws": [d.to_json() for d in rng.take_draws()]}})
    draws = [dict(d, seq=e["seq"]) for e in log for d in e["payload"]["draws"]]
    return {"format": ARCHIVE_FORMAT, "game": record.game_id, "commitment": record.commitment,
            "seed": record.seed.hex(), "contributions": [{"role": "axis", "contribution": "a"},
                                                         {"role": "soviet", "contribution": "b"}],
            "draws": draws, "log": log}


@pytest.fixture(scope="module")
def archive() -> dict[str, Any]:
    return archived_game(7)


def events_of(archive: dict[str, Any], kind: str) -> list[tuple[int, dict[str, Any]]]:
    return [(entry["seq"], event["data"]) for entry in archive["log"] for event in entry["payload"]["events"]
            if event["kind"] == kind]


def test_both_set_ups_are_revealed_only_when_the_game_ends_and_verify(archive):
    revealed = events_of(archive, "setup_revealed")
    assert sorted(data["side"] for _, data in revealed) == ["axis", "soviet"]
    assert {seq for seq, _ in revealed} == {archive["log"][-1]["seq"]}  # with the game's last answer
    filed = dict((data["side"], data["commitment"]) for _, data in events_of(archive, "setup_filed"))
    assert all(data["commitment"] == filed[data["side"]] for _, data in revealed)
    assert verify_archive(archive) == []


def tampered(archive: dict[str, Any], change) -> list[str]:
    copied = copy.deepcopy(archive)
    for entry in copied["log"]:
        for event in entry["payload"]["events"]:
            if event["kind"] == "setup_revealed" and event["data"]["side"] == "axis":
                change(event["data"])
                return verify_archive(copied)
    raise AssertionError("no Axis set-up revealed")


def test_verify_fails_when_a_revealed_placement_is_changed(archive):
    def move_a_block(data):
        block = next(iter(data["placements"]))
        data["placements"][block] = "A01" if data["placements"][block] != "A01" else "A02"

    problems = tampered(archive, move_a_block)
    assert any("the axis set-up revealed there (placements and salt) does not hash" in p for p in problems)
    assert all(p.startswith(f"log #{archive['log'][-1]['seq']}:") for p in problems)


def test_verify_fails_when_the_salt_is_changed(archive):
    problems = tampered(archive, lambda data: data.update(salt="0" * 16))
    assert any("does not hash" in p for p in problems) and any("is not its draw" in p for p in problems)


def test_verify_fails_when_the_revealed_commitment_is_changed(archive):
    problems = tampered(archive, lambda data: data.update(commitment="f" * 64))
    assert any("is revealed under commitment ffff" in p for p in problems)


def test_verify_fails_when_placements_salt_and_commitment_are_forged_together(archive):
    """A forger who changes the placements, picks a salt and recomputes both commitments (filed and
    revealed) is caught by the salt: it must be the draw the revealed seed gives."""
    forged = copy.deepcopy(archive)
    salt = "0123456789abcdef"
    true = next(d for _, d in events_of(archive, "setup_revealed") if d["side"] == "axis")["placements"]
    placements = dict(true, **{next(iter(true)): "A01"})
    for entry in forged["log"]:
        for event in entry["payload"]["events"]:
            data = event["data"]
            if event["kind"] in ("setup_filed", "setup_revealed") and data["side"] == "axis":
                data["commitment"] = setup_commitment("axis", placements, salt)
                if event["kind"] == "setup_revealed":
                    data.update(placements=placements, salt=salt)
    problems = verify_archive(forged)
    assert len(problems) == 1 and "salt 0123456789abcdef is not its draw" in problems[0]


def test_verify_fails_when_a_filed_set_up_is_never_revealed(archive):
    cut = copy.deepcopy(archive)
    for entry in cut["log"]:
        entry["payload"]["events"] = [e for e in entry["payload"]["events"]
                                      if not (e["kind"] == "setup_revealed" and e["data"]["side"] == "soviet")]
    problems = verify_archive(cut)
    assert any("the soviet set-up committed there is never revealed" in p for p in problems)
    assert json.dumps(problems)  # plain text a person reads
