"""Classes as python-by-contract-corpus writes them: a subclass of icontract's ``DBC`` (a
metaclass with no behaviour of its own for methods without contracts) is analysed like a plain
class, its fields may be ``Final[T]``; a method that carries contracts is lowered with them
written in, as a function is; a class with its own ``__new__`` is constructed by CPython."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source

SOURCE = """
from typing import Final

from icontract import DBC, require


class Cell(DBC):
    def __init__(self, x: int, y: int, label: str) -> None:
        self.x: Final[int] = x
        self.y: Final[int] = y
        self.label: Final[str] = label

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    @require(lambda factor: factor > 0)
    def scaled(self, factor: int) -> int:
        return self.x * factor


def far(c: Cell) -> bool:
    if c.label == "e" and c.norm1() > 10:
        return True
    return False


def grow(c: Cell, k: int) -> int:
    return c.scaled(k)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_dbc_class_with_final_fields_is_an_input_object(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "cells.py", "far", engine)
    assert result["complete"]
    assert {p["returned"] for p in result["paths"]} == {True, False}  # type: ignore[union-attr]


def test_a_method_with_contracts_is_checked_where_it_is_called(tmp_path: Path) -> None:
    """``grow(c, 0)`` breaks the precondition of the method it calls: grow's bug, at the
    condition's line (the method is lowered with its contracts, ``frontend.contracts``)."""
    result = explore_source(tmp_path, SOURCE, "cells.py", "grow", "dse")
    assert result["complete"]
    line = SOURCE.split("\n").index("    @require(lambda factor: factor > 0)") + 1
    assert [(b["line"], b["inputs"]["k"] <= 0) for b in result["bugs"]] == [(line, True)]  # type: ignore[union-attr, index]


WRAPPER = """
from typing import cast


class Lines:
    def __new__(cls, lines: list[str]) -> "Lines":
        return cast(Lines, lines)


class Plain:
    def __init__(self, n: int) -> None:
        self.n = n


def count(n: int) -> int:
    return len(Lines(["a"] * (n % 3)))  # Lines(...) is the list itself


def made(n: int) -> int:
    return Plain(n).n
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_class_with_its_own_new_is_constructed_by_cpython(tmp_path: Path, engine: str) -> None:
    """A class that defines ``__new__`` was modelled as if constructed by ``__init__`` alone: the
    engines predicted ``TypeError: Lines() takes no arguments`` where CPython returns what
    ``__new__`` returns (python-by-contract-corpus's cast wrappers; replay mismatches)."""
    result = explore_source(tmp_path, WRAPPER, "wrappers.py", "count", engine)
    assert all(p["outcome"] != "raise" for p in result["paths"])  # type: ignore[union-attr]
    assert explore_source(tmp_path, WRAPPER, "wrappers.py", "made", engine)["complete"]


CAST_WRAPPERS = """
from typing import Sequence, cast

from icontract import DBC, require


class Lines(DBC):
    @require(lambda lines: all("\\n" not in line for line in lines))
    def __new__(cls, lines: Sequence[str]) -> "Lines":
        "Make sure the lines have no newline."
        return cast(Lines, lines)


class Point(DBC):
    @require(lambda x: x >= 0)
    def __new__(cls, x: int, y: int) -> "Point":
        return cast(Point, (x, y))


def longest(lines: Lines) -> int:
    best = 0
    for line in lines:
        if len(line) > best:
            best = len(line)
    assert best < 5
    return best


def right(p: Point) -> int:
    return p[0] + 1
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_cast_wrapper_parameter_is_its_underlying_value_under_its_preconditions(tmp_path: Path, engine: str) -> None:
    """``Lines(DBC)`` whose ``__new__`` returns ``cast(Lines, lines)``: a ``Lines`` input is a
    list of strs without a newline (the precondition of ``__new__``, a precondition of the
    input: never a bug); ``Point``'s is a pair ``(x, y)`` with ``x >= 0``."""
    longest = explore_source(tmp_path, CAST_WRAPPERS, "wrapped.py", "longest", engine)
    assert longest["complete"]
    (bug,) = longest["bugs"]  # type: ignore[misc]
    assert bug["kind"] == "assert" and all("\n" not in line for line in bug["inputs"]["lines"]) and max(map(len, bug["inputs"]["lines"])) >= 5
    right = explore_source(tmp_path, CAST_WRAPPERS, "wrapped.py", "right", engine)
    assert right["complete"] and not right["bugs"]
    outcomes = {(p["outcome"], p.get("kind")) for p in right["paths"]}  # type: ignore[union-attr]
    assert outcomes == {("return", None), ("raise", "precondition")}


def test_generated_tests_of_cast_wrapper_inputs_pass(tmp_path: Path) -> None:
    import subprocess
    import sys

    from pathloom.cli import main

    source = tmp_path / "wrapped.py"
    source.write_text(CAST_WRAPPERS)
    tests = tmp_path / "test_wrapped.py"
    assert main(["explore", f"{source}::right", "--tests", str(tests), "--quiet"]) == 0
    assert "that pathloom checks and CPython does not" in tests.read_text()  # the precondition path: no test
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout


FLOAT_FIELDS = """
import math


class Entry:
    def __init__(self, name: str, price: float) -> None:
        self.name = name
        self.price = price


def cost(e: Entry, days: int) -> float:
    if e.price < 0:
        raise ValueError("negative")
    if math.isnan(e.price):
        return 0.0
    total = e.price * days
    if total > 100.5:
        return 100.5
    return total
"""


@pytest.mark.parametrize("heap", ["pose", "lazier", "lazy"])
@pytest.mark.parametrize("engine", engine_names())
def test_a_float_field_of_an_input_object_is_any_ieee_value(tmp_path: Path, engine: str, heap: str) -> None:
    """A ``float`` field (python-by-contract-corpus's ``Entry.price_per_day``) is a FLOAT symbol:
    NaN and the infinities are reached, written ``{"$float": "nan"}`` in the JSON, replayed."""
    result = explore_source(tmp_path, FLOAT_FIELDS, "prices.py", "cost", engine, "--heap", heap)
    assert result["complete"]
    prices = [p["inputs"]["e"]["fields"]["price"] for p in result["paths"]]  # type: ignore[index, union-attr]
    assert {"$float": "nan"} in prices
    assert {p["outcome"] for p in result["paths"]} == {"return", "raise"}  # type: ignore[union-attr]
