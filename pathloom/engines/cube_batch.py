"""Models for many result guards at once, from one incremental Z3 solver.

When every path of a program returns something different (nothing to share), MultiSE ends
with one result guard per path, each a conjunction of branch literals (a BDD cube), and needs
one model per guard. Asked one by one through the solver chain, each query re-adds its input
constraints and every literal. Here the cubes are sorted so that cubes with a common prefix of
literals are neighbours, and one solver walks them with push/pop: the input constraints are
added once, a literal is added when the walk enters it, and each cube costs one ``check``.

Invariant: a model returned for a cube satisfies the input constraints and every literal of
the cube (Z3's answer for exactly that set of assertions); ``unknown`` is reported as such.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence

import z3

from pathloom.solver.base import SAT, UNKNOWN, UNSAT, SolverStats
from pathloom.solver.z3_core import Z3Solver
from pathloom.terms.expr import Concrete, Term
from pathloom.terms.z3_encode import assertion

Cube = tuple[Term, ...]


def solve_cubes(
    base: Sequence[Term], cubes: dict[Hashable, Cube], stats: SolverStats, timeout_ms: int, deadline: float | None = None
) -> dict[Hashable, tuple[str, dict[str, Concrete]]]:
    """``key -> (status, model)`` for every cube, the model over the symbols of the base
    constraints and of the cube; past ``deadline`` (``time.monotonic()``) a cube is unknown
    without a check, and no check runs longer than the time left."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    for constraint in sorted(base, key=lambda t: t.serial):
        solver.add(assertion(constraint))
    results: dict[Hashable, tuple[str, dict[str, Concrete]]] = {}
    stack: list[Term] = []
    for key in sorted(cubes, key=lambda k: [t.serial for t in cubes[k]]):
        cube = cubes[key]
        common = 0
        while common < min(len(stack), len(cube)) and stack[common] is cube[common]:
            common += 1
        while len(stack) > common:
            solver.pop()
            stack.pop()
        for literal in cube[common:]:
            solver.push()
            solver.add(assertion(literal))
            stack.append(literal)
        if deadline is not None:
            left = int((deadline - time.monotonic()) * 1000)
            if left <= 0:
                results[key] = (UNKNOWN, {})
                continue
            solver.set("timeout", max(1, min(timeout_ms, left)))
        stats.z3_calls += 1
        start = time.perf_counter()
        answer = solver.check()
        if answer == z3.sat:
            model = Z3Solver._model(solver.model(), frozenset(base) | frozenset(cube))
            results[key] = (SAT, model)
        elif answer == z3.unsat:
            results[key] = (UNSAT, {})
        else:
            stats.unknowns += 1
            results[key] = (UNKNOWN, {})
        stats.z3_time_s += time.perf_counter() - start
    return results
