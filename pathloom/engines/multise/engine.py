"""The MultiSE engine as the registry knows it: the main loop (pop the first pc entry in
reverse post-order, step it, honour ``--timeout`` and Ctrl-C, cut the rest when stopped) and
the initial state. Invariant: a stopped run reports every pending entry as a cut path with the
reason, then solves the results it has."""

from __future__ import annotations


import heapq
import time
from collections.abc import Iterator

from pathloom import cuts
from pathloom.cuts import CutCause
from pathloom.semantics import control
from pathloom.engines.entry import InputChoice, InputSizes
from pathloom.engines.multise.heap import (
    cell_writes,
)
from pathloom.guards.bdd import GuardMemoryExceeded
from pathloom.guards.summary import ValueSummary
from pathloom.results import PathOutcome, PathResult
from pathloom.engines.multise import limits
from pathloom.engines.multise.state import (
    FrameLoc,
    _StepTimeout,
)
from pathloom.engines.multise.results import Results


class MultiSEEngine(Results):
    name = "multise"

    def run(self) -> Iterator[PathResult]:
        self.start = time.monotonic()
        if self.options.timeout is not None:
            self.deadline = self.start + self.options.timeout
            self.z3_core.deadline = self.deadline
        self._init_state()
        stop: CutCause | None = None
        try:
            while self.queue or self.inline is not None:
                stop = control.stop_reason(self.deadline)
                if stop is not None:
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
                if self.instructions % limits.COLLECT_EVERY == limits.COLLECT_EVERY - 1:
                    self._collect(guard)
                try:
                    self._step(real, guard, model)
                except _StepTimeout as exc:
                    stop = cuts.MEMORY if exc.memory else cuts.TIMEOUT
                    self.finals.append((guard, ("cut", stop, self._line(real))))
                    break
                if self.progress is not None and time.monotonic() - self.last_progress > 0.2:
                    self.last_progress = time.monotonic()
                    self.progress(self.stats(final=False))
        except KeyboardInterrupt:
            stop = cuts.INTERRUPTED
        except GuardMemoryExceeded:  # guard algebra outside a step (a join, a collection)
            stop = cuts.MEMORY
        if stop is not None:
            self.complete = False
            if self.inline is not None:
                self.pending[self.inline[0]] = self.inline[1]
            for loc, guard in self.pending.items():
                self.finals.append((guard, ("cut", stop, self._line(loc))))
        try:
            yield from self._results()
        except GuardMemoryExceeded:  # the results not yet given are one cut, without an input
            self.complete = False
            yield PathResult(PathOutcome.CUT, None, reason=cuts.MEMORY.text, cut=cuts.MEMORY.kind)

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
