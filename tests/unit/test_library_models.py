"""Python-level models of library functions (``pathloom.models.library``, chosen by
``semantics.library_models``): each model equals its original on concrete values (Hypothesis,
the exceptions and messages included), and, analysed in every engine, reaches what the
original's pinned values never did (a field with spaces after ``split``, a leap year of the
400-year rule), with every reported input replayed in CPython."""

from __future__ import annotations

import calendar
import json
import math
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.engines.registry import engine_names
from pathloom.models import library as M

from .verified import explore_source, python_outcome

TEXT = st.text(alphabet=st.sampled_from(" \t\n\x1c\x85\xa0\u3000ab,;-"), max_size=12)
SEPARATORS = st.one_of(st.none(), st.sampled_from(["", ",", ", ", "a", "ab", "aa", " ", "\t"]))


def _outcome(f: object, *args: object) -> object:
    try:
        return ("ok", f(*args))  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - compared
        return (type(exc).__name__, str(exc))


@settings(max_examples=400, deadline=None)
@given(TEXT, SEPARATORS, st.integers(-2, 4))
def test_split_equals_str_split(s: str, sep: str | None, maxsplit: int) -> None:
    assert _outcome(M.str_split, s, sep, maxsplit) == _outcome(str.split, s, sep, maxsplit)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.sampled_from(["", ",", ", ", "a", "ab", "aa", " "]))
def test_partition_equals_str_partition(s: str, sep: str) -> None:
    assert _outcome(M.str_partition, s, sep) == _outcome(str.partition, s, sep)


@settings(max_examples=300, deadline=None)
@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6))
def test_gcd_and_isleap_equal_the_originals(a: int, b: int) -> None:
    assert M.gcd(a, b) == math.gcd(a, b)
    assert M.isleap(a) == calendar.isleap(a)


SOURCE = textwrap.dedent("""
    import calendar
    from math import gcd


    def fields(line: str) -> int:
        parts = line.split(",", 2)
        if len(parts) == 3 and parts[1] == " x":
            return 3
        return len(parts)


    def words(line: str) -> int:
        ws = line.split()
        if len(ws) == 2 and ws[1] == "go":
            return 1
        return 0


    def key_value(s: str) -> str:
        k, sep, v = s.partition("=")
        if sep and k == "id":
            return v
        return "-"


    def leap(year: int) -> int:
        if calendar.isleap(year) and year % 100 == 0:
            return 1
        return 0


    def coprime(a: int, b: int) -> bool:
        if 0 < a < 20 and 0 < b < 20:
            return gcd(a, b) == 1
        return False
""")

WANTED = {
    "fields": lambda p: p["returned"] == 3,
    "words": lambda p: p["returned"] == 1,
    "key_value": lambda p: p["returned"] != "-",
    "leap": lambda p: p["returned"] == 1,
    "coprime": lambda p: p["returned"] is True,
}


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", sorted(WANTED))
def test_models_are_explored_and_their_inputs_replay(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "lm.py", target, engine, "--timeout", "20", "--max-iterations", "4")
    paths = [p for p in result["paths"] if not p.get("cut")]  # type: ignore[union-attr]
    for p in paths:
        assert p["returned"] == python_outcome(SOURCE, target, p["inputs"]), p
    assert any(WANTED[target](p) for p in paths), paths
    assert not result["stats"]["concretizations"]  # type: ignore[index]


def test_a_models_error_is_the_librarys_a_bug_at_the_callers_line(tmp_path: Path) -> None:
    """``s.split("")`` raises CPython's ValueError: an implicit exception (a bug to ``check``, as
    when the original ran in CPython), at the user's line; the model's own branches are not
    counted in the user's branch coverage."""
    from pathloom.cli import main

    path = tmp_path / "sp.py"
    path.write_text("def f(s: str, sep: str) -> int:\n    parts = s.split(sep)\n    return len(parts)\n", encoding="utf-8")
    out = tmp_path / "sp.json"
    assert main(["check", f"{path}::f", "--json", str(out), "--quiet", "--max-iterations", "2"]) == 1
    result = json.loads(out.read_text())
    bugs = [p for p in result["paths"] if p["outcome"] == "raise"]
    assert [(p["exception"], p["message"], p["line"], p["kind"], p["inputs"]["sep"]) for p in bugs] == [("ValueError", "empty separator", 2, "implicit", "")]
    assert result["stats"]["branches_total"] == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=5), st.sampled_from([None, max, min]))
def test_accumulate_equals_itertools_accumulate(xs: list[int], func: object) -> None:
    import itertools

    assert list(M.accumulate(iter(xs), func)) == list(itertools.accumulate(xs, func))  # type: ignore[arg-type]


ACCUMULATE = textwrap.dedent("""
    import itertools
    from itertools import accumulate


    def best_prefix(xs: list[int]) -> int:
        best = 0
        for t in accumulate(xs):
            best = max(best, t)
        if best != max(itertools.accumulate(xs), default=0):
            return 1
        return 0


    def peaks(xs: list[int]) -> int:
        return len([t for t in accumulate(xs, max) if t > 3])


    def totals(xs: list[int]) -> list[int]:
        return list(accumulate(xs))


    def not_iterable(n: int) -> int:
        for t in accumulate(n):
            return t
        return 0
""")


@pytest.mark.parametrize("engine", engine_names())
def test_accumulate_is_inlined_as_a_generator(tmp_path: Path, engine: str) -> None:
    """``itertools.accumulate`` (no ``initial``; ``func`` None, ``max`` or ``min``) consumed by a
    loop, comprehension or builtin runs its model item by item: the all-negative prefix is
    found, nothing is pinned, the model's own loop is not a branch of the user's, and
    ``accumulate(5)`` raises CPython's TypeError at the call."""
    results = {
        target: explore_source(tmp_path, ACCUMULATE, "acc.py", target, engine, "--timeout", "20", "--max-iterations", "4")
        for target in ("best_prefix", "peaks", "totals", "not_iterable")
    }
    for target, result in results.items():
        for p in [p for p in result["paths"] if p["outcome"] != "cut"]:  # type: ignore[union-attr]
            expected = python_outcome(ACCUMULATE, target, p["inputs"])
            assert (p["returned"] if p["outcome"] == "return" else p["exception"]) == expected, (target, p)
    assert any(p["outcome"] == "return" and p["returned"] == 1 for p in results["best_prefix"]["paths"])  # type: ignore[union-attr]
    for target in ("best_prefix", "peaks", "totals"):
        assert results[target]["complete"] and not results[target]["stats"]["concretizations"], target  # type: ignore[index]
    assert results["totals"]["stats"]["branches_total"] == 0  # type: ignore[index]
    assert {(p["exception"], p["message"]) for p in results["not_iterable"]["paths"] if p["outcome"] == "raise"} == {
        ("TypeError", "'int' object is not iterable")
    }  # type: ignore[union-attr]
