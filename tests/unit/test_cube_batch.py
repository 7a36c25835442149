"""The batch solver of MultiSE's result guards: one incremental Z3 solver over cubes that
share prefixes gives each satisfiable cube a model of it, and says unsat where it is; and
the time bound of MultiSE's results phase."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.engines import multise
from pathloom.engines.cube_batch import solve_cubes
from pathloom.options import Options
from pathloom.solver.base import SAT, UNKNOWN, UNSAT, SolverStats
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


def test_past_the_deadline_every_cube_is_unknown_without_a_check() -> None:
    x = T.sym("x", T.INT)
    cubes = {"a": (T.lt(x, 3),), "b": (T.lt(3, x),)}
    stats = SolverStats()
    found = solve_cubes([], cubes, stats, 10_000, deadline=time.monotonic() - 1)  # type: ignore[arg-type]
    assert found == {"a": (UNKNOWN, {}), "b": (UNKNOWN, {})} and stats.z3_calls == 0
    assert solve_cubes([], cubes, stats, 10_000, deadline=time.monotonic() + 60)["a"][0] == SAT  # type: ignore[arg-type]


def test_multise_results_past_their_grace_are_unknown_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The results phase solves what was found for at most RESULTS_GRACE of --timeout more; a
    result still unsolved then is an ``unknown`` path and the exploration is incomplete."""
    path = tmp_path / "p.py"
    path.write_text("def f(x: int, y: int) -> int:\n    if x * y > 7:\n        return 1\n    if x > y:\n        return 2\n    return 3\n")
    results = multise.MultiSEEngine._results

    def late(engine: multise.MultiSEEngine):  # type: ignore[no-untyped-def]
        engine.final_models.clear()  # no model kept from exploration: every result is solved here
        real = time.monotonic
        calls = iter(range(1, 1 << 30))
        monkeypatch.setattr(time, "monotonic", lambda: real() + 1e6 * next(calls))  # each reading 10^6 s after the last
        return results(engine)

    monkeypatch.setattr(multise.MultiSEEngine, "_results", late)
    run = explore(str(path), "f", Options(engine="multise", timeout=5))
    assert not run.complete and run.paths
    assert all(p.outcome == "unknown" and "results phase" in (p.reason or "") for p in run.paths)


def test_result_cubes_solved_by_part_stop_at_the_results_deadline(tmp_path: Path) -> None:
    """``_solve_cubes_by_part`` (many result cubes over few literals, krishnamurthy_number of
    the real-code corpus) asked the chain part by part for every cube however late: past the
    results deadline it stops, and the cubes left become unknown results."""
    from pathloom.frontend.module import load_module

    path = tmp_path / "p.py"
    path.write_text("def f(x: int) -> int:\n    if x > 0:\n        return 1\n    return 2\n")
    engine = multise.MultiSEEngine(load_module(str(path)), "f", Options(engine="multise"))
    x = T.sym("x", T.INT)
    cubes = {("a",): (T.lt(x, 3),), ("b",): (T.lt(3, x),)}
    literals = {c for cube in cubes.values() for c in cube}
    engine.base = frozenset()
    engine.results_deadline = time.monotonic() - 1
    calls = engine.solver_stats.z3_calls
    assert engine._solve_cubes_by_part({}, cubes, literals) == {} and engine.solver_stats.z3_calls == calls
    engine.results_deadline = time.monotonic() + 60
    found = engine._solve_cubes_by_part({}, cubes, literals)
    assert found[("a",)][0] == SAT and found[("b",)][0] == SAT
