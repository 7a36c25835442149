"""Substitution: replace symbols of a term by values (terms or constants), folding as it rebuilds.

Invariant: for every term ``t``, mapping ``m`` (symbol name -> value of the symbol's sort) and
environment ``env``, ``evaluate(substitute(t, m), env) == evaluate(t, env')`` where ``env'``
gives each mapped symbol the value of its image under ``env`` and every other symbol its value
in ``env``: the result is rebuilt through the folding factories of ``expr`` (constant operands
fold to constants, so a condition over formals becomes ``True``/``False`` when the actual
arguments are concrete). Symbols not in the mapping stay as they are.

Some factories are exact only on a domain the semantics layer checked before building them
(``floordiv``/``mod`` need a nonzero divisor, ``pow2`` an exponent in range, ``from_code`` a
code point, ``int_str`` CPython's digit limit). A substitution that would fold one of them
on a constant outside its domain raises ``OffDomain`` instead of guessing: the caller
substitutes the conjuncts of a path condition in order, and the guard that precedes such a
term folds to ``False`` first on such values (``substitute_conjuncts``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

from pathloom.terms import expr as T
from pathloom.terms import regex_groups, regex_lang
from pathloom.terms import str_ops as SO
from pathloom.terms.expr import Arg, Term, postorder


class OffDomain(Exception):
    """A constant fold outside the operator's domain (the path condition excludes it)."""


def _checked_floordiv(a: Arg, b: Arg) -> Arg:
    if not isinstance(b, Term) and b == 0:
        raise OffDomain("floordiv by zero")
    return T.floordiv(a, b)


def _checked_mod(a: Arg, b: Arg) -> Arg:
    if not isinstance(b, Term) and b == 0:
        raise OffDomain("mod by zero")
    return T.mod(a, b)


def _checked_itruediv(a: Arg, b: Arg) -> Arg:
    if not isinstance(b, Term) and b == 0:
        raise OffDomain("true division by zero")
    return T.itruediv(a, b)


def _checked_pow2(n: Arg) -> Arg:
    if not isinstance(n, Term) and not 0 <= int(n) <= T.POW2_MAX:
        raise OffDomain("pow2 exponent")
    return T.pow2(n)


def _checked_from_code(i: Arg) -> Arg:
    if not isinstance(i, Term) and not 0 <= int(i) <= T.MAX_CODE:
        raise OffDomain("chr of a code point out of range")
    return T.from_code(i)


def _checked_int_str(i: Arg) -> Arg:
    if not isinstance(i, Term) and len(str(abs(int(i)))) > sys.get_int_max_str_digits() > 0:
        raise OffDomain("str of a too long int")
    return T.int_str(i)


def _checked_at(s: Arg, i: Arg) -> Arg:
    if not isinstance(s, Term) and not isinstance(i, Term) and not 0 <= int(i) < len(str(s)):
        raise OffDomain("index out of range")
    return T.char_at(s, i)


def _checked_to_code(s: Arg) -> Arg:
    if not isinstance(s, Term) and len(str(s)) != 1:
        raise OffDomain("ord of a string that is not one character")
    return T.to_code(s)


_FACTORIES: dict[str, Callable[..., Arg]] = {
    "add": T.add,
    "sub": T.sub,
    "mul": T.mul,
    "neg": T.neg,
    "floordiv": _checked_floordiv,
    "mod": _checked_mod,
    "pow2": _checked_pow2,
    "not": T.not_,
    "and": T.and_,
    "or": T.or_,
    "ite": T.ite,
    "eq": T.eq,
    "lt": T.lt,
    "le": T.le,
    "str_lt": T.lt,
    "str_le": T.le,
    "concat": T.concat,
    "len": T.str_len,
    "at": _checked_at,
    "substr": T.substr,
    "contains": T.contains,
    "int_str": _checked_int_str,
    "to_code": _checked_to_code,
    "from_code": _checked_from_code,
    "prefixof": T.prefix_of,
    "suffixof": T.suffix_of,
    "indexof": T.index_of,
    "fadd": T.fadd,
    "fsub": T.fsub,
    "fmul": T.fmul,
    "fdiv": T.fdiv,
    "fneg": T.fneg,
    "fabs": T.fabs,
    "fsqrt": T.fsqrt,
    "i2f": T.i2f,
    "f2i": T.f2i,
    "fisnan": T.fisnan,
    "fisinf": T.fisinf,
    "fsame": T.fsame,
    "itruediv": _checked_itruediv,
    "str_class": T.str_class,
    "str_to_int": SO.str_to_int,
    "int_syntax": SO.int_syntax,
    "replace": SO.replace,
    "count": SO.count,
    "strip_count": SO.strip_count,
    "ascii_case": SO.ascii_case,
    "re_member": regex_lang.member,
    "re_piece": regex_groups.piece,
}


def substitute(term: Arg, mapping: Mapping[str, Arg], done: dict[Term, Arg] | None = None) -> Arg:
    """``term`` with each symbol named in ``mapping`` replaced by its image (see the module
    invariant); raises ``OffDomain`` when a fold would leave an operator's domain. ``done``
    (term -> image under this same mapping) is shared by the calls that pass it."""
    if not isinstance(term, Term):
        return term
    if done is None:
        done = {}
    if term in done:
        return done[term]
    for t in postorder(term, done):  # iterative: terms can be deeper than the recursion limit
        if t.op == "sym":
            name = str(t.args[0])
            image = mapping.get(name, t)
            if image is not t and T.sort_of(image) != t.sort:
                raise TypeError(f"substitution of {name} by a value of sort {T.sort_of(image)} (expected {t.sort})")
            done[t] = image
            continue
        args = [done[a] if isinstance(a, Term) else a for a in t.args]
        if all(new is old for new, old in zip(args, t.args)):
            done[t] = t
            continue
        factory = _FACTORIES.get(t.op)
        if factory is None:
            raise ValueError(f"substitution: unknown operator {t.op!r}")
        done[t] = factory(*args)
    return done[term]


def substitute_each(conjuncts: Sequence[Arg], mapping: Mapping[str, Arg], done: dict[Term, Arg] | None = None) -> tuple[Term, ...] | None:
    """The conjuncts after substitution, in order, without those that fold to ``True``; None
    as soon as one folds to ``False`` (a later conjunct may be off its operators' domain on
    such values). Raises ``OffDomain`` only if a conjunct not excluded by the earlier ones is."""
    images: list[Term] = []
    done = {} if done is None else done
    for conjunct in conjuncts:
        image = substitute(conjunct, mapping, done)
        if image is False:
            return None
        if isinstance(image, Term):
            images.append(image)
    return tuple(images)


def substitute_conjuncts(conjuncts: Sequence[Arg], mapping: Mapping[str, Arg]) -> Arg:
    """The conjunction of ``substitute_each``'s conjuncts (``False`` when it gives None)."""
    images = substitute_each(conjuncts, mapping)
    return False if images is None else T.conj(images)
