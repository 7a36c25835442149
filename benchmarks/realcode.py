"""Real-code benchmark: pathloom on every annotated function of PyPI's ``algorithms==1.0.1``.

Usage: python benchmarks/realcode.py [--workdir DIR] [--timeout S] [--limit N] [--jobs J]
       [--filter SUBSTR] [--engine dse|multise] [--max-time S] [--worktree] [--markdown] [--json OUT]
       [--write-docs [--docs-file PATH]]

The package (a public collection of algorithms that nobody here wrote) is installed into a
scratch virtual environment (``DIR/venv``, reused when it already holds the package), together
with this checkout of pathloom (editable) and pytest, so that pathloom, its ``--verify`` replay
and the generated tests import the analysed modules with one interpreter.  The pathloom that
runs is a snapshot of the commit at HEAD (``git archive`` into ``DIR/pathloom-src/REV``, put
first on ``PYTHONPATH``), so that edits in the working tree during a long run do not change what
is measured; ``--worktree`` runs the working tree instead.  Targets are every
top-level function and every method of a top-level class (``Cls.method``) of every module of
the package whose parameters, ``self``/``cls`` aside, all carry annotations.  Each target is one
``pathloom explore FILE::NAME --verify --tests ... --json ... --quiet --timeout S`` child process,
killed (and counted as hung) at S + 30 seconds; then all the generated test files run in one
pytest session.  The run's files (JSON results, test files, pytest log) go to ``DIR/run/``,
which is emptied at the start of every run.

Each target lands in exactly one class: explored (exit 0 or 1; complete or not from the JSON),
unsupported (exit 2, ``unsupported: <what>``), import failure (exit 2, ``cannot import
module``), not found (other exit 2: pathloom does not see the target, for example a decorated
method or a class with a metaclass), replay mismatch (exit 3), internal error (other exit 3),
hung, not run (``--max-time`` reached) or other.

``--write-docs`` writes the tables into docs/benchmarks.md (``--docs-file PATH``: another page),
section ``realcode`` (``--engine multise``: ``realcode-multise``), under a header with the
command, date, machine, commit and versions, the scratch venv's included
(benchmarks/docs_writer.py).
"""

from __future__ import annotations

import argparse
import ast
import builtins
import concurrent.futures
import io
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PACKAGE = "algorithms"
VERSION = "1.0.1"
HARD_KILL_GRACE_S = 30.0
TOP_REASONS = 20
LISTED_FAILURES = 20
PER_FILE = 2

sys.path.insert(0, HERE)
import docs_writer  # benchmarks/docs_writer.py
import machine  # benchmarks/machine.py, found through the sys.path entry above

# Categories, in the order the table shows them.
EXPLORED = "explored"
UNSUPPORTED = "unsupported"
IMPORT_FAILURE = "import failure"
NOT_FOUND = "not found"
MISMATCH = "replay mismatch"
INTERNAL = "internal error"
HUNG = "hung"
NOT_RUN = "not run"
OTHER = "other"


# --------------------------------------------------------------------------
# The scratch environment
# --------------------------------------------------------------------------


def venv_python(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


def _probe(python: str) -> dict[str, str] | None:
    """What the scratch interpreter has: the package's version and location, pathloom's
    location, pytest's and z3's versions; None when any of them is missing."""
    code = (
        "import importlib.metadata as m, json, os, pathloom, pytest, z3, " + PACKAGE + " as p\n"
        "print(json.dumps({'version': m.version('" + PACKAGE + "'), "
        "'package': os.path.dirname(p.__file__), "
        "'pathloom': os.path.dirname(os.path.dirname(os.path.abspath(pathloom.__file__))), "
        "'pytest': pytest.__version__, 'z3': z3.get_version_string()}))\n"
    )
    try:
        proc = subprocess.run([python, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    try:
        found: dict[str, str] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return found


def _ready(found: dict[str, str] | None) -> bool:
    return found is not None and found["version"] == VERSION and os.path.realpath(found["pathloom"]) == os.path.realpath(ROOT)


class SetupError(Exception):
    pass


def ensure_venv(venv: str, log: Callable[[str], None]) -> dict[str, str]:
    """Create (or reuse) the scratch venv with the package, pathloom and pytest installed."""
    python = venv_python(venv)
    found = _probe(python) if os.path.exists(python) else None
    if _ready(found):
        assert found is not None
        return found
    if not os.path.exists(python):
        log(f"creating the scratch environment {venv}")
        proc = subprocess.run([sys.executable, "-m", "venv", venv], check=False, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SetupError(f"python -m venv {venv} failed:\n{proc.stderr.strip()}")
    steps = [
        (f"{PACKAGE}=={VERSION}", [f"{PACKAGE}=={VERSION}"]),
        ("pathloom (editable) and pytest", ["-e", ROOT, "pytest"]),
    ]
    for what, args in steps:
        log(f"pip install {' '.join(args)}")
        proc = subprocess.run(
            [python, "-m", "pip", "install", "--quiet", *args],
            check=False,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise SetupError(f"installing {what} into {venv} failed (pip exit {proc.returncode}):\n{tail}")
    found = _probe(python)
    if not _ready(found):
        raise SetupError(f"{venv}: after installation, {PACKAGE}=={VERSION}, pathloom from {ROOT}, pytest and z3 are still not all importable (found: {found})")
    assert found is not None
    return found


def snapshot(workdir: str) -> tuple[str, str]:
    """``pathloom/`` as committed at HEAD, extracted once per commit under ``workdir``; returns
    the directory to put on ``PYTHONPATH`` and the short revision."""
    rev = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    if rev.returncode != 0:
        raise SetupError(f"git rev-parse HEAD in {ROOT} failed: {rev.stderr.strip()}")
    short = rev.stdout.strip()
    base = os.path.join(workdir, "pathloom-src")
    dest = os.path.join(base, short)
    if not os.path.isdir(dest):
        archive = subprocess.run(
            ["git", "archive", "--format=tar", "HEAD", "pathloom"],
            check=False,
            cwd=ROOT,
            capture_output=True,
        )
        if archive.returncode != 0:
            raise SetupError(f"git archive HEAD pathloom failed: {archive.stderr.decode(errors='replace')}")
        if os.path.isdir(base):
            shutil.rmtree(base)  # older snapshots
        partial = dest + ".partial"
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(partial, filter="data")
        os.rename(partial, dest)
    return dest, short


# --------------------------------------------------------------------------
# Targets
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    path: str  # absolute path of the module file
    module: str  # path relative to the package directory, e.g. sorting/bubble_sort.py
    name: str  # function or Cls.method
    shape: str = ""  # its decorators and its class's bases, which may hide it from pathloom

    @property
    def label(self) -> str:
        return f"{self.module}::{self.name}"

    @property
    def slug(self) -> str:
        return re.sub(r"[^0-9a-zA-Z]+", "_", self.module[:-3] + "__" + self.name).strip("_")


def _annotated(fn: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> bool:
    a = fn.args
    params = a.posonlyargs + a.args + a.kwonlyargs
    decorators = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
    if is_method and "staticmethod" not in decorators and params:
        params = params[1:]  # self or cls
    params += [p for p in (a.vararg, a.kwarg) if p is not None]
    return all(p.annotation is not None for p in params)


def _shape(fn: ast.FunctionDef | ast.AsyncFunctionDef, cls: ast.ClassDef | None) -> str:
    parts = [f"decorated @{ast.unparse(d)}" for d in fn.decorator_list]
    if cls is not None:
        parts += [f"class decorated @{ast.unparse(d)}" for d in cls.decorator_list]
    if cls is not None and (cls.bases or cls.keywords):
        header = [ast.unparse(b) for b in cls.bases] + [ast.unparse(k) for k in cls.keywords]
        parts.append(f"class header ({', '.join(header)})")
    return "; ".join(parts)


def find_targets(package_dir: str) -> tuple[list[Target], list[str], list[str]]:
    """The targets, the functions left out for a missing annotation, the unparsable files."""
    targets: list[Target] = []
    excluded: list[str] = []
    unparsable: list[str] = []
    for dirpath, dirnames, filenames in os.walk(package_dir):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for filename in sorted(f for f in filenames if f.endswith(".py")):
            path = os.path.join(dirpath, filename)
            module = os.path.relpath(path, package_dir).replace(os.sep, "/")
            try:
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), filename=path)
            except (SyntaxError, UnicodeDecodeError) as exc:
                unparsable.append(f"{module}: {exc}")
                continue
            names: dict[str, tuple[bool, str]] = {}  # a later definition of a name replaces an earlier one
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names[node.name] = _annotated(node, False), _shape(node, None)
                elif isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            names[f"{node.name}.{item.name}"] = (
                                _annotated(item, True),
                                _shape(item, node),
                            )
            for name, (ok, shape) in names.items():
                if ok:
                    targets.append(Target(path, module, name, shape))
                else:
                    excluded.append(f"{module}::{name}")
    return targets, excluded, unparsable


# --------------------------------------------------------------------------
# Running pathloom on one target
# --------------------------------------------------------------------------


@dataclass
class Row:
    target: str
    category: str
    complete: bool | None = None
    bugs: bool = False
    paths: int | None = None
    concretizations: int = 0
    reason: str | None = None  # normalized unsupported (or not found) reason
    cut_reasons: list[str] = field(default_factory=list)  # why an exploration is incomplete
    detail: list[str] = field(default_factory=list)  # the stderr lines that explain the category
    exit_code: int | None = None
    time_s: float = 0.0
    tests_file: str | None = None


@dataclass(frozen=True)
class Runner:
    python: str  # the scratch venv's interpreter
    rundir: str
    env: dict[str, str]  # for every child: PYTHONPATH holds the pathloom snapshot
    timeout: float
    engine: str


def run_child(
    cmd: list[str],
    cwd: str,
    env: dict[str, str],
    timeout: float,
    stdout: Any = subprocess.DEVNULL,
    stderr: Any = subprocess.PIPE,
) -> tuple[int | None, str, float]:
    """Run ``cmd`` in a session of its own, killed with all its children after ``timeout``
    seconds: its exit code (None when killed), its stderr (when piped) and its wall time."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr, text=True, cwd=cwd, env=env, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        code = None
    return code, err or "", time.perf_counter() - start


def run_target(t: Target, runner: Runner) -> Row:
    tests_file = os.path.join(runner.rundir, "tests", f"test_{t.slug}.py")
    json_file = os.path.join(runner.rundir, "json", f"{t.slug}.json")
    cmd = [
        runner.python,
        "-m",
        "pathloom",
        "explore",
        f"{t.path}::{t.name}",
        "--verify",
        "--tests",
        tests_file,
        "--json",
        json_file,
        "--quiet",
        "--timeout",
        str(runner.timeout),
        "--engine",
        runner.engine,
    ]
    # cwd: ``python -m`` puts the working directory first on sys.path, before the snapshot
    code, stderr, elapsed = run_child(cmd, runner.rundir, runner.env, runner.timeout + HARD_KILL_GRACE_S)
    if code is None:  # killed, with pathloom's replay child
        return Row(
            t.label,
            HUNG,
            time_s=elapsed,
            detail=[f"killed after {runner.timeout + HARD_KILL_GRACE_S:.0f}s"],
        )
    package_dir = t.path[: -len(t.module)]
    stderr = stderr.replace(f"{t.path}::{t.name}: ", "").replace(package_dir, "")
    row = classify(t, code, stderr, read_json(json_file))
    row.time_s = elapsed
    if os.path.exists(tests_file):
        row.tests_file = tests_file
    return row


def read_json(path: str) -> dict[str, Any] | None:
    """The exploration's JSON object (the first one if the file holds an array), or None."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if isinstance(data, list):
        data = data[0] if data else None
    return data if isinstance(data, dict) else None


def _concretizations(result: dict[str, Any] | None) -> int:
    """How many concretizations ``stats.concretizations`` reports: a count, a list of them or
    a mapping from place to count; 0 when the key is absent."""
    stats = (result or {}).get("stats") or {}
    value = stats.get("concretizations", 0) if isinstance(stats, dict) else 0
    if isinstance(value, dict):
        return sum(v if isinstance(v, int) else 1 for v in value.values())
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _cut_reasons(result: dict[str, Any] | None) -> list[str]:
    """The distinct reasons of the cut and unknown paths, numbers and names normalized, and
    the input types tried in part (``untried``: one reason for all)."""
    reasons = {_normalize(str(p.get("reason") or p.get("outcome"))) for p in (result or {}).get("paths") or [] if p.get("outcome") in ("cut", "unknown")}
    if (result or {}).get("untried"):
        reasons.add("input types tried in part (a union's member not modelled or not tried)")
    return sorted(reasons)


def classify(t: Target, code: int, stderr: str, result: dict[str, Any] | None) -> Row:
    lines = [line for line in stderr.splitlines() if line.strip()]
    row = Row(t.label, OTHER, exit_code=code, concretizations=_concretizations(result))
    if result is not None:
        row.paths = len(result.get("paths") or [])
    if code in (0, 1):
        row.category = EXPLORED
        row.bugs = code == 1
        row.complete = bool(result and result.get("complete"))
        if not row.complete:
            row.cut_reasons = _cut_reasons(result) or ["no cut or unknown path reported"]
        if result is None:
            row.detail = ["no JSON result written"]
        return row
    unsupported = [line for line in lines if "unsupported: " in line]
    imports = [line for line in lines if "cannot import module" in line]
    mismatches = [line.replace("pathloom: replay mismatch: ", "") for line in lines if "replay mismatch" in line]
    if code == 2 and unsupported:
        row.category, row.detail = UNSUPPORTED, unsupported[:1]
        row.reason = normalize_reason(unsupported[0])
    elif code == 2 and imports:
        row.category, row.detail = IMPORT_FAILURE, imports[:3]
    elif code == 2:
        row.category, row.detail = NOT_FOUND, lines[-1:]
        row.reason = t.shape or (_normalize(lines[-1].split(": ", 1)[-1]) if lines else "no message")
    elif code == 3 and mismatches:
        row.category, row.detail = MISMATCH, mismatches
    elif code == 3:
        row.category, row.detail = INTERNAL, lines[-3:]
    else:
        row.detail = lines[-3:]
    return row


def _known_names() -> frozenset[str]:
    """Names that say what is unsupported rather than where: builtins, the methods of the
    builtin types, standard-library modules and dunder names."""
    names = set(dir(builtins)) | set(sys.stdlib_module_names)
    for cls in (
        str,
        bytes,
        list,
        dict,
        set,
        frozenset,
        tuple,
        int,
        float,
        complex,
        object,
        type,
        range,
    ):
        names |= set(dir(cls))
    return frozenset(names)


KNOWN_NAMES = _known_names()
QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(?![\w.])")


def _normalize(what: str) -> str:
    """``what`` with the names of this program (quoted names that are not builtins, methods of
    builtin types or stdlib modules) and numbers replaced, so that the same construct at
    different places groups together."""

    def name(m: re.Match[str]) -> str:
        text = m.group(1) if m.group(1) is not None else m.group(2)
        base = text.split(".")[-1].rstrip("()")
        return m.group(0) if base in KNOWN_NAMES else "'…'"

    return NUMBER.sub("N", QUOTED.sub(name, what))


def normalize_reason(line: str) -> str:
    """The text after ``unsupported: ``, normalized."""
    what = line.split("unsupported: ", 1)[1]
    return _normalize(re.sub(r"\s*\(target [^)]*skipped\)\s*$", "", what).strip())


def run_all(
    targets: list[Target],
    runner: Runner,
    jobs: int,
    max_time: float | None,
    log: Callable[[str], None],
) -> list[Row]:
    deadline = None if max_time is None else time.monotonic() + max_time
    rows: dict[int, Row] = {}

    def one(i: int) -> tuple[int, Row]:
        t = targets[i]
        if deadline is not None and time.monotonic() > deadline:
            return i, Row(t.label, NOT_RUN, detail=["--max-time reached"])
        return i, run_target(t, runner)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for done, future in enumerate(concurrent.futures.as_completed([pool.submit(one, i) for i in range(len(targets))]), 1):
            i, row = future.result()
            rows[i] = row
            if row.category != NOT_RUN:
                state = row.category
                if row.category == EXPLORED:
                    state += ", complete" if row.complete else ", incomplete"
                elif row.reason:
                    state += f": {row.reason}"
                log(f"[{done}/{len(targets)}] {row.target}: {state} ({row.time_s:.1f}s)")
    return [rows[i] for i in range(len(targets))]


# --------------------------------------------------------------------------
# The generated tests, in one pytest session
# --------------------------------------------------------------------------


@dataclass
class TestRun:
    counts: dict[str, int]
    failures: list[tuple[str, str]]  # (test id, first error line) of failed tests and errors
    time_s: float
    note: str = ""


SUMMARY_ITEM = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)\b")
RESULT_LINE = re.compile(r"^(\S+::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b")
SECTION = re.compile(r"^_+ (.+?) _+$")
TB_FILE = re.compile(r"^(tests/[^:\s]+\.py):\d+: ")


def run_tests(runner: Runner, timeout_s: float) -> TestRun:
    tests_dir = os.path.join(runner.rundir, "tests")
    ini = os.path.join(runner.rundir, "pytest.ini")
    with open(ini, "w", encoding="utf-8") as f:
        f.write("[pytest]\n")  # keeps the repository's pyproject (addopts, testpaths) out of it
    log_file = os.path.join(runner.rundir, "pytest.log")
    if not any(name.endswith(".py") for name in os.listdir(tests_dir)):
        return TestRun({}, [], 0.0, "no test file was generated")
    cmd = [
        runner.python,
        "-m",
        "pytest",
        "-c",
        ini,
        "-v",
        "-rfE",
        "--tb=short",
        "--continue-on-collection-errors",
        "-p",
        "no:cacheprovider",
        "tests",
    ]
    note = ""
    with open(log_file, "w", encoding="utf-8") as out:
        code, _, elapsed = run_child(cmd, runner.rundir, runner.env, timeout_s, stdout=out, stderr=subprocess.STDOUT)
    if code is None:
        note = f"the pytest session was killed after {timeout_s:.0f}s (counts are of the tests run by then)"
    with open(log_file, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return parse_pytest(text, elapsed, note)


def _messages(lines: list[str]) -> dict[tuple[str, str], str]:
    """(test file, test name) to the first ``E`` line of its traceback section."""
    found: dict[tuple[str, str], str] = {}
    name, file, message = None, "", ""
    for line in lines + ["___ end ___"]:
        m = SECTION.match(line)
        if m or line.startswith("="):
            if name is not None:
                found.setdefault((file, name), message)
            name, file, message = (m.group(1), "", "") if m else (None, "", "")
            if name is not None and name.startswith("ERROR collecting "):
                file = name[len("ERROR collecting ") :]
            continue
        f = TB_FILE.match(line)
        if f and not file:
            file = f.group(1)
        if line.startswith("E ") and not message:
            message = line[1:].strip()
    return found


def parse_pytest(text: str, elapsed: float, note: str) -> TestRun:
    lines = text.splitlines()
    counts: dict[str, int] = {}
    summary = [line for line in lines if line.startswith("=") and " in " in line and SUMMARY_ITEM.search(line)]
    if summary:
        for n, what in SUMMARY_ITEM.findall(summary[-1]):
            counts["errors" if what.startswith("error") else what] = int(n)
    else:  # killed: count the per-test lines
        for line in lines:
            m = RESULT_LINE.match(line)
            if m:
                key = {"PASSED": "passed", "FAILED": "failed", "ERROR": "errors"}.get(m.group(2), "other")
                counts[key] = counts.get(key, 0) + 1
    messages = _messages(lines)
    failures = []
    for line in lines:
        if line.startswith(("FAILED ", "ERROR ")):
            test_id = line.split(" ", 2)[1]
            file, _, name = test_id.partition("::")
            failures.append((test_id, messages.get((file, name or f"ERROR collecting {file}"), "")))
    return TestRun(counts, failures, elapsed, note)


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def _count(rows: list[Row], category: str) -> int:
    return sum(1 for r in rows if r.category == category)


def _by_test_file(rows: list[Row]) -> dict[str, Row]:
    return {f"tests/{os.path.basename(r.tests_file)}": r for r in rows if r.tests_file}


def summary_rows(rows: list[Row], excluded: int, tests: TestRun, total_s: float) -> list[tuple[str, str]]:
    explored = [r for r in rows if r.category == EXPLORED]
    complete = sum(1 for r in explored if r.complete)
    c = tests.counts
    owners = _by_test_file(rows)
    explained = sum(1 for test_id, _ in tests.failures if getattr(owners.get(test_id.split("::")[0]), "category", None) == MISMATCH)
    table = [
        ("targets (all parameters annotated)", str(len(rows))),
        ("excluded for missing annotations", str(excluded)),
        (
            "explored (complete / incomplete)",
            f"{len(explored)} ({complete} / {len(explored) - complete})",
        ),
        ("  of which reported a bug (exit 1)", str(sum(1 for r in explored if r.bugs))),
        (
            "  of which concretized",
            str(sum(1 for r in rows if r.concretizations and r.category == EXPLORED)),
        ),
        ("unsupported", str(_count(rows, UNSUPPORTED))),
        ("not found by pathloom", str(_count(rows, NOT_FOUND))),
        ("import failures", str(_count(rows, IMPORT_FAILURE))),
        ("replay mismatches (targets)", str(_count(rows, MISMATCH))),
        ("internal errors", str(_count(rows, INTERNAL))),
        ("hung (killed)", str(_count(rows, HUNG))),
    ]
    for category in (NOT_RUN, OTHER):
        if _count(rows, category):
            table.append((category, str(_count(rows, category))))
    table += [
        ("generated test files", str(sum(1 for r in rows if r.tests_file))),
        (
            "generated tests passed / failed / errors",
            f"{c.get('passed', 0)} / {c.get('failed', 0)} / {c.get('errors', 0)}",
        ),
        ("  failed or errors in files of replay-mismatch targets", str(explained)),
        ("time (explorations + pytest session)", f"{total_s:.0f}s (pytest {tests.time_s:.0f}s)"),
    ]
    return table


def grouped(rows: list[Row], categories: Sequence[str], key: Callable[[Row], list[str]], most: int | None) -> list[tuple[str, str]]:
    """Targets per reason, most frequent first."""
    counts: dict[str, int] = {}
    for r in rows:
        if r.category in categories:
            for reason in key(r):
                counts[reason] = counts.get(reason, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(reason, str(n)) for reason, n in ranked[:most]]


def _table(head: Sequence[str], body: Sequence[Sequence[str]], markdown: bool, right: Sequence[bool]) -> list[str]:
    if markdown:
        esc = [[cell.replace("|", "\\|") for cell in line] for line in body]
        lines = [
            "| " + " | ".join(head) + " |",
            "| " + " | ".join("---:" if r else "---" for r in right) + " |",
        ]
        return lines + ["| " + " | ".join(line) + " |" for line in esc]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]

    def fmt(line: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(line, widths, right)).rstrip()

    return [fmt(head), fmt(["-" * w for w in widths])] + [fmt(line) for line in body]


def _title(title: str, markdown: bool) -> list[str]:
    return [f"#### {title}" if markdown else f"{title}:", ""]


def _reasons(title: str, body: list[tuple[str, str]], markdown: bool) -> list[str]:
    if not body:
        return []
    return _title(title, markdown) + _table(["reason", "targets"], body, markdown, [False, True]) + [""]


def _listing(title: str, items: list[str], markdown: bool) -> list[str]:
    if not items:
        return []
    return _title(title, markdown) + [(f"- `{item}`" if markdown else f"  {item}") for item in items] + [""]


def _details(rows: list[Row], category: str, per_target: int = 3) -> list[str]:
    out = []
    for r in rows:
        if r.category == category:
            out += [f"{r.target}: {d}" for d in r.detail[:per_target]] or [r.target]
            if len(r.detail) > per_target:
                out.append(f"{r.target}: ... {len(r.detail) - per_target} more")
    return out


def _failing(failures: list[tuple[str, str]]) -> list[str]:
    """The failed tests and errors, at most ``PER_FILE`` of each test file."""
    by_file: dict[str, list[str]] = {}
    for test_id, message in failures:
        by_file.setdefault(test_id.split("::")[0], []).append(f"{test_id}: {message}" if message else test_id)
    out: list[str] = []
    for file, items in by_file.items():
        out += items[:PER_FILE]
        if len(items) > PER_FILE:
            out.append(f"{file}: ... {len(items) - PER_FILE} more")
    if len(out) > LISTED_FAILURES:
        out = out[:LISTED_FAILURES] + [f"... {len(out) - LISTED_FAILURES} more lines"]
    return out


def report(
    rows: list[Row],
    excluded: int,
    unparsable: list[str],
    tests: TestRun,
    total_s: float,
    markdown: bool,
) -> list[str]:
    lines = _table(["measure", "value"], summary_rows(rows, excluded, tests, total_s), markdown, [False, True])
    lines.append("")
    lines += _reasons(
        f"Unsupported: top {TOP_REASONS} reasons",
        grouped(rows, [UNSUPPORTED], lambda r: [r.reason or "?"], TOP_REASONS),
        markdown,
    )
    lines += _reasons(
        "Not found by pathloom (what the target's definition has)",
        grouped(rows, [NOT_FOUND], lambda r: [r.reason or "?"], None),
        markdown,
    )
    lines += _reasons(
        f"Incomplete explorations: why (top {TOP_REASONS}; a target may have several reasons)",
        grouped(rows, [EXPLORED], lambda r: r.cut_reasons, TOP_REASONS),
        markdown,
    )
    lines += _listing("Replay mismatches", _details(rows, MISMATCH), markdown)
    lines += _listing("Internal errors", _details(rows, INTERNAL), markdown)
    lines += _listing("Import failures", _details(rows, IMPORT_FAILURE), markdown)
    lines += _listing("Hung", [r.target for r in rows if r.category == HUNG], markdown)
    lines += _listing("Other", _details(rows, OTHER), markdown)
    lines += _listing("Unparsable modules", unparsable, markdown)
    failing = _failing(tests.failures)
    lines += _listing(
        f"Failing generated tests ({len(tests.failures)}; at most {PER_FILE} a file, {LISTED_FAILURES} in all)",
        failing,
        markdown,
    )
    if tests.note:
        lines += [f"NOTE: {tests.note}", ""]
    return lines


def header(argv: Sequence[str], markdown: bool, env: dict[str, str], revision: str) -> list[str]:
    return machine.header(
        argv,
        markdown,
        (
            f"nproc {machine.nproc()}, {machine.cpu_model()}, Python {platform.python_version()}, "
            f"z3 {env['z3']}, pytest {env['pytest']}, {PACKAGE} {env['version']}, "
            f"pathloom at {revision}, {machine.load_average()} at start"
        ),
    )


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def _rundir(workdir: str, name: str = "run", subdirs: Sequence[str] = ("tests", "json")) -> str:
    """``workdir/name``, emptied, with ``subdirs`` in it."""
    rundir = os.path.join(workdir, name)
    if os.path.isdir(rundir):
        shutil.rmtree(rundir)
    for sub in subdirs:
        os.makedirs(os.path.join(rundir, sub))
    return rundir


def shared_options(description: str) -> argparse.ArgumentParser:
    """A parser with the options this benchmark shares with ``realcode_crosshair.py``:
    ``--workdir``, ``--filter``, ``--markdown``, ``--json``, ``--write-docs`` and ``--docs-file``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--workdir",
        default=os.path.join(ROOT, "out", "realcode"),
        help="scratch directory: the venv and the run's files (default out/realcode)",
    )
    parser.add_argument("--filter", default=None, help="only targets whose MODULE::NAME contains SUBSTR")
    parser.add_argument("--markdown", action="store_true", help="GitHub markdown tables")
    parser.add_argument("--json", default=None, help="write the per-target rows to this file")
    docs_writer.add_options(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = shared_options(__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0, help="pathloom --timeout per target (default 20)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N targets")
    parser.add_argument("--jobs", type=int, default=1, help="explorations at once (default 1)")
    parser.add_argument("--engine", choices=["dse", "multise"], default="dse")
    parser.add_argument(
        "--max-time",
        type=float,
        default=None,
        help="wall-clock seconds for all explorations; targets not started by then are not run",
    )
    parser.add_argument(
        "--pytest-timeout",
        type=float,
        default=1800.0,
        help="seconds for the pytest session (default 1800)",
    )
    parser.add_argument(
        "--worktree",
        action="store_true",
        help="run pathloom from the working tree instead of a snapshot of HEAD",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    script = sys.argv[0] or os.path.join(HERE, "realcode.py")
    if args.engine == "multise":
        doc = docs_writer.Recorder(args, "realcode-multise", title="Real-code benchmark, MultiSE", argv=[script] + argv)
    else:
        doc = docs_writer.Recorder(args, "realcode", title="Real-code benchmark (algorithms==1.0.1)", argv=[script] + argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    start = time.perf_counter()
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    child_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        env = ensure_venv(os.path.join(workdir, "venv"), log)
        if args.worktree:
            revision = machine.git_revision() + " (working tree)"
        else:
            source, short = snapshot(workdir)
            child_env["PYTHONPATH"] = source
            revision = f"{short} (snapshot of HEAD)"
    except SetupError as exc:
        log(f"realcode: cannot set up the scratch environment: {exc}")
        return 2
    targets, excluded, unparsable = find_targets(env["package"])
    if args.filter:
        targets = [t for t in targets if args.filter in t.label]
    if args.limit is not None:
        targets = targets[: args.limit]
    log(f"{len(targets)} target(s) in {env['package']}, {len(excluded)} excluded for missing annotations")
    runner = Runner(
        venv_python(os.path.join(workdir, "venv")),
        _rundir(workdir),
        child_env,
        args.timeout,
        args.engine,
    )
    rows = run_all(targets, runner, args.jobs, args.max_time, log)
    log("running the generated tests in one pytest session")
    tests = run_tests(runner, args.pytest_timeout)
    site = os.path.dirname(env["package"]) + os.sep
    tests.failures = [(test_id, message.replace(site, "")) for test_id, message in tests.failures]
    total = time.perf_counter() - start

    for line in header([script] + argv, args.markdown, env, revision):
        print(line)
    body = report(rows, len(excluded), unparsable, tests, total, args.markdown)
    if args.worktree and machine.git_revision() + " (working tree)" != revision:
        body.append(f"NOTE: pathloom changed during the run (at start {revision}, at end {machine.git_revision()})")
    body.append(f"Files of this run: {runner.rundir} (pytest log: pytest.log there)")
    for line in body:
        print(line)
    doc.extra_versions += [("z3 in the scratch venv", env["z3"]), ("pytest", env["pytest"]), (PACKAGE, env["version"])]
    doc.notes.append(f"pathloom ran from {revision}, engine {args.engine}; {machine.load_average()} at the end")
    doc.write(body)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "rows": [asdict(r) for r in rows],
                    "excluded": excluded,
                    "unparsable": unparsable,
                    "tests": asdict(tests),
                    "time_s": total,
                },
                f,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
