"""The human-readable report on stdout: one line per path, then a summary with the stats."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, Any

from pathloom.cuts import CutReason
from pathloom.engine_stats import MultiSEStats
from pathloom.report.pytest_gen import literal
from pathloom.report.registry import ReporterContext
from pathloom.results import Bug, Exploration, PathResult


def _value(value: Any) -> str:
    try:
        return literal(value)
    except ValueError:
        return json.dumps(value)


def _inputs(inputs: dict[str, Any] | None) -> str:
    if inputs is None:
        return "(no input)"
    return ", ".join(f"{k}={_value(v)}" for k, v in inputs.items()) or "(no arguments)"


def describe(result: PathResult | Bug) -> str:
    if isinstance(result, Bug) or result.outcome == "raise":
        label = {"explicit": "raise", "assert": "assertion failed", "implicit": "BUG", "precondition": "precondition"}.get(result.kind or "", "")
        message = f": {result.message}" if result.message else ""
        return f"raises {result.exception}{message} at line {result.line} [{label}]"
    if result.outcome == "return":
        return f"returns {_value(result.returned)}"
    where = f" at line {result.line}" if result.line else ""
    return f"{result.outcome}{where}: {result.reason}"


class TextReporter:
    """Every path as it is found; or, ``bugs_only``, each distinct bug once at the end of its
    target (with its simplest input and how many paths reach it), cut and unknown paths as
    they are found."""

    def __init__(self, out: IO[str], bugs_only: bool = False) -> None:
        self.out = out
        self.bugs_only = bugs_only
        self.index = 0
        self.unmodelled: dict[tuple[int | None, str], int] = {}  # (line, what) -> paths cut there

    def start(self, exploration: Exploration) -> None:
        self.index = 0
        self.unmodelled = {}
        self.out.write(f"{exploration.target}\n")

    def path(self, exploration: Exploration, result: PathResult) -> None:
        self.index += 1
        if result.cut == CutReason.UNSUPPORTED:
            key = (result.line, (result.reason or "").removeprefix("unsupported: "))
            self.unmodelled[key] = self.unmodelled.get(key, 0) + 1
        if self.bugs_only and result.outcome not in ("cut", "unknown"):
            return
        self.out.write(f"  path {self.index:<3} {describe(result)}\n           input: {_inputs(result.inputs)}\n")
        self.out.flush()

    def finish(self, exploration: Exploration) -> None:
        s = exploration.stats
        if s is None:  # stopped before the exploration started
            self.out.write(f"  not explored: {exploration.error}\n")
            return
        if self.bugs_only:
            for i, bug in enumerate(exploration.distinct_bugs, 1):
                reached = f"reached by {bug.paths} path{'s' if bug.paths > 1 else ''}"
                self.out.write(f"  bug {i:<4} {describe(bug)}, {reached}\n           input: {_inputs(bug.inputs)}\n")
                if bug.chain:
                    self.out.write(f"           raised at {chain_text(bug.chain)}\n")
                self.out.write(problem_line(exploration.target, bug) + "\n")
        why = exploration.error or (
            "input types tried in part, or a bound, timeout or unknown" if exploration.untried else "a bound, timeout or unknown cut exploration"
        )
        status = "complete" if exploration.complete else f"INCOMPLETE ({why})"
        distinct = len(exploration.distinct_bugs)
        bugs = f"{distinct} bug(s)" + (f" ({exploration.bug_count} paths)" if exploration.bug_count != distinct else "")
        # MultiSE reports one result per distinct outcome (split until every branch direction
        # has an input), not one per path: say so rather than call them paths.
        counted = "results (paths merged by outcome)" if isinstance(s, MultiSEStats) else "paths"
        self.out.write(
            f"  {s.paths} {counted}, {status}; {bugs}; "
            f"{s.instructions} instructions, {s.solver_calls} solver calls "
            f"({s.solver_time_s:.3f}s), branches {s.branches_covered}/{s.branches_total}, "
            f"{s.time_s:.3f}s\n"
        )
        for phrase in exploration.untried:
            self.out.write(f"  input type tried in part: {phrase}\n")
        if self.unmodelled:
            sites = "; ".join(f"line {line}: {what} (x{count})" for (line, what), count in self.unmodelled.items())
            self.out.write(f"  not modelled, the paths that reach it cut there (the others explored): {sites}\n")
        if s.concretizations:
            sites = ", ".join(f"{site} (x{count})" for site, count in s.concretizations.items())
            self.out.write(f"  run in CPython on pinned values (concretized): {sites}\n")
        if isinstance(s, MultiSEStats):
            share = s.sharing_factor if s.sharing_factor is not None else "not computed (guards too large)"
            self.out.write(
                f"  multise: solver {s.solver_time_pct}% and BDD {s.bdd_time_pct}% of the time, "
                f"average value-summary size {s.avg_summary_size}, sharing factor {share}, "
                f"{s.pc_merges} pc merges, "
                f"{s.variable_merges_saved} variable merges saved"
                + (f", {s.opaque_atoms} conditions kept as one atom (BDD too large)" if s.opaque_atoms else "")
                + "\n"
            )

    def close(self) -> None:
        self.out.flush()


def problem_line(target: str, bug: Bug) -> str:
    """The bug as editors and CI problem matchers read it, ``file:line:col: error: message``
    (the column is 1: pathloom knows a bug's line, not its column), at the line that raised it
    (in another module, for a bug raised there: ``Bug.chain``)."""
    file, _, function = target.partition("::")
    what = "assertion failed" if bug.kind == "assert" else f"{bug.exception} raised"
    said = f": {bug.message}" if bug.message else ""
    where, line = file, bug.line or 1
    if bug.chain:
        raised_file, line, raised_in = bug.chain[-1]
        where, function = shown_path(raised_file), f"{raised_in}, called from {function} ({file}:{bug.line})"
    return f"{where}:{line}:1: error: {what} in {function}{said} (input: {_inputs(bug.inputs)})"


def shown_path(path: str) -> str:
    """``path`` relative to the working directory when it is under it."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


def chain_text(chain: tuple[tuple[str, int, str], ...]) -> str:
    """``helpers.py:3 in ratio, called from stats.py:7 in average``: innermost first."""
    frames = [f"{shown_path(file)}:{line} in {function}" for file, line, function in reversed(chain)]
    return frames[0] + "".join(f", called from {frame}" for frame in frames[1:])


def open_text(context: ReporterContext) -> TextReporter:
    return TextReporter(sys.stdout, bugs_only=context.bugs_only)
