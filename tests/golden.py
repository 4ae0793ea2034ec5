"""Comparing a test's output with a golden file kept in the repository.

A golden file is written only when the run asks for it with UPDATE_GOLDENS=1: a missing file
fails the test (it would otherwise create itself and prove nothing), and so does any difference,
shown as a unified diff.  After an intended change, regenerate and read the diff before committing.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

#: The environment variable that lets a run (re)write golden files instead of comparing with them.
UPDATE_FLAG = "UPDATE_GOLDENS"

#: Lines of a mismatch diff shown in the failure message; the rest is summarised.
DIFF_LINES = 80


def updating() -> bool:
    """Whether this run writes golden files (UPDATE_GOLDENS set to anything but '', '0' or 'no')."""
    return os.environ.get(UPDATE_FLAG, "").strip().lower() not in ("", "0", "no", "false")


def compare_with_golden(path: Path, text: str) -> None:
    """Assert that `text` is the content of the golden file `path` (UTF-8).

    With UPDATE_GOLDENS=1 the file is written (with its folder) instead.  Fails the test when the
    file is missing, saying how to create it, and when it differs, with a unified diff.
    """
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file {path} is missing: create it with {UPDATE_FLAG}=1 and read it before committing",
                    pytrace=False)
    expected = path.read_text(encoding="utf-8")
    if text == expected:
        return
    diff = list(difflib.unified_diff(expected.splitlines(), text.splitlines(), f"{path} (golden)", "this run",
                                     lineterm=""))
    shown = diff[:DIFF_LINES]
    if len(diff) > DIFF_LINES:
        shown.append(f"... and {len(diff) - DIFF_LINES} more diff lines")
    if not diff:  # only line endings or a final newline differ
        shown.append(f"(the texts differ only in line endings: golden {expected[-20:]!r}, this run {text[-20:]!r})")
    pytest.fail(f"{path} does not match this run (regenerate with {UPDATE_FLAG}=1 only after an intended "
                "change):\n" + "\n".join(shown), pytrace=False)
