"""Two list parameters of one type may be the same list (``{"$same": "xs"}``), in both
engines; every input is replayed in CPython (tests/unit/verified.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.verified import explore_source
from pathloom.engines.registry import engine_names

SOURCE = """
def distinct(a: list[int], b: list[int]) -> int:
    n = len(a) + len(b)
    assert a is not b
    return n


def append_both(a: list[int], b: list[int]) -> int:
    before = len(b)
    a.append(1)
    assert len(b) == before
    return len(b)


def three(a: list[int], b: list[int], c: list[int]) -> int:
    a.append(5)
    if len(b) == 1 and len(c) == 1 and b[0] == 5 and c is not a:
        return 1
    return 0


def other_types(a: list[int], s: list[str]) -> int:
    return len(a) + len(s)


class Pair:
    def __init__(self, v1: list[int], v2: list[int]) -> None:
        self.v1 = v1
        self.v2 = v2

    def grow(self) -> int:
        self.v1.append(5)
        return len(self.v2)

    def merge(self, v: list[int], depth: int) -> int:
        if not v:
            return depth
        return v[0] + len(self.v1)

    def combine(self, other: "Pair") -> int:
        self.v1.append(7)
        if len(other.v2) == 2:  # with lists of at most 1 item: other.v2 is self.v1
            return 1
        return 0
"""


@pytest.mark.parametrize("engine", engine_names())
def test_two_list_parameters_may_be_one_list(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "lists.py", "distinct", engine)
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]
    assert [p["inputs"]["b"] for p in raised] == [{"$same": "a"}]
    assert result["complete"]


@pytest.mark.parametrize("engine", engine_names())
def test_a_write_through_one_list_parameter_is_seen_through_the_other(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "lists.py", "append_both", engine, "--max-list-len", "2")
    bugs = [p for p in result["paths"] if p["outcome"] == "raise"]
    assert bugs and all(p["inputs"]["b"] == {"$same": "a"} for p in bugs)


@pytest.mark.parametrize("engine", engine_names())
def test_a_parameter_may_be_a_list_given_to_the_receivers_constructor(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "lists.py", "Pair.merge", engine, "--max-list-len", "1")
    assert any(p["inputs"]["v"] in ({"$same": "self.v1"}, {"$same": "self.v2"}) for p in result["paths"])


@pytest.mark.parametrize("engine", engine_names())
def test_a_constructed_parameter_may_be_given_a_list_given_to_the_receivers_constructor(tmp_path: Path, engine: str) -> None:
    """``other.v2: {"$same": "self.v1"}`` (the real-code run's Polynomial.poly_long_division: an
    internal error writing the test, and a replay KeyError)."""
    result = explore_source(tmp_path, SOURCE, "lists.py", "Pair.combine", engine, "--max-list-len", "1")
    ones = [p for p in result["paths"] if p.get("returned") == 1]
    assert ones and all(_root(p["inputs"], "other.v2") == "self.v1" for p in ones)


def _root(inputs: dict[str, object], name: str) -> str:
    """The argument a ``$same`` chain from the constructor argument ``name`` ends at."""
    while True:
        owner, _, arg = name.partition(".")
        value = inputs[owner]["args"][arg] if arg else inputs[owner]  # type: ignore[index]
        if not (isinstance(value, dict) and "$same" in value):
            return name
        name = value["$same"]


@pytest.mark.parametrize("engine", engine_names())
def test_three_list_parameters_replay(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "lists.py", "three", engine, "--max-list-len", "2")
    assert result["complete"] and 1 in {p.get("returned") for p in result["paths"]}


def test_lists_of_different_types_never_alias(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "lists.py", "other_types", "dse", "--max-list-len", "1")
    assert all(isinstance(p["inputs"]["s"], list) for p in result["paths"])


def test_generated_test_passes_one_list_twice(tmp_path: Path) -> None:
    from pathloom.cli import main

    (tmp_path / "lists.py").write_text(SOURCE)
    out = tmp_path / "test_lists_generated.py"
    assert main(["explore", f"{tmp_path / 'lists.py'}::distinct", "--tests", str(out), "--quiet"]) == 1
    assert "_module.distinct(a=a, b=a)" in out.read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(out)], capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed, 1 xfailed" in run.stdout, run.stdout  # the bug: a strict xfail


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("three", "_module.three(a=a, b=a, c=a)"),  # c is b's list, which is a's: one variable a
        ("Pair.grow", "_module.Pair(v1=receiver_v1, v2=receiver_v1).grow()"),  # a receiver's constructor arguments
        ("Pair.merge", ".merge(v=receiver_v"),  # a parameter given a receiver's constructor argument
        ("Pair.combine", "v2=receiver_v1)"),  # a constructed parameter's argument given a receiver's
    ],
)
def test_generated_tests_resolve_chains_of_shared_lists(tmp_path: Path, target: str, expected: str) -> None:
    """``c: {"$same": "b"}`` with ``b: {"$same": "a"}`` (the real-code run: NameError in 14
    generated tests of merge_sort._merge), and ``{"$same": "self.v1"}`` among a receiver's
    constructor arguments (an internal error, and a replay given the dict itself); and
    ``v: {"$same": "self.v1"}`` beside the receiver (the real-code run's KDTree._build: a
    replay KeyError reported as a mismatch, and test generation that never ended); and
    ``other.v2: {"$same": "self.v1"}`` (Polynomial.poly_long_division: an internal error)."""
    from pathloom.cli import main

    (tmp_path / "lists.py").write_text(SOURCE)
    out = tmp_path / "test_lists_generated.py"
    assert main(["explore", f"{tmp_path / 'lists.py'}::{target}", "--tests", str(out), "--verify", "--quiet", "--max-list-len", "1"]) == 0
    assert expected in out.read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(out)], capture_output=True, text=True)
    assert run.returncode == 0 and " passed" in run.stdout and " failed" not in run.stdout, run.stdout
