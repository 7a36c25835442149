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
