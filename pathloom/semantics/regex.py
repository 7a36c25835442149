"""``re.fullmatch``, ``re.match`` and ``re.search`` of a literal pattern on a symbolic str, as
membership in the pattern's regular language (``terms.regex_lang``).

A call ``re.<mode>(P, s[, flags])`` (``flags`` also as a keyword), or ``X.<mode>(s)`` of a
compiled pattern ``X`` (a module-level ``re.compile(P, flags)``; no ``pos``/``endpos``), with
``P`` a str constant, ``flags`` a constant and ``s`` a str term, splits the path on the term
``re_member(s, P, flags, mode)`` when ``regex_lang`` models the pattern:

- not a member: the call returns None, symbolically, for every such ``s`` (no pinning);
- a member: the call runs in CPython on pinned values of ``s`` (``run_concretely`` under the
  membership), which yields the real ``Match`` object, so ``m.group(1)``, ``m.span()``... are
  CPython's.

Any other call (a pattern outside the subset, a symbolic pattern, other arguments) returns
None here and runs in CPython on pinned values as before.

Invariant: each case is what CPython's call gives on every input of the case: the
membership term is true exactly when CPython finds a match (``regex_lang``'s invariant), and
the member case is CPython's own call on the pinned values.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pathloom.domain.outcome import Ok, Outcome, split
from pathloom.domain.values import PyObj
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.terms import expr as T
from pathloom.terms import regex_lang as RL

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

Kwargs = tuple[tuple[str, object], ...]
_FUNCTIONS = {id(getattr(re, mode)): mode for mode in RL.MODES}


def _flags(value: object) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _pattern(value: object) -> tuple[str, int] | None:
    """A str constant, or a compiled pattern of a str (its text and flags)."""
    if isinstance(value, str):
        return value, 0
    if isinstance(value, PyObj) and isinstance(value.obj, re.Pattern) and isinstance(value.obj.pattern, str):
        return value.obj.pattern, value.obj.flags
    return None


def recognise(fn: object, args: tuple[object, ...], kwargs: Kwargs) -> tuple[str, int, str, T.Term] | None:
    """(pattern, flags, mode, subject) of a call this module models, else None."""
    mode = _FUNCTIONS.get(id(fn))
    if mode is not None and getattr(re, mode) is fn:
        given = dict(kwargs)
        if len(args) == 3 and not given:
            flags = _flags(args[2])
        elif len(args) == 2 and set(given) <= {"flags"}:
            flags = _flags(given.get("flags", 0))
        else:
            return None
        found = _pattern(args[0]) if len(args) >= 2 else None
        if found is None or flags is None or (flags and not isinstance(args[0], str)):
            return None  # a compiled pattern with flags is CPython's ValueError
        pattern, subject = (found[0], found[1] | flags), args[1]
    else:
        owner = getattr(fn, "__self__", None)
        name = getattr(fn, "__name__", "")
        if not isinstance(owner, re.Pattern) or not isinstance(owner.pattern, str) or name not in RL.MODES or len(args) != 1 or kwargs:
            return None
        pattern, mode, subject = (owner.pattern, owner.flags), name, args[0]
    if not isinstance(subject, T.Term) or subject.sort != T.STR:
        return None
    return pattern[0], pattern[1], mode, subject


def call(module: Module, heap: HeapView, fn: object, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``fn(*args, **kwargs)`` for a real callable ``fn``, modelled as the module docstring
    says; None when it is not such a call."""
    found = recognise(fn, args, kwargs)
    if found is None:
        return None
    pattern, flags, mode, subject = found
    if RL.automaton(pattern, flags, mode) is None:
        return None
    member = RL.member(subject, pattern, flags, mode)
    return split(
        [
            (T.not_(member), Ok(None)),
            (member, run_concretely(module, heap, f"re.{mode}()", fn, args, kwargs, where=member)),  # type: ignore[arg-type]
        ]
    )
