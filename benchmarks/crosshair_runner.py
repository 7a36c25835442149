"""Measure CrossHair's path exploration (path count and time) on a function.

Used to put CrossHair next to pathloom in the benchmark table ("seconds per
path").  CrossHair always runs in a child process, so its tracer, opcode
patches, audit hook and z3 state never touch the calling process.

Entry point and flags:

* mode ``"cover"`` (default, the primary number) calls
  ``crosshair.path_cover.path_cover(..., CoverageType.PATH)``: the same
  function ``crosshair cover --coverage_type=path`` runs, with the CLI's
  option defaults (``per_path_timeout=30``) plus
  ``max_uninteresting_iterations=0`` and ``per_condition_timeout=timeout_s``.
  For every completed path it also solves for and formats one concrete input,
  which is most of its cost.
* mode ``"explore"`` calls ``crosshair.core.explore_paths`` (the loop under
  ``path_cover``) with a callback that only counts paths: the cost of
  exploring the paths without producing an input for each one.
* mode ``"cli"`` runs ``python -m crosshair cover --coverage_type=path ...``
  end to end and counts the lines printed (one input per path).  Its time
  includes interpreter start-up and importing CrossHair.

``max_uninteresting_iterations=0`` matters: the default (5, when no
``per_condition_timeout`` is given) stops after 5 iterations in a row that
reach no *code location* not seen before, long before all paths are
explored (22 of 121 paths on caller_callee_121).  With 0 it is disabled, and
with no iteration cap the loop ends either when CrossHair's search tree is
exhausted (every feasible branch decision sequence taken) or at
``per_condition_timeout``.  CrossHair counts the stop by exhaustion in
``options.stats["exhaustion"]`` and iterations in
``options.stats["num_paths"]``.

Usage: python benchmarks/crosshair_runner.py [--repeat N] [--timeout S]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
RESULT_MARKER = "CROSSHAIR_RUNNER_RESULT "
CLI_DEFAULT_PER_PATH_TIMEOUT = 30.0  # what `crosshair cover` uses by default
HARD_KILL_GRACE_S = 60.0  # extra wall time before the child is killed outright

BENCHMARKS = [
    # (label, file, function, number of feasible paths proved by hand)
    ("multise_example", os.path.join(PROGRAMS, "multise_example.py"), "f", 5),
    ("caller_callee_121", os.path.join(PROGRAMS, "caller_callee_121.py"), "caller", 121),
]


# --------------------------------------------------------------------------
# Parent side
# --------------------------------------------------------------------------


def _children_cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_crosshair(
    path: str,
    function: str,
    timeout_s: float,
    *,
    mode: str = "cover",
    per_path_timeout: Optional[float] = None,
) -> Dict[str, Any]:
    """Run CrossHair on ``function`` in ``path`` in a subprocess.

    Returns ``{"tool", "paths", "time_s", "s_per_path", "exhausted"}`` plus
    diagnostic keys:

    * ``paths``: paths CrossHair ran to completion (``"cover"``: the number of
      PATH-coverage results; ``"explore"``: completed-path callbacks;
      ``"cli"``: lines printed by ``crosshair cover``).
    * ``time_s``: wall time of the exploration call inside the child
      (``"cli"``: wall time of the whole ``crosshair`` process).
    * ``exhausted``: CrossHair stopped because its search tree was exhausted,
      not because of the time limit (``"cli"``: inferred, see below).
    * ``iterations``: CrossHair's iteration count (``stats["num_paths"]``);
      above ``paths`` if some attempts were abandoned (timeouts, unknown
      solver results, nondeterminism, inputs that could not be realized).
    * ``distinct_traces`` (``"cover"`` only): how many distinct line traces the
      generated inputs give when re-run concretely, as an independent check
      that the paths differ in the program rather than only inside CrossHair.
    * ``process_wall_s``: wall time of the whole child process, start-up
      included.
    """
    if per_path_timeout is None:
        per_path_timeout = min(CLI_DEFAULT_PER_PATH_TIMEOUT, float(timeout_s))
    path = os.path.abspath(path)
    if mode == "cli":
        return _run_cli(path, function, timeout_s, per_path_timeout)
    if mode not in ("cover", "explore"):
        raise ValueError(f"unknown mode {mode!r}")
    request = {
        "path": path,
        "function": function,
        "timeout_s": float(timeout_s),
        "per_path_timeout": float(per_path_timeout),
        "mode": mode,
    }
    cmd = [sys.executable, "-B", os.path.abspath(__file__), "--child", json.dumps(request)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s + HARD_KILL_GRACE_S)
    except subprocess.TimeoutExpired:
        return _failed(mode, time.perf_counter() - start, "killed: wall-clock limit exceeded")
    wall = time.perf_counter() - start
    child: Optional[Dict[str, Any]] = None
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARKER):
            child = json.loads(line[len(RESULT_MARKER) :])
    if child is None:
        return _failed(mode, wall, f"child exited {proc.returncode}: {proc.stderr[-2000:]}")
    paths = int(child["paths"])
    time_s = float(child["time_s"])
    return {
        "tool": "crosshair",
        "paths": paths,
        "time_s": time_s,
        "s_per_path": time_s / paths if paths else math.inf,
        "exhausted": bool(child["exhausted"]),
        "mode": mode,
        "iterations": child["iterations"],
        "nondeterministic": child["nondeterministic"],
        "distinct_traces": child.get("distinct_traces"),
        "cpu_s": child["cpu_s"],
        "import_s": child["import_s"],
        "process_wall_s": wall,
        "crosshair_version": child["crosshair_version"],
    }


def _failed(mode: str, wall: float, error: str) -> Dict[str, Any]:
    return {
        "tool": "crosshair",
        "paths": 0,
        "time_s": wall,
        "s_per_path": math.inf,
        "exhausted": False,
        "mode": mode,
        "error": error,
        "process_wall_s": wall,
    }


def _run_cli(path: str, function: str, timeout_s: float, per_path_timeout: float) -> Dict[str, Any]:
    """End to end: `crosshair cover --coverage_type=path`, one output line per path.

    The CLI reports neither iterations nor exhaustion.  With
    ``--max_uninteresting_iterations 0`` and no iteration cap the only other
    way for it to stop is ``--per_condition_timeout`` (process CPU seconds), so
    a run that used less CPU in total than that must have stopped by
    exhaustion; ``exhausted`` is True only in that case.
    """
    module = os.path.splitext(os.path.basename(path))[0]
    cmd = [
        sys.executable,
        "-B",
        "-m",
        "crosshair",
        "cover",
        "--coverage_type=path",
        "--max_uninteresting_iterations",
        "0",
        "--per_path_timeout",
        repr(float(per_path_timeout)),
        "--per_condition_timeout",
        repr(float(timeout_s)),
        f"{module}.{function}",
    ]
    cpu0 = _children_cpu_s()
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd,
            cwd=os.path.dirname(path),
            capture_output=True,
            text=True,
            timeout=timeout_s + HARD_KILL_GRACE_S,
        )
    except subprocess.TimeoutExpired:
        return _failed("cli", time.perf_counter() - start, "killed: wall-clock limit exceeded")
    wall = time.perf_counter() - start
    cpu = _children_cpu_s() - cpu0
    if proc.returncode not in (0, 2):  # 2 = nondeterminism was reported
        return _failed("cli", wall, f"crosshair exited {proc.returncode}: {proc.stderr[-2000:]}")
    paths = sum(1 for line in proc.stdout.splitlines() if line.strip())
    return {
        "tool": "crosshair",
        "paths": paths,
        "time_s": wall,
        "s_per_path": wall / paths if paths else math.inf,
        "exhausted": cpu < timeout_s,
        "mode": "cli",
        "iterations": None,
        "nondeterministic": proc.returncode == 2,
        "distinct_traces": None,
        "cpu_s": cpu,
        "process_wall_s": wall,
    }


# --------------------------------------------------------------------------
# Child side (runs inside the subprocess)
# --------------------------------------------------------------------------


def _line_trace(fn, args, kwargs, filename: str):
    """Concretely run fn and return its (function, line) trace within `filename`."""
    trace: List[Any] = []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != filename:
            return None
        if event in ("call", "line", "return"):
            trace.append((frame.f_code.co_name, event, frame.f_lineno))
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        try:
            fn(*args, **kwargs)
        except Exception as exc:  # a path may end in an exception
            trace.append(("raise", type(exc).__name__))
    finally:
        sys.settrace(old)
    return tuple(trace)


def _child(request: Dict[str, Any]) -> None:
    import collections
    import importlib

    import_start = time.perf_counter()
    import crosshair
    import crosshair.core_and_libs  # noqa: F401  (registers opcode patches and symbolic types)
    from crosshair.auditwall import engage_auditwall
    from crosshair.core import explore_paths
    from crosshair.fnutil import FunctionInfo
    from crosshair.options import DEFAULT_OPTIONS, AnalysisOptionSet
    from crosshair.path_cover import CoverageType, path_cover
    from crosshair.statespace import RootNode

    # Import the target the way the CLI does: as a module by name.
    path = request["path"]
    sys.path.insert(0, os.path.dirname(path))
    module = importlib.import_module(os.path.splitext(os.path.basename(path))[0])
    import_s = time.perf_counter() - import_start
    ctxfn = FunctionInfo.from_module(module, request["function"])
    fn, sig = ctxfn.callable()
    while getattr(fn, "__wrapped__", None):
        fn = fn.__wrapped__

    # `crosshair cover` defaults (per_path_timeout=30) overlaid with ours.
    options = DEFAULT_OPTIONS.overlay(
        AnalysisOptionSet(
            per_path_timeout=request["per_path_timeout"],
            per_condition_timeout=request["timeout_s"],
            max_uninteresting_iterations=0,  # 0 = never stop for lack of new coverage
        )
    )
    options.stats = collections.Counter()
    nondeterministic = [0]

    def on_nondeterminism() -> None:  # the path is dropped and exploration goes on
        nondeterministic[0] += 1

    engage_auditwall()  # as the CLI does: block side effects of analyzed code

    distinct_traces = None
    if request["mode"] == "cover":
        t0, c0 = time.perf_counter(), time.process_time()
        summaries = path_cover(ctxfn, options, CoverageType.PATH, on_nondeterminism=on_nondeterminism)
        t1, c1 = time.perf_counter(), time.process_time()
        paths = len(summaries)
        traces = {_line_trace(fn, s.args.args, s.args.kwargs, fn.__code__.co_filename) for s in summaries}
        distinct_traces = len(traces)
    else:
        completed = [0]

        def on_path_complete(space, pre_args, post_args, ret, exc, exc_stack) -> bool:
            space.detach_path()
            completed[0] += 1
            return False  # keep exploring

        t0, c0 = time.perf_counter(), time.process_time()
        explore_paths(
            lambda args: fn(*args.args, **args.kwargs),
            sig,
            options,
            RootNode(),
            on_path_complete,
            on_nondeterminism=on_nondeterminism,
        )
        t1, c1 = time.perf_counter(), time.process_time()
        paths = completed[0]

    result = {
        "paths": paths,
        "time_s": t1 - t0,
        "cpu_s": c1 - c0,
        "import_s": import_s,
        "iterations": options.stats["num_paths"],
        "exhausted": options.stats["exhaustion"] > 0,
        "nondeterministic": nondeterministic[0],
        "distinct_traces": distinct_traces,
        "crosshair_version": getattr(crosshair, "__version__", "?"),
    }
    sys.stdout.write(RESULT_MARKER + json.dumps(result) + "\n")
    sys.stdout.flush()


# --------------------------------------------------------------------------
# Benchmark table
# --------------------------------------------------------------------------


def _median_run(path: str, function: str, timeout_s: float, mode: str, repeat: int):
    runs = [run_crosshair(path, function, timeout_s, mode=mode) for _ in range(repeat)]
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return runs[0], runs
    times = sorted(ok, key=lambda r: r["time_s"])
    return times[(len(times) - 1) // 2], runs  # median run (lower median if even)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument(
        "--modes",
        default="cover,explore,cli",
        help="comma-separated subset of cover,explore,cli",
    )
    parser.add_argument("--json", action="store_true", help="also print all runs as JSON")
    args = parser.parse_args(argv)

    header = (
        f"{'program':<20} {'mode':<8} {'paths':>5} {'expect':>6} {'iters':>5} {'exh':>4} {'traces':>6} {'time_s':>8} {'ms/path':>8} {'proc_s':>7}  runs time_s"
    )
    print(f"CrossHair, median of {args.repeat} runs (time_s = exploration wall time; proc_s = whole child process)")
    print(header)
    print("-" * len(header))
    everything = []
    for label, path, function, expected in BENCHMARKS:
        for mode in args.modes.split(","):
            med, runs = _median_run(path, function, args.timeout, mode, args.repeat)
            everything.append({"program": label, "mode": mode, "runs": runs})
            if "error" in med:
                print(f"{label:<20} {mode:<8} ERROR {med['error']}")
                continue
            fmt = lambda v: "-" if v is None else str(v)  # noqa: E731
            print(
                f"{label:<20} {mode:<8} {med['paths']:>5} {expected:>6} "
                f"{fmt(med['iterations']):>5} {('yes' if med['exhausted'] else 'NO'):>4} "
                f"{fmt(med['distinct_traces']):>6} {med['time_s']:>8.3f} "
                f"{1000 * med['s_per_path']:>8.2f} {med['process_wall_s']:>7.2f}  " + " ".join(f"{r['time_s']:.3f}" for r in runs)
            )
    if args.json:
        print(json.dumps(everything, indent=1))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(json.loads(sys.argv[2]))
    else:
        sys.exit(main())
