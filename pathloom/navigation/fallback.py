"""The fallback: an existing engine (``dse`` or ``multise``) run on the function instrumented
with the target's marker (``marker``), where the chain technique does not apply or gives no
answer.

A path that ends with the marker is a candidate input (the caller replays it in CPython before
calling the target reachable). A run that ends complete (no bound, timeout, solver ``unknown``
or error cut any path) without the marker proves the target unreachable on the engine's input
domain: ints unbounded, lists and strs up to their length bounds. Anything else is ``unknown``
with the reasons of the cut paths. Engine choice (``auto``): MultiSE when an input is a list
(bounded inputs, where merging pays), DSE otherwise (also for strs: on the HWM benchmark
MultiSE overran a 10 s time limit by more than 90 s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from pathloom.engines.forking import PAUSED
from pathloom.errors import Unsupported
from pathloom.frontend.module import Module
from pathloom.navigation.marker import MARKER_KIND, instrumented, may_hide_marker
from pathloom.navigation.targets import Target
from pathloom.options import Options
from pathloom.results import PathResult


@dataclass(frozen=True)
class EngineAnswer:
    verdict: str  # reachable (a candidate input) | unreachable | unknown (| not-applicable: the chain technique)
    reason: str
    inputs: dict[str, Any] | None = None
    timed_out: bool = False  # unknown because the time limit stopped it (more time may answer)


def choose_engine(module: Module, qualname: str, requested: str) -> str:
    if requested != "auto":
        return requested
    annotations = [p.annotation or "" for p in module.function(qualname).params]
    return "multise" if any("list" in a for a in annotations) else "dse"


def domain(module: Module, qualname: str, options: Options) -> str:
    """The input domain a complete run covers, in words."""
    annotations = " ".join(p.annotation or "" for p in module.function(qualname).params)
    bounds = []
    if "list" in annotations:
        bounds.append(f"lists of at most {options.max_list_len} items (--max-list-len)")
    if "str" in annotations:
        bounds.append(f"strs of at most {options.max_str_len} characters (--max-str-len)")
    return "every input with " + " and ".join(bounds) if bounds else "every input"


@dataclass
class Scan:
    """What a run of an instrumented engine showed: the first input that reached the marker,
    and why paths were cut."""

    found: dict[str, Any] | None = None
    reasons: dict[str, None] = field(default_factory=dict)
    paused: bool = False  # the engine paused (``ForkingEngine.pause_at``): resumable

    @property
    def why(self) -> str:
        return "; ".join(self.reasons) or "exploration incomplete"


def scan(results: Iterator[PathResult], seen: Scan | None = None) -> Scan:
    """Read ``results`` until one reaches the marker (the engine then stops) or the engine
    pauses; ``seen``: what earlier slices of the same run showed."""
    seen = seen or Scan()
    seen.paused = False
    for result in results:
        if result is PAUSED:
            seen.paused = True
            return seen
        if result.outcome == "raise" and result.kind == MARKER_KIND:
            seen.found = result.inputs
            return seen
        if result.outcome in ("cut", "unknown") and result.reason:
            seen.reasons.setdefault(result.reason)
    return seen


def conclude(
    results: Iterator[PathResult], complete: Callable[[], bool], name: str, found: Callable[[], str], proved: str, seen: Scan | None = None
) -> EngineAnswer:
    """The answer of an instrumented run: its first marker input, or a proof when it ended
    complete (``complete()`` after the run, and no path cut in any slice: ``seen``), else
    ``unknown`` with why it stopped."""
    try:
        seen = scan(results, seen)
    except Unsupported as exc:
        return EngineAnswer("unknown", f"{name}: {exc.one_line()}")
    if seen.found is not None:
        return EngineAnswer("reachable", found(), seen.found)
    if seen.paused:
        return EngineAnswer("unknown", f"{name} stopped: timeout", timed_out=True)
    if complete() and not seen.reasons:
        return EngineAnswer("unreachable", proved)
    return EngineAnswer("unknown", f"{name} stopped: {seen.why}", timed_out="timeout" in seen.reasons)


def run_engine(module: Module, qualname: str, target: Target, options: Options, engine: str) -> EngineAnswer:
    from pathloom.api import Run

    run = Run(instrumented(module, qualname, target), qualname, replace(options, engine=engine), keep_paths=False)
    answer = conclude(
        run.results(),
        lambda: run.engine.complete,
        engine,
        lambda: f"found by {engine}",
        f"proved by a complete {engine} exploration ({domain(module, qualname, options)})",
    )
    if answer.verdict == "unreachable" and may_hide_marker(module.function(qualname)):
        return EngineAnswer("unknown", f"{engine} explored every path, but a recursive call inside a try may hide the target")
    return answer
