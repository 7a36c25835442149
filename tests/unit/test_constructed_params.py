"""Parameters of a class whose fields input objects cannot hold (a list field, an attribute
of no type): built by the class's constructor from symbolic arguments, as a method's
receiver is (``engines.entry.Constructed``), reported ``{"$new": C, "args": {...}}`` and
named as tried in part (``untried``: only the objects the constructor builds, never None).
Every input is replayed in CPython (``--verify``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from typing import Optional


    class Bag:
        def __init__(self, label: int) -> None:
            self.label = label
            self.items: list[int] = []

        def add(self, x: int) -> None:
            self.items.append(x)


    def weigh(bag: Bag, x: int) -> int:
        bag.add(x)
        if bag.label > 3 and bag.items[0] == x:
            return bag.label
        return len(bag.items)


    def maybe(bag: Optional[Bag]) -> int:
        if bag is None:
            return -1
        return bag.label


    class Shelf:
        def __init__(self, size: int) -> None:
            self.size = size

        def put(self, bag: Bag) -> int:
            if bag.label == self.size:
                raise ValueError("full")
            return bag.label - self.size
""")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_parameter_of_such_a_class_is_built_by_its_constructor(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "bags.py", "weigh", engine)
    assert {p["returned"] for p in result["paths"]} >= {1} and any(  # type: ignore[union-attr]
        isinstance(p["returned"], int) and p["returned"] > 3 for p in result["paths"]
    )  # type: ignore[union-attr]
    assert all(p["inputs"]["bag"]["$new"] == "Bag" for p in result["paths"])  # type: ignore[union-attr,index]
    assert not result["complete"]
    [untried] = result["untried"]  # type: ignore[misc]
    assert untried.startswith("bag: only objects Bag(...) builds, since input object of class Bag: field 'items' of type list[int]")


@pytest.mark.parametrize("engine", ENGINES)
def test_none_is_not_tried_for_an_optional_one_and_says_so(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "bags.py", "maybe", engine)
    assert -1 not in {p["returned"] for p in result["paths"]}  # type: ignore[union-attr]
    assert "(never None)" in result["untried"][0]  # type: ignore[index]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_method_takes_one_beside_its_receiver(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "bags.py", "Shelf.put", engine)
    outcomes = {(p["outcome"], p.get("exception")) for p in result["paths"]}  # type: ignore[union-attr]
    assert outcomes == {("raise", "ValueError"), ("return", None)}
