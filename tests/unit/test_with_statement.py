"""``with`` over the analysed code's own context managers and ``contextlib.suppress``
(``lowering/contexts.py``): ``__enter__``'s value bound by ``as``, ``__exit__(None, None, None)``
on the normal end and on a ``return``/``break``/``continue`` out of the region,
``__exit__(type(e), e, None)`` on an exception, suppressed when its result is true; several
items nest. Real context managers (files) and an ``__exit__`` that reads its traceback are
refused with one line. Every input is replayed in CPython."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, python_outcome, refusal

SOURCE = """
import contextlib
from contextlib import suppress


class Guard:
    def __init__(self, log: list[int], tag: int) -> None:
        self.log = log
        self.tag = tag

    def __enter__(self) -> int:
        self.log.append(self.tag)
        return len(self.log)

    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        self.log.append(-self.tag)
        if kind is ZeroDivisionError:
            return True
        return False


class Traced(Guard):
    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        return tb is None


def returned(x: int) -> list[int]:
    log = [x]
    with Guard(log, 1) as n:
        if x > 0:
            log.append(n)
            return log
        log.append(10 // x)
    return log


def two(x: int) -> list[int]:
    log = []
    with Guard(log, 1) as a, Guard(log, 2) as b:
        if x > 5:
            raise ValueError("big")
        log.append(a + b + 10 // x)
    return log


def looped(n: int) -> list[int]:
    log: list[int] = []
    for i in range(3):
        with Guard(log, 7):
            if i == n:
                continue
            if i > n:
                break
            log.append(i)
    return log


def suppressed(x: int, xs: list[int]) -> int:
    with suppress(IndexError, ZeroDivisionError):
        return xs[x] // x
    with contextlib.suppress(ValueError) as s:
        if s is None:
            raise ValueError("always")
    return -1


def filed(x: int) -> int:
    with open("data.txt") as f:
        return len(f.read()) + x


def traced(x: int) -> int:
    with Traced([], 1):
        return x
"""

ENGINES = engine_names()


def _python(target: str, inputs: dict[str, object]) -> object:
    return python_outcome(SOURCE, target, inputs)


def _paths(tmp_path: Path, target: str, engine: str) -> list[dict[str, object]]:
    result = explore_source(tmp_path, SOURCE, "cm.py", target, engine, "--max-list-len", "2", "--max-iterations", "4")
    assert result["complete"], target
    return result["paths"]  # type: ignore[return-value]


@pytest.mark.parametrize("engine", ENGINES)
def test_enter_and_exit_run_on_every_way_out(tmp_path: Path, engine: str) -> None:
    expected = {"returned": {"return"}, "two": {"return", "raise"}, "looped": {"return"}, "suppressed": {"return"}}
    for target, outcomes in expected.items():
        paths = _paths(tmp_path, target, engine)
        assert {p["outcome"] for p in paths} == outcomes, (target, paths)
        for path in paths:
            got = _python(target, dict(path["inputs"]))  # type: ignore[call-overload]
            assert (path["returned"] if path["outcome"] == "return" else path["exception"]) == got, (target, path)


@pytest.mark.parametrize("engine", ENGINES)
def test_specific_outcomes(tmp_path: Path, engine: str) -> None:
    returned = {p["inputs"]["x"]: p["returned"] for p in _paths(tmp_path, "returned", engine)}  # type: ignore[index]
    for x, log in returned.items():
        # x > 0: __enter__, the return, __exit__; x == 0: the ZeroDivisionError goes to __exit__, which suppresses it
        assert log == ([x, 1, 2, -1] if x > 0 else [x, 1, -1] if x == 0 else [x, 1, 10 // x, -1])  # type: ignore[operator]
    assert 0 in returned
    two = _paths(tmp_path, "two", engine)
    raised = [p for p in two if p["outcome"] == "raise"]
    assert raised and all(p["exception"] == "ValueError" and p["line"] == 41 for p in raised)  # type: ignore[index]
    # the ZeroDivisionError is suppressed by the inner manager: both exit
    zero = [p["returned"] for p in two if p["inputs"]["x"] == 0]  # type: ignore[index]
    assert zero in ([], [[1, 2, -2, -1]])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "target, line, what",
    [
        ("filed", "68:10", "with statement over a context manager other than a class of the analysed code or contextlib.suppress"),
        ("traced", "23:5", "__exit__ that uses its traceback argument"),
    ],
)
def test_refused(tmp_path: Path, engine: str, target: str, line: str, what: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cm.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert refusal(path, target, engine, capsys).endswith(f"cm.py:{line}: unsupported: {what}")
