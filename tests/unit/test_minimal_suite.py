"""``--tests`` writes a minimal suite by default: fewer tests, the same outcomes, lines and
branches as one test per path (``--all-paths``), measured by coverage.py on the real code; and
a bug's test is a strict xfail (``--raises-for-bugs``: ``pytest.raises``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pathloom.cli import main
from pathloom.report.test_selection import Candidate, minimal, outcome_key
from tests.coverage_measure import branch_coverage

SOURCE = """
def classify(n: int, s: str) -> str:
    if n < 0:
        return "neg"
    total = 0
    for ch in s:
        if ch == "a":
            total += 1
        elif ch == "b":
            total -= 1
    if total > n:
        raise ValueError("too many")
    return "ok" if total else "zero"


def mean(xs: list[int]) -> float:
    return sum(xs) / len(xs)
"""


def _covered(tmp_path: Path, tests: Path) -> tuple[set[tuple[int, int]], str]:
    """The arcs and lines of ``classify.py`` the tests ran (coverage.py, branch mode), and pytest's summary."""
    measured, output = branch_coverage(tests, tmp_path / "classify.py", tmp_path)
    covered = {(a, b) for a, b in measured["executed_branches"]} | {(0, line) for line in measured["executed_lines"]}
    return covered, output.strip().splitlines()[-1]


def test_the_minimal_suite_covers_what_one_test_per_path_covers(tmp_path: Path) -> None:
    source = tmp_path / "classify.py"
    source.write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    minimal_file, every_file = tmp_path / "test_minimal.py", tmp_path / "test_every.py"
    assert main(["explore", str(source), "--tests", str(minimal_file), "--quiet"]) == 1  # mean([]) is a bug
    assert main(["explore", str(source), "--tests", str(every_file), "--quiet", "--all-paths"]) == 1
    fewer, every = minimal_file.read_text().count("\ndef test_"), every_file.read_text().count("\ndef test_")
    assert fewer < every / 10, (fewer, every)
    covered_minimal, summary = _covered(tmp_path, minimal_file)
    covered_every, _ = _covered(tmp_path, every_file)
    assert covered_minimal == covered_every
    assert "1 xfailed" in summary and " failed" not in summary, summary
    assert "path(s) left out" in minimal_file.read_text()


def test_a_bug_is_a_strict_xfail_or_with_an_option_an_expected_raise(tmp_path: Path) -> None:
    source = tmp_path / "classify.py"
    source.write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    tests = tmp_path / "test_mean.py"
    assert main(["explore", f"{source}::mean", "--tests", str(tests), "--quiet"]) == 1
    text = tests.read_text()
    assert "@pytest.mark.xfail(strict=True, raises=ZeroDivisionError, reason='possible bug: ZeroDivisionError raised by the code at line 17')" in text
    assert "pytest.raises" not in text
    assert main(["explore", f"{source}::mean", "--tests", str(tests), "--quiet", "--raises-for-bugs"]) == 1
    text = tests.read_text()
    assert "xfail" not in text and "with pytest.raises(ZeroDivisionError):  # line 17: raised by the code (bug?)" in text
    # a strict xfail fails when the bug is gone: the test checks something
    assert main(["explore", f"{source}::mean", "--tests", str(tests), "--quiet"]) == 1
    source.write_text(textwrap.dedent(SOURCE).replace("return sum(xs) / len(xs)", "return sum(xs) / max(1, len(xs))"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and "XPASS(strict)" in run.stdout, run.stdout


arcs = st.frozensets(st.tuples(st.integers(-3, 6), st.integers(-3, 6)), max_size=6)
candidates = st.lists(
    st.tuples(st.sampled_from([("return", "int"), ("return", None), ("raise", "ValueError", 3)]), st.none() | arcs, st.integers(-5, 5)), max_size=12
)


@given(candidates)
def test_minimal_keeps_every_outcome_and_arc(drawn: list[tuple[tuple[object, ...], frozenset[tuple[int, int]] | None, int]]) -> None:
    cands = [Candidate(i, outcome, arcs_, {"x": x}) for i, (outcome, arcs_, x) in enumerate(drawn)]
    chosen = minimal(cands)
    assert chosen == sorted(set(chosen))
    kept = [c for c in cands if c.index in chosen]
    assert {c.outcome for c in kept} == {c.outcome for c in cands}
    assert set().union(*(c.arcs or () for c in kept)) == set().union(*(c.arcs or () for c in cands))
    assert all(c.index in chosen for c in cands if c.arcs is None)  # nothing shows another covers it


def test_the_simplest_input_of_an_outcome_is_kept() -> None:
    same = frozenset({(1, 2)})
    cands = [Candidate(0, ("return", "int"), same, {"n": 40}), Candidate(1, ("return", "int"), same, {"n": -1})]
    assert minimal(cands) == [1]
    assert outcome_key("return", True, None, None) != outcome_key("return", False, None, None)
    assert outcome_key("raise", None, "ValueError", 3) != outcome_key("raise", None, "ValueError", 4)
