"""CPython's character-class tests of ``str`` (``isdigit``, ``isalpha``, ``islower``...) as
regular languages over code points, for the Z3 encoding of the ``str_class`` term.

Invariant: for every string ``s`` whose code points are at most ``MAX_CODE`` (every string Z3
can build), ``s`` is in ``language(name)`` exactly when CPython's ``s.name()`` is true. The
sets of code points are read from CPython itself (each code point tested once, on first
use), so they are the running interpreter's Unicode tables, not a copy:

- ``isdigit``, ``isdecimal``, ``isnumeric``, ``isalpha``, ``isalnum``, ``isspace``: one or
  more characters, each in the method's set (CPython tests every character with the
  one-character predicate; the empty string is false);
- ``isascii``: zero or more characters below 128 (the empty string is true);
- ``islower``: no character that blocks (``c.istitle()``: upper or title case), at least one
  lowercase character (``c.islower()``); ``isupper`` alike with lowercase and title-case
  characters blocking. CPython answers a one-character string with the predicate alone;
  the two agree because no character is both in the set and among the blockers, which
  ``language`` checks on the tables before it states either (None otherwise: not modelled).

``int(s)`` of a str in base 10 (``INT_SYNTAX``): CPython accepts whitespace, an optional sign,
decimal digits with single underscores between them, and whitespace; ``int_spaces`` and
``int_digits`` are the code points ``int`` itself accepts as the whitespace and as a digit
(read by calling ``int`` on each code point: the ASCII whitespace is only `` \t\n\v\f\r``,
``\x1c``-``\x1f`` are refused, every non-ASCII ``isspace`` character is accepted). For a string
of at most ``sys.get_int_max_str_digits()`` characters, ``int(s)`` raises its "invalid
literal" ValueError exactly when ``int_syntax(s)`` is false (a longer one may raise the limit's
ValueError first, even with a character after its digits that is not valid).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

MAX_CODE = 0x2FFFF  # the largest code point of Z3's strings (``expr.MAX_CODE``)

# classes of few ranges (every class of a whole string is a recursive function in
# ``z3_encode``; these were regular languages before, and are tested as such in
# ``tests/unit/test_char_classes.py``)
SMALL_LANGUAGES = frozenset({"isspace", "isascii"})
ALL_OF = ("isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace")
METHODS = frozenset(ALL_OF + ("isascii", "islower", "isupper"))

Ranges = tuple[tuple[int, int], ...]


def _ranges(test: Callable[[str], bool]) -> Ranges:
    found: list[tuple[int, int]] = []
    start = None
    for code in range(MAX_CODE + 2):
        inside = code <= MAX_CODE and test(chr(code))
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            found.append((start, code - 1))
            start = None
    return tuple(found)


@functools.cache
def char_set(name: str) -> Ranges:
    """The code points (as ranges) of the one-character predicate behind ``name``; for the
    case tests also ``"lower-blockers"`` and ``"upper-blockers"``."""
    if name == "lower-blockers":
        return _ranges(str.istitle)  # upper or title case: ``c.istitle()`` of one character
    if name == "upper-blockers":
        return _ranges(lambda c: c.islower() or unicodedata.category(c) == "Lt")
    return _ranges(getattr(str, name))


def _disjoint(a: Ranges, b: Ranges) -> bool:
    return all(hi < lo2 or hi2 < lo for lo, hi in a for lo2, hi2 in b)


@functools.cache
def _title_agrees() -> bool:
    """``c.istitle()`` is exactly "upper case or category Lt" for every character (the
    blockers of ``isupper`` rely on it)."""
    return all(chr(c).istitle() == (chr(c).isupper() or unicodedata.category(chr(c)) == "Lt") for c in range(MAX_CODE + 1))


def case_sets(name: str) -> tuple[Ranges, Ranges] | None:
    """For ``islower``/``isupper``: (the cased characters, the blockers), or None when the
    tables break the assumptions above."""
    cased = char_set("islower" if name == "islower" else "isupper")
    blockers = char_set("lower-blockers" if name == "islower" else "upper-blockers")
    if not _disjoint(cased, blockers) or (name == "isupper" and not _title_agrees()):
        return None
    return cased, blockers


def complement(ranges: Ranges) -> Ranges:
    """The code points up to ``MAX_CODE`` outside ``ranges`` (sorted, disjoint)."""
    out: list[tuple[int, int]] = []
    at = 0
    for lo, hi in sorted(ranges):
        if lo > at:
            out.append((at, lo - 1))
        at = max(at, hi + 1)
    if at <= MAX_CODE:
        out.append((at, MAX_CODE))
    return tuple(out)


def union(a: Ranges, b: Ranges) -> Ranges:
    return complement(complement(a + b))


def _int_accepts(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


@functools.cache
def int_spaces() -> Ranges:
    """The code points ``int`` skips around a numeral (``int(c + "1" + c)`` is accepted, and
    ``c`` is no digit)."""
    return _ranges(lambda c: _int_accepts(c + "1" + c) and not _int_accepts(c))


@functools.cache
def int_digits() -> Ranges:
    """The code points ``int`` reads as a decimal digit (``int(c)`` is accepted)."""
    return _ranges(_int_accepts)


def _pattern_class(ranges: Ranges) -> str:
    return "[" + "".join(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges) + "]"


@functools.cache
def int_syntax_pattern() -> re.Pattern[str]:
    """CPython's base-10 ``int`` syntax as a Python regular expression (``INT_SYNTAX``)."""
    space, digit = _pattern_class(int_spaces()), _pattern_class(int_digits())
    return re.compile(f"{space}*[+-]?{digit}(?:_?{digit})*{space}*")


def int_syntax(text: str) -> bool:
    """Whether ``text`` is a base-10 numeral ``int`` accepts (the limit on digits aside)."""
    return int_syntax_pattern().fullmatch(text) is not None
