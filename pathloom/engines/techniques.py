"""Exploration techniques: hooks around the forking engine's steps, after angr's
``ExplorationTechnique``.

A technique subclasses ``Technique`` and overrides the hooks it needs. Each hook receives
``proceed``, the rest of the chain (the next technique's hook, or the forking engine's own
step at the end), and the step's arguments; it may call ``proceed`` with the same or other
arguments, call it several times, or answer without it. A hook it does not override is not
in the chain. ``ForkingEngine(..., techniques=[a, b])`` puts ``a`` outermost: ``a``'s hook
runs first and its ``proceed`` is ``b``'s hook. ``attach`` is called once, when the engine is
built, with the engine the technique serves.

The hook points, and the engine step each wraps:

- ``run``: the whole exploration (work before and after it: the compose engine builds its
  trees first and stores the run after);
- ``initial_states``: the states the search starts from (a technique may give them its own
  ``State`` subclass, whose ``fork`` keeps its fields);
- ``decide``: a fork among guarded cases at a branch, a loop step, a split outcome or a
  call (``engine.split`` is the engine's own fork, without any hook, for a technique's own
  known-feasible cases);
- ``apply``: one instruction's outcome (an ``Invoke`` is a call about to be entered);
- ``invoke``: a callee's frame pushed;
- ``terminator``: a block's terminator (goto, branch, loop step, return, raise);
- ``finish``: a path's result completed (inputs, condition) before it is reported;
- ``unknown``: the result of a case the solver could not decide;
- ``stats``: the engine's counters; a technique returns its own ``ForkingStats`` subclass.

Invariant: with no technique the engine is the plain forking engine (each hook point is the
engine's own method); a technique changes the exploration only through these hooks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pathloom.engine_stats import ForkingStats
    from pathloom.domain.outcome import Invoke, Outcome
    from pathloom.engines.forking import ForkingEngine, State
    from pathloom.frontend import ir
    from pathloom.results import PathResult
    from pathloom.terms.expr import Arg

Case = TypeVar("Case")  # what one case of a fork carries (an outcome, a branch target...)
Schedule = Callable[[list["State"]], None]

# hook name -> the engine attribute it wraps
HOOK_POINTS: dict[str, str] = {
    "run": "run",
    "initial_states": "initial_states",
    "decide": "_fork",
    "apply": "_apply",
    "invoke": "_invoke",
    "terminator": "_terminator",
    "finish": "_finish",
    "unknown": "_unknown_result",
    "stats": "stats",
}


class Technique:
    """The base technique: every hook proceeds unchanged (and is left out of the chain)."""

    engine: ForkingEngine

    def attach(self, engine: ForkingEngine) -> None:
        self.engine = engine

    def run(self, proceed: Callable[[], Iterator[PathResult]]) -> Iterator[PathResult]:
        return proceed()

    def initial_states(self, proceed: Callable[[], list[State]]) -> list[State]:
        return proceed()

    def decide(
        self, proceed: Callable[..., object], state: State, cases: list[tuple[Arg, Any]], apply: Callable[[State, Any], object], schedule: Schedule
    ) -> object:
        return proceed(state, cases, apply, schedule)

    def apply(self, proceed: Callable[..., object], state: State, outcome: Outcome, instr: ir.Instruction, loc: ir.Loc, schedule: Schedule) -> object:
        return proceed(state, outcome, instr, loc, schedule)

    def invoke(self, proceed: Callable[..., object], state: State, call: Invoke, instr: ir.Instruction) -> object:
        return proceed(state, call, instr)

    def terminator(self, proceed: Callable[..., object], state: State, block: ir.Block, schedule: Schedule) -> object:
        return proceed(state, block, schedule)

    def finish(self, proceed: Callable[[State, PathResult], PathResult], state: State, partial: PathResult) -> PathResult:
        return proceed(state, partial)

    def unknown(self, proceed: Callable[[State, Arg], PathResult], state: State, cond: Arg) -> PathResult:
        return proceed(state, cond)

    def stats(self, proceed: Callable[[], ForkingStats]) -> ForkingStats:
        return proceed()


def install(engine: ForkingEngine, techniques: list[Technique]) -> None:
    """Attach ``techniques`` to ``engine`` and route each hook point through their chain
    (the first technique outermost), as instance attributes over the engine's own methods."""
    for technique in techniques:
        technique.attach(engine)
    for hook, attribute in HOOK_POINTS.items():
        own = step = getattr(engine, attribute)
        for technique in reversed(techniques):
            if getattr(type(technique), hook) is not getattr(Technique, hook):
                step = functools.partial(getattr(technique, hook), step)
        if step is not own:
            setattr(engine, attribute, step)
