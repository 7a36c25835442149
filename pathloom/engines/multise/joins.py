"""Scheduling and joining: the pc queue in reverse post-order (so paths meet at joins before
going on), committing a step's feasible transitions (``{(h and not p, old)} + {(h and p, new)}``
then compaction, section 3 of the MultiSE paper), restricting the state to the running paths
every ``limits.COLLECT_EVERY`` steps, and the block-local temporaries that travel with their pc
entry instead of being merged. Invariant: the guards of the pending entries stay pairwise
disjoint, and every value summary's guards are pairwise disjoint."""

from __future__ import annotations


import heapq
import time
from typing import Any

from pathloom import cuts
from pathloom.domain.values import Ref
from pathloom.engines.multise.heap import (
    LEN,
    CellKey,
)
from pathloom.frontend import ir
from pathloom.frontend.cfg import reverse_postorder
from pathloom.guards.bdd import Guard, GuardMemoryExceeded, GuardTimeout
from pathloom.guards.summary import ValueSummary
from pathloom.results import PathOutcome, PathResult
from pathloom.semantics import control
from pathloom.semantics.sequences import items_left
from pathloom.domain.values import UNBOUND
from pathloom.semantics.step import (
    destinations,
)
from pathloom.solver.base import SAT, UNSAT
from pathloom.engines.multise.state import (
    VarKey,
    Temps,
    _node_operands,
    _terminator_targets,
    FrameLoc,
    Loc,
    Transition,
    _StepTimeout,
    _reads_heap,
)
from pathloom.engines.multise.feasibility import Feasibility


class Joins(Feasibility):
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

    def _local_entries(self, depth: int, name: str) -> tuple[tuple[Guard, Any], ...]:
        """The guarded values of a local: the entry's own temporary, else the shared summary,
        else unbound everywhere (the guard ``true`` is never conjoined: one value is taken as
        is)."""
        local = self.current_temps.get((depth, name))
        if local is not None:
            return local
        summary = self.vars.get((depth, name))
        return summary.entries if summary is not None else ((self.mgr.true, UNBOUND),)

    def _items_left(self, loc: Loc, guard: Guard) -> dict[int, int]:
        """For each enclosing ``for`` loop of the current frame whose iterator has a known
        number of items left under ``guard`` (the most, over its guarded values), that number:
        the loop bound does not cut the loop before its end."""
        frame = loc[-1]
        if not frame.loops:
            return {}
        counts = dict(frame.loops)
        left: dict[int, int] = {}
        for header, name in control.for_loop_iterators(self._function(frame.qualname), counts).items():
            known = [
                items_left(lambda ref: self._list_length(ref, guard), it)
                for g, it in self._local_entries(len(loc) - 1, name)
                if not self.mgr.is_false(self.mgr.and_(g, guard))
            ]
            if known and all(n is not None for n in known):
                left[header] = max(n for n in known if n is not None)
        return left

    def _list_length(self, ref: Ref, guard: Guard) -> object:
        """The length of a list under ``guard`` when it is one int there (else None)."""
        summary = self.cells.get((ref.id, LEN))
        if summary is None:
            return None
        lengths = {v for g, v in summary.entries if not self.mgr.is_false(self.mgr.and_(g, guard))}
        return lengths.pop() if len(lengths) == 1 else None

    def _commit(self, loc: Loc, guard: Guard, model: dict[str, Any], transitions: list[Transition]) -> None:
        feasible: list[tuple[Transition, dict[str, Any]]] = []
        for t in transitions:
            status, new_model = self._feasible(t.guard, guard, model, t.model_holds)
            if status == SAT:
                feasible.append((t, new_model))
            elif status != UNSAT:
                self.complete = False
                if self.deadline is not None and time.monotonic() > self.deadline:
                    self.finals.append((t.guard, ("cut", cuts.TIMEOUT, self._line(loc))))
                    continue
                self.unknown_results.append(
                    PathResult(PathOutcome.UNKNOWN, None, reason="solver returned unknown (timeout)", condition=self.guard_term(t.guard))
                )
        bound = (
            control.loop_bound_reached(dict(loc[-1].loops), self.options.max_iterations, lambda: self._items_left(loc, guard)) if len(feasible) > 1 else None
        )
        if bound is not None:
            reason = control.loop_cut_reason(bound)
            self.complete = False
            self.finals.append((guard, ("cut", reason, self._line(loc))))
            return
        for i, (t, new_model) in enumerate(feasible):
            try:
                temps = self._apply(loc, t)
            except _StepTimeout as exc:  # this transition and the later ones end as cut paths
                self.complete = False
                stop = cuts.MEMORY if exc.memory else cuts.TIMEOUT
                self.finals += [(later.guard, ("cut", stop, self._line(loc))) for later, _ in feasible[i:]]
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

    def _assign(self, loc: Loc, key: VarKey, pc: Guard, values: list[tuple[Guard, object]], temps: Temps, staged: dict[VarKey, ValueSummary[Any]]) -> None:
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
        except GuardTimeout as exc:
            raise _StepTimeout(isinstance(exc, GuardMemoryExceeded)) from None
        self.cells.update(new_cells)
        self.vars.update(new_vars)
        return temps
