"""A complete fallback for queries Z3 answers ``unknown`` (non-linear integer arithmetic): a
search for a model among small values, checked by exact evaluation.

The issue with non-linear arithmetic is that Z3's procedures are incomplete, and a path
condition of Euclid's algorithm six steps deep (nested ``%``) ends ``unknown`` after the whole
timeout. Its models are small (consecutive Fibonacci numbers), so this module enumerates the
assignments of the query's int, bool and float symbols shell by shell (ints of absolute value
at most r, for r = 0, 1, 2, ...; floats: the zeros, then +-1, +-0.5, the infinities and NaN,
then whole and half values; strs: the strings of length r over a small alphabet, the
characters of the query's own str constants first, then one of each common class: ``a A 0``,
space, ``_``, ``é``, ``١``) and evaluates every constraint with ``terms.evaluate``, the Python
semantics of terms (IEEE for floats). It answers only ``sat`` with a model every constraint
evaluates true on, which is sound whatever Z3 would say; running out of values or time leaves
the answer ``unknown`` (never ``unsat``: a larger model may exist). Queries with formulas in
Z3's own form are not searched.

Strs are searched because Z3's sequence solver is slow on per-character tests: ``name[0].isupper()
and name[1].isupper()`` took it 10 s (``isupper`` is 650 ranges of code points), a string a
path of a loop over ``name`` asks for at every step; the search finds ``"AA"`` at once. A query
over a str with such tests (``str_hard``) is searched first for ``FIRST_TRY_STR_S``.

On a non-linear query (``hard``) with a huge constant (``huge_constant``) only the search runs,
for the query's whole timeout: Z3 did not stop at its timeout or interrupt on one. On the other
non-linear queries the search also runs first, for ``FIRST_TRY_S``, before Z3 (which may
spend its whole timeout there): many such queries of a deep path have a small model.

Invariant: a returned model gives every constraint the value True under exact evaluation.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from collections.abc import Callable, Iterator

from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import BOOL, FLOAT, INT, STR, Concrete, Term, postorder, symbols

MAX_SYMBOLS = 6  # queries over more symbols are not searched
FIRST_TRY_STR_S = 0.05  # search before Z3, on a query over a str with per-character tests
STR_REPRESENTATIVES = "aA0 _é١"  # a lowercase, an uppercase, a digit, a space, '_', non-ASCII ones
MAX_ALPHABET = 12
MAX_STR_LENGTH = 3  # strs searched are at most this long (1,885 candidates for one str)
_STR_HARD = frozenset({"str_class", "ascii_case", "strip_count", "replace", "count", "int_syntax", "str_to_int", "re_member"})
MAX_EVALUATIONS = 200_000  # candidate models tried per query, at most
FIRST_TRY_S = 0.2  # search before Z3, on a non-linear query (then Z3, then the rest of the search)
_NON_LINEAR = frozenset({"mul", "floordiv", "mod", "fmul", "fdiv", "itruediv"})


HUGE = 2**256  # a non-linear query with a constant beyond this is not given to Z3 (``Traits.huge_constant``)


@dataclass(frozen=True)
class Traits:
    """What one scan of a query's terms tells the solver about it (``traits``)."""

    # it multiplies, divides or takes the remainder of two symbolic numbers, or takes a square
    # root of one: what Z3 may spend its whole timeout on
    non_linear: bool = False
    # an int constant beyond ``HUGE`` (e.g. CPython's limit on the digits of ``str(n)``,
    # ``10**4300 - 1``): on such a non-linear query Z3 ignored its timeout and its interrupt for
    # 28 s (``100 * part // total`` past that limit, a 1 s timeout), so the caller answers it by
    # this search alone, ``unknown`` when no model is found
    huge_constant: bool = False
    # it tests the characters of a str in a way Z3's sequence solver is slow on (a character
    # class, a case mapping, stripping, counting, ``int`` syntax, a regex)
    str_tests: bool = False
    regex: bool = False  # a regular-expression membership or a group of a match
    str_int: bool = False  # ``str(n)`` or ``int(s)``'s digits (``int_str``, ``str_to_int``)
    char_classes: bool = False  # a character-class test (``solver.char_lemmas`` has work)


def traits(constraints: frozenset[Term]) -> Traits:
    """The ``Traits`` of a query, from one walk over its terms."""
    found: set[str] = set()
    seen: set[Term] = set()
    for c in constraints:
        for t in postorder(c, seen):
            seen.add(t)
            if (t.op == "fsqrt" and isinstance(t.args[0], Term)) or (t.op in _NON_LINEAR and isinstance(t.args[0], Term) and isinstance(t.args[1], Term)):
                found.add("non_linear")
            if any(type(a) is int and abs(a) > HUGE for a in t.args):
                found.add("huge_constant")
            if t.op in _STR_HARD:
                found.add("str_tests")
            if t.op in ("re_member", "re_piece"):
                found.add("regex")
            if t.op in ("int_str", "str_to_int"):
                found.add("str_int")
            if t.op == "str_class":
                found.add("char_classes")
    return Traits(**dict.fromkeys(found, True))


def hard(constraints: frozenset[Term]) -> bool:
    """``Traits.non_linear`` of the query."""
    return traits(constraints).non_linear


def huge_constant(constraints: frozenset[Term]) -> bool:
    """``Traits.huge_constant`` of the query."""
    return traits(constraints).huge_constant


def str_hard(constraints: frozenset[Term]) -> bool:
    """``Traits.str_tests`` of the query."""
    return traits(constraints).str_tests


def _alphabet(constraints: list[Term]) -> str:
    """The characters of the query's str constants (in order, each once), then the
    representatives, at most ``MAX_ALPHABET``."""
    found: dict[str, None] = {}
    seen: set[Term] = set()
    for c in constraints:
        for t in postorder(c, seen):
            seen.add(t)
            for a in t.args:
                if type(a) is str and t.op not in ("sym", "str_class", "re_member"):
                    found.update(dict.fromkeys(a))
    found.update(dict.fromkeys(STR_REPRESENTATIVES))
    return "".join(list(found)[:MAX_ALPHABET])


class Search:
    """The search for one query, resumable: a second ``run`` goes on from the candidate where the
    first stopped (the brief try before Z3, then the rest after Z3's unknown), never trying one
    twice."""

    def __init__(self, constraints: frozenset[Term], extra_symbols: frozenset[Term]) -> None:
        names: set[Term] = set(extra_symbols)
        for c in constraints:
            names |= symbols(c)
        self.searchable = bool(names) and len(names) <= MAX_SYMBOLS and all(s.sort in _SHELLS or s.sort == STR for s in names)
        self.constraints = sorted(constraints, key=lambda t: t.serial)
        self._typed = sorted((str(s.args[0]), s.sort) for s in names)
        self._candidates: Iterator[dict[str, Concrete]] | None = None  # made on the first run

    @property
    def candidates(self) -> Iterator[dict[str, Concrete]]:
        """The assignments in search order, resumed where the last run stopped (made when first
        asked for: most queries are never searched)."""
        if self._candidates is None:
            shells = {**_SHELLS, STR: _str_shell(_alphabet(self.constraints))}
            self._candidates = _candidates(self._typed, shells) if self.searchable else iter(())
        return self._candidates

    def run(self, seconds: float) -> dict[str, Concrete] | None:
        """A model found within ``seconds`` and ``MAX_EVALUATIONS`` more candidates, or None."""
        stop = time.monotonic() + seconds
        for count in range(MAX_EVALUATIONS):
            if count & 255 == 0 and time.monotonic() > stop:
                return None  # checked before a candidate is drawn: the next run starts with it
            candidate = next(self.candidates, None)
            if candidate is None:
                return None
            if _holds(self.constraints, candidate):
                return candidate
        return None


def search(constraints: frozenset[Term], extra_symbols: frozenset[Term], seconds: float) -> dict[str, Concrete] | None:
    """A model of ``constraints`` among small values found within ``seconds``, or None."""
    return Search(constraints, extra_symbols).run(seconds)


def _holds(constraints: list[Term], model: dict[str, Concrete]) -> bool:
    memo: dict[Term, Concrete] = {}
    try:
        return all(evaluate(c, model, memo) is True for c in constraints)
    except (ArithmeticError, ValueError, TypeError):  # e.g. a % 0 in a conjunct the model breaks
        return False


def _int_shell(r: int) -> list[Concrete]:
    return [0] if r == 0 else [r, -r]


def _bool_shell(r: int) -> list[Concrete]:
    return [False, True] if r == 0 else []


def _float_shell(r: int) -> list[Concrete]:
    """Floats of radius ``r``: zeros; then +-1, +-0.5, the infinities and NaN; then +-r, +-(r - 0.5)."""
    if r == 0:
        return [0.0, -0.0]
    if r == 1:
        return [1.0, -1.0, 0.5, -0.5, math.inf, -math.inf, math.nan]
    return [float(r), float(-r), r - 0.5, 0.5 - r]


def _str_shell(alphabet: str) -> Callable[[int], list[Concrete]]:
    """Strs of radius ``r``: every string of length ``r`` over ``alphabet`` (none past
    ``MAX_STR_LENGTH``)."""
    return lambda r: ["".join(chars) for chars in itertools.product(alphabet, repeat=r)] if r <= MAX_STR_LENGTH else []


_LAST_RADIUS = {BOOL: 0, STR: MAX_STR_LENGTH}  # the largest radius with values, for the sorts that have one


_SHELLS: dict[str, Callable[[int], list[Concrete]]] = {INT: _int_shell, BOOL: _bool_shell, FLOAT: _float_shell}


def _candidates(typed: list[tuple[str, str]], kinds: dict[str, Callable[[int], list[Concrete]]]) -> Iterator[dict[str, Concrete]]:
    """Every assignment, by growing radius: the largest radius of its values (an int's is its
    absolute value); each assignment once, at the radius of its largest value."""
    names = [name for name, _ in typed]
    shells: list[list[list[Concrete]]] = [[] for _ in typed]  # per symbol: its values by radius
    for radius in itertools.count():
        for i, (_, sort) in enumerate(typed):
            shells[i].append(kinds[sort](radius))
        if radius > max(_LAST_RADIUS.get(sort, radius) for _, sort in typed):
            return  # every symbol's values are exhausted (bools, strs up to their longest)
        for pick in itertools.product(range(radius + 1), repeat=len(typed)):
            if max(pick, default=0) != radius:
                continue
            for values in itertools.product(*(shells[i][r] for i, r in enumerate(pick))):
                yield dict(zip(names, values))
