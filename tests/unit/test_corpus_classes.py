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
