"""Theory lemmas between atoms: what the BDD does not know about integer comparisons.

Atoms are opaque BDD variables, so ``t == -4`` and ``t >= 0`` are independent for the BDD and
a guard may contain paths that assume both. Such a path is infeasible in the theory; the
engine finds that out only by asking Z3. This module keeps, beside the guards, one BDD
``lemmas`` that conjoins every pairwise fact between atoms that compare the *same* integer
term with constants (``x == c``, ``x < c``, ``x <= c``, ``c < x``, ``c <= x``, also with a
constant offset ``x + k``): for two such atoms every combination of their truth values
whose integer sets do not meet is excluded (``not (x == -4 and x >= 0)``,
``x == 3 implies x >= 0``).

Invariant: every lemma is valid over the integers, so ``g and lemmas`` has exactly the
models of ``g`` (it only drops paths of the BDD that no integer assignment follows).
Conjoining them is a cheap, solver-free way to decide some guards unsatisfiable and to walk
one path of a guard that is consistent in the theory.

Not from the MultiSE paper, whose guards are plain BDDs over branch conditions; it is the
classic "theory propagation between atoms" of lazy SMT, limited to pairs over one term.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterable

from pathloom.guards.bdd import Guard, GuardManager
from pathloom.terms import expr as T
from pathloom.terms.expr import Term

__all__ = ["Lemmas", "int_set", "literal_set", "nearest", "solve_intervals"]

# A set of integers as sorted disjoint closed intervals; None is an infinite end.
Bound = int | None
IntSet = tuple[tuple[Bound, Bound], ...]
EVERYTHING: IntSet = ((None, None),)


def _offset(term: object) -> tuple[Term, int] | None:
    """``(x, k)`` for an integer term ``x + k`` (``k`` may be 0), else ``None``."""
    if not isinstance(term, Term) or term.sort != T.INT:
        return None
    if term.op == "add":
        a, b = term.args
        if isinstance(a, int) and not isinstance(a, bool) and isinstance(b, Term):
            return b, a
        if isinstance(b, int) and not isinstance(b, bool) and isinstance(a, Term):
            return a, b
    return term, 0


def int_set(atom: object) -> tuple[Term, IntSet] | None:
    """``(x, S)`` when ``atom`` holds exactly when the integer term ``x`` is in ``S``."""
    if not isinstance(atom, Term) or atom.op not in ("eq", "lt", "le") or len(atom.args) != 2:
        return None
    a, b = atom.args
    flipped = False
    if isinstance(a, int) and not isinstance(a, bool):
        a, b, flipped = b, a, True
    if not isinstance(b, int) or isinstance(b, bool):
        return None
    found = _offset(a)
    if found is None:
        return None
    x, k = found
    c = b - k  # x + k  op  b   <=>   x  op  b - k
    if atom.op == "eq":
        return x, ((c, c),)
    strict = atom.op == "lt"
    if not flipped:  # x < c, x <= c
        return x, ((None, c - 1 if strict else c),)
    return x, ((c + 1 if strict else c, None),)  # c < x, c <= x


def complement(s: IntSet) -> IntSet:
    """The integers not in ``s``."""
    out: list[tuple[Bound, Bound]] = []
    low: Bound = None  # where the next gap starts (None: minus infinity)
    for lo, hi in s:
        if lo is not None and (low is None or low <= lo - 1):
            out.append((low, lo - 1))
        if hi is None:
            return tuple(out)
        low = hi + 1
    out.append((low, None))
    return tuple(out)


def _intersection(s: IntSet, t: IntSet) -> IntSet:
    """The integers in both ``s`` and ``t``."""
    out: list[tuple[Bound, Bound]] = []
    for a_lo, a_hi in s:
        for b_lo, b_hi in t:
            lo = a_lo if b_lo is None else b_lo if a_lo is None else max(a_lo, b_lo)
            hi = a_hi if b_hi is None else b_hi if a_hi is None else min(a_hi, b_hi)
            if lo is None or hi is None or lo <= hi:
                out.append((lo, hi))
    return tuple(sorted(out, key=lambda iv: (iv[0] is not None, iv[0] or 0)))


def literal_set(literal: object) -> tuple[Term, IntSet] | None:
    """``(x, S)`` when the literal (an atom or ``not`` of one) holds exactly when the integer
    symbol ``x`` is in ``S``; ``None`` for any other literal (memoized per literal)."""
    if not isinstance(literal, Term):
        return None
    found = _literal_sets.get(literal, False)
    if found is False:
        found = _literal_set(literal)
        _literal_sets[literal] = found
    return found  # type: ignore[return-value]


def _literal_set(literal: Term) -> tuple[Term, IntSet] | None:
    negated = literal.op == "not"
    found = int_set(literal.args[0] if negated else literal)
    if found is None or found[0].op != "sym":
        return None
    x, s = found
    return (x, complement(s)) if negated else (x, s)


_literal_sets: weakref.WeakKeyDictionary[Term, tuple[Term, IntSet] | None] = weakref.WeakKeyDictionary()


def nearest(s: IntSet, value: int) -> int:
    """The member of the non-empty set ``s`` closest to ``value`` (the smaller one on a tie)."""
    best: int | None = None
    for lo, hi in s:
        candidate = value if (lo is None or lo <= value) and (hi is None or value <= hi) else (lo if lo is not None and value < lo else hi)
        assert candidate is not None
        if best is None or abs(candidate - value) < abs(best - value) or (abs(candidate - value) == abs(best - value) and candidate < best):
            best = candidate
    assert best is not None, "nearest member of the empty set"
    return best


def solve_intervals(seeds: Iterable[object], constraints: Iterable[object], model: dict[str, object]) -> dict[str, int] | None | bool:
    """Solve the part of ``constraints`` that shares a symbol with the ``seeds`` when it is a
    set of interval literals over single integer symbols (``x == 3``, ``not (x < 1)``): each
    symbol gets the member of its literals' intersection nearest to its value in ``model``.
    Returns the new values, ``False`` when an intersection is empty (that part is unsat), or
    ``None`` when the part is not of that form (another solver must decide)."""
    symbols: set[Term] = set()
    for seed in seeds:
        found = literal_set(seed)
        if found is None:
            return None
        symbols.add(found[0])
    sets: dict[Term, IntSet] = {}
    for c in constraints:
        if not isinstance(c, Term) or T.symbols(c).isdisjoint(symbols):
            continue
        found = literal_set(c)
        if found is None or found[0] not in symbols:
            return None
        x, s = found
        sets[x] = _intersection(sets.get(x, EVERYTHING), s)
    values: dict[str, int] = {}
    for x, s in sets.items():
        if not s:
            return False
        name = str(x.args[0])
        old = model.get(name)
        values[name] = nearest(s, old if isinstance(old, int) and not isinstance(old, bool) else 0)
    return values


#: Bounds that keep the lemmas cheap; beyond them atoms simply get no lemmas (the lemmas only
#: spare solver calls, the solver decides what they do not).
MAX_NODES = 2000
MAX_ATOMS_PER_TERM = 32


class Lemmas:
    """The conjunction of the pairwise lemmas between the atoms seen so far."""

    def __init__(self, mgr: GuardManager, facts: Iterable[object] = ()) -> None:
        """``facts``: constraints known to hold on every input (the input domain, such as
        ``0 <= xs.len <= 4``); those of the atoms' form bound their terms' sets."""
        self.mgr = mgr
        self.guard: Guard = mgr.true
        self.count = 0
        self.full = False  # the lemma BDD reached MAX_NODES: no more lemmas (they are optional)
        self._by_term: dict[Term, list[tuple[Guard, IntSet]]] = {}
        self._seen: set[Hashable] = set()
        self._domain: dict[Term, IntSet] = {}
        for fact in facts:
            found = int_set(fact)
            if found is not None:
                x, s = found
                self._domain[x] = _intersection(self._domain.get(x, EVERYTHING), s)

    def _exclude(self, *literals: Guard) -> None:
        if self.full:
            return
        mgr = self.mgr
        grown = mgr.and_(self.guard, mgr.not_(mgr.and_all(literals)))
        if mgr.size(grown) > MAX_NODES:
            self.full = True  # lemmas over many interleaved terms: their BDD grows as a product
            return
        self.guard = grown
        self.count += 1

    def decided(self, atom: object) -> bool | None:
        """``True`` or ``False`` when the input domain alone decides ``atom`` (``8 < xs.len``
        when ``xs.len <= 8``), else ``None``: such an atom need not be a BDD variable."""
        found = int_set(atom)
        if found is None or found[0] not in self._domain:
            return None
        holds, fails = self._in_domain(*found)
        if not holds:
            return False
        if not fails:
            return True
        return None

    def _in_domain(self, x: Term, s: IntSet) -> tuple[IntSet, IntSet]:
        """The values of term ``x``'s input domain where an atom with set ``s`` holds, and
        those where it does not."""
        domain = self._domain.get(x, EVERYTHING)
        return _intersection(s, domain), _intersection(complement(s), domain)

    def add_atom(self, atom: Hashable, g: Guard) -> None:
        """Record atom ``atom`` (whose BDD variable is ``g``) and its lemmas with the atoms
        over the same term."""
        if atom in self._seen:
            return
        self._seen.add(atom)
        found = int_set(atom)
        if found is None:
            return
        x, s = found
        mgr = self.mgr
        holds, fails = self._in_domain(x, s)
        mine = [(holds, g), (fails, mgr.not_(g))]
        for my_set, my_lit in mine:
            if not my_set:
                self._exclude(my_lit)
        others = self._by_term.setdefault(x, [])
        if len(others) >= MAX_ATOMS_PER_TERM:
            return
        for h, t in others:
            for my_set, my_lit in mine:
                for their_set, their_lit in ((t, h), (complement(t), mgr.not_(h))):
                    if my_set and not _intersection(my_set, their_set):
                        self._exclude(my_lit, their_lit)
        others.append((g, s))
