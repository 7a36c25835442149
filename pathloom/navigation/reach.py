"""``reach``: a verdict for each target of one function.

Per target, within its time limit: first the chain technique (``navigator.navigate``: a proof
of unreachability from an unsatisfiable constraint system, or an input found by
constraints-driven symbolic execution), and where it does not apply or gives no answer, the
fallback engine (``fallback``). Invariant: a ``reachable`` verdict is given only after the
input was replayed in CPython (``trace``) and the trace reached the target; an input that does
not is recorded in ``mismatches`` (an internal inconsistency, exit 3) and the target is
``unknown``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from pathloom.frontend.module import Module
from pathloom.navigation import fallback
from pathloom.navigation.targets import Target, observed
from pathloom.navigation.trace import trace
from pathloom.navigation.verdict import Verdict
from pathloom.options import Options


@dataclass(frozen=True)
class ReachOptions:
    engine: str = "auto"  # fallback engine: auto | dse | multise
    chains: bool = True  # try the chain technique first


@dataclass
class ReachRun:
    verdicts: list[Verdict] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)


def function_span(module: Module, qualname: str) -> tuple[int, int]:
    node = module.function_defs.get(qualname)
    if node is not None:
        return node.lineno, node.end_lineno or node.lineno
    function = module.function(qualname)
    lines = [i.loc.line for b in function.blocks.values() for i in b.instrs]
    return function.line, max(lines, default=function.line)


def confirmed(module: Module, qualname: str, target: Target, inputs: dict[str, object]) -> tuple[bool, str]:
    """Whether CPython, run on ``inputs``, reaches ``target`` (and what it did otherwise)."""
    [seen] = trace(module.filename, qualname, function_span(module, qualname), [inputs])
    if observed(target, set(seen.lines), set(seen.raised)):
        return True, ""
    return False, f"CPython did not reach {target.label()} ({seen.outcome}{': ' + seen.detail if seen.detail else ''})"


def _answer(module: Module, qualname: str, target: Target, options: Options, reach_options: ReachOptions, started: float) -> tuple[str, str, dict[str, object] | None, str]:
    """(verdict, reason, candidate input, engine) before the replay."""
    not_applicable = ""
    if reach_options.chains:
        from pathloom.navigation.navigator import navigate

        nav = navigate(module, qualname, target, options, started)
        if nav.verdict != "not-applicable":
            if nav.verdict != "unknown":
                return nav.verdict, nav.reason, nav.inputs, "navigation"
        not_applicable = nav.reason
    remaining = None if options.timeout is None else max(0.05, options.timeout - (time.monotonic() - started))
    engine = fallback.choose_engine(module, qualname, reach_options.engine)
    answer = fallback.run_engine(module, qualname, target, replace(options, timeout=remaining), engine)
    reason = answer.reason + (f" (chain technique: {not_applicable})" if not_applicable else "")
    return answer.verdict, reason, answer.inputs, engine


def reach_targets(module: Module, qualname: str, targets: list[Target], options: Options, reach_options: ReachOptions = ReachOptions()) -> ReachRun:
    run = ReachRun()
    for target in targets:
        started = time.monotonic()
        verdict, reason, inputs, engine = _answer(module, qualname, target, options, reach_options, started)
        if verdict == "reachable":
            assert inputs is not None
            ok, why = confirmed(module, qualname, target, inputs)
            if not ok:
                run.mismatches.append(f"{module.filename}::{qualname} {target.label()}: {engine} input {inputs}: {why}")
                verdict, reason, inputs = "unknown", f"{engine}'s input did not replay: {why}", None
            else:
                reason += ", replayed in CPython"
        else:
            inputs = None
        run.verdicts.append(Verdict(target, verdict, reason, inputs, time.monotonic() - started, engine))
    return run
