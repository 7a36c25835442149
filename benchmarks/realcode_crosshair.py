"""pathloom next to CrossHair on a sample of the real-code benchmark's targets (algorithms==1.0.1).

Usage: python benchmarks/realcode_crosshair.py [--workdir DIR] [--sample N] [--filter SUBSTR]
       [--timeout S] [--pytest-timeout S] [--per-target] [--markdown] [--json OUT]
       [--write-docs [--docs-file PATH]]

The targets, the scratch venv (``DIR/venv``) and the pathloom snapshot of HEAD are those of
``realcode.py`` (imported, not copied).  ``--sample N`` takes every k-th target of
``find_targets``' order, k = max(1, len // N), the first N of them (after ``--filter``).  For
each target both tools run in child processes with the same budget S (``--timeout``):

* pathloom: ``realcode.run_target``, i.e. ``python -m pathloom explore FILE::NAME --verify
  --tests ... --json ... --quiet --timeout S`` (killed at S + 30 s);
* CrossHair: ``python -m crosshair cover --example_output_format=pytest --coverage_type=path
  --per_condition_timeout S MODULE.QUALNAME`` (killed at S + 30 s); its stdout, a pytest file,
  is saved.

Each tool's test file then runs under ``coverage run --branch --source=<package dir> -m
pytest`` (with a JUnit XML report for the per-test outcomes).  Measured per tool and target:
branches (coverage.py arcs) whose source line lies in the target's ``def`` (ast ``lineno`` ..
``end_lineno``), executed / total; generated tests passed / failed / errors; bugs: distinct
exception types expected by a ``pytest.raises`` test that passes, the type a builtin exception
(AssertionError aside) that no ``raise`` statement of the target's module names; the wall time
of the tool's process.  Files go to ``DIR/crosshair-run/`` (emptied at the start).

``--write-docs`` writes the tables into the section ``realcode-crosshair`` of docs/benchmarks.md
(``--docs-file PATH``: another page), under a header with the command, date, machine, commit
and versions, crosshair-tool's and coverage's in the scratch venv included
(benchmarks/docs_writer.py).
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import platform
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import docs_writer  # benchmarks/docs_writer.py
import machine  # benchmarks/machine.py, found through the sys.path entry above
import realcode
from realcode import (
    EXPLORED,
    HARD_KILL_GRACE_S,
    PACKAGE,
    Runner,
    SetupError,
    Target,
    ensure_venv,
    find_targets,
    read_json,
    run_child,
    run_target,
    snapshot,
    venv_python,
)

PATHLOOM = "pathloom"
CROSSHAIR = "CrossHair"
TOOLS = (PATHLOOM, CROSSHAIR)
# Exception types that say "a precondition failed" as much as "a bug": not counted.
NOT_BUGS = frozenset({"AssertionError"})


# --------------------------------------------------------------------------
# Pure parts (unit-tested in tests/unit/test_realcode_crosshair.py)
# --------------------------------------------------------------------------


def sample(targets: Sequence[Target], n: int) -> list[Target]:
    """Every k-th target, k = max(1, len // n), the first n of them: deterministic and spread
    over the whole package."""
    if n <= 0:
        return []
    step = max(1, len(targets) // n)
    return list(targets[::step][:n])


def def_range(source: str, qualname: str) -> tuple[int, int] | None:
    """Lines ``lineno`` .. ``end_lineno`` of the top-level function or ``Cls.method`` named
    ``qualname`` (the last definition of that name, as ``find_targets`` sees it)."""
    found = None
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == qualname:
            found = node
        elif isinstance(node, ast.ClassDef) and qualname.startswith(node.name + "."):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and (f"{node.name}.{item.name}" == qualname):
                    found = item
    if found is None or found.end_lineno is None:
        return None
    return found.lineno, found.end_lineno


def branches_in(file_report: dict[str, Any], lines: tuple[int, int]) -> tuple[int, int]:
    """(executed, total) branches of one file of a ``coverage json`` report whose source line
    lies in ``lines`` (inclusive)."""
    lo, hi = lines

    def inside(arcs: list[list[int]]) -> int:
        return sum(1 for src, _ in arcs if lo <= src <= hi)

    executed = inside(file_report.get("executed_branches") or [])
    return executed, executed + inside(file_report.get("missing_branches") or [])


def _name(node: ast.expr) -> str | None:
    """The last component of a name or dotted name (``IndexError``, ``_module.Error``)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def explicit_raises(source: str) -> set[str]:
    """The exception names of every ``raise X`` / ``raise X(...)`` statement of a module."""
    return {
        name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Raise) and node.exc is not None for name in [_name(node.exc)] if name is not None
    }


def expected_exceptions(test_source: str) -> dict[str, tuple[str, str]]:
    """Test function name to the exception type its ``with pytest.raises(X...)`` or its
    ``@pytest.mark.xfail(strict=True, raises=X)`` (pathloom's form of a possible bug) expects,
    with the JUnit outcome that confirms it (``passed``; ``skipped`` for an xfail)."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(test_source).body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test")):
            continue
        for mark in node.decorator_list:
            if isinstance(mark, ast.Call) and _name(mark.func) == "xfail":
                keywords = {k.arg: k.value for k in mark.keywords}
                strict = keywords.get("strict")
                if isinstance(strict, ast.Constant) and strict.value is True and "raises" in keywords and (name := _name(keywords["raises"])) is not None:
                    found[node.name] = (name, "skipped")
        for sub in ast.walk(node):
            if isinstance(sub, (ast.With, ast.AsyncWith)):
                for item in sub.items:
                    call = item.context_expr
                    if isinstance(call, ast.Call) and _name(call.func) == "raises" and call.args and (name := _name(call.args[0])) is not None:
                        found.setdefault(node.name, (name, "passed"))
    return found


def count_tests(test_source: str) -> int:
    return sum(1 for node in ast.parse(test_source).body if isinstance(node, ast.FunctionDef) and node.name.startswith("test"))


def is_implicit_builtin(exception: str, explicit: set[str]) -> bool:
    """A builtin exception type, not AssertionError, that the module never raises explicitly."""
    cls = getattr(builtins, exception, None)
    return isinstance(cls, type) and issubclass(cls, BaseException) and exception not in NOT_BUGS and exception not in explicit


def junit_outcomes(xml_text: str) -> dict[str, str]:
    """Test name to ``passed``, ``failed``, ``error`` or ``skipped`` from pytest's JUnit XML;
    a collection error is an ``error`` named after the file."""
    outcomes: dict[str, str] = {}
    for case in ET.fromstring(xml_text).iter("testcase"):
        kinds = {child.tag for child in case}
        outcome = next(
            (o for tag, o in (("error", "error"), ("failure", "failed"), ("skipped", "skipped")) if tag in kinds),
            "passed",
        )
        outcomes[case.get("name", "?")] = outcome
    return outcomes


def bugs_found(test_source: str, outcomes: dict[str, str], explicit: set[str]) -> list[str]:
    """Distinct exception types of the passing ``pytest.raises`` tests (the xfailed strict
    ``xfail(raises=...)`` tests) that are bugs."""
    return sorted(
        {exc for test, (exc, confirmed) in expected_exceptions(test_source).items() if outcomes.get(test) == confirmed and is_implicit_builtin(exc, explicit)}
    )


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


# --------------------------------------------------------------------------
# Running the tools and the tests
# --------------------------------------------------------------------------


@dataclass
class ToolResult:
    exit_code: int | None = None  # None: killed
    status: str = ""  # pathloom: realcode's category; CrossHair: ok, exit N, killed
    time_s: float = 0.0  # wall time of the tool's process
    tests_file: str | None = None
    tests: int = 0  # test functions in the generated file
    took: bool = False  # exited normally and generated at least one test
    passed: int = 0
    failed: int = 0
    errors: int = 0  # collection errors included
    branches_covered: int = 0
    branches_total: int | None = None  # None: no coverage report
    bugs: list[str] = field(default_factory=list)
    detail: list[str] = field(default_factory=list)
    tests_time_s: float = 0.0


@dataclass
class Row:
    target: str
    lines: tuple[int, int] | None
    pathloom: ToolResult
    crosshair: ToolResult
    branches_total: int | None = None
    pathloom_json_implicit: list[str] = field(default_factory=list)  # cross-check of the bugs

    def tool(self, name: str) -> ToolResult:
        return self.pathloom if name == PATHLOOM else self.crosshair


@dataclass(frozen=True)
class Context:
    python: str
    rundir: str  # DIR/crosshair-run
    env: dict[str, str]
    timeout: float
    pytest_timeout: float
    package_dir: str


def _run(cmd: list[str], ctx: Context, timeout: float, stdout: Any) -> tuple[int | None, str, float]:
    return run_child(cmd, ctx.rundir, ctx.env, timeout, stdout=stdout)


def crosshair_target(t: Target) -> str:
    module = (PACKAGE + "/" + t.module[: -len(".py")]).replace("/", ".")
    module = module.removesuffix(".__init__")
    return f"{module}.{t.name}"


def run_crosshair(t: Target, ctx: Context) -> ToolResult:
    tests_file = os.path.join(ctx.rundir, "by-crosshair", f"test_{t.slug}.py")
    cmd = [
        ctx.python,
        "-m",
        "crosshair",
        "cover",
        "--example_output_format=pytest",
        "--coverage_type=path",
        "--per_condition_timeout",
        str(ctx.timeout),
        crosshair_target(t),
    ]
    with open(tests_file, "w", encoding="utf-8") as out:
        code, stderr, elapsed = _run(cmd, ctx, ctx.timeout + HARD_KILL_GRACE_S, out)
    result = ToolResult(exit_code=code, time_s=elapsed, tests_file=tests_file)
    result.status = "killed" if code is None else ("ok" if code == 0 else f"exit {code}")
    result.detail = [line for line in stderr.splitlines() if line.strip()][-3:]
    result.took = code == 0
    return result


def run_pathloom(t: Target, ctx: Context) -> tuple[ToolResult, list[str]]:
    runner = Runner(ctx.python, os.path.join(ctx.rundir, "by-pathloom"), ctx.env, ctx.timeout, "dse")
    row = run_target(t, runner)
    result = ToolResult(
        exit_code=row.exit_code,
        status=row.category,
        time_s=row.time_s,
        tests_file=row.tests_file,
        detail=row.detail[:3],
        took=row.category == EXPLORED,
    )
    data = read_json(os.path.join(runner.rundir, "json", f"{t.slug}.json")) or {}
    implicit = sorted({str(p.get("exception")) for p in data.get("paths") or [] if p.get("outcome") == "raise" and p.get("kind") == "implicit"})
    return result, implicit


def measure(
    t: Target,
    tool: str,
    result: ToolResult,
    lines: tuple[int, int] | None,
    explicit: set[str],
    ctx: Context,
) -> None:
    """Run ``result.tests_file`` under coverage.py; fill in tests, outcomes, branches, bugs."""
    source = ""
    if result.tests_file and os.path.exists(result.tests_file):
        with open(result.tests_file, encoding="utf-8", errors="replace") as f:
            source = f.read()
    try:
        result.tests = count_tests(source)
    except SyntaxError:
        result.tests = 0
        result.detail.append("the generated test file does not parse")
    result.took = result.took and result.tests > 0
    if not result.tests:
        return
    assert result.tests_file is not None
    stem = os.path.join(ctx.rundir, "coverage", f"{tool}_{t.slug}")
    junit = stem + ".xml"
    run = [
        ctx.python,
        "-m",
        "coverage",
        "run",
        "--branch",
        f"--source={ctx.package_dir}",
        f"--data-file={stem}.coverage",
        "-m",
        "pytest",
        "-c",
        os.path.join(ctx.rundir, "pytest.ini"),
        "-q",
        "-p",
        "no:cacheprovider",
        f"--junitxml={junit}",
        result.tests_file,
    ]
    code, _, result.tests_time_s = _run(run, ctx, ctx.pytest_timeout, subprocess.DEVNULL)
    if code is None:
        result.detail.append(f"tests killed after {ctx.pytest_timeout:.0f}s")
    report = [
        ctx.python,
        "-m",
        "coverage",
        "json",
        f"--data-file={stem}.coverage",
        "-o",
        stem + ".json",
    ]
    _run(report, ctx, 300, subprocess.DEVNULL)
    try:
        with open(junit, encoding="utf-8") as f:
            outcomes = junit_outcomes(f.read())
    except (OSError, ET.ParseError):
        outcomes = {}
    values = list(outcomes.values())
    result.passed, result.failed = values.count("passed"), values.count("failed")
    result.errors = values.count("error")
    try:
        result.bugs = bugs_found(source, outcomes, explicit)
    except SyntaxError:
        result.bugs = []
    try:
        with open(stem + ".json", encoding="utf-8") as f:
            files = json.load(f)["files"]
    except (OSError, ValueError, KeyError):
        files = {}
    file_report = files.get(t.path)
    if file_report is not None and lines is not None:
        result.branches_covered, result.branches_total = branches_in(file_report, lines)


def run_one(t: Target, ctx: Context) -> Row:
    with open(t.path, encoding="utf-8") as f:
        module_source = f.read()
    lines = def_range(module_source, t.name)
    explicit = explicit_raises(module_source)
    pathloom, implicit = run_pathloom(t, ctx)
    crosshair = run_crosshair(t, ctx)
    row = Row(t.label, lines, pathloom, crosshair, pathloom_json_implicit=implicit)
    for tool in TOOLS:
        measure(t, tool, row.tool(tool), lines, explicit, ctx)
    totals = {r.branches_total for r in (pathloom, crosshair) if r.branches_total is not None}
    if len(totals) > 1:  # coverage.py's static analysis should not differ between runs
        pathloom.detail.append(f"branch totals differ between the tools' reports: {sorted(totals)}")
    row.branches_total = max(totals) if totals else None
    return row


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def _covered(rows: list[Row], tool: str) -> tuple[int, int]:
    measured = [r for r in rows if r.branches_total is not None]
    return sum(r.tool(tool).branches_covered for r in measured), sum(r.branches_total or 0 for r in measured)


def _pct(covered: int, total: int) -> str:
    return f"{100.0 * covered / total:.1f}%" if total else "-"


def summary(rows: list[Row]) -> list[list[str]]:
    def line(label: str, values: Sequence[float], fmt: Callable[[float], str] = lambda v: f"{v:g}") -> list[str]:
        return [label, fmt(values[0]), fmt(values[1]), ratio(values[0], values[1])]

    both = [r for r in rows if r.pathloom.took and r.crosshair.took]
    cov = [_covered(rows, tool) for tool in TOOLS]
    cov_both = [_covered(both, tool) for tool in TOOLS]
    body = [
        line(
            "targets taken (exited normally, >= 1 test)",
            [sum(r.tool(t).took for r in rows) for t in TOOLS],
        ),
        ["targets taken by both", str(len(both)), str(len(both)), ""],
        [
            "branches covered / total (targets' own lines)",
            f"{cov[0][0]} / {cov[0][1]}",
            f"{cov[1][0]} / {cov[1][1]}",
            ratio(cov[0][0], cov[1][0]),
        ],
        ["branch coverage", _pct(*cov[0]), _pct(*cov[1]), ratio(cov[0][0], cov[1][0])],
        [
            "branch coverage on targets taken by both",
            _pct(*cov_both[0]),
            _pct(*cov_both[1]),
            ratio(cov_both[0][0], cov_both[1][0]),
        ],
        line(
            "bugs (target, implicit builtin exception; test passes)",
            [sum(len(r.tool(t).bugs) for r in rows) for t in TOOLS],
        ),
        line(
            "time of the tool processes",
            [sum(r.tool(t).time_s for r in rows) for t in TOOLS],
            lambda v: f"{v:.0f}s",
        ),
        line("tests generated", [sum(r.tool(t).tests for r in rows) for t in TOOLS]),
        [
            "tests passed / failed / errors",
            *(f"{sum(r.tool(t).passed for r in rows)} / {sum(r.tool(t).failed for r in rows)} / {sum(r.tool(t).errors for r in rows)}" for t in TOOLS),
            ratio(*(sum(r.tool(t).passed for r in rows) for t in TOOLS)),
        ],
        line(
            "killed at timeout + 30 s",
            [sum(r.tool(t).exit_code is None for r in rows) for t in TOOLS],
        ),
    ]
    return body


def per_target(rows: list[Row]) -> list[list[str]]:
    body = []
    for r in rows:
        cells = [r.target, str(r.branches_total if r.branches_total is not None else "?")]
        for tool in TOOLS:
            x = r.tool(tool)
            cells += [
                x.status + ("" if x.took else " (not taken)"),
                str(x.branches_covered) if x.branches_total is not None else "-",
                ", ".join(x.bugs) or "-",
                f"{x.passed}/{x.failed}/{x.errors}",
                f"{x.time_s:.1f}",
            ]
        body.append(cells)
    return body


PER_TARGET_HEAD = ["target", "branches"] + [f"{tool} {what}" for tool in ("pl", "xh") for what in ("status", "covered", "bugs", "p/f/e", "s")]


def report(rows: list[Row], markdown: bool, show_per_target: bool) -> list[str]:
    lines = realcode._table(
        ["measure", PATHLOOM, CROSSHAIR, "pathloom/CrossHair"],
        summary(rows),
        markdown,
        [False, True, True, True],
    )
    lines.append("")
    implicit = sum(len(r.pathloom_json_implicit) for r in rows)
    lines.append(
        f"pathloom's JSON lists {implicit} (target, exception) pairs of kind implicit (replayed by --verify); "
        "the bugs row applies the test-level rule to both tools."
    )
    lines.append("")
    found = [f"{r.target}: {exc} ({tool})" for r in rows for tool in TOOLS for exc in r.tool(tool).bugs]
    if found:
        lines += realcode._title("Bugs", markdown)
        lines += [(f"- `{item}`" if markdown else f"  {item}") for item in found] + [""]
    if show_per_target:
        lines += realcode._title(
            "Per target (pl = pathloom, xh = CrossHair; p/f/e = tests passed/failed/errors)",
            markdown,
        )
        lines += realcode._table(
            PER_TARGET_HEAD,
            per_target(rows),
            markdown,
            [False, True] + [False, True, False, True, True] * 2,
        )
        lines.append("")
    return lines


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def ensure_tools(python: str, log: Callable[[str], None]) -> dict[str, str]:
    """crosshair-tool and coverage in the scratch venv (pip-installed when absent); returns the
    versions of crosshair-tool, coverage and z3 there."""
    probe = (
        "import importlib.metadata as m, json, crosshair, coverage, z3\n"
        "print(json.dumps({'crosshair': m.version('crosshair-tool'), "
        "'coverage': coverage.__version__, 'z3': z3.get_version_string()}))"
    )

    def versions() -> dict[str, str] | None:
        proc = subprocess.run([python, "-c", probe], check=False, capture_output=True, text=True)
        return json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None

    found = versions()
    if found is None:
        log("pip install crosshair-tool coverage")
        proc = subprocess.run(
            [python, "-m", "pip", "install", "--quiet", "crosshair-tool", "coverage"],
            check=False,
            capture_output=True,
            text=True,
        )
        found = versions()
        if found is None:
            raise SetupError(f"installing crosshair-tool and coverage failed:\n{proc.stderr.strip()[-2000:]}")
    return found


def _rundir(workdir: str) -> str:
    rundir = realcode._rundir(
        workdir,
        "crosshair-run",
        ("by-pathloom/tests", "by-pathloom/json", "by-crosshair", "coverage"),
    )
    with open(os.path.join(rundir, "pytest.ini"), "w", encoding="utf-8") as f:
        f.write("[pytest]\n")  # keeps the repository's pytest settings out
    return rundir


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = realcode.shared_options(__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40, help="how many targets (default 40)")
    parser.add_argument("--timeout", type=float, default=20.0, help="per-target budget of each tool (default 20)")
    parser.add_argument(
        "--pytest-timeout",
        type=float,
        default=600.0,
        help="seconds for one tool's tests of one target under coverage (default 600)",
    )
    parser.add_argument("--per-target", action="store_true", help="also the per-target table")
    args = parser.parse_args(argv)
    script = sys.argv[0] or os.path.join(HERE, "realcode_crosshair.py")
    doc = docs_writer.Recorder(args, "realcode-crosshair", title="pathloom and CrossHair side by side on real code", argv=[script] + argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    python = venv_python(os.path.join(workdir, "venv"))
    try:
        found = ensure_venv(os.path.join(workdir, "venv"), log)
        tools = ensure_tools(python, log)
        env["PYTHONPATH"], short = snapshot(workdir)
    except SetupError as exc:
        log(f"realcode_crosshair: cannot set up the scratch environment: {exc}")
        return 2
    targets, _, _ = find_targets(found["package"])
    if args.filter:
        targets = [t for t in targets if args.filter in t.label]
    chosen = sample(targets, args.sample)
    log(f"{len(chosen)} of {len(targets)} target(s)")
    ctx = Context(python, _rundir(workdir), env, args.timeout, args.pytest_timeout, found["package"])
    load = machine.load_average()
    rows = []
    for i, t in enumerate(chosen, 1):
        row = run_one(t, ctx)
        rows.append(row)
        log(
            f"[{i}/{len(chosen)}] {t.label}: branches {row.branches_total}; "
            + "; ".join(
                f"{tool} {x.status} {x.branches_covered} covered, {x.tests} tests, bugs {x.bugs or '-'}, {x.time_s:.1f}s"
                for tool in TOOLS
                for x in [row.tool(tool)]
            )
        )
    header = machine.header(
        [script] + argv,
        args.markdown,
        (
            f"nproc {machine.nproc()}, {machine.cpu_model()}, Python {platform.python_version()}, "
            f"pathloom at {short} (snapshot of HEAD), crosshair-tool {tools['crosshair']}, "
            f"z3 {tools['z3']}, coverage {tools['coverage']}, {PACKAGE} {found['version']}, "
            f"{len(chosen)} of {len(targets)} targets, budget {args.timeout:g}s, {load} at start"
        ),
    )
    body = report(rows, args.markdown, args.per_target) + [f"Files of this run: {ctx.rundir}"]
    for line in header + body:
        print(line)
    doc.extra_versions += [
        ("crosshair-tool", tools["crosshair"]),
        ("coverage", tools["coverage"]),
        ("z3 in the scratch venv", tools["z3"]),
        (PACKAGE, found["version"]),
    ]
    doc.notes.append(f"pathloom ran from {short} (snapshot of HEAD); {len(chosen)} of {len(targets)} targets, budget {args.timeout:g}s per tool and target")
    doc.write(body)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": [asdict(r) for r in rows], "timeout": args.timeout}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
