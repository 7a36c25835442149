"""Value summaries: sets of guarded values with pairwise-disjoint guards.

What this module owns
    :class:`ValueSummary`, the immutable MultiSE representation of "the value
    of one variable (or expression, or the program counter) across many
    paths at once", and its algebra: restriction to a path condition, union
    of summaries over disjoint path sets, assignment under a path condition,
    pointwise lifting of operations, and compaction.  Guards are BDDs owned
    by a :class:`~pathloom.guards.bdd.GuardManager`, which every operation
    takes explicitly (there is no global manager).

Invariant
    The guards of a summary are pairwise disjoint: under any assignment of
    the atoms at most one entry's guard holds, and that entry's value is the
    value of the summary there.  Every operation except the raw constructor
    also drops entries whose guard is ``false``.  Unlike the paper, the
    disjunction of the guards (:meth:`ValueSummary.domain`) need not be
    ``true``: a summary restricted to a path condition is partial.  With
    ``join=True`` (the default) operations return summaries whose values are
    pairwise distinct in the sense of :func:`value_key`.

Which values are "equal"
    Compaction joins two entries when their values are interchangeable in
    Python, decided by :func:`value_key`: same exact type and ``==`` (so ``1``,
    ``True`` and ``1.0`` stay apart), refined so that ``0.0``/``-0.0`` (and
    complex numbers with signed zeros) stay apart and tuples/frozensets are
    compared element-wise by the same rule (``(1,)`` vs ``(True,)``).  This
    is strictly finer than ``type(a) is type(b) and a == b`` except that an
    object is always equal to itself (even a NaN).  Values must be hashable.

Paper
    Implements the value summaries of MultiSE (Sen, Necula, Gong, Choi:
    UCB EECS tech report, Oct. 2014, also ESEC/FSE 2015), sections "MultiSE
    value summary state representation" and "MultiSE symbolic execution with
    value summaries"; slides 35-36 (value summary), 38-41 (branching), 42-47
    (assignment) and 65 (compaction):

    * assignment ``x := e`` under path constraint ``p`` (:meth:`assign`,
      :meth:`assign_summary`) is the "guarded value summary union" of the old
      summary conjoined with ``not p`` and the right-hand side conjoined with
      ``p``;
    * operations on values (:meth:`map`, :meth:`lift2`, :meth:`lift`) are
      applied to each guarded value, over every feasible combination of
      operand entries, so concrete operands stay concrete;
    * the branch condition "value is true" is the disjunction of the guards
      of the truthy entries (:meth:`guard_of`);
    * compaction (slide 65): entries ``(g, v)`` and ``(g', v)`` become
      ``(g or g', v)`` and entries ``(false, v)`` are removed.

    Departures: equality of values is the strict Python rule above instead of
    syntactic equality of JavaScript values; feasibility is checked only
    propositionally, on the BDD (the paper, too, uses only the BDD check for
    non-pc variables -- SMT checks of the pc are the engine's business);
    compaction can be switched off (``join=False``) so that the engine can
    run without joining, which the paper describes as degenerating to
    per-path DSE; a summary may be partial (see Invariant).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Generic, TypeVar

from pathloom.guards.bdd import Guard, GuardManager

__all__ = ["ValueSummary", "same_value", "value_key"]

V = TypeVar("V")
U = TypeVar("U")
W = TypeVar("W")

Entry = tuple[Guard, V]


def _signbit(x: float) -> bool:
    return math.copysign(1.0, x) < 0.0


def value_key(value: object) -> Hashable:
    """Hashable key such that equal keys mean interchangeable values.

    ``(type(value), value)`` in general.  Floats and complex numbers also
    record the signs of their zeros; tuples and frozensets (namedtuples
    included) are keyed element-wise by this same rule.  For subclasses of
    these built-ins the value itself is kept in the key too, so their own
    ``__eq__`` still has to agree.  Keys are compared by ``==`` with Python's
    identity shortcut, so an object always matches itself (even a NaN).
    """
    kind = type(value)
    if isinstance(value, float):
        refined: tuple[object, ...] = (_signbit(value),)
    elif isinstance(value, complex):
        refined = (_signbit(value.real), _signbit(value.imag))
    elif isinstance(value, tuple):
        refined = (tuple(value_key(item) for item in value),)
    elif isinstance(value, frozenset):
        refined = (frozenset(value_key(item) for item in value),)
    else:
        return (kind, value)
    if kind is tuple or kind is frozenset:  # fully described by their items
        return (kind, *refined)
    return (kind, value, *refined)


def same_value(a: object, b: object) -> bool:
    """Whether compaction would join values ``a`` and ``b``."""
    return a is b or value_key(a) == value_key(b)


def _compacted(mgr: GuardManager, entries: Iterable[Entry[V]], join: bool) -> tuple[Entry[V], ...]:
    """Drop false guards; with ``join``, OR together the guards of equal
    values, keeping each value where it first appears (first representative)."""
    with mgr.timed():
        return _compacted_untimed(mgr, entries, join)


def _compacted_untimed(mgr: GuardManager, entries: Iterable[Entry[V]], join: bool) -> tuple[Entry[V], ...]:
    if not join:
        return tuple((g, v) for g, v in entries if not mgr.is_false(g))
    position: dict[Hashable, int] = {}
    out: list[Entry[V]] = []
    for g, v in entries:
        if mgr.is_false(g):
            continue
        key = value_key(v)
        i = position.get(key)
        if i is None:
            position[key] = len(out)
            out.append((g, v))
        else:
            out[i] = (mgr.or_(out[i][0], g), out[i][1])
    return tuple(out)


def _conjoined(mgr: GuardManager, entries: Iterable[Entry[V]], g: Guard) -> Iterator[Entry[V]]:
    """``(h and g, v)`` for every entry ``(h, v)``; false guards included."""
    return ((mgr.and_(h, g), v) for h, v in entries)


@dataclass(frozen=True, slots=True, eq=False)
class ValueSummary(Generic[V]):
    """An immutable tuple of ``(guard, value)`` entries with disjoint guards.

    The constructor takes the entries as given (the caller guarantees the
    disjointness; false guards and repeated values are tolerated and removed
    by :meth:`compact`).  Every other way of building a summary goes through
    the class methods and operations below, which keep the invariants of the
    module docstring.  ``==`` is structural: same entries in the same order,
    values compared by :func:`same_value`; use :meth:`equivalent` to compare
    meanings.
    """

    entries: tuple[Entry[V], ...] = ()

    # ---------------------------------------------------------- building

    @classmethod
    def empty(cls) -> ValueSummary[V]:
        """The summary defined nowhere."""
        return cls(())

    @classmethod
    def single(cls, mgr: GuardManager, value: V) -> ValueSummary[V]:
        """``{(true, value)}``: the same value on every path."""
        return cls(((mgr.true, value),))

    @classmethod
    def guarded(cls, mgr: GuardManager, guard: Guard, value: V) -> ValueSummary[V]:
        """``{(guard, value)}``, or the empty summary if ``guard`` is false."""
        return cls(_compacted(mgr, ((guard, value),), join=False))

    @classmethod
    def from_entries(cls, mgr: GuardManager, entries: Iterable[Entry[V]], *, join: bool = True) -> ValueSummary[V]:
        """Compacted summary of ``entries`` (whose guards must be disjoint
        wherever their values differ)."""
        return cls(_compacted(mgr, entries, join))

    # ----------------------------------------------------------- algebra

    def compact(self, mgr: GuardManager, *, join: bool = True) -> ValueSummary[V]:
        """Drop false guards and, with ``join``, merge entries with equal
        values by OR-ing their guards.  Entries stay in order of first
        appearance of their value; the first representative of a value is
        kept."""
        return ValueSummary(_compacted(mgr, self.entries, join))

    def restrict(self, mgr: GuardManager, g: Guard) -> ValueSummary[V]:
        """``{(h and g, v) for (h, v) in self}`` without the false guards.

        Never joins values (restriction cannot make distinct values equal)."""
        entries = self.entries if mgr.is_true(g) else _conjoined(mgr, self.entries, g)
        return ValueSummary(_compacted(mgr, entries, join=False))

    def merge(self, mgr: GuardManager, other: ValueSummary[V], *, join: bool = True) -> ValueSummary[V]:
        """Union of two summaries over disjoint path sets, then compacted.

        Precondition: a guard of ``self`` and a guard of ``other`` may overlap
        only if their values are equal (so ``s.merge(mgr, s) == s.compact(mgr)``);
        this is not checked.  The entries of ``self`` come first."""
        return ValueSummary(_compacted(mgr, chain(self.entries, other.entries), join))

    def assign(self, mgr: GuardManager, pc: Guard, new_value: V, *, join: bool = True) -> ValueSummary[V]:
        """The summary after ``x := new_value`` executed under path constraint ``pc``.

        Exactly ``compact({(g and not pc, v) for (g, v) in self} | {(pc, new_value)})``:
        old entries keep their relative order, the new value comes last
        unless it joins an equal old value (whose position it then takes)."""
        return self.assign_summary(mgr, pc, ValueSummary.single(mgr, new_value), join=join)

    def assign_summary(self, mgr: GuardManager, pc: Guard, rhs: ValueSummary[V], *, join: bool = True) -> ValueSummary[V]:
        """The paper's assignment with a summarised right-hand side:
        ``compact({(g and not pc, v) for (g, v) in self} | {(h and pc, w) for (h, w) in rhs})``.

        When every right-hand value is one value ``w`` that the summary already holds under a
        guard ``g`` containing ``pc``, that is the summary itself (its other guards are
        disjoint from ``g``, hence from ``pc``): returned as is, without guard algebra."""
        return self.assign_counted(mgr, pc, rhs, join=join)[0]

    def assign_counted(self, mgr: GuardManager, pc: Guard, rhs: ValueSummary[V], *, join: bool = True) -> tuple[ValueSummary[V], int]:
        """:meth:`assign_summary`, and how many entries compaction joined: of the non-false
        entries in the union above, how many were OR-ed into an entry with an equal value
        (the paper's "variable merges saved")."""
        if join and rhs.entries:
            key = value_key(rhs.entries[0][1])
            if all(value_key(w) == key for _, w in rhs.entries[1:]):
                for g, v in self.entries:
                    if value_key(v) == key:
                        with mgr.timed():
                            covered = mgr.implies(pc, g)
                        if covered:  # every rhs entry joins (g and not pc), which is false iff g == pc
                            return self, len(rhs.entries) - (1 if g == pc else 0)
                        break
        with mgr.timed():
            kept = [e for e in _conjoined(mgr, self.entries, mgr.not_(pc)) if not mgr.is_false(e[0])]
            assigned = [e for e in _conjoined(mgr, rhs.entries, pc) if not mgr.is_false(e[0])]
        entries = _compacted(mgr, chain(kept, assigned), join)
        return ValueSummary(entries), len(kept) + len(assigned) - len(entries)

    def map(self, mgr: GuardManager, fn: Callable[[V], W], *, join: bool = True) -> ValueSummary[W]:
        """``compact({(g, fn(v)) for (g, v) in self})``."""
        return ValueSummary(_compacted(mgr, ((g, fn(v)) for g, v in self.entries), join))

    def lift2(
        self,
        mgr: GuardManager,
        other: ValueSummary[U],
        fn: Callable[[V, U], W],
        *,
        join: bool = True,
    ) -> ValueSummary[W]:
        """``compact({(g and h, fn(v, w)) for (g, v) in self for (h, w) in other
        if g and h is not false})``; ``fn`` runs only on feasible pairs."""
        return ValueSummary.lift(mgr, (self, other), fn, join=join)

    @staticmethod
    def lift(
        mgr: GuardManager,
        summaries: Sequence[ValueSummary[Any]],
        fn: Callable[..., W],
        *,
        join: bool = True,
    ) -> ValueSummary[W]:
        """n-ary :meth:`lift2`: ``fn(*values)`` over every combination of one
        entry per operand whose guards have a non-false conjunction (pruned
        operand by operand, in row-major order).  With no operands the result
        is ``{(true, fn())}``."""
        combos: list[tuple[Guard, tuple[Any, ...]]] = [(mgr.true, ())]
        for summary in summaries:
            combos = _extend(mgr, combos, summary)
        return ValueSummary(_compacted(mgr, ((g, fn(*args)) for g, args in combos), join))

    # ---------------------------------------------------------- queries

    def guard_of(self, mgr: GuardManager, predicate: Callable[[V], object]) -> Guard:
        """OR of the guards of the entries whose value satisfies ``predicate``
        (e.g. ``bool`` for "the branch condition is true")."""
        chosen = [g for g, v in self.entries if predicate(v)]
        with mgr.timed():
            return mgr.or_all(chosen)

    def domain(self, mgr: GuardManager) -> Guard:
        """OR of all guards: where the summary is defined."""
        with mgr.timed():
            return mgr.or_all(self.guards())

    def guards(self) -> tuple[Guard, ...]:
        """The guards, in entry order."""
        return tuple(g for g, _ in self.entries)

    def values(self) -> tuple[V, ...]:
        """The values, in entry order."""
        return tuple(v for _, v in self.entries)

    def is_well_formed(self, mgr: GuardManager, *, joined: bool = False) -> bool:
        """Whether guards are non-false and pairwise disjoint (and, with
        ``joined``, values pairwise distinct).  Quadratic; for tests/asserts."""
        guards = self.guards()
        if any(mgr.is_false(g) for g in guards):
            return False
        for i, g in enumerate(guards):
            if any(not mgr.is_false(mgr.and_(g, h)) for h in guards[i + 1 :]):
                return False
        keys = {value_key(v) for v in self.values()}
        return not joined or len(keys) == len(guards)

    def equivalent(self, mgr: GuardManager, other: ValueSummary[Any]) -> bool:
        """Whether both summaries denote the same partial function from
        assignments to values (order and representation ignored)."""
        mine = {value_key(v): g for g, v in self.compact(mgr).entries}
        theirs = {value_key(v): g for g, v in other.compact(mgr).entries}
        return mine == theirs

    # --------------------------------------------------------- protocol

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry[V]]:
        return iter(self.entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValueSummary) or len(other) != len(self):
            return False
        return all(g == h and same_value(v, w) for (g, v), (h, w) in zip(self.entries, other.entries))

    def __hash__(self) -> int:
        return hash(tuple((g, value_key(v)) for g, v in self.entries))

    def __repr__(self) -> str:
        body = ", ".join(f"({g}, {v!r})" for g, v in self.entries)
        return f"ValueSummary([{body}])"


def _extend(
    mgr: GuardManager,
    combos: list[tuple[Guard, tuple[Any, ...]]],
    summary: ValueSummary[Any],
) -> list[tuple[Guard, tuple[Any, ...]]]:
    """Each feasible combination extended by each entry of ``summary``."""
    extended: list[tuple[Guard, tuple[Any, ...]]] = []
    with mgr.timed():
        for g, args in combos:
            for h, v in summary.entries:
                both = mgr.and_(g, h)
                if not mgr.is_false(both):
                    extended.append((both, (*args, v)))
    return extended
