"""Slice assignment ``xs[a:b] = value`` (``semantics.slicing.setslice``): symbolic for a list
target with a step of 1, CPython's TypeError for a str or tuple, CPython's own (on pinned
values) for extended slices and other values. Every input replayed (``--verify``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest


from .verified import explore_source, refusal
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    def splice(xs: list[int], a: int, b: int, ys: list[int]) -> list[int]:
        xs[a:b] = ys
        return xs


    def flip(xs: list[int], k: int) -> list[int]:
        xs[:k] = reversed(xs[:k])
        return xs


    def itself(xs: list[int], a: int) -> int:
        xs[a:] = xs
        xs[1:2] = (7, 8)
        return len(xs)


    def wrong(s: str, xs: list[int]) -> int:
        if xs:
            xs[::2] = [1]
            return 0
        s[0:1] = "a"
        return 1


    def added(xs: list[int]) -> list[int]:
        xs[0:1] += [3]
        return xs
""")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["splice", "flip", "itself"])
def test_slice_assignment_of_a_list_is_symbolic(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "sliced.py", target, engine, "--max-list-len", "3")
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
    if target == "splice" and engine == "dse":
        for p in result["paths"]:  # type: ignore[union-attr]
            xs, a, b, ys = (p["inputs"][k] for k in ("xs", "a", "b", "ys"))  # type: ignore[index]
            expected = list(xs)
            expected[a:b] = list(xs) if ys == {"$same": "xs"} else ys  # the same list: CPython copies it first
            assert p["returned"] == expected


@pytest.mark.parametrize("engine", engine_names())
def test_a_str_target_is_cpythons_type_error_and_an_extended_slice_runs_in_cpython(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "sliced.py", "wrong", engine, "--max-list-len", "3")
    raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert ("TypeError", "'str' object does not support item assignment") in raised
    assert raised <= {
        ("TypeError", "'str' object does not support item assignment"),
        ("ValueError", "attempt to assign sequence of size 1 to extended slice of size 2"),
    }
    assert result["stats"]["concretizations"]  # type: ignore[index]  (the extended slice, in CPython)


def test_augmented_slice_assignment_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sliced.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert "unsupported: augmented assignment to a slice" in refusal(path, "added", "dse", capsys)
