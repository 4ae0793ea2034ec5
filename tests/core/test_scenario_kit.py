"""The scenario kit every game's scenario package is built on: the reader that builds a game's models
from its YAML files, the kit that reads, validates, loads and checks by name, the derived data kept
on the scenario object, and the checks every validator makes alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field

from moderator.core.errors import ScenarioError
from moderator.core.provenance import Record
from moderator.core.scenario_check import Problems, consecutive, cut_off, reachable
from moderator.core.scenario_files import Ident, IndexedScenario, ScenarioFile, ScenarioKit, SchemaReader, entry

# --------------------------------------------------------------------------------------------
# a toy game: pieces on squares, joined by roads


class Piece(Record):
    id: Ident
    aliases: tuple[Ident, ...] = ()
    square: Ident


class Road(Record):
    EXEMPT = frozenset({"a", "b"})

    a: Ident
    b: Ident


class Rules(Record):
    stacking: int


class Board(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    squares: tuple[Ident, ...]
    roads: tuple[Road, ...]


class Meta(Record):
    EXEMPT = frozenset({"name", "files"})

    name: Ident
    files: dict[str, str] = Field(default_factory=dict)
    title: str


class Toy(IndexedScenario):
    model_config = ConfigDict(frozen=True, extra="forbid")

    meta: Meta
    board: Board
    pieces: tuple[Piece, ...]
    rules: Rules

    def build_lookups(self) -> dict:
        return {"pieces": {p.id: p for p in self.pieces}}

    def piece(self, piece_id: str) -> Piece:
        return entry(self.lookups()["pieces"], piece_id, "piece")


def toy_fields(read: SchemaReader) -> dict:
    return {
        "meta": read.meta(Meta),
        "board": read.file("board", Board),
        "pieces": read.section("pieces", "pieces", tuple[Piece, ...]),
        "rules": read.file("rules", Rules),
    }


def validate_toy(t: Toy) -> list[str]:
    problems = Problems()
    problems.provenance((f"pieces.yaml piece {p.id}", p) for p in t.pieces)
    problems.duplicates((p.id for p in t.pieces), "pieces: piece {} is listed twice")
    problems.unknown((p.square for p in t.pieces), t.board.squares, "pieces: unknown square {}")
    cut = cut_off(t.board.squares, [(r.a, r.b) for r in t.board.roads])
    problems.require(not cut, f"board: squares cut off: {', '.join(cut)}")
    return problems


FILES = (ScenarioFile("board", "board.yaml", ("squares", "roads")), ScenarioFile("pieces", "pieces.yaml", ("pieces",)),
         ScenarioFile("rules", "rules.yaml"))
KIT: ScenarioKit[Toy] = ScenarioKit("toy", "Toy", FILES, Toy, toy_fields, validate_toy)

SRC = {"square": "reconstructed: test"}


def write_toy(root: Path, pieces: list | None = None, board: dict | None = None, **meta: object) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    files = {
        "scenario.yaml": {"name": "campaign", "title": "Toy", "src": {"title": "rulebook §1"}, **meta},
        "board.yaml": board if board is not None else {"squares": ["a1", "a2", "b1"],
                                                        "roads": [{"a": "a1", "b": "a2"}, {"a": "a2", "b": "b1"}]},
        "pieces.yaml": {"pieces": pieces if pieces is not None else [
            {"id": "p1", "square": "a1", "src": SRC}, {"id": "p2", "aliases": ["two"], "square": "b1", "src": SRC}]},
        "rules.yaml": {"stacking": 2, "src": {"stacking": "rulebook §2"}},
    }
    for name, data in files.items():
        (root / name).write_text(yaml.safe_dump(data), encoding="utf-8")
    return root


# --------------------------------------------------------------------------------------------
# reading and loading


def test_the_kit_reads_a_scenario_into_the_model(tmp_path: Path) -> None:
    toy = KIT.load(root=write_toy(tmp_path))
    assert toy.board.squares == ("a1", "a2", "b1") and toy.rules.stacking == 2
    assert toy.piece("p2").aliases == ("two",)
    with pytest.raises(KeyError, match="no piece 'p9'"):
        toy.piece("p9")


def test_schema_problems_are_listed_together_with_file_and_path(tmp_path: Path) -> None:
    board = {"squares": ["a1"], "roads": [{"a": "a1"}], "rivers": []}
    root = write_toy(tmp_path, board=board, pieces=[{"id": "p 1", "square": "a1", "src": SRC}])
    (root / "rules.yaml").write_text("stacking: many\nsrc: {}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        KIT.read(root=root)
    lines = str(info.value).splitlines()
    assert lines[0] == "Toy scenario data does not match the schema:"
    assert "  board.yaml: unknown top-level key 'rivers'" in lines
    assert any(line.startswith("  board.yaml: roads.0.b: ") for line in lines)
    assert any(line.startswith("  pieces.yaml: pieces.0.id: ") and "no spaces" in line for line in lines)
    assert any(line.startswith("  rules.yaml: stacking: ") for line in lines)


def test_scenario_yaml_may_rename_a_file(tmp_path: Path) -> None:
    root = write_toy(tmp_path, files={"pieces": "army.yaml"})
    (root / "pieces.yaml").rename(root / "army.yaml")
    assert [p.id for p in KIT.read(root=root).pieces] == ["p1", "p2"]


def test_missing_and_malformed_files_are_refused(tmp_path: Path) -> None:
    root = write_toy(tmp_path)
    (root / "board.yaml").write_text("- a list\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"board.yaml: expected a mapping at the top level"):
        KIT.read(root=root)
    (root / "board.yaml").unlink()
    with pytest.raises(ScenarioError, match=r"board.yaml is missing"):
        KIT.read(root=root)
    with pytest.raises(ScenarioError, match="no Toy scenario named 'short'"):
        KIT.read("short", root=root)


def test_load_and_check_list_every_inconsistency(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pieces = [{"id": "p1", "square": "z9", "src": SRC}, {"id": "p1", "square": "a1", "src": {"square": "memory"}}]
    root = write_toy(tmp_path / "toy", pieces=pieces, board={"squares": ["a1", "a2"], "roads": []})
    assert len(KIT.read(root=root).pieces) == 2  # reading alone does not validate
    monkeypatch.setenv("MODERATOR_SCENARIOS", str(tmp_path))
    assert KIT.root() == root
    with pytest.raises(ScenarioError) as info:
        KIT.check("campaign")
    assert str(info.value).splitlines() == [
        "Toy scenario data is inconsistent:",
        "  pieces.yaml piece p1: provenance of 'square' must start with 'rulebook' or 'reconstructed:', not 'memory'",
        "  pieces: piece p1 is listed twice",
        "  pieces: unknown square z9",
        "  board: squares cut off: a2",
    ]
    write_toy(root)
    assert KIT.check("campaign") is None


# --------------------------------------------------------------------------------------------
# derived data kept on the scenario object


def test_memo_builds_once_per_scenario_object_and_copies_build_their_own(tmp_path: Path) -> None:
    toy = KIT.read(root=write_toy(tmp_path))
    calls: list[int] = []

    def build(t: Toy) -> int:
        calls.append(len(t.pieces))
        return len(t.pieces)

    assert toy.memo("count", build) == toy.memo("count", build) == 2
    fewer = toy.model_copy(update={"pieces": toy.pieces[:1]})
    assert fewer.memo("count", build) == 1
    assert calls == [2, 1]
    assert fewer.piece("p1") is toy.piece("p1")
    with pytest.raises(KeyError, match="no piece 'p2'"):  # the copy's index is its own
        fewer.piece("p2")


def test_no_module_caches_derived_data_by_object_id() -> None:
    """A cache keyed by id(obj) hands a new object the data of a dead one that had the same id.
    (A method named ``id``, such as the `Named` protocol's, is not a call of the builtin.)"""
    root = Path(__file__).resolve().parents[2] / "moderator"
    offenders = [f"{path.relative_to(root)}:{n}" for path in sorted(root.rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if re.search(r"(^|[^\w.])(?<!def )id\(", line.split("#")[0]) and "``id(" not in line]
    assert offenders == []


# --------------------------------------------------------------------------------------------
# the checks every validator makes alike


def test_problems_collects_sentences() -> None:
    problems = Problems()
    problems.require(True, "never")
    problems.require(False, "map: something is wrong")
    problems.duplicates(["b", "a", "b", "c", "a"], "map: area {} is used twice")
    problems.unknown(["a", "x", "y"], {"a"}, "map: unknown area {}")
    assert problems == ["map: something is wrong", "map: area a is used twice", "map: area b is used twice",
                        "map: unknown area x", "map: unknown area y"]


def test_unique_names_folds_case_over_ids_and_aliases(tmp_path: Path) -> None:
    pieces = KIT.read(root=write_toy(tmp_path)).pieces
    problems = Problems()
    problems.unique_names(pieces, "name '{}' is not unique")
    assert problems == []
    clash = pieces[0].model_copy(update={"aliases": ("TWO",)})
    problems.unique_names((clash, pieces[1]), "name '{}' is not unique")
    assert problems == ["name 'two' is not unique"]


def test_provenance_of_every_record_is_checked() -> None:
    problems = Problems()
    good = Piece(id="p1", square="a1", src=SRC)
    bad = Piece(id="p2", square="a1", src={"square": "reconstructed:"})
    problems.provenance([("piece p1", good), ("piece p2", bad)])
    assert problems == ["piece p2: provenance of 'square' says nothing specific"]


def test_consecutive_numbering() -> None:
    assert consecutive([1, 2, 3]) and consecutive([]) and consecutive([2, 3], start=2)
    assert not consecutive([1, 3]) and not consecutive([2, 1]) and not consecutive([0, 1])


def test_reachable_and_cut_off() -> None:
    edges = [("a", "b"), ("b", "c"), ("x", "y")]
    assert cut_off(["a", "b", "c", "x", "y"], edges) == ["x", "y"]
    assert cut_off(["x", "a"], edges) == ["a"]
    assert cut_off([], edges) == []
    steps = {1: [2], 2: [3], 3: [], 4: [1]}
    assert reachable([1], steps.__getitem__) == {1, 2, 3}
    assert reachable([4], steps.__getitem__) == {1, 2, 3, 4}
    assert reachable([], steps.__getitem__) == set()
