"""Constraints-driven symbolic execution (the paper's section 3.3) and the ``navigate`` entry
of the chain technique.

``navigate`` builds the chain form (``chains``) and the constraint system of the target
(``constraints``). An unsatisfiable system proves the target unreachable for every input,
before any execution. Otherwise the forking engine (one semantics, one state per path) runs
on the function instrumented with the target's marker, with the ``NavigationTechnique`` (its
``initial_states``, ``terminator`` and ``stats`` hooks, ``engines.techniques``): its states
also carry the chain counters. A state that completes a run of a subchain (a back edge)
adds one to its counter; at each loop node (a header entered or reached again), after each
chain run and when a top-level loop is left (its counters are then final), the system is
checked with the path condition and ``κ >= counts so far`` (``==`` for final counters); an
unsatisfiable check drops the state. Of the states a branch makes, those that follow a chain
the system's solution still wants more runs of go first, the chain wanted the fewest more times
first (the paper's decision procedure, with Z3 as the oracle). ``Plan.run`` runs the search in
time slices: paused at the end of one (``ForkingEngine.pause_at``), resumed by the next.

Invariants (the paper's Theorem 2): a state is dropped only when no execution extending it
reaches the target (the system over-approximates every such execution), so a run that ends
complete without reaching the marker proves the target unreachable on the engine's input
domain; a reported input is replayed in CPython by the caller. Departures: the loop bound of
the forking engine is lifted (the counters and the time limit bound the search instead); the
decision procedure asks Z3 rather than interval reasoning; a solver ``unknown`` never drops a
state.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import z3

from pathloom.engine_stats import ForkingStats
from pathloom.engines.forking import FORKED, ForkingEngine, State
from pathloom.engines.techniques import Technique
from pathloom.errors import EngineBug
from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.navigation import chains
from pathloom.navigation.constraints import System, build_system
from pathloom.navigation.fallback import EngineAnswer, Scan, conclude, domain
from pathloom.navigation.marker import instrumented
from pathloom.navigation.targets import Target, sites
from pathloom.options import Options
from pathloom.results import PathResult
from pathloom.terms.expr import Term, symbols
from pathloom.terms.z3_encode import assertion

UNBOUNDED_ITERATIONS = 1 << 40


NavAnswer = EngineAnswer  # verdict also ``not-applicable`` (with the reason) before any run


class Counters:
    """A state's chain bookkeeping: runs per chain, the blocks since each open loop node."""

    __slots__ = ("counts", "final", "left", "open", "path", "wanted")

    def __init__(self) -> None:
        self.counts: dict[tuple[int, ...], int] = {}  # chain group -> runs
        self.path: list[int] = []
        self.open: list[tuple[int, int]] = []  # (header, position of the header in path)
        self.final: frozenset[tuple[int, ...]] = frozenset()  # groups whose loops were left for good
        self.wanted: dict[tuple[int, ...], int] = {}  # group -> runs the last solution still asks for
        self.left = False  # the last step left a loop (and the system still holds)

    def copy(self) -> Counters:
        other = Counters()
        other.counts = dict(self.counts)
        other.path = list(self.path)
        other.open = list(self.open)
        other.final = self.final
        other.wanted = self.wanted
        other.left = self.left
        return other


class NavState(State):
    __slots__ = ("nav",)
    nav: Counters

    def fork(self) -> NavState:
        child = NavState([f.copy() for f in self.frames], self.heap.copy(), list(self.pc), self.model)
        child.nav = self.nav.copy()
        return child


class NavigationTechnique(Technique):
    """The chain counters on each state; states the constraint system rules out dropped."""

    def __init__(self, form: chains.ChainForm, system: System, solver_timeout_ms: int) -> None:
        self.form = form
        self.system = system
        self.checker = z3.Solver()
        self.checker.set("timeout", solver_timeout_ms)
        self.checker.add(system.formula)
        self.checks = 0
        self.dropped = 0
        self.verdicts: dict[object, tuple[bool, dict[tuple[int, ...], int] | None]] = {}  # memo of _check
        self.inputs = set(system.inputs)
        self.groups_of: dict[int, list[tuple[int, ...]]] = {}
        for group in system.counters:
            for chain_id in group:
                self.groups_of.setdefault(chain_id, []).append(group)

    def initial_states(self, proceed: Callable[[], list[State]]) -> list[State]:
        states: list[State] = []
        for s in proceed():
            nav = NavState(s.frames, s.heap, s.pc, s.model)
            nav.nav = Counters()
            nav.nav.path.append(s.frames[-1].label)
            states.append(nav)
        return states

    def terminator(self, proceed: Callable[..., object], state: State, block: ir.Block, schedule: Callable[[list[State]], None]) -> object:
        term = block.terminator
        if len(state.frames) != 1 or isinstance(term, (ir.Return, ir.Raise)):
            return proceed(state, block, schedule)
        forked: list[State] = []
        result = proceed(state, block, forked.extend)
        if result is None:
            return None if self._advance(state, term) else FORKED  # type: ignore[arg-type]
        kept = [child for child in forked if self._advance(child, term)]  # type: ignore[arg-type]
        kept.sort(key=self._preference)
        schedule(kept)
        return result

    # ------------------------------------------------------------ counters

    def _advance(self, state: State, term: ir.Terminator) -> bool:
        """Record the step ``state`` just took; False when the system rules the state out."""
        assert isinstance(state, NavState)
        nav = state.nav
        here = state.frames[-1].label
        blocks = self.form.function.blocks
        if isinstance(term, ir.Goto) and term.back_edge:
            start = next(pos for header, pos in reversed(nav.open) if header == term.target)
            chain = self.form.by_path.get((term.target, tuple(nav.path[start:])))
            if chain is None:
                raise EngineBug(f"pathloom: internal error: a run through the loop at L{term.target} is no chain: {nav.path[start:]}")
            for group in self.groups_of.get(chain.id, ()):
                nav.counts[group] = nav.counts.get(group, 0) + 1
            del nav.path[start + 1 :]
            return self._viable(state)
        nav.path.append(here)
        check = False
        nav.left = False
        while nav.open and nav.open[-1][0] not in blocks[here].loops:
            header, _ = nav.open.pop()
            nav.left = True
            if self.form.parent[header] is None:
                nav.final = nav.final | {g for c in self.form.chains_under(header) for g in self.groups_of.get(c.id, ())}
                check = True
        if self.form.is_header(here) and not (nav.open and nav.open[-1][0] == here):
            nav.open.append((here, len(nav.path) - 1))
            check = True
        return self._viable(state) if check else True

    def _viable(self, state: NavState) -> bool:
        nav = state.nav
        related = self._related(state.pc)
        key = (tuple(sorted(nav.counts.items())), nav.final, tuple(related))
        known = self.verdicts.get(key)
        if known is None:
            known = self._check(nav, related)
            self.verdicts[key] = known
        viable, wanted = known
        if not viable:
            self.dropped += 1
        elif wanted is not None:
            nav.wanted = wanted
        return viable

    def _check(self, nav: Counters, related: list[Term]) -> tuple[bool, dict[tuple[int, ...], int] | None]:
        """Whether the system holds with ``related`` and the counts so far, and how many more
        runs of each group a solution then asks for (None: the solver did not say)."""
        self.checks += 1
        timeout = self.engine.options.solver_timeout_ms
        if self.engine.deadline is not None:
            timeout = max(1, min(timeout, int((self.engine.deadline - time.monotonic()) * 1000)))
        self.checker.set("timeout", timeout)
        self.checker.push()
        try:
            for constraint in related:
                self.checker.add(assertion(constraint))
            for group, k in self.system.counters.items():
                done = nav.counts.get(group, 0)
                self.checker.add(k == done if group in nav.final else k >= done)
            answer = self.checker.check()
            if answer == z3.unsat:
                return False, None
            if answer != z3.sat:
                return True, None  # unknown: never a reason to drop a state
            model = self.checker.model()
            return True, {group: model.eval(k, model_completion=True).as_long() - nav.counts.get(group, 0) for group, k in self.system.counters.items()}
        finally:
            self.checker.pop()

    def _related(self, pc: list[Term]) -> list[Term]:
        """The path constraints that share inputs with the system, transitively (the others
        are independent of it: their satisfiability is the forking engine's business)."""
        if not self.inputs:
            return []
        names = set(self.inputs)
        related: list[Term] = []
        rest = [c for c in pc if isinstance(c, Term)]
        grown = True
        while grown and rest:
            grown = False
            for constraint in list(rest):
                mentioned = {str(t.args[0]) for t in symbols(constraint)}
                if mentioned & names:
                    names |= mentioned
                    related.append(constraint)
                    rest.remove(constraint)
                    grown = True
        return related

    def _preference(self, state: State) -> tuple[int, int]:
        """(-1, 0) for a state that just left a loop (the counters so far are a solution: the
        paper's decision procedure then leaves the loop node); (0, n) for a state on the way of
        a chain the solution wants run again, n the fewest runs wanted of such a chain's groups
        (the scarcest effect first: a chain wanted once is tried before the filler chains wanted
        many times, so a string scan places its one "Hello" before padding, instead of
        repeating the first match it meets); else (1, 0)."""
        assert isinstance(state, NavState)
        nav = state.nav
        if nav.left:
            return (-1, 0)
        if not nav.open:
            return (1, 0)
        header, start = nav.open[-1]
        trail = tuple(nav.path[start:])
        scarcest: int | None = None
        for chain in self.form.loops.get(header, []):
            if chain.blocks[: len(trail)] != trail:
                continue
            for group in self.groups_of.get(chain.id, ()):
                wanted = nav.wanted.get(group, 0)
                if wanted > 0 and (scarcest is None or wanted < scarcest):
                    scarcest = wanted
        return (1, 0) if scarcest is None else (0, scarcest)

    def stats(self, proceed: Callable[[], ForkingStats]) -> NavigationStats:
        return NavigationStats(**vars(proceed()), system_checks=self.checks, states_dropped=self.dropped)


@dataclass
class NavigationStats(ForkingStats):
    system_checks: int = 0  # satisfiability checks of the constraint system with a state's counts
    states_dropped: int = 0  # states the system ruled out


# ---------------------------------------------------------------- the entry


def _prepare(module: Module, qualname: str, target: Target) -> tuple[chains.ChainForm, list[tuple[int, ...]], dict[int, int]]:
    if qualname not in module.function_defs or "." in qualname:
        raise chains.NotApplicable("only plain functions (a method runs under a driver frame)")
    function = module.function(qualname)
    for block in function.blocks.values():
        for instr in block.instrs:
            if isinstance(instr, ir.Call) and isinstance(instr.func, ir.Global) and instr.func.name == function.name:
                raise chains.NotApplicable("the function calls itself")
    form = chains.build(function)
    site_index = {site.label: site.index for site in sites(function, target)}
    return form, chains.root_chains(form, set(site_index)), site_index


def _solve(system: System, timeout_ms: int) -> str:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(system.formula)
    answer = solver.check()
    return "unsat" if answer == z3.unsat else "sat" if answer == z3.sat else "unknown"


@dataclass
class Plan:
    """The chain form and constraint system of one target, built once; ``run`` navigates, in
    time slices: one search, paused at the end of each slice and resumed by the next call."""

    module: Module
    qualname: str
    target: Target
    form: chains.ChainForm
    system: System
    engine: ForkingEngine | None = None
    technique: NavigationTechnique | None = None
    results: Iterator[PathResult] | None = None
    seen: Scan = field(default_factory=Scan)  # what the slices so far showed

    def run(self, options: Options, budget: float | None) -> NavAnswer:
        """Constraints-driven DSE for ``budget`` more seconds (``timed_out`` on the answer says
        whether the slice or the time limit stopped it); ``options.timeout`` bounds all slices."""
        if self.engine is None:
            run_options = replace(options, max_iterations=UNBOUNDED_ITERATIONS, engine="dse")
            self.technique = NavigationTechnique(self.form, self.system, options.solver_timeout_ms)
            module = instrumented(self.module, self.qualname, self.target)
            self.engine = ForkingEngine(module, self.qualname, run_options, techniques=[self.technique], name="navigation")
            self.results = self.engine.run()
        engine, technique, results = self.engine, self.technique, self.results
        assert results is not None and technique is not None
        engine.pause_at = None if budget is None else time.monotonic() + budget
        return conclude(
            results,
            lambda: engine.complete,
            "navigation",
            lambda: f"found by the chain technique (constraints-driven dse, {technique.checks} system checks)",
            f"proved by constraints-driven dse: every path explored or ruled out by the constraint system ({domain(self.module, self.qualname, options)})",
            self.seen,
        )


def plan(module: Module, qualname: str, target: Target, options: Options) -> NavAnswer | Plan:
    """A proof or a reason the technique does not apply (a ``NavAnswer``), else a ``Plan``."""
    try:
        form, roots, site_index = _prepare(module, qualname, target)
    except chains.NotApplicable as exc:
        return NavAnswer("not-applicable", f"not applicable: {exc}")
    if not roots:
        return NavAnswer("unreachable", "proved: no path of the control-flow graph leads to it (chain technique)")
    system = build_system(module, form, roots, site_index)
    count = sum(len(c) for c in form.loops.values())
    if _solve(system, options.solver_timeout_ms) == "unsat":
        return NavAnswer(
            "unreachable",
            f"proved for every input: the constraint system of its {len(roots)} root chain(s) ({count} subchain(s)) has no solution (chain technique)",
        )
    if system.with_counters == 0:
        unsolved = "; ".join(f"{name}: {why}" for name, why in system.unsolved.items())
        return NavAnswer("not-applicable", "not applicable: no loop constraint on the way to the target" + (f" ({unsolved})" if unsolved else ""))
    return Plan(module, qualname, target, form, system)
