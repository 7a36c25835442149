"""Guards: boolean functions over opaque atoms, represented as BDDs.

What this module owns
    :class:`GuardManager` owns exactly one BDD manager (``dd.cudd.BDD`` when
    the CUDD extension imports, otherwise the pure-Python ``dd.autoref.BDD``)
    and the bijection between *atoms* and BDD variables.  An atom is any
    hashable Python object -- in practice an immutable symbolic boolean term
    of the engine -- and is treated as opaque: the BDD knows nothing about its
    meaning, so two atoms that are logically related (``x > 0`` and
    ``x > 1``) are independent variables here.  Deciding feasibility modulo
    theories is the SMT solver's job; :meth:`GuardManager.to_formula` turns a
    guard back into a formula the solver (or the engine) understands.

Invariants
    * Atom ``k`` (0-based, in order of first use) is the BDD variable named
      ``f"a{k}"``; the atom <-> name maps are only ever extended.  Atoms are
      keyed by ``(type(atom), atom)`` so that ``1`` and ``True`` (equal and
      equally hashed in Python) are different atoms.
    * Every guard handed out is a node of this manager's BDD, hence canonical:
      two guards denote the same boolean function iff they are ``==``.
    * Every call into the BDD library made on a caller's behalf is counted in
      :attr:`GuardManager.ops`; :attr:`GuardManager.time_s` sums the regions the
      caller wraps in :meth:`GuardManager.timed` (batches of guard algebra: timing
      each call would double its cost).

Paper
    Implements the "guards as BDDs" part of MultiSE (Sen, Necula, Gong, Choi:
    "MultiSE: Multi-path Symbolic Execution using Value Summaries", UCB EECS
    tech report, Oct. 2014, also ESEC/FSE 2015; implementation slide 65):
    guards and path constraints of value summaries are BDDs over the branch
    conditions, and a cheap BDD check (:meth:`GuardManager.is_false`)
    screens out infeasible guards before any SMT query.  Departures: the
    manager is an explicit object passed to every operation (no global BDD),
    and it measures its own cost so that the engine can report "time in BDD
    operations" like the paper's evaluation table.  Atoms are opaque even
    when they are Python booleans: ``atom(True)`` is a fresh variable, not
    :attr:`GuardManager.true`; callers should map constants to ``true`` /
    ``false`` themselves.

Structure walking
    ``to_formula``, ``cubes`` and ``evaluate`` walk the BDD with explicit
    stacks (no recursion, so guards over thousands of atoms are fine) using
    the node API common to both backends: ``u.var`` (``None`` for the
    constant), ``u.high``/``u.low`` (children of the *regular* node, each an
    edge that may itself be complemented) and ``u.negated`` (whether the edge
    ``u`` is complemented).  The function denoted by an edge ``u`` is
    ``not R`` if ``u.negated`` else ``R``, where ``R`` is ``TRUE`` for the
    constant node and ``ite(var, high, low)`` otherwise.  ``dd``'s own
    ``pick_iter`` is deliberately not used: it logs a warning when
    ``care_vars`` misses part of the support, enumerates don't-care bits in
    ``set`` order (which depends on ``PYTHONHASHSEED``) and, with CUDD,
    switches dynamic reordering off until the generator is exhausted.  Dynamic
    variable reordering (``dd``'s default) stays on while there are at most
    :data:`REORDER_MAX_ATOMS` atoms and is switched off for good when the
    manager grows past them; it pauses while sifting has taken more than
    :data:`REORDER_MAX_SHARE` of the manager's lifetime (CUDD only): sifting pays off when few atoms are compared in
    many orders (heap sort: 1.3 s with reordering, over 100 s without), and
    costs up to 80 microseconds per operation once there are thousands of
    atoms (``no_sharing``: 9.3 s of BDD time with it, 0.16 s without).  Node
    identity and meaning survive reordering; the *shape* of formulas and
    cubes (which atom is tested first) may differ between runs that performed
    different operations, their meaning never does.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import time
import warnings
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar, cast

__all__ = ["BACKENDS", "Guard", "GuardManager"]

F = TypeVar("F")
K = TypeVar("K", bound=Hashable)

#: Backends accepted by :class:`GuardManager`, in order of preference.
BACKENDS: tuple[str, ...] = ("cudd", "autoref")

_CUDD_DEFAULT_MEMORY = 1 << 30  # dd.cudd's own default cap: 1 GiB

#: Dynamic variable reordering is switched off when the manager declares more atoms, and
#: paused while sifting has taken more than this share of the manager's lifetime.
REORDER_MAX_ATOMS = 256
REORDER_MAX_SHARE = 0.25
REORDER_FREE_S = 0.5  # sifting time always allowed
REORDER_CHECK_S = 0.25  # seconds between two looks at the time sifting took
#: CUDD only: variable swaps one sifting may make (CUDD's default is two million). Short
#: siftings keep the sorting programs' BDDs small at a fraction of the cost (Kadane's
#: program: 1.5 s with the default, 0.44 s with this; heap sort and quick sort unchanged).
REORDER_MAX_SWAPS = 10_000
#: CUDD only: sifting moves a variable on only while the BDD stays within this factor of the
#: smallest size seen on that move (CUDD's default is 1.2). On the 17 benchmark programs, side
#: by side in one table run each: calc parser 1.27 s -> 1.08 s, PL/0 parser 3.02 -> 2.70 s, the
#: others within noise or better except heap sort (0.70 -> 0.76 s); 1.0 sends quick sort to
#: 167 s (sifting stops before it gets past a bump).
REORDER_MAX_GROWTH = 1.02


class Guard(Protocol):
    """The part of ``dd``'s ``Function`` (both backends) that guards expose.

    Guards are produced only by a :class:`GuardManager`; combine them through
    the manager (so that the work is counted), not with ``&``/``|``/``~``.
    """

    @property
    def var(self) -> str | None: ...

    @property
    def low(self) -> Guard | None: ...

    @property
    def high(self) -> Guard | None: ...

    @property
    def negated(self) -> bool: ...

    @property
    def dag_size(self) -> int: ...

    def __and__(self, other: Guard) -> Guard: ...

    def __or__(self, other: Guard) -> Guard: ...

    def __invert__(self) -> Guard: ...

    def __le__(self, other: Guard) -> bool: ...

    def __hash__(self) -> int: ...


#: ``(variable name, high edge, low edge)`` of a non-constant BDD node.
_Node = tuple[str, Guard, Guard]


#: CUDD only: the most memory one manager may take; an operation that needs more fails
#: (``GuardMemoryExceeded``) instead of growing. One ``or`` of two MultiSE guards grew to
#: 19.5 GB in 11 minutes of a single native call in a fuzzing run, where neither the deadline
#: (checked between operations) nor the process's memory bound could stop it. 1 GiB (at about
#: 30 MB/s of growth, such a call fails within about 35 s), or half of ``PATHLOOM_MAX_RSS_MB``
#: (the process's bound, ``semantics.control.MAX_RSS_MB``) when that is less.
CUDD_MAX_MEMORY = min(2**30, int(os.environ.get("PATHLOOM_MAX_RSS_MB", "8192")) * 2**20 // 2)


def _cudd_memory_estimate() -> int:
    """dd.cudd's default memory cap, lowered to half the RAM on small hosts.

    ``dd.cudd.BDD()`` refuses (and prints) when its 1 GiB default is not
    below the physical memory, so the cap is chosen here instead.
    """
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return _CUDD_DEFAULT_MEMORY
    return min(_CUDD_DEFAULT_MEMORY, physical // 2)


def _make_bdd(preference: str | None) -> tuple[str, Any]:
    """Return ``(backend name, fresh BDD manager)``.

    ``preference`` ``None`` means: CUDD if ``dd.cudd`` imports, else autoref.
    ``"cudd"`` insists on CUDD (``ImportError`` propagates); ``"autoref"``
    always uses the pure-Python backend.
    """
    if preference is not None and preference not in BACKENDS:
        raise ValueError(f"unknown BDD backend {preference!r}; expected one of {BACKENDS}")
    if preference != "autoref":
        try:
            cudd = importlib.import_module("dd.cudd")
        except ImportError:
            if preference == "cudd":
                raise
        else:
            bdd = cudd.BDD(_cudd_memory_estimate())
            bdd.configure(max_swaps=REORDER_MAX_SWAPS, max_growth=REORDER_MAX_GROWTH, max_memory=CUDD_MAX_MEMORY)
            return "cudd", bdd
    return "autoref", importlib.import_module("dd.autoref").BDD()


def _identity_leaf(atom: Hashable) -> Any:
    return atom


def _expand(path: dict[str, bool], care_vars: tuple[tuple[Hashable, str | None], ...]) -> Iterator[dict[Hashable, bool]]:
    """All total assignments of the care atoms that extend the cube ``path``
    (free atoms enumerated ``False`` before ``True``, first atom slowest)."""
    fixed = {i: path[n] for i, (_, n) in enumerate(care_vars) if n is not None and n in path}
    free = [i for i in range(len(care_vars)) if i not in fixed]
    for bits in itertools.product((False, True), repeat=len(free)):
        values = {**fixed, **dict(zip(free, bits))}
        yield {a: values[i] for i, (a, _) in enumerate(care_vars)}


def _regular_key(edge: Any) -> Any:
    """A key of the regular node under an edge (the same for an edge and its complement)."""
    return ~edge if edge.negated else edge


def _edge_counts(table: dict[Any, tuple[int, int]], edge: Any) -> tuple[int, int]:
    """(paths to TRUE, paths to FALSE) through ``edge``: a complement edge swaps them."""
    if edge.var is None:
        return (0, 1) if edge.negated else (1, 0)
    t, f = table[_regular_key(edge)]
    return (f, t) if edge.negated else (t, f)


def _balanced(items: list[Guard], op: Callable[[Guard, Guard], Guard], unit: Guard) -> Guard:
    """``op`` folded over ``items`` pairwise, as a balanced tree."""
    if not items:
        return unit
    while len(items) > 1:
        paired = [op(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            paired.append(items[-1])
        items = paired
    return items[0]


class _Timing:
    """The context manager of :meth:`GuardManager.timed`."""

    __slots__ = ("_mgr",)

    def __init__(self, mgr: GuardManager) -> None:
        self._mgr = mgr

    def __enter__(self) -> None:
        mgr = self._mgr
        if mgr._timing_depth == 0:
            mgr._timing_start = time.perf_counter()
        mgr._timing_depth += 1

    def __exit__(self, *exc: object) -> None:
        mgr = self._mgr
        mgr._timing_depth -= 1
        if mgr._timing_depth == 0:
            now = time.perf_counter()
            mgr._time_s += now - mgr._timing_start
            if now - mgr._last_check > REORDER_CHECK_S:  # reading CUDD's statistics costs ~0.5 ms
                mgr._last_check = now
                mgr._check_reordering()


class GuardTimeout(Exception):
    """Guard algebra went past the deadline of a ``GuardManager.stopping_at`` block."""


class GuardMemoryExceeded(GuardTimeout):
    """A guard operation needed more than ``CUDD_MAX_MEMORY`` (CUDD answered no node): like a
    timeout, the work is dropped, and the exploration is cut with reason ``memory``."""


class GuardManager:
    """Owner of one BDD; creates, combines, inspects and measures guards.

    ``backend`` selects the BDD library: ``None`` (default) tries ``dd.cudd``
    and falls back to ``dd.autoref`` when it cannot be imported; ``"cudd"`` or
    ``"autoref"`` force one.  The choice made is :attr:`backend`.

    Lifetime caveat (a ``dd`` limitation): both backends assert, when the BDD
    manager is destroyed, that no guard is still alive.  If the manager and
    some guards become garbage *together in one reference cycle*, the cyclic
    collector may destroy the manager first; ``dd`` then reports "nodes still
    referenced" on stderr and, with CUDD, does not free the manager.  Keep
    the manager out of cycles with its guards (or drop the guards first).
    The manager itself holds no guard, so an idle manager is always safe.
    """

    __slots__ = (
        "__weakref__",
        "_atom_of",
        "_backend",
        "_bdd",
        "_born",
        "_last_check",
        "_name_of",
        "_ops",
        "_reordering",
        "_sifting",
        "_time_s",
        "_timing_depth",
        "_timing_start",
        "_stop_at",
        "_until_check",
    )

    def __init__(self, backend: str | None = None) -> None:
        self._backend, self._bdd = _make_bdd(backend)
        self._name_of: dict[tuple[type, Hashable], str] = {}
        self._atom_of: dict[str, Hashable] = {}
        self._ops = 0
        self._stop_at: float | None = None  # see ``stopping_at``
        self._until_check = 256
        self._time_s = 0.0
        self._timing_depth = 0
        self._timing_start = 0.0
        self._born = self._last_check = time.perf_counter()
        self._reordering = self._backend == "cudd"  # allowed at all (atoms within the cap)
        self._sifting = self._reordering  # switched on in CUDD right now

    # ------------------------------------------------------------------ info

    @property
    def backend(self) -> str:
        """``"cudd"`` or ``"autoref"``: the ``dd`` backend in use."""
        return self._backend

    @property
    def ops(self) -> int:
        """Number of BDD operations performed so far."""
        return self._ops

    @property
    def time_s(self) -> float:
        """Seconds spent inside :meth:`timed` regions so far (``perf_counter``)."""
        return self._time_s

    def _count(self) -> None:
        self._ops += 1
        if self._stop_at is not None:
            self._until_check -= 1
            if self._until_check <= 0:
                self._until_check = 256
                if time.monotonic() > self._stop_at:
                    raise GuardTimeout()

    @contextlib.contextmanager
    def stopping_at(self, deadline: float | None) -> Iterator[None]:
        """Within the block, combining guards past ``deadline`` (``time.monotonic``) raises
        ``GuardTimeout`` (checked every 256 operations): for work the caller can drop whole,
        such as a MultiSE step that has committed nothing yet."""
        outer = self._stop_at
        self._stop_at = deadline
        try:
            yield
        finally:
            self._stop_at = outer

    def reset_counters(self) -> None:
        """Set :attr:`ops` and :attr:`time_s` back to zero."""
        self._ops = 0
        self._time_s = 0.0

    def timed(self) -> _Timing:
        """A context manager adding its wall time to :attr:`time_s`.

        Guard algebra is timed in batches (a whole summary operation, say), not
        per BDD call: a clock read costs as much as a small BDD operation.  Nested
        regions count once, for the outermost one."""
        return _Timing(self)

    def _check_reordering(self) -> None:
        """Keep sifting within a budget: it is paused while it has cost more than
        :data:`REORDER_MAX_SHARE` of this manager's lifetime (and half a second), and resumes
        once the lifetime has grown enough. Pausing for good let the variable order decay: a
        parser's BDDs grew from 19k to 300k nodes after sifting stopped at 1.6 s, as the atoms
        allocated later all went to the bottom of the order."""
        if not self._reordering:
            return  # CUDD only, and never again past REORDER_MAX_ATOMS
        with warnings.catch_warnings():  # dd warns that a key we do not read changed unit
            warnings.simplefilter("ignore")
            spent = self._bdd.statistics()["reordering_time"]
        within = spent <= REORDER_FREE_S or spent <= REORDER_MAX_SHARE * (time.perf_counter() - self._born)
        if within != self._sifting:
            self._bdd.configure(reordering=within)
            self._sifting = within

    @property
    def atoms(self) -> tuple[Hashable, ...]:
        """All atoms allocated so far, in allocation (= variable) order."""
        return tuple(self._atom_of.values())

    def var_name(self, atom: Hashable) -> str | None:
        """The BDD variable name of ``atom``, or ``None`` if not allocated."""
        return self._name_of.get((type(atom), atom))

    def atom_of(self, name: str) -> Hashable:
        """The atom behind BDD variable ``name`` (``KeyError`` if unknown)."""
        return self._atom_of[name]

    # -------------------------------------------------------------- building

    @property
    def true(self) -> Guard:
        """The guard that always holds."""
        result: Guard = self._bdd.true  # not cached: the manager holds no guard (see above)
        return result

    @property
    def false(self) -> Guard:
        """The guard that never holds."""
        result: Guard = self._bdd.false
        return result

    def atom(self, atom: Hashable) -> Guard:
        """The guard "``atom`` holds", allocating a variable on first use."""
        key = (type(atom), atom)
        name = self._name_of.get(key)
        if name is None:
            name = f"a{len(self._name_of)}"
            if len(self._name_of) == REORDER_MAX_ATOMS and self._reordering:
                self._bdd.configure(reordering=False)
                self._reordering = self._sifting = False
            self._bdd.declare(name)
            self._name_of[key] = name
            self._atom_of[name] = atom
        self._ops += 1
        result: Guard = self._bdd.var(name)
        return result

    def and_(self, g: Guard, h: Guard) -> Guard:
        """Conjunction ``g and h``."""
        self._count()
        try:
            return g & h
        except ValueError:  # dd.cudd: CUDD gave no node (past CUDD_MAX_MEMORY)
            raise GuardMemoryExceeded() from None

    def or_(self, g: Guard, h: Guard) -> Guard:
        """Disjunction ``g or h``."""
        self._count()
        try:
            return g | h
        except ValueError:
            raise GuardMemoryExceeded() from None

    def not_(self, g: Guard) -> Guard:
        """Negation ``not g``."""
        self._count()
        return ~g

    def ite(self, c: Guard, g: Guard, h: Guard) -> Guard:
        """``(c and g) or (not c and h)`` in one BDD operation."""
        self._count()
        try:
            result: Guard = self._bdd.ite(c, g, h)
        except ValueError:
            raise GuardMemoryExceeded() from None
        return result

    def and_all(self, guards: Iterable[Guard]) -> Guard:
        """Conjunction of ``guards`` (``true`` when empty)."""
        return _balanced(list(guards), self.and_, self._bdd.true)

    def or_all(self, guards: Iterable[Guard]) -> Guard:
        """Disjunction of ``guards`` (``false`` when empty), combined as a balanced tree:
        OR-ing n disjoint cubes one by one costs O(n^2) nodes, pairwise O(n log n)."""
        return _balanced(list(guards), self.or_, self._bdd.false)

    # ------------------------------------------------------------- querying

    def is_false(self, g: Guard) -> bool:
        """Whether ``g`` is unsatisfiable as a propositional formula."""
        return bool(g == self._bdd.false)

    def is_true(self, g: Guard) -> bool:
        """Whether ``g`` is valid as a propositional formula."""
        return bool(g == self._bdd.true)

    def implies(self, g: Guard, h: Guard) -> bool:
        """Whether every assignment satisfying ``g`` satisfies ``h``."""
        self._ops += 1
        return g <= h

    def support(self, g: Guard) -> tuple[Hashable, ...]:
        """The atoms ``g`` depends on, in allocation order."""
        self._ops += 1
        names = sorted(self._bdd.support(g), key=lambda n: int(n[1:]))
        return tuple(self._atom_of[n] for n in names)

    def size(self, g: Guard) -> int:
        """Number of BDD nodes reachable from ``g``."""
        self._ops += 1
        result: int = g.dag_size
        return result

    def _node(self, e: Guard) -> _Node | None:
        """``(var, high, low)`` of the regular node under edge ``e``; ``None``
        for the constant node."""
        self._ops += 1
        var = e.var
        if var is None:
            return None
        high, low = e.high, e.low
        assert high is not None and low is not None
        return (var, high, low)

    def _function_node(self, e: Guard) -> _Node | None:
        """``(var, high, low)`` of the function under edge ``e`` (a complement edge's children
        complemented too): the cofactors the walks down one path follow."""
        node = self._node(e)
        if node is None or not e.negated:
            return node
        var, high, low = node
        return (var, ~high, ~low)

    def evaluate(self, g: Guard, assignment: Mapping[K, bool]) -> bool:
        """Truth value of ``g`` when each atom ``a`` has value ``assignment[a]``.

        Only the atoms on the path taken need a value (``KeyError`` otherwise). Only the child
        taken is read at each node (``dd`` makes a new object for every child it returns).
        """
        self._ops += 1
        atom_of = self._atom_of
        value = True
        edge = g
        while True:
            if edge.negated:
                value = not value
            var = edge.var
            if var is None:
                return value
            edge = cast(Guard, edge.high if assignment[cast(K, atom_of[var])] else edge.low)  # not None: var is set

    def cube_near(self, g: Guard, truth: Mapping[Hashable, bool]) -> list[tuple[Hashable, bool]]:
        """One path of ``g`` to ``TRUE``, as literals ``(atom, polarity)``, that follows the
        assignment ``truth`` wherever ``g`` allows: at each node the branch ``truth`` takes,
        unless it is the false constant (in a reduced BDD every other node reaches ``TRUE``).
        ``g`` must not be false."""
        self._ops += 1
        literals: list[tuple[Hashable, bool]] = []
        atom_of = self._atom_of
        false = self._bdd.false
        edge = g
        negated = False  # parity of the complement edges passed: the function under ``edge``
        while True:
            if edge.negated:
                negated = not negated
            var = edge.var
            if var is None:
                assert negated is False, "cube_near of the false guard"
                return literals
            atom = atom_of[var]
            value = bool(truth[atom])
            child = cast(Guard, edge.high if value else edge.low)  # not None: var is set
            if (~child if negated else child) == false:  # the function's cofactor is false
                value = not value
                child = cast(Guard, edge.high if value else edge.low)
            literals.append((atom, value))
            edge = child

    def path_count(self, g: Guard, table: dict[Any, tuple[int, int]] | None = None) -> int:
        """Number of paths from ``g`` to ``TRUE``: the disjoint cubes :meth:`cubes` yields,
        counted without listing them (linear in the size of ``g``). ``table`` (regular node
        -> paths to TRUE and to FALSE) may be shared by calls on guards with common nodes."""
        to_true: dict[Any, tuple[int, int]] = {} if table is None else table

        def counts(edge: Guard) -> tuple[int, int]:
            stack = [edge]
            while stack:
                top = stack[-1]
                node = self._node(top)
                key = _regular_key(top)
                if node is None or key in to_true:
                    stack.pop()
                    if node is None:
                        to_true[key] = (1, 0)  # the constant node is TRUE
                    continue
                _, high, low = node
                pending = [c for c in (high, low) if _regular_key(c) not in to_true and self._node(c) is not None]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                h, lo = _edge_counts(to_true, high), _edge_counts(to_true, low)
                to_true[key] = (h[0] + lo[0], h[1] + lo[1])
            return _edge_counts(to_true, edge)

        return counts(g)[0]

    def split_cube(self, g: Guard) -> tuple[list[tuple[Hashable, bool]], Guard]:
        """``g`` as ``literals and rest``: the literals ``(atom, polarity)`` that every
        satisfying assignment shares along the top of the BDD (a node with a false child
        forces its variable), and the guard ``rest`` below them (``true`` for a cube).
        Works for ``false`` too: no literals, ``rest`` is ``false``."""
        literals: list[tuple[Hashable, bool]] = []
        edge = g
        false = self._bdd.false
        while True:
            node = self._function_node(edge)
            if node is None:
                return literals, edge
            var, high, low = node
            if low == false:
                literals.append((self._atom_of[var], True))
                edge = high
            elif high == false:
                literals.append((self._atom_of[var], False))
                edge = low
            else:
                return literals, edge

    def _paths(self, g: Guard) -> Iterator[dict[str, bool]]:
        """Cubes (by variable name) of the paths from ``g`` to ``TRUE``:
        pairwise disjoint, their disjunction is ``g``; low branches first."""
        stack: list[tuple[Guard, bool, tuple[tuple[str, bool], ...]]] = [(g, True, ())]
        while stack:
            edge, value, cube = stack.pop()
            if edge.negated:
                value = not value
            node = self._node(edge)
            if node is None:
                if value:
                    yield dict(cube)
                continue
            var, high, low = node
            stack.append((high, value, cube + ((var, True),)))
            stack.append((low, value, cube + ((var, False),)))

    def cubes(self, g: Guard, care: Iterable[Hashable] | None = None) -> Iterator[dict[Hashable, bool]]:
        """Satisfying assignments of ``g`` as dicts ``atom -> bool``.

        Without ``care``: one partial assignment per BDD path to ``TRUE``;
        the cubes are pairwise disjoint, atoms they omit are don't-cares and
        their disjunction is exactly ``g`` (``false`` yields nothing, ``true``
        yields ``{}``).  With ``care``: every *total* assignment of the atoms
        in ``care`` that satisfies ``g``, each exactly once (the don't-cares
        of each path expanded, ``False`` before ``True``, in ``care`` order);
        ``care`` must include the support of ``g`` (``ValueError`` otherwise).
        Order is deterministic and independent of ``PYTHONHASHSEED``.
        """
        if care is None:
            for path in self._paths(g):
                yield {self._atom_of[n]: b for n, b in path.items()}
            return
        care_vars = self._care_vars(g, care)
        for path in self._paths(g):
            yield from _expand(path, care_vars)

    def _care_vars(self, g: Guard, care: Iterable[Hashable]) -> tuple[tuple[Hashable, str | None], ...]:
        """``(atom, variable name or None)`` for each distinct care atom,
        checking that they cover the support of ``g``."""
        atoms = {(type(a), a): a for a in care}.values()
        care_vars = tuple((a, self.var_name(a)) for a in atoms)
        names = {n for _, n in care_vars}
        missing = [a for a in self.support(g) if self.var_name(a) not in names]
        if missing:
            raise ValueError(f"care atoms miss part of the guard's support: {missing!r}")
        return care_vars

    # ----------------------------------------------------------- formulas

    def to_formula(
        self,
        g: Guard,
        conj: Callable[[F, F], F],
        disj: Callable[[F, F], F],
        neg: Callable[[F], F],
        true: F,
        false: F,
        *,
        leaf: Callable[[Hashable], F] | None = None,
    ) -> F:
        """Rebuild ``g`` as a formula through the caller's constructors.

        ``conj``/``disj`` build binary and/or, ``neg`` negation, ``true`` and
        ``false`` are the constants, and ``leaf`` turns an atom into a
        formula (default: the atom itself, for engines whose atoms already
        are formulas).  Each BDD node is converted once (memoised on the
        node); a node ``ite(a, H, L)`` becomes ``a``, ``not a``, ``a or L``,
        ``not a and L``, ``not a or H``, ``a and H`` when a child is constant,
        and ``(a and H) or (not a and L)`` otherwise.  Rebuilding with this
        manager's own ``and_``/``or_``/``not_``/``true``/``false`` and
        ``leaf=self.atom`` gives back ``g`` itself.
        """
        return self.formula_builder(conj, disj, neg, true, false, leaf=leaf).build(g)

    def formula_builder(
        self,
        conj: Callable[[F, F], F],
        disj: Callable[[F, F], F],
        neg: Callable[[F], F],
        true: F,
        false: F,
        *,
        leaf: Callable[[Hashable], F] | None = None,
        ite: Callable[[F, F, F], F] | None = None,
    ) -> FormulaBuilder[F]:
        """A :meth:`to_formula` that keeps its per-node memo across calls (``build``), for
        callers that convert many guards sharing nodes. With ``ite``, a node whose children
        are both non-constant becomes ``ite(a, H, L)`` instead of the and/or form."""
        make_leaf = leaf if leaf is not None else cast(Callable[[Hashable], F], _identity_leaf)
        return FormulaBuilder(self, conj, disj, neg, true, false, make_leaf, ite)


class FormulaBuilder(Generic[F]):
    """Per-node memo plus the caller's constructors (see :meth:`GuardManager.formula_builder`);
    the memo keeps the converted nodes alive as long as the builder."""

    def __init__(
        self,
        mgr: GuardManager,
        conj: Callable[[F, F], F],
        disj: Callable[[F, F], F],
        neg: Callable[[F], F],
        true: F,
        false: F,
        leaf: Callable[[Hashable], F],
        ite: Callable[[F, F, F], F] | None = None,
    ) -> None:
        self._mgr = mgr
        self._ite_of = ite
        self._conj, self._disj, self._neg = conj, disj, neg
        self._true_f, self._false_f, self._leaf = true, false, leaf
        self._nodes: dict[Guard, _Node | None] = {}
        self._body: dict[_Node, F] = {}
        self._negated_body: dict[_Node, F] = {}
        self._literals: dict[tuple[str, bool], F] = {}

    def build(self, root: Guard) -> F:
        """Convert every node below ``root`` bottom-up, then ``root``."""
        stack = [root]
        while stack:
            node = self._node(stack[-1])
            if node is None or node in self._body:
                stack.pop()
                continue
            _, high, low = node
            pending = [c for c in (high, low) if self._pending(c)]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            self._body[node] = self._ite(node)
        return self._edge(root)

    def _node(self, edge: Guard) -> _Node | None:
        if edge not in self._nodes:
            self._nodes[edge] = self._mgr._node(edge)
        return self._nodes[edge]

    def _pending(self, edge: Guard) -> bool:
        node = self._node(edge)
        return node is not None and node not in self._body

    def _constant(self, edge: Guard) -> bool | None:
        """The value of a constant edge, ``None`` for a non-constant one."""
        return not edge.negated if self._node(edge) is None else None

    def _edge(self, edge: Guard) -> F:
        node = self._node(edge)
        if node is None:
            return self._false_f if edge.negated else self._true_f
        if not edge.negated:
            return self._body[node]
        if node not in self._negated_body:
            self._negated_body[node] = self._neg(self._body[node])
        return self._negated_body[node]

    def _literal(self, var: str, positive: bool) -> F:
        key = (var, positive)
        if key not in self._literals:
            atom = self._leaf(self._mgr.atom_of(var))
            self._literals[key] = atom if positive else self._neg(atom)
        return self._literals[key]

    def _ite(self, node: _Node) -> F:
        var, high, low = node
        hi, lo = self._constant(high), self._constant(low)
        if hi is not None and lo is not None:  # reduced BDD: then hi != lo
            return self._literal(var, hi)
        if hi is not None:
            low_f = self._edge(low)
            if hi:
                return self._disj(self._literal(var, True), low_f)
            return self._conj(self._literal(var, False), low_f)
        high_f = self._edge(high)
        if lo is not None:
            if lo:
                return self._disj(self._literal(var, False), high_f)
            return self._conj(self._literal(var, True), high_f)
        if self._ite_of is not None:
            return self._ite_of(self._literal(var, True), high_f, self._edge(low))
        then_part = self._conj(self._literal(var, True), high_f)
        else_part = self._conj(self._literal(var, False), self._edge(low))
        return self._disj(then_part, else_part)
