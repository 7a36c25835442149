"""``make test`` (what CI runs) must end its output with pytest's ``N passed`` line.

pyproject's ``addopts`` already holds ``-q``; a second ``-q`` on the command line makes
``-qq``, which drops that line. The recipe is read from the Makefile and run on a one-test
file with the project's pytest configuration.
"""

from __future__ import annotations

import itertools
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def _recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"{target}:")))
    recipe = [line.strip() for line in itertools.takewhile(lambda line: line.startswith("\t"), lines[start + 1 :])]
    pytest_lines = [line for line in recipe if "-m pytest" in line]
    assert len(pytest_lines) == 1, recipe
    return shlex.split(pytest_lines[0])


def test_make_test_ends_with_the_passed_line(tmp_path: Path) -> None:
    argv = _recipe("test")
    assert argv[0] == "$(BIN)/python" and argv[-1] == "tests", argv
    probe = tmp_path / "test_probe.py"
    probe.write_text("def test_one():\n    assert 1 + 1 == 2\n\n\ndef test_two():\n    assert 'a' < 'b'\n")
    command = [sys.executable, *argv[1:-1], "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(probe)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"2 passed in [0-9.]+s", last), proc.stdout
