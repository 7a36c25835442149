"""Indices beyond a C ``ssize_t``: CPython converts them before any range check, and says
so (``list.insert``/``list.pop``: OverflowError; indexing, item assignment and deletion:
IndexError ``cannot fit 'int' into an index-sized integer``). Found by the fuzzer
(``l0.insert(n0.v, n0.v)`` with ``x = 2**63`` was predicted to return)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .verified import explore_source
from pathloom.engines.registry import engine_names

SOURCE = """
def insert_at(x: int) -> int:
    xs = [1, 2]
    xs.insert(x, 5)
    return xs[0]


def pop_at(x: int) -> int:
    xs = [1, 2]
    return xs.pop(x)


def pop_empty(x: int) -> int:
    xs: list[int] = []
    return xs.pop(x)


def delete_at(x: int) -> int:
    xs = [1, 2]
    del xs[x]
    return xs[0]


def index_all(x: int, s: str) -> str:
    xs = [1]
    xs[x] = 3
    return s[x] + str((1, 2)[x])
"""

EXPECTED = {
    "insert_at": ("OverflowError", "Python int too large to convert to C ssize_t"),
    "pop_at": ("OverflowError", "Python int too large to convert to C ssize_t"),
    "pop_empty": ("OverflowError", "Python int too large to convert to C ssize_t"),
    "delete_at": ("IndexError", "cannot fit 'int' into an index-sized integer"),
    "index_all": ("IndexError", "cannot fit 'int' into an index-sized integer"),
}


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", sorted(EXPECTED))
def test_an_index_beyond_ssize_t_raises_as_in_cpython(tmp_path: Path, target: str, engine: str) -> None:
    report = explore_source(tmp_path, SOURCE, "indices.py", target, engine)
    raised = [(p["exception"], p["message"], p["inputs"]) for p in report["paths"] if p["outcome"] == "raise"]  # type: ignore[index, union-attr]
    huge = [r for r in raised if (r[0], r[1]) == EXPECTED[target]]
    assert huge, raised
    assert all(not -(2**63) <= r[2]["x"] < 2**63 for r in huge)  # replayed by --verify as well
    assert report["complete"] is True
