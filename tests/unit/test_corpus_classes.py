"""Classes as python-by-contract-corpus writes them: a subclass of icontract's ``DBC`` (a
metaclass with no behaviour of its own for methods without contracts) is analysed like a plain
class, its fields may be ``Final[T]``; a method that carries contracts is run by the real class
(cut, reported, when met on an input object), never ignored."""

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


def test_a_method_with_contracts_is_left_to_the_real_class_and_reported(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "cells.py", "grow", "dse")
    assert not result["complete"]
    assert any("attribute 'scaled'" in str(p["reason"]) for p in result["paths"] if p["outcome"] == "cut")  # type: ignore[union-attr]
