"""``re.fullmatch``, ``re.match`` and ``re.search`` of a literal pattern on a symbolic str, as
membership in the pattern's regular language (``terms.regex_lang``), and the groups of the
match where they are determined (``terms.regex_groups``).

A call ``re.<mode>(P, s[, flags])`` (``flags`` also as a keyword), or ``X.<mode>(s)`` of a
compiled pattern ``X`` (a module-level ``re.compile(P, flags)``; no ``pos``/``endpos``), with
``P`` a str constant, ``flags`` a constant and ``s`` a str term, splits the path on the term
``re_member(s, P, flags, mode)`` when ``regex_lang`` models the pattern:

- not a member: the call returns None, for every such ``s`` (no pinning);
- a member: the call returns a ``MatchVal``, the match object as a value of the analysis:
  ``m is None`` is false and ``m`` is true without pinning anything; ``m.group(g)`` (several
  groups, names, 0), ``m[g]``, ``m.groups()``, ``m.start(g)``, ``m.end(g)`` and ``m.span(g)`` of a
  ``fullmatch`` or ``match`` are substrings and positions of ``s`` (terms) for the top-level
  groups whose spans ``regex_groups.spans`` determines (group 0 of a ``match`` only starts
  at 0: where it ends is sre's choice); any other use (``m.string``, ``m.groupdict()``, a group
  ``spans`` does not determine, passing ``m`` on, returning it) makes the real ``Match`` in
  CPython on pinned values of ``s`` (``concretize``: ``MatchVal.rebuild``).

Any other call (a pattern outside the subset, a symbolic pattern, other arguments) returns
None here and runs in CPython on pinned values as before.

When every string the pattern fully matches is a sign and ASCII digits
(``regex_lang.ascii_integers_only``), the membership also states the consequence ``int(s)``'s
model asks about (``_int_digits``): valid, so the split means the same, and Z3 no longer
takes seconds to refute ``int(s)``'s other cases after ``re.fullmatch(r"[+-]?[0-9]+", s)``.
Reading a group adds the same for every group whose strings are ASCII integers or ``int``'s
syntax (``\\d+``), each a disjunction with the non-membership (``_group_lemmas``).

Invariant: each case is what CPython's call gives on every input of the case: the
membership term is true exactly when CPython finds a match (``regex_lang``'s invariant), the
group terms are CPython's spans on every matching ``s`` (``regex_groups``' invariant), and the
rest is CPython's own object on the pinned values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeGuard

from pathloom.domain.outcome import Ok, Outcome, split
from pathloom.domain.values import MatchVal, PyObj
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.terms import expr as T
from pathloom.terms import regex_groups as RG
from pathloom.terms import regex_lang as RL
from pathloom.terms import str_ops as SO
from pathloom.terms.expr import Arg

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
    if RL.ascii_integers_only(pattern, flags, mode):
        member = T.and_(member, _int_digits(subject))
    return split([(T.not_(member), Ok(None)), (member, Ok(MatchVal(pattern, flags, mode, subject)))])


def _int_digits(s: Arg) -> Arg:
    """A consequence of ``s`` being a sign and ASCII digits, stated as ``int(s)``'s model
    (``strings.int_of_str``) states the condition of its symbolic case, so that Z3 sees the
    same term: the digits after the sign read as a number (not -1). Valid, hence added to the
    membership without changing its meaning; without it Z3 took 8 s to refute ``int(s)``'s other
    cases after ``re.fullmatch(r"[+-]?[0-9]+", s)``."""
    size = T.str_len(s)
    signed = T.or_(T.prefix_of("-", s), T.prefix_of("+", s))
    return T.le(0, SO.str_to_int(T.ite(signed, T.substr(s, 1, T.sub(size, 1)), s)))


def _group_lemmas(m: MatchVal) -> Arg:
    """For each group whose strings are all ASCII integers, or all ``int``'s syntax (``\\d+``),
    what ``int()``'s model asks about it (``_int_digits``, ``int_syntax``), as the same terms.
    Each holds wherever ``m``'s string matches (the group is then a string of its items), so
    the path condition means the same with them (the membership is the first disjunct)."""
    shape = RG.spans(m.pattern, m.flags, m.mode)
    assert shape is not None
    member = RL.member(m.string, m.pattern, m.flags, m.mode)
    _, trees = RG.segments(m.pattern, m.flags, m.mode)
    edges = sorted({0, shape.size} | {j for pair in shape.groups.values() for j in pair})
    found: Arg = True
    for start, _ in sorted(shape.groups.values()):
        k = edges.index(start)
        text = RG.piece(m.string, m.pattern, m.flags, m.mode, k)
        if RL.included(trees[k], RL.INT_PLAIN):
            found = T.and_(found, T.or_(T.not_(member), _int_digits(text)))
        elif RL.included(trees[k], RL.int_syntax_tree()):
            found = T.and_(found, T.or_(T.not_(member), SO.int_syntax(text)))
    return found


def is_match(value: object) -> TypeGuard[MatchVal]:
    return isinstance(value, MatchVal)


def _caller(name: str) -> Callable[..., object]:
    def call(receiver: object, *args: object, **kwargs: object) -> object:
        return getattr(receiver, name)(*args, **kwargs)

    call.__qualname__ = f"re.Match.{name}"
    return call


def match_method(module: Module, heap: HeapView, m: MatchVal, name: str, args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    """``m.name(*args, **kwargs)`` of a match of the analysis (the module docstring)."""
    found = None if kwargs else _groups(m, name, args)
    if found is not None:
        return split([(_group_lemmas(m), Ok(found))])
    return run_concretely(module, heap, f"re.Match.{name}()", _caller(name), (m,) + args, kwargs)


def _groups(m: MatchVal, name: str, args: tuple[object, ...]) -> object | None:
    """The value of a group method the spans determine, else None. Group 0 of a ``match`` is
    not determined (where the match ends is sre's greedy or lazy choice), only its start."""
    shape = RG.spans(m.pattern, m.flags, m.mode)
    if shape is None:
        return None
    numbers: list[int] = []
    for arg in args:
        number = shape.names.get(arg) if isinstance(arg, str) else arg if type(arg) is int else None
        if number is None or not (number == 0 or number in shape.groups):
            return None
        numbers.append(number)
    whole_known = m.mode == "fullmatch"

    def span(number: int) -> tuple[Arg, Arg, Arg]:
        if number == 0:
            return 0, T.str_len(m.string), m.string
        return RG.group_span(m.string, m.pattern, m.flags, m.mode, number, shape)

    if name == "__getitem__" and len(numbers) != 1:
        return None
    if name in ("group", "__getitem__"):
        numbers = numbers or [0]
        if 0 in numbers and not whole_known:
            return None
        texts = tuple(span(n)[2] for n in numbers)
        return texts[0] if len(texts) == 1 else texts
    if name == "groups" and not args and len(shape.groups) == shape.count:
        return tuple(span(n)[2] for n in range(1, shape.count + 1))
    if name in ("start", "end", "span") and len(numbers) <= 1:
        number = numbers[0] if numbers else 0
        if number == 0 and not whole_known:
            return 0 if name == "start" else None
        found = span(number)
        return found[:2] if name == "span" else found[name == "end"]
    return None
