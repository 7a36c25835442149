"""The codebase workflow's costs: a package checked cold, then again from the result cache, and
with one process against two.

Usage: python benchmarks/workflow.py [--package DIR] [--timeout S] [--compare-jobs] [--markdown]
       [--write-docs [--docs-file PATH]]

The package (default ``benchmarks/workflow_shop/shop``: relative imports, icontract, deal, PEP
316 and an assert) is copied with its parent directory into a fresh temporary directory (no
``.pathloom`` cache), and from there, one run at a time, each timed by the wall clock:

* cold: ``pathloom check PKG --jobs 2 --sarif S --json J`` (the cache empty, then filled);
* warm: the same command again (every file served from the cache);
* with ``--compare-jobs``: ``--no-cache --jobs 1`` and ``--no-cache --jobs 2``.

Each row gives the wall time, the exit code, the bugs found (the JSON's target and line pairs)
and the targets served from the cache (the count line); the ratios warm/cold and jobs 2/jobs 1
follow, and whether every run found the same bugs. ``--write-docs`` writes the table into the
section ``workflow`` of docs/benchmarks.md with the command, date, machine and versions.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import docs_writer  # benchmarks/docs_writer.py

DEFAULT_PACKAGE = os.path.join(HERE, "workflow_shop", "shop")


@dataclass
class Measured:
    name: str
    seconds: float
    code: int
    bugs: frozenset[tuple[str, int]]
    cached: str  # the count line's "N from the cache", or ""


def run(name: str, argv: Sequence[str], cwd: str, json_path: str) -> Measured:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pathloom", *argv, "--json", json_path], cwd=cwd, capture_output=True, text=True)
    seconds = time.monotonic() - started
    try:
        entries = json.load(open(os.path.join(cwd, json_path), encoding="utf-8"))
    except (OSError, ValueError):
        entries = []
    bugs = frozenset((e["target"], b["line"]) for e in entries for b in e.get("bugs", []))
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    cached = last.rsplit("; ", 1)[1] if last.endswith("from the cache") else ""
    return Measured(name, seconds, done.returncode, bugs, cached)


def table(rows: list[Measured], markdown: bool) -> list[str]:
    header = ["run", "wall s", "exit", "bugs", "served from the cache"]
    cells = [[r.name, f"{r.seconds:.2f}", str(r.code), str(len(r.bugs)), r.cached or "-"] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return lines + ["| " + " | ".join(c) + " |" for c in cells]
    return ["  ".join(header)] + ["  ".join(c) for c in cells]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default=DEFAULT_PACKAGE, help="the package directory to check (copied with its parent)")
    parser.add_argument("--timeout", default=None, help="pathloom's --timeout per target")
    parser.add_argument("--compare-jobs", action="store_true", help="also --no-cache with --jobs 1 and --jobs 2")
    parser.add_argument("--markdown", action="store_true")
    docs_writer.add_options(parser)
    args = parser.parse_args(argv)
    doc = docs_writer.Recorder(args, "workflow", title="The workflow: cache and processes", argv=[sys.argv[0] or __file__] + list(argv or sys.argv[1:]))
    package = os.path.abspath(args.package)
    name = os.path.basename(package)
    work = tempfile.mkdtemp(prefix="pathloom-workflow-")
    shutil.copytree(os.path.dirname(package), os.path.join(work, "project"), ignore=shutil.ignore_patterns(".pathloom", "__pycache__"))
    cwd = os.path.join(work, "project")
    if not os.path.exists(os.path.join(cwd, "pyproject.toml")):
        open(os.path.join(cwd, "pyproject.toml"), "w").close()  # the cache's project root
    common = ["check", name, "--quiet"] + (["--timeout", args.timeout] if args.timeout else [])
    rows = [
        run("cold: --jobs 2 --sarif", [*common, "--jobs", "2", "--sarif", "cold.sarif"], cwd, "cold.json"),
        run("warm: the same again", [*common, "--jobs", "2", "--sarif", "warm.sarif"], cwd, "warm.json"),
    ]
    if args.compare_jobs:
        rows += [
            run("--no-cache --jobs 1", [*common, "--no-cache", "--jobs", "1"], cwd, "one.json"),
            run("--no-cache --jobs 2", [*common, "--no-cache", "--jobs", "2"], cwd, "two.json"),
        ]
    shutil.rmtree(work, ignore_errors=True)
    with doc.capture():
        print(f"`pathloom check {name}` on {package if args.package != DEFAULT_PACKAGE else 'benchmarks/workflow_shop/shop'}, one run at a time.")
        print()
        for line in table(rows, args.markdown or args.write_docs):
            print(line)
        print()
        print(f"- warm / cold: {rows[1].seconds / rows[0].seconds:.3f} ({rows[0].seconds / rows[1].seconds:.1f}x faster from the cache)")
        if args.compare_jobs:
            print(f"- --jobs 2 / --jobs 1: {rows[3].seconds / rows[2].seconds:.3f} ({rows[2].seconds / rows[3].seconds:.2f}x faster with two processes)")
        print(f"- every run found the same bugs: {'yes' if len({r.bugs for r in rows}) == 1 else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
