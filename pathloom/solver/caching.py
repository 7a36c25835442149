"""Query cache: identical constraint sets get the recorded answer (``unknown`` is not cached)."""

from __future__ import annotations

from pathloom.solver.base import UNKNOWN, Query, Result, Solver, SolverStats
from pathloom.terms.expr import Term


class CachingSolver:
    def __init__(self, inner: Solver, stats: SolverStats) -> None:
        self.inner = inner
        self.stats = stats
        self.cache: dict[frozenset[Term], Result] = {}

    def check(self, query: Query) -> Result:
        found = self.cache.get(query.constraints)
        if found is not None:
            self.stats.cache_hits += 1
            return found
        result = self.inner.check(query)
        if result.status != UNKNOWN:
            self.cache[query.constraints] = result
        return result
