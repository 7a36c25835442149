"""Starred assignment targets (``first, *rest = xs``, ``*init, last = t``, ``a, *mid, z = s``,
``for head, *tail in rows``): the starred name takes a new list of the items the others leave,
and too few items raise CPython's ValueError ("expected at least N"). Modelled in every engine
(``ir.Unpack.star``, ``sequences.unpack``); every input replayed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source

SOURCE = """
def head_tail(xs: list[int]) -> int:
    first, *rest = xs
    if rest and rest[-1] > first:
        return len(rest)
    return first


def middle(xs: list[int]) -> list[int]:
    a, *mid, z = xs
    mid.append(a + z)
    return mid


def in_for(rows: list[list[int]]) -> int:
    total = 0
    for head, *tail in rows:
        total += head * len(tail)
    return total
"""


@pytest.mark.parametrize("engine", engine_names())
def test_starred_targets_take_the_rest_as_a_list(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "star.py", "middle", engine, "--max-list-len", "3")
    assert result["complete"]
    for path in result["paths"]:  # type: ignore[union-attr]
        xs = path["inputs"]["xs"]
        if len(xs) < 2:
            assert path["exception"] == "ValueError"
            assert path["message"] == f"not enough values to unpack (expected at least 2, got {len(xs)})"
        else:
            assert path["returned"] == xs[1:-1] + [xs[0] + xs[-1]]


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["head_tail", "in_for"])
def test_starred_targets_explore_completely(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "star.py", target, engine, "--max-list-len", "3")
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
    assert {p["outcome"] for p in result["paths"]} >= {"return"}  # type: ignore[union-attr]
