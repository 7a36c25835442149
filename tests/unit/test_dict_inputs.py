"""``dict[K, V]`` parameters (``engines.entry._Builder._dict``): bounded entries, keys pairwise
different, insertion order kept; values of any item shape, input objects included. Every
input is replayed in CPython (``explore_verified``) in both engines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.verified import copy_program, explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copy_program("dict_inputs.py", tmp_path)


def _returns(result: dict) -> set[object]:  # type: ignore[type-arg]
    return {p.get("returned") for p in result["paths"] if p["outcome"] == "return"}


def _entries(value: dict) -> list[list[object]]:  # type: ignore[type-arg]
    return value["$dict"] if "$dict" in value else [[k, v] for k, v in value.items()]


@pytest.mark.parametrize("engine", ENGINES)
def test_str_keys_membership_and_length(program: Path, engine: str) -> None:
    result = explore_verified(program, "lookup", engine)
    assert result["complete"] and _returns(result) == {0, 1, 2, 3}


@pytest.mark.parametrize("engine", ENGINES)
def test_iteration_finds_the_assert_and_the_raise(program: Path, engine: str) -> None:
    result = explore_verified(program, "total", engine)
    raised = {(p["exception"], p.get("kind")) for p in result["paths"] if p["outcome"] == "raise"}
    assert raised == {("AssertionError", "assert"), ("ValueError", "explicit")}
    bug = next(p for p in result["paths"] if p.get("kind") == "assert")
    assert sum(v for _, v in _entries(bug["inputs"]["d"])) == 7


@pytest.mark.parametrize("engine", ENGINES)
def test_bare_dict_is_str_to_int_and_keeps_insertion_order(program: Path, engine: str) -> None:
    result = explore_verified(program, "first", engine)
    for p in result["paths"]:
        entries = _entries(p["inputs"]["d"])
        assert all(isinstance(k, str) and isinstance(v, int) for k, v in entries)
        assert p["returned"] == (entries[0][0] if entries else "")


@pytest.mark.parametrize("engine", ENGINES)
def test_dict_of_input_objects_may_alias(program: Path, engine: str) -> None:
    result = explore_verified(program, "heads", engine)
    assert result["complete"] and _returns(result) >= {-1, 1}


def test_max_dict_len_bounds_the_entries(program: Path) -> None:
    result = explore_verified(program, "first", "dse", "--max-dict-len", "1")
    assert max(len(_entries(p["inputs"]["d"])) for p in result["paths"]) == 1


def test_generated_tests_for_dict_inputs_pass(program: Path, tmp_path: Path) -> None:
    from pathloom.cli import main

    for target in ("lookup", "total", "heads"):
        assert main(["explore", f"{program}::{target}", "--tests", str(tmp_path / f"test_gen_{target}.py"), "--quiet"]) in (0, 1)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert " passed" in run.stdout and " failed" not in run.stdout


NESTED = """
def relax(graph: dict[str, dict[str, float]], source: str) -> float:
    if source not in graph:
        return -1.0
    best = 0.0
    for node, edges in graph.items():
        for other, w in edges.items():
            if other == source and w < best:
                best = w
    return best


def cover(sets: dict[str, set[int]]) -> int:
    seen: set[int] = set()
    for name in sets:
        seen |= sets[name]
    return len(seen)
"""


@pytest.mark.parametrize("engine", ENGINES + ("compose",))
@pytest.mark.parametrize("target", ["relax", "cover"])
def test_dicts_of_dicts_and_sets_are_inputs_of_two_entries_and_say_so(tmp_path: Path, engine: str, target: str) -> None:
    """A dict whose values are dicts or sets: one record per combination of sizes (at most
    2 entries, each value at most 2), every input replayed, the bound named in ``untried``."""
    path = tmp_path / "nested.py"
    path.write_text(NESTED, encoding="utf-8")
    result = explore_verified(path, target, engine)
    assert not result["complete"] and len(result["untried"]) == 1 and "at most 2 entries, each of at most 2" in result["untried"][0]  # type: ignore[index]
    sizes = {
        (len(p["inputs"][name]["$dict"]), max([len(v["$dict"] if "$dict" in v else v["$set"]) for _, v in p["inputs"][name]["$dict"]], default=0))  # type: ignore[index]
        for p in result["paths"]
        for name in ("graph" if target == "relax" else "sets",)
    }  # type: ignore[union-attr]
    assert max(sizes) <= (2, 2) and (2, 2) in sizes or engine == "multise"
