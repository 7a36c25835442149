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

from dataclasses import dataclass, field, replace
from typing import Any, Iterator

from pathloom.errors import Unsupported
from pathloom.frontend.module import Module
from pathloom.navigation.marker import MARKER_KIND, instrumented, may_hide_marker
from pathloom.navigation.targets import Target
from pathloom.options import Options
from pathloom.results import PathResult


@dataclass(frozen=True)
class EngineAnswer:
    verdict: str  # reachable (a candidate input) | unreachable | unknown
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

    @property
    def why(self) -> str:
        return "; ".join(self.reasons) or "exploration incomplete"


def scan(results: Iterator[PathResult]) -> Scan:
    """Read ``results`` until one reaches the marker (the engine then stops)."""
    seen = Scan()
    for result in results:
        if result.outcome == "raise" and result.kind == MARKER_KIND:
            seen.found = result.inputs
            return seen
        if result.outcome in ("cut", "unknown") and result.reason:
            seen.reasons.setdefault(result.reason)
    return seen


def run_engine(module: Module, qualname: str, target: Target, options: Options, engine: str) -> EngineAnswer:
    from pathloom.api import Run

    marked = instrumented(module, qualname, target)
    run = Run(marked, qualname, replace(options, engine=engine), keep_paths=False)
    try:
        seen = scan(run.results())
    except Unsupported as exc:
        return EngineAnswer("unknown", f"{engine}: {exc.one_line()}")
    if seen.found is not None:
        return EngineAnswer("reachable", f"found by {engine}", seen.found)
    if run.engine.complete and not seen.reasons:
        if may_hide_marker(module.function(qualname)):
            return EngineAnswer("unknown", f"{engine} explored every path, but a recursive call inside a try may hide the target")
        return EngineAnswer("unreachable", f"proved by a complete {engine} exploration ({domain(module, qualname, options)})")
    return EngineAnswer("unknown", f"{engine} stopped: {seen.why}", timed_out="timeout" in seen.reasons)
