"""One MultiSE step: read the operands' guarded values, execute the instruction for every
combination with the shared semantics (``semantics.step.execute``), group the leaves by where
control goes next (fall through, branch, call, return, raise, loop iteration) and build the
transitions. Invariant: no step assigns anything itself; it returns transitions that
``Joins._commit`` applies, so a step cut by the time limit leaves the state as it was."""

from __future__ import annotations


import time
from collections.abc import Callable
from typing import Any

from pathloom.cuts import CutCause
from pathloom.engines.multise.heap import (
    CellKey,
    CellReader,
    CellWrite,
    NeedSplit,
    cell_writes,
)
from pathloom.frontend import ir
from pathloom.guards.bdd import Guard, GuardMemoryExceeded, GuardTimeout
from pathloom.guards.summary import ValueSummary, value_key
from pathloom.semantics import control
from pathloom.domain.outcome import (
    Cut,
    InterpreterStateLost,
    Invoke,
    Leaf,
    Ok,
    Refine,
    Throw,
    flatten,
)
from pathloom.domain.values import UNBOUND
from pathloom.semantics.step import (
    EXC_VAR,
    advance,
    bindings,
    destinations,
    execute,
    operands,
    raise_value,
    read_operand,
)
from pathloom.domain.values import ExcVal, Ref
from pathloom.terms.expr import Arg, Term
from pathloom.engines.multise.state import (
    ENTRY_ARGS,
    EXC_INFO,
    VarKey,
    FrameLoc,
    Loc,
    Transition,
    _StepTimeout,
)
from pathloom.engines.multise.joins import Joins


class _GuardedHeap(CellReader):
    """The heap as seen by one combination of operand values (guard ``guard``)."""

    def __init__(self, engine: Joins, guard: Guard) -> None:
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


class Stepping(Joins):
    # ------------------------------------------------------------ reading state

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

    def _leaves(
        self, guard: Guard, run: Callable[[_GuardedHeap], Any], known: dict[CellKey, object] | None = None
    ) -> list[tuple[Guard, Leaf, list[CellWrite]]]:
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
        except GuardTimeout as exc:
            raise _StepTimeout(isinstance(exc, GuardMemoryExceeded)) from None
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
        except InterpreterStateLost as exc:
            raise control.unsupported_at(self._function(loc[-1].qualname), self.module.filename, instr.loc, exc) from None
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
                except InterpreterStateLost as exc:
                    raise control.unsupported_at(self._function(loc[-1].qualname), self.module.filename, instr.loc, exc) from None

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
            recursion: list[tuple[Guard, tuple[ExcVal, int, str]]] = []
            entered: list[tuple[Guard, Invoke, list[CellWrite]]] = []
            cut: dict[CutCause, list[Guard]] = {}
            for c in calls:
                decision = control.call_decision(self._repeats_caller(loc, qualname, c[0], c[1]), len(loc), self.options.max_depth)
                if isinstance(decision, ExcVal):
                    recursion.append((c[0], (decision, where.line, "implicit")))
                elif decision is not None:
                    cut.setdefault(decision, []).append(c[0])
                else:
                    entered.append(c)
            if recursion:
                transitions.append(self._raise(loc, recursion))
            for cause, guards in cut.items():
                with mgr.timed():
                    g = mgr.or_all(guards)
                transitions.append(Transition(g, None, final=[(g, ("cut", cause, self._line(loc)))]))
            if entered:
                transitions.append(self._invoke(loc, qualname, entered, instr))
        refines = [(g, w) for g, leaf, w in leaves if isinstance(leaf, Refine)]
        if refines:
            with mgr.timed():
                t = Transition(mgr.or_all(g for g, _ in refines), loc)
            t.writes = [(g, w) for g, w in refines if w]
            transitions.append(t)
        cut_guards: dict[CutCause, list[Guard]] = {}
        for g, leaf, _ in leaves:
            if isinstance(leaf, Cut):
                cut_guards.setdefault(leaf.cause, []).append(g)
        return transitions + self._cuts(cut_guards, where.line)

    def _cuts(self, cut_guards: dict[CutCause, list[Guard]], line: int | None) -> list[Transition]:
        """The transitions that end the paths under each cause's guards, cut at ``line``."""
        ended = []
        for cause, guards in cut_guards.items():
            g = self.mgr.or_all(guards)
            ended.append(Transition(g, None, final=[(g, ("cut", cause, line))]))
        return ended

    def _self_recursive(self, qualname: str) -> bool:
        """Whether a top-level function calls itself by name (then its frames keep the
        arguments they were entered with, to recognize an infinite recursion)."""
        found = self.recursive.get(qualname)
        if found is None:
            function = self._function(qualname)
            found = any(
                isinstance(i, ir.Call) and isinstance(i.func, ir.Global) and i.func.name == qualname for b in function.blocks.values() for i in b.instrs
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
        labels = [f.label for f in loc]
        found: tuple[int, int] | None = None
        decided: list[tuple[Guard, tuple[ExcVal, int, str]]] = []
        for g, (exc, line, kind) in raised:
            where = control.raise_decision(functions, labels, exc, line, kind, lambda i: self._frame_line(loc[i]))
            found = where.handler  # the same for every exception raised at ``loc``
            decided.append((g, (where.exc, where.line, where.kind)))
        raised = decided
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
        cut_guards: dict[CutCause, list[Guard]] = {}
        for g, env in self._combinations(depth, [term.it], guard):
            it = env[term.it]

            def run(heap: _GuardedHeap, it: object = it) -> Any:
                from pathloom.domain.outcome import Split

                cases = advance(heap, it, term.loc)
                if isinstance(cases, Cut):
                    return cases
                return Split(tuple((cond, Ok((advanced, item))) for cond, advanced, item in cases))

            for h, leaf, _ in self._leaves(g, run):
                if isinstance(leaf, Cut):
                    cut_guards.setdefault(leaf.cause, []).append(h)
                    continue
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
        return result + self._cuts(cut_guards, term.loc.line)

    def _return(self, loc: Loc, returned: list[tuple[Guard, object]]) -> Transition:
        guard = self.mgr.or_all(g for g, _ in returned)
        depth = len(loc) - 1
        if depth == 0:
            return Transition(guard, None, final=[(g, ("return", v)) for g, v in returned])
        t = Transition(guard, self._advance(loc[:-1]))
        if loc[-1].ret_dst is not None:
            t.assigns.append(((depth - 1, loc[-1].ret_dst), returned))
        return t
