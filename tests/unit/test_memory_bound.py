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
