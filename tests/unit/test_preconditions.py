"""Leading asserts are preconditions, as in CrossHair: inputs that violate them are not bugs.

The ``assert`` statements that open a function's body (after its docstring, before any other
statement) are lowered to raises of kind ``precondition``. Their failure in the explored
target itself (or in the constructor that builds a method target's receiver) is reported as a
path of kind ``precondition``, not a bug; in a function the target calls it is an ``assert``
bug (the caller broke the callee's contract). ``--no-preconditions`` makes them all asserts.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.api import explore_source
from pathloom.cli import main
from pathloom.frontend import ir
from pathloom.frontend.module import parse_module
from pathloom.options import Options
from pathloom.engines.registry import engine_names

SOURCE = textwrap.dedent('''\
    def half(n: int, d: int) -> int:
        """Half of n, for positive n."""
        assert n > 0, "positive"
        assert d != 3
        if n == 7:
            assert d != 5, "not five"
        return helper(n, d) // 2


    def helper(m: int, d: int) -> int:
        assert m != 9, "nine"
        return m


    class Box:
        def __init__(self, size: int) -> None:
            assert size >= 0
            self.size = size

        def grow(self, k: int) -> int:
            assert k < 100
            self.size = self.size + k
            return self.size
    ''')


def _raises(source: str, target: str, **options: object) -> set[tuple[object, ...]]:
    exploration = explore_source(source, target, Options(**options))  # type: ignore[arg-type]
    return {(p.exception, p.line, p.kind, p.is_bug) for p in exploration.paths if p.outcome == "raise"}


def test_the_lowerer_marks_only_the_leading_asserts() -> None:
    module = parse_module(SOURCE, "<pre>")
    kinds = {}
    for name in ("half", "helper", "Box.__init__", "Box.grow"):
        for block in module.function(name).blocks.values():
            if isinstance(block.terminator, ir.Raise):
                kinds[block.terminator.loc.line] = block.terminator.kind
    assert kinds == {3: "precondition", 4: "precondition", 6: "assert", 11: "precondition", 17: "precondition", 21: "precondition"}


@pytest.mark.parametrize("engine", engine_names())
def test_a_violated_precondition_of_the_target_is_not_a_bug_and_of_a_callee_it_is(engine: str) -> None:
    assert _raises(SOURCE, "half", engine=engine) == {
        ("AssertionError", 3, "precondition", False),
        ("AssertionError", 4, "precondition", False),
        ("AssertionError", 6, "assert", True),  # not at the start of the body
        ("AssertionError", 11, "assert", True),  # helper's precondition, broken by half
    }


@pytest.mark.parametrize("engine", engine_names())
def test_a_method_target_and_the_constructor_of_its_receiver(engine: str) -> None:
    assert _raises(SOURCE, "Box.grow", engine=engine) == {
        ("AssertionError", 17, "precondition", False),
        ("AssertionError", 21, "precondition", False),
    }
    assert _raises(SOURCE, "Box.__init__", engine=engine) == {("AssertionError", 17, "precondition", False)}


def test_no_preconditions_makes_them_asserts() -> None:
    assert _raises(SOURCE, "half", preconditions=False) == {
        ("AssertionError", 3, "assert", True),
        ("AssertionError", 4, "assert", True),
        ("AssertionError", 6, "assert", True),
        ("AssertionError", 11, "assert", True),
    }


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "pre.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def test_check_does_not_report_a_violated_precondition(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{program}::Box.grow"]) == 0
    out = capsys.readouterr().out
    assert "AssertionError" not in out and "0 bug(s)" in out
    assert main(["check", f"{program}::Box.grow", "--no-preconditions"]) == 1
    assert "AssertionError" in capsys.readouterr().out


def test_explore_lists_precondition_paths(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", f"{program}::half"]) == 1  # the asserts at lines 6 and 11 are bugs
    out = capsys.readouterr().out
    assert "raises AssertionError: positive at line 3 [precondition]" in out
    assert "raises AssertionError at line 4 [precondition]" in out
    assert "raises AssertionError: not five at line 6 [assertion failed]" in out


def test_generated_tests_expect_the_assertion_error_of_a_violated_precondition(program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tests = tmp_path / "test_pre.py"
    assert main(["explore", f"{program}::Box.grow", "--tests", str(tests), "--json", str(tmp_path / "o.json")]) == 0
    capsys.readouterr()
    text = tests.read_text(encoding="utf-8")
    assert text.count("pytest.raises(AssertionError)") == 2 and "precondition violated" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout
    assert '"kind": "precondition"' in (tmp_path / "o.json").read_text(encoding="utf-8")
