"""Pinned-value propagation: a query that fixes symbols to constants reaches Z3 with those
values substituted (or not at all), its answers are the query's own (sat models satisfy
every constraint as asked, unsat only when the pins contradict the rest), and what it
cannot fold goes on unchanged."""

from __future__ import annotations


from pathloom.semantics.builtins import int_text
from pathloom.domain.outcome import Ok
from pathloom.solver.base import SAT, UNSAT, Query, Result, SolverStats
from pathloom.solver.chain import build_chain
from pathloom.solver.pinning import PinningSolver, pins
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate

X, Y = T.sym("x", T.INT), T.sym("y", T.INT)
S, F, B = T.sym("s", T.STR), T.sym("f", T.FLOAT), T.sym("b", T.BOOL)


class _Recorder:
    def __init__(self) -> None:
        self.asked: list[Query] = []

    def check(self, query: Query) -> Result:
        self.asked.append(query)
        return Result(SAT, {"x": 5})


def test_pins_are_equalities_with_constants_and_bool_literals() -> None:
    found = pins([T.and_(T.eq(Y, 7), B), T.not_(T.sym("c", T.BOOL)), T.eq(F, 0.0), T.fsame(T.sym("g", T.FLOAT), -0.0)])
    assert found == {"y": 7, "b": True, "c": False, "g": -0.0}  # f == 0.0 also holds for -0.0: no pin


def test_a_fully_pinned_query_never_reaches_the_inner_solver() -> None:
    inner = _Recorder()
    solver = PinningSolver(inner)  # type: ignore[arg-type]
    text = T.int_str(Y)
    query = frozenset([T.eq(Y, 9007199254740993), T.eq(T.mod(T.str_len(text), 3), 1)])
    assert solver.check(Query(query)).status == SAT and not inner.asked  # 16 digits: 16 % 3 == 1
    assert solver.check(Query(frozenset([T.eq(Y, 10**14), T.eq(T.mod(T.str_len(text), 3), 1)]))).status == UNSAT
    assert not inner.asked


def test_the_rest_goes_on_and_the_model_covers_every_symbol() -> None:
    inner = _Recorder()
    solver = PinningSolver(inner)  # type: ignore[arg-type]
    constraints = frozenset([T.eq(Y, 2), T.lt(T.add(X, Y), 10), T.eq(T.mul(Y, T.str_len(S)), T.mul(2, T.str_len(S)))])
    result = solver.check(Query(constraints))
    assert result.status == SAT and result.model == {"x": 5, "y": 2, "s": ""}
    assert inner.asked[0].constraints == frozenset([T.lt(T.add(X, 2), 10)])
    assert all(evaluate(c, result.model) is True for c in constraints)


def test_a_chained_pin_is_propagated() -> None:
    stats = SolverStats()
    solver, _ = build_chain(stats, 5000)
    result = solver.check(Query(frozenset([T.eq(Y, 4), T.eq(X, T.add(Y, 1)), T.eq(T.mod(T.str_len(T.int_str(X)), 2), 1)])))
    assert result.status == SAT and result.model["x"] == 5 and stats.z3_calls == 0


def test_the_pinned_string_query_of_a_fuzzed_program_is_answered_at_once() -> None:
    stats = SolverStats()
    solver, _ = build_chain(stats, 20000)
    text = T.int_str(Y)
    result = solver.check(Query(frozenset([T.eq(Y, 9007199254740993), T.not_(T.eq(1, T.mod(T.str_len(text), 3)))])))
    assert result.status == UNSAT and stats.z3_calls == 0  # answered by the pin, not Z3 (alone: unknown after 10 s)


def test_str_of_a_bounded_int_needs_no_digit_limit_case() -> None:
    outcome = int_text(T.mul(9, T.str_len(T.int_str(X))))  # 9 * len(str(x)) is far below 10**4300
    assert isinstance(outcome, Ok)
    assert not isinstance(int_text(T.mul(9, X)), Ok)  # 9 * x may have too many digits
