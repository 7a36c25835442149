"""pathloom, CrossHair and Pynguin side by side on whole modules of real packages.

Usage: python benchmarks/peers.py [--workdir DIR] [--budget S] [--packages P,...] [--filter SUBSTR]
       [--sample N] [--tools pathloom,crosshair,pynguin] [--pynguin-venv DIR] [--pynguin-python PY]
       [--markdown] [--json OUT] [--write-docs [--docs-file PATH]]

Setup, once per workdir (reused when present):

* ``DIR/subjects``: the subject packages, ``pip install --target``: ``algorithms==1.0.1`` and the
  subjects of Pynguin's own evaluation that are on PyPI (``SUBJECTS``);
* ``DIR/venv``: this interpreter's Python with pathloom (editable, this checkout), crosshair-tool,
  pytest and coverage: it runs pathloom and CrossHair and evaluates every tool's tests;
* ``--pynguin-venv`` (default ``DIR/pynguin-venv``): a Python 3.10 (``--pynguin-python``) with
  ``pynguin`` (``PYNGUIN``).

The modules: every ``.py`` file of the chosen packages that defines a function or a class
(``--filter``: the module names containing SUBSTR; ``--sample N``: every k-th, as
realcode_crosshair samples). For each module, one tool at a time, each with the same wall budget S
(``--budget``, default 60):

* pathloom: ``python -m pathloom explore FILE --tests T --file-timeout S --quiet`` (the budget
  shared among the module's targets, search included), killed at S + 30 s;
* CrossHair: ``python -m crosshair cover MODULE --coverage_type=opcode --example_output_format=pytest
  --per_condition_timeout S/n`` (n: the module's functions and methods), killed at S + 30 s;
* Pynguin: ``pynguin --project-path DIR/subjects --module-name MODULE --algorithm DYNAMOSA --seed 0
  --maximum-search-time S``, killed at S + 120 s (its start-up and test minimisation).

Each tool's test file is then evaluated the same way in ``DIR/venv`` (``PYTHONPATH=DIR/subjects``):
pytest with a JUnit report, then ``coverage run --branch --include=FILE`` over the passing tests
only (the failing and erroring ones deselected): the module's branches (coverage.py's branch
arcs) they cover. Bugs: the builtin exception types (not AssertionError) that the module never
raises explicitly, expected by a passing ``pytest.raises`` test or an xfailed strict
``xfail(raises=...)`` (realcode_crosshair.bugs_found). ``--write-docs`` writes the tables into the
section ``peers`` of docs/benchmarks.md with the command, date, machine and versions.
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import docs_writer  # benchmarks/docs_writer.py
from realcode import run_child
from realcode_crosshair import bugs_found, count_tests, explicit_raises, junit_outcomes, sample

SUBJECTS = {  # distribution pin -> the import packages it provides
    "algorithms==1.0.1": ["algorithms"],
    "python-string-utils==1.0.0": ["string_utils"],
    "flutils==0.7": ["flutils"],
    "codetiming==1.4.0": ["codetiming"],
    "docstring-parser==0.7.3": ["docstring_parser"],
    "pypara==0.0.24": ["pypara"],
}
PYNGUIN = "pynguin==0.40.0"
TOOLS = ("pathloom", "crosshair", "pynguin")
KILL_GRACE_S = {"pathloom": 30.0, "crosshair": 30.0, "pynguin": 120.0}
PYTEST_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class Module:
    name: str  # dotted import name
    path: str
    callables: int  # top-level functions and methods


@dataclass
class Outcome:
    tool: str
    status: str = ""  # ok, exit N, killed, no tests
    time_s: float = 0.0
    tests: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    covered: int = 0
    bugs: list[str] = field(default_factory=list)
    detail: str = ""


@dataclass
class Row:
    module: str
    branches: int | None = None
    tools: dict[str, Outcome] = field(default_factory=dict)


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def find_modules(subjects: str, packages: Sequence[str]) -> list[Module]:
    found = []
    for package in packages:
        for path in sorted(glob.glob(os.path.join(subjects, package, "**", "*.py"), recursive=True)):
            try:
                tree = ast.parse(open(path, encoding="utf-8").read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            callables = sum(1 for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
            callables += sum(1 for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
            if not callables:
                continue
            name = os.path.relpath(path, subjects)[: -len(".py")].replace(os.sep, ".").removesuffix(".__init__")
            found.append(Module(name, path, callables))
    return found


def _pip(python: str, args: list[str], what: str) -> None:
    log(f"pip install {' '.join(args)}")
    proc = subprocess.run([python, "-m", "pip", "install", "--quiet", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"installing {what} failed:\n" + "\n".join(proc.stderr.strip().splitlines()[-10:]))


def setup(workdir: str, pynguin_venv: str, pynguin_python: str | None, tools: Sequence[str]) -> dict[str, str]:
    """The environments (created when missing); the tools' versions."""
    subjects, venv = os.path.join(workdir, "subjects"), os.path.join(workdir, "venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.isdir(subjects):
        _pip(sys.executable, ["--target", subjects, *SUBJECTS], "the subject packages")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        _pip(python, ["-e", ROOT, "crosshair-tool", "pytest", "coverage"], "pathloom, CrossHair, pytest and coverage")
    versions = {"pathloom": docs_writer.commit()}
    for dist in ("crosshair-tool", "coverage", "pytest"):
        versions[dist] = _version(python, dist)
    if "pynguin" in tools:
        pyn = os.path.join(pynguin_venv, "bin", "python")
        if not os.path.exists(pyn):
            if pynguin_python is None:
                raise SystemExit("Pynguin needs Python 3.10: give --pynguin-python PATH (or --pynguin-venv of an existing one)")
            subprocess.run([pynguin_python, "-m", "venv", pynguin_venv], check=True)
            _pip(pyn, [PYNGUIN], "Pynguin")
        versions["pynguin"] = _version(pyn, "pynguin")
    for dist in SUBJECTS:
        versions[dist.split("==")[0]] = dist.split("==")[1]
    return versions


def _version(python: str, dist: str) -> str:
    proc = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version({dist!r}))"], capture_output=True, text=True)
    return proc.stdout.strip() or "?"


def run_tool(tool: str, module: Module, ctx: dict[str, str], budget: float) -> tuple[Outcome, str | None]:
    """Run one tool on one module: its outcome so far and its test file (None: none written)."""
    out_dir = os.path.join(ctx["rundir"], tool, module.name)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    env = dict(os.environ, PYTHONPATH=ctx["subjects"])
    tests: str | None = os.path.join(out_dir, f"test_{module.name.replace('.', '_')}.py")
    stdout = subprocess.DEVNULL
    if tool == "pathloom":
        cmd = [ctx["python"], "-m", "pathloom", "explore", module.path, "--tests", tests, "--file-timeout", f"{budget:g}", "--quiet"]
    elif tool == "crosshair":
        per = max(1.0, budget / max(1, module.callables))
        cmd = [ctx["python"], "-m", "crosshair", "cover", module.name, "--coverage_type=opcode", "--example_output_format=pytest"]
        cmd += ["--per_condition_timeout", f"{per:g}"]
        stdout = open(tests, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    else:
        env["PYNGUIN_DANGER_AWARE"] = "1"
        cmd = [ctx["pynguin"], "--project-path", ctx["subjects"], "--module-name", module.name, "--output-path", out_dir]
        cmd += ["--algorithm", "DYNAMOSA", "--seed", "0", "--maximum-search-time", f"{budget:g}"]
    try:
        code, stderr, elapsed = run_child(cmd, ctx["rundir"], env, budget + KILL_GRACE_S[tool], stdout=stdout)
    finally:
        if stdout is not subprocess.DEVNULL:
            stdout.close()
    if tool == "pynguin":
        written = [p for p in glob.glob(os.path.join(out_dir, "test_*.py"))]
        tests = written[0] if written else None
    finished = (0, 1, 2) if tool == "pathloom" else (0, 1)  # pathloom's 2: a target of the module skipped, the others explored
    outcome = Outcome(tool, "killed" if code is None else "ok" if code in finished else f"exit {code}", elapsed)
    outcome.detail = " | ".join(line for line in stderr.strip().splitlines()[-2:])[:300]
    if tests is None or not os.path.exists(tests):
        return outcome, None
    return outcome, tests


IMPORT_AS = re.compile(r"^import ((?:\w+\.)+\w+) as (\w+)$", re.MULTILINE)


def module_imports_fixed(source: str) -> str:
    """``import a.b.c as m`` written ``m = importlib.import_module("a.b.c")``, which is what the
    test means: Python binds ``m`` to attribute ``c`` of ``a.b``, and a package whose
    ``__init__`` does ``from .c import *`` rebinds that attribute to c's function ``c`` (every
    Pynguin test of ``algorithms.array.delete_nth`` then failed with "'function' object has no
    attribute"). Applied to every tool's tests alike."""
    if not IMPORT_AS.search(source):
        return source
    return "import importlib\n" + IMPORT_AS.sub(lambda m: f"{m.group(2)} = importlib.import_module({m.group(1)!r})", source)


def evaluate(outcome: Outcome, tests: str, module: Module, ctx: dict[str, str]) -> int | None:
    """Run ``tests`` (their ``import a.b.c as m`` lines fixed: ``module_imports_fixed``); fill in
    the counts, the branches the passing tests cover and the bugs; return the module's branch
    count (None: no coverage report)."""
    source = open(tests, encoding="utf-8", errors="replace").read()
    fixed = module_imports_fixed(source)
    if fixed != source:
        open(tests, "w", encoding="utf-8").write(fixed)
        source = fixed
    try:
        outcome.tests = count_tests(source)
    except SyntaxError:
        outcome.status, outcome.tests = "tests do not parse", 0
    if not outcome.tests:
        return None
    stem = os.path.join(ctx["rundir"], "eval", f"{outcome.tool}_{module.name}")
    env = dict(os.environ, PYTHONPATH=ctx["subjects"])
    pytest = ["-m", "pytest", "-c", ctx["ini"], "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    junit = stem + ".xml"
    run_child([ctx["python"], *pytest, f"--junitxml={junit}", tests], ctx["rundir"], env, PYTEST_TIMEOUT_S)
    try:
        outcomes = junit_outcomes(open(junit, encoding="utf-8").read())
    except (OSError, ET.ParseError):
        outcomes = {}
    values = list(outcomes.values())
    outcome.tests = max(outcome.tests, len(outcomes))  # test cases: a parametrized test once per row
    outcome.passed, outcome.failed, outcome.errors = values.count("passed") + values.count("skipped"), values.count("failed"), values.count("error")
    outcome.bugs = bugs_found(source, outcomes, explicit_raises(open(module.path, encoding="utf-8").read()))
    bad = [f"--deselect={tests}::{name}" for name, o in outcomes.items() if o in ("failed", "error")]
    data = stem + ".coverage"
    cover = [ctx["python"], "-m", "coverage", "run", "--branch", f"--include={module.path}", f"--data-file={data}", *pytest, *bad, tests]
    run_child(cover, ctx["rundir"], env, PYTEST_TIMEOUT_S)
    run_child([ctx["python"], "-m", "coverage", "json", f"--data-file={data}", "-o", stem + ".json"], ctx["rundir"], env, 300)
    try:
        files = json.load(open(stem + ".json", encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError):
        return None
    report = files.get(module.path) or next(iter(files.values()), None)
    if report is None:
        return None
    outcome.covered = report["summary"]["covered_branches"]
    return int(report["summary"]["num_branches"])


def table(rows: list[Row], tools: Sequence[str], markdown: bool) -> list[str]:
    def fmt(cells: Sequence[object]) -> str:
        return "| " + " | ".join(str(c) for c in cells) + " |" if markdown else "  ".join(f"{c!s:>14}" for c in cells)

    measured = [r for r in rows if r.branches]
    total = sum(r.branches or 0 for r in measured)
    lines = [fmt(["", *tools])]
    if markdown:
        lines.append("|" + "---|" * (len(tools) + 1))

    def each(label: str, value: object) -> None:
        lines.append(fmt([label, *(value(t) if callable(value) else value for t in tools)]))

    each("branches covered", lambda t: f"{sum(r.tools[t].covered for r in measured if t in r.tools)} / {total}")
    each("branch coverage", lambda t: f"{100 * sum(r.tools[t].covered for r in measured if t in r.tools) / total:.1f}%" if total else "-")
    each("modules with >= 1 passing test", lambda t: f"{sum(1 for r in rows if t in r.tools and r.tools[t].passed)} / {len(rows)}")
    each("test cases written", lambda t: sum(r.tools[t].tests for r in rows if t in r.tools))
    each(
        "tests passed / failed / errors",
        lambda t: "{} / {} / {}".format(*(sum(getattr(r.tools[t], k) for r in rows if t in r.tools) for k in ("passed", "failed", "errors"))),
    )
    each("distinct bugs (module, type)", lambda t: sum(len(r.tools[t].bugs) for r in rows if t in r.tools))
    each("wall time of the tool (s)", lambda t: f"{sum(r.tools[t].time_s for r in rows if t in r.tools):.0f}")
    return lines


def per_module(rows: list[Row], tools: Sequence[str], markdown: bool) -> list[str]:
    head = ["module", "branches", *(f"{t}: covered / tests / failed" for t in tools)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] if markdown else ["  ".join(head)]
    for r in rows:
        cells = [r.module, r.branches if r.branches is not None else "-"]
        cells += [
            f"{r.tools[t].covered} / {r.tools[t].tests} / {r.tools[t].failed}" + ("" if r.tools[t].status == "ok" else f" ({r.tools[t].status})") for t in tools
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |" if markdown else "  ".join(str(c) for c in cells))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", default=os.path.join(ROOT, "out", "peers"))
    parser.add_argument("--budget", type=float, default=60.0, help="wall seconds per module and tool (default 60)")
    parser.add_argument("--packages", default=",".join(p for ps in SUBJECTS.values() for p in ps), help="import packages to take modules from")
    parser.add_argument("--filter", default="", help="only modules whose dotted name contains this")
    parser.add_argument("--sample", type=int, default=0, help="every k-th module, N of them (0: all)")
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--pynguin-venv", default=None, help="a venv with Pynguin (default DIR/pynguin-venv, created with --pynguin-python)")
    parser.add_argument("--pynguin-python", default=None, help="a Python 3.10 interpreter to create the Pynguin venv with")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", default=None, metavar="OUT")
    docs_writer.add_options(parser)
    args = parser.parse_args(argv)
    doc = docs_writer.Recorder(args, "peers", title="pathloom, CrossHair and Pynguin on whole modules", argv=[sys.argv[0] or __file__] + argv)
    tools = [t for t in args.tools.split(",") if t]
    if not set(tools) <= set(TOOLS):
        parser.error(f"--tools: choose among {', '.join(TOOLS)}")
    workdir = os.path.abspath(args.workdir)
    pynguin_venv = os.path.abspath(args.pynguin_venv or os.path.join(workdir, "pynguin-venv"))
    os.makedirs(workdir, exist_ok=True)
    versions = setup(workdir, pynguin_venv, args.pynguin_python, tools)
    rundir = os.path.join(workdir, "run")
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(os.path.join(rundir, "eval"))
    ini = os.path.join(rundir, "pytest.ini")
    open(ini, "w").write("[pytest]\n")
    ctx = {
        "python": os.path.join(workdir, "venv", "bin", "python"),
        "pynguin": os.path.join(pynguin_venv, "bin", "pynguin"),
        "subjects": os.path.join(workdir, "subjects"),
        "rundir": rundir,
        "ini": ini,
    }
    modules = [m for m in find_modules(ctx["subjects"], args.packages.split(",")) if args.filter in m.name]
    chosen = sample(modules, args.sample) if args.sample else modules
    log(f"{len(chosen)} of {len(modules)} module(s), {args.budget:g} s per module and tool: {', '.join(tools)}")
    rows = []
    for i, module in enumerate(chosen, 1):
        row = Row(module.name)
        for tool in tools:
            outcome, tests = run_tool(tool, module, ctx, args.budget)
            if tests is None:
                outcome.status = outcome.status if outcome.status != "ok" else "no tests"
            else:
                branches = evaluate(outcome, tests, module, ctx)
                row.branches = branches if branches is not None else row.branches
            row.tools[tool] = outcome
        rows.append(row)
        log(
            f"[{i}/{len(chosen)}] {module.name}: {row.branches} branches; "
            + "; ".join(f"{t} {o.covered} covered, {o.tests} tests, {o.failed} failed, {o.status}, {o.time_s:.0f}s" for t, o in row.tools.items())
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([asdict(r) for r in rows], f, indent=1)
    doc.extra_versions += sorted(versions.items())
    with doc.capture():
        print(
            f"{len(chosen)} modules ({'every module' if not args.sample else f'a sample of {args.sample}'} of {args.packages}), {args.budget:g} s per module and tool, one tool at a time."
        )
        print()
        for line in table(rows, tools, args.markdown):
            print(line)
        print()
        for line in per_module(rows, tools, args.markdown):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
