"""Targets beyond one file (issue 30, item 1): directories (recursively, tests and hidden
folders left out), module names as ``python -m`` finds them, several targets in one run,
``--exclude``; one JSON list, one pytest file per analysed file, the worst exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.errors import UsageError
from pathloom.targets import Target, python_files, resolve

from .projects import project_at

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def clamp(x: int, lo: int, hi: int) -> int:\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/use.py": "from ..core import clamp\n\n\ndef pct(x: int) -> int:\n    y = clamp(x, 0, 100)\n    assert y != 100\n    return y\n",
    "pkg/raw.py": "def size(b: bytearray) -> int:\n    return len(b)\n",
    "pkg/tests/test_core.py": "def test_nothing():\n    pass\n",
    "pkg/test_top.py": "def test_other():\n    pass\n",
    "pkg/.hidden/x.py": "def f(x: int) -> int:\n    return x\n",
    "pkg/setup.py": "raise SystemExit('never imported')\n",
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with project_at(tmp_path, FILES, monkeypatch) as root:
        yield root


def test_a_directory_is_its_python_files_without_tests_hidden_folders_and_setup(project: Path) -> None:
    found = [p.as_posix() for p in python_files(Path("pkg"))]
    assert found == ["pkg/__init__.py", "pkg/core.py", "pkg/raw.py", "pkg/sub/__init__.py", "pkg/sub/use.py"]
    assert [p.as_posix() for p in python_files(Path("pkg"), ["sub/*", "raw.py"])] == ["pkg/__init__.py", "pkg/core.py"]


def test_module_names_files_and_functions_resolve_once_each_in_order(project: Path) -> None:
    assert resolve(["pkg.sub.use::pct", "pkg/core.py"]) == [Target("pkg/sub/use.py", ("pct",)), Target("pkg/core.py", None)]
    assert resolve(["pkg.core::clamp", "pkg/core.py::clamp", "pkg/core.py"]) == [Target("pkg/core.py", None)]  # the whole file wins
    assert resolve(["pkg/core.py::clamp", "pkg/raw.py::size", "pkg/core.py::other"]) == [
        Target("pkg/core.py", ("clamp", "other")),
        Target("pkg/raw.py", ("size",)),
    ]
    assert [t.file for t in resolve(["pkg.sub"])] == ["pkg/sub/__init__.py", "pkg/sub/use.py"]  # a package: its directory


@pytest.mark.parametrize(
    ("text", "message"),
    [("nosuch.mod", "cannot find module nosuch.mod"), ("pkg.nosuch", "no such file, directory or module"), ("pkg::f", "a directory has no '::name'")],
)
def test_targets_that_name_nothing_are_usage_errors(project: Path, text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        resolve([text])


def test_checking_a_package_directory(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "pkg", "--json", "out.json", "--tests", "generated"])
    out, err = capsys.readouterr()
    assert code == 1, (out, err)  # pct's assert fails for x >= 100, through the relative import
    assert "pkg/raw.py:1:10: unsupported: input of type bytearray" in err and "(target size skipped)" in err
    assert out.splitlines()[-1] == "pathloom: 5 file(s), 3 target(s): 2 explored, 1 skipped (unsupported or not loaded), 0 failed (internal error)"
    data = json.loads(Path("out.json").read_text())
    assert [d["target"] for d in data] == ["pkg/core.py::clamp", "pkg/raw.py::size", "pkg/sub/use.py::pct"]
    assert data[1]["status"] == "unsupported" and [b["exception"] for b in data[2]["bugs"]] == ["AssertionError"]
    assert sorted(p.name for p in Path("generated").iterdir()) == ["test_pkg_core.py", "test_pkg_raw.py", "test_pkg_sub_use.py"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "generated"], capture_output=True, text=True, cwd=project)
    assert run.returncode == 0 and " failed" not in run.stdout, run.stdout


def test_no_bug_and_one_target_skipped_exits_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "pkg.core", "pkg/raw.py", "--quiet"]) == 2
    assert main(["explore", "pkg.core", "pkg/raw.py", "--quiet", "--exclude", "raw.py"]) == 2  # a file named is always taken
    assert main(["explore", "pkg", "--quiet", "--exclude", "raw.py", "--exclude", "sub"]) == 0
    capsys.readouterr()


def test_several_files_need_a_tests_directory(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("taken.txt").write_text("x")
    assert main(["explore", "pkg", "--tests", "taken.txt"]) == 2
    assert "names a directory" in capsys.readouterr().err


# ---------------------------------------------------------------- --jobs: the files in child processes


def test_jobs_give_what_one_process_gives(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    serial = main(["check", "pkg", "--json", "one.json", "--tests", "one", "--no-cache"])  # in this process
    serial_out = capsys.readouterr().out
    pooled = main(["check", "pkg", "--json", "two.json", "--tests", "two", "--jobs", "2"])
    pooled_out = capsys.readouterr().out
    assert serial == pooled == 1
    strip = lambda text: [line for line in text.splitlines() if "solver calls" not in line and "inputs run" not in line and not line.startswith("pathloom:")]  # noqa: E731 - times and search counts differ
    assert strip(serial_out) == strip(pooled_out)  # the same reports, in the files' order
    one, two = json.loads(Path("one.json").read_text()), json.loads(Path("two.json").read_text())
    assert [(e["target"], e["status"], e["bugs"]) for e in one] == [(e["target"], e["status"], e["bugs"]) for e in two]
    assert sorted(p.name for p in Path("one").iterdir()) == sorted(p.name for p in Path("two").iterdir())
    assert pooled_out.splitlines()[-1].startswith("pathloom: 5 file(s), 3 target(s): 2 explored, 1 skipped")


def test_a_job_over_its_memory_is_stopped_and_reported(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explore", "pkg/core.py", "pkg/sub", "--jobs", "2", "--max-memory", "1", "--json", "out.json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "pathloom: pkg/core.py: stopped: over --max-memory 1 MiB; the other files go on" in err
    assert "2 file(s) stopped" in out.splitlines()[-1]
    data = json.loads(Path("out.json").read_text())
    assert [e["target"] for e in data] == ["pkg/core.py", "pkg/sub/use.py"] and all("--max-memory" in e["error"] for e in data)
