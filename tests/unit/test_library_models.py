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
