"""Operations run in CPython see the interpreter state CPython would have on their path, and
no state left by another path: an operation that changes decimal's current context (its
precision, rounding, traps, or the context itself) is unsupported and the context is put
back. ``pi(precision)`` once predicted '3.14' for ``precision=1`` (CPython: ''): the context's
precision set on one path was seen by the next."""

from __future__ import annotations

import decimal
import json
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names

SOURCE = """
import decimal
from decimal import Decimal


def scaled(precision: int) -> str:
    decimal.getcontext().prec = precision
    return str(Decimal(1) / Decimal(7))


def replaced(precision: int) -> str:
    decimal.setcontext(decimal.Context(prec=3))
    return str(Decimal(1) / Decimal(7))


def local(precision: int) -> str:
    ctx = decimal.Context()
    if precision > 2:
        ctx.prec = 2
    return str(ctx.divide(Decimal(1), Decimal(7)))


def reads_only(x: int) -> str:
    return str(Decimal(x) / Decimal(7))
"""


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["scaled", "replaced", "local"])
def test_an_operation_that_changes_decimal_state_is_unsupported_and_undone(
    tmp_path: Path, engine: str, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = decimal.getcontext()
    settings = (before.prec, before.rounding, before.Emin, before.Emax, before.traps.copy())
    program = tmp_path / "dec.py"
    program.write_text(SOURCE)
    out = tmp_path / "dec.json"
    code = main(["explore", f"{program}::{target}", "--engine", engine, "--verify", "--json", str(out), "--quiet"])
    after = decimal.getcontext()
    assert after is before and (after.prec, after.rounding, after.Emin, after.Emax, after.traps) == settings
    result = json.loads(out.read_text())
    assert not result["complete"]
    if target == "local":
        # a Context object the paths share, changed in place: it cannot be put back, so no later
        # path could be trusted and the target is refused at that line (exit 2)
        assert (
            code == 2
            and "changed a Context (module-level dicts, sets and opaque objects are shared by every path); it could not be put back" in capsys.readouterr().err
        )
        return
    # the current context changed: put back, and the path that changed it is cut there
    assert code in (0, 1), capsys.readouterr()
    cut = [p for p in result["paths"] if p["outcome"] == "cut"]
    assert cut and all(p["cut"] == "unsupported" and "changed decimal's current context" in p["reason"] for p in cut), cut
    finished = [p for p in result["paths"] if p["outcome"] != "cut"]
    assert all(p["outcome"] in ("return", "raise") and p["returned"] in (None, "0.1428571428571428571428571429") for p in finished)


def test_operations_that_only_read_the_context_run(tmp_path: Path) -> None:
    program = tmp_path / "dec.py"
    program.write_text(SOURCE)
    out = tmp_path / "dec.json"
    assert main(["explore", f"{program}::reads_only", "--verify", "--json", str(out), "--quiet"]) == 0
    paths = json.loads(out.read_text())["paths"]
    assert any(p["outcome"] == "return" for p in paths)
