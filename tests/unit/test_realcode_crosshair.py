"""The pure parts of benchmarks/realcode_crosshair.py: sample selection, the target's line range,
the branch filter on a coverage.py JSON report, and the bug rule (no network, no CrossHair)."""

from __future__ import annotations

import os
import sys
import textwrap

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "benchmarks")
sys.path.insert(0, BENCHMARKS)

import realcode_crosshair as rx
from realcode import Target


def _targets(n: int) -> list[Target]:
    return [Target(f"/p/m{i}.py", f"m{i}.py", "f") for i in range(n)]


def test_sample_takes_every_kth_target_in_order() -> None:
    targets = _targets(860)
    chosen = rx.sample(targets, 40)
    assert len(chosen) == 40
    assert [t.module for t in chosen[:3]] == ["m0.py", "m21.py", "m42.py"]  # k = 860 // 40 = 21
    assert rx.sample(targets, 4) == [targets[0], targets[215], targets[430], targets[645]]
    assert rx.sample(targets[:3], 40) == targets[:3]  # fewer targets than asked: all of them
    assert rx.sample(targets, 0) == []


MODULE = textwrap.dedent(
    """\
    def f(x: int) -> int:
        if x:
            raise ValueError("x")
        return 1

    class C:
        def m(self, y: int) -> int:
            return [y][y]

    def f(x: int) -> int:  # a later definition replaces the first
        return x
    """
)


def test_def_range_of_functions_and_methods() -> None:
    assert rx.def_range(MODULE, "f") == (10, 11)
    assert rx.def_range(MODULE, "C.m") == (7, 8)
    assert rx.def_range(MODULE, "C.nothing") is None


def test_branches_in_counts_only_arcs_from_the_target_lines() -> None:
    file_report = {
        "executed_branches": [[2, 3], [2, 4], [20, 21], [8, -7]],
        "missing_branches": [[3, 4], [9, 10], [1, 2]],
    }
    assert rx.branches_in(file_report, (2, 8)) == (3, 4)
    assert rx.branches_in({}, (1, 5)) == (0, 0)


TESTS = textwrap.dedent(
    """\
    import pytest

    def test_a():
        with pytest.raises(IndexError):
            f()

    def test_b():
        with pytest.raises(ValueError, match='x'):
            f()

    def test_c():
        with pytest.raises(_module.OwnError):
            f()

    def test_d():
        with pytest.raises(AssertionError):
            f()

    def test_e():
        assert f() == 1

    def test_f():
        with pytest.raises(KeyError):
            f()

    @pytest.mark.xfail(strict=True, raises=ZeroDivisionError, reason="possible bug")
    def test_g():
        f()

    @pytest.mark.xfail(strict=True, raises=TypeError, reason="possible bug")
    def test_h():
        f()
    """
)

JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="t" name="test_a" /><testcase classname="t" name="test_b" />
<testcase classname="t" name="test_c" /><testcase classname="t" name="test_d" />
<testcase classname="t" name="test_e"><failure message="x" /></testcase>
<testcase classname="t" name="test_f"><failure message="did not raise" /></testcase>
<testcase classname="t" name="test_g"><skipped type="pytest.xfail" message="possible bug" /></testcase>
<testcase classname="t" name="test_h"><failure message="[XPASS(strict)] possible bug" /></testcase>
</testsuite></testsuites>"""


def test_bug_rule() -> None:
    assert rx.expected_exceptions(TESTS) == {
        "test_a": ("IndexError", "passed"),
        "test_b": ("ValueError", "passed"),
        "test_c": ("OwnError", "passed"),
        "test_d": ("AssertionError", "passed"),
        "test_f": ("KeyError", "passed"),
        "test_g": ("ZeroDivisionError", "skipped"),  # pathloom's strict xfail of a possible bug
        "test_h": ("TypeError", "skipped"),
    }
    outcomes = rx.junit_outcomes(JUNIT)
    assert outcomes["test_a"] == "passed" and outcomes["test_e"] == "failed"
    explicit = rx.explicit_raises(MODULE)
    assert explicit == {"ValueError"}
    # IndexError: builtin, passes, not raised explicitly. ValueError: raised explicitly.
    # OwnError: not builtin. AssertionError: left out. KeyError: its test fails.
    # ZeroDivisionError: its strict xfail xfailed (raised). TypeError: its strict xfail passed (not raised).
    assert rx.bugs_found(TESTS, outcomes, explicit) == ["IndexError", "ZeroDivisionError"]
    assert rx.count_tests(TESTS) == 8


def test_crosshair_target_names() -> None:
    assert rx.crosshair_target(Target("/p/algorithms/sorting/x.py", "sorting/x.py", "C.m")) == ("algorithms.sorting.x.C.m")
    assert rx.crosshair_target(Target("/p/algorithms/tree/__init__.py", "tree/__init__.py", "f")) == ("algorithms.tree.f")
