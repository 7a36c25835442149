"""Generator expressions are generators (``frontend.lowering.comprehensions``): a ``for``
statement over one makes its items one at a time, between the body's runs, with the body in
the enclosing scope; a ``StopIteration`` raised by the expression's own code (``next(it)`` in
it) is CPython's ``RuntimeError`` (PEP 479), where a list comprehension lets it through. The
``sum``/``list`` cases were a wrong answer before (StopIteration predicted). Every input is
replayed in CPython, in every engine, and compared with CPython's outcome here."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = """\
def s(xs: list[int]) -> int:
    it = iter(xs)
    return sum(next(it) for _ in range(2))


def s2(xs: list[int]) -> int:
    it = iter(xs)
    total = sum(
        v
        for v in [
            next(it),
        ]
        if next(it) > 0
    )
    return total


def l(xs: list[int]) -> list[int]:
    it = iter(xs)
    return [next(it) for _ in range(2)]


def lg(xs: list[int]) -> list[int]:
    it = iter(xs)
    return list(next(it) for _ in range(2))


def caught(xs: list[int]) -> int:
    it = iter(xs)
    try:
        return sum(next(it) for _ in range(2))
    except StopIteration:
        return -1
    except RuntimeError:
        return -2


def longest(lines: list[str]) -> int:
    best = 0
    for n in (len(s) for s in lines if s):
        if n > 3:
            break
        if n == 1:
            continue
        best = max(best, n)
    else:
        best = -best
    return best


def pairs(xs: list[int], ys: list[int]) -> int:
    t = 0
    for a, b in ((x, y) for x in xs for y in ys if x != y):
        if a + b == 3:
            break
        t += a * b
    return t


def shadow(x: int, xs: list[int]) -> int:
    log = []
    for x in (x + 1 for x in xs):
        log.append(x)
        xs.append(0) if len(xs) < 3 else None
    return x + len(log)
"""

TARGETS = ["s", "s2", "l", "lg", "caught", "longest", "pairs", "shadow"]


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", TARGETS)
def test_generator_expressions_are_generators(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "gx.py", target, engine, "--max-list-len", "3")
    paths = [p for p in result["paths"] if not p.get("cut")]  # type: ignore[union-attr]
    assert paths
    for p in paths:
        got = p["returned"] if p["outcome"] == "return" else p["exception"]
        inputs = dict(p["inputs"])
        for name, value in p["inputs"].items():  # aliased inputs: {"$same": other}, the same list object
            if isinstance(value, dict) and "$same" in value:
                inputs[name] = inputs[value["$same"]]
        assert got == python_outcome(SOURCE, target, inputs), p


def test_stop_iteration_in_a_generator_expression_is_a_runtime_error(tmp_path: Path) -> None:
    raised = {}
    for target in ("s", "lg", "l"):
        result = explore_source(tmp_path, SOURCE, "gx.py", target, "dse", "--max-list-len", "3")
        raised[target] = {p["exception"] for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert raised == {"s": {"RuntimeError"}, "lg": {"RuntimeError"}, "l": {"StopIteration"}}
    result = explore_source(tmp_path, SOURCE, "gx.py", "caught", "dse", "--max-list-len", "3")
    assert {p["returned"] for p in result["paths"]} >= {-2}  # type: ignore[union-attr]
