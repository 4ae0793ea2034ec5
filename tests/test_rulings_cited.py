"""Every ruling in a game's RULINGS.md is cited by the code that implements it or by a test that checks it.

A ruling is defined by a paragraph that opens with its id in bold (`**R-WIN — ...**`, `**N-57: ...**`).
It counts as cited when its id appears, as a whole word, in a Python file under moderator/ or tests/
other than the RULINGS file itself.  Every game directory with a RULINGS.md is checked, so a new game
is held to the same standard the day its rulings are written.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "moderator" / "games"
#: A ruling is defined by a line that opens with its id in bold: "**R-WIN — ...", "**N-57: ...".
DEFINITION = re.compile(r"^\*\*([A-Z][A-Z0-9]*-[A-Z0-9]+)\b", re.MULTILINE)


TEST_GAMES = ROOT / "tests" / "testgame"


def rulings_files() -> list[Path]:
    """The product's games and the test-only games (a test game is held to the same standard)."""
    return sorted(GAMES.glob("*/RULINGS.md")) + sorted(TEST_GAMES.glob("*/RULINGS.md"))


def defined_rulings(path: Path) -> list[str]:
    """The ruling ids a RULINGS.md defines, in the order written."""
    return DEFINITION.findall(path.read_text(encoding="utf-8"))


@cache
def cited_text() -> str:
    """The text of every Python file of moderator/ and tests/, except this test (which names no ruling)."""
    here = Path(__file__).resolve()
    sources = [p for folder in ("moderator", "tests") for p in sorted((ROOT / folder).rglob("*.py")) if p != here]
    return "\n".join(p.read_text(encoding="utf-8") for p in sources)


def is_cited(ruling: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(ruling)}(?![\w])", text) is not None


def test_the_rulings_files_are_found_and_define_rulings():
    files = rulings_files()
    assert {p.parent.name for p in files} >= {"vmt", "narva"}
    for path in files:
        ids = defined_rulings(path)
        assert ids, f"{path} defines no ruling (a line opening with **ID, e.g. **R-WIN — ...)"
        assert len(ids) == len(set(ids)), f"{path} defines a ruling twice: {sorted(i for i in ids if ids.count(i) > 1)}"


def test_the_citation_check_wants_the_whole_id():
    assert is_cited("N-57", "# ruling N-57: fog of war")
    assert not is_cited("N-5", "# ruling N-57")
    assert not is_cited("R-RE", "ruling R-RETREAT")
    assert not is_cited("R-WIN", "see XR-WIN")


@pytest.mark.parametrize("path", rulings_files(), ids=lambda p: p.parent.name)
def test_every_ruling_is_cited_by_code_or_a_test(path):
    uncited = [ruling for ruling in defined_rulings(path) if not is_cited(ruling, cited_text())]
    assert not uncited, (f"{len(uncited)} ruling(s) of {path.relative_to(ROOT)} are cited by no code or test: "
                         f"{', '.join(uncited)}.  Cite each where the code implements it, or test its behaviour "
                         "in a test that names it.")
