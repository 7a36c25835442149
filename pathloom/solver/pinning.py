"""Pinned-value propagation: symbols a query fixes to a constant are substituted before Z3.

A query often pins inputs: a concretized operation adds ``y == 9007199254740993``, a branch
flip keeps ``b`` and ``not c`` of the path so far. Z3 treats the pin as one more constraint
and may still fail on the rest (``len(str(y)) % 3 == 1`` with ``y`` pinned timed out in Z3's
string theory: a fuzzing run spent 10 s on each such query). Substituting the pinned values
folds those constraints to constants (``terms.substitute``), so Z3 gets only what is really
symbolic, or nothing at all.

Invariant: a ``sat`` result's model satisfies every constraint of the query as asked
(checked with ``evaluate`` before it is returned); ``unsat`` is returned only when a
substituted constraint folds to ``False`` (the pins themselves are constraints of the
query, so that conjunction is unsat). Whatever the propagation cannot decide or check
(Z3-form extras, a fold off an operator's domain, a model that does not check out) goes to
the inner solver unchanged.
"""

from __future__ import annotations

from pathloom.solver.base import SAT, UNSAT, Query, Result, Solver
from pathloom.terms.evaluate import DEFAULTS, evaluate
from pathloom.terms.expr import BOOL, FLOAT, Arg, Concrete, Term, symbols
from pathloom.terms.substitute import OffDomain, substitute_each

ROUNDS = 4  # a substitution can pin more symbols (``x == y + 1`` once ``y`` is known)


def _conjuncts(constraint: Arg) -> list[Arg]:
    """The conjuncts of nested ``and`` terms, each once (the terms form a DAG: a recursive
    walk would visit a shared conjunction once per path to it)."""
    found: dict[Arg, None] = {}
    seen: set[int] = set()
    todo = [constraint]
    while todo:
        c = todo.pop()
        if isinstance(c, Term) and c.op == "and":
            if id(c) not in seen:
                seen.add(id(c))
                todo.extend(reversed(c.args))
        else:
            found.setdefault(c, None)
    return list(found)


def _pin(conjunct: Arg) -> tuple[str, Concrete] | None:
    """The symbol name and value a conjunct fixes, if it is ``x == c`` (``fsame`` for a
    float: ``==`` does not fix a float's sign of zero), ``b`` or ``not b``."""
    if not isinstance(conjunct, Term):
        return None
    if conjunct.op == "sym" and conjunct.sort == BOOL:
        return str(conjunct.args[0]), True
    if conjunct.op == "not":
        inner = conjunct.args[0]
        if isinstance(inner, Term) and inner.op == "sym":
            return str(inner.args[0]), False
        return None
    if conjunct.op not in ("eq", "fsame"):
        return None
    a, b = conjunct.args
    for x, c in ((a, b), (b, a)):
        if isinstance(x, Term) and x.op == "sym" and not isinstance(c, Term):
            if (x.sort == FLOAT) != (conjunct.op == "fsame"):
                return None
            return str(x.args[0]), c
    return None


def pins(constraints: list[Arg]) -> dict[str, Concrete]:
    """The values the constraints fix (the first, when two conjuncts fix one symbol: the
    substitution then folds the other to ``True`` or ``False``)."""
    found: dict[str, Concrete] = {}
    for c in constraints:
        for conjunct in _conjuncts(c):
            pin = _pin(conjunct)
            if pin is not None:
                found.setdefault(*pin)
    return found


class PinningSolver:
    def __init__(self, inner: Solver) -> None:
        self.inner = inner

    def check(self, query: Query) -> Result:
        if query.extras:
            return self.inner.check(query)
        ordered = sorted(query.constraints, key=lambda t: t.serial)
        mapping: dict[str, Concrete] = {}
        remaining: list[Arg] = list(ordered)
        try:
            for _ in range(ROUNDS):
                found = {k: v for k, v in pins(remaining).items() if k not in mapping}
                if not found:
                    break
                mapping.update(found)
                reduced = substitute_each(remaining, found)
                if reduced is None:
                    return Result(UNSAT)
                remaining = list(reduced)
        except OffDomain:
            return self.inner.check(query)
        if not mapping:
            return self.inner.check(query)
        if remaining:
            rest = frozenset(t for t in remaining if isinstance(t, Term))
            result = self.inner.check(Query(rest, None, reuse_models=query.reuse_models, sliced=True))
            if result.status != SAT:
                return result
            model: dict[str, Concrete] = {**result.model, **mapping}
        else:
            model = dict(mapping)
        for c in ordered:
            for s in symbols(c):
                model.setdefault(str(s.args[0]), DEFAULTS[s.sort])
        for name in query.extra_symbols:
            model.setdefault(str(name.args[0]), DEFAULTS[name.sort])
        memo: dict[Term, Concrete] = {}
        if all(evaluate(c, model, memo) is True for c in ordered):
            return Result(SAT, model)
        return self.inner.check(query)  # not expected: the pins say exactly these values
