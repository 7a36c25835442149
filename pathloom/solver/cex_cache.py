"""Counterexample cache: before calling the solver, try the most recent satisfying models.

Invariant: a hit returns a model under which every constraint of the query evaluates to true
with Python semantics (``evaluate``), so it is a genuine model, not a guess.
"""

from __future__ import annotations

from collections import deque

from pathloom.solver.base import SAT, Query, Result, Solver, SolverStats
from pathloom.terms.evaluate import DEFAULTS, evaluate
from pathloom.terms.expr import Concrete, symbols


def _completed(model: dict[str, Concrete], query: Query) -> dict[str, Concrete]:
    """The model restricted to the query's symbols, with the defaults ``evaluate`` used for
    the symbols it does not mention (values of other symbols belong to another query)."""
    result: dict[str, Concrete] = {}
    for constraint in query.constraints:
        for s in symbols(constraint):
            name = str(s.args[0])
            result[name] = model.get(name, DEFAULTS[s.sort])
    return result


class CexCachingSolver:
    def __init__(self, inner: Solver, stats: SolverStats, size: int = 16) -> None:
        self.inner = inner
        self.stats = stats
        self.models: deque[dict[str, Concrete]] = deque(maxlen=size)

    def check(self, query: Query) -> Result:
        # the branch condition first: a recent model usually satisfies the path so far (it came
        # from it) and fails the new condition, which is then found without walking the path
        focus = query.focus if query.focus is not None and query.focus in query.constraints else None
        for model in self.models if query.reuse_models else ():
            memo: dict = {}  # type: ignore[type-arg]
            if focus is not None and evaluate(focus, model, memo) is not True:
                continue
            if all(evaluate(c, model, memo) is True for c in query.constraints):
                self.stats.cex_hits += 1
                return Result(SAT, _completed(model, query))
        result = self.inner.check(query)
        if result.status == SAT:
            self.models.appendleft(result.model)
        return result
