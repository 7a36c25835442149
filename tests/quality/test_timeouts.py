"""--timeout bounds an exploration whose solver queries are hard (non-linear arithmetic):
the run ends, incomplete, instead of hanging in Z3 (a generous bound: this is about not
hanging, not about speed)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.options import Options

PROGRAM = Path(__file__).parent / "programs" / "nonlinear_mod_loop.py"


@pytest.mark.parametrize("engine", ["dse", "multise"])
def test_hard_queries_stay_within_the_timeout(engine: str) -> None:
    start = time.monotonic()
    exploration = explore(str(PROGRAM), "f", Options(engine=engine, timeout=2, solver_timeout_ms=1000))
    assert time.monotonic() - start < 60
    assert exploration.complete is False
