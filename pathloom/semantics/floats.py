"""CPython's ``float`` on symbolic values: arithmetic, conversions and ``math`` functions.

Owns the meaning of every operation that involves a symbolic float (a term of sort
``FLOAT``, IEEE-754 binary64) or makes one (``/`` of ints), for every engine. Invariant:
each result is what CPython computes, or a CPython exception with CPython's message, on
every input the case's condition admits; what the terms cannot say exactly runs in CPython
on pinned values (``concretize``) instead of being guessed.

- ``+ - * /`` of two floats round to nearest, ties to even (``fadd``...). An int operand is
  converted first, as CPython does: correctly rounded, and ``OverflowError: int too large to
  convert to float`` from ``FLOAT_OVERFLOW`` on. A zero divisor (``0.0`` or ``-0.0``) is
  ``ZeroDivisionError: float division by zero``.
- ``/`` of two ints is exact-then-rounded in CPython; it is modelled as ``T.itruediv`` (the
  quotient of the two converted ints) when both are at most ``2**53`` in magnitude (each
  conversion is exact, so the division rounds once) and run in CPython on pinned values
  beyond. On that domain the rounded quotient never crosses an integer, so ``int()``,
  ``math.floor``, ``math.ceil`` of it and its comparisons with ints are stated on ints (no
  floating point in the solver: ``math.ceil(n / 4)`` is ``-(-n // 4)``).
- Comparisons are the term layer's (IEEE between floats, exact between an int and a float).
- ``int()``, ``math.floor``, ``math.ceil`` truncate/round to an int (a NaN is ``ValueError``,
  an infinity ``OverflowError``); ``math.sqrt`` of a negative float is ``ValueError: math
  domain error`` (``sqrt(-0.0)`` is ``-0.0``); ``math.isnan``, ``isinf``, ``isfinite``,
  ``math.fabs``, ``abs``, ``float()`` of ints and floats.
- ``//``, ``%``, ``**``, ``round``, text (``str``, ``repr``, formats), ``hash`` and the
  other ``math`` functions of a symbolic float are not modelled: CPython, on pinned values.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

from pathloom.domain.outcome import Ok, Outcome, split, throw
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL, FLOAT, FLOAT_OVERFLOW, Arg, Term

EXACT_INT = 2**53  # ints up to this magnitude convert to floats exactly


def is_float(value: object) -> bool:
    """A float value: a Python float or a term of sort FLOAT."""
    return isinstance(value, float) or (isinstance(value, Term) and value.sort == FLOAT)


def is_numeric(value: object) -> bool:
    """An int, bool or float value (concrete or symbolic)."""
    if isinstance(value, Term):
        return value.sort != T.STR
    return isinstance(value, (int, float))


def number(value: object) -> Arg:
    """An int, bool or float value as an int or float (bools are 0 and 1)."""
    if isinstance(value, Term):
        return T.ite(value, 1, 0) if value.sort == BOOL else value
    if isinstance(value, float):
        return value
    return int(value)  # type: ignore[call-overload, no-any-return]


def _too_large(i: Arg) -> Arg:
    return T.or_(T.le(FLOAT_OVERFLOW, i), T.le(i, -FLOAT_OVERFLOW))


def to_float(value: object, then: Callable[[Arg], Outcome]) -> Outcome:
    """``then(float(value))`` for an int, bool or float value; CPython's OverflowError for an
    int too large for a float."""
    x = number(value)
    if is_float(x):
        return then(x)
    if not isinstance(x, Term):
        if abs(int(x)) >= FLOAT_OVERFLOW:
            return throw("OverflowError", "int too large to convert to float")
        return then(T.i2f(x))
    large = _too_large(x)
    return split([(large, throw("OverflowError", "int too large to convert to float")), (T.not_(large), then(T.i2f(x)))])


_FOLDS: dict[str, Callable[[Arg, Arg], Arg]] = {"+": T.fadd, "-": T.fsub, "*": T.fmul, "/": T.fdiv}


def binop(op: str, a: object, b: object, concretely: Callable[[Arg], Outcome]) -> Outcome:
    """``a op b`` for numeric operands of which at least one is a float or ``op`` is ``/``;
    ``concretely(where)`` runs the operator in CPython on the case ``where``."""
    if op not in _FOLDS:
        return concretely(True)  # //, %, **: not modelled
    if op == "/" and not is_float(a) and not is_float(b):
        return _int_truediv(number(a), number(b), concretely)
    return to_float(a, lambda x: to_float(b, lambda y: _float_op(op, x, y)))


def _float_op(op: str, x: Arg, y: Arg) -> Outcome:
    if op != "/":
        return Ok(_FOLDS[op](x, y))
    zero = T.eq(y, 0.0)
    return split([(zero, throw("ZeroDivisionError", "float division by zero")), (T.not_(zero), Ok(T.fdiv(x, y)))])


def _int_truediv(a: Arg, b: Arg, concretely: Callable[[Arg], Outcome]) -> Outcome:
    zero = T.eq(b, 0)
    small = T.and_(T.and_(T.le(-EXACT_INT, a), T.le(a, EXACT_INT)), T.and_(T.le(-EXACT_INT, b), T.le(b, EXACT_INT)))
    big = T.and_(T.not_(zero), T.not_(small))
    return split(
        [
            (zero, throw("ZeroDivisionError", "division by zero")),
            (T.and_(T.not_(zero), small), Ok(T.itruediv(a, b))),
            (big, concretely(big)),
        ]
    )


def unary(op: str, a: Arg) -> Arg:
    """``-a`` or ``+a`` of a float."""
    return T.fneg(a) if op == "-" else a


def truth(a: Arg) -> Arg:
    """A float is true unless it is zero (a NaN is true)."""
    return T.not_(T.eq(a, 0.0))


_ROUNDINGS: dict[str, Callable[[float], int]] = {
    "trunc": int,
    "floor": math.floor,
    "ceil": math.ceil,
}


def to_int(a: Arg, rounding: str = "trunc") -> Outcome:
    """``int(a)`` (``trunc``), ``math.floor(a)`` or ``math.ceil(a)`` of a float."""
    if not isinstance(a, Term):
        return _concrete(lambda: _ROUNDINGS[rounding](cast(float, a)))  # a concrete float
    if a.op == "itruediv":
        return Ok(_quotient_to_int(a.args[0], a.args[1], rounding))
    nan, inf = T.fisnan(a), T.fisinf(a)
    truncated = T.f2i(a)
    if rounding == "trunc":
        result: Arg = truncated
    else:
        # floor and ceil differ from truncation on non-integral floats of one sign
        inexact = T.not_(T.eq(truncated, a))  # exact int-float equality
        if rounding == "floor":
            result = T.ite(T.and_(inexact, T.lt(a, 0.0)), T.sub(truncated, 1), truncated)
        else:
            result = T.ite(T.and_(inexact, T.lt(0.0, a)), T.add(truncated, 1), truncated)
    finite = T.and_(T.not_(nan), T.not_(inf))
    return split(
        [
            (nan, throw("ValueError", "cannot convert float NaN to integer")),
            (inf, throw("OverflowError", "cannot convert float infinity to integer")),
            (finite, Ok(result)),
        ]
    )


def _quotient_to_int(n: Arg, d: Arg, rounding: str) -> Arg:
    """``int``, ``math.floor`` or ``math.ceil`` of ``n / d`` for ints on ``T.itruediv``'s
    domain: those of the exact quotient (the rounded float never crosses an integer)."""
    floor = T.floordiv(n, d)
    ceil = T.neg(T.floordiv(T.neg(n), d))
    if rounding != "trunc":
        return floor if rounding == "floor" else ceil
    negative = T.or_(T.and_(T.lt(n, 0), T.lt(0, d)), T.and_(T.lt(0, n), T.lt(d, 0)))
    return T.ite(negative, ceil, floor)


def _concrete(fn: Callable[[], object]) -> Outcome:
    try:
        return Ok(fn())
    except (ValueError, OverflowError) as exc:
        return throw(type(exc).__name__, str(exc))


def sqrt(a: Arg) -> Outcome:
    """``math.sqrt`` of a float."""
    negative = T.lt(a, 0.0)  # false for -0.0 and NaN
    return split([(negative, throw("ValueError", "math domain error")), (T.not_(negative), Ok(T.fsqrt(a)))])


def _fabs(a: Arg) -> Outcome:
    return Ok(T.fabs(a))


def _isnan(a: Arg) -> Outcome:
    return Ok(T.fisnan(a))


def _isinf(a: Arg) -> Outcome:
    return Ok(T.fisinf(a))


def _isfinite(a: Arg) -> Outcome:
    return Ok(T.and_(T.not_(T.fisnan(a)), T.not_(T.fisinf(a))))


def _float(a: Arg) -> Outcome:
    return Ok(a)


_FLOAT_FUNCTIONS: dict[object, Callable[[Arg], Outcome]] = {
    float: _float,
    math.sqrt: sqrt,
    math.fabs: _fabs,
    math.isnan: _isnan,
    math.isinf: _isinf,
    math.isfinite: _isfinite,
}
_INT_FUNCTIONS: dict[object, str] = {math.floor: "floor", math.ceil: "ceil"}


def call(fn: object, args: tuple[object, ...]) -> Outcome | None:
    """A call of ``float`` or a modelled ``math`` function on one symbolic number; None for
    other calls (run in CPython)."""
    if len(args) != 1 or not isinstance(args[0], Term) or not is_numeric(args[0]):
        return None
    try:
        hashable = hash(fn) is not None
    except TypeError:
        hashable = False
    if not hashable:
        return None
    if fn in _FLOAT_FUNCTIONS:
        return to_float(args[0], _FLOAT_FUNCTIONS[fn])
    if fn in _INT_FUNCTIONS:
        x = number(args[0])
        return Ok(x) if not is_float(x) else to_int(x, _INT_FUNCTIONS[fn])
    return None
