"""The typed state (moderator/games/vmt/state.py) describes the JSON the engine really keeps: after
every answer of whole random games, each key of the state, its records and its frames is typed,
each typed key is there, and each stage is one its frame kind names; the stage sequences list
exactly the stages of their literals."""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from moderator.games.vmt import state
from moderator.games.vmt.engine import engine
from tests.playout import random_playout


def problems_in(value: Any, hint: Any, where: str) -> list[str]:
    """Where `value` does not fit the type `hint` (TypedDicts, literals, unions, lists, dicts, scalars)."""
    origin = get_origin(hint)
    if is_typeddict(hint):
        return typed_dict_problems(value, hint, where)
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{where}: {value!r} is not one of {get_args(hint)}"]
    if origin in (Union, types.UnionType):
        found = [problems_in(value, member, where) for member in get_args(hint)]
        return [] if any(not p for p in found) else min(found, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for n, item in enumerate(value) for p in problems_in(item, get_args(hint)[0], f"{where}[{n}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [p for k, item in value.items() for p in problems_in(item, get_args(hint)[1], f"{where}[{k}]")]
    if origin is tuple:
        return [] if isinstance(value, (tuple, list)) else [f"{where}: {value!r} is not a pair"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint in (int, str, bool):
        return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint.__name__}"]
    return []  # Any


def typed_dict_problems(value: Any, hint: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not a {hint.__name__}"]
    keys = set(value)
    found = [f"{where}: {hint.__name__} has no key {k!r}" for k in sorted(hint.__required_keys__ - keys)]
    found += [f"{where}: key {k!r} is not typed in {hint.__name__}"
              for k in sorted(keys - hint.__required_keys__ - hint.__optional_keys__)]
    hints = get_type_hints(hint)
    for key in sorted(keys & set(hints)):
        found += problems_in(value[key], hints[key], f"{where}.{key}")
    return found


def test_random_games_keep_to_the_typed_state():
    problems: list[str] = []
    kinds: set[str] = set()

    def check(data, role, text, events):
        kinds.update(f["kind"] for f in data["stack"])
        problems.extend(problems_in(data, state.VmtState, f"after {role} '{text}': state"))

    for seed, options in ((3, {"setup": "free"}), (4, {})):
        random_playout(engine, seed, options=options, on_step=check)
    assert problems[:5] == []
    assert {"setup", "bombard", "phase", "activation", "combat", "strike", "window"} <= kinds


def test_the_checker_finds_an_untyped_key_and_an_unknown_stage():
    frame = {"kind": "bombard", "id": 1, "asked": 0, "stage": "reshuffle", "pile": [], "extra": 1}
    assert problems_in(frame, state.BombardFrame, "frame") == [
        "frame: key 'extra' is not typed in BombardFrame",
        "frame.stage: 'reshuffle' is not one of ('discard', 'play')"]


def test_each_stage_sequence_lists_exactly_the_stages_of_its_literal():
    pairs = [(state.BOMBARDMENT_STEPS.names(), state.BombardStage), (state.PHASE_STEPS.names(), state.PhaseStage),
             (state.ACTIVATION_STEPS.names(), state.ActivationStage), (state.STRIKE_STEPS.names(), state.StrikeStage),
             (state.COVER_ORDER_STEPS.names(), state.CoverStage),
             (tuple(dict.fromkeys(state.COMBAT_PROCEDURE.names() + state.BATTERY_ASSAULT.names())),
              state.CombatStage)]
    for names, literal in pairs:
        assert sorted(names) == sorted(get_args(literal))


def test_the_combat_procedure_runs_in_rulebook_order():
    """L270-296 steps 1-4, then casualties, the winner, the retreat, control, keep 3 (L190), and the
    Counterattack window (L439)."""
    steps = state.COMBAT_PROCEDURE
    assert steps.first == "support_att"
    assert [steps.after(s) for s in ("support_att", "support_def", "reveal", "hits", "aftermath", "retreat")] == \
        ["support_def", "reveal", "hits", "aftermath", "retreat", "settle"]
    assert state.BATTERY_ASSAULT.after("aftermath") == "keep"  # no retreat from a battery assault (L343)
    assert steps.rule("retreat").startswith("L270")
