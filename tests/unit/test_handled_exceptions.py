"""Two wrong answers found by replay: a bare ``raise`` after an except clause had ended
re-raised the exception that clause handled (CPython: RuntimeError "No active exception to
reraise", or the exception a caller handles: a bare raise outside an except clause is now
refused), and an ``except ... as e`` name stayed bound after a ``break`` out of the clause
(CPython unbinds it on every way out: UnboundLocalError when read after)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, refusal

SOURCE = """
def after_break(x: int) -> int:
    for i in range(2):
        try:
            if x > i:
                raise KeyError(i)
        except KeyError as e:
            if x > 7:
                break
    return e.args[0] if x > 7 else 0


def reraised(x: int) -> int:
    try:
        if x > 0:
            raise ValueError("v")
    except ValueError:
        if x > 5:
            raise
    return x
"""

OUTSIDE = """
def outside(x: int) -> int:
    try:
        if x > 0:
            raise ValueError("v")
    except ValueError:
        pass
    if x > 5:
        raise
    return x
"""

NESTED = """
def nested(x: int) -> int:
    try:
        raise ValueError("v")
    except ValueError:
        try:
            if x > 0:
                raise KeyError(x)
        except KeyError:
            pass
        raise
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_name_bound_by_except_is_unbound_after_break(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "handled.py", "after_break", engine)
    raised = {p["exception"] for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr,index]
    assert raised == {"UnboundLocalError"}


@pytest.mark.parametrize("engine", engine_names())
def test_a_bare_raise_inside_its_clause_reraises(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "handled.py", "reraised", engine)
    raised = {(p["exception"], p["line"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr,index]
    assert raised == {("ValueError", 16)}


@pytest.mark.parametrize(
    "source,where",
    [
        (OUTSIDE, "9:9: unsupported: bare raise outside an except clause"),
        (NESTED, "11:9: unsupported: bare raise after a try or with statement inside its except clause"),
    ],
)
def test_a_bare_raise_whose_exception_is_not_known_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, where: str) -> None:
    program = tmp_path / "bare.py"
    program.write_text(source)
    target = "outside" if source is OUTSIDE else "nested"
    assert refusal(program, target, "dse", capsys).endswith(f"bare.py:{where}")
