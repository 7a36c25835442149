"""Independent-constraint slicing.

With a focus: keep only the constraints connected (through shared symbols) to the query's
focus. The caller merges the returned model into a model it already has for the other
constraints, which remain satisfied because they share no symbol.

Without a focus: split the constraints into their connected components and solve each one on
its own (with a focus, so the layers below see and cache one component at a time), then merge
the models: the conjunction is satisfiable iff every component is, and the merged model
satisfies it because the components share no symbol. MultiSE asks its guards this way: the
guard of a result is often a conjunction of independent conditions whose components recur
from one result to the next, so the query cache answers most of them.
"""

from __future__ import annotations

from pathloom.solver.base import SAT, Query, Result, Solver, SolverStats
from pathloom.terms.expr import Term, symbols


class IndependenceSolver:
    def __init__(self, inner: Solver, stats: SolverStats) -> None:
        self.inner = inner
        self.stats = stats

    def check(self, query: Query) -> Result:
        if query.sliced:
            return self.inner.check(query)
        if query.focus is None:
            return self._by_component(query)
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
        result = self.inner.check(Query(frozenset(kept), query.focus, reuse_models=query.reuse_models))
        if result.status != SAT:
            return result
        # only the slice's symbols: the caller keeps its own values for the others
        names = {str(s.args[0]) for s in wanted}
        return Result(SAT, {k: v for k, v in result.model.items() if k in names})

    def _by_component(self, query: Query) -> Result:
        parts = components(query.constraints)
        if len(parts) <= 1:
            return self.inner.check(query)
        model: dict[str, object] = {}
        for component in parts:
            focus = min(component, key=lambda t: t.serial)
            result = self.inner.check(Query(frozenset(component), focus, reuse_models=query.reuse_models))
            if result.status != SAT:
                return result
            model.update(result.model)
        return Result(SAT, model)  # type: ignore[arg-type]


def components(constraints: frozenset[Term]) -> list[list[Term]]:
    """The constraints grouped by shared symbols (union-find over symbol names), in a
    deterministic order."""
    parent: dict[object, object] = {}

    def find(x: object) -> object:
        while parent.setdefault(x, x) is not x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    ordered = sorted(constraints, key=lambda t: t.serial)
    for c in ordered:
        syms: list[object] = list(symbols(c)) or [("const", c.serial)]
        root = find(syms[0])
        for s in syms[1:]:
            other = find(s)
            if other is not root:
                parent[other] = root
    groups: dict[object, list[Term]] = {}
    for c in ordered:
        syms = list(symbols(c)) or [("const", c.serial)]
        groups.setdefault(find(syms[0]), []).append(c)
    return list(groups.values())
