"""When Z3 answers unknown (non-linear integer arithmetic), a search among small values finds a
model, checked by exact evaluation (``solver.small_models``): Euclid's algorithm six steps deep
ended ``unknown`` after the whole timeout; now its branch is reached and replayed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from pathloom.solver import small_models
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from tests.unit.verified import explore_source


def test_the_search_finds_a_model_that_evaluates_true() -> None:
    a, b = T.sym("a", T.INT), T.sym("b", T.INT)
    constraints = frozenset({T.eq(T.mul(a, b), 221), T.lt(1, a), T.lt(a, b)})  # 13 * 17
    assert small_models.hard(constraints)
    model = small_models.search(constraints, frozenset(), 5.0)
    assert model == {"a": 13, "b": 17}
    assert all(evaluate(c, model) is True for c in constraints)


def test_the_search_never_claims_what_it_did_not_find() -> None:
    a = T.sym("a", T.INT)
    none = frozenset({T.eq(T.mul(a, a), 2)})  # no int squares to 2: not sat, and not claimed unsat
    assert small_models.search(none, frozenset(), 0.5) is None
    s = T.sym("s", T.STR)
    assert small_models.search(frozenset({T.eq(T.str_len(s), 9)}), frozenset(), 0.5) is None  # past the longest str searched
    assert not small_models.hard(frozenset({T.lt(T.add(a, 3), 7)}))


EUCLID = """
def gcd(a: int, b: int) -> int:
    steps = 0
    while b != 0:
        a, b = b, a % b
        steps += 1
    if steps == 6:
        return -1
    return a
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_deep_non_linear_branch_is_reached(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, EUCLID, "euclid.py", "gcd", engine, "--timeout", "60", "--solver-timeout", "2")
    six = [p for p in result["paths"] if p.get("returned") == -1]  # type: ignore[union-attr]
    assert six, result["paths"]


ROOTS = """
import math


def root(a: float, b: float, c: float) -> float:
    d = b * b - 4 * a * c
    return (-b + math.sqrt(d)) / (2 * a)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_float_queries_z3_finds_hard_are_searched_too(tmp_path: Path, engine: str) -> None:
    """The quadratic formula: Z3's floating-point arithmetic answered unknown on ``b*b - 4ac <
    0`` and math.sqrt's ValueError was never reached; small floats (then evaluated in IEEE
    semantics) find it, and the division by zero."""
    result = explore_source(tmp_path, ROOTS, "roots.py", "root", engine, "--timeout", "60", "--solver-timeout", "2")
    raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr,index]
    assert ("ValueError", "math domain error") in raised and ("ZeroDivisionError", "float division by zero") in raised


def test_a_non_linear_query_with_a_huge_constant_is_left_to_the_search() -> None:
    """Past CPython's limit on digits (``10**4300 - 1``) Z3 ignored its timeout and interrupt on
    ``100 * part // total``: such a query is answered by the search alone, a model when there is
    a small one and ``unknown`` (never ``unsat``) when there is none."""
    from pathloom.solver.base import SAT, UNKNOWN, Query, SolverStats
    from pathloom.solver.z3_core import Z3Solver

    part, total = T.sym("part", T.INT), T.sym("total", T.INT)
    big = 10**4300 - 1
    value = T.floordiv(T.mul(100, part), total)
    domain = [T.lt(0, total), T.le(0, part), T.le(part, total)]
    within = T.and_(T.le(-big, value), T.le(value, big))
    assert small_models.huge_constant(frozenset([within]))
    assert not small_models.huge_constant(frozenset(domain))
    stats = SolverStats()
    solver = Z3Solver(stats, 200)
    found = solver.check(Query(frozenset(domain + [within])))
    assert found.status == SAT and all(evaluate(c, found.model) is True for c in domain + [within])
    assert solver.check(Query(frozenset(domain + [T.not_(within)]))).status == UNKNOWN
    assert stats.unknowns == 1


def test_strs_are_searched_over_the_querys_characters_and_class_representatives() -> None:
    """Z3 took 10 s on two uppercase characters (``isupper`` is 650 ranges); the search finds a
    model at once, over the query's own characters first."""
    name = T.sym("name", T.STR)
    upper = [T.str_class(T.char_at(name, i), "isupper") for i in (0, 1)]
    constraints = frozenset(upper + [T.lt(1, T.str_len(name)), T.contains(T.concat(name, "_x"), "B_")])
    assert small_models.str_hard(constraints)
    model = small_models.search(constraints, frozenset(), 5.0)
    assert model is not None and all(evaluate(c, model) is True for c in constraints)
    assert model["name"] == "BB"  # the constants' characters ('_', 'x', 'B') before the representatives
