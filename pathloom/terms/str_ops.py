"""Terms of str operations whose other arguments are literals of the program, and ``int(s)``'s
building blocks (factories beside ``expr``'s, the same invariants: they fold concrete
arguments, and each operator has CPython's meaning on the domain the semantics layer uses it).

- ``str_to_int``: SMT-LIB's ``str.to_int`` (ASCII digits, else -1); ``int_syntax``: whether
  CPython's ``int`` accepts the string in base 10 (``char_classes.int_syntax``);
- ``replace(s, old, new)``, ``count(s, sub)``: CPython's, for a non-empty literal ``old``/``sub``
  (occurrences left to right, not overlapping);
- ``strip_count(s, side, chars)``: how many characters ``lstrip``/``rstrip`` removes;
- ``ascii_case(s, to)``: ASCII letters mapped to lower or upper case, every other character
  kept: CPython's ``lower``/``upper`` exactly on ASCII strings (the semantics layer splits on
  ``isascii``).

``alphabet(s)`` tells from a term's construction which characters it can hold (the digits and
``-`` for ``str(n)``, kept by slicing, indexing, concatenation and choice), or None;
``max_length(s)`` how long it can be (a slice of at most 3 characters, a character), or None.
"""

from __future__ import annotations

from pathloom.terms import char_classes
from pathloom.terms.expr import BOOL, INT, STR, Arg, Term, make


def py_str_to_int(s: str) -> int:
    """SMT-LIB's ``str.to_int``: the value of a non-empty string of ASCII digits ``0``-``9``
    (any length: no digit limit), -1 for every other string."""
    if not s or not all("0" <= c <= "9" for c in s):
        return -1
    n = 0
    for i in range(0, len(s), 4000):  # CPython converts at most 4300 digits at a time
        part = s[i : i + 4000]
        n = n * 10 ** len(part) + int(part)
    return n


def str_to_int(s: Arg) -> Arg:
    """SMT-LIB's ``str.to_int`` of ``s`` (see ``py_str_to_int``): the semantics layer builds
    ``int(s)`` from it on strings it has checked are ASCII digits."""
    if not isinstance(s, Term):
        return py_str_to_int(str(s))
    return make("str_to_int", (s,), INT)


def int_syntax(s: Arg) -> Arg:
    """Whether ``s`` is a base-10 numeral CPython's ``int`` accepts (whitespace, sign, digits
    and single underscores between them; ``char_classes.int_syntax``)."""
    if not isinstance(s, Term):
        return char_classes.int_syntax(str(s))
    return make("int_syntax", (s,), BOOL)


def replace(s: Arg, old: str, new: str) -> Arg:
    """``s.replace(old, new)`` for a literal non-empty ``old`` and a literal ``new``: every
    occurrence, left to right, not overlapping (an empty ``old`` is the semantics layer's)."""
    assert old, "replace of an empty string"
    if not isinstance(s, Term):
        return str(s).replace(old, new)
    if old == new:
        return s
    return make("replace", (s, old, new), STR)


def count(s: Arg, sub: str) -> Arg:
    """``s.count(sub)`` for a literal non-empty ``sub``: the occurrences ``replace`` replaces."""
    assert sub, "count of an empty string"
    if not isinstance(s, Term):
        return str(s).count(sub)
    return make("count", (s, sub), INT)


def py_strip_count(s: str, side: str, chars: str) -> int:
    """How many characters ``s.lstrip(chars)`` (``side`` "l") or ``s.rstrip(chars)`` ("r")
    removes; ``chars`` "" stands for whitespace (``str.isspace``: the no-argument form;
    stripping nothing is the identity, never a term)."""
    kept = (s.lstrip if side == "l" else s.rstrip)(chars or None)
    return len(s) - len(kept)


def strip_count(s: Arg, side: str, chars: str) -> Arg:
    """See ``py_strip_count``."""
    if not isinstance(s, Term):
        return py_strip_count(str(s), side, chars)
    return make("strip_count", (s, side, chars), INT)


def py_ascii_case(s: str, to: str) -> str:
    """``s`` with ASCII letters only mapped to lower (``to`` "lower") or upper case: CPython's
    ``s.lower()``/``s.upper()`` exactly when ``s`` is ASCII."""
    if to == "lower":
        return s.translate(_TO_LOWER)
    return s.translate(_TO_UPPER)


_TO_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_TO_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}


def ascii_case(s: Arg, to: str) -> Arg:
    """See ``py_ascii_case``."""
    if not isinstance(s, Term):
        return py_ascii_case(str(s), to)
    return make("ascii_case", (s, to), STR)


_DIGITS_AND_MINUS = frozenset("-0123456789")


def alphabet(s: Arg) -> frozenset[str] | None:
    """The characters ``s`` can contain, from how it was built (``str(n)``, literals, and the
    concatenation, choice, indexing and slicing of these), or None when that says nothing
    (a symbol, or an operation not followed)."""
    try:
        return _alphabet(s, {})
    except RecursionError:
        return None


def _alphabet(s: Arg, memo: dict[Term, frozenset[str] | None]) -> frozenset[str] | None:
    if not isinstance(s, Term):
        return frozenset(s) if isinstance(s, str) else None
    if s in memo:
        return memo[s]
    found: frozenset[str] | None = None
    if s.op == "int_str":
        found = _DIGITS_AND_MINUS
    elif s.op in ("at", "substr"):
        found = _alphabet(s.args[0], memo)
    elif s.op in ("concat", "ite", "replace"):
        parts = [s.args[1], s.args[2]] if s.op == "ite" else [s.args[0], s.args[2]] if s.op == "replace" else list(s.args)
        found = frozenset()
        for part in parts:
            chars = _alphabet(part, memo)
            if chars is None:
                found = None
                break
            found |= chars
    memo[s] = found
    return found


def max_length(s: Arg) -> int | None:
    """An upper bound of ``len(s)`` from how ``s`` was built (literals, characters, slices of
    a constant count, and their concatenations and choices), or None (Z3 could not refute
    ``len('-' + str(n)[:3]) > 4300`` within 10 s)."""
    try:
        return _max_length(s, {})
    except RecursionError:
        return None


def _max_length(s: Arg, memo: dict[Term, int | None]) -> int | None:
    if not isinstance(s, Term):
        return len(s) if isinstance(s, str) else None
    if s in memo:
        return memo[s]
    found: int | None = None
    if s.op == "at":
        found = 1
    elif s.op == "substr":
        whole, count = _max_length(s.args[0], memo), _max_int(s.args[2])
        found = count if whole is None else whole if count is None else min(whole, count)
    elif s.op in ("concat", "ite"):
        parts = [_max_length(part, memo) for part in (s.args[1:] if s.op == "ite" else s.args)]
        if all(part is not None for part in parts):
            found = sum(parts) if s.op == "concat" else max(parts)  # type: ignore[arg-type,type-var]
    memo[s] = found
    return found


def _max_int(n: Arg) -> int | None:
    """An upper bound of an int term that is a constant or a choice of constants and terms
    bounded by one (``len(t) if len(t) <= 3 else 3``), or None."""
    if isinstance(n, bool) or not isinstance(n, (int, Term)):
        return None
    if isinstance(n, int):
        return n
    if n.op == "ite":
        cond, then, orelse = n.args
        if isinstance(cond, Term) and cond.op == "le" and cond.args[0] == then and isinstance(cond.args[1], int):
            bound = _max_int(orelse)
            return None if bound is None else max(cond.args[1], bound)  # then <= the constant there
        a, b = _max_int(then), _max_int(orelse)
        return None if a is None or b is None else max(a, b)
    return None
