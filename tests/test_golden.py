"""The golden-file helper: a missing file fails unless UPDATE_GOLDENS is set; a mismatch fails with a diff."""

from __future__ import annotations

import pytest

from tests.golden import compare_with_golden

Failed = pytest.fail.Exception


@pytest.fixture
def comparing(monkeypatch):
    monkeypatch.delenv("UPDATE_GOLDENS", raising=False)


def test_a_missing_golden_file_fails_and_says_how_to_create_it(tmp_path, comparing):
    path = tmp_path / "golden" / "axis.txt"
    with pytest.raises(Failed, match="missing: create it with UPDATE_GOLDENS=1"):
        compare_with_golden(path, "report\n")
    assert not path.exists()


def test_the_update_flag_writes_the_file_and_its_folder(tmp_path, monkeypatch):
    path = tmp_path / "golden" / "axis.txt"
    monkeypatch.setenv("UPDATE_GOLDENS", "1")
    compare_with_golden(path, "report\n")
    assert path.read_text(encoding="utf-8") == "report\n"
    compare_with_golden(path, "changed\n")  # an update run overwrites
    assert path.read_text(encoding="utf-8") == "changed\n"


def test_update_flag_values_that_mean_no_do_not_write(tmp_path, monkeypatch):
    path = tmp_path / "axis.txt"
    for value in ("", "0", "no"):
        monkeypatch.setenv("UPDATE_GOLDENS", value)
        with pytest.raises(Failed, match="missing"):
            compare_with_golden(path, "report\n")
    assert not path.exists()


def test_the_same_text_passes(tmp_path, comparing):
    path = tmp_path / "axis.txt"
    path.write_text("line one\nline two\n", encoding="utf-8")
    compare_with_golden(path, "line one\nline two\n")
    assert path.read_text(encoding="utf-8") == "line one\nline two\n"


def test_a_mismatch_fails_with_a_unified_diff_and_leaves_the_file(tmp_path, comparing):
    path = tmp_path / "axis.txt"
    path.write_text("line one\nline two\nline three\n", encoding="utf-8")
    with pytest.raises(Failed) as failure:
        compare_with_golden(path, "line one\nline 2\nline three\n")
    message = str(failure.value)
    assert "-line two" in message and "+line 2" in message and "(golden)" in message
    assert "UPDATE_GOLDENS=1" in message
    assert path.read_text(encoding="utf-8") == "line one\nline two\nline three\n"


def test_a_difference_in_the_final_newline_alone_still_fails(tmp_path, comparing):
    path = tmp_path / "axis.txt"
    path.write_text("line one\n", encoding="utf-8")
    with pytest.raises(Failed, match="differ only in line endings"):
        compare_with_golden(path, "line one")
