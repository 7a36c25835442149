"""`pathloom diff OLD NEW` (``pathloom.diff``): the inputs on which two versions differ in
returned value, exception (type and message) or argument mutation, each confirmed in CPython;
exit 1 when one is found, 0 when the versions agree and the exploration was complete."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathloom.cli import main

CLAMP = """
def clamp(x: int, lo: int, hi: int) -> int:
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
"""

CLAMP_BROKEN = """
def clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(x, hi))  # lo > hi: lo, where the first version may give hi
"""

CLAMP_SAME = """
def clamp(x: int, lo: int, hi: int) -> int:
    return x if lo <= x <= hi else (lo if x < lo else hi)
"""

OTHERS_OLD = """
def div(a: int, b: int) -> int:
    return a // b


def push(xs: list[int], v: int) -> int:
    xs.append(v)
    return len(xs)
"""

OTHERS_NEW = """
def div(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("integer division or modulo by zero")  # CPython's own: no difference
    if a == 7:
        raise ValueError("seven")
    return a // b


def push(xs: list[int], v: int) -> int:
    if v == 3:
        return len(xs) + 1  # the same value, but xs not extended
    xs.append(v)
    return len(xs)
"""


def _files(tmp_path: Path, old: str, new: str) -> tuple[str, str]:
    (tmp_path / "v1").mkdir()
    (tmp_path / "v2").mkdir()
    (tmp_path / "v1" / "mod.py").write_text(old)
    (tmp_path / "v2" / "mod.py").write_text(new)
    return str(tmp_path / "v1" / "mod.py"), str(tmp_path / "v2" / "mod.py")


@pytest.mark.parametrize("engine", ["dse", "multise", "compose"])
def test_the_clamp_that_breaks_when_lo_exceeds_hi_is_found(tmp_path: Path, engine: str) -> None:
    old, new = _files(tmp_path, CLAMP, CLAMP_BROKEN)
    out = tmp_path / "diff.json"
    assert main(["diff", f"{old}::clamp", f"{new}::clamp", "--engine", engine, "--json", str(out)]) == 1
    (row,) = json.loads(out.read_text())
    assert row["status"] == "differ" and row["differences"]
    for difference in row["differences"]:
        inputs = difference["inputs"]
        assert inputs["lo"] > inputs["hi"]
        assert difference["old"]["returned"] != difference["new"]["returned"]  # as CPython answered


@pytest.mark.parametrize("engine", ["dse", "multise", "compose"])
def test_versions_that_agree_exit_0_with_a_complete_exploration(tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _files(tmp_path, CLAMP, CLAMP_SAME)
    assert main(["diff", old, new, "--engine", engine]) == 0
    assert "same (complete)" in capsys.readouterr().out


def test_a_different_exception_and_a_different_mutation_are_differences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _files(tmp_path, OTHERS_OLD, OTHERS_NEW)
    out = tmp_path / "diff.json"
    assert main(["diff", old, new, "--json", str(out)]) == 1
    rows = {r["old"].rsplit("::", 1)[1]: r for r in json.loads(out.read_text())}
    (div,) = rows["div"]["differences"]
    assert div["inputs"]["a"] == 7 and div["inputs"]["b"] != 0 and div["what"] == "a different exception"
    assert div["new"] == {"outcome": "raise", "returned": None, "exception": "ValueError", "message": "seven"}
    (push,) = rows["push"]["differences"]
    assert push["inputs"]["v"] == 3 and push["what"] == "a different xs after the call"
    assert push["old"]["returned"] == push["new"]["returned"]  # only the mutation tells them apart
    assert "differs on a=7" in capsys.readouterr().out


def test_usage_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _files(tmp_path, CLAMP, "def other(x: int) -> int:\n    return x\n")
    assert main(["diff", old, new]) == 2
    assert "no function pair to compare" in capsys.readouterr().err
    assert main(["diff", f"{old}::clamp", new]) == 2
    assert "FILE::function twice" in capsys.readouterr().err
    nested = "def f(xs: list[list[int]]) -> int:\n    return len(xs)\n"
    (tmp_path / "b").mkdir()
    old, new = _files(tmp_path / "b", nested, nested)
    assert main(["diff", old, new]) == 2
    assert "its own copy" in capsys.readouterr().err
