"""Lemmas tying a whole-string character-class test to the characters a query indexes.

``s.isascii()`` (and ``isdigit``, ``isalpha``...) of a whole string is a recursive function in
the Z3 encoding (``terms.z3_encode``), while ``s[i].isascii()`` of one character is a range
test on its code. Z3 relates the two only by unfolding the function along the string: a loop
over ``name`` asked ``name.isascii() and not name[2].isascii()``, which Z3 took 4.9 s to refute
(6.6 s and ``unknown`` with more characters tested). With the lemma
``name.isascii() and 0 <= 2 < len(name) -> name[2].isascii()`` asserted beside it the answer took
0.05 s. This module states that lemma for every pair of a whole-string class test and a
character ``at(s, i)`` of the same string in the query.

A second lemma narrows a character's class to ASCII where the query also says the character
is ASCII: ``name[i].isupper() and name[i].isascii() -> 65 <= ord(name[i]) <= 90`` (and the
same with ``name.isascii() and 0 <= i < len(name)`` as the second premise). ``isupper`` alone is 650
ranges of code points; refuting ``'__' in name[0].lower() + '_' + name[1].lower()`` for two
uppercase ASCII characters took Z3 12.5 s without it and 0.3 s with it.

Invariant: every lemma is valid (true under every assignment, by the meaning of the class
tests: a string is in the class when each of its characters is), so asserting it never
changes a query's answer, only how soon Z3 finds it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from pathloom.terms import char_classes
from pathloom.terms import expr as T
from pathloom.terms.expr import Term, postorder

_PER_CHARACTER = frozenset(char_classes.ALL_OF + ("isascii",))  # a string is in it when each character is
_NARROWED = frozenset(char_classes.ALL_OF + ("islower", "isupper"))  # one character's test, narrowed to ASCII


@functools.cache
def _ascii_ranges(method: str) -> char_classes.Ranges | None:
    """The code points below 128 of the one-character test ``method``."""
    if method in char_classes.ALL_OF:
        ranges = char_classes.char_set(method)
    else:
        sets = char_classes.case_sets(method)
        if sets is None:
            return None
        ranges = sets[0]
    return tuple((lo, min(hi, 127)) for lo, hi in ranges if lo <= 127)


def char_lemmas(constraints: Iterable[Term]) -> list[Term]:
    """``F(s) and 0 <= i < len(s) -> F(s[i])`` for each whole-string test ``F(s)`` and each
    ``s[i]`` (an ``at`` term) of the constraints."""
    tests: dict[Term, list[Term]] = {}  # string -> its class tests
    indexed: dict[Term, list[Term]] = {}  # string -> its characters
    seen: set[Term] = set()
    for c in constraints:
        for t in postorder(c, seen):
            seen.add(t)
            if t.op == "str_class" and t.args[1] in _PER_CHARACTER and isinstance(t.args[0], Term) and t.args[0].op != "at":
                tests.setdefault(t.args[0], []).append(t)
            elif t.op == "at" and isinstance(t.args[0], Term):
                indexed.setdefault(t.args[0], []).append(t)
    lemmas: list[Term] = []
    for chars in indexed.values():
        for char in dict.fromkeys(chars):
            lemmas += _narrowed(char, tests, seen)
    for s, found in tests.items():
        for test in found:
            for char in indexed.get(s, ()):
                premise = T.and_(test, _within(char.args[1], s))
                lemma = T.or_(T.not_(premise), T.str_class(char, str(test.args[1])))
                if isinstance(lemma, Term):
                    lemmas.append(lemma)
    return lemmas


def _within(index: T.Arg, string: T.Arg) -> T.Arg:
    """``0 <= index < len(string)``: ``s[i]`` is a character of ``s`` (``at`` is "" elsewhere)."""
    return T.and_(T.le(0, index), T.lt(index, T.str_len(string)))


def _narrowed(char: Term, tests: dict[Term, list[Term]], seen: set[Term]) -> list[Term]:
    """``m(c) and <c is ASCII> -> ord(c) in (m's set below 128)`` for each class test ``m`` of
    the character ``c`` (``s[i]``) in the query, with ``c.isascii()`` and with ``s.isascii() and
    i < len(s)`` as the premise that it is ASCII, each where the query has it."""
    string, index = char.args
    ascii_premises: list[Term] = []
    own = T.str_class(char, "isascii")
    if isinstance(own, Term) and own in seen:
        ascii_premises.append(own)
    whole = T.str_class(string, "isascii")
    if isinstance(whole, Term) and whole in tests.get(string, ()):  # type: ignore[arg-type]
        premise = T.and_(whole, _within(index, string))
        if isinstance(premise, Term):
            ascii_premises.append(premise)
    lemmas: list[Term] = []
    if not ascii_premises:
        return lemmas
    for method in sorted(_NARROWED):
        test = T.str_class(char, method)
        if not (isinstance(test, Term) and test in seen):
            continue
        ranges = _ascii_ranges(method)
        if ranges is None:
            continue
        code = T.to_code(char)
        inside: T.Arg = False
        for lo, hi in ranges:
            inside = T.or_(inside, T.and_(T.le(lo, code), T.le(code, hi)))
        for ascii_ in ascii_premises:
            lemma = T.or_(T.not_(T.and_(test, ascii_)), inside)
            if isinstance(lemma, Term):
                lemmas.append(lemma)
    return lemmas
