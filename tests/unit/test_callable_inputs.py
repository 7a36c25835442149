"""``Callable[[A], R]`` inputs (``engines.entry._Builder._table``, ``semantics.calls``): a
lookup table the solver chooses (``{"$table": [[key, value], ...], "default": d}``), replayed
and written in generated tests as ``lambda x: {key: value}.get(x, d)``. Every input is
replayed in CPython (``--verify``) and the generated tests pass."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from typing import Callable


    def first_true(lo: int, hi: int, predicate: Callable[[int], bool]) -> int:
        while lo < hi:
            mid = lo + (hi - lo) // 2
            if predicate(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo


    def apply(f: Callable[[str], int], s: str) -> int:
        if f(s) > 3 and f("a") == 0:
            return 1
        return f(s) // 2


    def misuse(f: Callable[[int], int], xs: list[int]) -> int:
        if xs:
            return f(xs)
        return f(len(xs))
""")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_callable_input_is_a_table_the_solver_fills(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "calls.py", "apply", engine)
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
    assert {p["returned"] for p in result["paths"]} >= {1}  # type: ignore[union-attr]
    for p in result["paths"]:  # type: ignore[union-attr]
        table = p["inputs"]["f"]  # type: ignore[index]
        assert set(table) == {"$table", "default"}
        keys = [k for k, _ in table["$table"]]
        assert len(keys) == len(set(keys))  # a shadowed entry is left out


@pytest.mark.parametrize("engine", ENGINES)
def test_a_predicate_steers_a_binary_search(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "calls.py", "first_true", engine, "--max-iterations", "3")
    returned = {p["returned"] for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[union-attr]
    assert len(returned) >= 3


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unhashable_argument_is_cpythons_type_error(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "calls.py", "misuse", engine)
    raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert raised == {("TypeError", "unhashable type: 'list'")}


def test_generated_tests_pass_the_table_as_a_lambda(tmp_path: Path) -> None:
    path = tmp_path / "calls.py"
    path.write_text(SOURCE, encoding="utf-8")
    tests = tmp_path / "test_calls.py"
    assert main(["explore", f"{path}::apply", "--tests", str(tests), "--quiet"]) == 0
    assert "(lambda x: {" in tests.read_text(encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
