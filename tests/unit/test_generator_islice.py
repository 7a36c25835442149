"""``itertools.islice(g(...), stop)`` of a top-level generator function, consumed item by item
(``frontend.lowering.generators``): the generator inlined into the loop, which stops once it
has taken ``stop`` items, without resuming the generator for another (an endless generator is
fine), and never starts it for ``stop == 0``; the stop is checked as CPython's ``islice()``
checks it (None: no stop; an int or bool from 0 to ``sys.maxsize``; else CPython's
``ValueError: Stop argument for islice() must be None or an integer: 0 <= x <=
sys.maxsize.``), after the generator's arguments are evaluated. Every input is replayed in
CPython, in every engine, and compared with CPython's outcome here; ``islice`` reached through
another name than itertools' is left alone (a refusal)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome, unsupported_said

SOURCE = """\
import itertools
from itertools import islice as cut
from typing import Iterator


def squares() -> Iterator[int]:
    n = 0
    while True:
        yield n * n
        n += 1


def noisy(log: list[int], k: int) -> Iterator[int]:
    for i in range(k):
        log.append(i)
        yield i
    log.append(-5)


def note(log: list[int], v: int) -> int:
    log.append(100 + v)
    return v


def prefix(n: int) -> list[int]:
    return list(itertools.islice(squares(), n))


def loop(n: int, k: int) -> list[int]:
    log: list[int] = []
    for x in cut(noisy(log, k), n):
        if x == 1:
            continue
        log.append(10 + x)
    else:
        log.append(-1)
    return log


def stopped(n: int, k: int) -> list[int]:
    log: list[int] = []
    for x in cut(noisy(log, k), n):
        if x == 2:
            break
        log.append(10 + x)
    else:
        log.append(-1)
    return log


def comprehension(n: int, k: int) -> list[int]:
    log: list[int] = []
    got = [x * 2 for x in itertools.islice(noisy(log, note(log, k)), note(log, n))]
    return log + got


def consumers(n: int) -> list[object]:
    return [sum(cut(squares(), n)), list(tuple(cut(squares(), n))), sorted(cut(squares(), n), reverse=True), max(cut(squares(), n), default=-1)]


def maybe_none(n: int, k: int) -> list[int]:
    log: list[int] = []
    return list(cut(noisy(log, k), None if n < 0 else n)) + log


def bad_stop(n: int, f: float, s: str, b: bool) -> str:
    log: list[int] = []
    stop: object = f if n == 0 else s if n == 1 else b if n == 2 else n
    try:
        return str(list(cut(noisy(log, 2), stop))) + str(log)  # type: ignore[call-overload]
    except ValueError as e:
        return str(e) + str(log)
"""

TARGETS = ["prefix", "loop", "stopped", "comprehension", "consumers", "maybe_none", "bad_stop"]


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", TARGETS)
def test_islice_of_a_generator_call_as_cpython(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "isl.py", target, engine, "--max-iterations", "6")
    paths = [p for p in result["paths"] if not p.get("cut") and p["outcome"] in ("return", "raise")]  # type: ignore[attr-defined]
    assert paths
    for p in paths:
        got = p["returned"] if p["outcome"] == "return" else p["exception"]
        assert got == python_outcome(SOURCE, target, dict(p["inputs"])), p


def test_the_generator_is_not_resumed_after_the_last_item(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "isl.py", "loop", "dse", "--max-iterations", "6")
    returned = [p["returned"] for p in result["paths"]]  # type: ignore[attr-defined]
    assert [-1] in returned  # n == 0: noisy never started
    assert [0, 10, 1, -1] in returned  # n == 2, k >= 2: no third item made, the else runs
    assert [0, 10, 1, -5, -1] in returned  # k == 2 < n: noisy ran to its end


def test_a_negative_or_huge_stop_is_cpythons_value_error(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "isl.py", "prefix", "dse")
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[attr-defined]
    assert {p["exception"] for p in raised} == {"ValueError"}
    assert {p["inputs"]["n"] < 0 for p in raised} == {True, False}  # below 0, and beyond sys.maxsize


def test_another_islice_is_not_taken_for_itertools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.py"
    path.write_text(
        "from typing import Iterator\n\n\ndef islice(it: Iterator[int], n: int) -> list[int]:\n    return [n]\n\n\n"
        "def squares() -> Iterator[int]:\n    yield 1\n\n\ndef f(n: int) -> list[int]:\n    return list(islice(squares(), n))\n",
        encoding="utf-8",
    )
    assert "generator function squares() whose items are not consumed whole" in unsupported_said(path, "f", capsys)
