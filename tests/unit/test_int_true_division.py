"""``/`` of two ints (``T.itruediv``): int() / floor / ceil of the quotient and its
comparisons with ints are stated on ints, and agree with CPython's correctly rounded float
on the whole domain (both ints at most 2**53 in magnitude); the quotient as a float (added,
compared with a non-integral float) still goes to Z3's floating point, encoded exactly."""

from __future__ import annotations

import math
import operator

import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pathloom.semantics import floats
from pathloom.domain.outcome import Ok
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.z3_encode import decode, encode

A, B, C = T.sym("a", T.INT), T.sym("b", T.INT), T.sym("c", T.INT)
EXACT = 2**53
small = st.integers(-EXACT, EXACT)
divisor = small.filter(lambda b: b != 0)
near_limit = st.sampled_from([EXACT, EXACT - 1, EXACT - 3, 2**52 + 1, 3, 7, 1, 2])


def _ops(term: T.Arg) -> set[str]:
    return {t.op for t in T.postorder(term)} if isinstance(term, T.Term) else set()


def _rounded(rounding: str) -> T.Arg:
    outcome = floats.to_int(T.itruediv(A, B), rounding)
    assert isinstance(outcome, Ok)
    return outcome.value


@settings(max_examples=400, deadline=None)
@given(a=st.one_of(small, near_limit, near_limit.map(operator.neg)), b=st.one_of(divisor, near_limit))
@example(a=EXACT - 1, b=2)
@example(a=-(EXACT - 1), b=EXACT)
@example(a=EXACT, b=-3)
def test_floor_ceil_and_int_of_the_quotient_are_cpythons(a: int, b: int) -> None:
    env = {"a": a, "b": b}
    for rounding, real in (("floor", math.floor), ("ceil", math.ceil), ("trunc", int)):
        term = _rounded(rounding)
        assert not _ops(term) & {"itruediv", "fdiv", "i2f", "f2i"}  # no floating point left
        assert evaluate(term, env) == real(a / b), (rounding, a, b)


@settings(max_examples=400, deadline=None)
@given(
    a=st.one_of(small, near_limit), b=st.one_of(divisor, near_limit.map(operator.neg)), c=st.one_of(st.integers(-10, 10), small, st.integers(-(10**30), 10**30))
)
@example(a=EXACT - 1, b=2, c=2**52)
@example(a=-(EXACT - 1), b=-2, c=2**52)
def test_comparisons_with_ints_are_the_exact_quotients(a: int, b: int, c: int) -> None:
    q = T.itruediv(A, B)
    env = {"a": a, "b": b, "c": c}
    real = a / b
    for build, py in ((T.lt, operator.lt), (T.le, operator.le), (T.eq, operator.eq)):
        for left, right, pl, pr in ((q, C, real, c), (C, q, c, real), (q, c, real, c), (c, q, c, real), (q, float(c) if abs(c) <= EXACT else c, real, c)):
            term = build(left, right)
            assert "itruediv" not in _ops(term)
            assert evaluate(term, env) == py(pl, pr), (build, a, b, c)


def test_the_quotient_as_a_float_is_encoded_exactly() -> None:
    q = T.itruediv(A, B)
    for term in (q, T.fadd(q, 0.5), T.lt(q, 2.5)):
        for a, b in ((1, 3), (EXACT, 3), (-7, 2), (EXACT - 1, -EXACT)):
            env = {"a": a, "b": b}
            got = decode(z3.simplify(z3.substitute(encode(term), (encode(A), encode(a)), (encode(B), encode(b)))), T.sort_of(term))
            assert got == evaluate(term, env)
    assert T.itruediv(A, A) == 1.0 and T.itruediv(6, 4) == 1.5
    assert T.floordiv(A, A) == 1 and T.mod(A, A) == 0


def test_truth_of_a_quotient_is_its_numerators() -> None:
    truth = floats.truth(T.itruediv(A, B))
    assert _ops(truth) <= {"sym", "eq", "not", "mul"} and "itruediv" not in _ops(truth)
    assert evaluate(truth, {"a": 0, "b": 5}) is False and evaluate(truth, {"a": 1, "b": -EXACT}) is True
