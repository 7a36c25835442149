"""MultiSE: multi-path symbolic execution with value summaries (Sen et al., 2014/2015).

The whole exploration is one state. The program counter is a value summary from guards to
locations (``pending``: location -> guard, guards pairwise disjoint), every local variable
(keyed by frame depth and name) and every heap cell (``multise_heap``: a list's length and
items, an object's fields, slides 62-64) is a ``ValueSummary`` of guarded values. Guards are
BDDs over atomic predicates on input symbols (``GuardManager``); a guard goes to Z3 only when
the satisfiability of a new program-counter entry matters.

One step picks the pc entry (g, loc) whose location comes first in reverse post-order (frame
by frame, inner calls before their caller's next instruction), so paths meet at joins before
going on, also at joins no one declared (after exceptions, early returns, calls). It executes
the instruction at loc for every combination of the operands' guarded values under g, using
the shared semantics (``semantics.step.execute``): concrete values stay concrete, a summary may
hold floats, functions and objects next to terms, and no auxiliary variable is ever made. The
leaves are grouped by where control goes next; each group's guard is checked (BDD test, the
entry's model, a model-guided path of the guard solved by interval arithmetic or independent
components, then the whole guard in Z3), and the feasible groups assign their targets under
their guard (``{(h and not p, old)} + {(h and p, new)}``, then compaction) and become pc
entries, merged with any entry already at the same location. A heap cell read under a guard
where it holds several values splits the combination (``NeedSplit``) and executes again per
value; every combination of one step allocates the same new objects (disjoint guards).

Departures from the paper: locations include the call stack and the iteration counts of the
enclosing loops (so ``--max-iterations`` means what it means for DSE); temporaries that live
inside one basic block travel with their pc entry instead of being merged into shared
summaries (no other path can read them, and they were most of the assignment work), and so
does the object a constructor frame returns (in its ``FrameLoc``); satisfiability of a new pc
entry is first tried on known models, on theory lemmas between atoms over one integer term
(``guards.theory``: a guard that contradicts them is infeasible without Z3), and on one
model-guided path of its guard before Z3 sees the whole guard; an atom the input domain
decides (``8 < toks.len`` when ``toks.len <= 8``) is a constant, not a BDD variable. Every
``COLLECT_EVERY`` steps the state is restricted to the running paths (``_collect``): values
held for paths that have ended are dropped (heap cells keep those that results are encoded
from), which the paper does not do; its summaries keep every path ever taken, and their
guards grow with them. Results: one path per distinct outcome (returned
value, or exception at a line), split further until every feasible branch direction has an
input. With ``compaction=False`` no values are joined and no pc entries are merged, so each
entry is one DSE path.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pathloom import interrupt
from pathloom.engines.cube_batch import solve_cubes
from pathloom.engines.entry import Entry, InputChoice, InputSizes, build_entry
from pathloom.engines.guard_z3 import GuardEncoder
from pathloom.engines.input_objects import complete_model
from pathloom.engines.multise_heap import (
    CAP,
    ENTRIES,
    KIND,
    LEN,
    NAMES,
    CellKey,
    CellReader,
    CellWrite,
    NeedSplit,
    cell_writes,
)
from pathloom.errors import Unsupported
from pathloom.frontend import ir
from pathloom.frontend.cfg import branch_edges, reverse_postorder
from pathloom.frontend.module import Module
from pathloom.guards.bdd import Guard, GuardManager, GuardTimeout
from pathloom.guards.summary import ValueSummary, value_key
from pathloom.guards.theory import Lemmas, solve_intervals
from pathloom.options import Options
from pathloom.report.values import encode_symbolic
from pathloom.results import PathResult
from pathloom.semantics import control
from pathloom.semantics.concretize import enumerate_models
from pathloom.semantics.outcome import (
    Cut,
    Invoke,
    Leaf,
    Ok,
    Refine,
    RuntimeUnsupported,
    Throw,
    flatten,
)
from pathloom.semantics.sequences import next_item
from pathloom.semantics.step import (
    EXC_VAR,
    UNBOUND,
    bindings,
    destinations,
    execute,
    operands,
    raise_value,
    read_operand,
)
from pathloom.semantics.values import ExcVal, ListRec, ObjRec, Record, Ref
from pathloom.solver.base import SAT, UNSAT, Query, SolverStats
from pathloom.solver.chain import build_chain
from pathloom.solver.independence import components as _components
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Arg, Term

EXC_INFO = "%exc_info"
ENTRY_ARGS = "%entry_args"  # the arguments a frame of a self-recursive function was entered with
COLLECT_EVERY = 1000  # steps between two restrictions of the state to the running paths
SHARING_WALK_MAX_NODES = 500_000  # BDD nodes (summed per guard) the sharing-factor count may walk
RECENT_HINTS = 4  # recent models from which a model-guided path is tried when the entry's fails
# a connective of a branch condition whose BDD operation would exceed these (operand sizes
# multiplied, result nodes) becomes one opaque atom (``MultiSEEngine._opaque_atom``)
GUARD_PRODUCT_LIMIT = 1_000_000
GUARD_SIZE_LIMIT = 20_000
# A result guard with more BDD nodes is not stated whole: its formula would take gigabytes
# (tree/max_height.py of the real-code corpus: 2.25M nodes, a MemoryError at 3 GB)
RESULT_GUARD_LIMIT = 200_000
CUBE_BATCH = 32  # results whose guards are plain cubes, from which on they are solved as a batch
# The results phase solves the inputs of what was found even after --timeout, for at most this
# share of --timeout more (or until --timeout, if exploration ended earlier): a result still
# unsolved then is an ``unknown`` path (on gcd with nonlinear ``%``, each of hundreds of
# results' queries took the solver's whole timeout: the run never ended).
RESULTS_GRACE = 0.5
VarKey = tuple[int, str]
Temps = dict[VarKey, tuple[tuple[Guard, Any], ...]]  # block-local temporaries: guarded values


def _node_operands(node: object) -> tuple[Any, ...]:
    """What an instruction or a terminator reads."""
    if isinstance(node, ir.Branch):
        return (node.cond,)
    if isinstance(node, (ir.Return, ir.Raise)):
        return (node.value,) if node.value is not None else ()
    if isinstance(node, ir.ForIter):
        return (ir.Var(node.it),)
    if isinstance(node, ir.Goto):
        return ()
    return operands(node)  # type: ignore[arg-type]


def _terminator_targets(node: object) -> tuple[str, ...]:
    """Variables a terminator assigns (the loop variable and iterator of ``ForIter``)."""
    if isinstance(node, ir.ForIter):
        return (node.it, node.dst)
    return ()


class FrameLoc(NamedTuple):
    """One frame of a pc location. A named tuple, not a dataclass: locations are hashed and
    built at every step, and a tuple's hash and constructor run in C."""

    qualname: str
    label: int
    offset: int  # of the instruction in its block (len(instrs): the terminator)
    ret_dst: str | None
    loops: tuple[tuple[int, int], ...] = ()
    override: object = None  # what a return from this frame evaluates to instead (``__init__``: the new object)


Loc = tuple[FrameLoc, ...]


@dataclass
class Transition:
    """Where part ``guard`` of a pc entry goes, and what it assigns on the way."""

    guard: Guard
    loc: Loc | None  # None: the path set ends here (``final`` says how)
    assigns: list[tuple[VarKey, list[tuple[Guard, object]]]] = field(default_factory=list)
    writes: list[tuple[Guard, list[CellWrite]]] = field(default_factory=list)
    final: list[tuple[Guard, tuple[Any, ...]]] = field(default_factory=list)
    model_holds: bool | None = None  # whether the stepped entry's model satisfies ``guard``, if known


class _StepTimeout(Exception):
    """The time limit passed inside one step (its heap-cell splits can take minutes): the step's
    entry becomes a cut path; nothing of the step was committed."""


class _GuardedHeap(CellReader):
    """The heap as seen by one combination of operand values (guard ``guard``)."""

    def __init__(self, engine: MultiSEEngine, guard: Guard) -> None:
        super().__init__(engine.mgr, engine.cells, guard)
        self.engine = engine
        self.allocated = 0
        self.classes = engine.module.classes

    def fresh(self) -> Ref:
        """The k-th allocation of this run: the same reference in every combination of the
        step (their guards are disjoint, so on each path it is still a new object), so the
        paths that allocate here share one object whose cells hold guarded values (slides
        62-64) instead of one object per combination."""
        index = self.allocated
        self.allocated += 1
        return self.engine.step_ref(index)

    def models(self, terms: list[Term], site: str, where: Arg = True) -> tuple[list[dict[str, Any]], bool]:
        return self.engine.concretization_models(self.guard, terms, site, where)


class _AskedModel(dict):  # type: ignore[type-arg]
    """A model that records the names a term's evaluation reads from it (``get``: present or
    not); the object-graph decoder's own membership probes are not recorded."""

    def __init__(self, model: dict[str, Any]) -> None:
        super().__init__(model)
        self.asked: set[str] = set()

    def get(self, name: str, default: Any = None) -> Any:
        self.asked.add(name)
        return super().get(name, default)


class _EnvHeap:
    """The heap for concrete input values ``env``: in each cell, the value whose guard holds there."""

    def __init__(self, engine: MultiSEEngine, env: dict[str, Any]) -> None:
        self.engine = engine
        self.env = env

    def _value(self, key: CellKey) -> Any:
        for guard, value in self.engine.cells[key]:
            if self.engine.holds(guard, self.env):
                return value
        raise KeyError(key)

    def record(self, ref: Ref) -> Record:
        kind = self._value((ref.id, KIND))
        if kind in ("dict", "set"):
            return self._value((ref.id, ENTRIES))  # type: ignore[no-any-return]
        if kind == "list":
            cap = self._value((ref.id, CAP))
            return ListRec(self._value((ref.id, LEN)), tuple(self._value((ref.id, i)) for i in range(cap)))
        names = self._value((ref.id, NAMES))
        return ObjRec(kind, tuple((name, self._value((ref.id, ("f", name)))) for name in names))


class _Truth(dict):  # type: ignore[type-arg]
    """Truth values of atoms under one model, evaluated on first use; an atom over none of
    the ``changed`` symbols takes the value ``parent`` (the truth under a model that differs
    from this one only on ``changed``) already knows."""

    def __init__(self, model: dict[str, Any], parent: _Truth | None = None, changed: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.model = model
        self.memo: dict[Term, Any] = {}
        self.parent = parent
        self.changed = changed

    def __missing__(self, atom: Term) -> bool:
        parent = self.parent
        if parent is not None:
            known = dict.get(parent, atom)
            if known is not None and not any(s.args[0] in self.changed for s in T.symbols(atom)):
                self[atom] = known
                return known  # type: ignore[no-any-return]
        value = evaluate(atom, self.model, self.memo) is True
        self[atom] = value
        return value


class _Witness:
    """A model of the inputs and the truth of the atoms evaluated on it."""

    __slots__ = ("model", "truth")

    def __init__(self, model: dict[str, Any], parent: _Truth | None = None, changed: frozenset[str] = frozenset()) -> None:
        self.model = model
        self.truth = _Truth(model, parent, changed)


class MultiSEEngine:
    name = "multise"

    def __init__(self, module: Module, target: str, options: Options, progress: Callable[[dict[str, object]], None] | None = None) -> None:
        self.module = module
        self.target = target
        self.options = options
        self.progress = progress
        self.join = options.compaction
        self.mgr = GuardManager()
        self.solver_stats = SolverStats()
        self.solver, self.z3_core = build_chain(self.solver_stats, options.solver_timeout_ms, options.solver_layers)
        self.entry: Entry = build_entry(module, target, options.max_list_len, options.max_str_len, options.heap, options.max_objects, options.receiver,
                                          options.max_dict_len)
        self.base = frozenset(c for c in self.entry.constraints if isinstance(c, Term))
        self.encoder = GuardEncoder(self.mgr)
        self.vars: dict[VarKey, ValueSummary[Any]] = {}
        self.cells: dict[CellKey, ValueSummary[Any]] = {}
        self.pending: dict[Loc, Guard] = {}
        self.models: dict[Loc, dict[str, Any]] = {}
        self.inline: tuple[Loc, Guard, dict[str, Any], Temps] | None = None  # the entry stepped next, kept out of the queue
        self.temps: dict[Loc, Temps] = {}  # block-local temporaries of each pending entry
        self.current_temps: Temps = {}  # those of the entry being stepped
        self.current_loc: Loc = ()
        self.local_temps_of: dict[str, frozenset[str]] = {}
        self.queue: list[tuple[Any, int, Loc]] = []
        self.counter = itertools.count()
        self.next_ref = 1
        self.step_refs: list[Ref] = []
        self.finals: list[tuple[Guard, tuple[Any, ...]]] = []
        self.unknown_results: list[PathResult] = []
        self.directions: dict[tuple[str, int, bool], Guard] = {}
        self.heap_finals: list[Guard] = []  # guards of results whose outcome refers to heap objects
        self.collections = 0  # see _collect
        self.interval_solves = 0  # model-guided paths solved by interval arithmetic (_solve_near)
        self.instr_names: dict[int, tuple[list[str], tuple[str, ...]]] = {}  # id(instr) -> reads, writes
        self.entered: set[str] = set()
        self.rpo: dict[str, dict[int, int]] = {}
        self.order_prefix: dict[Loc, tuple[tuple[int, int], ...]] = {}
        self.term_of_guard: dict[Any, Arg] = {}
        self.conjunction_memo: dict[tuple[Arg, Term], Arg] = {}
        self.negation_of: dict[Any, Arg] = {}
        self.guard_of_term: dict[Term, Guard] = {}
        self.lemmas = Lemmas(self.mgr, self.base)
        self.lemma_unsats = 0
        self.in_results = False
        self.results_deadline: float | None = None  # set when the results phase begins (RESULTS_GRACE)
        self.result_splits: dict[Guard, tuple[list[tuple[Any, bool]], Guard]] = {}
        self.complete = True
        self.instructions = 0
        self.paths = 0
        self.merges = 0
        self.merges_saved = 0
        self.start = 0.0
        self.deadline: float | None = None
        self.summary_sizes: list[int] = []
        self.locals_of: dict[str, tuple[str, ...]] = {}
        self.final_models: dict[tuple[int, int], dict[str, Any]] = {}  # a known model of a final
        self.final_hints: dict[int, dict[str, Any]] = {}
        self.witness_of: dict[int, _Witness] = {}
        self.recent: deque[_Witness] = deque(maxlen=RECENT_HINTS)
        self.last_progress = 0.0
        self.concretizations: dict[str, int] = {}  # "line N: operation" -> operations run in CPython on pinned values
        self.recursive: dict[str, bool] = {}  # qualname -> whether it calls itself by name
        self.opaque_atoms = 0  # connectives kept as one atom (their BDD too large)

    # ------------------------------------------------------------ guards and terms

    def guard(self, cond: Arg) -> Guard:
        """The BDD of a Bool term: connectives become BDD operations, the rest atoms. Built
        bottom-up from an explicit stack: a loop can nest connectives deeper than Python's
        recursion limit (a tree walk of the real-code corpus did)."""
        if not isinstance(cond, Term):
            return self.mgr.true if cond else self.mgr.false
        cache = self.guard_of_term
        found = cache.get(cond)
        if found is not None:
            return found
        stack = [cond]
        while stack:
            t = stack[-1]
            if t in cache:
                stack.pop()
                continue
            if _is_connective(t):
                pending = [a for a in t.args if isinstance(a, Term) and a not in cache]
                if pending:
                    stack.extend(pending)
                    continue
            stack.pop()
            cache[t] = self._guard_node(t)
        return cache[cond]

    def _guard_node(self, cond: Term) -> Guard:
        """The BDD of ``cond`` once those of its connective arguments are known."""
        def part(a: Arg) -> Guard:
            return self.guard_of_term[a] if isinstance(a, Term) else self.mgr.true if a else self.mgr.false

        op = cond.op
        if op == "not":
            return self.mgr.not_(part(cond.args[0]))
        if _is_connective(cond):
            parts = [part(a) for a in cond.args]
            if math.prod(self.mgr.size(p) for p in parts) > GUARD_PRODUCT_LIMIT:
                return self._opaque_atom(cond)  # the BDD operation itself could take minutes
            g = self.mgr.and_(*parts) if op == "and" else self.mgr.or_(*parts) if op == "or" else self.mgr.ite(*parts)
            return self._opaque_atom(cond) if self.mgr.size(g) > GUARD_SIZE_LIMIT else g
        known = self.lemmas.decided(cond)
        if known is not None:  # decided by the input domain: a constant, not a variable
            return self.mgr.true if known else self.mgr.false
        g = self.mgr.atom(cond)
        self.lemmas.add_atom(cond, g)
        return g

    def _opaque_atom(self, cond: Term) -> Guard:
        """A connective whose BDD would be too large (the alias ite-expressions of input objects
        can make it exponential) is one atom: its own BDD variable, which the solver decides
        with the structure intact (sound; the BDD only loses the sharing of its parts)."""
        self.opaque_atoms += 1
        return self.mgr.atom(cond)

    def guard_term(self, g: Guard) -> Arg:
        """The guard as a Bool term: its forced literals, then the rest as an ite-formula."""
        found = self.term_of_guard.get(g)
        if found is None:
            conjuncts = self._guard_conjuncts(g)
            found = False
            if conjuncts is not None:
                found = True
                memo = self.conjunction_memo  # results' guards share prefixes: build each once
                for c in sorted(conjuncts, key=lambda t: t.serial):
                    step = memo.get((found, c))
                    if step is None:
                        step = memo[(found, c)] = T.and_(found, c)
                    found = step
            self.term_of_guard[g] = found
        return found

    def _literal(self, atom: Any, positive: bool) -> Any:
        """The atom or its negation (negations made once: results repeat them thousands of times)."""
        if positive:
            return atom
        found = self.negation_of.get(atom)
        if found is None:
            found = self.negation_of[atom] = T.not_(atom)
        return found

    def _split(self, g: Guard) -> tuple[frozenset[Term], Guard]:
        """A guard as its forced literals (terms) and the guard below them."""
        literals, rest = self._split_cube(g)
        return frozenset(self._literal(atom, positive) for atom, positive in literals), rest

    def _split_cube(self, g: Guard) -> tuple[list[tuple[Any, bool]], Guard]:
        """``split_cube`` of ``g``, kept for the result guards (split once for their models,
        once more for their conditions otherwise)."""
        found = self.result_splits.get(g)
        if found is None:
            with self.mgr.timed():
                found = self.mgr.split_cube(g)
            if self.in_results:
                self.result_splits[g] = found
        return found

    def _guard_conjuncts(self, g: Guard) -> frozenset[Term] | None:
        """The conjuncts of a guard's formula (``None`` for the false guard)."""
        cube, rest = self._split(g)
        if self.mgr.is_false(rest):
            return None
        if self.mgr.is_true(rest):
            return cube
        with self.mgr.timed():
            return cube | _conjuncts(self.mgr.to_formula(rest, T.and_, T.or_, T.not_, True, False))  # type: ignore[arg-type]

    def fresh(self) -> Ref:
        ref = Ref(self.next_ref)
        self.next_ref += 1
        return ref

    def step_ref(self, index: int) -> Ref:
        """The ``index``-th reference allocated by the current step (new on first request)."""
        while len(self.step_refs) <= index:
            self.step_refs.append(self.fresh())
        return self.step_refs[index]

    # ------------------------------------------------------------ driving

    def _order(self, loc: Loc) -> tuple[Any, ...]:
        """The topological-order key of a location: per frame, the reverse post-order number
        of its block and the instruction index, outer frames first. The part of the key that
        belongs to the caller frames is memoized by those frames (a step changes only the
        innermost one)."""
        callers = loc[:-1]
        prefix = self.order_prefix.get(callers)
        if prefix is None:
            prefix = tuple(self._frame_order(f) for f in callers if f.label >= 0)
            self.order_prefix[callers] = prefix
        last = loc[-1]
        if last.label < 0:  # the marker that keeps unmerged entries apart
            return (*prefix, (1 << 31, 0))
        return (*prefix, self._frame_order(last), (1 << 31, 0))

    def _frame_order(self, frame: FrameLoc) -> tuple[int, int]:
        rpo = self.rpo.get(frame.qualname)
        if rpo is None:
            rpo = reverse_postorder(self._function(frame.qualname))
            self.rpo[frame.qualname] = rpo
        return (rpo.get(frame.label, 1 << 30), frame.offset)

    def _function(self, qualname: str) -> ir.Function:
        if qualname == self.entry.function.qualname:
            return self.entry.function
        return self.module.function(qualname)

    def _schedule(self, loc: Loc, guard: Guard, model: dict[str, Any], temps: Temps, alone: bool = False) -> None:
        """Add the pc entry ``(guard, loc)``, merged with the entry already at ``loc``. An entry
        that is ``alone`` (the only successor of the step) and would be the next one stepped
        anyway (topological order, nothing there to merge with, nothing before it in the
        queue) becomes :attr:`inline` instead: stepped at once, in the same order, so with the
        same merges."""
        existing = self.pending.get(loc)
        if existing is not None and self.join:
            self.pending[loc] = self.mgr.or_(existing, guard)
            self.temps[loc] = self._merge_temps(self.temps[loc], temps)
            self.merges += 1
            return
        if existing is not None:
            loc = loc + (FrameLoc(f"#{next(self.counter)}", -1, -1, None),)  # keep entries apart
        strategy = self.options.strategy or "topo"
        if strategy == "dfs":
            key: Any = (-next(self.counter),)
        elif strategy == "bfs":
            key = (next(self.counter),)
        else:
            key = self._order(loc)
            if alone and existing is None and (not self.queue or key < self.queue[0][0]):
                self.inline = (loc, guard, model, temps)  # no trip through the queue
                return
        self.pending[loc] = guard
        self.models[loc] = model
        self.temps[loc] = temps
        heapq.heappush(self.queue, (key, next(self.counter), loc))

    def run(self) -> Iterator[PathResult]:
        self.start = time.monotonic()
        if self.options.timeout is not None:
            self.deadline = self.start + self.options.timeout
            self.z3_core.deadline = self.deadline
        self._init_state()
        stop: str | None = None
        try:
            while self.queue or self.inline is not None:
                if self.deadline is not None and time.monotonic() > self.deadline:
                    stop = "timeout"
                    break
                if interrupt.requested():  # a Ctrl-C whose KeyboardInterrupt was swallowed
                    stop = "interrupted"
                    break
                if self.inline is not None:
                    real, guard, model, self.current_temps = self.inline
                    self.inline = None
                else:
                    _, _, loc = heapq.heappop(self.queue)
                    found = self.pending.pop(loc, None)
                    if found is None:
                        continue
                    guard = found
                    model = self.models.pop(loc, {})
                    real = tuple(f for f in loc if f.label >= 0)
                    self.current_temps = self.temps.pop(loc, {})
                self.current_loc = real
                if self.instructions % COLLECT_EVERY == COLLECT_EVERY - 1:
                    self._collect(guard)
                try:
                    self._step(real, guard, model)
                except _StepTimeout:
                    stop = "timeout"
                    self.finals.append((guard, ("cut", stop, self._line(real))))
                    break
                if self.progress is not None and time.monotonic() - self.last_progress > 0.2:
                    self.last_progress = time.monotonic()
                    self.progress(self.stats(final=False))
        except KeyboardInterrupt:
            stop = "interrupted"
        if stop is not None:
            self.complete = False
            if self.inline is not None:
                self.pending[self.inline[0]] = self.inline[1]
            for loc, guard in self.pending.items():
                self.finals.append((guard, ("cut", stop, self._line(loc))))
        yield from self._results()

    def _init_state(self) -> None:
        function = self.entry.function
        for ref, record in self.entry.records.items():
            for key, value in cell_writes(None, ref, record):
                self.cells[key] = ValueSummary.single(self.mgr, value)
        for p, a in zip(function.params, self.entry.args):
            if isinstance(a, (InputChoice, InputSizes)):  # Optional[T]: None or a T; a list or an earlier list; set[T]: one set per size; one summary
                self.vars[(0, p.name)] = ValueSummary.from_entries(self.mgr, [(self.guard(c), v) for c, v in a.options])
            else:
                self.vars[(0, p.name)] = ValueSummary.single(self.mgr, a)
        self._schedule((FrameLoc(function.qualname, function.entry, 0, None),), self.mgr.true, dict(self.entry.initial_model), {})

    def _line(self, loc: Loc) -> int | None:
        frames = [f for f in loc if f.label >= 0]
        return self._frame_line(frames[-1]) if frames else None

    def _frame_line(self, frame: FrameLoc) -> int | None:
        """The line of the instruction or terminator ``frame`` runs (at a call: the call)."""
        block = self._function(frame.qualname).blocks[frame.label]
        node = block.instrs[frame.offset] if frame.offset < len(block.instrs) else block.terminator
        return node.loc.line if node is not None else None

    # ------------------------------------------------------------ reading state

    def _local_entries(self, depth: int, name: str) -> tuple[tuple[Guard, Any], ...]:
        """The guarded values of a local: the entry's own temporary, else the shared summary,
        else unbound everywhere (the guard ``true`` is never conjoined: one value is taken as
        is)."""
        local = self.current_temps.get((depth, name))
        if local is not None:
            return local
        summary = self.vars.get((depth, name))
        return summary.entries if summary is not None else ((self.mgr.true, UNBOUND),)

    def _combinations(self, depth: int, names: list[str], guard: Guard) -> list[tuple[Guard, dict[str, object]]]:
        """Every feasible combination of the variables' values under ``guard``. Variable
        summaries are total (a variable starts as ``{(true, UNBOUND)}``), so conjoining each
        entry's guard with the combination's is the whole restriction."""
        combos: list[tuple[Guard, dict[str, object]]] = [(guard, {})]
        mgr = self.mgr
        with mgr.timed():
            for name in names:
                entries = self._local_entries(depth, name)
                if len(entries) == 1:
                    value = entries[0][1]
                    combos = [(g, {**env, name: value}) for g, env in combos]
                    continue
                extended = []
                for g, env in combos:
                    for h, value in entries:
                        both = mgr.and_(g, h)
                        if not mgr.is_false(both):
                            extended.append((both, {**env, name: value}))
                combos = extended
        return combos

    def _leaves(self, guard: Guard, run: Callable[[_GuardedHeap], Any], known: dict[CellKey, object] | None = None) -> list[tuple[Guard, Leaf, list[CellWrite]]]:
        """Run a semantics function under ``guard``, splitting on heap cells that hold several
        values there, and turn its outcome's case conditions into guards and its record writes
        into cell writes. ``known``: cells read before a split, and the split cell, with their
        values under ``guard`` (not read again: restricting a cell of n entries in each of its
        n splits was quadratic)."""
        heap = _GuardedHeap(self, guard)
        if known:
            heap.seen.update(known)
        try:
            return self._leaves_of(heap, guard, run(heap))  # turning writes into cell writes reads cells too
        except NeedSplit as split:
            result: list[tuple[Guard, Leaf, list[CellWrite]]] = []
            for h, value in split.summary:
                assert h != guard, "a heap cell split that does not narrow the guard"
                if self.deadline is not None and not self.in_results and time.monotonic() > self.deadline:
                    raise _StepTimeout() from None
                result += self._leaves(h, run, {**heap.seen, split.key: value})
            return result

    def _leaves_of(self, heap: _GuardedHeap, guard: Guard, outcome: Any) -> list[tuple[Guard, Leaf, list[CellWrite]]]:
        """The leaves of one outcome of a semantics function run under ``guard``."""
        cases = flatten(outcome)
        if len(cases) == 1 and cases[0][0] is True:  # no split: the whole guard, no guard algebra
            return [self._with_writes(heap, guard, cases[0][1])]
        leaves = []
        covered = self.mgr.false
        for cond, leaf in cases:
            # The cases of a split exclude each other in the theory (len == 0, len == 1), not
            # always as propositions over independent atoms: each case's guard excludes the
            # earlier cases, so that the summaries built from them keep disjoint guards.
            with self.mgr.timed():
                c = self.guard(cond)
                g = self.mgr.and_(guard, self.mgr.and_(c, self.mgr.not_(covered)))
                covered = self.mgr.or_(covered, c)
            if not self.mgr.is_false(g):
                leaves.append(self._with_writes(heap, g, leaf))
        return leaves

    @staticmethod
    def _with_writes(heap: _GuardedHeap, g: Guard, leaf: Leaf) -> tuple[Guard, Leaf, list[CellWrite]]:
        """A leaf under guard ``g`` with its record writes turned into cell writes."""
        records = getattr(leaf, "writes", ())
        writes = dict(w for ref, record in records for w in cell_writes(heap, ref, record))  # a later write wins
        return g, leaf, list(writes.items())

    # ------------------------------------------------------------ one step

    def _step(self, loc: Loc, guard: Guard, model: dict[str, Any]) -> None:
        self.instructions += 1
        self.step_refs = []
        frame = loc[-1]
        function = self._function(frame.qualname)
        block = function.blocks[frame.label]
        if frame.offset < len(block.instrs):
            instr = block.instrs[frame.offset]
            if self._simple_step(loc, guard, model, instr):
                return
        try:  # building the transitions commits nothing: past the deadline, the step is dropped
            with self.mgr.stopping_at(None if self.in_results else self.deadline):
                if frame.offset < len(block.instrs):
                    transitions = self._instruction(loc, guard, instr)
                else:
                    transitions = self._terminator(loc, guard, model, block)
        except GuardTimeout:
            raise _StepTimeout() from None
        self._commit(loc, guard, model, transitions)

    def _simple_step(self, loc: Loc, guard: Guard, model: dict[str, Any], instr: ir.Instruction) -> bool:
        """The most common step in one piece, with the meaning the general path
        (:meth:`_instruction`, :meth:`_commit`) gives it: every operand holds one value under
        the pc entry, and the instruction completes normally without writing the heap. Then
        its targets are assigned under the entry's guard and the entry moves to the next
        instruction, with no guard algebra besides the assignment. ``False`` (nothing done)
        when the step is not of that kind."""
        depth = len(loc) - 1
        names, _ = self._instr_names(instr)
        env: dict[str, object] = {}
        for name in names:
            entries = self._local_entries(depth, name)
            if len(entries) != 1:
                return False
            env[name] = entries[0][1]
        try:
            outcome = execute(self.module, _GuardedHeap(self, guard), env, instr)
        except NeedSplit:
            return False  # executed again by the general path, which splits (no state changed)
        except RuntimeUnsupported as exc:
            raise Unsupported(self._function(loc[-1].qualname).foreign_file or self.module.filename, instr.loc.line, instr.loc.col, str(exc)) from None
        if type(outcome) is not Ok or outcome.writes:
            return False
        after = self._advance(loc)
        temps = self._temps_after(after)
        for name, value in bindings(instr, outcome.value):
            staged: dict[VarKey, ValueSummary[Any]] = {}
            self._assign(loc, (depth, name), guard, [(guard, value)], temps, staged)
            self.vars.update(staged)
        self._schedule(after, guard, model, temps, alone=True)
        return True

    def _instr_names(self, instr: ir.Instruction) -> tuple[list[str], tuple[str, ...]]:
        """The local variables an instruction reads (sorted) and those it assigns."""
        found = self.instr_names.get(id(instr))
        if found is None:
            found = (sorted({op.name for op in operands(instr) if isinstance(op, ir.Var)}), destinations(instr))
            self.instr_names[id(instr)] = found
        return found

    def _instruction(self, loc: Loc, guard: Guard, instr: ir.Instruction) -> list[Transition]:
        depth = len(loc) - 1
        names = self._instr_names(instr)[0]
        leaves: list[tuple[Guard, Leaf, list[CellWrite]]] = []
        for g, env in self._combinations(depth, names, guard):
            def run(heap: _GuardedHeap, env: dict[str, object] = env) -> Any:
                try:
                    return execute(self.module, heap, env, instr)
                except RuntimeUnsupported as exc:
                    raise Unsupported(self._function(loc[-1].qualname).foreign_file or self.module.filename, instr.loc.line, instr.loc.col, str(exc)) from None
            leaves += self._leaves(g, run)
        return self._group(loc, leaves, instr, instr.loc)

    def _advance(self, loc: Loc) -> Loc:
        frame = loc[-1]
        return loc[:-1] + (FrameLoc(frame.qualname, frame.label, frame.offset + 1, frame.ret_dst, frame.loops, frame.override),)

    def _group(self, loc: Loc, leaves: list[tuple[Guard, Leaf, list[CellWrite]]], instr: ir.Instruction | None, where: ir.Loc) -> list[Transition]:
        depth = len(loc) - 1
        mgr = self.mgr
        oks = [(g, leaf, w) for g, leaf, w in leaves if isinstance(leaf, Ok)]
        transitions: list[Transition] = []
        if oks:
            with mgr.timed():
                t = Transition(mgr.or_all(g for g, _, _ in oks), self._advance(loc))
            bound = [(g, bindings(instr, leaf.value) if instr is not None else ()) for g, leaf, _ in oks]
            for i, name in enumerate(destinations(instr) if instr is not None else ()):
                t.assigns.append(((depth, name), [(g, pairs[i][1]) for g, pairs in bound]))
            t.writes = [(g, w) for g, _, w in oks if w]
            transitions.append(t)
        throws = [(g, (leaf.exc, leaf.line or where.line, "implicit")) for g, leaf, _ in leaves if isinstance(leaf, Throw)]
        if throws:
            transitions.append(self._raise(loc, throws))
        invokes: dict[tuple[str, Any], list[tuple[Guard, Invoke, list[CellWrite]]]] = {}
        for g, leaf, w in leaves:
            if isinstance(leaf, Invoke):
                invokes.setdefault((leaf.qualname, value_key(leaf.result)), []).append((g, leaf, w))
        for (qualname, _), calls in invokes.items():
            repeating = [c for c in calls if self._repeats_caller(loc, qualname, c[0], c[1])]
            if repeating:
                transitions.append(self._raise(loc, [(g, (control.RECURSION_ERROR, where.line, "implicit")) for g, _, _ in repeating]))
                calls = [c for c in calls if c not in repeating]
            if calls:
                transitions.append(self._invoke(loc, qualname, calls, instr))
        refines = [(g, w) for g, leaf, w in leaves if isinstance(leaf, Refine)]
        if refines:
            with mgr.timed():
                t = Transition(mgr.or_all(g for g, _ in refines), loc)
            t.writes = [(g, w) for g, w in refines if w]
            transitions.append(t)
        cuts: dict[str, list[Guard]] = {}
        for g, leaf, _ in leaves:
            if isinstance(leaf, Cut):
                cuts.setdefault(leaf.reason, []).append(g)
        for reason, guards in cuts.items():
            g = mgr.or_all(guards)
            transitions.append(Transition(g, None, final=[(g, ("cut", reason, where.line))]))
        return transitions

    def _self_recursive(self, qualname: str) -> bool:
        """Whether a top-level function calls itself by name (then its frames keep the
        arguments they were entered with, to recognize an infinite recursion)."""
        found = self.recursive.get(qualname)
        if found is None:
            function = self._function(qualname)
            found = any(
                isinstance(i, ir.Call) and isinstance(i.func, ir.Global) and i.func.name == qualname
                for b in function.blocks.values() for i in b.instrs
            )
            self.recursive[qualname] = found
        return found

    def _repeats_caller(self, loc: Loc, qualname: str, g: Guard, call: Invoke) -> bool:
        caller = loc[-1]
        if caller.qualname != qualname or not self._self_recursive(qualname):
            return False
        entries = [(h, v) for h, v in self._local_entries(len(loc) - 1, ENTRY_ARGS) if not self.mgr.is_false(self.mgr.and_(h, g))]
        if len(entries) != 1 or not isinstance(entries[0][1], tuple):
            return False
        in_try = self._function(qualname).blocks[caller.label].handler is not None
        return control.repeats_its_caller(caller.qualname, entries[0][1], in_try, qualname, call.args)

    def _invoke(self, loc: Loc, qualname: str, calls: list[tuple[Guard, Invoke, list[CellWrite]]], instr: ir.Instruction | None) -> Transition:
        with self.mgr.timed():
            guard = self.mgr.or_all(g for g, _, _ in calls)
        if control.depth_exceeded(len(loc), self.options.max_depth):
            reason = control.depth_cut_reason(self.options.max_depth)
            return Transition(guard, None, final=[(guard, ("cut", reason, self._line(loc)))])
        callee = self.module.function(qualname)
        self.entered.add(qualname)
        targets = destinations(instr) if instr is not None else ()
        override = calls[0][1].result  # the same for all calls (grouped by it)
        new_loc = loc + (FrameLoc(qualname, callee.entry, 0, targets[0] if targets else None, (), override),)
        t = Transition(guard, new_loc)
        depth = len(loc)
        for i, p in enumerate(callee.params):
            t.assigns.append(((depth, p.name), [(g, call.args[i]) for g, call, _ in calls]))
        if self._self_recursive(qualname):
            t.assigns.append(((depth, ENTRY_ARGS), [(g, call.args if control.plain_arguments(call.args) else None) for g, call, _ in calls]))
        for name in self._named_locals(callee):
            if (depth, name) in self.vars:  # a new frame starts with its locals unbound
                t.assigns.append(((depth, name), [(guard, UNBOUND)]))
        t.writes = [(g, w) for g, _, w in calls if w]
        return t

    def _named_locals(self, function: ir.Function) -> tuple[str, ...]:
        """Locals that may be read before this frame assigns them: named variables and the
        handled exception (temporaries are always assigned before use)."""
        found = self.locals_of.get(function.qualname)
        if found is None:
            params = {p.name for p in function.params}
            names = {n for b in function.blocks.values() for i in b.instrs for n in destinations(i)}
            found = tuple(sorted(n for n in names if not n.startswith("%") and n not in params)) + (EXC_VAR, EXC_INFO)
            self.locals_of[function.qualname] = found
        return found

    def _raise(self, loc: Loc, raised: list[tuple[Guard, tuple[ExcVal, int, str]]]) -> Transition:
        functions = [self._function(f.qualname) for f in loc]
        if functions and functions[-1].foreign_file is not None:
            raised = [(g, (exc, control.line_in_target_file(functions, line, lambda i: self._frame_line(loc[i])), kind)) for g, (exc, line, kind) in raised]
        found = control.handler_depth(self._function(f.qualname).blocks[f.label] for f in loc)
        if any(exc.cls == "StopIteration" for _, (exc, _, _) in raised):
            raised = [(g, control.leaving_generators(functions, found[0] if found else -1, exc, line, kind, lambda i: self._frame_line(loc[i])))
                      for g, (exc, line, kind) in raised]
        guard = self.mgr.or_all(g for g, _ in raised)
        if found is not None:
            i, handler = found
            target = self._goto_frame(loc[i], handler, False)
            t = Transition(guard, loc[:i] + (target,))
            t.assigns.append(((i, EXC_VAR), [(g, info[0]) for g, info in raised]))
            t.assigns.append(((i, EXC_INFO), [(g, info) for g, info in raised]))
            return t
        finals = [(g, ("raise", info[0], info[1], info[2])) for g, info in raised]
        return Transition(guard, None, final=finals)

    # ------------------------------------------------------------ terminators

    def _goto_frame(self, frame: FrameLoc, target: int, back_edge: bool) -> FrameLoc:
        function = self._function(frame.qualname)
        counts = control.loop_counts_after(function, dict(frame.loops), target, back_edge)
        loops = tuple((h, counts[h]) for h in function.blocks[target].loops if h in counts)
        return FrameLoc(frame.qualname, target, 0, frame.ret_dst, loops, frame.override)

    def _terminator(self, loc: Loc, guard: Guard, model: dict[str, Any], block: ir.Block) -> list[Transition]:
        frame = loc[-1]
        depth = len(loc) - 1
        term = block.terminator
        mgr = self.mgr
        if isinstance(term, ir.Goto):
            return [Transition(guard, loc[:-1] + (self._goto_frame(frame, term.target, term.back_edge),))]
        if isinstance(term, ir.Branch):
            assert isinstance(term.cond, ir.Var)
            cond = self._combinations(depth, [term.cond.name], guard)
            with mgr.timed():
                then = mgr.or_all(mgr.and_(h, self.guard(c[term.cond.name])) for h, c in cond)  # type: ignore[arg-type]
                orelse = mgr.or_all(mgr.and_(h, mgr.not_(self.guard(c[term.cond.name]))) for h, c in cond)  # type: ignore[arg-type]
            result = []
            # One value of the condition: the entry's model satisfies the guard, so the
            # condition's value under the model says which direction the model takes.
            taken = self._model_truth(cond[0][1][term.cond.name], model) if len(cond) == 1 else None
            for g, target, direction in ((then, term.then, True), (orelse, term.orelse, False)):
                if not mgr.is_false(g):
                    t = Transition(g, loc[:-1] + (self._goto_frame(frame, target, False),))
                    t.final = [(g, ("direction", (frame.qualname, frame.label, direction)))]
                    t.model_holds = None if taken is None else taken == direction
                    result.append(t)
            return result
        if isinstance(term, ir.ForIter):
            return self._for_iter(loc, guard, term)
        if isinstance(term, ir.Return):
            names = [term.value.name] if isinstance(term.value, ir.Var) else []
            returned: list[tuple[Guard, object]] = []
            throws: list[tuple[Guard, tuple[ExcVal, int, str]]] = []
            override = frame.override
            for g, env in self._combinations(depth, names, guard):
                got = read_operand(self.module, env, term.value)
                if isinstance(got, Throw):  # an unbound local, an undefined global
                    throws.append((g, (got.exc, term.loc.line, "implicit")))
                    continue
                assert isinstance(got, Ok)
                returned.append((g, override if override is not None else got.value))
            result = [self._return(loc, returned)] if returned else []
            if throws:
                result.append(self._raise(loc, throws))
            return result
        assert isinstance(term, ir.Raise)
        names = [term.value.name] if isinstance(term.value, ir.Var) else []
        raised: list[tuple[Guard, tuple[ExcVal, int, str]]] = []
        for g, env in self._combinations(depth, names + [EXC_VAR, EXC_INFO], guard):
            info = env.get(EXC_INFO)
            outcome = raise_value(self.module, _GuardedHeap(self, g), {k: v for k, v in env.items() if v is not UNBOUND}, term)
            assert isinstance(outcome, Throw)
            line, kind = control.raise_origin(outcome.exc, info if isinstance(info, tuple) else None, term)
            raised.append((g, (outcome.exc, line, kind)))
        return [self._raise(loc, raised)]

    def _for_iter(self, loc: Loc, guard: Guard, term: ir.ForIter) -> list[Transition]:
        frame = loc[-1]
        depth = len(loc) - 1
        mgr = self.mgr
        body: list[tuple[Guard, object, object]] = []
        exits: list[Guard] = []
        for g, env in self._combinations(depth, [term.it], guard):
            it = env[term.it]

            def run(heap: _GuardedHeap, it: object = it) -> Any:
                from pathloom.semantics.outcome import Split

                try:
                    cases = next_item(heap, it)
                except RuntimeUnsupported as exc:
                    raise Unsupported(self._function(frame.qualname).foreign_file or self.module.filename, term.loc.line, term.loc.col, str(exc)) from None
                return Split(tuple((cond, Ok((advanced, item))) for cond, advanced, item in cases))

            for h, leaf, _ in self._leaves(g, run):
                advanced, item = leaf.value  # type: ignore[union-attr, misc]
                if advanced is None:
                    exits.append(h)
                else:
                    body.append((h, advanced, item))
        result = []
        if body:
            g = mgr.or_all(h for h, _, _ in body)
            t = Transition(g, loc[:-1] + (self._goto_frame(frame, term.body, False),))
            t.assigns.append(((depth, term.it), [(h, a) for h, a, _ in body]))
            t.assigns.append(((depth, term.dst), [(h, i) for h, _, i in body]))
            t.final = [(g, ("direction", (frame.qualname, frame.label, True)))]
            result.append(t)
        if exits:
            g = mgr.or_all(exits)
            t = Transition(g, loc[:-1] + (self._goto_frame(frame, term.exit, False),))
            t.final = [(g, ("direction", (frame.qualname, frame.label, False)))]
            result.append(t)
        return result

    def _return(self, loc: Loc, returned: list[tuple[Guard, object]]) -> Transition:
        guard = self.mgr.or_all(g for g, _ in returned)
        depth = len(loc) - 1
        if depth == 0:
            return Transition(guard, None, final=[(g, ("return", v)) for g, v in returned])
        t = Transition(guard, self._advance(loc[:-1]))
        if loc[-1].ret_dst is not None:
            t.assigns.append(((depth - 1, loc[-1].ret_dst), returned))
        return t

    # ------------------------------------------------------------ committing

    def _witness(self, model: dict[str, Any], near: dict[str, Any] | None = None) -> _Witness:
        """The witness of ``model``; a new one reuses the atom values known under ``near``
        for the atoms over symbols on which the two models agree."""
        found = self.witness_of.get(id(model))
        if found is None or found.model is not model:
            if len(self.witness_of) > 4096:
                self.witness_of.clear()
            if near is None:
                found = _Witness(model)
            else:
                changed = frozenset(k for k, v in model.items() if k not in near or near[k] != v)
                found = _Witness(model, self._witness(near).truth, changed)
            self.witness_of[id(model)] = found  # the witness keeps the model, so the id stays its own
        return found

    def holds(self, guard: Guard, model: dict[str, Any]) -> bool:
        """Whether input values ``model`` satisfy ``guard`` (atoms evaluated on demand, once per
        model)."""
        return self.mgr.evaluate(guard, self._witness(model).truth)

    def _model_truth(self, cond: object, model: dict[str, Any]) -> bool:
        """The truth of a branch condition's value under ``model``."""
        if not isinstance(cond, Term):
            return bool(cond)
        return bool(self._witness(model).truth[cond])

    def _feasible(self, guard: Guard, parent: Guard, model: dict[str, Any], model_holds: bool | None = None) -> tuple[str, dict[str, Any]]:
        """Whether a new pc guard is satisfiable, with a model: the BDD test, the entry's own
        model, the path of the guard nearest to that model (:meth:`_solve_near`), the theory
        lemmas, paths near recent models, then Z3 on the whole guard. (Trying the recent
        models on the guard first, as DSE's counterexample cache does, cost more BDD walks
        than it saved once most near paths were solved by interval arithmetic: the 17
        benchmark programs took 20.1 s with 4 such tries, 19.2 s without.)"""
        if self.mgr.is_false(guard):
            return UNSAT, model
        if guard == parent or (self.holds(guard, model) if model_holds is None else model_holds):
            return SAT, model
        found = self._solve_near(guard, model)
        if found is None:
            # The path nearest to the model is infeasible: maybe the whole guard is, which
            # the lemmas may show without Z3 (an implication test, costly on large guards,
            # hence not before the near path).
            with self.mgr.timed():
                contradicts = self.mgr.implies(guard, self.mgr.not_(self.lemmas.guard))
            if contradicts:
                self.lemma_unsats += 1
                return UNSAT, model
            with self.mgr.timed():
                narrowed = self.mgr.and_(guard, self.lemmas.guard)  # paths consistent with the lemmas
            found = self._solve_near_any(narrowed, model)
        if found is not None:
            self.recent.appendleft(self._witness(found))
            return SAT, found
        status, found = self._solve(guard)
        if status == SAT:
            found = {**model, **found}
            self.recent.appendleft(self._witness(found))
            return SAT, found
        return status, model

    def _solve_near_any(self, guard: Guard, model: dict[str, Any] | None, reuse: bool = True) -> dict[str, Any] | None:
        """:meth:`_solve_near` from ``model``, then from a few recent models."""
        hints = ([model] if model is not None else []) + [w.model for w in itertools.islice(self.recent, RECENT_HINTS)]
        for hint in hints:
            found = self._solve_near(guard, hint, reuse)
            if found is not None:
                return found
        return None

    def _solve_near(self, guard: Guard, model: dict[str, Any], reuse: bool = True) -> dict[str, Any] | None:
        """A model of ``guard`` close to ``model``, or ``None`` (then ask the whole guard).

        Like DSE's branch flip: take the BDD path of ``guard`` that agrees with ``model`` on
        every atom it can, so its literals differ from the model only where the guard forces
        it; split the literals and the input constraints into independent components, keep the
        model's values for the components it satisfies, and solve only the others (small,
        recurring queries: the query cache answers most). ``None`` when a component is unsat
        or unknown: this one path may be infeasible while another is not."""
        truth = self._witness(model).truth
        with self.mgr.timed():
            literals = self.mgr.cube_near(guard, truth)
        cube = {self._literal(atom, positive) for atom, positive in literals}
        constraints = self.base | {c for c in cube if isinstance(c, Term)}
        found = dict(model)
        seeds = sorted((c for c in constraints if not truth[c]), key=lambda t: t.serial)  # a fixed order of queries
        direct = solve_intervals(seeds, constraints, model)  # most branch flips: no solver at all
        if direct is False:
            return None
        if direct is not None:
            self.interval_solves += 1
            found.update(direct)  # type: ignore[arg-type]
            self._witness(found, near=model)
            return found
        for component in _touching_components(seeds, constraints):
            self.solver_stats.queries += 1
            answer = self.solver.check(Query(frozenset(component), component[0], reuse_models=reuse, sliced=True))
            if answer.status != SAT:
                return None
            names = _symbol_names(component)
            found.update((k, v) for k, v in answer.model.items() if k in names)
            if not names <= answer.model.keys() and not all(evaluate(c, found) is True for c in component):
                return None  # a symbol the solver left free kept a value that does not fit
        # The other literals of the cube hold under ``model`` and mention no symbol that
        # changed, so ``found`` satisfies the whole cube, one path of ``guard``.
        self._witness(found, near=model)
        return found

    def _commit(self, loc: Loc, guard: Guard, model: dict[str, Any], transitions: list[Transition]) -> None:
        feasible: list[tuple[Transition, dict[str, Any]]] = []
        for t in transitions:
            status, new_model = self._feasible(t.guard, guard, model, t.model_holds)
            if status == SAT:
                feasible.append((t, new_model))
            elif status != UNSAT:
                self.complete = False
                if self.deadline is not None and time.monotonic() > self.deadline:
                    self.finals.append((t.guard, ("cut", "timeout", self._line(loc))))
                    continue
                self.unknown_results.append(PathResult("unknown", None, reason="solver returned unknown (timeout)", condition=self.guard_term(t.guard)))
        if len(feasible) > 1 and control.loop_bound_hit(dict(loc[-1].loops), self.options.max_iterations):
            reason = control.loop_cut_reason(self.options.max_iterations)
            self.complete = False
            self.finals.append((guard, ("cut", reason, self._line(loc))))
            return
        for i, (t, new_model) in enumerate(feasible):
            try:
                temps = self._apply(loc, t)
            except _StepTimeout:  # this transition and the later ones end as cut paths
                self.complete = False
                self.finals += [(later.guard, ("cut", "timeout", self._line(loc))) for later, _ in feasible[i:]]
                return
            for g, outcome in t.final:
                if outcome[0] == "direction":
                    key = outcome[1]
                    self.directions[key] = self.mgr.or_(self.directions.get(key, self.mgr.false), g)
                else:
                    if outcome[0] == "cut":
                        self.complete = False
                    self.finals.append((g, outcome))
                    if _reads_heap(outcome):  # its result is encoded from the heap cells
                        self.heap_finals.append(g)
                    if self.holds(g, new_model):
                        self.final_models[id(g), len(self.finals) - 1] = new_model
                    else:
                        self.final_hints[len(self.finals) - 1] = new_model
            if t.loc is not None:
                self._schedule(t.loc, t.guard, new_model, temps, alone=len(feasible) == 1)

    def _collect(self, current: Guard) -> None:
        """Restrict the state to the paths still running: every later pc guard descends from
        a pending entry's (or the current one's), so the values the state holds for paths
        that ended are never read again. Frame variables are restricted to the union of the
        pending pc guards; heap cells to that union and the guards of results whose outcome
        refers to the heap (their returned objects are encoded from the cells afterwards).
        Summaries stay total on the running paths; their guards shrink, and with them the
        cost of every later assignment, read and sifting (``pl0_parser``: summaries held each
        parser position under guards of 1,000-2,000 nodes, mostly paths long finished)."""
        mgr = self.mgr
        with mgr.timed():
            pcs = [current, *self.pending.values()]
            running = mgr.or_all(pcs)
            if self.heap_finals:
                self.heap_finals = [mgr.or_all(self.heap_finals)]
            kept_for_cells = mgr.or_all([running, *self.heap_finals])
            self._restrict_all(self.vars, running)
            self._restrict_all(self.cells, kept_for_cells)
        self.collections += 1

    def _restrict_all(self, table: dict[Any, ValueSummary[Any]], domain: Guard) -> None:
        mgr = self.mgr
        for key, summary in list(table.items()):
            entries = []
            for g, v in summary:
                h = mgr.and_(g, domain)
                if not mgr.is_false(h):
                    entries.append((self._smaller(g, h), v))
            if entries:
                table[key] = ValueSummary(tuple(entries))
            else:
                del table[key]

    def _smaller(self, g: Guard, restricted: Guard) -> Guard:
        """``restricted`` (``g`` and the running paths) unless it has more nodes than ``g``:
        both mean the same on every running path."""
        return restricted if self.mgr.size(restricted) <= self.mgr.size(g) else g

    # ------------------------------------------------------------ block-local temporaries

    def _local_temps(self, qualname: str) -> frozenset[str]:
        """Temporaries of a function that are defined and used in one block only, and not
        read before they are defined there: dead whenever control enters a block. Their
        values belong to the pc entry (no other path can be between their definition and
        their use in the same frame), so they are kept with it, not in a shared summary."""
        found = self.local_temps_of.get(qualname)
        if found is None:
            function = self._function(qualname)
            home: dict[str, set[int]] = {}
            bad: set[str] = set()
            for label, block in function.blocks.items():
                defined: set[str] = set()
                nodes: list[Any] = list(block.instrs) + ([block.terminator] if block.terminator is not None else [])
                for node in nodes:
                    for op in _node_operands(node):
                        if isinstance(op, ir.Var) and op.name.startswith("%") and op.name not in defined:
                            bad.add(op.name)  # read before (or without) a definition in this block
                    for name in destinations(node) if node is not block.terminator else ():
                        defined.add(name)
                        home.setdefault(name, set()).add(label)
                    for name in _terminator_targets(node):
                        bad.add(name)
            found = frozenset(n for n, labels in home.items() if n.startswith("%") and len(labels) == 1 and n not in bad)
            self.local_temps_of[qualname] = found
        return found

    def _is_local(self, loc: Loc, key: VarKey) -> bool:
        depth, name = key
        return depth < len(loc) and name in self._local_temps(loc[depth].qualname)

    def _merge_temps(self, a: Temps, b: Temps) -> Temps:
        merged = dict(a)
        for key, entries in b.items():
            mine = merged.get(key)
            merged[key] = entries if mine is None else ValueSummary(mine + entries).compact(self.mgr, join=self.join).entries
        return merged

    def _temps_after(self, target: Loc) -> Temps:
        """The entry's temporaries that live on at ``target``: none of a frame that is gone,
        none of the target frame when control enters a block there."""
        depth = len(target) - 1
        entering = target[-1].offset == 0
        return {k: v for k, v in self.current_temps.items() if k[0] < depth or (k[0] == depth and not entering)}

    def _assign(self, loc: Loc, key: VarKey, pc: Guard, values: list[tuple[Guard, object]], temps: Temps,
                staged: dict[VarKey, ValueSummary[Any]]) -> None:
        """``key := values`` under ``pc`` (the values' guards partition it): into the entry's
        temporaries ``temps`` for a block-local temporary, else the new shared summary into
        ``staged`` (committed by the caller)."""
        mgr = self.mgr
        if self._is_local(loc, key):
            if len(values) == 1:  # leaf guards are never false: nothing to compact
                temps[key] = (values[0],)
            else:
                temps[key] = ValueSummary(tuple(values)).compact(mgr, join=self.join).entries
            self.summary_sizes.append(len(temps[key]))
            return
        old = staged.get(key) or self.vars.get(key) or ValueSummary.single(mgr, UNBOUND)
        new, joined = old.assign_counted(mgr, pc, ValueSummary(tuple(values)), join=self.join)
        self.merges_saved += joined
        staged[key] = new
        self.summary_sizes.append(len(new))

    def _apply(self, loc: Loc, t: Transition) -> Temps:
        """Assign the transition's targets under its guard; returns the temporaries of the
        new pc entry."""
        mgr = self.mgr
        # Nothing is committed until the new cells and variables are all built: a step past
        # the deadline (the guard algebra of one assignment can take minutes when guards blow
        # up) leaves the state as it was, and its transitions become cut paths (``_commit``).
        new_cells: dict[CellKey, ValueSummary[Any]] = {}
        new_vars: dict[VarKey, ValueSummary[Any]] = {}
        temps = self._temps_after(t.loc) if t.loc is not None else {}
        try:
            with mgr.stopping_at(None if self.in_results else self.deadline):
                written: dict[CellKey, list[tuple[Guard, object]]] = {}
                for g, writes in t.writes:
                    for cell, value in writes:
                        if isinstance(value, ValueSummary):  # an unread cell copied: its entries, under g
                            written.setdefault(cell, []).extend((mgr.and_(g, h), v) for h, v in value)
                        else:
                            written.setdefault(cell, []).append((g, value))
                for cell, values in written.items():
                    before = self.cells.get(cell, ValueSummary.empty())
                    pc = mgr.or_all(g for g, _ in values)
                    new_cells[cell] = before.assign_summary(mgr, pc, ValueSummary(tuple(values)), join=self.join)
                for key, values in t.assigns:
                    self._assign(loc, key, t.guard, values, temps, new_vars)
        except GuardTimeout:
            raise _StepTimeout() from None
        self.cells.update(new_cells)
        self.vars.update(new_vars)
        return temps

    # ------------------------------------------------------------ results

    def _solve(self, guard: Guard, extra: Iterable[Arg] = ()) -> tuple[str, dict[str, Any]]:
        """A model of the input constraints, ``extra`` and ``guard``: a cube goes through the
        chain as its literals (independent parts solved apart, recurring ones answered by its
        caches); any other guard goes to Z3 as its forced literals plus the rest encoded node
        by node."""
        cube, rest = self._split(guard)
        if self.mgr.is_false(rest):
            return UNSAT, {}
        constraints = self.base | cube | {c for c in extra if isinstance(c, Term)}
        self.solver_stats.queries += 1
        if self.mgr.is_true(rest):
            if not constraints:
                return SAT, {}
            answer = self.solver.check(Query(constraints))
            return answer.status, answer.model
        formula, syms = self.encoder.encode(rest)
        answer = self.z3_core.check(Query(constraints, None, (formula,), syms))
        if answer.status == SAT and not self.holds(guard, answer.model):
            raise AssertionError("a Z3 model of a guard's encoding violates the guard")
        return answer.status, answer.model

    def _input_heap_model(self, guard: Guard, condition: Arg, model: dict[str, Any]) -> dict[str, Any] | None:
        """``model``, or when it does not give the access paths it names the values of one input
        heap, a model of ``guard`` that does: the guard mentions access paths its satisfied
        disjunct never read (left free by the assumptions ``heap.inputs`` made on the others),
        so solve it again with the heap axioms over all of them (``input_objects.heap_axioms``).
        None when the solver answers unknown."""
        assert self.entry.heap_axioms is not None
        names = _symbol_names([condition] if isinstance(condition, Term) else []) | set(model)
        axioms = self.entry.heap_axioms(names)
        if all(evaluate(a, model) is True for a in axioms):
            return model
        status, found = self._solve(guard, axioms)
        if status == UNSAT:
            raise AssertionError("a result guard has no model that is an input heap")
        return {**model, **found} if status == SAT else None

    def _outcome_model(self, outcome: tuple[Any, ...], model: dict[str, Any]) -> dict[str, Any]:
        """``model`` with values for the access paths the outcome's report reads and the model
        leaves out, taken from the input heap it decodes to: a merged guard's satisfied disjunct
        may have read ``pr.right.val`` where the outcome shows ``b.val`` and ``b is pr.right``
        (``input_objects.complete_model``). A pass may reach further objects; an object graph
        is finite, so the passes end."""
        assert self.entry.fields_of is not None
        while True:
            absent = self._outcome_names(outcome, model) - model.keys()
            completed = complete_model(model, absent, self.entry.object_nullable, self.entry.fields_of)
            if completed.keys() == model.keys():
                return model
            model = completed

    def _outcome_names(self, outcome: tuple[Any, ...], model: dict[str, Any]) -> set[str]:
        """The symbols the report of ``outcome`` evaluates under ``model``."""
        asked = _AskedModel(model)
        if outcome[0] == "return":
            encode_symbolic(outcome[1], _EnvHeap(self, asked), asked)
        elif outcome[0] == "raise":
            control.exception_message(outcome[1], asked)
        return asked.asked

    def concretization_models(self, guard: Guard, terms: list[Term], site: str, where: Arg = True) -> tuple[list[dict[str, Any]], bool]:
        """Models of ``guard`` and ``where`` giving ``terms`` pairwise different values (concretization)."""

        def solve(excluded: list[Arg]) -> tuple[str, dict[str, Any]]:
            return self._solve(guard, excluded)

        models, exhausted = enumerate_models(None, terms, self.options.max_concretizations, solve, where)
        if models or not exhausted:
            frame = [f for f in self.current_loc if f.label >= 0][-1]
            key = control.concretization_site(self._function(frame.qualname), self._frame_line(frame), site)
            self.concretizations[key] = self.concretizations.get(key, 0) + 1
        return models, exhausted

    def _outcome_key(self, outcome: tuple[Any, ...]) -> tuple[Any, ...]:
        if outcome[0] == "return":
            return ("return", value_key(outcome[1]))
        if outcome[0] == "raise":
            exc: ExcVal = outcome[1]
            # exceptions with other arguments (messages) are other results, even at one line
            return ("raise", exc.cls, outcome[2], outcome[3], exc.text, value_key(exc.args))
        return outcome

    def _results(self) -> Iterator[PathResult]:
        mgr = self.mgr
        self.in_results = True
        # inputs for what was found are solved even after a timeout, within a grace period
        if self.deadline is not None:
            self.results_deadline = max(time.monotonic(), self.deadline) + RESULTS_GRACE * (self.options.timeout or 0)
        self.z3_core.deadline = self.results_deadline
        grouped: dict[tuple[Any, ...], tuple[Guard, tuple[Any, ...]]] = {}
        known: dict[tuple[Any, ...], dict[str, Any]] = {}
        hints: dict[tuple[Any, ...], dict[str, Any]] = {}  # the model of the pc entry a final came from
        order: list[tuple[Any, ...]] = []
        for i, (g, outcome) in enumerate(self.finals):
            key = self._outcome_key(outcome) if self.join else (len(order),)
            if key in grouped:
                grouped[key] = (mgr.or_(grouped[key][0], g), grouped[key][1])
            else:
                grouped[key] = (g, outcome)
                order.append(key)
            model = self.final_models.get((id(g), i))
            if model is not None and key not in known:
                known[key] = model
            hint = self.final_hints.get(i)
            if hint is not None:
                hints.setdefault(key, hint)
        batch = self._solve_cubes({k: grouped[k][0] for k in order if k not in known})
        parts: list[tuple[Guard, tuple[Any, ...], dict[str, Any]]] = []
        for key in order:
            g, outcome = grouped[key]
            if key in known:
                parts.append((g, outcome, known[key]))
                continue
            if key in batch and batch[key][0] == SAT:
                parts.append((g, outcome, batch[key][1]))
                continue
            if key in batch and batch[key][0] == UNSAT:
                continue
            if self.results_deadline is not None and time.monotonic() > self.results_deadline:
                self.complete = False
                self.unknown_results.append(PathResult("unknown", None, reason="timeout: the inputs of a result were not solved "
                                                       "within the results phase's share of --timeout"))
                continue
            if self.mgr.size(g) > RESULT_GUARD_LIMIT:  # not stated whole, nor solved whole
                status, model = self._solve_one_path(g, hints.get(key))
                if status == SAT:
                    parts.append((g, outcome, model))  # reported as that path and an unknown (below)
                else:
                    self.complete = False
                    self.unknown_results.append(PathResult("unknown", None, reason=f"path condition too large to state or solve "
                                                           f"(a BDD of {self.mgr.size(g)} nodes)"))
                continue
            near = self._solve_near_any(g, hints.get(key), reuse=False)  # results' guards are disjoint
            if near is not None:
                parts.append((g, outcome, near))
                continue
            status, model = self._solve(g)
            if status == SAT:
                parts.append((g, outcome, model))
            elif status != UNSAT:
                self.complete = False
                self.unknown_results.append(PathResult("unknown", None, reason="solver returned unknown (timeout)", condition=self.guard_term(g)))
        parts = self._cover_directions(parts)
        for result in self.unknown_results:
            self.paths += 1
            yield result
        for g, outcome, model in parts:
            if self.mgr.size(g) > RESULT_GUARD_LIMIT:
                unknown, g, model = self._one_path_of(g, model)
                self.paths += 1
                yield unknown
                if g is None:
                    continue
            self.paths += 1
            yield self._path_result(g, outcome, model)

    def _solve_cubes(self, guards: dict[tuple[Any, ...], Guard]) -> dict[tuple[Any, ...], tuple[str, dict[str, Any]]]:
        """Models of many result guards that are plain conjunctions of literals, from one
        incremental solver (``cube_batch``). Left to the chain: fewer than ``CUBE_BATCH`` such
        guards, and guards built from few distinct literals (fewer than half as many as the
        guards), whose independent parts the chain's query cache answers part by part. Every
        model is checked against its guard."""
        cubes: dict[Any, tuple[Term, ...]] = {}
        for key, g in guards.items():
            literals, rest = self._split_cube(g)
            if self.mgr.is_true(rest):
                cubes[key] = tuple(self._literal(atom, positive) for atom, positive in literals)
        if len(cubes) < CUBE_BATCH:
            return {}
        distinct = {literal for cube in cubes.values() for literal in cube}
        if 2 * len(distinct) < len(cubes):
            return self._solve_cubes_by_part(guards, cubes, distinct)
        self.solver_stats.queries += len(cubes)
        found = solve_cubes(sorted(self.base, key=lambda t: t.serial), cubes, self.solver_stats, self.options.solver_timeout_ms,
                            self.results_deadline)
        for solved, (status, model) in found.items():
            if status == SAT and not self.holds(guards[solved], model):  # type: ignore[index]
                raise AssertionError("a model from the batch solver violates its result guard")
        return found  # type: ignore[return-value]

    def _solve_cubes_by_part(self, guards: dict[tuple[Any, ...], Guard], cubes: dict[Any, tuple[Term, ...]], literals: set[Term]) -> dict[tuple[Any, ...], tuple[str, dict[str, Any]]]:
        """Few literals recurring across many result cubes: group each cube's literals (and
        the input constraints) by independent part, the parts found once for all literals
        (coarser than per cube, still independent), and ask the chain part by part, where
        its query cache answers every part after its first time."""
        parts = _components(self.base | frozenset(literals))
        part_of = {c: i for i, part in enumerate(parts) for c in part}
        base_of: dict[int, list[Term]] = {}
        for c in self.base:
            base_of.setdefault(part_of[c], []).append(c)
        found: dict[tuple[Any, ...], tuple[str, dict[str, Any]]] = {}
        answered: dict[frozenset[Term], tuple[str, dict[str, Any]]] = {}  # the same part recurs in most cubes
        for key, cube in cubes.items():
            if self.results_deadline is not None and time.monotonic() > self.results_deadline:
                break  # the cubes left are unknown results (``_results``)
            groups: dict[int, list[Term]] = {i: list(cs) for i, cs in base_of.items()}
            for literal in cube:
                groups.setdefault(part_of[literal], []).append(literal)
            model: dict[str, Any] = {}
            status = SAT
            for group in groups.values():
                asked = frozenset(group)
                answer = answered.get(asked)
                if answer is None:
                    answer = answered[asked] = self._solve_part(asked)
                if answer[0] != SAT:
                    status = answer[0]
                    break
                model.update(answer[1])
            found[key] = (status, model if status == SAT else {})
        return found

    def _solve_part(self, part: frozenset[Term]) -> tuple[str, dict[str, Any]]:
        """A model of one independent part of result cubes, restricted to the part's own
        symbols and checked against each of its constraints: models of symbol-disjoint
        parts then join into a model of any cube made of them (a cube is its guard), so the
        joined models need no check of their own."""
        self.solver_stats.queries += 1
        answer = self.solver.check(Query(part, None, reuse_models=False))  # no focus: a part may
        # fall apart within one cube, and the chain then solves each piece
        if answer.status != SAT:
            return answer.status, {}
        names = _symbol_names(part)
        model = {k: v for k, v in answer.model.items() if k in names}
        if not all(evaluate(c, model) is True for c in part):
            raise AssertionError("a model of an independent part of result cubes violates the part")
        return SAT, model

    def _covers(self, direction: Guard, model: dict[str, Any]) -> bool:
        return self.holds(direction, model)

    def _cover_directions(self, parts: list[tuple[Guard, tuple[Any, ...], dict[str, Any]]]) -> list[tuple[Guard, tuple[Any, ...], dict[str, Any]]]:
        """Split result guards until every feasible branch direction has an input (within
        the time limit: the results stand without it, with fewer inputs)."""
        mgr = self.mgr
        large = [mgr.size(g) > RESULT_GUARD_LIMIT for g, _, _ in parts]  # sizes walk the BDD: once per part
        for direction in self.directions.values():
            if self.deadline is not None and time.monotonic() > self.deadline:
                break  # more inputs for coverage only: past the time limit each query was a
                # solver timeout (a fuzzed program spent minutes here, 0.25 s a query)
            if any(self._covers(direction, model) for _, _, model in parts):
                continue
            for i, (g, outcome, model) in enumerate(parts):
                if large[i]:
                    continue  # not solved whole (``_results``): its one reported path stands for it
                inside = mgr.and_(g, direction)
                if mgr.is_false(inside):
                    continue
                status, inside_model = self._solve(inside)
                if status != SAT:
                    continue
                outside = mgr.and_(g, mgr.not_(direction))
                replacement = [(inside, outcome, inside_model)]
                if self._covers(outside, model) if not mgr.is_false(outside) else False:
                    replacement.append((outside, outcome, model))
                elif not mgr.is_false(outside):
                    out_status, out_model = self._solve(outside)
                    if out_status == SAT:
                        replacement.append((outside, outcome, out_model))
                parts[i : i + 1] = replacement
                large[i : i + 1] = [mgr.size(part) > RESULT_GUARD_LIMIT for part, _, _ in replacement]
                break
        return parts

    def _solve_one_path(self, g: Guard, hint: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        """The solver's answer for the BDD path of ``g`` nearest ``hint`` (or a recent model):
        a model of ``g`` when SAT; UNSAT says nothing of the rest of ``g``."""
        model = hint if hint is not None else next((w.model for w in self.recent), {})
        return self._solve(self._path_near(g, model))

    def _path_near(self, g: Guard, model: dict[str, Any]) -> Guard:
        """A BDD path of ``g`` (a conjunction of its atoms' literals) near ``model``: the one
        that takes ``model``'s branch outcomes wherever ``g`` allows (``cube_near``)."""
        truth = self._witness(model).truth
        with self.mgr.timed():
            literals = self.mgr.cube_near(g, truth)
        return self.guard(T.conj([self._literal(atom, positive) for atom, positive in literals]))

    def _one_path_of(self, g: Guard, model: dict[str, Any]) -> tuple[PathResult, Guard | None, dict[str, Any]]:
        """For a result guard too large to state: an ``unknown`` result for it (the run is
        incomplete: those inputs reach the outcome, their conditions are not stated) and the
        BDD path of ``g`` nearest ``model``, with a model of it, to report in its place (None
        when that path has no model)."""
        self.complete = False
        size = self.mgr.size(g)
        path = self._path_near(g, model)
        unknown = PathResult("unknown", None, reason=f"path condition too large to state (a BDD of {size} nodes): one path of it is reported")
        if self.holds(path, model):
            return unknown, path, model
        status, found = self._solve(path)
        return (unknown, path, found) if status == SAT else (unknown, None, model)

    def _path_result(self, g: Guard, outcome: tuple[Any, ...], model: dict[str, Any]) -> PathResult:
        condition = self.guard_term(g)
        if self.entry.heap_axioms is not None:
            heap_model = self._input_heap_model(g, condition, model)
            if heap_model is None:  # the solver gave up: an unknown result, never a guess
                self.complete = False
                return PathResult("unknown", None, reason="solver returned unknown (timeout) on a model that is one input heap",
                                  condition=condition)
            model = self._outcome_model(outcome, heap_model)
        inputs = self.entry.decode(model)
        if outcome[0] == "return":
            value = outcome[1]
            returned = encode_symbolic(value, _EnvHeap(self, model), model)
            return PathResult("return", inputs, returned=returned, condition=condition, symbol_values=model,
                              predict=lambda env: encode_symbolic(value, _EnvHeap(self, env), env))
        if outcome[0] == "raise":
            exc: ExcVal = outcome[1]
            message = control.exception_message(exc, model)
            return PathResult("raise", inputs, exception=exc.cls, message=message, line=outcome[2], kind=outcome[3],
                              condition=condition, symbol_values=model,
                              predict_message=lambda env: control.exception_message(exc, env))
        return PathResult("cut", inputs, line=outcome[2], reason=outcome[1], condition=condition, symbol_values=model)

    def _sharing_factor(self, summaries: list[ValueSummary[Any]]) -> float | None:
        """The paper's sharing factor: paths per distinct value, averaged over the variables
        and heap cells of the final state. The paths of an entry are counted as the paths of
        its guard's BDD (disjoint cubes of branch outcomes); UNBOUND entries do not count.
        ``None`` (not computed) when the guards have more than :data:`SHARING_WALK_MAX_NODES`
        nodes together: the count walks them in Python (a fuzzed program cut by its timeout
        left guards whose walk took longer than the rest of its results)."""
        counted = [[g for g, v in summary if v is not UNBOUND] for summary in summaries]
        if sum(self.mgr.size(g) for guards in counted for g in guards) > SHARING_WALK_MAX_NODES:
            return None
        ratios = []
        table: dict[Any, tuple[int, int]] = {}
        for guards in counted:
            if guards:
                ratios.append(sum(self.mgr.path_count(g, table) for g in guards) / len(guards))
        return round(sum(ratios) / len(ratios), 3) if ratios else 0.0

    def stats(self, final: bool = True) -> dict[str, object]:
        """The Table-1 statistics (``final=False``: for progress reports, without the
        sharing factor, whose BDD walk is the one costly part)."""
        total = set(branch_edges(self.entry.function))
        for qualname in self.entered:
            total.update(branch_edges(self.module.function(qualname)))
        covered = {k for k, g in self.directions.items() if not self.mgr.is_false(g)}
        s = self.solver_stats
        elapsed = time.monotonic() - self.start
        summaries = [v for v in list(self.vars.values()) + list(self.cells.values()) if len(v)]
        sizes = [len(v) for v in summaries]
        distinct = sum(sizes)
        finals = len(self.finals)
        return {
            "paths": self.paths if final else len(self.finals),  # during exploration: outcomes found
            "solver_calls": s.z3_calls,
            "solver_time_s": round(s.z3_time_s, 6),
            "time_s": round(elapsed, 6),
            "instructions": self.instructions,
            "branches_covered": len(covered & total),
            "branches_total": len(total),
            "queries": s.queries,
            "query_cache_hits": s.cache_hits,
            "cex_cache_hits": s.cex_hits,
            "solver_unknowns": s.unknowns,
            "unexplored_states": 0,
            "bdd_time_s": round(self.mgr.time_s, 6),
            "bdd_ops": self.mgr.ops,
            "bdd_time_pct": round(100 * self.mgr.time_s / elapsed, 1) if elapsed else 0.0,
            "solver_time_pct": round(100 * s.z3_time_s / elapsed, 1) if elapsed else 0.0,
            "avg_summary_size": round(sum(self.summary_sizes) / len(self.summary_sizes), 3) if self.summary_sizes else 0.0,
            "final_summary_entries": distinct,
            "sharing_factor": self._sharing_factor(summaries) if final else 0.0,
            "pc_merges": self.merges,
            "variable_merges_saved": self.merges_saved,
            "opaque_atoms": self.opaque_atoms,
            "state_collections": self.collections,
            "interval_solves": self.interval_solves,
            "final_outcome_entries": finals,
            "concretizations": dict(sorted(self.concretizations.items())),
        }


def _reads_heap(value: object) -> bool:
    """Whether encoding ``value`` (an outcome, a returned value, an exception) may read heap
    cells: it holds a reference, or something this test does not know (then: yes)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, Term)):
        return False
    if isinstance(value, tuple):
        return any(_reads_heap(v) for v in value)
    if isinstance(value, ExcVal):
        return any(_reads_heap(v) for v in value.args)
    return True


def _is_connective(t: Term) -> bool:
    """Whether ``guard`` makes ``t`` a BDD operation over its arguments' BDDs."""
    return t.op in ("not", "and", "or") or (t.op == "ite" and t.sort == T.BOOL)


def _symbol_names(constraints: Iterable[Term]) -> set[str]:
    """The names of the input symbols the constraints mention (a solver model of them may
    name others, from a cached query it answered before)."""
    return {str(sym.args[0]) for c in constraints for sym in T.symbols(c)}


def _touching_components(seeds: list[Term], constraints: frozenset[Term]) -> list[list[Term]]:
    """The independent components of ``constraints`` (connected through shared symbols) that
    contain a seed, each once, in the order of their first seed."""
    by_symbol: dict[Term, list[Term]] = {}
    for c in constraints:
        for sym in T.symbols(c):
            by_symbol.setdefault(sym, []).append(c)
    placed: set[Term] = set()
    seen: set[Term] = set()
    found: list[list[Term]] = []
    for seed in seeds:
        if seed in placed:
            continue
        placed.add(seed)
        component = [seed]
        todo = [seed]
        while todo:
            for sym in T.symbols(todo.pop()):
                if sym not in seen:
                    seen.add(sym)
                    for c in by_symbol.get(sym, ()):
                        if c not in placed:
                            placed.add(c)
                            component.append(c)
                            todo.append(c)
        found.append(component)
    return found


def _conjuncts(formula: Term) -> frozenset[Term]:
    """The top-level conjuncts of a Bool term, looking through negations (a BDD cube comes
    back from its complement edges as ``not (a or b or ...)``)."""
    found: set[Term] = set()
    stack: list[Arg] = [formula]
    while stack:
        term = stack.pop()
        if not isinstance(term, Term):
            assert term is True, "a false conjunct folds the whole formula to False"
            continue
        inner = term.args[0] if term.op == "not" else None
        if term.op == "and":
            stack.extend(term.args)
        elif isinstance(inner, Term) and inner.op == "or":
            stack.extend(T.not_(a) for a in inner.args)
        elif isinstance(inner, Term) and inner.op == "not":
            stack.append(inner.args[0])
        else:
            found.add(term)
    return frozenset(found)
