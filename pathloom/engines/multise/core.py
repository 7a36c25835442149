"""The base of the MultiSE engine: its state (``__init__``: value summaries of locals and heap
cells, the pending pc entries, the counters the stats report) and the translation between Bool
terms and BDD guards (``guard``, ``guard_term``), bottom-up and bounded (a connective whose BDD
would pass ``limits.GUARD_PRODUCT_LIMIT``/``GUARD_SIZE_LIMIT`` becomes one opaque atom).
Invariant: ``guard(t)`` and ``guard_term(guard(t))`` are equivalent for the input constraints;
the layers above (feasibility, joins, stepping, results) only add methods, never state."""

from __future__ import annotations


import itertools
import math
from collections import deque
from typing import Any

from pathloom.engines.base import Progress
from pathloom.engines.entry import Entry, build_entry
from pathloom.engines.guard_z3 import GuardEncoder
from pathloom.engines.multise.heap import (
    CellKey,
)
from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.guards.bdd import Guard, GuardManager
from pathloom.guards.summary import ValueSummary
from pathloom.guards.theory import Lemmas
from pathloom.options import Options
from pathloom.results import PathResult
from pathloom.domain.values import Ref
from pathloom.solver.base import SolverStats
from pathloom.solver.chain import build_chain
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term
from pathloom.engines.multise import limits
from pathloom.engines.multise.state import (
    VarKey,
    Temps,
    FrameLoc,
    Loc,
    _Witness,
    _is_connective,
    _conjuncts,
)


class MultiSECore:
    name = "multise"

    def __init__(self, module: Module, target: str, options: Options, progress: Progress | None = None) -> None:
        self.module = module
        self.target = target
        self.options = options
        self.progress = progress
        self.join = options.compaction
        self.mgr = GuardManager()
        self.solver_stats = SolverStats()
        self.solver, self.z3_core = build_chain(self.solver_stats, options.solver_timeout_ms, options.solver_layers)
        self.entry: Entry = build_entry(
            module, target, options.max_list_len, options.max_str_len, options.heap, options.max_objects, options.receiver, options.max_dict_len
        )
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
        self.results_deadline: float | None = None  # set when the results phase begins (limits.RESULTS_GRACE)
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
        self.recent: deque[_Witness] = deque(maxlen=limits.RECENT_HINTS)
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
            if math.prod(self.mgr.size(p) for p in parts) > limits.GUARD_PRODUCT_LIMIT:
                return self._opaque_atom(cond)  # the BDD operation itself could take minutes
            g = self.mgr.and_(*parts) if op == "and" else self.mgr.or_(*parts) if op == "or" else self.mgr.ite(*parts)
            return self._opaque_atom(cond) if self.mgr.size(g) > limits.GUARD_SIZE_LIMIT else g
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

    def _function(self, qualname: str) -> ir.Function:
        if qualname == self.entry.function.qualname:
            return self.entry.function
        return self.module.function(qualname)

    def _line(self, loc: Loc) -> int | None:
        frames = [f for f in loc if f.label >= 0]
        return self._frame_line(frames[-1]) if frames else None

    def _frame_line(self, frame: FrameLoc) -> int | None:
        """The line of the instruction or terminator ``frame`` runs (at a call: the call)."""
        block = self._function(frame.qualname).blocks[frame.label]
        node = block.instrs[frame.offset] if frame.offset < len(block.instrs) else block.terminator
        return node.loc.line if node is not None else None
