"""``min``/``max`` of a generator expression with ``default=`` and ``key=``, and a generator
expression unpacked into names (``frontend.lowering.library``, ``comprehensions``), exact as
CPython runs them: the generator's first iterable is made, then the keywords are evaluated in
the order written, then the items one at a time, each key called at once; unpacking pulls at
most one item more than there are names (the rest never made) and raises CPython's
``ValueError`` with its message. Every input is replayed in CPython, in every engine, and the
outcome (the value, with the logs of what ran in which order) compared with CPython's."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = """\
def note(log: list[int], code: int, v: int) -> int:
    log.append(code)
    log.append(v)
    return v


def longest(lines: list[str]) -> int:
    return max((len(line) for line in lines), default=0)


def order(xs: list[int], d: int) -> list[object]:
    log: list[int] = []
    m = max((note(log, 1, x) for x in xs), default=note(log, 2, d), key=lambda v: note(log, 3, -v))
    return [m, log]


def not_iterable(xs: list[int], d: int, bad: bool) -> list[object]:
    log: list[int] = []
    source: object = d if bad else xs
    try:
        return [min((x for x in source), default=note(log, 2, d)), log]  # type: ignore[attr-defined]
    except TypeError as e:
        return [str(e), log]


def next_not_iterable(xs: list[int], d: int, bad: bool) -> list[object]:
    log: list[int] = []
    source: object = d if bad else xs
    try:
        return [next((x for x in source if x > 0), note(log, 2, d)), log]  # type: ignore[attr-defined]
    except TypeError as e:
        return [str(e), log]


def smallest_key(xs: list[int]) -> int:
    return min((x for x in xs if x != 2), key=lambda v: v * v, default=-9)


def ties(xs: list[int]) -> str:
    best = max(((x % 2, x) for x in xs), key=lambda p: p[0], default=(7, 7))
    return str(best)


def empty(xs: list[int]) -> str:
    try:
        return str(min(x for x in xs if x > 1))
    except ValueError as e:
        return str(e)


def none_key(xs: list[int], k: int) -> int:
    key = None if k > 0 else abs
    return max((x - 1 for x in xs), key=key, default=k)


def raising_key(xs: list[int]) -> str:
    try:
        return str(max((x for x in xs), key=lambda v: 10 // v, default=5))
    except ZeroDivisionError as e:
        return f"zero: {e}"


def pulled(log: list[int], x: int) -> int:
    log.append(x)
    return x


def unpack(xs: list[int]) -> list[object]:
    log: list[int] = []
    try:
        a, b = (pulled(log, x) for x in xs)
    except ValueError as e:
        return [str(e), log]
    return [a, b, log]


def unpack_list_target(xs: list[int]) -> list[object]:
    try:
        [a, b, c] = (x + 1 for x in xs if x != 3)
    except ValueError as e:
        return [str(e)]
    return [c, b, a]


def unpack_star(xs: list[int]) -> list[object]:
    log: list[int] = []
    try:
        a, *rest = (note(log, 1, x) for x in xs)
    except ValueError as e:
        return [str(e), log]
    return [a, rest, log]


def unpack_nested(xs: list[int]) -> int:
    (a, b), c = ((x, x + 1) if x else 0 for x in xs)  # type: ignore[misc]
    return a + b + c  # type: ignore[operator]
"""

TARGETS = [
    "longest",
    "order",
    "not_iterable",
    "next_not_iterable",
    "smallest_key",
    "ties",
    "empty",
    "none_key",
    "raising_key",
    "unpack",
    "unpack_list_target",
    "unpack_star",
    "unpack_nested",
]


def _cpython_outcomes(result: dict[str, object], target: str) -> None:
    paths = [p for p in result["paths"] if not p.get("cut") and p["outcome"] in ("return", "raise")]  # type: ignore[attr-defined]
    assert paths
    for p in paths:
        got = p["returned"] if p["outcome"] == "return" else p["exception"]
        assert got == python_outcome(SOURCE, target, dict(p["inputs"])), p


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", TARGETS)
def test_min_max_keywords_and_unpacking_as_cpython(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "mm.py", target, engine, "--max-list-len", "3", "--timeout", "60")
    _cpython_outcomes(result, target)


@pytest.mark.parametrize("target", ["not_iterable", "next_not_iterable"])
def test_default_is_evaluated_after_iter_of_the_iterable(tmp_path: Path, target: str) -> None:
    """``iter()`` of the first iterable runs when the generator is made, before ``default``
    is evaluated (it ran after it: a wrong answer when ``iter()`` raises, or has effects)."""
    result = explore_source(tmp_path, SOURCE, "mm.py", target, "dse", "--max-list-len", "2")
    returned = [p["returned"] for p in result["paths"]]  # type: ignore[attr-defined]
    assert ["'int' object is not iterable", []] in returned, returned


def test_unpacking_pulls_one_item_more_than_names(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "mm.py", "unpack", "dse", "--max-list-len", "4")
    returned = [p["returned"] for p in result["paths"]]  # type: ignore[attr-defined]
    too_many = [r for r in returned if r[0] == "too many values to unpack (expected 2)"]
    assert too_many and all(len(r[1]) == 3 for r in too_many), too_many  # the fourth item never made
    assert any(r[0] == "not enough values to unpack (expected 2, got 1)" for r in returned), returned
