"""What every game's scenario loader shares: where the files are, how YAML is read, identifiers,
schema errors told per file, and lookup indexes cached on the frozen scenario model."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Self

import yaml
from pydantic import BaseModel, BeforeValidator, PrivateAttr, ValidationError

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
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.load(handle, Loader=_Loader)
    except FileNotFoundError:
        raise ScenarioError(f"scenario file {path} is missing") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"scenario file {path} is not valid YAML: {exc}") from None


def read_meta(root: Path, name: str, title: str) -> tuple[Path, dict[str, Any]]:
    """The scenario's own file: ``scenario.yaml`` if it names `name`, else ``scenario-<name>.yaml``."""
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
    return sorted(v for v, n in Counter(values).items() if n > 1)


class IndexedScenario(BaseModel):
    """A frozen scenario whose lookup indexes are built on first use and kept in `_cache`."""

    _cache: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __copy__(self) -> Self:
        new = super().__copy__()
        new._cache = {}  # copies (model_copy) get their own lookup indexes
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        new = super().__deepcopy__(memo)
        new._cache = {}
        return new
