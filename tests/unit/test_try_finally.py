"""``try``/``finally`` (and ``try``/``except``/``else``/``finally``): the ``finally`` body runs on
every way out of its region, lowered once per way (``lowering/cleanups.py``), so every engine
runs it with no engine code: the normal end, a ``return`` (whose value is taken first; a
``return`` in the ``finally`` body overrides it), ``break``/``continue`` out of the region, and
an exception (raised again after the body, at its own line, unless the body returns or breaks
first). Every input is replayed in CPython."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, python_outcome, refusal

SOURCE = """
def appended(x: int, xs: list[int]) -> list[int]:
    try:
        xs.append(10 // x)
    finally:
        xs.append(-1)
    return xs


def returned(x: int) -> int:
    y = x
    try:
        return y
    finally:
        y = 7


def overridden(x: int) -> int:
    try:
        if x < 0:
            raise ValueError("neg")
        return x
    finally:
        if x < -5:
            return 0


def looped(n: int) -> int:
    t = 0
    i = -1
    while i < 3:
        i += 1
        try:
            if i > n:
                break
            if i == n:
                continue
            t += 1
        finally:
            t += 100
    return t


def nested(x: int) -> list[int]:
    log = []
    try:
        for i in range(2):
            try:
                if x == i:
                    return log
            finally:
                log.append(i)
    finally:
        log.append(9)
    return log


def handled(x: int, xs: list[int]) -> int:
    t = 0
    try:
        xs.append(x)
        t = 10 // xs[x]
    except IndexError:
        return -1
    except ZeroDivisionError:
        t = -2
    else:
        t += 1
    finally:
        xs.append(t)
    return len(xs) + t


def swallowed(x: int) -> int:
    t = 0
    for i in range(3):
        try:
            t += 1
            if x < i:
                raise ValueError("neg")
        finally:
            if x < 0:
                continue
    return t


def refused(x: int) -> int:
    try:
        return x
    finally:
        try:
            x += 1
        except ValueError:
            pass
"""

ENGINES = engine_names()


def _run(tmp_path: Path, target: str, engine: str) -> list[dict[str, object]]:
    result = explore_source(tmp_path, SOURCE, "fin.py", target, engine, "--max-list-len", "2", "--max-iterations", "6")
    assert result["complete"], target
    return result["paths"]  # type: ignore[return-value]


def _python(target: str, inputs: dict[str, object]) -> object:
    return python_outcome(SOURCE, target, inputs)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_finally_body_runs_on_every_way_out(tmp_path: Path, engine: str) -> None:
    expected = {
        "appended": {("return", "[10, -1]"), ("raise", "ZeroDivisionError")},
        "returned": {("return", None)},
        "overridden": {("return", None), ("raise", "ValueError")},
        "looped": {("return", None)},
        "nested": {("return", None)},
        "handled": {("return", None)},
        "swallowed": {("return", None), ("raise", "ValueError")},
    }
    for target, kinds in expected.items():
        paths = _run(tmp_path, target, engine)
        outcomes = {p["outcome"] for p in paths}
        assert outcomes == {k for k, _ in kinds}, (target, paths)
        for path in paths:
            inputs = {k: v for k, v in path["inputs"].items()}  # type: ignore[attr-defined]
            got = _python(target, dict(inputs))
            if path["outcome"] == "return":
                assert path["returned"] == got, (target, path)
            else:
                assert path["exception"] == got, (target, path)


@pytest.mark.parametrize("engine", ENGINES)
def test_specific_outcomes(tmp_path: Path, engine: str) -> None:
    returned = _run(tmp_path, "returned", engine)
    assert all(p["returned"] == p["inputs"]["x"] for p in returned)  # type: ignore[index]
    # the ZeroDivisionError is raised again after the finally body, at the line of the division
    raised = [p for p in _run(tmp_path, "appended", engine) if p["outcome"] == "raise"]
    assert [(p["inputs"]["x"], p["line"]) for p in raised] == [(0, 4)]  # type: ignore[index]
    # a return in the finally body overrides the exception for x < -5
    overridden = _run(tmp_path, "overridden", engine)
    assert any(p["returned"] == 0 for p in overridden) and any(p["outcome"] == "raise" for p in overridden)
    looped = {p["inputs"]["n"]: p["returned"] for p in _run(tmp_path, "looped", engine)}  # type: ignore[index]
    for n, value in looped.items():
        assert value == _python("looped", {"n": n})
    assert 400 in looped.values() or 403 in looped.values() or len(looped) >= 3
    nested = _run(tmp_path, "nested", engine)
    assert {tuple(p["returned"]) for p in nested} >= {(0, 9), (0, 1, 9)}  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_try_inside_a_finally_body_is_refused(tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fin.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert refusal(path, "refused", engine, capsys).endswith("fin.py:91:9: unsupported: a try statement inside a finally body")
