"""Operands pinned to concrete values choose them well: a ``range`` with a symbolic step pins
the step alone (its start and stop stay symbolic, so a step of 1 to 3 is three cases and the
run is complete), and a pinned str is first tried at the literals of its own function
(``"<" not in re.sub(P, "", html)`` tries ``html='<'``), not those of functions written above
it, and a ``re`` pattern of the function as a shortest string it matches (``\\s\\s`` as two
tabs). Every reported input is replayed in CPython (``--verify``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = r"""
import re


def other(s: str) -> int:
    if s in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"):
        return 1
    return 0


def chunked(xs: list[int], size: int) -> int:
    assert 1 <= size <= 3 and len(xs) <= 5
    count = 0
    for i in range(0, len(xs), size):
        chunk = xs[i : i + size]
        if len(chunk) < size:
            return -1
        count += 1
    return count


def squeeze(s: str) -> int:
    assert len(s) <= 6
    out = re.sub(r" +", " ", s)
    if re.search(r"\s\s", out):
        return 1
    return 0


def strip_tags(html: str) -> int:
    assert len(html) <= 8
    text = re.sub(r"<[^>]*>", "", html)
    if "<" in text:
        return 1
    return 0
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_symbolic_range_step_is_pinned_alone(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "pin.py", "chunked", engine, "--timeout", "20", "--max-iterations", "6")
    assert result["complete"], result
    returned = set()
    for p in result["paths"]:  # type: ignore[union-attr]
        if p["outcome"] == "return":
            assert p["returned"] == python_outcome(SOURCE, "chunked", p["inputs"])
            returned.add(p["returned"])
    assert returned == {-1, 0, 1, 2, 3, 4}, returned  # lists of at most --max-list-len 4 items


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["strip_tags", "squeeze"])
def test_a_pinned_str_tries_its_own_functions_literals_and_patterns_first(tmp_path: Path, engine: str, target: str) -> None:
    """``strip_tags``: its literal ``"<"``; ``squeeze``: two tabs, a shortest match of ``\\s\\s``."""
    result = explore_source(tmp_path, SOURCE, "pin.py", target, engine, "--timeout", "20")
    found = [p for p in result["paths"] if p["outcome"] == "return" and p["returned"] == 1]  # type: ignore[union-attr]
    assert found, result["paths"]
    assert all(python_outcome(SOURCE, target, p["inputs"]) == 1 for p in found)


@pytest.mark.parametrize(
    ("pattern", "shortest"),
    [(r"\s\s", "\t\t"), (" +", " "), ("<[^>]*>", "<>"), (r"\d\d:\d\d", "00:00"), ("x{3}|y", "y"), ("(?!a)b", None), ("[^\\s\\S]", None)],
)
def test_shortest_member(pattern: str, shortest: str | None) -> None:
    import re

    from pathloom.terms.regex_lang import shortest_member

    assert shortest_member(pattern) == shortest
    if shortest is not None:
        assert re.fullmatch(pattern, shortest)
