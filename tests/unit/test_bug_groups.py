"""``check`` reports each bug once: bug paths grouped by (kind, exception, line), shown with the
simplest input that reaches the bug and how many paths reach it. ``explore`` still lists every
path; the JSON keeps every path and adds a ``bugs`` array, one entry per distinct bug."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.results import input_size

# the division fails for every list length (5 paths: len 0..4), the index for several
PROGRAM = textwrap.dedent("""\
    def f(xs: list[int], k: int) -> int:
        total = 0
        for x in xs:
            total += x
        if k > 50:
            return xs[k - 50]
        return 100 // (total - k)
    """)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM, encoding="utf-8")
    return path


def test_input_size_measures_ints_strs_and_lists() -> None:
    assert input_size({"x": -3, "s": "ab", "xs": [1, -2], "b": True, "n": None}) == 3 + 2 + (2 + 3) + 1
    assert input_size({"t": {"$tuple": [4, "z"]}}) == 2 + 4 + 1
    assert input_size({"self": {"$new": "Box", "args": {"size": -7}}}) == 7
    assert input_size({}) == 0


def _bug_blocks(out: str) -> list[tuple[str, int, str]]:
    """(description, paths, input) of each 'bug N' block of the text report."""
    found = re.findall(r"  bug \d+ +(.+), reached by (\d+) paths?\n +input: (.+)\n", out)
    return [(d, int(n), i) for d, n, i in found]


def test_check_reports_each_bug_once_with_its_simplest_input(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{program}::f"]) == 1
    out = capsys.readouterr().out
    bugs = _bug_blocks(out)
    assert [d for d, _, _ in bugs] == [
        "raises ZeroDivisionError: integer division or modulo by zero at line 7 [BUG]",
        "raises IndexError: list index out of range at line 6 [BUG]",
    ] or [d for d, _, _ in bugs] == [
        "raises IndexError: list index out of range at line 6 [BUG]",
        "raises ZeroDivisionError: integer division or modulo by zero at line 7 [BUG]",
    ], out
    by_line = {d.split(" at line ")[1][0]: (n, i) for d, n, i in bugs}
    assert by_line["7"] == (5, "xs=[], k=0")  # one path per list length, the empty list simplest
    assert by_line["6"][0] >= 2  # its simplest input is checked against the JSON below
    assert "path " not in out  # no per-path lines
    assert re.search(r"2 bug\(s\) \(\d+ paths\)", out), out


def test_explore_lists_every_path(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", f"{program}::f"]) == 1
    out = capsys.readouterr().out
    assert out.count("ZeroDivisionError") == 5
    assert "reached by" not in out
    assert re.search(r"2 bug\(s\) \(\d+ paths\)", out), out


def test_json_keeps_every_path_and_lists_each_bug_once(program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json = tmp_path / "out.json"
    assert main(["check", f"{program}::f", "--json", str(out_json)]) == 1
    capsys.readouterr()
    data = json.loads(out_json.read_text(encoding="utf-8"))
    zero = [p for p in data["paths"] if p["exception"] == "ZeroDivisionError"]
    assert len(zero) == 5
    bugs = {b["exception"]: b for b in data["bugs"]}
    assert sorted(bugs) == ["IndexError", "ZeroDivisionError"]
    assert bugs["ZeroDivisionError"] == {
        "kind": "implicit",
        "exception": "ZeroDivisionError",
        "line": 7,
        "message": "integer division or modulo by zero",
        "inputs": {"xs": [], "k": 0},
        "paths": 5,
    }
    index_paths = [p for p in data["paths"] if p["exception"] == "IndexError"]
    assert bugs["IndexError"]["paths"] == len(index_paths)
    assert bugs["IndexError"]["inputs"] == min((p["inputs"] for p in index_paths), key=input_size)


def test_bugs_of_different_kinds_at_one_line_stay_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.py"
    path.write_text(
        textwrap.dedent("""\
        def g(x: int) -> int:
            y = x
            assert y != 3 and 10 // y > 1
            return y
        """),
        encoding="utf-8",
    )
    assert main(["check", f"{path}::g"]) == 1
    described = [d for d, _, _ in _bug_blocks(capsys.readouterr().out)]
    assert sorted(described) == [
        "raises AssertionError at line 3 [assertion failed]",
        "raises ZeroDivisionError: integer division or modulo by zero at line 3 [BUG]",
    ]
