"""The batch solver of MultiSE's result guards: one incremental Z3 solver over cubes that
share prefixes gives each satisfiable cube a model of it, and says unsat where it is."""

from __future__ import annotations

from pathloom.engines.cube_batch import solve_cubes
from pathloom.solver.base import SAT, UNSAT, SolverStats
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate


def test_models_satisfy_their_own_cube_and_unsat_is_reported() -> None:
    x, y, n = T.sym("x", T.INT), T.sym("y", T.INT), T.sym("n", T.INT)
    base = [T.le(0, n), T.le(n, 3)]
    a, b, c = T.lt(x, y), T.lt(y, 5), T.lt(n, x)
    cubes = {
        "ab": (a, b),
        "a-b": (a, T.not_(b)),
        "-a": (T.not_(a), c),
        "abc": (a, b, c),
        "unsat": (a, T.not_(a)) if isinstance(T.not_(a), T.Term) else (a,),
        "bounds": (T.lt(3, n),),  # contradicts the base constraints
    }
    stats = SolverStats()
    found = solve_cubes(base, cubes, stats, 10_000)  # type: ignore[arg-type]
    assert set(found) == set(cubes)
    for key, cube in cubes.items():
        status, model = found[key]
        if key in ("unsat", "bounds"):
            assert status == UNSAT
            continue
        assert status == SAT
        for constraint in list(cube) + base:
            assert evaluate(constraint, model, {}) is True, (key, constraint, model)
    assert stats.z3_calls == len(cubes)
