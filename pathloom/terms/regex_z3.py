"""The Z3 encoding of ``re_member`` terms: the automaton of ``regex_lang`` unfolded along the
string as a recursive function ``f(x, q)`` (the way ``z3_encode`` encodes ``int_syntax``).

``f(x, q)`` is true when state ``q`` is universal, false for ``q = -1``, else: on the empty
string whether ``q`` accepts, otherwise ``f(tail, step(q, class(head)))``. The class of the
first character is found once (an if-then-else over the classes' ranges, the largest class
last, untested), the step is an if-then-else over the states and classes that lead somewhere.
(Z3's own regular expressions, ``InRe`` over ``Range``s, took seconds on classes of hundreds of
ranges such as ``\\w``; see ``z3_encode``'s docstring on ``str_class``.)

Invariant: for every string ``x`` Z3 can build, ``f(x, 0)`` is ``regex_lang.run`` of the
automaton on ``x``, hence CPython's ``re`` answer (``regex_lang``'s invariant).
"""

from __future__ import annotations

import functools

import z3

from pathloom.terms import regex_lang as RL
from pathloom.terms.char_classes import Ranges


def _in_ranges(code: z3.ArithRef, ranges: Ranges) -> z3.BoolRef:
    return z3.Or([z3.And(lo <= code, code <= hi) if lo < hi else code == lo for lo, hi in ranges])


def _class_of(code: z3.ArithRef, classes: tuple[Ranges, ...]) -> z3.ArithRef:
    order = sorted(range(len(classes)), key=lambda k: len(classes[k]))
    found: z3.ArithRef = z3.IntVal(order[-1])
    for k in reversed(order[:-1]):
        found = z3.If(_in_ranges(code, classes[k]), z3.IntVal(k), found)
    return found


def _step(q: z3.ArithRef, k: z3.ArithRef, dfa: RL.Dfa) -> z3.ArithRef:
    found: z3.ArithRef = z3.IntVal(-1)
    for state, row in enumerate(dfa.step):
        if state in dfa.universal:
            continue
        inner: z3.ArithRef = z3.IntVal(-1)
        for cls, target in enumerate(row):
            if target >= 0:
                inner = z3.If(k == cls, z3.IntVal(target), inner)
        found = z3.If(q == state, inner, found)
    return found


@functools.cache
def member_function(pattern: str, flags: int, mode: str) -> z3.FuncDeclRef:
    """``g(x) = f(x, 0)`` (``f`` of the module docstring) for ``re.<mode>(pattern, x, flags)``."""
    dfa = RL.automaton(pattern, flags, mode)
    assert dfa is not None, pattern  # re_member terms are built only for modelled patterns
    name = f"%re.{mode}.{flags}.{pattern!r}"
    x, q = z3.String(f"{name}.x"), z3.Int(f"{name}.q")
    f = z3.RecFunction(name, z3.StringSort(), z3.IntSort(), z3.BoolSort())
    head = z3.StrToCode(z3.SubString(x, 0, 1))
    tail = z3.SubString(x, 1, z3.Length(x) - 1)
    nxt = _step(q, _class_of(head, dfa.classes), dfa)
    accepts = z3.Or([q == a for a in sorted(dfa.accepting)]) if dfa.accepting else z3.BoolVal(False)
    universal = z3.Or([q == u for u in sorted(dfa.universal)]) if dfa.universal else z3.BoolVal(False)
    body = z3.If(universal, True, z3.If(q < 0, False, z3.If(z3.Length(x) == 0, accepts, f(tail, nxt))))
    z3.RecAddDefinition(f, [x, q], body)
    g = z3.RecFunction(f"{name}.start", z3.StringSort(), z3.BoolSort())
    z3.RecAddDefinition(g, [x], f(x, z3.IntVal(0)))
    return g
