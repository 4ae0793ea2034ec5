"""What every game's scenario validator does alike, so that a game's validator states only its rules.

A validator collects `Problems`: one sentence each, starting with the file or subject it is about
(``map: ...``, ``set-up: ...``), so a club editing the YAML is told what it broke and where.  The
checks every game makes in the same way are here: identifiers given twice, names and aliases that
are not unique, references to something that does not exist, numbering 1..n, provenance of every
record, and connectivity of a graph (a map's areas, a side's rear).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import Protocol, TypeVar

from moderator.core.provenance import Record
from moderator.core.scenario_files import duplicates

N = TypeVar("N", bound=Hashable)


class Named(Protocol):
    """A record players may name by its id or by one of its aliases (read only: the records are frozen)."""

    @property
    def id(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...


class Problems(list[str]):
    """The problems a validator found, as sentences; empty when the data is valid."""

    def require(self, ok: bool, sentence: str) -> None:
        """Note `sentence` unless `ok`."""
        if not ok:
            self.append(sentence)

    def duplicates(self, values: Iterable[str], sentence: str) -> None:
        """Note `sentence`, its ``{}`` replaced by the value, for every value given more than once."""
        for value in duplicates(values):
            self.append(sentence.replace("{}", str(value)))

    def unique_names(self, records: Iterable[Named], sentence: str) -> None:
        """Note `sentence` for every id or alias that names two records (case-insensitive)."""
        self.duplicates((name.casefold() for r in records for name in (r.id, *r.aliases)), sentence)

    def unknown(self, names: Iterable[str], known: Collection[str], sentence: str) -> None:
        """Note `sentence`, its ``{}`` replaced by the name, for every name (in order) not in `known`."""
        for name in names:
            if name not in known:
                self.append(sentence.replace("{}", str(name)))

    def provenance(self, records: Iterable[tuple[str, Record]]) -> None:
        """Note every record whose fields lack a well-formed provenance (`Record.provenance_problems`)."""
        for where, record in records:
            self.extend(record.provenance_problems(where))


def consecutive(numbers: Sequence[int], start: int = 1) -> bool:
    """Are `numbers` exactly start, start+1, ... in that order (turns, table columns, orders)?"""
    return list(numbers) == list(range(start, start + len(numbers)))


def adjacency(edges: Iterable[tuple[N, N]]) -> dict[N, set[N]]:
    """Each node's neighbours over undirected `edges`."""
    graph: dict[N, set[N]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
        graph[b].add(a)
    return graph


def reachable(starts: Iterable[N], neighbours: Callable[[N], Iterable[N]]) -> set[N]:
    """The nodes reachable from `starts` (themselves included) by stepping to `neighbours`."""
    seen = set(starts)
    queue = deque(seen)
    while queue:
        for nxt in neighbours(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def cut_off(nodes: Sequence[N], edges: Iterable[tuple[N, N]]) -> list[N]:
    """The nodes, in order, that `edges` do not connect to the first node."""
    if not nodes:
        return []
    graph = adjacency(edges)
    seen = reachable([nodes[0]], lambda node: graph.get(node, ()))
    return [node for node in nodes if node not in seen]
