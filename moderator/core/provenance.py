"""Provenance of scenario data: every value says where it comes from (the brief's data rule).

A value is either read in the rulebook (``rulebook §…``) or reconstructed (``reconstructed: why``),
so a club owning the game can correct it without touching code.  Every game's scenario models
derive from `Record`, and each game's validator hands every record, with where it is, to
`scenario_check.Problems.provenance`.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

PROVENANCE_PREFIXES = ("rulebook", "reconstructed:")


class Record(BaseModel):
    """A data record whose every field carries provenance in ``src``.

    Fields named in `EXEMPT` need none: identifiers (``id``, the keys naming what a record is about),
    the ``aliases`` players may type, free-text ``note`` and lists of sub-records that carry their own
    ``src``.  Optional fields that the YAML does not set need none either.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    EXEMPT: ClassVar[frozenset[str]] = frozenset({"id", "aliases", "note"})

    src: dict[str, str] = Field(default_factory=dict)

    def provenance_problems(self, where: str) -> list[str]:
        """What is wrong with this record's provenance, one sentence each starting with `where`."""
        problems: list[str] = []
        needed = {name for name in self.model_fields_set if name != "src" and name not in self.EXEMPT}
        for name in sorted(needed - set(self.src)):
            problems.append(f"{where}: field '{name}' has no provenance in src")
        for name in sorted(set(self.src) - set(type(self).model_fields) - {"src"}):
            problems.append(f"{where}: src names unknown field '{name}'")
        for name, text in sorted(self.src.items()):
            if not isinstance(text, str) or not text.strip().startswith(PROVENANCE_PREFIXES):
                problems.append(
                    f"{where}: provenance of '{name}' must start with 'rulebook' or 'reconstructed:', not {text!r}"
                )
            elif text.strip() in ("rulebook", "reconstructed:"):
                problems.append(f"{where}: provenance of '{name}' says nothing specific")
        return problems
