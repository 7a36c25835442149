"""Loop navigation: ``pathloom reach`` against the DSE and MultiSE engines alone, on Figure 1
of the loop-navigation paper and programs after its nine benchmarks
(``benchmarks/programs/loop_navigation.py``).

Usage: python benchmarks/navigation.py [--markdown] [--timeout S] [--only NAME[,NAME...]] [--write-docs [--docs-file PATH]]

Each program has one target, its ``raise`` (``reach --asserts``). Three runs per program, each
``python -m pathloom reach FILE::NAME --asserts --json ...`` in a child process with the same
limit (``--timeout``, default 60 s) and the same input domain (lists up to 20 items, strs up to
24 characters, no loop-iteration bound: only the limit stops a search):

* ``reach``: the chain technique first, the fallback engine where it gives no answer;
* ``dse``: ``--no-chains --engine dse`` (the marker-instrumented function under plain DSE);
* ``multise``: ``--no-chains --engine multise``.

A cell is the verdict and the time the run reported for the target; ``(killed)`` when the
child overran the limit by more than 10 s and was stopped. ``right`` says whether the
verdict is the expected one (``unknown`` is not).

CrossHair gets a column when an interpreter with ``crosshair-tool`` is found
(``--crosshair-python``, default the real-code benchmark's venv ``out/realcode/venv``, which
``benchmarks/realcode.py`` installs). It runs ``crosshair check --analysis_kind=PEP316
--report_all --per_condition_timeout S module.NAME`` on a copy of the programs in which each
function's leading ``assert`` statements become ``pre:`` conditions and ``post: True`` is
added, so that any exception is a counterexample CrossHair reports: ``error: ValueError:
MESSAGE when calling NAME(...)`` is ``reachable`` (the call's arguments, parsed as literals,
are replayed here in CPython, and must raise the program's ValueError), ``Confirmed over all paths`` is
``unreachable``, anything else (``Not confirmed``, nothing within the limit) ``unknown``.

``--write-docs`` writes the table into the section ``navigation`` of docs/benchmarks.md
(``--docs-file PATH``: another page), under a header with the command, date, machine, commit
and versions, CrossHair's included (benchmarks/docs_writer.py).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs_writer  # benchmarks/docs_writer.py
from machine import ROOT, cpu_model, git_revision, header, load_average, nproc, z3_version

PROGRAMS = os.path.join(ROOT, "benchmarks", "programs", "loop_navigation.py")
GRACE_S = 10.0  # a child that overruns the limit by this much is killed
DOMAIN = ["--max-list-len", "20", "--max-str-len", "24", "--max-iterations", "1000000000"]
CONFIGS: list[tuple[str, list[str]]] = [
    ("reach", []),
    ("dse", ["--no-chains", "--engine", "dse"]),
    ("multise", ["--no-chains", "--engine", "multise"]),
]
# (label as in the paper, function, expected verdict)
BENCHMARKS = [
    ("Figure 1 (a > 12)", "fig1", "reachable"),
    ("Figure 1 (a > 17)", "fig1_unreachable", "unreachable"),
    ("Hello", "hello", "reachable"),
    ("HW", "hw", "reachable"),
    ("HWM", "hwm", "reachable"),
    ("DOIF", "doif", "reachable"),
    ("DOIFex", "doifex", "reachable"),
    ("EQCNT", "eqcnt", "reachable"),
    ("EQCNTex", "eqcntex", "unreachable"),
    ("OneLoop", "one_loop", "unreachable"),
    ("TwoLoops", "two_loops", "unreachable"),
]


def run_one(function: str, extra: list[str], timeout: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        command = [sys.executable, "-m", "pathloom", "reach", f"{PROGRAMS}::{function}", "--asserts", "--timeout", str(timeout), "--json", out, *DOMAIN, *extra]
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        start = time.monotonic()
        try:
            proc = subprocess.run(command, check=False, capture_output=True, text=True, timeout=timeout + GRACE_S, env=env)
        except subprocess.TimeoutExpired:
            return {"verdict": "(killed)", "time_s": time.monotonic() - start, "reason": "overran the limit"}
        if not os.path.exists(out):
            return {"verdict": f"(exit {proc.returncode})", "time_s": time.monotonic() - start, "reason": proc.stderr.strip()[-200:]}
        with open(out, encoding="utf-8") as f:
            [target] = json.load(f)["targets"]
        return target  # type: ignore[no-any-return]


def contracted_copy(folder: str) -> str:
    """The programs as a module ``nav_subjects`` in ``folder`` with PEP 316 contracts: leading
    asserts as ``pre:``, and ``post: True``."""
    with open(PROGRAMS, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        pre = []
        while body and isinstance(body[0], ast.Assert):
            pre.append(ast.unparse(body.pop(0).test))
        doc = "\n".join([*(f"pre: {p}" for p in pre), "post: True"])
        node.body = [ast.Expr(ast.Constant(doc)), *body]
    with open(os.path.join(folder, "nav_subjects.py"), "w", encoding="utf-8") as f:
        f.write(ast.unparse(tree) + "\n")
    return folder


def crosshair_cell(python: str, folder: str, function: str, timeout: float) -> dict[str, object]:
    command = [
        python,
        "-m",
        "crosshair",
        "check",
        "--analysis_kind=PEP316",
        "--report_all",
        "--per_condition_timeout",
        str(timeout),
        f"nav_subjects.{function}",
    ]
    start = time.monotonic()
    try:
        proc = subprocess.run(command, check=False, capture_output=True, text=True, timeout=timeout + GRACE_S, cwd=folder)
    except subprocess.TimeoutExpired:
        return {"verdict": "(killed)", "time_s": time.monotonic() - start}
    took = time.monotonic() - start
    found = re.search(r"error: ValueError: .* when calling (.*)$", proc.stdout, re.MULTILINE)
    if found:
        return {"verdict": "reachable" if _replays(folder, function, found.group(1)) else "reachable (no replay)", "time_s": took}
    if "Confirmed over all paths" in proc.stdout:
        return {"verdict": "unreachable", "time_s": took}
    return {"verdict": "unknown", "time_s": took}


def _replays(folder: str, function: str, call: str) -> bool:
    """Whether CrossHair's call ``NAME(args)``, its arguments read as literals, raises the
    program's ValueError in CPython."""
    try:
        parsed = ast.parse(call.strip(), mode="eval").body
        assert isinstance(parsed, ast.Call)
        args = [ast.literal_eval(a) for a in parsed.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in parsed.keywords if k.arg}
    except (SyntaxError, ValueError, AssertionError):
        return False
    sys.path.insert(0, os.path.dirname(PROGRAMS))
    try:
        import loop_navigation

        getattr(loop_navigation, function)(*args, **kwargs)
    except ValueError:
        return True  # each program's one raise statement (its asserts raise AssertionError)
    except Exception:  # noqa: BLE001 - any other outcome is not the target
        return False
    finally:
        sys.path.pop(0)
    return False


def find_crosshair(requested: str | None) -> str | None:
    candidates = [requested] if requested else [os.path.join(ROOT, "out", "realcode", "venv", "bin", "python"), sys.executable]
    for python in candidates:
        if python and os.path.exists(python) and subprocess.run([python, "-c", "import crosshair"], capture_output=True, check=False).returncode == 0:
            return python
    return None


def answered_by(reason: str) -> str:
    for name in ("chain technique", "constraints-driven", "multise", "dse"):
        if name in reason.split(" (chain technique:")[0]:
            return "chains" if name in ("chain technique", "constraints-driven") else name
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--crosshair-python", default=None, help="an interpreter with crosshair-tool (default: out/realcode/venv's)")
    docs_writer.add_options(parser)
    args = parser.parse_args()
    doc = docs_writer.Recorder(args, "navigation", title="Loop navigation: reach, DSE, MultiSE and CrossHair")
    only = {name for name in args.only.split(",") if name}
    crosshair = find_crosshair(args.crosshair_python)
    version = _crosshair_version(crosshair) if crosshair else "none found"
    doc.extra_versions.append(("crosshair-tool", f"{version} (in {docs_writer.relative(crosshair)})" if crosshair else "none found: no CrossHair column"))
    machine = (
        f"nproc {nproc()}, {cpu_model()}, Python {sys.version.split()[0]}, z3 {z3_version('absent')}, "
        f"pathloom at {git_revision()}, CrossHair {version}, {load_average()} at start"
    )
    for line in header(sys.argv, args.markdown, machine):
        print(line)
    with doc.capture():
        table(args, only, crosshair)
    return 0


def table(args: argparse.Namespace, only: set[str], crosshair: str | None) -> None:
    names = [name for name, _ in CONFIGS] + (["crosshair"] if crosshair else [])
    print("| benchmark | expected | " + " | ".join(names) + " | reach answered by | right (" + " / ".join(names) + ") |")
    print("| --- | --- | " + " | ".join("---" for _ in names) + " | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        if crosshair:
            contracted_copy(folder)
        for label, function, expected in BENCHMARKS:
            if only and function not in only:
                continue
            cells, rights = [], []
            by = ""
            results = []
            for name, extra in CONFIGS:
                result = run_one(function, extra, args.timeout)
                results.append(result)
                if name == "reach":
                    by = answered_by(str(result.get("reason") or ""))
            if crosshair:
                results.append(crosshair_cell(crosshair, folder, function, args.timeout))
            for result in results:
                cells.append(f"{result['verdict']} {float(result['time_s']):.2f}s")  # type: ignore[arg-type]
                rights.append("yes" if result["verdict"] == expected else "no")
            print(f"| {label} (`{function}`) | {expected} | " + " | ".join(cells) + f" | {by} | {' / '.join(rights)} |", flush=True)


def _crosshair_version(python: str) -> str:
    proc = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('crosshair-tool'))"], capture_output=True, text=True, check=False)
    return proc.stdout.strip() or "?"


if __name__ == "__main__":
    sys.exit(main())
