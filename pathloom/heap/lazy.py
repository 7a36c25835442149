"""Lazy initialization and lazier#, the forking heap models, as policies of
``semantics.input_heap``: before a use of an input reference whose aliasing is not decided yet,
the instruction splits into ``Refine`` cases (None / each type-compatible atom decided fresh
before / fresh) and runs again in each. Lazy initialization decides identity at every use and
at every reference read from a field; lazier# decides only None-ness before a test, identity
before a dereference. Both fold aliases they decided (``alias``), which keeps reads free of
ites over aliases the path excludes.

Invariant: the decisions are recorded only in the ``known`` field of the ``INPUTS`` record
(through ``Refine``), so both engines keep them per path or under guards.
"""

from __future__ import annotations

from pathloom.semantics.input_heap import INPUTS, InputsTx, Known, leaf_set
from pathloom.domain.outcome import Cut, Outcome, Refine, Split
from pathloom.domain.values import SymRef
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term


class LazyInitialization:
    def __init__(self, eager: bool) -> None:
        self.eager = eager  # lazy initialization proper; else lazier#
        self.forks_on_read = eager

    def resolve(self, tx: InputsTx, refs: list[SymRef], use: str) -> Outcome | None:
        need = 2 if use == "deref" or self.eager else 1
        known = tx.known()
        levels = {k[0]: k[1] for k in known}
        for ref in refs:
            for atom in leaf_set(ref.loc):
                if isinstance(atom, Term) and levels.get(atom, 0) < need:
                    return _decide(tx, ref, atom, levels.get(atom, 0), need, known)
        return None

    def alias(self, tx: InputsTx, a: Arg, b: Term) -> Arg:
        """Two atoms whose identity was decided are equal exactly when they were decided to
        be one object (the path condition says so); otherwise the equality of their locations."""
        if isinstance(a, Term) and a.op == "sym":
            reps = {k[0]: k[4] for k in tx.known() if k[1] == 2}
            if a in reps and b in reps and reps[a] is not None and reps[b] is not None:
                return reps[a] is reps[b]
        return T.eq(a, b)


LAZY = LazyInitialization(eager=True)
LAZIER = LazyInitialization(eager=False)


def _decide(tx: InputsTx, ref: SymRef, atom: Term, level: int, need: int, known: tuple[Known, ...]) -> Outcome:
    """The cases of one atom: None (if the types allow it and it is not decided yet), then for
    identity each atom of the class decided fresh before, or fresh itself."""
    others = [k[0] for k in known if k[2] and k[3] == ref.cls and k[0] is not atom]
    rest = [k for k in known if k[0] is not atom]
    cls = ref.cls
    cases: list[tuple[Arg, Outcome]] = []
    if ref.nullable and level < 1:
        cases.append((T.eq(atom, 0), _refine(tx, rest + [(atom, 2, False, cls, None)])))
    if need == 1:
        cases.append((T.not_(T.eq(atom, 0)), _refine(tx, rest + [(atom, 1, False, cls, None)])))
        return Split(tuple(cases))
    for other in others:
        cases.append((T.eq(atom, other), _refine(tx, rest + [(atom, 2, False, cls, other)])))
    fresh = T.conj([T.not_(T.eq(atom, 0))] + [T.not_(T.eq(atom, o)) for o in others])
    limit = tx.max_objects()
    if len(others) >= limit:
        cases.append((fresh, Cut(f"max-objects bound {limit} reached for class {ref.cls} (--max-objects)")))
    else:
        cases.append((fresh, _refine(tx, rest + [(atom, 2, True, cls, atom)])))
    return Split(tuple(cases))


def _refine(tx: InputsTx, known: list[Known]) -> Outcome:
    record = tx.inputs().with_field("known", tuple(known))
    return Refine(((INPUTS, record),))
