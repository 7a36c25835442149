"""Differential test: random programs (progen) through dse and multise against CPython.

Fixed-seed Hypothesis runs over ``programs()``, in ``SHARDS`` tests of their own (one seed
each, so ``pytest -n`` spreads them over the cores); every example goes through
``harness.check_program`` (replay of reported paths, partition + prediction on sampled
inputs, engine agreement). On a failure Hypothesis shrinks the program and its inputs
and reports the minimal one.

To keep a failure as a regression, re-run with ``PATHLOOM_SAVE_REGRESSIONS=1``:

    PATHLOOM_SAVE_REGRESSIONS=1 .venv/bin/python -m pytest tests/differential/test_random_programs.py

the minimal example is then reduced further (statement deletion) and written to
``tests/differential/regressions/`` (marked as a strict xfail with the failure; remove
the ``# xfail:`` header line once the engine is fixed). The fuzzer
(``make fuzz FUZZ_ARGS="--seconds 600"``) saves its failures the same way.

Constructs that meet an engine bug still open (``harness.OPEN_BUG_FEATURES``, each kept
as a strict-xfail regression) are not generated here until the bug is fixed.

``PATHLOOM_DIFF_EXAMPLES`` overrides the number of examples over all shards (default 1,500;
the fuzzer, ``make fuzz``, is where the numbers of programs live). Each shard fails when fewer
than half of its distinct programs were checked by every engine (an oracle that passed while
every program was refused would check nothing).
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

# progen's span helper triggers a harmless HypothesisDeprecationWarning at import
warnings.filterwarnings("ignore", message="There is no reason to use @st.composite")

from .harness import (
    ENGINES,
    OPEN_BUG_FEATURES,
    base_options,
    check_program,
    reduce_program,
    sample_strategy,
    save_regression,
)
from .progen import programs

EXAMPLES = int(os.environ.get("PATHLOOM_DIFF_EXAMPLES", "1500"))
SAMPLES = 20
#: The examples run as this many tests of their own (each a fixed Hypothesis seed), so that
#: ``pytest -n`` spreads them over the cores.
SHARDS = 6


@pytest.mark.parametrize("shard", range(SHARDS))
def test_random_programs_agree_with_cpython(shard: int) -> None:
    last: dict[str, Any] = {}
    seen: set[str] = set()
    checked = [0]  # programs explored by every engine with at least one input replayed

    @seed(shard)
    @settings(
        max_examples=EXAMPLES // SHARDS,
        derandomize=False,  # the shard's seed decides
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def check(data: st.DataObject) -> None:
        program = data.draw(programs(without=frozenset(OPEN_BUG_FEATURES)), label="program")
        if program.source in seen and "failure" not in last:
            # a program already checked (Hypothesis re-generates small ones): draw the
            # same values check_program would, check nothing
            data.draw(sample_strategy(program, base_options(), SAMPLES))
            return
        seen.add(program.source)
        report = check_program(program, ENGINES, SAMPLES, draw=data.draw)
        if report.failures:
            last["failure"] = (program, report)
            raise AssertionError(report.describe())
        if report.checks and not report.unsupported:
            checked[0] += 1

    try:
        check()
        # an oracle that can fail: most distinct programs must have been checked, not refused
        assert checked[0] >= len(seen) // 2, f"only {checked[0]} of {len(seen)} distinct programs checked"
    finally:
        if "failure" in last and os.environ.get("PATHLOOM_SAVE_REGRESSIONS"):
            program, report = last["failure"]  # the last failing call: the shrunk example
            failure = report.failures[0]
            inputs = [failure.inputs] if failure.inputs is not None else []
            reduced, why = reduce_program(program, failure.signature, inputs=inputs, seconds=120)
            if why is not None:
                program, failure = reduced, why
            path = save_regression(program, failure, found="test_random_programs (shrunk)")
            print(f"saved regression {path}")
