"""A complete fallback for queries Z3 answers ``unknown`` (non-linear integer arithmetic): a
search for a model among small values, checked by exact evaluation.

The issue with non-linear arithmetic is that Z3's procedures are incomplete, and a path
condition of Euclid's algorithm six steps deep (nested ``%``) ends ``unknown`` after the whole
timeout. Its models are small (consecutive Fibonacci numbers), so this module enumerates the
assignments of the query's int and bool symbols shell by shell (every value of absolute value
at most r, for r = 0, 1, 2, ...) and evaluates every constraint with ``terms.evaluate``, the
Python semantics of terms. It answers only ``sat`` with a model every constraint evaluates
true on, which is sound whatever Z3 would say; running out of values or time leaves the answer
``unknown`` (never ``unsat``: a larger model may exist). Queries over other sorts (strs,
floats) or with formulas in Z3's own form are not searched.

On a non-linear query the search also runs first, for ``FIRST_TRY_S``, before Z3 (which may
spend its whole timeout there): many such queries of a deep path have a small model.

Invariant: a returned model gives every constraint the value True under exact evaluation.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import BOOL, INT, Concrete, Term, postorder, symbols

MAX_SYMBOLS = 6  # queries over more int and bool symbols are not searched
MAX_EVALUATIONS = 200_000  # candidate models tried per query, at most
FIRST_TRY_S = 0.2  # search before Z3, on a non-linear query (then Z3, then the rest of the search)
_NON_LINEAR = frozenset({"mul", "floordiv", "mod"})


def non_linear(constraints: frozenset[Term]) -> bool:
    """Whether a constraint multiplies, divides or takes the remainder of two symbolic ints."""
    seen: set[Term] = set()
    for c in constraints:
        for t in postorder(c, seen):
            seen.add(t)
            if t.op in _NON_LINEAR and isinstance(t.args[0], Term) and isinstance(t.args[1], Term):
                return True
    return False


def search(constraints: frozenset[Term], extra_symbols: frozenset[Term], seconds: float) -> dict[str, Concrete] | None:
    """A model of ``constraints`` among small values found within ``seconds``, or None."""
    names: set[Term] = set(extra_symbols)
    for c in constraints:
        names |= symbols(c)
    if not names or len(names) > MAX_SYMBOLS or any(s.sort not in (INT, BOOL) for s in names):
        return None
    ordered = sorted(constraints, key=lambda t: t.serial)
    ints = sorted(str(s.args[0]) for s in names if s.sort == INT)
    bools = sorted(str(s.args[0]) for s in names if s.sort == BOOL)
    stop = time.monotonic() + seconds
    for count, candidate in enumerate(_candidates(ints, bools)):
        if count >= MAX_EVALUATIONS or (count & 255 == 0 and time.monotonic() > stop):
            return None
        if _holds(ordered, candidate):
            return candidate
    return None


def _holds(constraints: list[Term], model: dict[str, Concrete]) -> bool:
    memo: dict[Term, Concrete] = {}
    try:
        return all(evaluate(c, model, memo) is True for c in constraints)
    except (ArithmeticError, ValueError, TypeError):  # e.g. a % 0 in a conjunct the model breaks
        return False


def _candidates(ints: list[str], bools: list[str]) -> Iterator[dict[str, Concrete]]:
    """Every assignment, by growing radius: the ints' largest absolute value."""
    truths = list(itertools.product((False, True), repeat=len(bools)))
    for radius in itertools.count():
        inner = range(-radius + 1, radius)
        outer = range(-radius, radius + 1)
        for values in itertools.product(outer, repeat=len(ints)):
            if radius and all(v in inner for v in values):
                continue  # seen at a smaller radius
            for truth in truths:
                yield {**dict(zip(ints, values)), **dict(zip(bools, truth))}
        if not ints:
            return
