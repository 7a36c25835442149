"""Shared test helpers: the repository root and the example files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Every function the suite lowers is validated by frontend.ircheck (in child processes too).
os.environ["PATHLOOM_CHECK_IR"] = "1"
import pathloom.frontend.module  # noqa: E402

pathloom.frontend.module.CHECK_IR = True

# Hypothesis is deterministic in the suite: every property test draws the same examples on
# every run and machine (a test that sets its own seed, a random-program shard, says
# derandomize=False), and no example database is kept between runs.
settings.register_profile("pathloom", derandomize=True, database=None, deadline=None)
settings.load_profile("pathloom")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
# the examples' targets that cannot be entered, with the refusal each must give: the suites
# that run every example check it instead of skipping whatever is unsupported
EXAMPLES_UNSUPPORTED = {
    ("pose_heap.py", "Sample.swap"): "parameter 's' has no type annotation",
}

# The suite's tiers, by directory: ``make check`` runs the unit tier without the tests listed
# in ``tests/slow_tests.txt`` (each took over SLOW_SECONDS when measured; ``make slow-list``
# measures the unit tier again with ``--record-slow`` and rewrites the list); ``make test``
# runs everything.
TIERS = {"unit": "unit", "conformance": "conformance", "differential": "differential", "quality": "integration", "golden": "unit"}
SLOW_LIST = Path(__file__).resolve().parent / "slow_tests.txt"
SLOW_SECONDS = 1.0
_durations: dict[str, float] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-slow", action="store_true", help=f"rewrite {SLOW_LIST.name}: the tests run that took over {SLOW_SECONDS} s")
    parser.addoption("--update-golden", action="store_true", help="tests/golden: rewrite the expected files from the current outputs instead of comparing")


def _slow_tests() -> frozenset[str]:
    if not SLOW_LIST.exists():
        return frozenset()
    lines = SLOW_LIST.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def pytest_configure(config: pytest.Config) -> None:
    for marker, what in (
        ("unit", "a test of one part, mostly in-process"),
        ("conformance", "engines against CPython, case by case"),
        ("differential", "random programs through every engine and CPython"),
        ("integration", "whole runs of the command line on the example and quality programs"),
        ("slow", "listed in tests/slow_tests.txt: left out of `make check`"),
    ):
        config.addinivalue_line("markers", f"{marker}: {what}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = _slow_tests()
    for item in items:
        parts = Path(str(item.fspath)).relative_to(ROOT).parts
        tier = TIERS.get(parts[1]) if len(parts) > 2 and parts[0] == "tests" else None
        if tier is not None:
            item.add_marker(getattr(pytest.mark, tier))
        if item.nodeid in slow or item.nodeid.split("[")[0] in slow:
            item.add_marker(pytest.mark.slow)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not session.config.getoption("--record-slow") or hasattr(session.config, "workerinput"):
        return  # only the controller writes, from every worker's reports
    slow = sorted(node for node, seconds in _durations.items() if seconds > SLOW_SECONDS)
    header = f"# Tests that took over {SLOW_SECONDS} s (setup, call and teardown): `make slow-list` rewrites this file.\n"
    SLOW_LIST.write_text(header + "".join(f"{node}\n" for node in slow), encoding="utf-8")
