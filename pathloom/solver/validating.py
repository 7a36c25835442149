"""Validating layer: every ``sat`` model must satisfy every constraint of its query, checked
with the Python-semantics evaluator; a violation is an internal inconsistency (``EngineBug``).
Used by the test suites (``Options(solver_layers=(..., "validate"))``)."""

from __future__ import annotations

from pathloom.errors import EngineBug
from pathloom.solver.base import SAT, Query, Result, Solver, SolverStats
from pathloom.terms.evaluate import evaluate
from pathloom.terms.printer import show


class ValidatingSolver:
    def __init__(self, inner: Solver, stats: SolverStats) -> None:
        self.inner = inner
        self.stats = stats

    def check(self, query: Query) -> Result:
        result = self.inner.check(query)
        if result.status == SAT:
            memo: dict = {}  # type: ignore[type-arg]
            for constraint in query.constraints:
                if evaluate(constraint, result.model, memo) is not True:
                    raise EngineBug(f"pathloom: internal error: model {result.model} violates {show(constraint)}")
        return result
