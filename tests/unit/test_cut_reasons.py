"""Cut paths carry their kind (``cuts.CutReason``) in every engine: the loop bound, the
call-depth bound, ``--max-paths`` and a value past what the semantics models; the JSON path
has it under ``cut``; a path that is not cut has none, and a cut path always has one."""

from __future__ import annotations

import pytest

from pathloom.api import explore
from pathloom.cuts import CutReason
from pathloom.engines.registry import engine_names
from pathloom.frontend.module import parse_module
from pathloom.options import Options
from pathloom.report.json_report import path_json
from pathloom.results import PathResult

SOURCE = """
def count(n: int) -> int:
    i = 0
    while i < n:
        i += 1
    return i


def depth(n: int) -> int:
    if n <= 0:
        return 0
    return depth(n - 1) + 1


def three(x: int) -> int:
    if x > 10:
        return 2
    if x > 5:
        return 1
    return 0


def shift(n: int) -> int:
    if n < 0:
        return 0
    return 1 << n
"""


def cut_kinds(engine: str, target: str, **options: object) -> set[CutReason | None]:
    result = explore(parse_module(SOURCE, "prog.py"), target, Options(engine=engine, **options))  # type: ignore[arg-type]
    assert all((p.outcome == "cut") == (p.cut is not None) for p in result.paths)
    assert all(path_json(p)["cut"] == p.cut for p in result.paths)
    return {p.cut for p in result.paths if p.outcome == "cut"}


@pytest.mark.parametrize("engine", engine_names())
def test_loop_bound(engine: str) -> None:
    assert cut_kinds(engine, "count", max_iterations=3) == {CutReason.LOOP_BOUND}


@pytest.mark.parametrize("engine", engine_names())
def test_depth_bound(engine: str) -> None:
    assert CutReason.DEPTH_BOUND in cut_kinds(engine, "depth", max_depth=3)


@pytest.mark.parametrize("engine", ["dse", "compose"])
def test_max_paths(engine: str) -> None:  # multise has no per-path bound to stop at
    assert cut_kinds(engine, "three", max_paths=1) == {CutReason.MAX_PATHS}


@pytest.mark.parametrize("engine", engine_names())
def test_value_past_the_model(engine: str) -> None:
    kinds = cut_kinds(engine, "shift")  # multise also pins n at a concretized step
    assert CutReason.MODEL_LIMIT in kinds and kinds <= {CutReason.MODEL_LIMIT, CutReason.CONCRETIZATION_LIMIT}


def test_only_cut_paths_have_a_kind() -> None:
    with pytest.raises(ValueError):
        PathResult("cut", None, reason="timeout")
    with pytest.raises(ValueError):
        PathResult("return", None, cut=CutReason.TIMEOUT)
    with pytest.raises(ValueError):
        PathResult("cut", None, cut="a guess")  # type: ignore[arg-type]
    assert PathResult("cut", None, cut="timeout").cut is CutReason.TIMEOUT  # type: ignore[arg-type]
