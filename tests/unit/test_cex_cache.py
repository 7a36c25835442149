"""The counterexample cache answers a query with a recent model only when every constraint
holds under it, and asks the solver below otherwise; the branch condition (the query's
focus) is tried first, which changes the work, never the answer."""

from __future__ import annotations

from pathloom.solver.base import SAT, UNSAT, Query, Result, SolverStats
from pathloom.solver.cex_cache import CexCachingSolver
from pathloom.terms import expr as T


class _Inner:
    def __init__(self, answers: list[Result]) -> None:
        self.answers = answers
        self.asked: list[Query] = []

    def check(self, query: Query) -> Result:
        self.asked.append(query)
        return self.answers.pop(0)


def test_a_recent_model_answers_only_a_query_it_satisfies() -> None:
    x, y = T.sym("x", T.INT), T.sym("y", T.INT)
    path = [T.lt(x, 10), T.lt(0, y)]
    inner = _Inner([Result(SAT, {"x": 3, "y": 1}), Result(SAT, {"x": 3, "y": 7}), Result(UNSAT, {})])
    stats = SolverStats()
    solver = CexCachingSolver(inner, stats)  # type: ignore[arg-type]
    first = solver.check(Query(frozenset(path), path[1]))
    assert first.status == SAT and len(inner.asked) == 1
    again = solver.check(Query(frozenset(path + [T.lt(x, 5)]), T.lt(x, 5)))  # x = 3 satisfies it: a hit
    assert again.status == SAT and again.model == {"x": 3, "y": 1} and len(inner.asked) == 1 and stats.cex_hits == 1
    flipped = T.lt(5, y)  # y = 1 fails the focus: the solver is asked
    assert solver.check(Query(frozenset(path + [flipped]), flipped)).model == {"x": 3, "y": 7} and len(inner.asked) == 2
    never = T.eq(x, 100)  # no model satisfies it, whatever the order: the solver's UNSAT
    assert solver.check(Query(frozenset(path + [never]), never)).status == UNSAT and len(inner.asked) == 3
    assert solver.check(Query(frozenset([T.lt(x, 10)]), T.lt(0, y))).status == SAT  # a focus outside the constraints: all checked
    assert stats.cex_hits == 2
