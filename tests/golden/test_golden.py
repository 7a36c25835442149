"""Golden files: the IR printer, ``explore --json`` (dse and multise) and ``explore --tests`` on
the small programs of ``programs/``, compared with ``expected/``.

``pytest tests/golden --update-golden`` rewrites the expected files instead of comparing (a
re-record must be reviewed in its diff: every change in it is a change of what pathloom says).

Every exploration runs in a process of its own, as the command line does: in one process the
inputs chosen and the operand order of the printed conditions depend on what was explored
before (see the "Golden files" section of docs/testing.md). What varies from run to run is
left out of the compared text: the timings of ``stats`` and the paths of the files.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import z3

from pathloom.frontend.module import parse_module
from pathloom.frontend.pprint import function as print_function
from tests.conftest import ROOT

HERE = Path(__file__).resolve().parent
PROGRAMS_DIR = HERE / "programs"
EXPECTED_DIR = HERE / "expected"
PROGRAMS = sorted(path.stem for path in PROGRAMS_DIR.glob("*.py"))
ENGINES = ("dse", "multise")
TESTS_ENGINE = "dse"  # the engine whose generated pytest file is compared and run
OPTIONS = ("--max-list-len", "3", "--max-str-len", "3")  # small bounds: a few paths, fast
RERECORD = "run pytest tests/golden --update-golden to re-record if the change is intended"
# stats keys in wall-clock seconds (``time_s``, ``solver_time_s``, ``bdd_time_s``) and shares
# of it (``solver_time_pct``, ``bdd_time_pct``): they differ on every run, so their values are
# not compared (the keys are); every count of ``stats`` is the same on every run and kept
TIMING_SUFFIXES = ("_s", "_pct")
VERSIONS_FILE = "recorded-with.txt"


def versions() -> str:
    """What the outputs depend on beyond pathloom: the inputs are Z3's models, the messages and
    the AST CPython's."""
    return f"z3 {z3.get_version_string()}, CPython {sys.version_info.major}.{sys.version_info.minor}\n"


def versions_note() -> str:
    path = EXPECTED_DIR / VERSIONS_FILE
    recorded = path.read_text(encoding="utf-8") if path.exists() else "nothing"
    if recorded == versions():
        return ""
    return f" (recorded with {recorded.strip()}, running {versions().strip()}: a new Z3 may choose other inputs)"


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def expected_names() -> set[str]:
    names = {f"{program}.ir.txt" for program in PROGRAMS}
    names |= {f"{program}.{engine}.json" for program in PROGRAMS for engine in ENGINES}
    return names | {f"test_{program}_generated.py.txt" for program in PROGRAMS} | {VERSIONS_FILE}


def compare_with_golden(config: pytest.Config, name: str, actual: str) -> None:
    """``actual`` must be ``expected/<name>`` (rewritten instead under ``--update-golden``)."""
    __tracebackhide__ = True
    path = EXPECTED_DIR / name
    if config.getoption("--update-golden"):
        EXPECTED_DIR.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        (EXPECTED_DIR / VERSIONS_FILE).write_text(versions(), encoding="utf-8")
        return
    if not path.exists():
        raise AssertionError(f"{relative(path)} does not exist: {RERECORD}")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True), f"expected/{name}", f"actual/{name}"))
        raise AssertionError(f"{name} differs from the golden file:\n{diff}\n{RERECORD}{versions_note()}")


# -- the IR printer ----------------------------------------------------------------------------


def ir_text(program: str) -> str:
    """Every function of the program lowered (targets, then the nested functions and lambdas
    they make, until none is left), printed in qualname order."""
    path = PROGRAMS_DIR / f"{program}.py"
    module = parse_module(path.read_text(encoding="utf-8"), relative(path))
    for name in module.targets():
        module.function(name)
    while pending := [name for name in module.lambdas if not module.is_lowered(name)]:
        for name in pending:
            module.function(name)
    functions = sorted(module.lowered_functions(), key=lambda f: f.qualname)
    return "\n".join(print_function(f) for f in functions)


@pytest.mark.parametrize("program", PROGRAMS)
def test_ir(program: str, pytestconfig: pytest.Config) -> None:
    compare_with_golden(pytestconfig, f"{program}.ir.txt", ir_text(program))


# -- explore --json and --tests ----------------------------------------------------------------


@dataclass(frozen=True)
class Explored:
    result: Any  # the parsed --json file: one object per target of the program
    tests_file: Path | None  # the --tests file (TESTS_ENGINE only)


class Explorer:
    """Runs ``pathloom explore PROGRAM`` once per program and engine (in a child process, from
    the repository root) and keeps what it wrote."""

    def __init__(self, out: Path) -> None:
        self.out = out

    @functools.cache
    def explore(self, program: str, engine: str) -> Explored:
        out = self.out / engine
        out.mkdir(exist_ok=True)
        json_file = out / f"{program}.json"
        tests_file = out / f"test_{program}_generated.py" if engine == TESTS_ENGINE else None
        argv = [
            sys.executable,
            "-m",
            "pathloom",
            "explore",
            relative(PROGRAMS_DIR / f"{program}.py"),
            "--engine",
            engine,
            *OPTIONS,
            "--json",
            str(json_file),
            "--quiet",
        ]
        if tests_file is not None:
            argv += ["--tests", str(tests_file), "--search-timeout", "0"]  # the search's finds depend on the machine's speed
        proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
        result = json.loads(json_file.read_text(encoding="utf-8"))
        bugs = any(target["bugs"] for target in result)
        assert proc.returncode == (1 if bugs else 0), proc.stdout + proc.stderr  # 1 exactly when a bug is reported
        assert "Traceback" not in proc.stderr, proc.stderr
        return Explored(result, tests_file)


@pytest.fixture(scope="session")
def explorer(tmp_path_factory: pytest.TempPathFactory) -> Explorer:
    return Explorer(tmp_path_factory.mktemp("golden"))


def without_local_paths(text: str) -> str:
    return text.replace(str(PROGRAMS_DIR), "<programs>").replace(str(ROOT), "<root>")


def normalised_json(value: Any, in_stats: bool = False) -> Any:
    if isinstance(value, dict):
        return {key: "<timing>" if in_stats and key.endswith(TIMING_SUFFIXES) else normalised_json(item, key == "stats") for key, item in value.items()}
    if isinstance(value, list):
        return [normalised_json(item) for item in value]
    return without_local_paths(value) if isinstance(value, str) else value


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("program", PROGRAMS)
def test_explore_json(program: str, engine: str, explorer: Explorer, pytestconfig: pytest.Config) -> None:
    result = explorer.explore(program, engine).result
    text = json.dumps(normalised_json(result), indent=1, ensure_ascii=False) + "\n"
    compare_with_golden(pytestconfig, f"{program}.{engine}.json", text)


def normalised_tests_file(tests_file: Path, program: str) -> str:
    """The generated file finds the program by its path relative to the test file's folder."""
    text = tests_file.read_text(encoding="utf-8")
    source = os.path.relpath(PROGRAMS_DIR / f"{program}.py", tests_file.parent)
    assert repr(source) in text, text
    text = text.replace(repr(source), repr(f"<path of {program}.py from this file>"))
    return without_local_paths(text).replace(str(tests_file.parent), "<tmp>")


@pytest.mark.parametrize("program", PROGRAMS)
def test_generated_tests_file(program: str, explorer: Explorer, pytestconfig: pytest.Config) -> None:
    tests_file = explorer.explore(program, TESTS_ENGINE).tests_file
    assert tests_file is not None
    compare_with_golden(pytestconfig, f"test_{program}_generated.py.txt", normalised_tests_file(tests_file, program))


def _cases(text: str) -> int:
    """The test cases of a generated file: its test functions, a parametrized one once per row."""
    rows = sum(block.count("\n        (") - 1 for block in re.findall(r"@pytest\.mark\.parametrize\(\n.*?\n    \],\n", text, re.S))
    return text.count("\ndef test_") + rows


def test_generated_tests_pass(explorer: Explorer) -> None:
    """Every generated file (a minimal suite) passes under pytest (one run for all): each test
    passes, or is the strict xfail of a bug, which fails unless the bug's exception is raised."""
    explored = [explorer.explore(program, TESTS_ENGINE) for program in PROGRAMS]
    files = [str(e.tests_file) for e in explored if e.tests_file is not None]
    written = sum(_cases(Path(f).read_text(encoding="utf-8")) for f in files)
    bugs = sum(Path(f).read_text(encoding="utf-8").count("@pytest.mark.xfail(strict=True") for f in files)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files], cwd=Path(files[0]).parent, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = f"{written - bugs} passed, {bugs} xfailed in " if bugs else f"{written} passed in "
    assert re.search(rf"^{summary}", proc.stdout, re.MULTILINE), proc.stdout


def test_no_stale_expected_files(pytestconfig: pytest.Config) -> None:
    """Each expected file belongs to a program and an output (``--update-golden`` removes the others)."""
    stale = sorted({path.name for path in EXPECTED_DIR.iterdir()} - expected_names())
    if pytestconfig.getoption("--update-golden"):
        for name in stale:
            (EXPECTED_DIR / name).unlink()
        return
    assert not stale, f"expected files of no program or output: {stale}: {RERECORD}"
