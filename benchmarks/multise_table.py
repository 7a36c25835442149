"""MultiSE vs DSE on the fifteen kinds of program of the MultiSE paper, side by side.

Usage: python benchmarks/multise_table.py [--markdown] [--only NAME[,NAME...]] [--timeout S]
                                          [--check-inputs] [--profile NAME] [--size NAME=N]
                                          [--write-docs [--docs-file PATH]]

Every program in benchmarks/multise/ is explored by both engines in this one process, each
exploration a fresh ``explore`` (a fresh ``load_module``, engine, BDD manager and solver
chain), DSE first, then MultiSE; one untimed warm-up of each engine on a tiny program comes
first so that neither pays z3's start-up.  Both engines use their default search strategy
(``strategy=None``: DSE dfs, MultiSE topological order; MultiSE with ``dfs`` merges almost
nothing).  ``--check-inputs`` also evaluates every reported path condition on the path's own
input (outside the timed region).

Columns: DSE and MultiSE wall time of the ``explore`` call (load + exploration), speedup =
DSE time / MultiSE time, IR instructions executed (``stats.instructions``: DSE sums them over
all paths, MultiSE counts one per step of its merged state), instruction ratio = DSE /
MultiSE, Z3 calls of each engine, MultiSE's share of its time spent in Z3 and in BDD
operations, its average value-summary size (entries per variable after each assignment),
the paper's speedup and operation ratio for that kind of program, and ``agree``: whether the
two engines found the same set of outcome kinds -- ``("return",)``, ``("raise", exception,
line)``, ``("cut", reason, line)``, ``("unknown",)``.  (Path counts are not comparable:
MultiSE reports one result per distinct outcome value, split until every branch direction has
an input, DSE one per path.)

``no_sharing`` and ``no_sharing_values`` are controls, not in the paper: every path returns a
different expression of the inputs (in ``no_sharing`` every branch condition also depends on
that value, in ``no_sharing_values`` the conditions are on the inputs alone), so there is no
value to share; the MultiSE/DSE cost ratio on them measures MultiSE's overhead (target: at
most 1.5x).

``--size NAME=N`` explores one program at another list size; ``--profile NAME`` runs
cProfile on one MultiSE run. ``--write-docs`` writes the table and the lines under it into the
section ``multise-table`` of docs/benchmarks.md (``--docs-file PATH``: another page), under a
header with the command, date, machine, commit and versions (benchmarks/docs_writer.py).

Times on a shared 2-core machine vary by tens of percent between runs; compare ratios and
orders of magnitude.  Exit status 1 if the engines disagree on a program, an exploration is
incomplete, one fails, or (with ``--check-inputs``) a reported input violates its own path
condition.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROGRAMS_DIR = os.path.join(HERE, "multise")
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
import docs_writer
import machine

# --------------------------------------------------------------------------
# The paper's numbers
# --------------------------------------------------------------------------
#
# Source: ../shared/papers/multise-slides.txt, slide 67 ("Results", Table 1 "Statistics of
# MultiSE"), whose text extraction flattens the table into one line:
#
#   Test LOC MultiSE[Total time (s), BDD time (%), Solver time (%), Avg. value summ. size,
#   Avg. value summ. share factor, Variable merges saved] DSE/MultiSE[Time ratio (x speedup),
#   # Op. ratio]
#
# The "Variable merges saved" cells are empty for Find Max, Kadane, Array Index, Calc Parser,
# Queue, Heap Sort, Quick Sort and PL/0 Parser, so those rows have 8 numbers (LOC + 7) instead
# of 9 ("44 (41.5%)" counts as one); in every row the last two numbers are read as the speedup
# and the operation ratio.  The extremes agree with the paper's claim (1.3x to 87.7x speedup,
# 2.7x to 47.5x fewer operations): min speedup 1.3 and min op ratio 2.7 (PL/0 Parser), max
# 87.7 and 47.5 (Priority Queue).  The paper's own text
# (../shared/papers/multise-value-summaries.txt) lost every digit of its evaluation in the
# extraction ("executes between . to times faster"), so the slides are the only source.
#
# Unsure: the Queue row, "Queue 85 0.3 93.1 1.0 5.4 6.7 4.2", has only 6 numbers after its LOC
# where 7 are expected, so one of total time / BDD % is missing; 93.1 must be the solver %,
# 0.3 is either the total time or the BDD %; its last two (6.7x, 4.2x) are still read as
# speedup / op ratio.  The Kadane row ("38 6.5 1.0 98.4 2.4 3.2 2.7 6.9") is read as speedup
# 2.7, op ratio 6.9 with the same alignment as Find Max ("32 5.0 1.2 97.9 1.9 23.0 10.0
# 28.7").  "# Op." is the paper's count of executed operations (JavaScript operations
# instrumented by Jalangi), compared here with pathloom's IR instruction counts, which are not
# the same unit for MultiSE (one MultiSE step executes an instruction for many paths).
#
# kind -> (paper LOC, paper MultiSE time s, paper speedup, paper op ratio, note)
PAPER: dict[str, tuple[int, float | None, float, float, str]] = {
    "Find Max": (32, 5.0, 10.0, 28.7, ""),
    "Kadane Subarray": (38, 6.5, 2.7, 6.9, ""),
    "Array Index": (56, 11.7, 3.7, 3.3, ""),
    "Calc Parser": (66, 35.5, 1.6, 2.8, ""),
    "Stack": (81, 0.6, 26.2, 9.1, ""),
    "Queue": (85, 0.3, 6.7, 4.2, "row garbled: one number missing; 0.3 may be the BDD % rather than the time"),
    "Heap Sort": (87, 4.0, 2.5, 8.5, ""),
    "Quick Sort": (93, 15.1, 2.6, 3.7, ""),
    "PL/0 Parser": (135, 246.4, 1.3, 2.7, ""),
    "Linked List": (148, 2.5, 11.1, 5.1, ""),
    "Priority Queue": (190, 0.9, 87.7, 47.5, ""),
    "Binary Search Tree": (386, 6.5, 7.3, 5.6, ""),
    "Symbolic Arithmetic": (475, 1.5, 49.3, 34.0, ""),
    "BDD": (623, 6.2, 7.5, 5.4, ""),
    "Red Black": (1061, 37.1, 6.5, 8.8, ""),
}


# --------------------------------------------------------------------------
# The programs and their sizes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    name: str  # file benchmarks/multise/<name>.py, entry function <name>
    kind: str | None  # the paper's row, None for the control
    max_list_len: int
    max_iterations: int = 12
    max_depth: int = 32
    inputs: str = ""  # what the symbolic inputs are


# Sizes chosen so that DSE takes roughly 1 to 60 s on the 2-core benchmark machine and the
# whole table stays under ~10 minutes (see the table printed by a run for the actual times).
# max_iterations is above every loop's trip count at these sizes, so no path is cut.
#
# | program           | inputs                        | max_list_len | max_iterations | DSE paths |
# |-------------------|-------------------------------|--------------|----------------|-----------|
# | find_max          | xs: list[int]                 | 13           | 14             | 8192      |
# | kadane            | xs: list[int]                 | 9            | 12             | 14767     |
# | array_index       | xs: list[int], k: int         | 7            | 12             | 33465     |
# | calc_parser       | toks: list[int]               | 8            | 12             | 2924      |
# | stack             | ops: list[int]                | 10           | 12             | 88573     |
# | queue             | ops: list[int]                | 10           | 12             | 88573     |
# | heap_sort         | xs: list[int]                 | 5            | 12             | 634       |
# | quick_sort        | xs: list[int]                 | 6            | 12             | 5317      |
# | pl0_parser        | toks: list[int]               | 6            | 12             | 10727     |
# | linked_list       | xs: list[int], k: int         | 6            | 12             | 5913      |
# | priority_queue    | ops: list[int]                | 7            | 12             | 3531      |
# | bst               | keys: list[int], k: int       | 5            | 12             | 5316      |
# | symbolic_arith    | toks: list[int], x: int       | 6            | 12             | 4221      |
# | bdd               | table: list[int], probe: int  | 10           | 12             | ?         |
# | red_black         | keys: list[int]               | 6            | 12             | 5317      |
# | no_sharing        | xs: list[int]                 | 10           | 12             | 2047      |
# | no_sharing_values | xs: list[int]                 | 12           | 14             | 8191      |
#
# Measured one size up (2026-11-22, --size): heap_sort at 6 takes MultiSE 71 s (DSE 27 s),
# linked_list at 7 DSE 71 s (MultiSE 3.8 s), bst at 6 DSE 83 s (MultiSE 0.6 s),
# priority_queue at 8 DSE 20 s (MultiSE 4.5 s); pl0_parser at 7 DSE 15 s (MultiSE 144 s).
PROGRAMS: list[Program] = [
    Program("find_max", "Find Max", 13, 14, inputs="xs: list[int]"),
    Program("kadane", "Kadane Subarray", 9, inputs="xs: list[int]"),
    Program("array_index", "Array Index", 7, inputs="xs: list[int], k: int"),
    Program("calc_parser", "Calc Parser", 8, inputs="toks: list[int]"),
    Program("stack", "Stack", 10, inputs="ops: list[int]"),
    Program("queue", "Queue", 10, inputs="ops: list[int]"),
    Program("heap_sort", "Heap Sort", 5, inputs="xs: list[int]"),
    Program("quick_sort", "Quick Sort", 6, inputs="xs: list[int]"),
    Program("pl0_parser", "PL/0 Parser", 6, inputs="toks: list[int]"),
    Program("linked_list", "Linked List", 6, inputs="xs: list[int], k: int"),
    Program("priority_queue", "Priority Queue", 7, inputs="ops: list[int]"),
    Program("bst", "Binary Search Tree", 5, inputs="keys: list[int], k: int"),
    Program("symbolic_arith", "Symbolic Arithmetic", 6, inputs="toks: list[int], x: int"),
    Program("bdd", "BDD", 10, inputs="table: list[int], probe: int"),
    Program("red_black", "Red Black", 6, inputs="keys: list[int]"),
    Program("no_sharing", None, 10, inputs="xs: list[int]"),
    Program("no_sharing_values", None, 12, 14, inputs="xs: list[int]"),
]

CONTROLS = ("no_sharing", "no_sharing_values")
CONTROL_TARGET = 1.5


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


@dataclass
class Measure:
    engine: str
    time_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    kinds: frozenset = frozenset()
    paths: int = 0
    complete: bool = False
    error: str | None = None
    bad_inputs: int | None = None  # paths whose reported input violates their own condition
    max_cell_entries: int | None = None  # MultiSE: most entries of one heap cell's summary at the end
    max_var_entries: int | None = None  # MultiSE: most entries of one variable's summary at the end


def outcome_kind(path: Any) -> tuple[Any, ...]:
    if path.outcome == "return":
        return ("return",)
    if path.outcome == "raise":
        return ("raise", path.exception, path.line)
    if path.outcome == "cut":
        return ("cut", path.reason, path.line)
    return (path.outcome,)


def options_for(program: Program, engine: str, timeout: float) -> Any:
    from pathloom.options import Options

    return Options(
        engine=engine, strategy=None, timeout=timeout, max_list_len=program.max_list_len, max_iterations=program.max_iterations, max_depth=program.max_depth
    )


def run_one(program: Program, engine: str, timeout: float, check_inputs: bool) -> Measure:
    """One fresh exploration (what ``pathloom.api.explore`` does, keeping the engine to read
    MultiSE's final state sizes after the clock stops)."""
    from pathloom.api import Run
    from pathloom.frontend.module import load_module

    m = Measure(engine)
    path = os.path.join(PROGRAMS_DIR, program.name + ".py")
    start = time.perf_counter()
    try:
        run = Run(load_module(path), program.name, options_for(program, engine, timeout))
        for _ in run.results():
            pass
        e = run.exploration
    except Exception as exc:  # noqa: BLE001 - one failing program must not stop the table
        m.time_s = time.perf_counter() - start
        m.error = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
        return m
    m.time_s = time.perf_counter() - start
    m.stats = dict(e.stats)
    m.kinds = frozenset(outcome_kind(p) for p in e.paths)
    m.paths = len(e.paths)
    m.complete = e.complete
    if check_inputs:
        m.bad_inputs = sum(1 for p in e.paths if p.inputs is not None and not e.holds(p, p.inputs))
    cells = getattr(run.engine, "cells", None)
    if isinstance(cells, dict):
        m.max_cell_entries = max((len(v) for v in cells.values()), default=0)
        m.max_var_entries = max((len(v) for v in getattr(run.engine, "vars", {}).values()), default=0)
    return m


def warm_up() -> None:
    from pathloom.api import explore_source
    from pathloom.options import Options

    source = "def f(x: int, y: int) -> int:\n    if x > y:\n        return x - y\n    return y\n"
    for engine in ("dse", "multise"):
        explore_source(source, "f", Options(engine=engine, strategy=None))


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def header(argv: Sequence[str], markdown: bool) -> list[str]:
    return machine.header(
        argv,
        markdown,
        (
            f"nproc {machine.nproc()}, {machine.cpu_model()}, Python {platform.python_version()}, "
            f"z3 {machine.z3_version('?')}, pathloom at {machine.git_revision()}, {machine.load_average()} at start"
        ),
    )


COLUMNS = [
    "program",
    "size",
    "DSE s",
    "MultiSE s",
    "speedup",
    "DSE instr",
    "MultiSE instr",
    "instr ratio",
    "solver calls DSE/MSE",
    "MSE solver % (paper)",
    "MSE BDD %",
    "avg VS size",
    "share factor (paper)",
    "paper speedup",
    "paper instr ratio",
    "agree",
]

# Slide 67 again: the solver's share of MultiSE's time (%) and the average value-summary
# share factor, per kind (the 4th and 6th numbers of each row).
PAPER_SOLVER_SHARE: dict[str, tuple[float, float]] = {
    "Find Max": (97.9, 23.0),
    "Kadane Subarray": (98.4, 3.2),
    "Array Index": (93.4, 9.1),
    "Calc Parser": (90.2, 9.8),
    "Stack": (89.0, 7.7),
    "Queue": (93.1, 5.4),
    "Heap Sort": (96.7, 5.6),
    "Quick Sort": (94.6, 7.1),
    "PL/0 Parser": (80.4, 45.8),
    "Linked List": (95.1, 5.3),
    "Priority Queue": (92.3, 31.5),
    "Binary Search Tree": (96.6, 9.4),
    "Symbolic Arithmetic": (82.3, 39.3),
    "BDD": (19.6, 6.4),
    "Red Black": (88.0, 43.6),
}


def _ratio(a: float, b: float) -> str:
    if not b:
        return "-"
    r = a / b
    return f"{r:.2f}x" if r < 10 else f"{r:.1f}x"


def _share(factor: float | None) -> str:
    """The sharing factor, or ``-`` when MultiSE did not compute it (guards too large)."""
    return "-" if factor is None else f"{factor:.1f}"


def _paper_share(program: Program, i: int) -> str:
    found = PAPER_SOLVER_SHARE.get(program.kind or "")
    return f"{found[i]}" if found else "-"


def row(program: Program, dse: Measure, mse: Measure) -> list[str]:
    paper = PAPER.get(program.kind or "")
    paper_speedup = f"{paper[2]}x" if paper else "(control)"
    paper_ops = f"{paper[3]}x" if paper else "-"
    if paper and paper[4]:
        paper_speedup += " (?)"
    size = f"len<={program.max_list_len}"
    if dse.error or mse.error:
        which = "DSE" if dse.error else "MultiSE"
        cells = [program.name, size] + [f"{which} failed"] + [""] * (len(COLUMNS) - 6) + [paper_speedup, paper_ops, "no"]
        assert len(cells) == len(COLUMNS)
        return cells
    ds, ms = dse.stats, mse.stats
    agree = dse.kinds == mse.kinds
    flag = "" if dse.complete and mse.complete else " (incomplete)"
    return [
        program.name,
        size,
        f"{dse.time_s:.2f}",
        f"{mse.time_s:.2f}",
        _ratio(dse.time_s, mse.time_s),
        str(ds.get("instructions")),
        str(ms.get("instructions")),
        _ratio(ds.get("instructions", 0), ms.get("instructions", 0)),
        f"{ds.get('solver_calls')}/{ms.get('solver_calls')}",
        f"{ms.get('solver_time_pct', 0):.1f} ({_paper_share(program, 0)})",
        f"{ms.get('bdd_time_pct', 0):.1f}",
        f"{ms.get('avg_summary_size', 0):.2f}",
        f"{_share(ms.get('sharing_factor', 0))} ({_paper_share(program, 1)})",
        paper_speedup,
        paper_ops,
        ("yes" if agree else "no") + flag,
    ]


def render(rows: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
        return lines + ["| " + " | ".join(r) + " |" for r in rows]
    widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) for i in range(len(COLUMNS))]

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [fmt(COLUMNS), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def detail_lines(program: Program, dse: Measure, mse: Measure, check_inputs: bool) -> list[str]:
    """One line per program with the numbers that do not fit in the table."""
    if dse.error or mse.error:
        return [f"- {program.name}: DSE error {dse.error!r}, MultiSE error {mse.error!r}"]
    ms = mse.stats
    bits = [
        f"DSE {dse.paths} paths{'' if dse.complete else ' INCOMPLETE'}",
        f"MultiSE {mse.paths} results{'' if mse.complete else ' INCOMPLETE'}",
        f"solver time DSE {dse.stats.get('solver_time_s', 0):.2f}s / MultiSE {ms.get('solver_time_s', 0):.2f}s",
        (
            f"MultiSE BDD {ms.get('bdd_time_s', 0):.2f}s ({ms.get('bdd_ops')} ops), pc merges {ms.get('pc_merges')}, "
            f"variable merges saved {ms.get('variable_merges_saved')}, final summary entries {ms.get('final_summary_entries')}"
        ),
        f"largest final summaries: heap cell {mse.max_cell_entries} entries, variable {mse.max_var_entries} entries",
    ]
    if check_inputs:
        bits.append(f"inputs violating their own path condition: DSE {dse.bad_inputs}, MultiSE {mse.bad_inputs}")
    line = f"- {program.name}: " + "; ".join(bits)
    if dse.kinds != mse.kinds:
        line += f"; DISAGREE: only DSE {sorted(map(str, dse.kinds - mse.kinds))}, only MultiSE {sorted(map(str, mse.kinds - dse.kinds))}"
    return [line]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="GitHub markdown table")
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds per exploration (default 150)")
    parser.add_argument("--check-inputs", action="store_true", help="also count paths whose reported input does not satisfy their own path condition")
    parser.add_argument("--profile", metavar="NAME", help="cProfile MultiSE on one program instead (top 30 by cumulative time)")
    parser.add_argument("--size", action="append", default=[], metavar="NAME=N", help="explore NAME with max_list_len N instead of its table size (repeatable)")
    docs_writer.add_options(parser)
    args = parser.parse_args(argv)
    chosen = PROGRAMS
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in {p.name for p in PROGRAMS}]
        if unknown:
            parser.error(f"unknown program(s): {', '.join(unknown)}")
        chosen = [p for p in PROGRAMS if p.name in names]
    for item in args.size:
        name, _, n = item.partition("=")
        if name not in {p.name for p in PROGRAMS} or not n.isdigit():
            parser.error(f"--size expects NAME=N with a known NAME, got {item!r}")
        chosen = [replace(p, max_list_len=int(n), max_iterations=max(p.max_iterations, int(n) + 2)) if p.name == name else p for p in chosen]

    if args.profile:
        import cProfile
        import pstats

        (program,) = [p for p in PROGRAMS if p.name == args.profile]
        warm_up()
        profiler = cProfile.Profile()
        profiler.enable()
        m = run_one(program, "multise", args.timeout, False)
        profiler.disable()
        print(f"{program.name}: MultiSE {m.time_s:.2f}s {m.stats}")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        return 0

    script = sys.argv[0] or os.path.join(HERE, "multise_table.py")
    doc = docs_writer.Recorder(args, "multise-table", title="DSE and MultiSE on the MultiSE paper's kinds of program", argv=[script] + argv)
    body: list[str] = []  # what goes into the docs (the header line aside: the docs' own header says it)

    def out(line: str = "") -> None:
        print(line, flush=True)
        body.append(line)

    for line in header([os.path.relpath(script)] + argv, args.markdown):
        print(line, flush=True)
    warm_up()
    total_start = time.perf_counter()
    results: list[tuple[Program, Measure, Measure]] = []
    for program in chosen:
        dse = run_one(program, "dse", args.timeout, args.check_inputs)
        mse = run_one(program, "multise", args.timeout, args.check_inputs)
        results.append((program, dse, mse))
        print(f"  {program.name}: DSE {dse.time_s:.2f}s, MultiSE {mse.time_s:.2f}s", file=sys.stderr, flush=True)
    total = time.perf_counter() - total_start

    for line in render([row(p, d, m) for p, d, m in results], args.markdown):
        out(line)
    out()
    out(f"Total time of the explorations: {total:.1f}s.")
    paper_rows = [(p, d, m) for p, d, m in results if p.kind and not (d.error or m.error)]
    if paper_rows:
        speedups = [d.time_s / m.time_s for _, d, m in paper_rows if m.time_s]
        ratios = [d.stats["instructions"] / m.stats["instructions"] for _, d, m in paper_rows if m.stats.get("instructions")]
        out(
            f"Paper kinds: speedup {min(speedups):.2f}x to {max(speedups):.1f}x (paper 1.3x to 87.7x), "
            f"instruction ratio {min(ratios):.1f}x to {max(ratios):.1f}x (paper 2.7x to 47.5x); "
            f"MultiSE faster on {sum(1 for s in speedups if s > 1)} of {len(speedups)}."
        )
        reached = [p.name for p, d, m in paper_rows if m.time_s and d.time_s / m.time_s >= PAPER[p.kind or ""][2]]
        out(f"Speedup at least the paper's on {len(reached)} of {len(paper_rows)}: {', '.join(reached)}.")
        solver_major = [p.name for p, _, m in paper_rows if m.stats.get("solver_time_pct", 0) > 50]
        out(f"Solver time over half of MultiSE's time on {len(solver_major)} of {len(paper_rows)}" + (f": {', '.join(solver_major)}." if solver_major else "."))
    for p, d, m in results:
        if p.name in CONTROLS and not (d.error or m.error) and d.time_s:
            cost = m.time_s / d.time_s
            verdict = "within" if cost <= CONTROL_TARGET else "ABOVE"
            out(
                f"Control {p.name}: MultiSE/DSE cost ratio {cost:.2f}x ({verdict} the {CONTROL_TARGET}x target); "
                f"instructions MultiSE/DSE {m.stats.get('instructions', 0) / max(1, d.stats.get('instructions', 1)):.2f}."
            )
    out()
    out("Per program:")
    if args.markdown:
        out()  # markdown starts a list after a blank line
    for p, d, m in results:
        for line in detail_lines(p, d, m, args.check_inputs):
            out(line)

    failed = [
        p.name
        for p, d, m in results
        if d.error or m.error or d.kinds != m.kinds or not (d.complete and m.complete) or (d.bad_inputs or 0) + (m.bad_inputs or 0) > 0
    ]
    if failed:
        out()
        out(f"WARNING: disagreement, failure, incomplete exploration or inputs violating their own path condition on: {', '.join(failed)}")
    doc.write(body)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
