"""Python's bitwise operators (``&``, ``|``, ``^``, ``<<``, ``>>``, ``~``) on int values that are
terms, as terms: what ``ops`` uses once it knows both operands are ints or bools.

Python's ints are unbounded; a negative int behaves as an infinite two's complement. Exact
for every int, in linear integer arithmetic:

- ``~x`` is ``-x - 1``;
- ``x << k`` and ``x >> k`` with a concrete count ``0 <= k <= MAX_SHIFT`` are ``x * 2**k``
  and ``x // 2**k`` (floor division); a negative count raises CPython's ValueError;
- ``x & c`` with a concrete ``c >= 0`` is the sum, over each run of one bits of ``c`` (bits
  ``lo`` to ``hi - 1``), of ``x % 2**hi - x % 2**lo`` (so ``x & 2**k - 1`` is ``x % 2**k``);
  ``x & c`` with ``c < 0`` is ``x - (x & ~c)``; ``x | c`` is ``x + c - (x & c)`` and
  ``x ^ c`` is ``x + c - 2 * (x & c)``;
- an operand ``ite(b, k1, k2)`` of concrete ints (a bool term used as an int is one) gives
  ``ite(b, x op k1, x op k2)``.

A shift by a symbolic count ``n`` splits the path: ``n < 0`` raises; for ``n <= 62``,
``x * 2**n`` and ``x // 2**n`` with the term ``T.pow2(n)`` (exact for every ``x``); for
larger ``n``, ``x >> n`` of an ``x`` in the 64-bit two's-complement range is its sign
(``-1`` or ``0``); elsewhere ``n`` is pinned (``pin``) and the shift by a concrete count
applies, up to ``MAX_SHIFT`` (larger counts are a ``Cut``).

``&``, ``|`` and ``^`` of two symbolic ints pin one operand (the one with fewer input
symbols, then a bare input symbol, else the right one) and apply the rules above with the
other one symbolic. A bit-vector encoding (``int2bv`` of both, the operation, ``bv2int``)
would be exact on a range, but Z3 relates an int to its bits slowly: on this 2-core machine
``x ^ y == 6`` over 64 bits took 1 to 8 s (16 bits: 0.2 to 1.4 s) and ``x & (x - 1)``
nested five times over 8-bit ints did not finish in 8 s, while ``2 ** n`` as one 64-bit
shift of ``1`` takes 0.05 to 0.3 s.

``pin(value, where)``, given by the caller, is ``concretize.run_concretely`` of the identity
under the case's condition ``where``: a split over up to ``--max-concretizations`` values of
``value``, each pinned, and a concretization ``Cut`` for the rest unless those are all.
"""

from __future__ import annotations

from collections.abc import Callable

from pathloom.domain.outcome import Cut, Ok, Outcome, map_ok, split, throw
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term

MAX_SHIFT = 100_000  # larger counts are not modelled (a left shift makes that many bits)
NEGATIVE_COUNT = "negative shift count"

Pin = Callable[[Arg, Arg], Outcome]  # (value, where): the cases of ``value`` pinned where ``where`` holds


def invert(x: Arg) -> Arg:
    """``~x``."""
    return T.sub(T.neg(x), 1)


def bools(op: str, a: Arg, b: Arg) -> Arg:
    """``a & b``, ``a | b``, ``a ^ b`` of two bools: a bool."""
    if op == "&":
        return T.and_(a, b)
    if op == "|":
        return T.or_(a, b)
    return T.not_(T.eq(a, b))


# ---------------------------------------------------------------- & | ^


def logic(op: str, x: Arg, y: Arg, pin: Pin) -> Outcome:
    """``x op y`` for ``op`` one of ``& | ^`` on ints, at least one of them a term."""
    for a, b in ((x, y), (y, x)):
        if not isinstance(b, Term):
            return Ok(_with_constant(op, a, int(b)))
        if _constant_choice(b):
            c, k1, k2 = b.args
            return Ok(T.ite(c, _with_constant(op, a, int(k1)), _with_constant(op, a, int(k2))))  # type: ignore[arg-type]
    assert isinstance(x, Term) and isinstance(y, Term)
    if _pin_first(x) < _pin_first(y):
        x, y = y, x
    return map_ok(pin(y, True), lambda ok: Ok(_with_constant(op, x, int(ok.value)), ok.writes))  # type: ignore[call-overload]


def _pin_first(value: Term) -> tuple[int, bool]:
    """Which operand to pin: the smaller key (fewer input symbols, then a bare input symbol)."""
    return len(T.symbols(value)), value.op != "sym"


def _constant_choice(value: Arg) -> bool:
    return isinstance(value, Term) and value.op == "ite" and not isinstance(value.args[1], Term) and not isinstance(value.args[2], Term)


def _with_constant(op: str, x: Arg, c: int) -> Arg:
    both = _and_constant(x, c)
    if op == "&":
        return both
    if op == "|":
        return T.sub(T.add(x, c), both)
    return T.sub(T.add(x, c), T.mul(2, both))


def _and_constant(x: Arg, c: int) -> Arg:
    if c < 0:
        return T.sub(x, _and_constant(x, ~c))
    result: Arg = 0
    for lo, hi in _one_runs(c):
        result = T.add(result, T.sub(T.mod(x, 2**hi), T.mod(x, 2**lo)))
    return result


def _one_runs(c: int) -> list[tuple[int, int]]:
    """The runs of one bits of ``c >= 0``, lowest first, as ``(lo, hi)``: bits ``lo .. hi - 1``."""
    runs = []
    position = 0
    while c:
        zeros = (c & -c).bit_length() - 1
        c >>= zeros
        position += zeros
        ones = (~c & (c + 1)).bit_length() - 1
        runs.append((position, position + ones))
        c >>= ones
        position += ones
    return runs


# ---------------------------------------------------------------- << >>


def shift(op: str, x: Arg, n: Arg, pin: Pin) -> Outcome:
    """``x << n`` or ``x >> n`` on ints, at least one of them a term."""
    if not isinstance(n, Term):
        return _by_constant(op, x, int(n))
    negative = T.lt(n, 0)
    if not isinstance(x, Term) and x == 0:
        return split([(negative, throw("ValueError", NEGATIVE_COUNT)), (T.not_(negative), Ok(0))])
    small = T.and_(T.not_(negative), T.le(n, T.POW2_MAX))
    exact = T.mul(x, T.pow2(n)) if op == "<<" else T.floordiv(x, T.pow2(n))
    cases: list[tuple[Arg, Outcome]] = [(negative, throw("ValueError", NEGATIVE_COUNT)), (small, Ok(exact))]
    large = T.lt(T.POW2_MAX, n)
    if op == ">>":  # every bit of a 64-bit int shifted out: its sign is left
        sign = T.and_(large, T.and_(T.le(-(2**63), x), T.lt(x, 2**63)))
        cases.append((sign, Ok(T.ite(T.lt(x, 0), -1, 0))))
        large = T.and_(large, T.not_(sign))
    pinned = T.and_(large, T.le(n, MAX_SHIFT))
    cases.append((T.and_(large, T.lt(MAX_SHIFT, n)), Cut(_huge_reason(op))))
    if pinned is not False:
        cases.append((pinned, map_ok(pin(n, pinned), lambda ok: _by_constant(op, x, int(ok.value)))))  # type: ignore[call-overload]
    return split(cases)


def _by_constant(op: str, x: Arg, k: int) -> Outcome:
    if k < 0:
        return throw("ValueError", NEGATIVE_COUNT)
    if k > MAX_SHIFT:
        return Cut(_huge_reason(op))
    return Ok(T.mul(x, 2**k) if op == "<<" else T.floordiv(x, 2**k))


def _huge_reason(op: str) -> str:
    return f"shift {op} by a count above {MAX_SHIFT}"
