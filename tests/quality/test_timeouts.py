"""--timeout bounds an exploration whose solver queries are hard (non-linear arithmetic):
the run ends, incomplete, instead of hanging in Z3 (a generous bound: this is about not
hanging, not about speed)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.options import Options
from pathloom.engines.registry import engine_names

PROGRAM = Path(__file__).parent / "programs" / "nonlinear_mod_loop.py"


@pytest.mark.parametrize("engine", engine_names())
def test_hard_queries_stay_within_the_timeout(engine: str) -> None:
    start = time.monotonic()
    exploration = explore(str(PROGRAM), "f", Options(engine=engine, timeout=2, solver_timeout_ms=1000))
    assert time.monotonic() - start < 60
    assert exploration.complete is False


def test_guard_algebra_stops_at_the_timeout() -> None:
    """MultiSE drops a step whose guard algebra passes the deadline (``GuardManager.stopping_at``);
    nothing of it is committed, its entry is a cut path."""
    start = time.monotonic()
    exploration = explore(str(PROGRAM.parent / "guard_blowup.py"), "f", Options(engine="multise", timeout=2, max_list_len=3, max_str_len=3))
    assert time.monotonic() - start < 30  # it ran for minutes when a step could not be stopped
    assert exploration.complete is False
    assert any(p.outcome == "cut" and p.reason == "timeout" for p in exploration.paths)


def test_covering_branch_directions_stops_at_the_timeout() -> None:
    """Inputs for branch coverage are sought only within the time limit (the results stand
    without them)."""
    start = time.monotonic()
    explore(str(PROGRAM.parent / "direction_cover_timeout.py"), "f", Options(engine="multise", timeout=3, max_list_len=3, max_str_len=3, max_iterations=10))
    assert time.monotonic() - start < 45  # it ran for more than 90 s with a 20 s limit


def test_a_guard_deadline_raises_only_inside_its_block() -> None:
    from pathloom.guards.bdd import GuardManager, GuardTimeout

    mgr = GuardManager()
    g = mgr.atom("a")
    with pytest.raises(GuardTimeout), mgr.stopping_at(time.monotonic() - 1):
        for _ in range(1000):
            g = mgr.or_(g, mgr.atom("b"))
    for _ in range(1000):  # no deadline outside the block
        g = mgr.and_(g, mgr.atom("a"))


@pytest.mark.parametrize("engine", [e for e in engine_names() if e != "multise"])
def test_slow_queries_stop_at_the_timeout(engine: str) -> None:
    """Each branch query of this fuzzed program takes seconds to prepare (terms over aliased
    lists that nested loops keep rewriting); the deadline is checked before every query, not
    only every 1,024 instructions, so the run ends near its timeout (it ran 80 s past a 20-s
    one)."""
    start = time.monotonic()
    exploration = explore(str(PROGRAM.parent / "slow_queries_loop.py"), "f", Options(engine=engine, timeout=5))
    assert time.monotonic() - start < 12  # 17 s with the check every 1,024 instructions alone; about 5.3 s now
    assert exploration.complete is False
