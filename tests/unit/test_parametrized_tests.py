"""Three or more tests of one target that return a literal from the same arguments are one
``pytest.mark.parametrize`` test, a row each (issue 29, item 6: same-shaped cases grouped as a
user groups them); raises, bugs and fewer cases stay tests of their own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pathloom.cli import main

GRADES = """
def grade(score: int) -> str:
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    if score < 0:
        raise ValueError("negative")
    return "F"


def sign(x: int) -> int:
    if x < 0:
        return -1
    return 1
"""


def test_same_shaped_returns_are_one_parametrized_test(tmp_path: Path) -> None:
    source = tmp_path / "grades.py"
    source.write_text(GRADES)
    tests = tmp_path / "test_grades.py"
    assert main(["explore", str(source), "--tests", str(tests), "--quiet", "--search-timeout", "0"]) == 0
    text = tests.read_text()
    assert "@pytest.mark.parametrize(\n    ('score', 'expected'),\n" in text
    assert "def test_grade_returns(score, expected):\n    assert _module.grade(score=score) == expected\n" in text
    for row in ("'A'),", "'B'),", "'C'),", "'F'),"):
        assert row in text
    assert "def test_grade_1_raises_valueerror():" in text  # a raise stays a test of its own
    assert "def test_sign_1_returns_minus_1():" in text and "test_sign_returns" not in text  # two cases: no group
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and "7 passed" in run.stdout, run.stdout + run.stderr


BOXES = """
class Box:
    def __init__(self, size: int) -> None:
        self.size = size


def label(b: Box) -> str:
    if b.size > 10:
        return "big"
    if b.size > 5:
        return "mid"
    if b.size > 0:
        return "small"
    return "none"
"""


def test_rows_write_objects_by_their_constructor_call(tmp_path: Path) -> None:
    """The rows write the inputs as the call does: an input object built by its constructor
    is that call (a row once rendered the raw JSON object: an internal error, exit 3)."""
    source = tmp_path / "boxes.py"
    source.write_text(BOXES)
    tests = tmp_path / "test_boxes.py"
    assert main(["explore", f"{source}::label", "--tests", str(tests), "--quiet", "--search-timeout", "0"]) == 0
    text = tests.read_text()
    assert "def test_label_returns(b, expected):\n    assert _module.label(b=b) == expected\n" in text
    assert "        (_module.Box(11), 'big'),\n" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and "4 passed" in run.stdout, run.stdout + run.stderr
