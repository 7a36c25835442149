"""Generators consumed item by item (``frontend.lowering.generators``): a loop over a call of a
top-level generator function runs the generator's statements in place, one item at a time,
interleaved with the loop's body as CPython runs them. Every exploration is replayed in
CPython (``explore_verified``), in every engine, and the outcomes that only an item-by-item
model gets right are checked by value."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome, unsupported_said

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from typing import Iterator


    def evens(k: int) -> Iterator[int]:
        for i in range(k):
            yield i * 2


    def countdown(n: int, step: int = 1) -> Iterator[int]:
        while n > 0:
            yield n
            n -= step
        return 99  # ends the loop; the value is dropped


    def naturals() -> Iterator[int]:
        i = 0
        while True:
            yield i
            i += 1


    def late_failure(n: int) -> Iterator[int]:
        yield n
        raise ValueError("late")


    def producer(log: list[int]) -> Iterator[int]:
        for i in range(2):
            log.append(i)
            yield i


    def chained(n: int) -> Iterator[int]:
        yield from evens(n)
        yield from [7, 8]


    def maybe_unbound(n: int) -> Iterator[int]:
        if n > 2:
            z = n
        yield z


    def stopping(xs: list[int]) -> Iterator[int]:
        it = iter(xs)
        while True:
            yield next(it)


    def total(n: int) -> int:
        t = 0
        for x in evens(n):
            t += x
        assert t != 12
        return t


    def first_below(n: int, limit: int) -> int:
        for v in countdown(n, step=2):
            if v < limit:
                break
        else:
            return -1
        return v


    def square_root_up(target: int) -> int:
        for i in naturals():
            if i * i >= target:
                return i
        return -2


    def body_fails_first(n: int) -> int:
        for v in late_failure(n):
            if v > 3:
                raise KeyError("early")
        return 0


    def interleaved(n: int) -> list[int]:
        log: list[int] = []
        for v in producer(log):
            log.append(v + n)
        return log


    def skipping(n: int) -> list[int]:
        out = []
        for v in chained(n):
            if v == 4:
                continue
            out.append(v)
        return out


    def unbound(n: int) -> int:
        t = 0
        for v in maybe_unbound(n):
            t += v
        return t


    def summed(xs: list[int]) -> int:
        t = 0
        for v in stopping(xs):
            t += v
        return t


    def builtins_over(n: int) -> list[object]:
        return [sum(evens(n)), any(v > 5 for v in naturals()), max(countdown(n)), [v + 1 for v in evens(n) if v != 2]]


    def shadowed(x: int) -> list[int]:
        return [x for x in countdown(x)]


    def first_of(n: int, xs: list[int]) -> int:
        a = next(countdown(n), -1)
        b = next((i for i, x in enumerate(xs) if x > 2), -5)
        return a * 10 + b


    def strict_first(xs: list[int]) -> int:
        return next(x for x in xs if x > 2)


    def default_after_iterable(xs: list[int]) -> int:
        log: list[int] = []
        got = next((log.append(x) or x for x in xs), log.append(-1) or 7)
        return got * 100 + len(log) + (log[0] if log else 0)
""")

YIELD_Z = SOURCE.splitlines().index("    yield z") + 1  # the line CPython reports: the read, in the generator
TARGETS = [
    "first_of",
    "strict_first",
    "default_after_iterable",
    "total",
    "first_below",
    "square_root_up",
    "body_fails_first",
    "interleaved",
    "skipping",
    "unbound",
    "summed",
    "builtins_over",
    "shadowed",
]
OPTIONS = ("--max-iterations", "5", "--max-list-len", "3", "--timeout", "30")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", TARGETS)
def test_loops_over_generators_are_exact_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "gens.py", target, engine, *OPTIONS)
    paths = result["paths"]
    assert paths and not result["stats"]["concretizations"] or target == "summed"  # type: ignore[index]
    for p in paths:  # type: ignore[union-attr]
        if p.get("cut"):
            continue
        expected = python_outcome(SOURCE, target, p["inputs"])
        got = p["returned"] if p["outcome"] == "return" else p["exception"]
        assert got == expected, (p, expected)


def _outcomes(tmp_path: Path, target: str) -> set[object]:
    result = explore_source(tmp_path, SOURCE, "gens.py", target, "dse", *OPTIONS)
    return {p["exception"] if p["outcome"] == "raise" else repr(p["returned"]) for p in result["paths"] if not p.get("cut")}  # type: ignore[union-attr]


def test_the_body_runs_before_the_generator_goes_on(tmp_path: Path) -> None:
    """Collecting the items first would raise the generator's ValueError before the body's
    KeyError; CPython runs the body on the first item first."""
    assert _outcomes(tmp_path, "body_fails_first") == {"KeyError", "ValueError"}
    assert _outcomes(tmp_path, "interleaved") >= {"[0, 0, 1, 1]"}  # producer and body append in turn


def test_an_endless_generator_is_fine_when_the_loop_leaves(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "gens.py", "square_root_up", "dse", *OPTIONS)
    assert {p["returned"] for p in result["paths"] if not p.get("cut")} >= {0, 1, 2, 3}  # type: ignore[union-attr]


def test_errors_inside_the_generator_are_cpythons(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "gens.py", "unbound", "dse", *OPTIONS)
    raised = {(p["exception"], p["message"], p["line"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert raised == {("UnboundLocalError", "cannot access local variable 'z' where it is not associated with a value", YIELD_Z)}
    result = explore_source(tmp_path, SOURCE, "gens.py", "summed", "dse", *OPTIONS)
    assert {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"} == {("RuntimeError", "generator raised StopIteration")}  # type: ignore[union-attr]


REFUSED = textwrap.dedent("""
    from typing import Iterator


    def guarded(n: int) -> Iterator[int]:
        try:
            yield n
        finally:
            print("closed")


    def consume(n: int) -> int:
        for v in guarded(n):
            return v
        return 0
""")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_generator_that_cannot_run_in_place_stays_refused(tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``yield`` inside ``try``/``finally``: the finally runs when the generator is closed,
    which inlining does not model, so the loop is unsupported (its paths cut there)."""
    path = tmp_path / "refused.py"
    path.write_text(REFUSED, encoding="utf-8")
    assert "unsupported: " in unsupported_said(path, "consume", capsys, engine=engine)


def test_next_takes_the_first_item_or_the_default(tmp_path: Path) -> None:
    """``next(g(...), d)`` and ``next(genexp[, d])`` make the first item only; ``default``
    is evaluated after the generator's first iterable; none and no default: StopIteration."""
    assert _outcomes(tmp_path, "strict_first") >= {"StopIteration", "3"}
    result = explore_source(tmp_path, SOURCE, "gens.py", "default_after_iterable", "dse", *OPTIONS)
    assert {p["returned"] for p in result["paths"]} >= {700, 1}  # type: ignore[union-attr]  # the default logs -1 first
