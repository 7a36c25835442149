"""Compositional symbolic execution (``--engine compose``) against DSE, after the paper's Table I.

Usage: python benchmarks/compose.py [--markdown] [--timeout S] [--only NAME] [--targets] [--write-docs [--docs-file PATH]]

``--targets``: the target heuristics instead (the paper's Table II): solver calls until the
first seeded error is reported, DSE against compose, compose H1 and compose H2.

For each subject of ``benchmarks/compose_subjects/``, in this process, with a fresh module
load per run: DSE; DSE without its solver layers (independence slicing, query cache,
counterexample cache: ``solver_layers=()``, closer to the paper's SPF baseline; its solver
calls and time, and compose's ratios against it); compose cold (an empty summary store: the trees are built, then the
target composed); compose warm (the same store, the program unchanged: answered from the
stored run); compose after a change to the target only (its callees' trees come from the
store). Columns: paths, solver calls (Z3) and wall time; for compose cold, the paper's split:
init (building the callees' trees) and composition, the sub-method invocations replayed from
a tree, and the target's tree nodes compressed (a replayed callee path is one summary node)
and uncompressed. Every compose run is checked against DSE (``pathloom.compare.agree``): a
disagreement is printed and the exit status is 1.

``--write-docs`` writes the table into docs/benchmarks.md (``--docs-file PATH``: another page),
section ``compose`` (``--targets``: ``compose-targets``), under a header with the command,
date, machine, commit and versions (benchmarks/docs_writer.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SUBJECTS = HERE / "compose_subjects"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
import docs_writer  # benchmarks/docs_writer.py

from pathloom.api import explore
from pathloom.compare import agree
from pathloom.frontend.module import load_module
from pathloom.options import Options


@dataclass(frozen=True)
class Subject:
    name: str
    file: str
    target: str


SUBJECTS_RUN = [
    Subject("same args x12", "repeated.py", "same_args"),
    Subject("shifted args x12", "repeated.py", "shifted_args"),
    Subject("fresh inputs x6", "repeated.py", "fresh_inputs"),
    Subject("bank account", "bank.py", "session"),
    Subject("rational", "rational.py", "add_simplified"),
    Subject("recursion", "recursion.py", "total_steps"),
    Subject("list repOk x3", "linked_list.py", "call3times"),
    Subject("list repOk x5", "linked_list.py", "call5times"),
    Subject("list repOk after 3 removals", "linked_list.py", "after_removals"),
    Subject("list[int] repOk x3", "linked_list.py", "links3times"),
    Subject("list[int] repOk x5", "linked_list.py", "links5times"),
    Subject("Node repOk x3", "node_list.py", "nodes3times"),
    Subject("Node repOk x5", "node_list.py", "nodes5times"),
    Subject("swap node x3", "swap_node.py", "sweep3"),
    Subject("swap node x5", "swap_node.py", "sweep5"),
    Subject("mode logic", "mode_logic.py", "launch"),
]


def _run(path: Path, target: str, engine: str, timeout: float, store: Path | None, layers: tuple[str, ...] | None = None) -> Any:
    options = Options(engine=engine, timeout=timeout, store=None if store is None else str(store))
    if layers is not None:
        options = replace(options, solver_layers=layers)
    return explore(load_module(str(path)), target, options)


def _change_caller(path: Path, target: str) -> None:
    """Add one statement at the top of the target's body: a change to the caller only."""
    node = load_module(str(path)).function_defs[target]
    lines = path.read_text().splitlines()
    first = node.body[0]
    lines.insert(first.lineno - 1, " " * first.col_offset + "changed = 1")
    path.write_text("\n".join(lines) + "\n")


def measure(subject: Subject, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / subject.file  # a copy: the change below must not touch the subject
        path.write_text((SUBJECTS / subject.file).read_text())
        store = Path(tmp) / "summaries.sqlite"
        dse = _run(path, subject.target, "dse", timeout, None)
        bare = _run(path, subject.target, "dse", timeout, None, layers=())  # no independence, cache nor cex layer
        cold = _run(path, subject.target, "compose", timeout, store)
        warm = _run(path, subject.target, "compose", timeout, store)
        _change_caller(path, subject.target)
        changed = _run(path, subject.target, "compose", timeout, store)
        changed_dse = _run(path, subject.target, "dse", timeout, None)
    problems = agree(dse, cold) + agree(dse, warm) + agree(changed_dse, changed)
    return {"subject": subject, "dse": dse, "bare": bare, "cold": cold, "warm": warm, "changed": changed, "problems": problems}


def _fmt_t(seconds: float) -> str:
    return f"{seconds:.2f}"


def _ratio(baseline: float, compose: float) -> float:
    return baseline / compose if compose else float("inf")


def table(rows: list[dict[str, Any]], markdown: bool) -> str:
    header = [
        "subject",
        "paths",
        "DSE calls",
        "DSE s",
        "DSE calls, no solver layers",
        "DSE s, no solver layers",
        "compose calls (init+comp)",
        "compose s (init+comp)",
        "sub-method invocations",
        "ctree/tree nodes",
        "calls x",
        "time x",
        "calls x, no layers",
        "time x, no layers",
        "warm calls",
        "warm s",
        "changed caller: calls, s (trees reused)",
    ]
    lines = []
    for r in rows:
        d, c, w, ch = r["dse"].stats, r["cold"].stats, r["warm"].stats, r["changed"].stats
        b = r["bare"].stats
        lines.append(
            [
                r["subject"].name,
                str(len(r["dse"].paths)) + ("" if r["dse"].complete else " (cut)"),
                str(d["solver_calls"]),
                _fmt_t(d["time_s"]),
                str(b["solver_calls"]),
                _fmt_t(b["time_s"]),
                f"{c['solver_calls']} ({c['init_solver_calls']}+{c['composition_solver_calls']})",
                f"{_fmt_t(c['time_s'])} ({_fmt_t(c['init_time_s'])}+{_fmt_t(c['composition_time_s'])})",
                str(c["sub_method_invocations"]),
                f"{c['compressed_tree_nodes']}/{c['tree_nodes']}",
                f"{_ratio(d['solver_calls'], c['solver_calls']):.1f}",
                f"{_ratio(d['time_s'], c['time_s']):.1f}",
                f"{_ratio(b['solver_calls'], c['solver_calls']):.1f}",
                f"{_ratio(b['time_s'], c['time_s']):.1f}",
                str(w["solver_calls"]) + ("" if w["answered_from_store"] else " (not stored)"),
                _fmt_t(w["time_s"]),
                f"{ch['solver_calls']}, {_fmt_t(ch['time_s'])} ({ch['trees_from_store']}/{ch['trees_from_store'] + ch['trees_built']})",
            ]
        )
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(x) for x in col) for col in zip(header, *lines)]
    return "\n".join("  ".join(x.rjust(w) for x, w in zip(line, widths)) for line in [header] + lines)


LEGEND = (
    "*calls x*, *time x*: DSE / compose cold. *no solver layers*: the same DSE with `solver_layers=()` (no independence "
    "slicing, query cache or counterexample cache), and compose's ratios against it. *warm*: the same store, the program "
    "unchanged. *changed caller*: one statement added to the target, trees read from the store (reused/all)."
)


# the paper seeds each error at several locations (first, last and a random path of a method)
TARGETS = [
    ("bank account", "bank.py", "seeded_session"),
    ("list repOk x3 (error: a 4-node list)", "linked_list.py", "seeded_calls"),
    ("list repOk x3 (error: a cycle at node 0)", "linked_list.py", "seeded_first"),
    ("list repOk x3 (error: a 1-node list)", "linked_list.py", "seeded_last"),
    ("list shrinking, repOk x3 (error: a 4-node list)", "linked_list.py", "shrinking"),
    ("list shrinking, repOk x3 (error: a cycle at node 0)", "linked_list.py", "shrinking_first"),
    ("list shrinking, repOk x3 (error: a 1-node list)", "linked_list.py", "shrinking_last"),
]


def first_bug(file: str, target: str, engine: str, heuristic: str | None, timeout: float) -> tuple[int | None, int, float, bool]:
    """(solver calls when the first bug was reported, total solver calls, time, complete)."""
    from pathloom.api import Run

    options = Options(engine=engine, timeout=timeout, target_heuristic=heuristic)
    run = Run(load_module(str(SUBJECTS / file)), target, options)
    found = None
    for result in run.results():
        if result.is_bug and found is None:
            found = run.engine.solver_stats.z3_calls
    stats = run.exploration.stats
    return found, stats["solver_calls"], stats["time_s"], run.exploration.complete


def targets_table(timeout: float, markdown: bool) -> str:
    """The paper's Table II: solver calls to the first seeded error (trees built included)."""
    header = ["subject", "DSE", "compose", "compose H1", "compose H2 (incomplete)"]
    lines = []
    for name, file, target in TARGETS:
        cells = [name]
        for engine, heuristic in (("dse", None), ("compose", None), ("compose", "h1"), ("compose", "h2")):
            calls, total, seconds, _ = first_bug(file, target, engine, heuristic, timeout)
            cells.append(f"{calls} of {total} ({seconds:.2f}s in all)")
        lines.append(cells)
    if markdown:
        return "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(x) + " |" for x in lines])
    widths = [max(len(x) for x in col) for col in zip(header, *lines)]
    return "\n".join("  ".join(x.rjust(w) for x, w in zip(line, widths)) for line in [header] + lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", default=None, help="run only the subjects whose name contains this")
    parser.add_argument("--targets", action="store_true", help="only the target heuristics' table (solver calls to the first error)")
    docs_writer.add_options(parser)
    args = parser.parse_args()
    if args.targets:
        doc = docs_writer.Recorder(args, "compose-targets", title="Compose: target heuristics")
    else:
        doc = docs_writer.Recorder(args, "compose", title="Compose against DSE")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"$ python benchmarks/compose.py {' '.join(sys.argv[1:])}")
    print(f"machine: {os.cpu_count()} cpus, {platform.processor() or platform.machine()}, Python {platform.python_version()}, pathloom {commit}")
    if args.targets:
        with doc.capture():
            print(targets_table(args.timeout, args.markdown))
        return 0
    rows = []
    for subject in SUBJECTS_RUN:
        if args.only and args.only not in subject.name:
            continue
        rows.append(measure(subject, args.timeout))
    with doc.capture():
        print(table(rows, args.markdown))
        if args.markdown:
            print("\n" + LEGEND)
    bad = [r for r in rows if r["problems"]]
    for r in bad:
        print(f"DISAGREEMENT on {r['subject'].name}: {r['problems'][:3]}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
