"""Benchmark pathloom's dse engine on examples/, and compare it with CrossHair.

Usage: python benchmarks/run.py [--repeat N] [--timeout S] [--no-crosshair] [--markdown] [--skip-examples]
                               [--write-docs [--docs-file PATH]]

Table 1: every target of every file in examples/, dse engine, in this process (a fresh
``load_module`` per repetition, so no lowering or solver caches carry over; the medians of
the times over ``--repeat`` runs).  Targets that pathloom rejects when the run starts
(``pathloom.errors.Unsupported``) are listed under the table.

Tables 2 and 3: the programs in benchmarks/programs/ with pathloom and CrossHair
(``crosshair_runner``, cover mode) side by side.  Table 2 times exploration only: each
repetition of each tool is a fresh child process, and the clock runs around the exploration
call alone (tool and target already imported), so both tools are measured the same way.
Table 3 times both tools as whole processes (``pathloom explore ... --quiet`` against
``crosshair cover --coverage_type=path``), start-up and imports included.

``--write-docs`` writes the tables and the lines under them into the section ``run`` of
docs/benchmarks.md (``--docs-file PATH``: another page), under a header with the command, date,
machine, commit and versions, crosshair-tool's included (benchmarks/docs_writer.py).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLES = os.path.join(ROOT, "examples")
PATHLOOM_MARKER = "PATHLOOM_BENCH_RESULT "
HARD_KILL_GRACE_S = 60.0

sys.path.insert(0, HERE)
import crosshair_runner  # noqa: E402  (benchmarks/crosshair_runner.py)
import docs_writer  # noqa: E402  (benchmarks/docs_writer.py)
import machine  # noqa: E402  (benchmarks/machine.py)

BENCHMARKS = crosshair_runner.BENCHMARKS  # (label, file, function, expected paths)


# --------------------------------------------------------------------------
# Measuring pathloom
# --------------------------------------------------------------------------


def explore_once(path: str, target: str, timeout_s: float) -> Dict[str, Any]:
    """One dse run on a freshly loaded module; time = wall time of load + exploration.

    Returns ``{"unsupported": message}`` when the run is refused at start (the engine
    cannot enter the target), ``{"error": message}`` when the run fails later.
    """
    from pathloom.api import Run
    from pathloom.errors import Unsupported
    from pathloom.frontend.module import load_module
    from pathloom.options import Options

    options = Options(engine="dse", timeout=timeout_s)
    start = time.perf_counter()
    module = load_module(path)
    try:
        run = Run(module, target, options)
    except Unsupported as exc:
        return {"unsupported": exc.one_line()}
    try:
        for _ in run.results():
            pass
    except Exception as exc:  # noqa: BLE001 - one bad target must not stop the benchmark
        return {"error": f"{type(exc).__name__}: {exc}"}
    elapsed = time.perf_counter() - start
    e = run.exploration
    outcomes: Dict[str, int] = {}
    reasons: Dict[str, int] = {}
    for p in e.paths:
        outcomes[p.outcome] = outcomes.get(p.outcome, 0) + 1
        if p.outcome in ("cut", "unknown") and p.reason:
            reasons[p.reason] = reasons.get(p.reason, 0) + 1
    return {
        "paths": len(e.paths),
        "complete": bool(e.complete),
        "time_s": elapsed,
        "stats": dict(e.stats),
        "outcomes": outcomes,
        "reasons": reasons,
    }


def preimport() -> None:
    """Import what an exploration uses (the dse engine, lowering, z3), as CrossHair's child
    imports ``crosshair.core_and_libs`` before its clock starts.  pathloom imports its engine
    lazily, which would otherwise put ~0.1 s of imports into the first timed run."""
    import z3  # noqa: F401

    import pathloom.api  # noqa: F401
    import pathloom.frontend.module  # noqa: F401
    import pathloom.options  # noqa: F401

    try:
        import pathloom.frontend.lower  # noqa: F401
        from pathloom.engines.registry import engine_class

        engine_class("dse")
    except Exception:  # noqa: BLE001 - layout changed: the timed run imports it instead
        pass


def _pathloom_child(request: Dict[str, Any]) -> None:
    """Child side of ``run_pathloom_child``: imports are done before the clock starts."""
    preimport()
    result = explore_once(request["path"], request["function"], request["timeout_s"])
    sys.stdout.write(PATHLOOM_MARKER + json.dumps(result) + "\n")
    sys.stdout.flush()


def run_pathloom_child(path: str, function: str, timeout_s: float) -> Dict[str, Any]:
    """pathloom in a fresh child process, timed like crosshair_runner's cover mode."""
    request = {"path": os.path.abspath(path), "function": function, "timeout_s": timeout_s}
    cmd = [sys.executable, "-B", os.path.abspath(__file__), "--pathloom-child", json.dumps(request)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s + HARD_KILL_GRACE_S)
    except subprocess.TimeoutExpired:
        return {"error": "killed: wall-clock limit exceeded"}
    wall = time.perf_counter() - start
    for line in proc.stdout.splitlines():
        if line.startswith(PATHLOOM_MARKER):
            result = json.loads(line[len(PATHLOOM_MARKER) :])
            result["process_wall_s"] = wall
            return result
    return {"error": f"child exited {proc.returncode}: {proc.stderr.strip()[-500:]}"}


def _pathloom_command() -> List[str]:
    script = os.path.join(os.path.dirname(sys.executable), "pathloom")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "pathloom"]


_SUMMARY = re.compile(r"^\s+(\d+) paths, (complete|INCOMPLETE)", re.M)


def run_pathloom_cli(path: str, function: str, timeout_s: float) -> Dict[str, Any]:
    """``pathloom explore FILE::function --quiet`` as a whole process."""
    cmd = _pathloom_command() + ["explore", f"{os.path.abspath(path)}::{function}", "--quiet", "--timeout", repr(float(timeout_s))]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s + HARD_KILL_GRACE_S)
    except subprocess.TimeoutExpired:
        return {"error": "killed: wall-clock limit exceeded"}
    wall = time.perf_counter() - start
    found = _SUMMARY.search(proc.stdout)
    if proc.returncode not in (0, 1) or found is None:
        return {"error": f"pathloom exited {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-500:]}"}
    return {"paths": int(found.group(1)), "complete": found.group(2) == "complete", "time_s": wall}


# --------------------------------------------------------------------------
# Repetitions and medians
# --------------------------------------------------------------------------


def repeated(fn: Callable[[], Dict[str, Any]], repeat: int) -> Dict[str, Any]:
    """Run ``fn`` ``repeat`` times; median of the times, path counts of every run.

    The result is the run with the median time (lower median if even) with
    ``time_s`` replaced by the median time, plus ``all_times`` and ``all_paths``.
    A failure (``error`` / ``unsupported``) in any run is returned as is.
    """
    runs = []
    for _ in range(repeat):
        r = fn()
        if "error" in r or "unsupported" in r:
            return r
        runs.append(r)
    by_time = sorted(runs, key=lambda r: r["time_s"])
    med = dict(by_time[(len(by_time) - 1) // 2])
    med["time_s"] = statistics.median(r["time_s"] for r in runs)
    if "stats" in med:
        med["solver_time_s"] = statistics.median(float(r["stats"].get("solver_time_s", 0.0)) for r in runs)
    med["all_times"] = [r["time_s"] for r in runs]
    med["all_paths"] = [r["paths"] for r in runs]
    return med


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------


class Table:
    def __init__(self, headers: Sequence[str], align: str) -> None:
        self.headers = list(headers)
        self.align = align  # one of "l" / "r" per column
        self.rows: List[List[str]] = []

    def add(self, *cells: Any) -> None:
        self.rows.append([str(c) for c in cells])

    def render(self, markdown: bool) -> str:
        if markdown:
            rule = ["---:" if a == "r" else "---" for a in self.align]
            lines = [self.headers, rule] + self.rows
            return "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in lines)
        widths = [max(len(r[i]) for r in [self.headers] + self.rows) for i in range(len(self.headers))]

        def line(row: List[str]) -> str:
            cells = [c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(row, widths, self.align)]
            return "  ".join(cells).rstrip()

        out = [line(self.headers), "  ".join("-" * w for w in widths)]
        return "\n".join(out + [line(r) for r in self.rows])


def _ms_per_path(time_s: float, paths: int) -> str:
    return f"{1000 * time_s / paths:.2f}" if paths else "-"


def _per_s(time_s: float, paths: int) -> str:
    return f"{paths / time_s:.0f}" if time_s > 0 else "-"


def _code(text: str, markdown: bool) -> str:
    return f"`{text}`" if markdown else text


# --------------------------------------------------------------------------
# The three sections
# --------------------------------------------------------------------------


def examples_section(args: argparse.Namespace, out: Callable[[str], None], warnings: List[str]) -> None:
    from pathloom.frontend.module import load_module

    md = args.markdown
    preimport()
    _, warm_path, warm_function, _ = BENCHMARKS[0]
    explore_once(warm_path, warm_function, args.timeout)  # untimed warm-up (z3 context, first solver)
    table = Table(
        ["target", "paths", "complete", "paths/s", "ms/path", "solver calls", "solver s", "total s", "instructions", "notes"],
        "lrlrrrrrrl",
    )
    skipped: List[str] = []
    for path in sorted(glob.glob(os.path.join(EXAMPLES, "*.py"))):
        rel = os.path.relpath(path, ROOT)
        try:
            targets = load_module(path).targets()
        except Exception as exc:  # noqa: BLE001
            skipped.append(f"{rel}: cannot load: {exc}")
            continue
        for target in targets:
            label = f"{os.path.basename(path)}::{target}"
            r = repeated(lambda: explore_once(path, target, args.timeout), args.repeat)
            if "unsupported" in r:
                skipped.append(f"{label}: {r['unsupported']}")
                continue
            if "error" in r:
                table.add(_code(label, md), "-", "-", "-", "-", "-", "-", "-", "-", f"ERROR {r['error']}")
                warnings.append(f"{label}: {r['error']}")
                continue
            s = r["stats"]
            notes = []
            for outcome in ("cut", "unknown"):
                if r["outcomes"].get(outcome):
                    notes.append(f"{r['outcomes'][outcome]} {outcome}")
            notes += [f"{reason} (x{n})" for reason, n in r["reasons"].items()]
            if len(set(r["all_paths"])) > 1:
                notes.append("path count varied: " + "/".join(map(str, r["all_paths"])))
                warnings.append(f"{label}: path count varied between repetitions {r['all_paths']}")
            table.add(
                _code(label, md),
                r["paths"],
                "yes" if r["complete"] else "no",
                _per_s(r["time_s"], r["paths"]),
                _ms_per_path(r["time_s"], r["paths"]),
                s.get("solver_calls", "-"),
                f"{r['solver_time_s']:.3f}",
                f"{r['time_s']:.3f}",
                s.get("instructions", "-"),
                "; ".join(notes),
            )
    out(f"{'### ' if md else ''}pathloom dse on examples/ (median of {args.repeat}, in-process, timeout {args.timeout:g}s)")
    out("")
    out(table.render(md))
    out("")
    out("total s: wall time of load_module + exploration in this process (after an untimed warm-up run); solver s: time inside z3; ms/path = total s / paths.")
    if skipped:
        out("")
        out("Skipped (refused at start):")
        out("")
        for line in skipped:
            out(f"- {line}")
    out("")


def comparison_section(args: argparse.Namespace, crosshair: bool, out: Callable[[str], None], warnings: List[str]) -> None:
    md = args.markdown
    if crosshair:
        headers = ["program", "paths (pathloom / CrossHair)", "time s (pathloom / CrossHair)", "pathloom ms/path", "CrossHair ms/path", "CrossHair / pathloom"]
        align = "lrrrrr"
    else:
        headers = ["program", "paths", "time s", "ms/path"]
        align = "lrrr"
    explore_table = Table(headers, align)
    process_table = Table(headers, align)
    extra: List[str] = []

    def check(tool: str, label: str, r: Dict[str, Any], expected: int, mode: str, done_key: str) -> None:
        if "error" in r:
            warnings.append(f"{label}: {tool} ({mode}) failed: {r['error']}")
            return
        if r["paths"] != expected:
            warnings.append(f"{label}: {tool} ({mode}) found {r['paths']} paths, expected {expected}")
        if len(set(r.get("all_paths", [r["paths"]]))) > 1:
            warnings.append(f"{label}: {tool} ({mode}) path count varied: {r['all_paths']}")
        if not r.get(done_key, True):
            warnings.append(f"{label}: {tool} ({mode}) did not finish exploring (time limit?)")

    def row(table: Table, label: str, p: Dict[str, Any], c: Optional[Dict[str, Any]]) -> None:
        name = _code(label, md)
        if "error" in p or (c is not None and "error" in c):
            table.add(name, *(["ERROR"] * (len(table.headers) - 1)))
            return
        if c is None:
            table.add(name, p["paths"], f"{p['time_s']:.3f}", _ms_per_path(p["time_s"], p["paths"]))
            return
        ratio = c["time_s"] / p["time_s"] if p["time_s"] > 0 else math.inf
        table.add(
            name,
            f"{p['paths']} / {c['paths']}",
            f"{p['time_s']:.3f} / {c['time_s']:.3f}",
            _ms_per_path(p["time_s"], p["paths"]),
            _ms_per_path(c["time_s"], c["paths"]),
            f"{ratio:.1f}x",
        )

    for label, path, function, expected in BENCHMARKS:
        p_in = repeated(lambda: run_pathloom_child(path, function, args.timeout), args.repeat)
        p_cli = repeated(lambda: run_pathloom_cli(path, function, args.timeout), args.repeat)
        check("pathloom", label, p_in, expected, "in-process", "complete")
        check("pathloom", label, p_cli, expected, "whole process", "complete")
        c_in = c_cli = None
        if crosshair:
            c_in = repeated(lambda: crosshair_runner.run_crosshair(path, function, args.timeout, mode="cover"), args.repeat)
            c_cli = repeated(lambda: crosshair_runner.run_crosshair(path, function, args.timeout, mode="cli"), args.repeat)
            check("CrossHair", label, c_in, expected, "cover", "exhausted")
            check("CrossHair", label, c_cli, expected, "cli", "exhausted")
            c_ex = repeated(lambda: crosshair_runner.run_crosshair(path, function, args.timeout, mode="explore"), args.repeat)
            if "error" not in c_ex:
                vs_pathloom = "" if "error" in p_in else f", {c_ex['time_s'] / p_in['time_s']:.1f}x pathloom's time"
                extra.append(
                    f"{label}: CrossHair explore mode (paths only, no input per path): {c_ex['paths']} paths "
                    f"in {c_ex['time_s']:.3f}s, {_ms_per_path(c_ex['time_s'], c_ex['paths'])} ms/path{vs_pathloom}"
                )
        row(explore_table, label, p_in, c_in)
        row(process_table, label, p_cli, c_cli)

    h = "### " if md else ""
    vs = " vs CrossHair (cover mode)" if crosshair else " (CrossHair skipped)"
    out(f"{h}benchmarks/programs: pathloom dse{vs}, exploration only (median of {args.repeat})")
    out("")
    out(explore_table.render(md))
    out("")
    if crosshair:
        out(
            "Measured the same way for both tools: each repetition is a fresh child process; the clock "
            "runs around the exploration call only (pathloom: load_module + explore; CrossHair: path_cover), "
            "after the tool (pathloom's engine and z3; crosshair.core_and_libs) and the target are imported, "
            "so interpreter start-up and imports are excluded; one-time warm-up inside the run (z3 context, "
            "first solver) is included for both. Both produce one concrete input per path."
        )
    else:
        out(
            "Each repetition is a fresh child process; the clock runs around load_module + explore only, "
            "after pathloom's engine and z3 are imported (start-up and imports excluded)."
        )
    if extra:
        out("")
        for line in extra:
            out(f"- {line}")
    out("")
    out(f"{h}benchmarks/programs: whole processes (median of {args.repeat})")
    out("")
    out(process_table.render(md))
    out("")
    cross = " vs `python -m crosshair cover --coverage_type=path --max_uninteresting_iterations 0`" if crosshair else ""
    out(f"Wall time of `pathloom explore FILE::FUNC --quiet`{cross}, interpreter start-up and imports included.")
    out("")


# --------------------------------------------------------------------------
# Header and main
# --------------------------------------------------------------------------


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # noqa: BLE001
        return "not installed"


def _crosshair_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("crosshair") is not None


def header(argv: Sequence[str], markdown: bool) -> List[str]:
    return machine.header(
        argv,
        markdown,
        (
            f"nproc {machine.nproc()}, {machine.cpu_model()}, Python {platform.python_version()}, "
            f"z3 {machine.z3_version('not installed')}, crosshair-tool {_version('crosshair-tool')}, "
            f"pathloom at {machine.git_revision()}"
        ),
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per measurement (median; default 3)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per exploration (default 60)")
    parser.add_argument("--no-crosshair", action="store_true", help="pathloom only")
    parser.add_argument("--markdown", action="store_true", help="GitHub markdown tables")
    parser.add_argument("--skip-examples", action="store_true", help="only the comparison")
    docs_writer.add_options(parser)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    script = sys.argv[0] or os.path.join(HERE, "run.py")
    doc = docs_writer.Recorder(args, "run", title="Forking engine and CrossHair", argv=[script] + argv)
    body: List[str] = []  # what goes into the docs (the header line aside: the docs' own header says it)

    def out(line: str) -> None:
        print(line, flush=True)
        body.append(line)

    for line in header([script] + argv, args.markdown):
        print(line, flush=True)
    warnings: List[str] = []
    crosshair = not args.no_crosshair
    if crosshair and not _crosshair_available():
        out(f"NOTE: CrossHair is not importable by {sys.executable} (pip install crosshair-tool); skipped")
        out("")
        crosshair = False
    if crosshair:
        doc.tools.append("crosshair-tool")
    if not args.skip_examples:
        examples_section(args, out, warnings)
    comparison_section(args, crosshair, out, warnings)
    for w in warnings:
        out(f"WARNING: {w}")
    doc.write(body)
    return 1 if warnings else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--pathloom-child":
        _pathloom_child(json.loads(sys.argv[2]))
    else:
        sys.exit(main())
