"""What every game's scenario loader shares: where the files are, how YAML is read, identifiers,
schema errors told per file, the reader that builds a game's models from its files, and derived
data (lookup indexes and the like) kept on the frozen scenario model itself."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Self, TypeVar

import yaml
from pydantic import BaseModel, BeforeValidator, PrivateAttr, TypeAdapter, ValidationError

from moderator.core.errors import ScenarioError

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's safe loader where installed


def scenario_root(game: str) -> Path:
    """``$MODERATOR_SCENARIOS/<game>`` (or ``$MODERATOR_SCENARIOS`` itself) or the repository's copy."""
    env = os.environ.get("MODERATOR_SCENARIOS")
    if env:
        base = Path(env)
        return base / game if (base / game).is_dir() else base
    return Path(__file__).resolve().parents[2] / "scenarios" / game


def read_yaml(path: Path) -> Any:
    """The YAML document in `path`; raises ScenarioError when it is missing or not valid YAML."""
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.load(handle, Loader=_Loader)
    except FileNotFoundError:
        raise ScenarioError(f"scenario file {path} is missing") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"scenario file {path} is not valid YAML: {exc}") from None


def read_meta(root: Path, name: str, title: str) -> tuple[Path, dict[str, Any]]:
    """The scenario's own file: ``scenario.yaml`` if it names `name`, else ``scenario-<name>.yaml``.

    Raises ScenarioError when neither exists or the file is not a mapping.
    """
    meta_path = root / "scenario.yaml"
    meta_raw = read_yaml(meta_path) if meta_path.exists() else None
    if not isinstance(meta_raw, dict) or str(meta_raw.get("name")) != name:
        alternative = root / f"scenario-{name}.yaml"
        if not alternative.exists():
            raise ScenarioError(f"no {title} scenario named {name!r} in {root}")
        meta_path, meta_raw = alternative, read_yaml(alternative)
    if not isinstance(meta_raw, dict):
        raise ScenarioError(f"{meta_path.name}: expected a mapping at the top level")
    return meta_path, meta_raw


def describe(exc: ValidationError, filename: str, prefix: str | None = None) -> list[str]:
    """A schema error as one line per problem, naming the file and the path inside it."""
    lines = []
    for error in exc.errors():
        where = ".".join(str(part) for part in ((prefix,) if prefix else ()) + tuple(error["loc"]))
        lines.append(f"{filename}: {where}: {error['msg']}")
    return lines


def _ident(value: Any) -> Any:
    """YAML reads ``61`` as an int; identifiers are strings.  Reject blanks and spaces."""
    if isinstance(value, bool):
        raise ValueError("an identifier cannot be true/false")
    if isinstance(value, (int, float)):
        value = str(value)
    if isinstance(value, str) and (not value or any(ch.isspace() for ch in value)):
        raise ValueError(f"identifier {value!r} must be non-empty and contain no spaces")
    return value


Ident = Annotated[str, BeforeValidator(_ident)]


def duplicates(values: Iterable[str]) -> list[str]:
    """The values given more than once, sorted."""
    return sorted(v for v, n in Counter(values).items() if n > 1)


T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class IndexedScenario(BaseModel):
    """A frozen scenario whose derived data (lookup indexes, a game's fast map tables, memos) is
    built on first use and kept in `_cache` on the object itself.

    Keeping it on the object, never in a module-level dict keyed by ``id(scenario)``, is what makes
    it safe: a scenario that is garbage-collected takes its derived data with it, so a new scenario
    that happens to get the same id can never be handed another scenario's tables.
    """

    _cache: dict[Hashable, Any] = PrivateAttr(default_factory=dict)

    def memo(self, key: Hashable, build: Callable[[Any], T]) -> T:
        """`build(self)`, computed on the first call for `key` and kept on this scenario object."""
        # pydantic's private-attribute lookup is slow; the cache dict is read from its slot directly
        # (pydantic types the slot Optional; it is always set on a model with private attributes).
        private = self.__pydantic_private__
        cache: dict[Hashable, Any] = private["_cache"] if private is not None else self._cache
        try:
            found: T = cache[key]
        except KeyError:
            found = cache[key] = build(self)
        return found

    def lookups(self) -> dict[str, Any]:
        """The lookup tables a game's `build_lookups` makes, built once per scenario object."""
        private = self.__pydantic_private__
        try:
            index: dict[str, Any] = (private["_cache"] if private is not None else self._cache)["index"]
        except KeyError:
            index = self.memo("index", type(self).build_lookups)
        return index

    def build_lookups(self) -> dict[str, Any]:
        """The game's lookup tables; a scenario class with lookups overrides this."""
        raise NotImplementedError(f"{type(self).__name__} builds no index")

    def __copy__(self) -> Self:
        new = super().__copy__()
        new._cache = {}  # copies (model_copy) get their own derived data
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        new = super().__deepcopy__(memo)
        new._cache = {}
        return new


def entry(table: Mapping[K, V], key: K, what: str) -> V:
    """``table[key]``; raises KeyError "no <what> '<key>'" when the scenario has no such entry."""
    try:
        return table[key]
    except KeyError:
        raise KeyError(f"no {what} {key!r}") from None


# --------------------------------------------------------------------------------------------
# reading a game's files into its models


@dataclass(frozen=True)
class ScenarioFile:
    """One YAML file of a scenario besides ``scenario.yaml``.

    `key` names it under ``files:`` in ``scenario.yaml`` (which may rename it), `default` is its name
    otherwise, and `sections` are the top-level keys it may hold (None: the whole file is one record).
    """

    key: str
    default: str
    sections: tuple[str, ...] | None = None


class SchemaReader:
    """Reads a scenario's files and builds its models from them, collecting every schema problem so
    that one error lists them all.  A game's loader asks it for each part of its scenario model."""

    def __init__(self, root: Path, name: str, title: str, files: Sequence[ScenarioFile]):
        """Read ``scenario.yaml`` and every file it uses; raises ScenarioError for a missing file,
        invalid YAML or a file that is not a mapping."""
        self.title = title
        self.problems: list[str] = []
        self.meta_path, self.meta_raw = read_meta(root, name, title)
        listed = self.meta_raw.get("files") or {}
        self._files: dict[str, tuple[str, dict[str, Any], ScenarioFile]] = {}
        for spec in files:
            filename = listed.get(spec.key, spec.default) if isinstance(listed, dict) else spec.default
            data = read_yaml(root / filename)
            if not isinstance(data, dict):
                raise ScenarioError(f"{filename}: expected a mapping at the top level")
            self._files[spec.key] = (filename, data, spec)
            if spec.sections is not None:
                for key in sorted(set(data) - set(spec.sections)):
                    self.problems.append(f"{filename}: unknown top-level key '{key}'")

    def build(self, model: Any, data: Any, filename: str, prefix: str | None = None) -> Any:
        """`data` validated as `model`, or None with the schema problems noted."""
        try:
            return TypeAdapter(model).validate_python(data if data is not None else ())
        except ValidationError as exc:
            self.problems.extend(describe(exc, filename, prefix))
            return None

    def meta(self, model: Any) -> Any:
        """``scenario.yaml`` validated as `model`."""
        return self.build(model, self.meta_raw, self.meta_path.name)

    def file(self, key: str, model: Any) -> Any:
        """A whole file validated as `model` (a file with sections: those sections only)."""
        filename, data, spec = self._files[key]
        if spec.sections is not None:
            data = {section: data.get(section) for section in spec.sections}
        return self.build(model, data, filename)

    def section(self, key: str, section: str, model: Any) -> Any:
        """One top-level section of a file validated as `model`."""
        filename, data, _ = self._files[key]
        return self.build(model, data.get(section), filename, section)

    def finish(self) -> None:
        """Raises ScenarioError listing every schema problem found, if there is any."""
        raise_problems(self.problems, f"{self.title} scenario data does not match the schema")


def raise_problems(problems: Sequence[str], headline: str) -> None:
    """Raises ScenarioError with `headline` and one problem a line, when there are problems."""
    if problems:
        raise ScenarioError(f"{headline}:\n  " + "\n  ".join(problems))


S = TypeVar("S", bound=IndexedScenario)


@dataclass(frozen=True)
class ScenarioKit(Generic[S]):
    """A game's scenario data as the core handles it.  The game supplies its files, how its model's
    fields are built from them (`fields`) and its validator (`validate`); the kit reads, validates,
    loads and checks scenarios by name."""

    game: str  # the folder under scenarios/
    title: str  # the game's name in error messages
    files: tuple[ScenarioFile, ...]
    model: type[S]
    fields: Callable[[SchemaReader], dict[str, Any]]
    validate: Callable[[S], list[str]]

    def root(self) -> Path:
        return scenario_root(self.game)

    def read(self, name: str = "campaign", root: Path | None = None) -> S:
        """Read and schema-check the files, without the cross-file validation; raises ScenarioError."""
        reader = SchemaReader(Path(root) if root is not None else self.root(), name, self.title, self.files)
        fields = self.fields(reader)
        reader.finish()
        return self.model(**fields)

    def load(self, name: str = "campaign", root: Path | None = None) -> S:
        """Read and validate a scenario; raises ScenarioError listing every problem found."""
        scenario = self.read(name, root)
        raise_problems(self.validate(scenario), f"{self.title} scenario data is inconsistent")
        return scenario

    def check(self, name: str) -> None:
        """Load and fully validate the named scenario; raises ScenarioError listing every problem."""
        self.load(name)
