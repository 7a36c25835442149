"""The process's memory bound (``control.MAX_RSS_MB``, ``PATHLOOM_MAX_RSS_MB``) stops a runaway
exploration with a reported ``memory`` cut, in every engine: a loop that copies a list it keeps
growing (CPython never ends it) keeps every copy in the path's heap and reached 11 GB before its
timeout in a fuzzing run. (MultiSE does not run away on it: its loop ends at the timeout within
a few hundred MB, so it is not asked here.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from pathloom.semantics import control

from .verified import explore_source

RUNAWAY = """
def grow(xs: list[int]) -> int:
    for v in xs:
        xs.append(len(xs + [v]))
    return len(xs)
"""


@pytest.mark.parametrize("engine", [e for e in engine_names() if e != "multise"])
def test_a_runaway_exploration_stops_at_the_memory_bound(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(control, "MAX_RSS_MB", control._resident_mb() + 300)
    result = explore_source(tmp_path, RUNAWAY, "runaway.py", "grow", engine, "--timeout", "60")
    reasons = {p["reason"] for p in result["paths"] if p["outcome"] == "cut"}  # type: ignore[union-attr]
    assert not result["complete"] and any(r.startswith("memory") for r in reasons), reasons


def test_a_guard_operation_past_the_bdd_memory_bound_fails_instead_of_growing(monkeypatch: pytest.MonkeyPatch) -> None:
    """One ``or`` of two MultiSE guards grew to 19.5 GB in a single native CUDD call of a
    fuzzing run. CUDD's own memory cap makes such a call fail (``GuardMemoryExceeded``): a sum
    of products under a variable order that nests its pairs, past a 64 MiB cap."""
    from pathloom.guards import bdd

    monkeypatch.setattr(bdd, "CUDD_MAX_MEMORY", 64 * 2**20)
    monkeypatch.setattr(bdd, "REORDER_MAX_ATOMS", 0)  # no sifting: the order stays the bad one
    mgr = bdd.GuardManager("cudd")
    n = 40
    atoms = [mgr.atom(f"x{i}") for i in range(2 * n)]
    adjacent = mgr.or_all(mgr.and_(atoms[2 * i], atoms[2 * i + 1]) for i in range(n))  # linear in n
    assert not mgr.is_false(adjacent)
    with pytest.raises(bdd.GuardMemoryExceeded):  # pairs split across the order: 2**n nodes
        mgr.or_all(mgr.and_(atoms[i], atoms[n + i]) for i in range(n))


def test_multise_cuts_at_the_bdd_memory_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When guard algebra passes the BDD's memory bound, MultiSE drops the step and reports a
    ``memory`` cut (the guards of the paths found so far stay), never an internal error."""
    from pathloom.guards import bdd

    calls = {"or": 0}
    real_or = bdd.GuardManager.or_

    def failing_or(self: bdd.GuardManager, g: bdd.Guard, h: bdd.Guard) -> bdd.Guard:
        calls["or"] += 1
        if calls["or"] > 3:
            raise bdd.GuardMemoryExceeded()
        return real_or(self, g, h)

    monkeypatch.setattr(bdd.GuardManager, "or_", failing_or)
    source = "def f(x: int, y: int) -> int:\n    if x > 0:\n        x -= 1\n    if y > x:\n        return 1\n    return 2\n"
    result = explore_source(tmp_path, source, "guards.py", "f", "multise")
    reasons = {p["reason"] for p in result["paths"] if p["outcome"] == "cut"}  # type: ignore[union-attr]
    assert not result["complete"] and any(r.startswith("memory") for r in reasons), result["paths"]


HUGE_REPEAT = """
def pad(width: int) -> int:
    half = int(width / 2)
    line = " " * half + "x"
    return len(line)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_repetition_run_in_cpython_past_the_item_bound_is_a_cut_not_a_crash(tmp_path: Path, engine: str) -> None:
    """``" " * half`` with ``half`` pinned near 2**52 (a concretized ``/``) ran in the analyser
    and raised MemoryError: an internal error that stopped the whole run (python-by-contract-
    corpus, ethz_eprog_2019 exercise_02 problem_02 ``draw``). Past ``ops.MAX_REPEATED`` items it
    is a reported cut; below it CPython's answer."""
    result = explore_source(tmp_path, HUGE_REPEAT, "huge.py", "pad", engine, "--timeout", "60")
    reasons = {p["reason"] for p in result["paths"] if p["outcome"] == "cut"}  # type: ignore[union-attr]
    assert any("more than 10,000,000 items" in str(r) for r in reasons), reasons
    assert any(p["outcome"] == "return" for p in result["paths"])  # type: ignore[union-attr]
