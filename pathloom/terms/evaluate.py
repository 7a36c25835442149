"""Evaluate a term on concrete values of its symbols, with Python semantics.

Invariant: for every term ``t`` and environment ``env`` covering ``symbols(t)``,
``evaluate(t, env)`` equals what the corresponding Python operations give; the Z3 encoding
(``z3_encode``) is checked against this evaluator in the tests. A symbol missing from ``env``
takes its sort's default (0, False, "", 0.0), the same default the model decoder uses.
"""

from __future__ import annotations

from typing import Callable, Mapping, cast

from pathloom.terms import char_classes
from pathloom.terms import expr as T
from pathloom.terms import regex_groups, regex_lang
from pathloom.terms import str_ops as SO
from pathloom.terms.expr import BOOL, FLOAT, INT, POW2_MAX, Arg, Concrete, Term, py_substr

DEFAULTS: dict[str, Concrete] = {INT: 0, BOOL: False, "Str": "", FLOAT: 0.0}


def _folds(factory: Callable[..., Arg]) -> Callable[..., Concrete]:
    """A float term factory, which folds concrete arguments to a concrete value."""
    return cast(Callable[..., Concrete], factory)


_OPS: dict[str, Callable[..., Concrete]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "neg": lambda a: -a,
    "floordiv": lambda a, b: a // b if b != 0 else 0,
    "mod": lambda a, b: a % b if b != 0 else a,
    "not": lambda a: not a,
    "eq": lambda a, b: a == b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "str_lt": lambda a, b: a < b,
    "str_le": lambda a, b: a <= b,
    "concat": lambda a, b: a + b,
    "len": lambda s: len(s),
    "at": lambda s, i: s[i] if 0 <= i < len(s) else "",
    "substr": py_substr,
    "contains": lambda h, n: n in h,
    "prefixof": lambda p, s: s.startswith(p),
    "suffixof": lambda p, s: s.endswith(p),
    "indexof": lambda s, sub: s.find(sub),
    "to_code": lambda s: ord(s) if len(s) == 1 else -1,
    "from_code": lambda i: chr(i) if 0 <= i <= 0x2FFFF else "",
    "int_str": lambda i: _int_str(i),
    "str_class": lambda s, method: bool(getattr(s, method)()),
    "str_to_int": SO.py_str_to_int,
    "int_syntax": char_classes.int_syntax,
    "replace": lambda s, old, new: s.replace(old, new),
    "count": lambda s, sub: s.count(sub),
    "strip_count": SO.py_strip_count,
    "ascii_case": SO.py_ascii_case,
    "re_member": regex_lang.py_member,
    "re_piece": regex_groups.py_piece,
    "pow2": lambda n: 2**n if 0 <= n <= POW2_MAX else 0,
    # floats: the concrete folds of the factories (Python's float arithmetic is IEEE's)
    "fadd": _folds(T.fadd),
    "fsub": _folds(T.fsub),
    "fmul": _folds(T.fmul),
    "fdiv": _folds(T.fdiv),
    "itruediv": _folds(T.itruediv),
    "fneg": _folds(T.fneg),
    "fabs": _folds(T.fabs),
    "fsqrt": _folds(T.fsqrt),
    "i2f": _folds(T.i2f),
    "f2i": _folds(T.f2i),
    "fisnan": _folds(T.fisnan),
    "fisinf": _folds(T.fisinf),
    "fsame": _folds(T.fsame),
}


def _int_str(i: int) -> str:
    """``str(i)``; "" beyond CPython's limit on digits (off the operator's domain)."""
    try:
        return str(i)
    except ValueError:
        return ""


def evaluate(term: Arg, env: Mapping[str, Concrete], memo: dict[Term, Concrete] | None = None) -> Concrete:
    if not isinstance(term, Term):
        return term
    if memo is None:
        memo = {}
    try:
        return _eval(term, env, memo)
    except RecursionError:
        # A term deeper than the stack allows (a loop adds a level per iteration). The
        # recursive walk is about twice as fast on the usual shallow terms, and what it put in
        # ``memo`` before giving up is correct.
        return _eval_deep(term, env, memo)


def _eval(term: Term, env: Mapping[str, Concrete], memo: dict[Term, Concrete]) -> Concrete:
    found = memo.get(term)
    if found is not None:
        return found
    op = term.op
    result: Concrete
    if op == "sym":
        result = env.get(str(term.args[0]), DEFAULTS[term.sort])
    elif op == "and":
        result = all(_arg(a, env, memo) for a in term.args)
    elif op == "or":
        result = any(_arg(a, env, memo) for a in term.args)
    elif op == "ite":
        c, a, b = term.args
        result = _arg(a, env, memo) if _arg(c, env, memo) else _arg(b, env, memo)
    else:
        result = _OPS[op](*(_arg(a, env, memo) for a in term.args))
    memo[term] = result
    return result


def _arg(arg: Arg, env: Mapping[str, Concrete], memo: dict[Term, Concrete]) -> Concrete:
    return _eval(arg, env, memo) if isinstance(arg, Term) else arg


def _eval_deep(term: Term, env: Mapping[str, Concrete], memo: dict[Term, Concrete]) -> Concrete:
    """What :func:`_eval` computes, without recursion."""
    # Iterative (terms can be far deeper than the recursion limit): a term stays on the stack
    # until the arguments it needs are in ``memo``. Like Python, ``and``, ``or`` and ``ite``
    # evaluate only the arguments that decide them.
    stack = [term]
    while stack:
        top = stack[-1]
        if top in memo:
            stack.pop()
            continue
        op = top.op
        if op == "sym":
            memo[top] = env.get(str(top.args[0]), DEFAULTS[top.sort])
        elif op == "ite" or op == "and" or op == "or":
            needed = _lazy(top, memo)
            if needed is not None:
                stack.append(needed)
                continue
        else:
            missing = [a for a in top.args if isinstance(a, Term) and a not in memo]
            if missing:
                stack.extend(missing)
                continue
            memo[top] = _OPS[op](*[memo[a] if isinstance(a, Term) else a for a in top.args])
        stack.pop()
    return memo[term]


def _lazy(term: Term, memo: dict[Term, Concrete]) -> Term | None:
    """Put the value of an ``ite``, ``and`` or ``or`` in ``memo``, or return the argument to
    evaluate first."""
    if term.op == "ite":
        c, a, b = term.args
        if isinstance(c, Term) and c not in memo:
            return c
        chosen = a if (memo[c] if isinstance(c, Term) else c) else b
        if isinstance(chosen, Term) and chosen not in memo:
            return chosen
        memo[term] = memo[chosen] if isinstance(chosen, Term) else chosen
        return None
    decisive = term.op == "or"  # the argument value that decides the result
    for a in term.args:
        if isinstance(a, Term) and a not in memo:
            return a
        if bool(memo[a] if isinstance(a, Term) else a) is decisive:
            memo[term] = decisive
            return None
    memo[term] = not decisive
    return None
