"""Nested functions and lambdas that close over the enclosing function's variables are
closures by value (``frontend.lower``: exact when every binding of each variable is in a
top-level statement before the closure, one of them direct; anything else is unsupported). Every exploration is replayed in CPython."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest


from .verified import explore_source, refusal
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

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


CELLS = """
def rebound(k: int) -> int:
    g = lambda: k
    k = 3
    return g()


def later(n: int) -> int:
    def g(k: int) -> int:
        return k + d
    d = n * 2
    return g(1)


def before_binding(n: int) -> int:
    def g() -> int:
        return d
    if n > 0:
        return g()
    d = 1
    return g()


def loop_lambda(xs: list[int]) -> int:
    total = 0
    for m in xs:
        f = lambda x: x * m
        total += f(2)
    return total


def last_of_loop(n: int) -> int:
    for k in range(n):
        g = lambda: k
    return g()


def maybe_bound(n: int) -> int:
    if n > 0:
        k = 1
    g = lambda: k
    return g()


def mutual(n: int) -> int:
    def even(k: int) -> bool:
        return True if k == 0 else odd(k - 1)

    def odd(k: int) -> bool:
        return False if k == 0 else even(k - 1)

    return 1 if even(n) else 0


def two_levels(n: int) -> int:
    def outer() -> int:
        def inner() -> int:
            return z + 1
        return inner()
    z = n
    return outer()
"""

FREE_UNBOUND = "cannot access free variable '{}' where it is not associated with a value in enclosing scope"


def _outcomes(result: dict) -> set[tuple[str, object]]:  # type: ignore[type-arg]
    return {(p["outcome"], p["message"] if p["outcome"] == "raise" else p["returned"]) for p in result["paths"]}


@pytest.mark.parametrize("engine", ENGINES)
def test_cells_hold_the_binding_at_call_time(tmp_path: Path, engine: str) -> None:
    """A variable bound after the closure is made, or again in the closure's loop, is a cell
    (``ir.MakeCell``/``StoreCell``/``LoadCell``): the closure reads its current binding, and
    NameError when it has none yet, as in CPython (every input replayed)."""

    def run(target: str) -> dict:  # type: ignore[type-arg]
        result = explore_source(tmp_path, CELLS, "cells.py", target, engine, "--max-list-len", "2", "--max-iterations", "3", "--max-depth", "6")
        assert not result["stats"]["concretizations"]  # type: ignore[index]
        return result

    assert _outcomes(run("rebound")) == {("return", 3)}
    assert {o for o, _ in _outcomes(run("later"))} == {"return"}
    assert ("raise", FREE_UNBOUND.format("d")) in _outcomes(run("before_binding"))
    assert ("return", 1) in _outcomes(run("before_binding"))
    loop = run("loop_lambda")
    assert [p["returned"] for p in loop["paths"]] == [2 * sum(p["inputs"]["xs"]) for p in loop["paths"]]
    assert len(loop["paths"]) == 3  # no item, one, two
    last = _outcomes(run("last_of_loop"))
    assert ("raise", "cannot access local variable 'g' where it is not associated with a value") in last
    assert ("return", 0) in last and ("return", 1) in last
    assert _outcomes(run("maybe_bound")) == {("return", 1), ("raise", FREE_UNBOUND.format("k"))}
    assert _outcomes(run("mutual")) >= {("return", 0), ("return", 1)}
    assert {o for o, _ in _outcomes(run("two_levels"))} == {"return"}


@pytest.mark.parametrize(
    "body",
    [
        "    g = lambda: k\n    k = 1\n    del k\n    return g()\n",
        "    g = lambda: k\n    try:\n        return 1 // n\n    except ZeroDivisionError as k:\n        return 0\n",
        "    return [(lambda: k) for _ in range(n)][0]()\n    k = 1\n",
    ],
)
def test_unbinding_a_cell_or_a_lambda_in_a_comprehension_is_unsupported(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    body: str,
) -> None:
    path = tmp_path / "cells.py"
    path.write_text("def f(n: int) -> int:\n" + body, encoding="utf-8")
    for engine in ("dse", "multise"):
        assert ": unsupported: " in refusal(path, "f", engine, capsys)


NONLOCAL = textwrap.dedent("""
    def count(xs: list[int]) -> int:
        total = 0
        seen = ""

        def visit(x: int) -> None:
            nonlocal total, seen
            if x > 2:
                total += x
                seen = seen + "a"

        for x in xs:
            visit(x)
        return total + len(seen)


    def tree(n: int) -> str:
        code = ""

        def walk(k: int) -> None:
            nonlocal code
            if k > 0:
                code += "0"
                walk(k - 1)
                code += "1"

        walk(n)
        return code


    def unbound(b: bool) -> int:
        def read() -> int:
            nonlocal late
            late += 1
            return late
        if b:
            return read()
        late = 1
        return read()
""")


@pytest.mark.parametrize("engine", ENGINES + ("compose",))
@pytest.mark.parametrize("target", ["count", "tree", "unbound"])
def test_nonlocal_writes_go_to_the_cell_the_enclosing_function_reads(tmp_path: Path, engine: str, target: str) -> None:
    """``nonlocal x`` in a nested function: its writes go to ``x``'s cell, and the enclosing
    function reads ``x`` through the cell after calling it (values and the NameError of an
    unbound cell as CPython's)."""
    result = explore_source(tmp_path, NONLOCAL, "shared.py", target, engine, "--max-list-len", "3", "--max-depth", "6")
    returned = {p["returned"] for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[union-attr]
    if target == "count":
        assert 3 + 1 in returned  # one item above 2: total 3, seen "a"
    if target == "tree":
        assert {"", "01", "0011"} <= returned
    if target == "unbound":
        raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
        assert returned == {2} and raised == {("NameError", "cannot access free variable 'late' where it is not associated with a value in enclosing scope")}
