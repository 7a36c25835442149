"""Symbolic models of ``str`` methods: ``startswith``, ``endswith``, ``find``, ``index`` and
the character-class tests (``isdigit``, ``isdecimal``, ``isnumeric``, ``isalpha``,
``isalnum``, ``isspace``, ``isascii``, ``islower``, ``isupper``: one ``str_class`` term over
CPython's own tables, see ``terms.char_classes``) of one character (``s[i]``, ``chr(i)``: Z3
compares its code point with the class's ranges), and ``isspace``/``isascii`` of any string (a
regular language of few ranges). The other classes have 60 to 730 ranges of code points: as
regular languages over a whole string Z3 took seconds or did not answer, so those run in
CPython on pinned values.

Each is one term over the receiver and its argument (Z3's ``str.prefixof``, ``str.suffixof``
and ``str.indexof`` from 0, whose meaning is Python's, the empty string included; the terms
are checked against both in ``tests/unit/test_terms.py``). ``startswith``/``endswith`` take a
str or a tuple of strs (any of them); ``index`` is ``find`` with CPython's ValueError where
``find`` gives -1. Start and end arguments, keyword arguments and arguments of other types
return None: the caller runs CPython's method on pinned values (concretization), which also
gives CPython's TypeError for a wrong argument.

Invariant: a model here answers only with what CPython's method returns or raises.
"""

from __future__ import annotations

from typing import cast

from pathloom.semantics.ops import kind
from pathloom.domain.outcome import Ok, Outcome, split, throw
from pathloom.terms import char_classes
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg

Kwargs = tuple[tuple[str, object], ...]


def call_method(s: object, name: str, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``s.name(*args)`` for the str ``s``, modelled; else None."""
    if not args and not kwargs and name in char_classes.METHODS and isinstance(s, T.Term):
        if name in ("islower", "isupper") and char_classes.case_sets(name) is None:
            return None
        if s.op in ("at", "from_code") or name in char_classes.SMALL_LANGUAGES:
            return Ok(T.str_class(s, name))
        return None  # a longer string and a large class: Z3's regular languages are too slow
    if kwargs or len(args) != 1:
        return None
    arg = args[0]
    if name in ("startswith", "endswith"):
        parts = arg if isinstance(arg, tuple) else (arg,)
        if not parts and isinstance(arg, tuple):
            return Ok(False)  # "".startswith(()) is False
        if any(kind(p) != "str" for p in parts):
            return None
        test = T.prefix_of if name == "startswith" else T.suffix_of
        found: Arg = False
        for part in parts:  # each a str or Str term, as s
            found = T.or_(found, test(cast(Arg, part), cast(Arg, s)))
        return Ok(found)
    if name in ("find", "index") and kind(arg) == "str":
        at = T.index_of(cast(Arg, s), cast(Arg, arg))  # strs or Str terms
        if name == "find":
            return Ok(at)
        missing = T.eq(at, -1)
        return split([(missing, throw("ValueError", "substring not found")), (T.not_(missing), Ok(at))])
    return None
