"""``collections.Counter(generator expression)`` (``frontend.lowering.comprehensions``): the
generator made, then the empty Counter, then each item counted as it is made, as CPython's
``Counter.update`` counts the items of the generator one at a time; so an unhashable item
raises CPython's ``TypeError`` before a later item is made (counting a list built first
would raise the later item's error instead). Every input is replayed in CPython, in every
engine, and compared with CPython's outcome here."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = """\
import collections
from collections import Counter


def letters(word: str) -> list[object]:
    if len(word) > 2:
        return []
    counts = Counter(c for c in word if c != "x")
    return [counts["a"], len(counts)]


def first_error(xs: list[int]) -> str:
    try:
        c = collections.Counter([x] if x == 0 else 10 // (x - 1) for x in xs)
    except (TypeError, ZeroDivisionError) as e:
        return type(e).__name__ + ": " + str(e)
    return str(sorted(c.items()))


def fixed(k: int) -> str:
    return first_error([0, 1] if k > 0 else [2, 1])
"""


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["letters", "first_error"])
def test_counter_of_a_generator_counts_item_by_item(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "cnt.py", target, engine, "--max-list-len", "2", "--max-str-len", "2", "--timeout", "30")
    paths = [p for p in result["paths"] if not p.get("cut") and p["outcome"] in ("return", "raise")]  # type: ignore[attr-defined]
    assert paths
    for p in paths:
        got = p["returned"] if p["outcome"] == "return" else p["exception"]
        assert got == python_outcome(SOURCE, target, dict(p["inputs"])), p


def test_an_unhashable_item_raises_before_a_later_items_error(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "cnt.py", "first_error", "dse", "--max-list-len", "2")
    by_input = {tuple(p["inputs"]["xs"]): p["returned"] for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[attr-defined]
    assert "TypeError: unhashable type: 'list'" in by_input.values()
    assert all(v.startswith("TypeError") for k, v in by_input.items() if k[:1] == (0,)), by_input
    result = explore_source(tmp_path, SOURCE, "cnt.py", "fixed", "dse")
    returned = {p["inputs"]["k"] > 0: p["returned"] for p in result["paths"]}  # type: ignore[attr-defined]
    assert returned == {True: "TypeError: unhashable type: 'list'", False: "ZeroDivisionError: integer division or modulo by zero"}
