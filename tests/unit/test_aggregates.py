"""Symbolic models of whole-list builtins (``semantics.aggregates``) and of ``isinstance``
with builtin types: no concretization, complete explorations, every input replayed in
CPython, both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.verified import explore_source
from pathloom.engines.registry import engine_names

SOURCE = """
from collections.abc import Iterable


def median3(xs: list[int]) -> int:
    ys = sorted(xs)
    return ys[len(ys) // 2] if ys else -1


def top(xs: list[int]) -> int:
    xs.sort(reverse=True)
    return xs[0] - xs[-1] if xs else 0


def words(ws: list[str]) -> str:
    return "-".join(sorted(ws))


def total(xs: list[int], flag: bool) -> int:
    return sum(xs, 10) + sum([flag, flag])


def copy_is_new(xs: list[int]) -> int:
    ys = list(xs)
    ys.append(1)
    return len(ys) - len(xs) + len(tuple(xs))


def join_ints(xs: list[int]) -> str:
    return ",".join(xs)


def largest(xs: list[int]) -> int:
    return max(xs) + min(xs)


def kinds(x: int, s: str, xs: list[int]) -> int:
    r = 0
    if isinstance(x, (str, (float, int))):
        r += 1
    if isinstance(s, Iterable):
        r += 2
    if isinstance(xs, tuple | list):
        r += 4
    if isinstance(x, bool):
        r += 8
    return r
"""

TARGETS = ["median3", "top", "words", "total", "copy_is_new", "join_ints", "largest", "kinds"]


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", TARGETS)
def test_modelled_without_concretization(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "aggregates.py", target, engine, "--max-list-len", "3", "--max-str-len", "2")
    assert result["complete"]
    assert not result["stats"]["concretizations"]  # type: ignore[index]


def test_answers_are_cpython_s(tmp_path: Path) -> None:
    def paths(target: str) -> list[dict]:  # type: ignore[type-arg]
        return explore_source(tmp_path, SOURCE, "aggregates.py", target, "dse", "--max-list-len", "3")["paths"]  # type: ignore[return-value]

    for p in paths("median3"):
        xs = p["inputs"]["xs"]
        assert p["returned"] == (sorted(xs)[len(xs) // 2] if xs else -1)
    assert {p["message"] for p in paths("join_ints") if p["outcome"] == "raise"} == {"sequence item 0: expected str instance, int found"}
    assert {p["message"] for p in paths("largest") if p["outcome"] == "raise"} == {"max() arg is an empty sequence"}
    assert {p["returned"] for p in paths("largest") if p["outcome"] == "return" and len(p["inputs"]["xs"]) == 1} != set()  # one item: modelled
    assert {p["returned"] for p in paths("kinds")} == {7}
    assert {p["returned"] for p in paths("copy_is_new")} == {1, 2, 3, 4}


RANGES = """
def parents(n: int, k: int) -> int:
    parent = list(range(n))
    if 0 <= k < len(parent):
        parent[k] = -1
        return sum(parent)
    return len(parent)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_list_of_a_range_of_symbolic_length_is_symbolic_up_to_its_cap(tmp_path: Path, engine: str) -> None:
    """``list(range(n))``: ``len(range(n))`` items ``start + k * step`` (nothing run in
    CPython); a range longer than 32 items is a reported cut."""
    result = explore_source(tmp_path, RANGES, "ranges.py", "parents", engine)
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    reasons = {p["reason"] for p in result["paths"] if p["outcome"] == "cut"}  # type: ignore[union-attr]
    assert reasons == {"list() of a range longer than 32 items"}
    for p in result["paths"]:  # type: ignore[union-attr]
        if p["outcome"] == "return":
            n, k = p["inputs"]["n"], p["inputs"]["k"]  # type: ignore[index]
            assert p["returned"] == (sum(range(n)) - 2 * k - 1 + k if 0 <= k < n else max(n, 0)) or not 0 <= k < n
