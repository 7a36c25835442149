"""`pathloom compare`: several engines on the same targets in one process, side by side.

Agreement means: the same set of outcome kinds (``return``; ``raise`` of a type at a line;
``cut`` and ``unknown`` counted apart), the same branch coverage, and the same predictions:
for the input of every finished path of one engine, the path of the other engine whose
condition that input satisfies predicts the same outcome (the same returned value; the same
exception type, line and, for implicit exceptions, message). A disagreement is an engine
bug: exit 3.

The prediction check evaluates path conditions for every pair of paths, which grows with
the square of their number; ``agree`` takes a deadline and raises :class:`ComparisonCut` when
it passes (the CLI passes ``--timeout``), so a comparison never runs unbounded.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from dataclasses import replace

from pathloom.api import explore
from pathloom.engine_stats import EngineStats, ForkingStats
from pathloom.engines.compose.stats import ComposeStats
from pathloom.errors import UsageError
from pathloom.frontend.module import load_module
from pathloom.options import Options
from pathloom.results import Exploration, PathResult


def outcome_kinds(exploration: Exploration) -> set[tuple[object, ...]]:
    kinds: set[tuple[object, ...]] = set()
    for p in exploration.paths:
        if p.outcome == "return":
            kinds.add(("return",))
        elif p.outcome == "raise":
            kinds.add(("raise", p.exception, p.line))
    return kinds


class ComparisonCut(Exception):
    """The deadline passed before every prediction was compared: no verdict."""


def agree(a: Exploration, b: Exploration, deadline: float | None = None) -> list[str]:
    """The disagreements between ``a`` and ``b`` ([] when they agree). ``deadline`` is a
    ``time.monotonic()`` instant; past it, :class:`ComparisonCut` is raised."""
    problems = []
    if outcome_kinds(a) != outcome_kinds(b):
        only_a = sorted(map(str, outcome_kinds(a) - outcome_kinds(b)))
        only_b = sorted(map(str, outcome_kinds(b) - outcome_kinds(a)))
        problems.append(f"outcomes differ: only {a.engine}: {only_a}; only {b.engine}: {only_b}")
    covered_a, covered_b = _stats(a).branches_covered, _stats(b).branches_covered
    if a.complete and b.complete and covered_a != covered_b:
        problems.append(f"coverage differs: {covered_a} vs {covered_b}")
    problems += _cross_predictions(a, b, deadline) + _cross_predictions(b, a, deadline)
    return problems


def _cross_predictions(a: Exploration, b: Exploration, deadline: float | None) -> list[str]:
    """Where ``b`` predicts another outcome than ``a`` for an input ``a`` reported."""
    from pathloom.replay import json_equal

    problems: list[str] = []
    finished = [q for q in b.paths if q.outcome in ("return", "raise")]
    for p in a.paths:
        if p.outcome not in ("return", "raise") or p.inputs is None:
            continue
        if deadline is not None and time.monotonic() > deadline:
            raise ComparisonCut(f"{a.engine} vs {b.engine}: the deadline passed before every prediction was compared")
        q = next((q for q in finished if b.holds(q, p.inputs)), None)
        if q is None:
            if b.complete:
                problems.append(f"{b.engine} has no path for the input {p.inputs} of {a.engine}")
            continue
        if (p.outcome, p.exception, p.line) != (q.outcome, q.exception, q.line):
            problems.append(f"for {p.inputs}: {a.engine} predicts {_said(p)}, {b.engine} {_said(q)}")
        elif p.outcome == "return" and not json_equal(p.returned, b.predicted_return(q, p.inputs)):
            problems.append(f"for {p.inputs}: {a.engine} returns {p.returned!r}, {b.engine} {b.predicted_return(q, p.inputs)!r}")
        elif p.kind == "implicit" and p.message != b.predicted_message(q, p.inputs):
            problems.append(f"for {p.inputs}: messages differ: {p.message!r} vs {b.predicted_message(q, p.inputs)!r}")
    return problems


def _stats(exploration: Exploration) -> EngineStats:
    """The exploration's stats (all zero if it stopped before it started)."""
    return exploration.stats if exploration.stats is not None else EngineStats()


def compositional_line(engine: str, s: Mapping[str, object]) -> str:
    """The compose engine's Table I figures (Qiu et al.): solver calls and time split into init
    (building the callees' trees) and composition, sub-method invocations replayed, and the
    target's tree nodes compressed (summary nodes) and not."""
    store = " (answered from the store)" if s.get("answered_from_store") else ""
    return (
        f"{engine}: solver calls init {s['init_solver_calls']} + composition {s['composition_solver_calls']}, "
        f"time init {float(s['init_time_s']):.3f}s + composition {float(s['composition_time_s']):.3f}s, "  # type: ignore[arg-type]
        f"sub-method invocations {s['sub_method_invocations']}, tree nodes {s['compressed_tree_nodes']} compressed / "
        f"{s['tree_nodes']}, trees {s['trees_built']} built / {s['trees_from_store']} from the store{store}"
    )


def _said(p: PathResult) -> str:
    return f"return {p.returned!r}" if p.outcome == "return" else f"{p.exception} at line {p.line}"


def compare_command(args: argparse.Namespace, options: Options) -> int:
    heaps = [h.strip() for h in (args.heaps or "").split(",") if h.strip()]
    engines_text = args.engines if args.engines is not None else (args.engine if heaps else "dse,multise")
    engines = [e.strip() for e in engines_text.split(",") if e.strip()]
    configs = [(e, h) for e in engines for h in (heaps or [options.heap])]
    if len(configs) < 2:
        raise UsageError("compare needs at least two configurations: --engines dse,multise or --heaps lazy,lazier,pose")
    for heap in heaps:
        if heap not in ("pose", "lazier", "lazy"):
            raise UsageError(f"--heaps: unknown heap model {heap!r} (available: lazy, lazier, pose)")
    file, _, name = args.target.partition("::")
    module_names = [name] if name else load_module(file).targets()
    bad = 0
    for target in module_names:
        results = []
        for engine, heap in configs:
            e = explore(load_module(file), target, replace(options, engine=engine, heap=heap))
            results.append(replace(e, engine=f"{engine}/{heap}") if heaps else e)
        rows = [("engine", "paths", "traces", "program paths", "complete", "time s", "instructions", "solver calls", "solver s", "branches")]
        for e in results:
            s = _stats(e)
            rows.append(
                (
                    e.engine,
                    str(len(e.paths)),
                    str(s.traces) if isinstance(s, ForkingStats) else "-",
                    str(s.program_paths) if isinstance(s, ForkingStats) else "-",
                    "yes" if e.complete else "no",
                    f"{s.time_s:.3f}",
                    str(s.instructions),
                    str(s.solver_calls),
                    f"{s.solver_time_s:.3f}",
                    f"{s.branches_covered}/{s.branches_total}",
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        print(f"{file}::{target}")
        for r in rows:
            print("  " + "  ".join(c.rjust(w) for c, w in zip(r, widths)))
        for e in results:
            if isinstance(e.stats, ComposeStats):  # a compositional engine: the paper's Table I
                print("  " + compositional_line(e.engine, e.stats))
        base = results[0]
        for other in results[1:]:
            b, o = _stats(base), _stats(other)
            ratio_t = b.time_s / o.time_s if o.time_s else float("inf")
            ratio_i = b.instructions / o.instructions if o.instructions else float("inf")
            print(f"  {base.engine} vs {other.engine}: time {ratio_t:.2f}x, instructions {ratio_i:.2f}x")
            deadline = time.monotonic() + options.timeout if options.timeout else None
            try:
                problems = agree(base, other, deadline)
            except ComparisonCut:
                print(f"  {base.engine} vs {other.engine}: comparison cut by --timeout {options.timeout:g} s: no verdict")
                continue
            for problem in problems:
                sys.stderr.write(f"pathloom: {file}::{target}: {base.engine} and {other.engine} disagree: {problem}\n")
            print("  outcomes agree" if not problems else "  OUTCOMES DISAGREE")
            bad += bool(problems)
    return 3 if bad else 0
