"""``reach``: a verdict for each target of one function.

Per target, within its time limit: the chain technique (``navigator``: a proof of
unreachability from an unsatisfiable constraint system, or an input found, or a bounded
proof, by constraints-driven symbolic execution) and the fallback engine (``fallback``),
which take turns in doubling time slices (``_answer``). Invariant: a ``reachable`` verdict is given only after the
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


FIRST_SLICE_S = 0.5  # the first time slice of the chain technique
FALLBACK_FIRST_SLICE_S = 0.25  # the fallback engine's first slice: it starts over each turn, so its first is short


def _left(options: Options, started: float) -> float | None:
    return None if options.timeout is None else options.timeout - (time.monotonic() - started)


def _answer(
    module: Module, qualname: str, target: Target, options: Options, reach_options: ReachOptions, started: float
) -> tuple[str, str, dict[str, object] | None, str]:
    """(verdict, reason, candidate input, engine) before the replay.

    The chain technique first builds its constraint system (a proof may end there). Then it
    and the fallback engine take turns in time slices that double every turn (the chain
    technique 0.5 s, 1 s, 2 s, ..., resumed where its last slice paused; the fallback 0.25 s,
    0.5 s, 1 s, ..., run from scratch each turn), until one answers or the time is up; an
    engine that stopped for another reason than its slice (a bound, an unsupported construct)
    is not run again. So a target costs at most a small multiple of what the faster of the
    two needs."""
    from pathloom.navigation.navigator import NavAnswer, plan

    engine = fallback.choose_engine(module, qualname, reach_options.engine)
    planned = plan(module, qualname, target, options) if reach_options.chains else NavAnswer("not-applicable", "")
    if isinstance(planned, NavAnswer) and planned.verdict in ("reachable", "unreachable"):
        return planned.verdict, planned.reason, planned.inputs, "navigation"
    navigation = None if isinstance(planned, NavAnswer) else planned
    notes = {"navigation": planned.reason if isinstance(planned, NavAnswer) and planned.reason else "", engine: ""}
    fallback_on = True
    budgets = {"navigation": FIRST_SLICE_S, engine: FALLBACK_FIRST_SLICE_S}
    while navigation is not None or fallback_on:
        for who in ("navigation", engine):
            left = _left(options, started)
            if (who == "navigation" and navigation is None) or (who == engine and not fallback_on) or (left is not None and left <= 0):
                continue
            budget = budgets[who]
            limit = budget if left is None else min(budget, left)
            if who == "navigation" and navigation is not None:
                answer = navigation.run(options, limit)
            else:
                answer = fallback.run_engine(module, qualname, target, replace(options, timeout=limit), engine)
            if answer.verdict in ("reachable", "unreachable"):
                other = "navigation" if who == engine else engine
                note = f" (chain technique: {notes['navigation']})" if who == engine and notes["navigation"] else ""
                note += f" ({other} before: {notes[other]})" if who == "navigation" and notes[other] else ""
                return answer.verdict, answer.reason + note, answer.inputs, who
            notes[who] = answer.reason
            if not answer.timed_out or limit < budget:
                if who == "navigation":
                    navigation = None
                else:
                    fallback_on = False
        left = _left(options, started)
        if left is not None and left <= 0:
            break
        budgets = {who: 2 * slice_s for who, slice_s in budgets.items()}
    reason = "; ".join(f"{note}" for who, note in notes.items() if note) or "no engine could run"
    return "unknown", reason, None, engine


def untried_inputs(module: Module, qualname: str, options: Options) -> list[str]:
    """What the annotations allow and the engines never try (``Entry.untried``): a proof of
    unreachability covers only the rest."""
    from pathloom.engines.entry import build_entry
    from pathloom.errors import Unsupported

    try:
        return build_entry(module, qualname, options.max_list_len, options.max_str_len).untried
    except Unsupported:
        return []  # the engines say so themselves


def reach_targets(module: Module, qualname: str, targets: list[Target], options: Options, reach_options: ReachOptions = ReachOptions()) -> ReachRun:
    run = ReachRun()
    untried = untried_inputs(module, qualname, options)
    for target in targets:
        started = time.monotonic()
        verdict, reason, inputs, engine = _answer(module, qualname, target, options, reach_options, started)
        if verdict == "unreachable" and untried:
            verdict, reason = "unknown", f"unreachable for the input types tried ({reason}); not tried: {'; '.join(untried)}"
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
