"""Nested functions and lambdas that close over the enclosing function's variables are
closures by value (``frontend.lower``: exact when every binding of each variable is in a
top-level statement before the closure, one of them direct; anything else is unsupported). Every exploration is replayed in CPython."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_source

ENGINES = ("dse", "multise")

SOURCE = textwrap.dedent("""
    def scaled(xs: list[int], k: int) -> list[int]:
        scale = k * 2

        def adjust(v: int) -> int:
            return v * scale + k

        return [adjust(x) for x in xs]


    def factorial(n: int) -> int:
        def fact(m: int) -> int:
            if m <= 1:
                return 1
            return m * fact(m - 1)

        return fact(n)


    def count_above(xs: list[int], t: int) -> int:
        above = lambda v: v > t
        return sum(1 for x in xs if above(x))


    def nested_twice(a: int) -> int:
        def outer(b: int) -> int:
            def inner(c: int) -> int:
                return a + b + c
            return inner(1)
        return outer(2)


    def clamp(xs: list[int], lo: int | None, hi: int | None) -> list[int]:
        if lo is None:
            lo = xs[0] if xs else 0
        if hi is None:
            hi = 5
        hi = hi + 1
        return [x for x in xs if (lambda v: lo <= v < hi)(x)]


    def wrong_call(a: int) -> int:
        def g(b: int) -> int:
            return a + b
        if a > 0:
            return g()  # type: ignore[call-arg]
        return g(a)
""")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["scaled", "factorial", "count_above", "nested_twice", "clamp", "wrong_call"])
def test_closures_are_symbolic_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "closures.py", target, engine, "--max-depth", "8")
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    if target != "factorial":  # the recursion is cut at --max-depth
        assert result["complete"]


def test_a_wrong_call_names_the_nested_function_as_cpython_does(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "closures.py", "wrong_call", "dse")
    raised = [p["message"] for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert raised == ["wrong_call.<locals>.g() missing 1 required positional argument: 'b'"]


def test_a_variable_rebound_after_the_closure_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "late.py"
    path.write_text("def f(k: int) -> int:\n    g = lambda: k\n    k = 3\n    return g()\n", encoding="utf-8")
    assert main(["explore", f"{path}::f"]) == 2
    assert "closes over 'k', which is bound more than once or later" in capsys.readouterr().err


@pytest.mark.parametrize("body", [
    "    for k in range(n):\n        g = lambda: k\n    return g()\n",  # rebound in the closure's own loop
    "    if n > 0:\n        k = 1\n    g = lambda: k\n    return g()\n",  # maybe unbound: no direct binding
])
def test_a_variable_bound_in_the_closures_loop_or_maybe_unbound_is_unsupported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str,
) -> None:
    path = tmp_path / "loop.py"
    path.write_text("def f(n: int) -> int:\n" + body, encoding="utf-8")
    assert main(["explore", f"{path}::f"]) == 2
    assert "closes over 'k', which is bound more than once or later" in capsys.readouterr().err
