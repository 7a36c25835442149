"""Starred and double-starred arguments in calls (``f(*xs)``, ``f(a, *xs, b)``, ``f(**kw)``,
``f(*xs, **kw)``) of analysed functions, methods, constructors and builtins, in CPython's order
(``CALL_FUNCTION_EX``): the function (a bound method read first), the positional items, the
keywords merged run by run. Binding is the callee's own: CPython's TypeErrors and messages for
wrong counts, repeated names (``got multiple values for keyword argument`` with the function's
module-qualified name, as ``DICT_MERGE`` says it) and values that are not iterable or not a
mapping. Every engine, every input replayed in CPython."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source

SOURCE = """
def add3(a: int, b: int, c: int = 0) -> int:
    return a * 100 + b * 10 + c


class Box:
    def __init__(self, v: int, w: int = 1) -> None:
        self.v = v
        self.w = w

    def get(self, a: int, b: int = 0) -> int:
        return self.v + a - b


def spread(xs: list[int]) -> int:
    return add3(*xs)


def mixed(x: int, xs: list[int]) -> int:
    return add3(x, *xs, c=x)


def kwargs(x: int, s: str) -> int:
    kw = {"b": x, "c": 1}
    if s == "a":
        kw = {"a": x}
    return add3(0, **kw)


def both(x: int, xs: list[int]) -> int:
    kw = {"c": x}
    b = Box(*xs[:1], **{"w": x})
    return b.get(*xs, **kw) + b.w


def builtins_(xs: list[int]) -> int:
    return max(*xs, 0) + len(*[xs]) + min(0, *xs)


def errors(x: int) -> int:
    kw = {"a": 1}
    if x == 0:
        return add3(*x)
    if x == 1:
        return add3(**x)
    if x == 2:
        return add3(**kw, a=2)
    if x == 3:
        return Box(1).get(**kw, **{"a": 3})
    if x == 4:
        return add3(1, *[x, x], **{"b": 5})
    if x == 5:
        return [].append(*x)
    return add3(*[1, 2], zz=3)


def methods(x: int, xs: list[int]) -> int:
    ys = [x]
    ys.append(*xs[:1])
    ys.extend(*[xs])
    return len(ys) + ys[-1]
"""

ENGINES = engine_names()


def _run(tmp_path: Path, target: str, engine: str) -> list[dict[str, object]]:
    result = explore_source(tmp_path, SOURCE, "calls.py", target, engine, "--max-list-len", "3")
    assert result["complete"], target
    return result["paths"]  # type: ignore[return-value]


def _returned(paths: list[dict[str, object]]) -> list[tuple[dict[str, object], object]]:
    return [(p["inputs"], p["returned"]) for p in paths if p["outcome"] == "return"]  # type: ignore[misc]


@pytest.mark.parametrize("engine", ENGINES)
def test_starred_arguments_bind_as_cpython_does(tmp_path: Path, engine: str) -> None:
    paths = _run(tmp_path, "spread", engine)
    assert {p["message"] for p in paths if p["outcome"] == "raise"} == {
        "add3() missing 2 required positional arguments: 'a' and 'b'",
        "add3() missing 1 required positional argument: 'b'",
    }
    for inputs, returned in _returned(paths):
        xs = inputs["xs"]
        assert returned == xs[0] * 100 + xs[1] * 10 + (xs[2] if len(xs) == 3 else 0)  # type: ignore[index, arg-type]
    paths = _run(tmp_path, "mixed", engine)
    assert {p["message"] for p in paths if p["outcome"] == "raise"} == {
        "add3() missing 1 required positional argument: 'b'",
        "add3() got multiple values for argument 'c'",
    }
    for inputs, returned in _returned(paths):
        assert returned == inputs["x"] * 101 + inputs["xs"][0] * 10  # type: ignore[index, operator]


@pytest.mark.parametrize("engine", ENGINES)
def test_double_starred_arguments(tmp_path: Path, engine: str) -> None:
    paths = _run(tmp_path, "kwargs", engine)
    assert {p["message"] for p in paths if p["outcome"] == "raise"} == {"add3() got multiple values for argument 'a'"}
    for inputs, returned in _returned(paths):
        assert returned == inputs["x"] * 10 + 1  # type: ignore[operator]


@pytest.mark.parametrize("engine", ENGINES)
def test_methods_constructors_and_builtins(tmp_path: Path, engine: str) -> None:
    assert {p["message"] for p in _run(tmp_path, "both", engine) if p["outcome"] == "raise"} == {
        "Box.__init__() missing 1 required positional argument: 'v'",
        "Box.get() got an unexpected keyword argument 'c'",
    }
    paths = _run(tmp_path, "builtins_", engine)
    assert {p["message"] for p in paths if p["outcome"] == "raise"} == {"'int' object is not iterable"}  # max(0)
    for inputs, returned in _returned(paths):
        xs = inputs["xs"]
        assert returned == max(*xs, 0) + len(xs) + min(0, *xs)  # type: ignore[misc, arg-type]
    paths = _run(tmp_path, "methods", engine)
    assert {p["message"] for p in paths if p["outcome"] == "raise"} == {"list.append() takes exactly one argument (0 given)"}
    for inputs, returned in _returned(paths):
        xs = inputs["xs"]
        assert returned == 2 + len(xs) + xs[-1]  # type: ignore[index, arg-type, operator]


@pytest.mark.parametrize("engine", ENGINES)
def test_bad_star_arguments_are_cpythons_type_errors(tmp_path: Path, engine: str) -> None:
    messages = sorted(str(p["message"]).rpartition("_calls.")[2] for p in _run(tmp_path, "errors", engine))
    assert messages == sorted(
        [
            "add3() argument after * must be an iterable, not int",
            "add3() argument after ** must be a mapping, not int",
            "add3() got multiple values for keyword argument 'a'",
            "Box.get() got multiple values for keyword argument 'a'",
            "add3() got multiple values for argument 'b'",
            "list.append() argument after * must be an iterable, not int",
            "add3() got an unexpected keyword argument 'zz'",
        ]
    )
