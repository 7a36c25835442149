"""The compose engine: compositional symbolic execution with memoized replay (Qiu, Yang,
Pasareanu, Khurshid, ICSE 2015), on top of the forking engine.

Init (the paper's Algorithm 1): the summarizable functions reachable from the target
(``purity``) are explored alone, callees first, each on fresh symbols for its formals; every
path of that exploration is a leaf of the function's ``MemoTree`` (``tree``). A function
explored later replays the trees of the ones it calls, so trees compose bottom-up.

Composition (Algorithm 2): at a call of a function that has a tree, with actual arguments
of the formals' sorts, each leaf's path condition is rewritten over the actual arguments
(``terms.substitute``) and checked in the calling context: true under the path's model (no
solver), refuted by a conjunct whose negation is on the path (no solver), answered by the
leaf's memoized witness moved to the arguments (checked by evaluation), or by the solver
chain, asked once about the disjunction of the leaves still open (and again after each one it
finds). The state forks once per feasible leaf. In each child the callee is then re-executed with
the solver off: at every decision inside it the case that holds under the child's model is
taken (the model satisfies the leaf's condition, so it follows that leaf's path), which
rebuilds the return value, the exception and its line, and the coverage exactly as DSE
would. The replayed choices are compared with the leaf's (``replay_divergences``, 0 unless
the semantics disagree with themselves).

Invariants: the leaves of a tree partition the formals' values, so the children of a call
partition the caller's path; each child's model satisfies its path condition; a leaf that is
not a finished path (cut by a bound, or unknown to the solver), or whose nested calls would
pass the call-depth bound from this depth, is not replayed: the callee is executed as DSE
does on those leaves' inputs only (one region), so every bound cuts where DSE's would and is
reported. The store (``store``) keeps trees and complete runs; a stored run is replayed from
the entry with the solver off, its paths grouped along their shared choices.

Heap path conditions: a function whose formals include input objects (under POSE; it may
assign their fields) has a tree
over their locations and the fields its paths read, named by access path; at a call
``heap_formals`` reads those fields in the caller's heap (their writes and assumptions join
the path first) and maps the tree's symbols to the values read, so each leaf's condition is
one on the caller's inputs (the paper's consistency check is the feasibility check). The
replay re-executes the callee, so what it does to the objects (a property that assigns a
field) happens in the caller exactly as in DSE.

Departures from the paper: the callee is replayed by following the model rather than the
recorded choice indices (the same path, and robust to decisions that become concrete in a
context); only argument-decided functions are summarized (calls of any other function are
executed inline, exactly as DSE, which is always correct), and functions over input objects
only under POSE (lazy initialization and lazier# decide aliasing where the program uses a
reference, which a read at a call site cannot); a function's tree is built with a call-depth
bound of ``TREE_DEPTH``.

Built on the forking engine's exploration hooks (``engines.techniques``): ``run`` builds the
trees first and stores the run after; ``initial_states`` gives the states their traces (and a
tree's formals, or a stored run's models); ``apply`` composes a call that has a tree;
``decide`` follows a replay and records each choice; ``finish`` and ``unknown`` record the
leaves; ``stats`` adds the paper's counters.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from pathloom import interrupt
from pathloom.engines.compose.formals import actuals, bind, object_class, param_sort
from pathloom.engines.compose.heap_formals import field_symbols, heap_conjuncts, object_actuals, symbol_names
from pathloom.engines.compose.purity import call_graph
from pathloom.cuts import CutCause, CutReason
from pathloom.engine_stats import ForkingStats
from pathloom.engines.base import Progress
from pathloom.engines.compose.stats import ComposeStats
from pathloom.engines.compose.store import SummaryStore, run_key, tree_key
from pathloom.engines.compose.tree import (
    SUMMARY,
    Chain,
    MemoLeaf,
    MemoTree,
    count_nodes,
    length,
    push,
    suffix,
)
from pathloom.engines.forking import ForkingEngine, State
from pathloom.engines.techniques import Technique
from pathloom.errors import EngineBug, Unsupported, UsageError
from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.options import Options
from pathloom.results import PathResult
from pathloom.semantics import control
from pathloom.frontend.fields import declared_fields
from pathloom.semantics.input_heap import INPUTS
from pathloom.domain.outcome import Invoke, Ok, Outcome, Refine, flatten
from pathloom.domain.values import ObjRec
from pathloom.solver.base import SAT, UNSAT, Query
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Arg, Term
from pathloom.terms.substitute import OffDomain, substitute_each

# A function whose exploration alone has more paths than this is not summarized (its calls
# run inline): a tree that large costs more to build than its replays save.
MAX_TREE_LEAVES = 256
# The call-depth bound of a function explored alone (the paper's bound on a recursive
# method's tree): a path it cuts is a cut leaf, re-executed in each context under the real bound.
TREE_DEPTH = 8
PRUNED = CutCause(CutReason.PRUNED, "pruned by --target-heuristic h2 (a path of a callee that leads to no error)")
_Case = TypeVar("_Case")  # what one case of a fork carries (ForkingEngine._fork)


@dataclass(frozen=True)
class Replay:
    """A callee being replayed on a path: until the stack is back to ``floor`` frames."""

    floor: int
    tree: MemoTree
    leaf: int
    start: int  # length of the path's full trace when the replay began
    # a stored run: the leaves still on this path (they share its choices so far); ``leaf``
    # is the first of them, whose model the path has
    group: tuple[int, ...] = ()


class ComposeState(State):
    __slots__ = ("compressed", "full", "peak", "replay")

    full: Chain | None
    compressed: Chain | None
    peak: int
    replay: Replay | None

    def fork(self) -> ComposeState:
        return _adopt(State.fork(self), self)


def _adopt(base: State, like: ComposeState | None = None) -> ComposeState:
    """``base`` as a ``ComposeState`` (the traces and replay of ``like``, or empty ones)."""
    state = ComposeState.__new__(ComposeState)
    for slot in State.__slots__:
        setattr(state, slot, getattr(base, slot))
    state.full = like.full if like is not None else None
    state.compressed = like.compressed if like is not None else None
    state.peak = like.peak if like is not None else len(base.frames)
    state.replay = like.replay if like is not None else None
    return state


@dataclass
class Counters:
    trees: list[str] = field(default_factory=list)  # functions summarized
    not_summarized: list[str] = field(default_factory=list)  # rejected by their exploration alone
    trees_built: int = 0
    trees_from_store: int = 0
    init_time_s: float = 0.0
    init_solver_calls: int = 0
    replayed_calls: int = 0  # the paper's "sub-method invocations" replayed from a tree
    region_executions: int = 0  # leaves executed as DSE does (cut, unknown or too deep here)
    inline_calls: int = 0  # calls of a summarized function whose arguments do not fit its tree
    leaf_checks: int = 0
    refuted_without_solver: int = 0  # leaves with a conjunct whose negation is on the path
    witness_hits: int = 0  # leaves shown feasible by their memoized witness
    replay_divergences: int = 0
    replay_fallbacks: int = 0
    pruned_leaves: int = 0  # --target-heuristic h2


def ComposeEngine(
    module: Module,
    target: str,
    options: Options,
    progress: Progress | None = None,
    *,
    formals: tuple[tuple[str, str], ...] | None = None,
    trees: dict[str, MemoTree] | None = None,
    parent: ComposeTechnique | None = None,
) -> ForkingEngine:
    """The compose engine: the forking engine with the ``ComposeTechnique`` (registered as
    ``compose``). ``formals`` set: the engine explores ``target`` alone to build its tree."""
    technique = ComposeTechnique(formals=formals, trees=trees, parent=parent)
    return ForkingEngine(module, target, options, progress, techniques=[technique], name="compose")


def compose_technique(engine: ForkingEngine) -> ComposeTechnique:
    """The compose technique of an engine ``ComposeEngine`` built."""
    found = next(t for t in engine.techniques if isinstance(t, ComposeTechnique))
    return found


class ComposeTechnique(Technique):
    """Memoization trees built before the exploration; calls composed from them during it."""

    def __init__(
        self,
        *,
        formals: tuple[tuple[str, str], ...] | None = None,
        trees: dict[str, MemoTree] | None = None,
        parent: ComposeTechnique | None = None,
    ) -> None:
        self.parent = parent
        self.formals = formals  # set: this engine builds the tree of ``target`` alone
        self.trees: dict[str, MemoTree] = trees if trees is not None else {}
        self.counters = Counters()
        self.leaves: list[MemoLeaf] = []
        self.impure = False  # the exploration wrote a record it did not allocate (its tree would not be argument-decided)
        self.preexisting: frozenset[int] = frozenset()  # ids of the records the function alone starts with
        self.stored_run: MemoTree | None = None  # a complete run of the target read from the store
        self.timed_out_init = False
        self.substituted: dict[tuple[object, ...], list[tuple[Arg, tuple[Term, ...], int]]] = {}
        self.tree_symbols: dict[str, frozenset[str]] = {}  # the symbols of each tree's leaves
        self.t0 = time.monotonic()

    def attach(self, engine: ForkingEngine) -> None:
        super().attach(engine)
        if self.parent is not None:  # one solver chain (and its caches and counts) for the whole run
            parent = self.parent.engine
            engine.solver, engine.z3_core, engine.solver_stats = parent.solver, parent.z3_core, parent.solver_stats

    # ------------------------------------------------------------ init: the trees

    def run(self, proceed: Callable[[], Iterator[PathResult]]) -> Iterator[PathResult]:
        self.t0 = time.monotonic()
        if self.formals is not None:
            yield from proceed()
            return
        store = self._open_store()
        try:
            key = run_key(self.engine.module, self.engine.target, self.engine.options) if store is not None else ""
            if store is not None:
                self.stored_run = store.load(key, "run")[1]
            if self.stored_run is None:
                self._build_trees(store)
            self.counters.init_time_s = time.monotonic() - self.t0
            self.counters.init_solver_calls = self.engine.solver_stats.z3_calls
            if self.engine.options.timeout is not None:
                remaining = max(self.engine.options.timeout - self.counters.init_time_s, 1e-3)
                self.engine.options = replace(self.engine.options, timeout=remaining)
            yield from proceed()
            finished = all(leaf.outcome in ("return", "raise") for leaf in self.leaves)
            if store is not None and self.stored_run is None and self.engine.complete and finished:
                leaves = tuple(replace(leaf, conjuncts=()) for leaf in self.leaves)  # a replay needs only models and choices
                store.save(key, "run", self.engine.module.filename, self.engine.target, MemoTree(self.engine.target, (), leaves), self._must_stop)
        finally:
            if store is not None:
                store.close()

    def _open_store(self) -> SummaryStore | None:
        if self.engine.options.store is None:
            return None
        try:
            return SummaryStore(self.engine.options.store)
        except (sqlite3.Error, OSError) as exc:
            raise UsageError(f"--store {self.engine.options.store}: {exc}") from None

    def _build_trees(self, store: SummaryStore | None) -> None:
        for qualname in call_graph(self.engine.module, self.engine.target).bottom_up:
            if self._must_stop():
                return
            key = ""
            if store is not None:
                key = tree_key(self.engine.module, qualname, call_graph(self.engine.module, qualname).reachable, self.engine.options)
                found, tree = store.load(key, "tree")
                if found:
                    self.counters.trees_from_store += 1
                    self._adopt_tree(qualname, tree)
                    continue
            tree = self._build_tree(qualname)
            self.counters.trees_built += 1
            if store is not None and (tree is not None or not self.timed_out_init):
                store.save(key, "tree", self.engine.module.filename, qualname, tree, self._must_stop)
            self._adopt_tree(qualname, tree)

    def _adopt_tree(self, qualname: str, tree: MemoTree | None) -> None:
        if tree is None:
            self.counters.not_summarized.append(qualname)
        else:
            self.trees[qualname] = tree
            self.counters.trees.append(qualname)

    def _must_stop(self) -> bool:
        return interrupt.requested() or self._time_left() <= 0

    def _time_left(self) -> float:
        if self.engine.options.timeout is None:
            return float("inf")
        return self.engine.options.timeout - (time.monotonic() - self.t0)

    def _build_tree(self, qualname: str) -> MemoTree | None:
        function = self.engine.module.function(qualname)
        formals = tuple((f"@{qualname}.{p.name}", param_sort(p.annotation, self.engine.module.classes) or "") for p in function.params)
        objects = [reference[0] for reference in (object_class(sort) for _, sort in formals) if reference is not None]
        if objects and not self._objects_summarizable(objects):
            return None
        left = self._time_left()
        options = replace(
            self.engine.options, timeout=None if left == float("inf") else left, max_paths=None, max_depth=min(self.engine.options.max_depth, TREE_DEPTH)
        )
        try:
            engine = ComposeEngine(self.engine.module, qualname, options, formals=formals, trees=self.trees, parent=self)
            alone = compose_technique(engine)
            for count, _ in enumerate(engine.run(), 1):
                if count > MAX_TREE_LEAVES:
                    return None
        except Unsupported:
            return None  # met alone, perhaps never in a context: calls run inline, as DSE
        if any(leaf.detail in ("timeout", "interrupted") for leaf in alone.leaves):
            self.timed_out_init = True  # a correct tree (its cut leaves are re-executed), not one to keep
        self.counters.replay_divergences += alone.counters.replay_divergences
        self.counters.replay_fallbacks += alone.counters.replay_fallbacks
        if alone.impure or engine.concretizations:
            return None
        leaves = tuple(alone.leaves)
        if objects:  # the domains of the callee's own input heap, as a caller's heap meets them
            names = symbol_names(leaf.conjuncts for leaf in leaves)
            references, strs = field_symbols(self.engine.module, formals, names)
            leaves = tuple(replace(leaf, conjuncts=heap_conjuncts(leaf.conjuncts, references, strs)) for leaf in leaves)
        return MemoTree(qualname, formals, leaves)

    def _objects_summarizable(self, classes: list[str]) -> bool:
        """Object formals are summarized under POSE only (lazy initialization and lazier#
        decide aliasing where the program uses a reference, which a read at a call site
        cannot), and only of classes whose fields input objects hold."""
        if self.engine.options.heap != "pose":
            return False
        try:
            for cls in classes:
                declared_fields(self.engine.module, cls)
        except Unsupported:
            return False
        return True

    def initial_states(self, proceed: Callable[[], list[State]]) -> list[State]:
        states: list[State] = [_adopt(s) for s in proceed()]
        if self.stored_run is not None:
            return self._stored_states(states)  # type: ignore[arg-type]
        if self.formals is None:
            return states
        state = states[0]
        args, domain = bind(state.heap, self.formals, self.engine.options.max_list_len)
        objects = tuple((name, reference[0], True) for name, reference in ((n, object_class(s)) for n, s in self.formals) if reference is not None)
        if objects:  # the input heap's parameters are the formals (their symbols name the access paths)
            inputs = state.heap.record(INPUTS)
            assert isinstance(inputs, ObjRec)
            state.heap.write(INPUTS, inputs.with_field("params", objects))
        self.preexisting = state.heap.ids() - {INPUTS.id}
        frame = state.frames[0]
        frame.locals = {p.name: a for p, a in zip(self.engine.entry.function.params, args)}
        frame.args = args
        state.pc = domain  # only the lists' lengths: the tree holds in any calling context
        state.model = {}
        return [state]

    def _stored_states(self, bases: list[ComposeState]) -> list[State]:
        """One state per leaf of the stored run, on that leaf's model, replayed from the entry
        with the solver off (the initial state whose choices the model satisfies)."""
        stored = self.stored_run
        assert stored is not None
        groups: list[list[int]] = [[] for _ in bases]
        for index, leaf in enumerate(stored.leaves):
            at = next((k for k, b in enumerate(bases) if all(evaluate(c, leaf.witness) is True for c in b.pc)), None)
            if at is None:  # the stored models do not fit this entry: explore instead
                self.stored_run = None
                return list(bases)
            groups[at].append(index)
        states: list[State] = []
        for base, group in zip(bases, groups):
            if group:
                base.model = dict(stored.leaves[group[0]].witness)
                base.replay = Replay(0, stored, group[0], 0, tuple(group))
                states.append(base)
        return states

    def _split_group(
        self,
        proceed: Callable[..., object],
        state: ComposeState,
        cases: list[tuple[Arg, _Case]],
        apply: Callable[[State, _Case], object],
        schedule: Callable[[list[State]], None],
        site: tuple[str, int] | None,
    ) -> object:
        """A decision of a stored run's replay: the leaves on this path go with the case their
        models satisfy (no solver); one child per case that some leaf took."""
        replay = state.replay
        assert replay is not None
        leaves = replay.tree.leaves
        taken: list[tuple[Arg, _Case, tuple[int, ...]]] = []
        for cond, payload in cases:
            members = tuple(i for i in replay.group if cond is True or (cond is not False and evaluate(cond, leaves[i].witness) is True))
            if members:
                taken.append((cond, payload, members))

        def go(child: State, item: tuple[Arg, _Case, tuple[int, ...]]) -> object:
            assert isinstance(child, ComposeState) and isinstance(item, tuple)
            cond: Arg = item[0]
            payload = item[1]
            members: tuple[int, ...] = item[2]
            child.model = dict(leaves[members[0]].witness)
            child.replay = replace(replay, leaf=members[0], group=members)
            self.engine.constrain(child, cond, child.model)
            if site is not None:
                child.full = push(child.full, site + (self._direction(child, payload),))
            return apply(child, payload)

        if not taken:  # no stored path goes on from here: the store does not describe this code
            self.counters.replay_fallbacks += 1
            state.replay = None
            return proceed(state, cases, apply, schedule)
        return self.engine.split(state, [(True, item) for item in taken], go, schedule)

    # ------------------------------------------------------------ composition: calls

    def apply(
        self, proceed: Callable[..., object], state: State, outcome: Outcome, instr: ir.Instruction, loc: ir.Loc, schedule: Callable[[list[State]], None]
    ) -> object:
        assert isinstance(state, ComposeState)
        if isinstance(outcome, (Ok, Refine, Invoke)) and any(ref.id in self.preexisting for ref, _ in outcome.writes):
            self.impure = True  # a record the function did not allocate: its tree would not be argument-decided
        if isinstance(outcome, Invoke):
            self._settle(state)
            tree = self.trees.get(outcome.qualname) if state.replay is None else None
            if tree is not None:
                return self._call_with_tree(proceed, state, tree, outcome, instr, loc, schedule)
        return proceed(state, outcome, instr, loc, schedule)

    def invoke(self, proceed: Callable[..., object], state: State, call: Invoke, instr: ir.Instruction) -> object:
        assert isinstance(state, ComposeState)
        result = proceed(state, call, instr)
        state.peak = max(state.peak, len(state.frames))
        return result

    def _call_with_tree(
        self,
        proceed: Callable[..., object],
        state: ComposeState,
        tree: MemoTree,
        call: Invoke,
        instr: ir.Instruction,
        loc: ir.Loc,
        schedule: Callable[[list[State]], None],
    ) -> object:
        mapping = None
        if not call.kwargs and call.result is None:
            mapping = actuals(state.heap, tree.formals, call.args, self.engine.options.max_list_len)
        reads: Outcome = Ok(None)
        if mapping is not None and any(object_class(sort) is not None for _, sort in tree.formals):
            got = object_actuals(self.engine.module, state.heap, tree.formals, call.args, self._tree_symbols(tree))
            if got is None:
                mapping = None
            else:
                mapping.update(got[0])
                reads = got[1]
        if mapping is None:
            self.counters.inline_calls += 1
            return proceed(state, call, instr, loc, schedule)
        try:
            images = self._leaf_conditions(tree, mapping)
        except OffDomain:
            self.counters.inline_calls += 1
            return proceed(state, call, instr, loc, schedule)
        if isinstance(reads, Ok):
            for ref, record in reads.writes:
                state.heap.write(ref, record)
            return self._compose_call(state, tree, call, instr, mapping, images, schedule)
        # the reads assume their fields' domains and congruence: the path goes on under them
        cases = [(cond, case.writes) for cond, case in flatten(reads) if isinstance(case, Ok)]
        assert len(cases) == 1, reads

        def go(child: State, writes: object) -> object:
            assert isinstance(child, ComposeState)
            for ref, record in writes:  # type: ignore[attr-defined]
                child.heap.write(ref, record)
            return self._compose_call(child, tree, call, instr, mapping, images, schedule)

        return self.engine.split(state, cases, go, schedule)

    def _tree_symbols(self, tree: MemoTree) -> frozenset[str]:
        found = self.tree_symbols.get(tree.qualname)
        if found is None:
            found = self.tree_symbols[tree.qualname] = symbol_names(leaf.conjuncts for leaf in tree.leaves)
        return found

    def _compose_call(
        self,
        state: ComposeState,
        tree: MemoTree,
        call: Invoke,
        instr: ir.Instruction,
        mapping: dict[str, Arg],
        images: list[tuple[Arg, tuple[Term, ...], int]],
        schedule: Callable[[list[State]], None],
    ) -> object:
        floor = len(state.frames)
        pushed = self.engine._invoke(state, call, instr)
        if pushed is not None or len(state.frames) != floor + 1:
            return pushed  # a bound or an infinite recursion stopped the call, as in DSE
        self.counters.leaf_checks += len(images)
        feasible = self._feasible_leaves(state, tree, mapping, images)
        if not feasible:  # the leaves did not cover this path (they always should): run it as DSE does
            self.counters.region_executions += 1
            return None
        replayed: list[tuple[Arg, int | None, dict[str, object]]] = [item for item in feasible if self._replayable(tree.leaves[item[1]], floor)]
        rest = [item for item in feasible if item not in replayed]
        if rest:  # one region for all the others: DSE explores it as it would the whole call
            region: Arg = False
            for cond, _, _ in rest:
                region = T.or_(region, cond)
            replayed.append((region, None, rest[0][2]))
        replayed = self._targeted(state, tree, replayed)
        # every case is known feasible: the forking engine's own fork (no solver) schedules
        # one child per case, and ``_begin`` gives each child its condition and model
        chosen: list[tuple[Arg, object]] = [(True, item) for item in replayed]
        return self.engine.split(state, chosen, lambda s, item: self._begin(s, tree, item, floor), schedule)  # type: ignore[arg-type]

    def _targeted(
        self, state: ComposeState, tree: MemoTree, items: list[tuple[Arg, int | None, dict[str, object]]]
    ) -> list[tuple[Arg, int | None, dict[str, object]]]:
        """The paper's target heuristics: H1 explores the error leaves of the callee first (the
        searcher takes the first child first); H2, when an error leaf is feasible here, keeps
        only the error leaves and reports each pruned one as a cut path (incomplete)."""
        heuristic = self.engine.options.target_heuristic
        if heuristic is None or self.formals is not None:
            return items
        errors = [item for item in items if item[1] is not None and tree.leaves[item[1]].bug]
        if heuristic == "h1" or not errors:
            return errors + [item for item in items if item not in errors]
        for cond, _, model in (item for item in items if item not in errors):
            pruned = state.fork()
            self.engine.constrain(pruned, cond, model)
            self.counters.pruned_leaves += 1
            self.engine.emitted.append(self.engine.cut(pruned, PRUNED))
        return errors

    def _leaf_conditions(self, tree: MemoTree, mapping: dict[str, Arg]) -> list[tuple[Arg, tuple[Term, ...], int]]:
        """Each leaf's condition over the actual arguments (its conjunction and conjuncts),
        the leaves that fold to ``False`` left out. Memoized per tree and arguments (terms are
        interned: a call repeated on the same arguments meets the same key); the leaves of a
        tree share their prefixes, so one substitution memo serves them all."""
        key = (tree.qualname, tuple((type(v), v) for v in mapping.values()))
        found = self.substituted.get(key)
        if found is not None:
            return found
        done: dict[Term, Arg] = {}
        images: list[tuple[Arg, tuple[Term, ...], int]] = []
        for index, leaf in enumerate(tree.leaves):
            conjuncts = substitute_each(leaf.conjuncts, mapping, done)
            if conjuncts is not None:
                images.append((T.conj(conjuncts), conjuncts, index))
        if len(self.substituted) > 20_000:
            self.substituted.clear()
        self.substituted[key] = images
        return images

    def _feasible_leaves(
        self, state: ComposeState, tree: MemoTree, mapping: dict[str, Arg], cases: list[tuple[Arg, tuple[Term, ...], int]]
    ) -> list[tuple[Arg, int, dict[str, object]]]:
        """The leaves whose condition (over the actual arguments) is feasible on ``state``'s
        path, each with a model of the path and that condition (the paper's consistency
        check). In order: folded constants; the path's own model; a conjunct whose negation is
        on the path (no solver); the leaf's witness renamed to the actual arguments; then the
        solver, asked whether any of the remaining leaves is feasible, as many times as it
        finds one (the last answer, unsat, rules out all that remain at once)."""
        feasible: list[tuple[Arg, int, dict[str, object]]] = []
        open_cases: list[tuple[Term, int]] = []
        on_path = frozenset(c for c in state.pc if isinstance(c, Term))
        memo: dict[Term, Any] = {}
        renaming = {name: str(a.args[0]) for name, a in mapping.items() if isinstance(a, Term) and a.op == "sym"}
        for cond, conjuncts, index in cases:
            if not isinstance(cond, Term) or evaluate(cond, state.model, memo) is True:  # type: ignore[arg-type]
                feasible.append((cond, index, state.model))
            elif not on_path.isdisjoint(map(T.not_, conjuncts)):
                self.counters.refuted_without_solver += 1
            else:
                witness = self._witness_model(state, tree.leaves[index], renaming, cond)
                if witness is not None:
                    feasible.append((cond, index, witness))
                else:
                    open_cases.append((cond, index))
        conjuncts_of = {index: conjuncts for _, conjuncts, index in cases}
        while open_cases:
            anyone = _factored_disjunction([conjuncts_of[i] for _, i in open_cases])
            assert isinstance(anyone, Term)
            self.engine.solver_stats.queries += 1
            answer = self.engine.solver.check(Query(on_path | {anyone}, anyone))
            if answer.status == UNSAT:
                break
            if answer.status != SAT:
                self._unknown_leaves(state, open_cases)
                break
            model = {**state.model, **answer.model}
            memo = {}
            found = [(c, i) for c, i in open_cases if evaluate(c, model, memo) is True]  # type: ignore[arg-type]
            if not found:  # the model satisfies the disjunction, so one of its leaves
                raise EngineBug(f"pathloom: internal error: a model of {anyone!r} satisfies none of its disjuncts")
            feasible += [(c, i, model) for c, i in found]
            open_cases = [(c, i) for c, i in open_cases if (c, i) not in found]
        return feasible

    def _witness_model(self, state: ComposeState, leaf: MemoLeaf, renaming: dict[str, str], cond: Term) -> dict[str, object] | None:
        """The leaf's witness moved to the actual arguments that are input symbols, over the
        path's model, if it satisfies the path and the leaf's condition (checked, not assumed)."""
        moved = {renaming[n]: v for n, v in leaf.witness.items() if n in renaming}
        if not moved:
            return None
        model = {**state.model, **moved}
        memo: dict[Term, Any] = {}
        if evaluate(cond, model, memo) is True and all(evaluate(c, model, memo) is True for c in state.pc):
            self.counters.witness_hits += 1
            return model
        return None

    def _unknown_leaves(self, state: ComposeState, open_cases: list[tuple[Term, int]]) -> None:
        """The solver could not decide: each undecided leaf is an ``unknown`` path, as DSE
        reports a branch it cannot decide (never dropped as infeasible)."""
        for cond, _ in open_cases:
            self.engine.unknown_case(state, cond)

    def _replayable(self, leaf: MemoLeaf, floor: int) -> bool:
        """A finished leaf whose nested calls stay within the call-depth bound from here."""
        return leaf.replayable and not (leaf.frames > 1 and control.depth_exceeded(floor + leaf.frames - 1, self.engine.options.max_depth))

    def _begin(self, state: ComposeState, tree: MemoTree, item: tuple[Arg, int | None, dict[str, object]], floor: int) -> None:
        cond, index, model = item
        self.engine.constrain(state, cond, model)
        if index is None:
            self.counters.region_executions += 1  # DSE's own exploration, on these leaves' inputs only
            return
        state.replay = Replay(floor, tree, index, length(state.full))
        state.compressed = push(state.compressed, (SUMMARY, tree.qualname, index))
        self.counters.replayed_calls += 1
        return

    def _settle(self, state: ComposeState) -> None:
        """End the replay of a callee that has returned (or raised past its caller's frame)."""
        replay = state.replay
        if replay is not None and len(state.frames) <= replay.floor:
            if suffix(state.full, replay.start) != replay.tree.leaves[replay.leaf].full:
                self.counters.replay_divergences += 1
            state.replay = None

    # ------------------------------------------------------------ decisions

    def decide(
        self,
        proceed: Callable[..., object],
        state: State,
        cases: list[tuple[Arg, _Case]],
        apply: Callable[[State, _Case], object],
        schedule: Callable[[list[State]], None],
    ) -> object:
        assert isinstance(state, ComposeState)
        self._settle(state)
        site = self._decision_site(state)
        if state.replay is not None and len(state.replay.group) > 1:
            return self._split_group(proceed, state, cases, apply, schedule, site)
        if state.replay is not None:
            memo: dict[Term, Any] = {}
            for cond, payload in cases:
                if cond is True or (cond is not False and evaluate(cond, state.model, memo) is True):  # type: ignore[arg-type]
                    self.engine.constrain(state, cond, state.model)
                    if site is not None:
                        state.full = push(state.full, site + (self._direction(state, payload),))
                    return apply(state, payload)
            self.counters.replay_fallbacks += 1  # no case holds under the model: decide as DSE
            state.replay = None
        if site is None:
            return proceed(state, cases, apply, schedule)

        def recorded(child: State, payload: _Case) -> object:
            assert isinstance(child, ComposeState)
            choice = site + (self._direction(child, payload),)
            child.full = push(child.full, choice)
            child.compressed = push(child.compressed, choice)
            return apply(child, payload)

        return proceed(state, cases, recorded, schedule)

    @staticmethod
    def _decision_site(state: State) -> tuple[str, int] | None:
        """(function, block) when ``state`` decides a ``Branch`` or ``ForIter``, else None."""
        frame = state.frames[-1]
        block = frame.function.blocks[frame.label]
        if frame.index < len(block.instrs) or not isinstance(block.terminator, (ir.Branch, ir.ForIter)):
            return None
        return (frame.function.qualname, frame.label)

    @staticmethod
    def _direction(state: State, payload: object) -> bool:
        frame = state.frames[-1]
        if isinstance(frame.function.blocks[frame.label].terminator, ir.Branch):
            return bool(payload[1])  # type: ignore[index]
        return payload[0] is not None  # type: ignore[index]

    # ------------------------------------------------------------ leaves and stats

    def finish(self, proceed: Callable[[State, PathResult], PathResult], state: State, partial: PathResult) -> PathResult:
        assert isinstance(state, ComposeState)
        self._settle(state)
        result = proceed(state, partial)
        bug = result.outcome == "raise" and result.kind in ("implicit", "assert", "precondition")  # a callee's precondition is its caller's bug
        self._record_leaf(state, list(state.pc), result.outcome, result.exception or result.reason, bug)
        return result

    def unknown(self, proceed: Callable[[State, Arg], PathResult], state: State, cond: Arg) -> PathResult:
        assert isinstance(state, ComposeState)
        self._record_leaf(state, [*state.pc, cond], "unknown", "solver returned unknown")
        return proceed(state, cond)

    def _record_leaf(self, state: ComposeState, conjuncts: list[Arg], outcome: str, detail: str | None, bug: bool = False) -> None:
        unique = tuple(dict.fromkeys(c for c in conjuncts if c is not True))  # a replayed callee's choices repeat its leaf's
        self.leaves.append(MemoLeaf(unique, outcome, detail, dict(state.model), state.peak, suffix(state.full, 0), suffix(state.compressed, 0), bug))

    def stats(self, proceed: Callable[[], ForkingStats]) -> ComposeStats:
        base = proceed()
        c = self.counters
        total_time = time.monotonic() - self.t0
        return ComposeStats(
            **{**vars(base), "time_s": round(total_time, 6)},
            init_time_s=round(c.init_time_s, 6),
            composition_time_s=round(total_time - c.init_time_s, 6),
            init_solver_calls=c.init_solver_calls,
            composition_solver_calls=self.engine.solver_stats.z3_calls - c.init_solver_calls,
            answered_from_store=self.stored_run is not None,
            trees_built=c.trees_built,
            trees_from_store=c.trees_from_store,
            summarized=list(c.trees),
            not_summarized=list(c.not_summarized),
            sub_method_invocations=c.replayed_calls,
            region_executions=c.region_executions,
            inline_calls=c.inline_calls,
            leaf_checks=c.leaf_checks,
            leaves_refuted_without_solver=c.refuted_without_solver,
            witness_hits=c.witness_hits,
            compressed_tree_nodes=count_nodes(leaf.compressed for leaf in self.leaves),
            tree_nodes=count_nodes(leaf.full for leaf in self.leaves),
            replay_divergences=c.replay_divergences,
            replay_fallbacks=c.replay_fallbacks,
            pruned_leaves=c.pruned_leaves,
        )


def _factored_disjunction(conjunctions: list[tuple[Term, ...]]) -> Arg:
    """The disjunction of conjunctions, their shared prefixes factored out (the leaves of a
    tree share the conditions of their common ancestors): ``a & (b | c)`` for ``a & b``,
    ``a & c``. Its size is that of the trie of the conjunctions, not the sum of their lengths."""
    if any(not c for c in conjunctions):
        return True
    groups: dict[Term, list[tuple[Term, ...]]] = {}
    for c in conjunctions:
        groups.setdefault(c[0], []).append(c[1:])
    result: Arg = False
    for first, rests in groups.items():
        result = T.or_(result, T.and_(first, _factored_disjunction(rests)))
    return result
