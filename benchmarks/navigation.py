"""Loop navigation: ``pathloom reach`` against the DSE and MultiSE engines alone, on Figure 1
of the loop-navigation paper and programs after its nine benchmarks
(``benchmarks/programs/loop_navigation.py``).

Usage: python benchmarks/navigation.py [--markdown] [--timeout S] [--only NAME[,NAME...]]

Each program has one target, its ``raise`` (``reach --asserts``). Three runs per program, each
``python -m pathloom reach FILE::NAME --asserts --json ...`` in a child process with the same
limit (``--timeout``, default 60 s) and the same input domain (lists up to 20 items, strs up to
24 characters, no loop-iteration bound: only the limit stops a search):

* ``reach``: the chain technique first, the fallback engine where it gives no answer;
* ``dse``: ``--no-chains --engine dse`` (the marker-instrumented function under plain DSE);
* ``multise``: ``--no-chains --engine multise``.

A cell is the verdict and the time the run reported for the target; ``(killed)`` when the
child overran the limit by more than 10 s and was stopped. ``right`` says whether the
verdict is the expected one (``unknown`` is not). CrossHair gets a column when
``crosshair-tool`` is installed in this interpreter (it is not, in the venv these tables were
made with), so there is none.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
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
        command = [sys.executable, "-m", "pathloom", "reach", f"{PROGRAMS}::{function}", "--asserts", "--timeout", str(timeout),
                   "--json", out, *DOMAIN, *extra]
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
    args = parser.parse_args()
    only = {name for name in args.only.split(",") if name}
    machine = f"nproc {nproc()}, {cpu_model()}, Python {sys.version.split()[0]}, z3 {z3_version('absent')}, " \
              f"pathloom at {git_revision()}, {load_average()} at start"
    for line in header(sys.argv, args.markdown, machine):
        print(line)
    names = [name for name, _ in CONFIGS]
    print("| benchmark | expected | " + " | ".join(names) + " | reach answered by | right (reach / dse / multise) |")
    print("| --- | --- | " + " | ".join("---" for _ in names) + " | --- | --- |")
    for label, function, expected in BENCHMARKS:
        if only and function not in only:
            continue
        cells, rights = [], []
        by = ""
        for name, extra in CONFIGS:
            result = run_one(function, extra, args.timeout)
            cells.append(f"{result['verdict']} {float(result['time_s']):.2f}s")  # type: ignore[arg-type]
            rights.append("yes" if result["verdict"] == expected else "no")
            if name == "reach":
                by = answered_by(str(result.get("reason") or ""))
        print(f"| {label} (`{function}`) | {expected} | " + " | ".join(cells) + f" | {by} | {' / '.join(rights)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
