"""Benchmark the three heap models on input objects: traces forked, program paths, time.

Usage: python benchmarks/heap_models.py [--timeout S] [--markdown] [--only NAME] [--write-docs [--docs-file PATH]]

Every row runs the dse engine under ``--heap lazy``, ``--heap lazier`` and ``--heap pose``
(and MultiSE under pose) on the same target in this process, each run on a freshly loaded
module; the time is the exploration's (engine set-up included, module loading not). ``traces`` counts the analysis traces the engine forked (``stats.traces``),
``paths`` the distinct program paths among them (``stats.program_paths``: traces that
entered the same blocks and raised the same exceptions are one). Path optimality is
``traces == paths``.

Tables: (1) the POSE paper's programs (benchmarks/heap/paper.py) with the paper's trace
counts beside ours; (2) scaled families written here: a straight-line sum over k nodes
(k = 1..8) and hasNull with max = 1..12; (3) linked-list and tree programs
(benchmarks/heap/structures.py), with ``--max-iterations 4``; (4) ``--only realcode``: the
functions of the real-code corpus (``algorithms==1.0.1``, in the venv ``benchmarks/realcode.py``
makes) under ``linked_list/`` and ``tree/`` that take input objects, same columns, each model
given the same ``--timeout``; the corpus's own modules import from its package, so its
site-packages directory joins ``sys.path``.

``--write-docs`` writes the tables into docs/benchmarks.md (``--docs-file PATH``: another page):
tables 1-3 into the section ``heap-models`` (a run with ``--only paper|scaled|structures``
replaces it with its one table), table 4 into ``heap-models-realcode``; under a header with the
command, date, machine, commit and versions (benchmarks/docs_writer.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
import docs_writer  # benchmarks/docs_writer.py

MODELS = ("lazy", "lazier", "pose")
# The paper's Table (traces): lazy, lazier#, path-optimal; "-" where it gives none.
PAPER = {"swap": ("21", "3", "2"), "sum3": ("23", "23", "1"), "has_null": ("21", "16", "6"), "has_null_10": ("78", "-", "12")}


def run_one(path: str, target: str, engine: str, heap: str, timeout: float, max_iterations: int = 10) -> dict[str, Any]:
    from pathloom.api import Run
    from pathloom.errors import PathloomError
    from pathloom.frontend.module import load_module
    from pathloom.options import Options

    options = Options(engine=engine, heap=heap, timeout=timeout, max_iterations=max_iterations, max_objects=16)
    module = load_module(path)  # not timed: the import check of the real module is the same for every model
    start = time.perf_counter()
    try:
        run = Run(module, target, options)
        for _ in run.results():
            pass
    except PathloomError as exc:  # an operation met at run time that pathloom does not model
        return {"error": str(exc).splitlines()[0].split("unsupported: ")[-1], "time": time.perf_counter() - start}
    elapsed = time.perf_counter() - start
    stats = run.exploration.stats
    timed_out = any(p.reason == "timeout" for p in run.exploration.paths if p.outcome == "cut")
    return {
        "traces": stats.get("traces", len(run.exploration.paths)),
        "paths": stats.get("program_paths", len(run.exploration.paths)),
        "solver": stats.get("solver_calls", 0),
        "time": elapsed,
        "complete": run.exploration.complete,
        "timeout": timed_out,
    }


def _cell(r: dict[str, Any]) -> str:
    if "error" in r:
        return f"unsupported ({r['error']})"
    mark = " (timeout)" if r["timeout"] else ""
    return f"{r['traces']} / {r['paths']} / {r['solver']} / {r['time']:.2f}s{mark}"


def row(path: str, target: str, timeout: float, max_iterations: int) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    results = {m: run_one(path, target, "dse", m, timeout, max_iterations) for m in MODELS}
    multise = run_one(path, target, "multise", "pose", timeout, max_iterations)
    return results, multise


def _table(number: int, title: str, header: list[str], rows: list[list[str]], markdown: bool) -> None:
    print(f"\n### {title}\n" if markdown else f"\nTable {number}: {title}\n")
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


def _scaled_sources(directory: str) -> list[tuple[str, str, str]]:
    """(label, file, target) of the scaled families."""
    head = (
        "from __future__ import annotations\nfrom typing import Optional\n\n\nclass Node:\n"
        "    def __init__(self, val: int, next: Optional[Node] = None) -> None:\n"
        "        self.val = val\n        self.next = next\n\n\n"
    )
    body = []
    for k in range(1, 9):
        params = ", ".join(f"n{i}: Node" for i in range(k))
        total = " + ".join(f"n{i}.val" for i in range(k))
        body.append(f"def sum_{k}({params}) -> int:\n    return {total}\n\n\n")
    for m in range(1, 13):
        body.append(
            f"def has_null_{m}(this: Node) -> bool:\n    s = this.next\n    i = 1\n"
            f"    while s is not None and i <= {m}:\n        s = s.next\n        i = i + 1\n    return s is None\n\n\n"
        )
    path = os.path.join(directory, "scaled.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + "".join(body))
    return [(f"sum of {k} nodes", path, f"sum_{k}") for k in range(1, 9)] + [(f"hasNull max={m}", path, f"has_null_{m}") for m in range(1, 13)]


def realcode_targets(venv: str, folders: tuple[str, ...]) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(label, file, target) of the corpus functions in ``folders`` whose inputs include an
    object, and the labels of those pathloom refuses (with the first line of the reason)."""
    import glob

    from pathloom.api import Run
    from pathloom.errors import PathloomError
    from pathloom.frontend.module import load_module
    from pathloom.options import Options
    from realcode import PACKAGE, find_targets

    found = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages"))
    if not found or not os.path.isdir(os.path.join(found[0], PACKAGE)):
        raise SystemExit(f"no {PACKAGE} in {venv}: run benchmarks/realcode.py --limit 1 first (it makes the venv)")
    if found[0] not in sys.path:
        sys.path.append(found[0])
    targets, _, _ = find_targets(os.path.join(found[0], PACKAGE))
    taken: list[tuple[str, str, str]] = []
    refused: list[str] = []
    for t in targets:
        if not t.module.startswith(folders):
            continue
        try:
            run = Run(load_module(t.path), t.name, Options())
        except PathloomError as exc:
            refused.append(f"{t.label}: {str(exc).splitlines()[0]}")
            continue
        if run.engine.entry.object_params:
            taken.append((t.label, t.path, t.name))
    return taken, refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run (default 30)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--only", choices=["paper", "scaled", "structures", "realcode"], default=None)
    parser.add_argument("--venv", default=os.path.join(ROOT, "out", "realcode", "venv"), help="the real-code corpus venv (--only realcode)")
    parser.add_argument("--start-at", default=None, help="--only realcode: begin at this target (FILE::NAME), to finish a run that stopped")
    docs_writer.add_options(parser)
    args = parser.parse_args()
    if args.only == "realcode":
        doc = docs_writer.Recorder(args, "heap-models-realcode", title="Heap models on the real-code corpus's linked lists and trees")
    else:
        doc = docs_writer.Recorder(args, "heap-models", title="Heap models on input objects")
    with doc.capture():
        tables(args)
    return 0


def tables(args: argparse.Namespace) -> None:
    """Run the benchmark and print its tables (and the lines under them)."""
    cell_header = "traces / paths / solver calls / time"
    header = ["program"] + [f"dse {m}: {cell_header}" for m in MODELS] + ["multise pose: time"]
    started = time.perf_counter()
    if args.only in (None, "paper"):
        rows = []
        paper = os.path.join(HERE, "heap", "paper.py")
        for target, counts in PAPER.items():
            results, multise = row(paper, target, args.timeout, 20)
            rows.append([target, *(_cell(results[m]) for m in MODELS), f"{multise['time']:.2f}s", f"{counts[0]} / {counts[1]} / {counts[2]}"])
        _table(
            1,
            "the POSE paper's programs (dse, --max-iterations 20; last column: the paper's lazy / lazier# / path-optimal traces)",
            header + ["paper traces"],
            rows,
            args.markdown,
        )
    if args.only in (None, "scaled"):
        with tempfile.TemporaryDirectory() as tmp:
            rows = []
            for label, path, target in _scaled_sources(tmp):
                results, multise = row(path, target, args.timeout, 20)
                rows.append([label, *(_cell(results[m]) for m in MODELS), f"{multise['time']:.2f}s"])
            _table(2, "scaled families (dse, --max-iterations 20)", header, rows, args.markdown)
    if args.only in (None, "structures"):
        rows = []
        structures = os.path.join(HERE, "heap", "structures.py")
        for target in ("insert_sorted", "remove", "reverse", "swap_first_two", "rep_ok", "bst_search", "bst_insert"):
            results, multise = row(structures, target, args.timeout, 4)
            rows.append([target, *(_cell(results[m]) for m in MODELS), f"{multise['time']:.2f}s"])
        _table(3, "linked lists and trees (dse, --max-iterations 4)", header, rows, args.markdown)
    if args.only == "realcode":  # not in the default run: it needs the corpus venv
        taken, refused = realcode_targets(args.venv, ("linked_list/", "tree/"))
        if args.start_at:
            labels = [label for label, _, _ in taken]
            taken = taken[labels.index(args.start_at) :]
        rows = []
        for label, path, target in taken:
            try:
                results, multise = row(path, target, args.timeout, 4)
            except Exception as exc:  # noqa: BLE001 - a pathloom crash is a row of the table, not the end of the run
                crash = f"crash: {type(exc).__name__}: {str(exc)[:80]}"
                rows.append([label, crash, "", "", ""])
                print(f"  {label}: {crash}", file=sys.stderr, flush=True)
                continue
            rows.append([label, *(_cell(results[m]) for m in MODELS), "unsupported" if "error" in multise else f"{multise['time']:.2f}s"])
            print(f"  {label}: " + " | ".join(rows[-1][1:]), file=sys.stderr, flush=True)  # a killed run keeps its rows
        _table(4, "algorithms==1.0.1, linked_list/ and tree/ functions over input objects (dse, --max-iterations 4)", header, rows, args.markdown)
        pose = [r[3].split(" / ") for r in rows if not r[3].startswith("unsupported")]
        optimal = sum(1 for cell in pose if cell[0] == cell[1])
        print(
            f"\n{len(rows)} functions, {len(pose)} explored under pose; pose path-optimal (traces == paths) on {optimal}; "
            f"refused by pathloom before running: {len(refused)}"
        )
        if refused and args.markdown:
            print("\nRefused by pathloom before running:\n")
        for line in refused:
            print(f"- `{line}`" if args.markdown else f"  refused: {line}")
    print(f"\ntotal {time.perf_counter() - started:.0f}s; per-run timeout {args.timeout:g}s")


if __name__ == "__main__":
    raise SystemExit(main())
