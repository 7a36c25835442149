"""A generated test file imports what it uses as a user would, ``from pkg.mod import f``, where
the module is importable by its dotted name (an installed package, a ``PYTHONPATH`` entry);
otherwise it loads the module relative to the test file (``pytest_gen``'s docstring). Names
pytest would collect (``test_...``) and names a test also uses as a variable stay
``_module.NAME``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pathloom.cli import main

MODULE = """
class Box:
    def __init__(self, size: int) -> None:
        self.size = size


def fits(box: Box, size: int) -> bool:
    return size <= box.size


def test_helper(x: int) -> int:
    return x + 1


def total(total: int) -> int:
    return total * 2
"""


def _package(root: Path) -> Path:
    (root / "shapes").mkdir(parents=True)
    (root / "shapes" / "__init__.py").write_text("from shapes.boxes import fits\n")  # the package rebinds nothing we need
    source = root / "shapes" / "boxes.py"
    source.write_text(MODULE)
    return source


def _run_pytest(tests: Path, pythonpath: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tests.parent, env=env
    )


def test_an_importable_module_is_imported_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    source = _package(site)
    monkeypatch.syspath_prepend(str(site))
    out = tmp_path / "tests"
    out.mkdir()
    tests = out / "test_boxes.py"
    assert main(["explore", str(source), "--tests", str(tests), "--quiet", "--search-timeout", "0"]) == 0
    text = tests.read_text()
    assert "from shapes.boxes import Box, fits\n" in text
    assert "_module = importlib.import_module('shapes.boxes')" in text  # for the two names below
    assert "fits(box=Box(" in text
    assert "_module.test_helper(" in text and "_module.total(total=" in text
    assert "sys.path" not in text and "_load" not in text
    run = _run_pytest(tests, str(site))
    assert run.returncode == 0 and " passed" in run.stdout, run.stdout + run.stderr


def test_a_module_found_only_by_its_path_is_loaded_by_it(tmp_path: Path) -> None:
    source = _package(tmp_path / "src")
    tests = tmp_path / "test_boxes.py"
    assert main(["explore", str(source), "--tests", str(tests), "--quiet", "--search-timeout", "0"]) == 0
    text = tests.read_text()
    assert "from shapes" not in text and "_module.fits(box=_module.Box(" in text
    run = _run_pytest(tests, None)
    assert run.returncode == 0 and " passed" in run.stdout, run.stdout + run.stderr
