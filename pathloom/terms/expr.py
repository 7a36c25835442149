"""Symbolic terms: immutable, hash-consed, built only through folding factories.

Invariants:
- A ``Term`` is never a constant: factories fold operations on concrete Python values
  (``int``, ``bool``, ``str``) into plain Python values, so concrete values stay concrete.
- Terms are interned: two structurally equal terms are the same object, so ``is`` and ``==``
  agree and hashing is by identity-cheap precomputed hash.
- Arguments of commutative operators are sorted by a deterministic key (creation serial for
  terms, type-then-value for constants), so the same construction order gives the same terms.
- Every operator has Python semantics: ``floordiv`` and ``mod`` floor toward negative infinity,
  ``at`` is indexing of a string by a non-negative in-range index, booleans used as integers
  are converted explicitly by the semantics layer (terms are strictly sorted).

Sorts are ``INT``, ``BOOL``, ``STR`` and ``FLOAT`` (IEEE-754 binary64, CPython's ``float``).
Leaves are symbols (``sym``) naming an input.

Floats: concrete floats are plain Python floats, interned by bit pattern (``float.hex``), so
``0.0`` and ``-0.0`` are different constants and a NaN equals itself as a key. Float terms
have their own operators (``fadd``, ``fsub``, ``fmul``, ``fdiv``, ``fneg``, ``fabs``,
``fsqrt``: rounded to nearest, ties to even, as CPython's), conversions ``i2f`` (``float(i)``,
needs ``abs(i) < FLOAT_OVERFLOW``) and ``f2i`` (``int(f)``, truncation, needs a finite
``f``), ``itruediv`` (``a / b`` of two ints, see :func:`itruediv`), tests ``fisnan``, ``fisinf``, and ``fsame`` (the same float: bit pattern, every NaN
one value; used to pin a float). ``eq``, ``lt`` and ``le`` take floats too, with Python's
meaning: IEEE between two floats (a NaN compares false, ``-0.0 == 0.0``), and exact between
an int and a float (the mathematical values, never a rounded conversion).

Some operators are exact only on a domain the semantics layer guarantees before building
them (as ``floordiv`` needs a nonzero divisor): ``pow2`` (``2 ** n``) needs
``0 <= n <= POW2_MAX``; ``int_str`` (``str`` of an int) at most
``sys.get_int_max_str_digits()`` digits. Off that domain their value is unspecified.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import sys
import weakref
from collections.abc import Callable, Container, Sequence
from typing import TypeGuard, Union, cast

from pathloom.terms.char_classes import ALL_OF  # the classes False of "" (a string is in one when each character is)

INT = "Int"
BOOL = "Bool"
STR = "Str"
FLOAT = "Float"
SCALAR_SORTS = {"int": INT, "bool": BOOL, "str": STR, "float": FLOAT}  # the sort of each scalar Python type name
# The smallest int CPython refuses to convert to a float (OverflowError): it rounds to 2**1024.
FLOAT_OVERFLOW = 2**1024 - 2**970

Concrete = Union[int, bool, str, float]
Arg = Union["Term", int, bool, str, float]

_serial = itertools.count()
_table: weakref.WeakValueDictionary[tuple[object, ...], Term] = weakref.WeakValueDictionary()

COMMUTATIVE = frozenset({"add", "mul", "eq", "and", "or"})


class Term:
    """An interned symbolic expression node; build it with the factories below, never directly."""

    __slots__ = ("op", "args", "sort", "serial", "_hash", "__weakref__")

    op: str
    args: tuple[Arg, ...]
    sort: str
    serial: int
    _hash: int

    def __repr__(self) -> str:
        from pathloom.terms.printer import show

        return show(self)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other

    def __bool__(self) -> bool:
        raise TypeError("a symbolic term has no concrete truth value; use the semantics layer")


def _key(arg: Arg) -> tuple[object, ...]:
    if isinstance(arg, Term):
        return (1, arg.serial)
    if isinstance(arg, float):
        return (0, "float", const_key(arg)[1])
    return (0, type(arg).__name__, arg)


def const_key(value: object) -> tuple[object, ...]:
    """The interning key of a constant: its type and value, a float by its bit pattern
    (``0.0 == -0.0`` and ``nan != nan`` would merge or split terms wrongly)."""
    if isinstance(value, float):
        return (float, "nan" if math.isnan(value) else value.hex())
    return (type(value), value)


def same_const(a: object, b: object) -> bool:
    """Two constants that are the same value (floats by bit pattern, every NaN one value)."""
    return type(a) is type(b) and const_key(a) == const_key(b)


def make(op: str, args: tuple[Arg, ...], sort: str) -> Term:
    """Intern a term; callers are the folding factories (and the deserializer)."""
    if op in COMMUTATIVE:
        args = tuple(sorted(args, key=_key))
    key = (op, sort) + tuple(const_key(a) if not isinstance(a, Term) else a for a in args)
    found = _table.get(key)
    if found is not None:
        return found
    term = object.__new__(Term)
    term.op = op
    term.args = args
    term.sort = sort
    term.serial = next(_serial)
    # Terms are interned (equal means identical), so the serial is a valid hash, and unlike a
    # hash of the key (strings in it are salted per process by PYTHONHASHSEED) it makes the
    # iteration order of sets of terms, and so the models found, the same in every run.
    term._hash = term.serial
    _table[key] = term
    return term


def is_term(value: object) -> bool:
    return isinstance(value, Term)


def sort_of(value: Arg) -> str:
    if isinstance(value, Term):
        return value.sort
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if isinstance(value, float):
        return FLOAT
    raise TypeError(f"no sort for {type(value).__name__}")


# ---------------------------------------------------------------- leaves


def sym(name: str, sort: str) -> Term:
    return make("sym", (name,), sort)


# ---------------------------------------------------------------- integers


def py_floordiv(a: int, b: int) -> int:
    return a // b


def add(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return int(a) + int(b)
    if isinstance(b, int) and not isinstance(b, bool) and b == 0:
        return a
    if isinstance(a, int) and not isinstance(a, bool) and a == 0:
        return b
    return make("add", (a, b), INT)


def neg(a: Arg) -> Arg:
    if not isinstance(a, Term):
        return -int(a)
    if a.op == "neg":
        return a.args[0]
    return make("neg", (a,), INT)


def sub(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return int(a) - int(b)
    if isinstance(b, int) and not isinstance(b, bool) and b == 0:
        return a
    if a is b:
        return 0
    return make("sub", (a, b), INT)


def mul(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return int(a) * int(b)
    for x, y in ((a, b), (b, a)):
        if not isinstance(x, Term):
            if x == 0:
                return 0
            if x == 1:
                return y
    return make("mul", (a, b), INT)


def floordiv(a: Arg, b: Arg) -> Arg:
    """Python ``a // b``; the caller has excluded ``b == 0``."""
    if not isinstance(a, Term) and not isinstance(b, Term):
        return int(a) // int(b)
    if not isinstance(b, Term) and b == 1:
        return a
    if a is b:
        return 1
    return make("floordiv", (a, b), INT)


def mod(a: Arg, b: Arg) -> Arg:
    """Python ``a % b``; the caller has excluded ``b == 0``."""
    if not isinstance(a, Term) and not isinstance(b, Term):
        return int(a) % int(b)
    if (not isinstance(b, Term) and b == 1) or a is b:
        return 0
    return make("mod", (a, b), INT)


POW2_MAX = 62  # pow2 is exact up to this exponent (the solver encodes it in 64-bit vectors)


def pow2(n: Arg) -> Arg:
    """``2 ** n`` for ``0 <= n <= POW2_MAX`` (the caller has checked the range)."""
    if not isinstance(n, Term):
        return cast(int, 2 ** int(n))  # an int: the exponent is not negative
    return make("pow2", (n,), INT)


# ---------------------------------------------------------------- booleans


def not_(a: Arg) -> Arg:
    if not isinstance(a, Term):
        return not a
    if a.op == "not":
        return a.args[0]
    return make("not", (a,), BOOL)


def and_(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term):
        return b if a else False
    if not isinstance(b, Term):
        return a if b else False
    if a is b:
        return a
    return make("and", (a, b), BOOL)


def or_(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term):
        return True if a else b
    if not isinstance(b, Term):
        return True if b else a
    if a is b:
        return a
    return make("or", (a, b), BOOL)


def conj(items: Sequence[Arg]) -> Arg:
    result: Arg = True
    for item in items:
        result = and_(result, item)
    return result


def ite(c: Arg, a: Arg, b: Arg) -> Arg:
    if not isinstance(c, Term):
        return a if c else b
    if a is b or (not isinstance(a, Term) and same_const(a, b)):
        return a
    sort = sort_of(a)
    if sort != sort_of(b):
        raise TypeError("ite branches of different sorts")
    if sort == BOOL:
        if a is True and b is False:
            return c
        if a is False and b is True:
            return not_(c)
    return make("ite", (c, a, b), sort)


# ---------------------------------------------------------------- comparisons


def _quotient_compare(op: str, a: Arg, b: Arg) -> Arg | None:
    """``a op b`` (``op`` eq, lt or le) where one side is an ``itruediv`` quotient ``n / d``
    and the other an int (or an integral finite float constant) ``c``: the comparison of the
    exact quotient with ``c`` (see :func:`itruediv`), as ints: ``n op c * d`` when ``d > 0``,
    the order reversed when ``d < 0``. None otherwise (compared as floats)."""
    q, c = (a, b) if _is_quotient(a) else (b, a)
    if not _is_quotient(q):
        return None
    if isinstance(c, float):
        if not (math.isfinite(c) and c.is_integer()):
            return None
        c = int(c)
    elif sort_of(c) != INT:
        return None
    n, d = q.args
    scaled = mul(c, d)
    left, right = (n, scaled) if q is a else (scaled, n)
    compare = {"eq": eq, "lt": lt, "le": le}[op]
    if op == "eq":
        return compare(left, right)
    positive, negative = compare(left, right), compare(right, left)
    if not isinstance(d, Term):
        return positive if cast(int, d) > 0 else negative  # an itruediv divides two ints
    return ite(lt(0, d), positive, negative)


def _is_quotient(value: Arg) -> TypeGuard[Term]:
    return isinstance(value, Term) and value.op == "itruediv"


def eq(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return a == b
    if a is b and sort_of(a) != FLOAT:
        return True
    if sort_of(a) != sort_of(b):
        if {sort_of(a), sort_of(b)} != {INT, FLOAT}:
            raise TypeError("eq of different sorts")
        if (quotient := _quotient_compare("eq", a, b)) is not None:
            return quotient
        mixed = _mixed("eq", a, b)
        if mixed is not None:
            return mixed
    elif sort_of(a) == FLOAT and (quotient := _quotient_compare("eq", a, b)) is not None:
        return quotient
    if sort_of(a) == BOOL:
        if not isinstance(b, Term):
            return a if b else not_(a)
        if not isinstance(a, Term):
            return b if a else not_(b)
    if isinstance(a, Term) and isinstance(b, Term) and a.op == b.op == "int_str":  # str is one-to-one on ints
        return eq(a.args[0], b.args[0])
    if isinstance(a, str) and isinstance(b, Term):
        a, b = b, a
    if isinstance(b, str) and isinstance(a, Term) and a.op == "int_str":  # only the int's own text
        return eq(a.args[0], int(b)) if _INT_TEXT.fullmatch(b) else False
    if isinstance(b, str) and isinstance(a, Term) and (_literal_choice(a) or _has_literal_choice(a)):
        return _eq_literal(a, b)
    return make("eq", (a, b), BOOL)


_INT_TEXT = re.compile(r"0|-?[1-9][0-9]{0,4299}", re.ASCII)  # what str() of an int can be (not "-0"; within the digit limit)


def _eq_literal(s: Term, text: str) -> Arg:
    """``s == text`` for a choice among literals (a condition on the choice) or a join whose
    first or last part has few possible lengths (split at each): ``"100" == D[a] + D[b] + D[c]``
    tests ``a``, ``b``, ``c`` alone (``base_repr``: Z3 took 2 s on each such join)."""
    if s.op == "ite" and _literal_choice(s):
        return ite(s.args[0], eq(s.args[1], text), eq(s.args[2], text))
    head, tail = s.args
    heads, tails = _lengths(head), _lengths(tail)
    if heads is None and tails is None:
        return make("eq", (s, text), BOOL)
    cuts = sorted(heads) if heads is not None else [len(text) - m for m in sorted(tails or ())]
    found: Arg = False
    for n in cuts:
        if 0 <= n <= len(text):
            found = or_(found, and_(eq(head, text[:n]), eq(tail, text[n:])))
    return found


MAX_LENGTHS = 8  # a part with more possible lengths is compared whole (``_eq_literal``)


def _lengths(s: Arg) -> frozenset[int] | None:
    """The lengths of a literal, a choice among literals or a join of such, when at most
    ``MAX_LENGTHS``; else None."""
    if not isinstance(s, Term):
        return frozenset({len(str(s))})
    if s.op not in ("ite", "concat") or (s.op == "ite" and not _literal_choice(s)):
        return None
    a, b = _lengths(s.args[-2]), _lengths(s.args[-1])
    if a is None or b is None:
        return None
    found = a | b if s.op == "ite" else frozenset(x + y for x in a for y in b)
    return found if len(found) <= MAX_LENGTHS else None


def _mixed(op: str, a: Arg, b: Arg) -> Arg | None:
    """``a op b`` (``op`` eq, lt or le) for an int and a float, one of them concrete, as a
    comparison within one sort (exactly CPython's int-float comparison); None when both are
    terms (the mixed operator, compared exactly by the solver)."""
    if isinstance(a, Term) and isinstance(b, Term):
        return None
    if isinstance(a, float) or isinstance(b, float):
        f = float(a) if isinstance(a, float) else float(b)  # type: ignore[arg-type]
        i = b if isinstance(a, float) else a
        if math.isnan(f):
            return False
        if math.isinf(f):
            if op == "eq":
                return False
            return f > 0 if i is a else f < 0  # int < +inf, -inf < int
        if op == "eq":
            return eq(i, int(f)) if f.is_integer() else False
        # i < f iff i < ceil(f); i <= f iff i <= floor(f); f < i iff floor(f) < i; f <= i iff ceil(f) <= i
        if i is a:
            return lt(i, math.ceil(f)) if op == "lt" else le(i, math.floor(f))
        return lt(math.floor(f), i) if op == "lt" else le(math.ceil(f), i)
    n = int(a) if not isinstance(a, Term) else int(b)  # type: ignore[arg-type]
    g = b if not isinstance(a, Term) else a
    c = _int_to_float(n)
    if not math.isinf(c) and c == n:  # n is a float exactly
        return eq(g, c) if op == "eq" else (lt if op == "lt" else le)(*((c, g) if g is b else (g, c)))
    if op == "eq":
        return False
    # no float equals n: compare with the nearest floats above and below it
    above = c if c > n else math.nextafter(c, math.inf)
    below = c if c < n else math.nextafter(c, -math.inf)
    if math.isinf(c):
        above, below = (math.inf, sys.float_info.max) if n > 0 else (-sys.float_info.max, -math.inf)
    return le(above, g) if g is b else le(g, below)  # n < g iff above <= g; g < n iff g <= below


def _char_like(value: Arg) -> bool:
    """A string of length at most one: a short literal, ``s[i]`` or ``chr(i)``."""
    if isinstance(value, Term):
        return value.op in ("at", "from_code")
    return isinstance(value, str) and len(value) <= 1


def _code(value: Arg) -> Arg:
    """The code point of a char-like string, -1 for the empty string; ordering and equality
    of char-like strings are those of their codes ("" sorts before every character)."""
    if isinstance(value, Term):
        return value.args[0] if value.op == "from_code" else make("to_code", (value,), INT)
    return ord(str(value)) if value else -1


def lt(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return a < b  # type: ignore[operator]
    if a is b:
        return False
    if FLOAT in (sort_of(a), sort_of(b)) and (quotient := _quotient_compare("lt", a, b)) is not None:
        return quotient
    if sort_of(a) != sort_of(b) and (mixed := _mixed("lt", a, b)) is not None:
        return mixed
    if sort_of(a) == STR:
        if _char_like(a) and _char_like(b):
            return lt(_code(a), _code(b))
        return make("str_lt", (a, b), BOOL)
    return make("lt", (a, b), BOOL)


def le(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return a <= b  # type: ignore[operator]
    if a is b and sort_of(a) != FLOAT:
        return True
    if FLOAT in (sort_of(a), sort_of(b)) and (quotient := _quotient_compare("le", a, b)) is not None:
        return quotient
    if sort_of(a) != sort_of(b) and (mixed := _mixed("le", a, b)) is not None:
        return mixed
    if sort_of(a) == STR:
        if _char_like(a) and _char_like(b):
            return le(_code(a), _code(b))
        return make("str_le", (a, b), BOOL)
    return make("le", (a, b), BOOL)


# ---------------------------------------------------------------- strings


def concat(a: Arg, b: Arg) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return str(a) + str(b)
    if a == "":
        return b
    if b == "":
        return a
    return make("concat", (a, b), STR)


def str_len(s: Arg) -> Arg:
    if not isinstance(s, Term):
        return len(str(s))
    if _literal_choice(s):  # ``char_at`` of a literal: the length of each (equal lengths fold)
        return ite(s.args[0], str_len(s.args[1]), str_len(s.args[2]))
    if _has_literal_choice(s):  # a concatenation with such a choice: the sum of the lengths
        return add(str_len(s.args[0]), str_len(s.args[1]))
    return make("len", (s,), INT)


@functools.lru_cache(maxsize=4096)  # terms hash by identity; asked again and again on one term by eq and str_len
def _has_literal_choice(s: Arg) -> bool:
    """``s`` is a concatenation one of whose parts is (or holds) a choice among literals."""
    return isinstance(s, Term) and s.op == "concat" and any(_literal_choice(p) and isinstance(p, Term) or _has_literal_choice(p) for p in s.args)


@functools.lru_cache(maxsize=4096)
def _literal_choice(s: Arg) -> bool:
    """``s`` is an ``ite`` whose leaves are all str literals."""
    return not isinstance(s, Term) or (s.op == "ite" and _literal_choice(s.args[1]) and _literal_choice(s.args[2]))


SHORT_LITERAL = 64  # a literal str this long or shorter is indexed and searched case by case


def char_at(s: Arg, i: Arg) -> Arg:
    """``s[i]`` for ``0 <= i < len(s)`` (the caller has checked the bounds). In a short literal
    at a symbolic index: the choice among its characters (``ite`` on ``i``; "" past its end,
    as ``at``): Z3 took 8.6 s to refute ``not ascii_lowercase[(k + j) % 26].isalpha()`` with
    ``at`` of the constant, which the choice makes a constant of each case."""
    if not isinstance(s, Term) and not isinstance(i, Term):
        return str(s)[int(i)]
    if not isinstance(s, Term) and len(str(s)) <= SHORT_LITERAL:
        text = str(s)
        chosen: Arg = ""
        for j in range(len(text) - 1, -1, -1):
            chosen = ite(eq(i, j), text[j], chosen)
        return chosen
    return make("at", (s, i), STR)


def py_substr(s: str, start: int, count: int) -> str:
    """SMT-LIB's ``str.substr``: ``count`` characters of ``s`` from ``start`` (fewer at its
    end), the empty string when ``start`` is negative or ``count`` is not positive."""
    return s[start : start + count] if start >= 0 and count > 0 else ""


def substr(s: Arg, start: Arg, count: Arg) -> Arg:
    """``s[start:start + count]`` for ``0 <= start`` (see ``py_substr`` for the other cases)."""
    if not isinstance(s, Term) and not isinstance(start, Term) and not isinstance(count, Term):
        return py_substr(str(s), int(start), int(count))
    whole = isinstance(count, Term) and count.op == "len" and count.args[0] is s
    if whole and not isinstance(start, Term) and start == 0:
        return s
    return make("substr", (s, start, count), STR)


def contains(haystack: Arg, needle: Arg) -> Arg:
    if not isinstance(haystack, Term) and not isinstance(needle, Term):
        return str(needle) in str(haystack)
    if not isinstance(haystack, Term) and isinstance(needle, Term) and needle.op in ("at", "from_code") and len(set(str(haystack))) <= 64:
        # one character (``s[i]``, ``chr(i)`` are never empty on their domain): one of the
        # literal's characters
        found: Arg = False
        for char in sorted(set(str(haystack))):
            found = or_(found, eq(needle, char))
        return found
    if not isinstance(haystack, Term) and len(str(haystack)) <= 16:
        # a symbolic needle in a short literal: one of finitely many substrings (fast for Z3)
        text = str(haystack)
        subs = sorted({text[i:j] for i in range(len(text) + 1) for j in range(i, len(text) + 1)}, key=lambda x: (len(x), x))
        result: Arg = False
        for sub in subs:
            result = or_(result, eq(needle, sub))
        return result
    return make("contains", (haystack, needle), BOOL)


def prefix_of(prefix: Arg, s: Arg) -> Arg:
    """``s.startswith(prefix)``."""
    return _affix("prefixof", prefix, s, str.startswith)


def suffix_of(suffix: Arg, s: Arg) -> Arg:
    """``s.endswith(suffix)``."""
    return _affix("suffixof", suffix, s, str.endswith)


def _affix(op: str, part: Arg, s: Arg, test: Callable[[str, str], bool]) -> Arg:
    if not isinstance(part, Term) and not isinstance(s, Term):
        return test(str(s), str(part))
    if not isinstance(part, Term) and str(part) == "":
        return True
    return make(op, (part, s), BOOL)


def index_of(s: Arg, sub: Arg) -> Arg:
    """``s.find(sub)``: the lowest index of ``sub`` in ``s``, -1 when it is not there (0 for
    the empty ``sub``)."""
    if not isinstance(s, Term) and not isinstance(sub, Term):
        return str(s).find(str(sub))
    if not isinstance(s, Term) and isinstance(sub, Term) and sub.op in ("at", "from_code") and len(str(s)) <= SHORT_LITERAL:
        # one character or none (``s[i]``, ``chr(i)``) in a short literal: where it first is
        text = str(s)
        found: Arg = -1
        for char in sorted(set(text), key=text.index, reverse=True):
            found = ite(eq(sub, char), text.index(char), found)
        return ite(eq(sub, ""), 0, found)
    return make("indexof", (s, sub), INT)


def int_str(i: Arg) -> Arg:
    """``str(i)`` of an int: its decimal digits, ``-`` first when negative (the caller has
    checked that CPython's limit on the number of digits is not exceeded)."""
    if not isinstance(i, Term):
        return str(int(i))
    return make("int_str", (i,), STR)


def str_class(s: Arg, method: str) -> Arg:
    """``s.method()`` for a character-class test of ``char_classes.METHODS`` (``isdigit``,
    ``isalpha``, ``islower``...): CPython's answer (the method's name is a constant argument)."""
    if not isinstance(s, Term):
        return bool(getattr(str(s), method)())
    if s.op == "ite":  # a choice of strs (``char_at`` of a literal): the test of each
        return ite(s.args[0], str_class(s.args[1], method), str_class(s.args[2], method))
    if s.op == "concat" and (method == "isascii" or method in ALL_OF):  # the test of each part
        a, b = s.args
        if method == "isascii":  # True of ""
            return and_(str_class(a, method), str_class(b, method))
        a_empty, b_empty = eq(str_len(a), 0), eq(str_len(b), 0)  # the others are False of ""
        return and_(and_(or_(a_empty, str_class(a, method)), or_(b_empty, str_class(b, method))), not_(and_(a_empty, b_empty)))
    return make("str_class", (s, method), BOOL)


def to_code(s: Arg) -> Arg:
    """``ord(s)`` for a string of length one (the caller has checked the length)."""
    if not isinstance(s, Term):
        return ord(str(s))
    return make("to_code", (s,), INT)


def from_code(i: Arg) -> Arg:
    """``chr(i)`` for ``0 <= i <= MAX_CODE`` (the caller has checked the range)."""
    if not isinstance(i, Term):
        return chr(int(i))
    return make("from_code", (i,), STR)


# ---------------------------------------------------------------- floats


def _float_ieee_div(a: float, b: float) -> float:
    """IEEE ``a / b`` (CPython raises on a zero divisor instead; off the operator's domain)."""
    if b != 0.0:
        return a / b
    if math.isnan(a) or a == 0.0:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _float_binary(op: str, a: Arg, b: Arg, fold: Callable[[float, float], float]) -> Arg:
    if not isinstance(a, Term) and not isinstance(b, Term):
        return fold(float(a), float(b))
    return make(op, (a, b), FLOAT)


def fadd(a: Arg, b: Arg) -> Arg:
    return _float_binary("fadd", a, b, lambda x, y: x + y)


def fsub(a: Arg, b: Arg) -> Arg:
    return _float_binary("fsub", a, b, lambda x, y: x - y)


def fmul(a: Arg, b: Arg) -> Arg:
    return _float_binary("fmul", a, b, lambda x, y: x * y)


def fdiv(a: Arg, b: Arg) -> Arg:
    """``a / b`` of floats; the caller has excluded a zero divisor (CPython raises)."""
    return _float_binary("fdiv", a, b, _float_ieee_div)


def itruediv(a: Arg, b: Arg) -> Arg:
    """``a / b`` of two ints, correctly rounded (CPython's int true division); the caller has
    checked ``b != 0`` and ``abs(a), abs(b) <= 2**53``.

    On that domain the float is an integer exactly when the quotient ``q`` is, and otherwise
    lies strictly between the same two consecutive integers as ``q``: if ``n < q < n + 1``,
    then ``|a| > n * |b|`` and ``|b| >= 1`` leave ``q`` at least ``1/|b|`` from either
    integer, more than half the spacing of the floats there (``|a| <= 2**53``), so rounding
    reaches neither. Its floor, ceiling, truncation and comparisons with ints are therefore
    those of ``q``, stated on ints (``_quotient_compare``, ``semantics.floats.to_int``)
    without floating point."""
    if not isinstance(a, Term) and not isinstance(b, Term):
        try:
            return int(a) / int(b)
        except (ZeroDivisionError, OverflowError):  # off the domain (a model off its guard)
            return _float_ieee_div(_int_to_float(int(a)), float(int(b)))
    if a is b:
        return 1.0
    return make("itruediv", (a, b), FLOAT)


def fneg(a: Arg) -> Arg:
    if not isinstance(a, Term):
        return -float(a)
    if a.op == "fneg":
        return a.args[0]
    return make("fneg", (a,), FLOAT)


def fabs(a: Arg) -> Arg:
    if not isinstance(a, Term):
        return abs(float(a))
    return make("fabs", (a,), FLOAT)


def _sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0.0 or math.isnan(x) else math.nan


def fsqrt(a: Arg) -> Arg:
    """``math.sqrt`` of a float; the caller has excluded ``a < 0`` (CPython raises)."""
    if not isinstance(a, Term):
        return _sqrt(float(a))
    return make("fsqrt", (a,), FLOAT)


def _int_to_float(i: int) -> float:
    try:
        return float(i)
    except OverflowError:
        return math.inf if i > 0 else -math.inf


def i2f(i: Arg) -> Arg:
    """``float(i)`` of an int, correctly rounded; the caller has checked
    ``abs(i) < FLOAT_OVERFLOW`` (CPython raises OverflowError beyond)."""
    if not isinstance(i, Term):
        return _int_to_float(int(i))
    return make("i2f", (i,), FLOAT)


def _float_to_int(f: float) -> int:
    return int(f) if math.isfinite(f) else 0


def f2i(f: Arg) -> Arg:
    """``int(f)`` (truncation toward zero); the caller has checked that ``f`` is finite."""
    if not isinstance(f, Term):
        return _float_to_int(float(f))
    return make("f2i", (f,), INT)


def fisnan(f: Arg) -> Arg:
    if not isinstance(f, Term):
        return math.isnan(float(f))
    return make("fisnan", (f,), BOOL)


def fisinf(f: Arg) -> Arg:
    if not isinstance(f, Term):
        return math.isinf(float(f))
    return make("fisinf", (f,), BOOL)


def fsame(a: Arg, b: Arg) -> Arg:
    """Whether two floats are the same value: the same bit pattern, or both NaN."""
    if not isinstance(a, Term) and not isinstance(b, Term):
        return same_const(float(a), float(b))
    if a is b:
        return True
    return make("fsame", (a, b), BOOL)


# Z3's string theory ranges over code points up to this value; chr beyond it is cut.
MAX_CODE = 0x2FFFF


def postorder(root: Term, skip: Container[Term] = ()) -> list[Term]:
    """The distinct subterms of ``root`` (itself included) that are not in ``skip``, each
    after its term arguments. Iterative: a term may be far deeper than Python's recursion
    limit (a loop adds a level per iteration), so no walk over terms recurses on depth."""
    order: list[Term] = []
    seen: set[Term] = set()
    stack: list[tuple[Term, bool]] = [(root, False)]
    while stack:
        term, expanded = stack.pop()
        if expanded:
            order.append(term)
            continue
        if term in seen or term in skip:
            continue
        seen.add(term)
        stack.append((term, True))
        stack.extend((a, False) for a in reversed(term.args) if isinstance(a, Term) and a not in seen)
    return order


def symbols(term: Arg) -> frozenset[Term]:
    """The input symbols a term mentions (memoized per term)."""
    if not isinstance(term, Term):
        return frozenset()
    cache = _symbols_cache
    for t in postorder(term, cache):
        if t.op == "sym":
            cache[t] = frozenset({t})
        else:
            cache[t] = frozenset().union(*(cache[a] for a in t.args if isinstance(a, Term)))
    return cache[term]


_symbols_cache: weakref.WeakKeyDictionary[Term, frozenset[Term]] = weakref.WeakKeyDictionary()
