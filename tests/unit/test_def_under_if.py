"""Two nested ``def``s of one name (``def step`` under both branches of an ``if``) are two
functions with one ``__qualname__``: each call runs the one its branch made. Before
``lowering.functions.own_qualname`` the second overwrote the first (both keyed by the
qualname), a wrong answer the quality corpus found (``control.py::apply_step``: "complete, 0
bugs" on a failing assert). Every input is replayed in CPython, in every engine."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = textwrap.dedent("""
    def apply_step(kind: int, x: int) -> int:
        if kind == 0:
            def step(v: int) -> int:
                return v + 1
        else:
            def step(v: int) -> int:
                return v * 2
        return step(x)


    def names(kind: int) -> str:
        if kind == 0:
            def step(v: int) -> int:
                def inner() -> int:
                    return v
                return inner() + 1
        elif kind == 1:
            def step(v: int) -> int:
                def inner() -> int:
                    return -v
                return inner()
        else:
            def step(v: int) -> int:
                return v * 2
        return step.__name__ + str(step(3))


    def checked(kind: int, x: int) -> int:
        if kind == 0:
            def step(v: int) -> int:
                return v + 1
        else:
            def step(v: int) -> int:
                return v * 2
        result = step(x)
        assert result > x
        return result
""")


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["apply_step", "names"])
def test_each_branch_calls_its_own_function(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "defs.py", target, engine)
    paths = result["paths"]
    assert result["complete"] and len(paths) == (2 if target == "apply_step" else 3)  # type: ignore[arg-type]
    for p in paths:  # type: ignore[union-attr]
        assert p["returned"] == python_outcome(SOURCE, target, p["inputs"]), p
    if target == "names":
        assert {p["returned"] for p in paths} == {"step4", "step-3", "step6"}  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", engine_names())
def test_the_failing_assert_is_found(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "defs.py"
    path.write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "bugs.json"
    assert main(["check", f"{path}::checked", "--engine", engine, "--json", str(out), "--quiet"]) == 1
