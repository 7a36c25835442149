"""Control semantics shared by the engines (``semantics/control.py``): infinite recursion,
unbound locals, re-raise lines. Each program is explored by both engines; they must report
the same outcomes, and every input is replayed in CPython."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names
from tests.unit.verified import refusal

ENGINES = tuple(engine_names())


def _explore(tmp_path: Path, source: str, target: str, engine: str, *extra: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    path = tmp_path / "case_control.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    out = tmp_path / "out.json"
    code = main(["explore", f"{path}::{target}", "--engine", engine, "--json", str(out), "--quiet", "--verify", *extra])
    return code, json.loads(out.read_text())


@pytest.mark.parametrize("engine", ENGINES)
def test_a_call_that_repeats_its_caller_is_a_recursion_error_bug(tmp_path: Path, engine: str) -> None:
    code, result = _explore(
        tmp_path,
        """
        def spin(n: int) -> int:
            if n > 5:
                return spin(n)
            return n
        """,
        "spin",
        engine,
    )
    assert code == 1
    assert result["complete"]
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]
    assert [(p["exception"], p["line"], p["kind"]) for p in raised] == [("RecursionError", 4, "implicit")]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_recursion_that_changes_its_argument_is_bounded_not_an_error(tmp_path: Path, engine: str) -> None:
    code, result = _explore(
        tmp_path,
        """
        def down(n: int) -> int:
            if n <= 0:
                return 0
            return down(n - 1) + 1
        """,
        "down",
        engine,
        "--max-depth",
        "5",
    )
    assert code == 0
    assert not result["complete"]
    assert {p["reason"] for p in result["paths"] if p["outcome"] == "cut"} == {"call depth bound 5 reached (--max-depth)"}
    assert not any(p["outcome"] == "raise" for p in result["paths"])


@pytest.mark.parametrize("engine", ENGINES)
def test_an_infinite_recursion_inside_try_is_cut_not_guessed(tmp_path: Path, engine: str) -> None:
    code, result = _explore(
        tmp_path,
        """
        def guarded(n: int) -> int:
            try:
                return guarded(n)
            except RecursionError:
                return -1
        """,
        "guarded",
        engine,
        "--max-depth",
        "8",
    )
    assert code == 0
    assert [p["outcome"] for p in result["paths"]] == ["cut"]


@pytest.mark.parametrize("engine", ENGINES)
def test_unbound_local_is_reported_with_cpythons_message(tmp_path: Path, engine: str) -> None:
    code, result = _explore(
        tmp_path,
        """
        def f(x: int) -> int:
            if x > 0:
                y = 1
            return y
        """,
        "f",
        engine,
    )
    assert code == 1
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]
    assert [(p["exception"], p["message"]) for p in raised] == [
        ("UnboundLocalError", "cannot access local variable 'y' where it is not associated with a value"),
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_raise_from_a_caught_exception_or_none_raises_the_new_exception(tmp_path: Path, engine: str) -> None:
    code, result = _explore(
        tmp_path,
        """
        def f(x: int) -> int:
            try:
                if x > 3:
                    raise KeyError(x)
                return 10 // x
            except ZeroDivisionError as err:
                raise ValueError("zero") from err
            except KeyError:
                raise ValueError("big") from None
        """,
        "f",
        engine,
    )
    assert code == 0
    raised = sorted((p["message"], p["line"]) for p in result["paths"] if p["outcome"] == "raise")
    assert raised == [("big", 10), ("zero", 8)]


def test_raise_from_another_cause_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cause.py"
    path.write_text(
        "def f(x: int) -> int:\n    try:\n        return 1 // x\n    except ZeroDivisionError as err:\n"
        "        err = 5\n        raise ValueError('v') from err\n",
        encoding="utf-8",
    )
    assert "unsupported: raise ... from a cause other than None" in refusal(path, "f", "dse", capsys)
