"""The replays after an exploration stay within the target's ``--timeout``: the inputs of paths
the timeout cut (a loop that may never end) are run in what is left of it (at least
``command.CUT_REPLAY_FLOOR_S``), not ``REPLAY_TIMEOUT_S`` each. ``algorithms``' ``garage``
with ``--verify --tests --timeout 20`` ran 50 s and was killed: seven cut inputs looped 5 s
each in the replay for its tests."""

from __future__ import annotations

import time
from pathlib import Path

from pathloom.cli import main
from pathloom.replay import NOT_RUN, replay

LOOPS = """
def spin(n: int) -> int:
    while n != 0:
        n = n + 0
    return n


def spins(n: int, k: int) -> int:
    while n != 0:  # forever in CPython unless n == 0; each path cut by --max-iterations
        if n > k:
            k = k + 1
        else:
            k = k - 1
    return k
"""


def test_a_replay_budget_leaves_the_inputs_past_it_not_run(tmp_path: Path) -> None:
    source = tmp_path / "spin.py"
    source.write_text(LOOPS)
    started = time.monotonic()
    observed = replay(str(source), "spin", [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 0}], timeout_s=5.0, budget_s=1.0)
    assert time.monotonic() - started < 10.0  # without the budget: 10 s of loops at least
    assert observed[0].outcome == "return" and observed[0].returned == 0
    assert observed[1].outcome == "timeout" and observed[1].detail != NOT_RUN  # cut at what was left
    assert [o.detail for o in observed[2:]] == [NOT_RUN, NOT_RUN]


def test_tests_of_a_timed_out_target_are_written_within_its_timeout(tmp_path: Path) -> None:
    source = tmp_path / "spin.py"
    source.write_text(LOOPS)
    tests = tmp_path / "test_spin.py"
    started = time.monotonic()
    main(["explore", f"{source}::spins", "--timeout", "3", "--max-iterations", "3", "--tests", str(tests), "--search-timeout", "0", "--quiet"])
    assert time.monotonic() - started < 12  # 3 + CUT_REPLAY_FLOOR_S + start-up; it was 5 s per cut path
    assert "def test_spins" in tests.read_text()  # the returning paths (n=0) have their tests
