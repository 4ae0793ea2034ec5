"""What a player reads cites no rulebook line numbers ("L439") nor rulings ("ruling R-RETREAT"): the
rulebook a player holds has neither (hand play of VMT, D9, D13).  Code comments and RULINGS keep them.

Three nets: every report of a whole played game (questions, narrated events, the result line); HELP
and OPTIONS; and every string the game's code could put in a refusal, found in its source."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import moderator.games.vmt as vmt_package
from moderator.core.contract import OBSERVER
from moderator.games.vmt.engine import OPTIONS, engine
from moderator.registry import Registry
from moderator.service.options import options_text
from moderator.service.reports import help_text, report_text
from tests.conftest import make_app
from tests.kit.noninterference import PAYLOAD
from tests.playout import random_playout

#: "L439", "L122-136", "ruling R-RETREAT", "R-WIN": what only the moderator's sources can resolve.
INTERNAL_REFERENCE = re.compile(r"\bL\d{2,4}\b|\bR-[A-Z]{2,}\b")
VMT_SOURCES = Path(vmt_package.__file__).parent


def test_no_report_of_a_whole_played_game_cites_a_line_or_a_ruling(tmp_path):
    app = make_app(tmp_path, registry=Registry([engine]))
    found: list[str] = []

    def read_every_report(state, role, text, events):
        for viewer in (*engine.info.roles(None), OBSERVER):
            payload = dict(PAYLOAD, role=viewer, observer=viewer == OBSERVER)
            visible = [e for e in events if e.is_visible_to(viewer)]
            report = report_text(engine, app.environment, app.addressing, "vmt-test", state, visible, payload)
            found.extend(line for line in report.splitlines() if INTERNAL_REFERENCE.search(line))
        found.extend(line for line in options_text(engine, state, role).splitlines()
                     if INTERNAL_REFERENCE.search(line))

    result = random_playout(engine, 20, on_step=read_every_report)
    assert engine.outcome(result.state) is not None and result.steps > 100
    assert sorted(set(found)) == []


def test_help_and_the_rule_options_cite_no_line_or_ruling(tmp_path):
    app = make_app(tmp_path, registry=Registry([engine]))
    lines = help_text(app.environment, engine).splitlines() + [spec.help for spec in OPTIONS]
    assert [line for line in lines if INTERNAL_REFERENCE.search(line)] == []


def strings_a_player_may_read(source: str) -> list[str]:
    """Every string constant of a module but its docstrings and the stage tables' rule citations
    (`Stage(name, rule)`, read by no player)."""
    tree = ast.parse(source)
    quiet: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            quiet.add(id(body[0].value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Stage":
            quiet.update(id(arg) for arg in node.args)
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in quiet]


def test_no_string_of_the_game_s_code_cites_a_line_or_a_ruling():
    """Refusals are raised from many places: the source is the net that catches all of them."""
    cited = {path.name: [s for s in strings_a_player_may_read(path.read_text(encoding="utf-8"))
                         if INTERNAL_REFERENCE.search(s)]
             for path in sorted(VMT_SOURCES.glob("*.py"))}
    assert {name: strings for name, strings in cited.items() if strings} == {}


def test_the_source_net_catches_a_cited_refusal_and_spares_comments_and_docstrings():
    source = ('"""Module (L1)."""\n'
              'def f():\n    """Why (L2)."""\n    raise IllegalOrder("no (L312)")  # L3\n'
              'X = Stage("hits", "L312 step 5")\n')
    assert strings_a_player_may_read(source) == ["no (L312)"]
