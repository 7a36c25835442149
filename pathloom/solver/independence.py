"""Independent-constraint slicing: keep only the constraints connected (through shared
symbols) to the query's focus. The caller merges the returned model into a model it already
has for the other constraints, which remain satisfied because they share no symbol."""

from __future__ import annotations

from pathloom.solver.base import SAT, Query, Result, Solver, SolverStats
from pathloom.terms.expr import Term, symbols


class IndependenceSolver:
    def __init__(self, inner: Solver, stats: SolverStats) -> None:
        self.inner = inner
        self.stats = stats

    def check(self, query: Query) -> Result:
        if query.focus is None:
            return self.inner.check(query)
        wanted = set(symbols(query.focus))
        pending = [c for c in query.constraints if c is not query.focus]
        kept = [query.focus]
        changed = True
        while changed:
            changed = False
            rest = []
            for c in pending:
                syms = symbols(c)
                if syms & wanted:
                    wanted |= syms
                    kept.append(c)
                    changed = True
                else:
                    rest.append(c)
            pending = rest
        self.stats.sliced_constraints += len(pending)
        result = self.inner.check(Query(frozenset(kept), query.focus))
        if result.status != SAT:
            return result
        # only the slice's symbols: the caller keeps its own values for the others
        names = {str(s.args[0]) for s in wanted}
        return Result(SAT, {k: v for k, v in result.model.items() if k in names})
