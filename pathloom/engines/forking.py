"""The forking engine (DSE): one state per path, forked at every feasible split.

State representation only: what each instruction means comes from ``pathloom.semantics``;
which state runs next comes from a searcher. Invariants: every state's ``model`` satisfies its
path condition (a case whose condition the model satisfies is taken without the solver; the
others get a fresh model from the solver chain, merged into the old one, whose other symbols
are independent); a solver ``unknown`` becomes an ``unknown`` path, never a pruned one; every
bound that stops a path (loop iterations, call depth, timeout, max paths, interruption)
yields a ``cut`` path and makes the exploration incomplete.

Loop bound: iterations of a loop are counted per path (back edges since the loop was last
entered); a path that has iterated an enclosing loop ``max_iterations`` times is cut at its
next symbolic decision with more than one feasible side. Concrete loops run unbounded (the
timeout stops them).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Callable, Iterator, TypeVar, cast

from pathloom import cuts
from pathloom.cuts import CutCause, CutReason
from pathloom.engine_stats import ForkingStats
from pathloom.engines.entry import Entry, build_entry, choice_combinations
from pathloom.engines.base import Progress
from pathloom.engines.searchers import make_searcher
from pathloom.engines.techniques import Technique, install
from pathloom.frontend import ir
from pathloom.frontend.cfg import branch_edges
from pathloom.frontend.module import Module
from pathloom.heap.base import Heap
from pathloom.heap.concrete import ConcreteHeap
from pathloom.options import Options
from pathloom.encoding.values import encode_symbolic
from pathloom.results import PathOutcome, PathResult, RaiseKind
from pathloom.domain.outcome import (
    Cut,
    InterpreterStateLost,
    Invoke,
    Ok,
    Outcome,
    Refine,
    Split,
    Throw,
    flatten,
)
from pathloom.semantics import control
from pathloom.semantics.concretize import enumerate_models
from pathloom.semantics.sequences import items_left
from pathloom.semantics.step import EXC_VAR, advance, bindings, destinations, execute, raise_value, read_operand
from pathloom.domain.values import ExcVal
from pathloom.solver.base import SAT, UNSAT, Query, SolverStats
from pathloom.solver.chain import build_chain
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Arg, Term

MAX_REPORTED_PENDING = 1000
_Case = TypeVar("_Case")  # what one case of a fork carries (an outcome, a branch target...)
# what ``run`` yields when ``pause_at`` passed: no path, the search suspended (not a result)
PAUSED = PathResult(PathOutcome.UNKNOWN, None, reason="paused: the time slice ended")


class Frame:
    __slots__ = ("function", "label", "index", "locals", "ret_dst", "override", "loops", "exc_info", "args")

    def __init__(
        self, function: ir.Function, local_vars: dict[str, object], ret_dst: str | None = None, override: object = None, args: tuple[object, ...] | None = None
    ) -> None:
        self.function = function
        self.label = function.entry
        self.index = 0
        self.locals = local_vars
        self.ret_dst = ret_dst
        self.override = override
        self.loops: dict[int, int] = {}
        self.exc_info: tuple[ExcVal, int, str] | None = None
        self.args = args  # the arguments the frame was entered with (for infinite recursion)

    def copy(self) -> Frame:
        other = Frame.__new__(Frame)
        other.function = self.function
        other.label = self.label
        other.index = self.index
        other.locals = dict(self.locals)
        other.ret_dst = self.ret_dst
        other.override = self.override
        other.loops = dict(self.loops)
        other.exc_info = self.exc_info
        other.args = self.args
        return other


def _current_line(frame: Frame) -> int | None:
    """The line of the instruction or terminator ``frame`` runs (at a call: the call)."""
    block = frame.function.blocks[frame.label]
    node = block.instrs[frame.index] if frame.index < len(block.instrs) else block.terminator
    return node.loc.line if node is not None else None


class State:
    """One analysis trace. ``trail`` hashes the program path it follows: the blocks it
    entered and the exceptions it raised, so that traces which differ only in what the heap
    model assumed (lazy initialization) count as one program path."""

    __slots__ = ("frames", "heap", "pc", "model", "trail")

    def __init__(self, frames: list[Frame], heap: Heap, pc: list[Term], model: dict[str, object], trail: int = 0) -> None:
        self.frames = frames
        self.heap = heap
        self.pc = pc
        self.model = model
        self.trail = trail

    def fork(self) -> State:
        return State([f.copy() for f in self.frames], self.heap.copy(), list(self.pc), self.model, self.trail)


class StopExploration(Exception):
    """Raised inside a step to stop the whole exploration (a timeout): the state is cut with
    ``reason`` and every pending state after it."""

    def __init__(self, cause: CutCause) -> None:
        self.cause = cause


class ForkingEngine:
    name = "dse"

    def __init__(
        self,
        module: Module,
        target: str,
        options: Options,
        progress: Progress | None = None,
        techniques: Sequence[Technique] = (),
        name: str | None = None,
    ) -> None:
        if name is not None:
            self.name = name
        self.module = module
        self.target = target
        self.options = options
        self.progress = progress
        self.solver_stats = SolverStats()
        self.solver, self.z3_core = build_chain(self.solver_stats, options.solver_timeout_ms, options.solver_layers)
        self.entry: Entry = build_entry(
            module, target, options.max_list_len, options.max_str_len, options.heap, options.max_objects, options.receiver, options.max_dict_len
        )
        self.complete = True
        self.instructions = 0
        self.paths = 0
        self.finished = 0
        self.covered: set[tuple[str, int, bool]] = set()
        self.start = 0.0
        self.deadline: float | None = None
        # when set and passed (checked after each state), ``run`` yields ``PAUSED`` and may be
        # resumed (``next``) with the search as it was: a time slice that loses no state
        self.pause_at: float | None = None
        self.unexplored = 0
        self.last_progress = 0.0
        self.emitted: list[PathResult] = []
        self.validate = "validate" in options.solver_layers
        self.entered: set[str] = set()  # functions this run executed (their branches count for coverage)
        self.concretizations: dict[str, int] = {}  # "line N: operation" -> operations run in CPython on pinned values
        self.program_paths: set[int] = set()  # the trails of the traces that ended (``State.trail``)
        self.techniques = list(techniques)
        install(self, self.techniques)

    # ------------------------------------------------------------ driving

    def initial_states(self) -> list[State]:
        """One state per combination of the entry's input choices (``Optional`` inputs)."""
        states = []
        for conditions, model, args in choice_combinations(self.entry.args):
            heap = ConcreteHeap(self.module.classes)
            for ref, record in self.entry.records.items():
                heap.write(ref, record)
            local_vars = {p.name: a for p, a in zip(self.entry.function.params, args)}
            pc = [c for c in self.entry.constraints + conditions if isinstance(c, Term)]
            states.append(State([Frame(self.entry.function, local_vars, args=args)], heap, pc, {**self.entry.initial_model, **model}))
        return states

    def run(self) -> Iterator[PathResult]:
        self.start = time.monotonic()
        if self.options.timeout is not None:
            self.deadline = self.start + self.options.timeout
            self.z3_core.deadline = self.deadline
        searcher = make_searcher(self.options.strategy or "dfs", self.options.seed, self._at_new_branch)
        searcher.update(self.initial_states(), [])
        stop_reason: CutCause | None = None
        try:
            while not searcher.empty():
                if self.options.max_paths is not None and self.finished >= self.options.max_paths:
                    stop_reason = control.max_paths_reason(self.options.max_paths)
                    break
                stop_reason = control.stop_reason(self.deadline)
                if stop_reason is not None:
                    break
                state = searcher.select()
                added: list[State] = []  # the children the step scheduled (``state`` may be one)
                try:
                    yield from self._run_state(state, added.extend)
                except StopExploration as stop:
                    stop_reason = stop.cause
                    yield self.cut(state, stop.cause)
                    break
                finally:
                    searcher.update(added, [state])
                self._report_progress()
                if self.pause_at is not None and time.monotonic() > self.pause_at and not searcher.empty():
                    self.pause_at = None  # at least one state runs in every slice
                    yield PAUSED
        except KeyboardInterrupt:
            stop_reason = cuts.INTERRUPTED
        if stop_reason is not None:
            pending = searcher.drain()
            for state in pending[:MAX_REPORTED_PENDING]:
                yield self.cut(state, stop_reason)
            self.unexplored = max(0, len(pending) - MAX_REPORTED_PENDING)
            if pending or stop_reason.kind == CutReason.INTERRUPTED:
                self.complete = False

    def _report_progress(self, force: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if force or now - self.last_progress > 0.2:
            self.last_progress = now
            self.progress(self.stats())

    def _at_new_branch(self, state: State) -> bool:
        frame = state.frames[-1]
        block = frame.function.blocks[frame.label]
        if frame.index < len(block.instrs) or not isinstance(block.terminator, (ir.Branch, ir.ForIter)):
            return False
        key = frame.function.qualname
        return (key, frame.label, True) not in self.covered or (key, frame.label, False) not in self.covered

    def stats(self) -> ForkingStats:
        total = set()
        for qualname in self.entered:
            total.update(branch_edges(self.module.function(qualname)))
        total.update(branch_edges(self.entry.function))
        covered = len(self.covered & total)
        s = self.solver_stats
        return ForkingStats(
            paths=self.paths,
            solver_calls=s.z3_calls,
            solver_time_s=round(s.z3_time_s, 6),
            time_s=round(time.monotonic() - self.start, 6),
            instructions=self.instructions,
            branches_covered=covered,
            branches_total=len(total),
            queries=s.queries,
            query_cache_hits=s.cache_hits,
            cex_cache_hits=s.cex_hits,
            solver_unknowns=s.unknowns,
            unexplored_states=self.unexplored,
            concretizations=dict(sorted(self.concretizations.items())),
            traces=self.paths,
            program_paths=len(self.program_paths),
        )

    # ------------------------------------------------------------ one state

    def _run_state(self, state: State, schedule: Callable[[list[State]], None]) -> Iterator[PathResult]:
        """Run ``state`` until it ends (yield its result) or forks (schedule the children)."""
        state.heap.model_source = lambda terms, site, where: self._models(state, terms, site, where)
        budget = 0
        while True:
            budget += 1
            if budget & 1023 == 0 and self.deadline is not None and time.monotonic() > self.deadline:
                raise StopExploration(cuts.TIMEOUT)
            if control.memory_exceeded():
                raise StopExploration(cuts.MEMORY)
            frame = state.frames[-1]
            block = frame.function.blocks[frame.label]
            self.instructions += 1
            if frame.index < len(block.instrs):
                instr = block.instrs[frame.index]
                try:
                    outcome = execute(self.module, state.heap, frame.locals, instr)
                except InterpreterStateLost as exc:
                    raise control.unsupported_at(frame.function, self.module.filename, instr.loc, exc) from None
                result = self._apply(state, outcome, instr, instr.loc, schedule)
            else:
                result = self._terminator(state, block, schedule)
            if self.emitted:
                yield from self.emitted
                self.emitted.clear()
            if result is None:
                continue
            if isinstance(result, PathResult):
                yield result
            return

    def _apply(self, state: State, outcome: Outcome, instr: ir.Instruction, loc: ir.Loc, schedule: Callable[[list[State]], None]) -> object:
        if isinstance(outcome, Split):
            return self._fork(state, flatten(outcome), lambda s, leaf: self._apply(s, leaf, instr, loc, schedule), schedule)
        frame = state.frames[-1]
        if isinstance(outcome, Ok):
            for ref, record in outcome.writes:
                state.heap.write(ref, record)
            for name, value in bindings(instr, outcome.value):
                frame.locals[name] = value
            frame.index += 1
            return None
        if isinstance(outcome, Throw):
            return self._raise(state, outcome.exc, outcome.line or loc.line, "implicit")
        if isinstance(outcome, Invoke):
            return self._invoke(state, outcome, instr)
        if isinstance(outcome, Refine):
            for ref, record in outcome.writes:
                state.heap.write(ref, record)
            return None
        assert isinstance(outcome, Cut)
        return self.cut(state, outcome.cause)

    def _models(self, state: State, terms: list[Term], site: str, where: Arg) -> tuple[list[dict[str, object]], bool]:
        """Models of ``state``'s path and ``where`` giving ``terms`` different values (concretization)."""

        def solve(excluded: list[Arg]) -> tuple[str, dict[str, object]]:
            constraints = frozenset(state.pc) | {c for c in excluded if isinstance(c, Term)}
            self.solver_stats.queries += 1
            answer = self.solver.check(Query(constraints, excluded[-1] if excluded and isinstance(excluded[-1], Term) else None))
            return answer.status, {**state.model, **answer.model}

        own = [f for f in state.frames if f.function.foreign_file is None]  # the user's code: its literals first
        literals = self.module.literals_near(_current_line(own[-1]) if own else None)
        models, exhausted = enumerate_models(state.model, terms, self.options.max_concretizations, solve, where, literals)
        if models or not exhausted:
            frame = state.frames[-1]
            key = control.concretization_site(frame.function, _current_line(frame), site)
            self.concretizations[key] = self.concretizations.get(key, 0) + 1
        return models, exhausted

    def _invoke(self, state: State, call: Invoke, instr: ir.Instruction) -> object:
        caller = state.frames[-1]
        in_try = caller.function.blocks[caller.label].handler is not None
        repeats = control.repeats_its_caller(caller.function.qualname, caller.args, in_try, call.qualname, call.args)
        decision = control.call_decision(repeats, len(state.frames), self.options.max_depth)
        if isinstance(decision, ExcVal):
            return self._raise(state, decision, instr.loc.line, "implicit")
        if decision is not None:
            return self.cut(state, decision)
        for ref, record in call.writes:
            state.heap.write(ref, record)
        callee = self.module.function(call.qualname)
        self.entered.add(call.qualname)
        local_vars = {p.name: a for p, a in zip(callee.params, call.args)}
        targets = destinations(instr)
        state.frames.append(Frame(callee, local_vars, targets[0] if targets else None, call.result, call.args))
        return None

    # ------------------------------------------------------------ control

    def _terminator(self, state: State, block: ir.Block, schedule: Callable[[list[State]], None]) -> object:
        frame = state.frames[-1]
        term = block.terminator
        if isinstance(term, ir.Goto):
            self._goto(frame, term.target, term.back_edge)
            return None
        if isinstance(term, ir.Branch):
            got = read_operand(self.module, frame.locals, term.cond)
            assert isinstance(got, Ok)
            cond = cast(Arg, got.value)  # a bool or Bool term (ir.Branch)
            options = [(cond, term.then, True), (T.not_(cond), term.orelse, False)]
            # a branch that leaves a loop (a ``while`` test, a ``break``) first, as ``_for_iter``
            options.sort(key=lambda option: len(frame.function.blocks[option[1]].loops))
            return self._decide(state, options, schedule)
        if isinstance(term, ir.ForIter):
            return self._for_iter(state, term, schedule)
        if isinstance(term, ir.Return):
            got = read_operand(self.module, frame.locals, term.value)
            if not isinstance(got, Ok):
                return self._raise(state, got.exc, term.loc.line, "implicit")  # type: ignore[union-attr]
            return self._return(state, got.value)
        assert isinstance(term, ir.Raise)
        outcome = raise_value(self.module, state.heap, frame.locals, term)
        assert isinstance(outcome, Throw)
        line, kind = control.raise_origin(outcome.exc, frame.exc_info, term)
        return self._raise(state, outcome.exc, line, kind)

    def _goto(self, frame: Frame, target: int, back_edge: bool) -> None:
        frame.loops = control.loop_counts_after(frame.function, frame.loops, target, back_edge)
        frame.label = target
        frame.index = 0

    def _decide(self, state: State, options: list[tuple[Arg, int, bool]], schedule: Callable[[list[State]], None]) -> object:
        frame = state.frames[-1]
        qualname, label = frame.function.qualname, frame.label

        def go(s: State, choice: tuple[int, bool]) -> object:
            self.covered.add((qualname, label, choice[1]))
            s.trail = hash((s.trail, qualname, label, choice[1]))
            self._goto(s.frames[-1], choice[0], False)
            return None

        return self._fork(state, [(cond, (target, direction)) for cond, target, direction in options], go, schedule)

    def _for_iter(self, state: State, term: ir.ForIter, schedule: Callable[[list[State]], None]) -> object:
        frame = state.frames[-1]
        qualname, label = frame.function.qualname, frame.label
        cases = advance(state.heap, frame.locals[term.it], term.loc)
        if isinstance(cases, Cut):
            return self.cut(state, cases.cause)

        def go(s: State, case: tuple[object | None, object]) -> object:
            advanced, item = case
            f = s.frames[-1]
            self.covered.add((qualname, label, advanced is not None))
            s.trail = hash((s.trail, qualname, label, advanced is not None))
            if advanced is None:
                self._goto(f, term.exit, False)
            else:
                f.locals[term.it] = advanced
                f.locals[term.dst] = item
                self._goto(f, term.body, False)
            return None

        # the loop's end first: a depth-first search then finishes the shortest inputs' paths
        # before it takes the loop once more (short witnesses; no dive to the iteration bound)
        ordered = sorted(cases, key=lambda case: case[1] is not None)
        return self._fork(state, [(cond, (advanced, item)) for cond, advanced, item in ordered], go, schedule)

    def _fork(self, state: State, cases: list[tuple[Arg, _Case]], apply: Callable[[State, _Case], object], schedule: Callable[[list[State]], None]) -> object:
        """A decision (the ``decide`` hook point; ``split`` is the same fork without hooks)."""
        return self.split(state, cases, apply, schedule)

    def split(self, state: State, cases: list[tuple[Arg, _Case]], apply: Callable[[State, _Case], object], schedule: Callable[[list[State]], None]) -> object:
        """Keep the feasible cases; continue ``state`` down the only one, or schedule children.

        Returns None (the state goes on), a ``PathResult`` (the state ended) or ``FORKED``."""
        feasible: list[tuple[Arg, _Case, dict[str, object]]] = []
        memo: dict = {}  # type: ignore[type-arg]
        for cond, payload in cases:
            if cond is False:
                continue
            if cond is True or evaluate(cond, state.model, memo) is True:  # type: ignore[arg-type]
                feasible.append((cond, payload, state.model))
                continue
            if self.deadline is not None and time.monotonic() > self.deadline:
                # checked here too, not only every 1,024 instructions: with large terms each
                # query's preparation (pinning, slicing) takes seconds, and a fuzzed program ran
                # 80 s past a 20-s timeout between two checks
                raise StopExploration(cuts.TIMEOUT)
            self.solver_stats.queries += 1
            answer = self.solver.check(Query(frozenset(state.pc) | {cond}, cond))  # type: ignore[arg-type]
            if answer.status == SAT:
                model = {**state.model, **answer.model}
                if self.validate:
                    self._check_model(state.pc + [cond], model)  # type: ignore[list-item]
                feasible.append((cond, payload, model))
            elif answer.status != UNSAT:
                self.unknown_case(state, cond)
        bound = control.loop_bound_reached(state.frames[-1].loops, self.options.max_iterations, lambda: self._items_left(state)) if len(feasible) > 1 else None
        if bound is not None:
            return self.cut(state, control.loop_cut_reason(bound))
        if not feasible:
            return FORKED
        if len(feasible) == 1:
            cond, payload, model = feasible[0]
            self.constrain(state, cond, model)
            return apply(state, payload)
        children: list[State] = []
        for i, (cond, payload, model) in enumerate(feasible):
            child = state if i == len(feasible) - 1 else state.fork()
            self.constrain(child, cond, model)
            result = apply(child, payload)
            if result is None:
                children.append(child)
            elif isinstance(result, PathResult):
                self.emitted.append(result)
        schedule(children)
        return FORKED

    def unknown_case(self, state: State, cond: Arg) -> None:
        """The solver could not decide whether ``state`` can take ``cond``: past the deadline
        the exploration stops (a timeout); before it, an ``unknown`` path is reported (never a
        pruned one) and the exploration is incomplete."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise StopExploration(cuts.TIMEOUT)
        self.complete = False
        self.paths += 1
        self.emitted.append(self._unknown_result(state, cond))

    @staticmethod
    def _check_model(pc: list[Term], model: dict[str, object]) -> None:
        from pathloom.errors import EngineBug

        memo: dict = {}  # type: ignore[type-arg]
        for constraint in pc:
            if evaluate(constraint, model, memo) is not True:  # type: ignore[arg-type]
                raise EngineBug(f"pathloom: internal error: path model {model} violates {constraint!r}")

    @staticmethod
    def constrain(state: State, cond: Arg, model: dict[str, object]) -> None:
        """Add ``cond`` to ``state``'s path, whose model is now ``model`` (which satisfies it)."""
        if isinstance(cond, Term):
            state.pc.append(cond)
        state.model = model

    # ------------------------------------------------------------ endings

    @staticmethod
    def _items_left(state: State) -> dict[int, int]:
        """For each enclosing ``for`` loop of the current frame whose iterator has a known
        number of items left, that number (the loop bound does not cut it before its end)."""
        frame = state.frames[-1]
        if not frame.loops:
            return {}
        left = {}
        for header, name in control.for_loop_iterators(frame.function, frame.loops).items():
            it = frame.locals.get(name)
            n = items_left(state.heap.list_length, it) if it is not None else None
            if n is not None:
                left[header] = n
        return left

    def _return(self, state: State, value: object) -> object:
        frame = state.frames.pop()
        if frame.override is not None:
            value = frame.override
        if not state.frames:
            heap = state.heap
            returned = encode_symbolic(value, heap, state.model)
            return self._finish(state, PathResult(PathOutcome.RETURN, None, returned=returned, predict=lambda env: encode_symbolic(value, heap, env)))
        caller = state.frames[-1]
        if frame.ret_dst is not None:
            caller.locals[frame.ret_dst] = value
        caller.index += 1
        return None

    def _raise(self, state: State, exc: ExcVal, line: int, kind: str) -> object:
        frames = state.frames
        where = control.raise_decision([f.function for f in frames], [f.label for f in frames], exc, line, kind, lambda i: _current_line(frames[i]))
        exc, line, kind = where.exc, where.line, where.kind
        state.trail = hash((state.trail, "raise", exc.cls, line))
        if where.handler is not None:
            depth, handler = where.handler
            del state.frames[depth + 1 :]
            frame = state.frames[-1]
            frame.locals[EXC_VAR] = exc
            frame.exc_info = (exc, line, kind)
            frame.loops = control.loop_counts_after(frame.function, frame.loops, handler, False)
            frame.label = handler
            frame.index = 0
            return None
        state.frames.clear()
        message = control.exception_message(exc, state.model)
        return self._finish(
            state,
            PathResult(
                PathOutcome.RAISE,
                None,
                exception=exc.cls,
                message=message,
                line=line,
                kind=RaiseKind(kind),
                predict_message=lambda env: control.exception_message(exc, env),
            ),
        )

    def cut(self, state: State, cause: CutCause) -> PathResult:
        """``state`` ends, stopped by a bound (``reason``): the exploration is incomplete."""
        self.complete = False
        line = _current_line(state.frames[-1]) if state.frames else None
        return self._finish(state, PathResult(PathOutcome.CUT, None, line=line, reason=cause.text, cut=cause.kind))

    def _finish(self, state: State, partial: PathResult) -> PathResult:
        self.paths += 1
        self.program_paths.add(hash((state.trail, partial.outcome, partial.line, partial.reason)))
        if partial.outcome in ("return", "raise"):
            self.finished += 1
        from dataclasses import replace

        return replace(
            partial,
            inputs=self.entry.decode(state.model),
            condition=T.conj(state.pc),
            symbol_values=dict(state.model),
        )

    def _unknown_result(self, state: State, cond: Arg) -> PathResult:
        return PathResult(PathOutcome.UNKNOWN, None, reason="solver returned unknown (timeout)", condition=T.conj(state.pc + [cond]))


class Forked:
    """What a step returns when the state forked (its children are scheduled) or was dropped."""


FORKED = Forked()
