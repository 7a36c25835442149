"""The Z3 encoding of the ``re_member`` and ``re_piece`` terms (``regex_lang``, ``regex_groups``).

Membership in the language of a pattern's tree (``tree_function``) is its minimal automaton
unfolded along the string as a recursive function ``f(x, q)``, the way ``z3_encode`` encodes
``int_syntax``: true when state ``q`` is universal, false for ``q = -1``, else on the empty
string whether ``q`` accepts, otherwise ``f(tail, step(q, class(head)))``. The class of the
first character is found once (an if-then-else over the classes' ranges, the largest class
last, untested), the step is an if-then-else over the states and classes that lead somewhere.
Z3's own regular expressions (``InRe`` over ``Range``s) were measured too: on classes of tens
to hundreds of ranges (``\\d``, ``\\w``) Z3 answered ``unknown`` after 10 s where the
automaton answered in 0.2 s, and even on small ones (``y|yes``, ``[+-]?[0-9]+``) the regex.py
corpus targets ran as fast or faster with the automaton (``is_yes`` 1.8 s against 4.1 s).

``re_piece`` terms are string constants, one per piece of a subject and pattern, defined
together (``piece``): a matching subject is their concatenation, each in its items' language.

Invariant: for every string ``x`` Z3 can build, the membership formula holds exactly when
``regex_lang.run`` of the tree's automaton accepts ``x``, hence when CPython's ``re`` finds a
match (``regex_lang``'s invariant); the pieces are CPython's (``regex_groups``' invariant).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import z3

from pathloom.terms import regex_groups as RG
from pathloom.terms import regex_lang as RL
from pathloom.terms.char_classes import Ranges
from pathloom.terms.expr import Term


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


def member_function(pattern: str, flags: int, mode: str) -> Callable[[z3.SeqRef], z3.BoolRef]:
    """``re.<mode>(pattern, x, flags)`` finds a match, as a function of ``x``."""
    return tree_function(RL.language(pattern, flags, mode))


@functools.cache
def tree_function(tree: RL.Node) -> Callable[[z3.SeqRef], z3.BoolRef]:
    """Whether ``x`` is in the language of ``tree``, as a function of ``x``: ``g(x) = f(x, 0)``
    (``f`` of the module docstring)."""
    dfa = RL.tree_automaton(tree)
    name = f"%re.{len(_NAMES)}"
    _NAMES.append(tree)
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
    return g  # type: ignore[no-any-return]


_NAMES: list[RL.Node] = []  # the trees given recursive functions, numbered in order (their Z3 names)


def piece(term: Term, s: z3.SeqRef) -> tuple[z3.SeqRef, z3.BoolRef]:
    """The encoding of ``re_piece(x, pattern, flags, mode, k)`` (``regex_groups``): a constant per
    piece of ``x`` (shared by the terms of one ``x`` and pattern), and their definition: a
    matching ``x`` is their concatenation, each in its items' language (a unique split:
    ``regex_groups.spans`` checked it); all "" when ``x`` does not match."""
    subject, pattern, flags, mode, k = term.args
    assert isinstance(subject, Term) and isinstance(pattern, str) and isinstance(flags, int) and isinstance(mode, str) and isinstance(k, int)
    key = (subject, pattern, flags, mode)
    if key not in _PIECES:
        _, trees = RG.segments(pattern, flags, mode)
        number = len(_PIECES)
        pieces = [z3.String(f"%re_piece{number}.{i}") for i in range(len(trees))]
        whole = z3.Concat(pieces) if len(pieces) > 1 else pieces[0]
        fits = [tree_function(tree)(part) for tree, part in zip(trees, pieces)]
        empty = z3.And([part == z3.StringVal("") for part in pieces])
        _PIECES[key] = (pieces, z3.If(member_function(pattern, flags, mode)(s), z3.And([s == whole, *fits]), empty))
    pieces, definition = _PIECES[key]
    return pieces[k], definition


_PIECES: dict[tuple[Term, str, int, str], tuple[list[z3.SeqRef], z3.BoolRef]] = {}  # (x, pattern, flags, mode) -> its pieces
