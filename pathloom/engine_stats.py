"""Typed engine statistics: one dataclass per engine, what ``Engine.stats()`` returns.

``EngineStats`` holds the counters every engine keeps; ``ForkingStats`` adds DSE's traces and
program paths, ``MultiSEStats`` the MultiSE paper's Table-1 measures. Techniques (compose,
navigation) extend ``ForkingStats`` in their own modules. Reporters choose what to print by
type (``isinstance``), never by the presence of a key. The JSON output is ``as_dict()``: every
field under its name, in declaration order, base class first. A ``Stats`` object is also a
read-only mapping of those names (``stats["paths"]``), for readers that go by name.

Invariant: the fields are the whole content (no hidden extras); ``as_dict`` round-trips
through JSON (ints, floats, bools, strs, lists and dicts of them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields


@dataclass
class EngineStats(Mapping[str, object]):
    paths: int = 0  # path results reported (MultiSE: results, paths merged by outcome)
    solver_calls: int = 0
    solver_time_s: float = 0.0
    time_s: float = 0.0
    instructions: int = 0
    branches_covered: int = 0
    branches_total: int = 0
    queries: int = 0
    query_cache_hits: int = 0
    cex_cache_hits: int = 0
    solver_unknowns: int = 0
    unexplored_states: int = 0  # pending states past the reported ones when a bound stopped the search
    concretizations: dict[str, int] = field(default_factory=dict)  # "line N: operation" -> count

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __getitem__(self, key: str) -> object:
        if key not in self._names():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def _names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))


@dataclass
class ForkingStats(EngineStats):
    traces: int = 0  # analysis traces (one per state that ended)
    program_paths: int = 0  # distinct program paths among them (heap-model assumptions merged)


@dataclass
class MultiSEStats(EngineStats):
    bdd_time_s: float = 0.0
    bdd_ops: int = 0
    bdd_time_pct: float = 0.0
    solver_time_pct: float = 0.0
    avg_summary_size: float = 0.0
    final_summary_entries: int = 0
    sharing_factor: float | None = 0.0  # None: not computed (guards too large)
    pc_merges: int = 0
    variable_merges_saved: int = 0
    opaque_atoms: int = 0
    state_collections: int = 0
    interval_solves: int = 0
    final_outcome_entries: int = 0
