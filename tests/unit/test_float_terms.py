"""Float terms: interning by bit pattern, folding, and the Z3 encoding against the evaluator
(Python's own float arithmetic) on special values (signed zeros, infinities, NaN, subnormals)."""

from __future__ import annotations

import math
import random

import z3

from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.serialize import from_json, to_json
from pathloom.terms.z3_encode import decode, encode

X, Y, I = T.sym("x", T.FLOAT), T.sym("y", T.FLOAT), T.sym("i", T.INT)
VALUES = [0.0, -0.0, 1.5, -2.5, math.inf, -math.inf, math.nan, 5e-324, 1e308, 2.0**53, 3.0, -3.0, 0.1]
INTS = [0, 3, -3, 2**53, 2**53 + 1, 10**20, -(10**20)]


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return T.same_const(a, b)
    return type(a) is type(b) and a == b


def test_constants_are_interned_by_bit_pattern() -> None:
    assert T.fadd(X, 0.0) is not T.fadd(X, -0.0)
    assert T.fadd(X, math.nan) is T.fadd(X, float("nan"))
    assert isinstance(T.ite(T.sym("c", T.BOOL), 0.0, -0.0), T.Term)
    assert T.eq(X, X) is not True and T.le(X, X) is not True  # a NaN is not equal to itself
    assert T.eq(2**53 + 1, float(2**53)) is False  # exact, as CPython


def test_serialization_round_trips_special_floats() -> None:
    for value in (-0.0, math.inf, -math.inf, 5e-324):
        term = T.fadd(X, value)
        assert from_json(to_json(term)) is term
    assert math.isnan(from_json(to_json(math.nan)))  # type: ignore[arg-type]


def test_encoding_agrees_with_evaluation() -> None:
    terms = [
        T.fadd(X, Y),
        T.fsub(X, Y),
        T.fmul(X, Y),
        T.fdiv(X, Y),
        T.fneg(X),
        T.fabs(X),
        T.fsqrt(X),
        T.i2f(I),
        T.f2i(X),
        T.fisnan(X),
        T.fisinf(X),
        T.fsame(X, Y),
        T.eq(X, Y),
        T.lt(X, Y),
        T.le(X, Y),
        T.eq(I, X),
        T.lt(I, X),
        T.le(X, I),
        T.lt(X, I),
        T.le(I, X),
    ]
    rng = random.Random(1)
    for term in terms:
        assert isinstance(term, T.Term)
        for _ in range(25):
            env = {"x": rng.choice(VALUES), "y": rng.choice(VALUES), "i": rng.choice(INTS)}
            off_domain = {"fdiv": env["y"] == 0, "fsqrt": env["x"] < 0, "f2i": not math.isfinite(env["x"])}
            if off_domain.get(term.op, False):
                continue
            expected = evaluate(term, env)
            pairs = [(encode(s), encode(env[str(s.args[0])])) for s in (X, Y, I)]
            got = decode(z3.simplify(z3.substitute(encode(term), *pairs)), term.sort)
            assert _same(expected, got), (term, env, expected, got)


def test_mixed_comparisons_with_one_side_concrete_are_exact() -> None:
    ints = [0, 1, -1, 3, 2**53, 2**53 + 1, -(2**53) - 1, 10**20 + 1, 10**400, -(10**400)]
    floats = [0.0, -0.0, 0.5, -0.5, 3.0, 2.0**53, 2.0**53 + 2, 1e20, math.inf, -math.inf, math.nan, 1.7976931348623157e308]
    for n in ints:
        for f in floats:
            for op, py in (("eq", lambda p, q: p == q), ("lt", lambda p, q: p < q), ("le", lambda p, q: p <= q)):
                fn = {"eq": T.eq, "lt": T.lt, "le": T.le}[op]
                for left, right, env in ((n, X, {"x": f}), (X, n, {"x": f}), (I, f, {"i": n}), (f, I, {"i": n})):
                    term = fn(left, right)  # type: ignore[operator]
                    expected = py(*(env["x"] if v is X else env["i"] if v is I else v for v in (left, right)))
                    assert evaluate(term, env) is expected, (op, left, right, env)
