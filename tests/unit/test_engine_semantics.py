"""The forking engine on small programs: Python semantics, bounds reported as cut paths,
solver unknowns kept as unknown paths, exceptions and handlers."""

from __future__ import annotations

from pathloom.api import explore_source
from pathloom.options import Options
from pathloom.results import Exploration


def outcomes(e: Exploration) -> set[tuple[object, ...]]:
    return {(p.outcome, p.exception, p.line, str(p.returned)) for p in e.paths}


def test_floor_division_by_symbolic_zero_forks_a_zero_division_path() -> None:
    e = explore_source("def f(a: int, b: int) -> int:\n    return a // b\n", "f")
    assert outcomes(e) == {("raise", "ZeroDivisionError", 2, "None"), ("return", None, None, str(e.paths[1].returned))}
    assert e.complete and e.paths[0].kind == "implicit"


def test_explicit_raise_is_not_a_bug_and_assert_is() -> None:
    src = "def f(x: int) -> int:\n    if x > 5:\n        raise ValueError('big')\n    assert x != 3, 'three'\n    return x\n"
    e = explore_source(src, "f")
    kinds = {p.exception: p.kind for p in e.paths if p.outcome == "raise"}
    assert kinds == {"AssertionError": "assert", "ValueError": "explicit"}
    assert [p.exception for p in e.bugs] == ["AssertionError"]


def test_loop_bound_cuts_are_reported_and_make_exploration_incomplete() -> None:
    src = "def f(n: int) -> int:\n    i = 0\n    while i < n:\n        i += 1\n    return i\n"
    e = explore_source(src, "f", Options(max_iterations=3))
    assert not e.complete
    returns = sorted(p.returned for p in e.paths if p.outcome == "return")
    assert returns == [0, 1, 2]
    cuts = [p for p in e.paths if p.outcome == "cut"]
    assert len(cuts) == 1 and "--max-iterations" in (cuts[0].reason or "")


def test_concrete_loops_are_not_cut() -> None:
    src = "def f(x: int) -> int:\n    t = 0\n    for i in range(200):\n        t += i\n    return t + x\n"
    e = explore_source(src, "f", Options(max_iterations=2))
    assert e.complete and len(e.paths) == 1


def test_recursion_depth_bound_is_a_cut() -> None:
    src = "def f(n: int) -> int:\n    return f(n - 1)\n"
    e = explore_source(src, "f", Options(max_depth=5))
    assert [p.outcome for p in e.paths] == ["cut"]
    assert not e.complete


def test_timeout_reports_pending_states_as_cut() -> None:
    src = (
        "def f(xs: list[int]) -> int:\n    t = 0\n    for a in xs:\n        for b in xs:\n"
        "            if a * b > t:\n                t += a\n            else:\n                t -= b\n    return t\n"
    )
    e = explore_source(src, "f", Options(timeout=0.05, max_list_len=4))
    assert not e.complete


def test_solver_unknown_is_an_unknown_path_not_a_pruned_one() -> None:
    src = "def f(a: int, b: int, c: int) -> int:\n    if a > 1 and b > 1 and c > 1 and a * a * a + b * b * b == c * c * c:\n        return 1\n    return 0\n"
    e = explore_source(src, "f", Options(solver_timeout_ms=1))
    assert any(p.outcome == "unknown" for p in e.paths)
    assert not e.complete


def test_try_except_matches_by_class_hierarchy_and_binds_name() -> None:
    src = "def f(xs: list[int], i: int) -> int:\n    try:\n        return xs[i]\n    except LookupError as e:\n        return -1\n"
    e = explore_source(src, "f", Options(max_list_len=2))
    assert {p.outcome for p in e.paths} == {"return"}
    assert any(p.returned == -1 for p in e.paths)


def test_unhandled_exception_in_callee_reports_callee_line() -> None:
    src = "def g(x: int) -> int:\n    return 10 // x\n\ndef f(x: int) -> int:\n    return g(x) + 1\n"
    e = explore_source(src, "f")
    assert ("raise", "ZeroDivisionError", 2, "None") in outcomes(e)


def test_lambdas_and_functions_are_first_class() -> None:
    src = "def f(b: bool, x: int) -> int:\n    g = (lambda v: v + 1) if b else neg\n    return g(x)\n\ndef neg(v: int) -> int:\n    return -v\n"
    e = explore_source(src, "f")
    assert len(e.paths) == 2 and e.complete


def test_str_operations() -> None:
    src = "def f(s: str) -> int:\n    if s == 'ab':\n        return 1\n    if 'z' in s:\n        return 2\n    return len(s)\n"
    e = explore_source(src, "f")
    returned = {p.inputs["s"] if p.returned in (1, 2) else None for p in e.paths if p.inputs}
    assert "ab" in returned
    assert e.complete


def test_list_mutation_and_negative_indices() -> None:
    src = "def f(xs: list[int]) -> int:\n    xs.append(7)\n    v = xs.pop()\n    return xs[-1] + v\n"
    e = explore_source(src, "f", Options(max_list_len=2))
    assert {p.exception for p in e.paths} == {None, "IndexError"}


def test_streaming_run_keeps_no_paths_but_counts_bugs() -> None:
    from pathloom.api import Run
    from pathloom.frontend.module import parse_module

    module = parse_module("def f(a: int, b: int) -> int:\n    return a // b\n", "<s>")
    run = Run(module, "f", Options(), keep_paths=False)
    streamed = list(run.results())
    assert len(streamed) == 2
    assert run.exploration.paths == [] and run.exploration.bug_count == 1
