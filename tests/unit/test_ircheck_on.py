"""The suite validates every lowered function (``PATHLOOM_CHECK_IR``, set in conftest): a
lowering that breaks an IR invariant fails the test that lowers it."""

from __future__ import annotations

import pytest

import pathloom.frontend.lower as lower
from pathloom.frontend import ir
from pathloom.frontend.module import CHECK_IR, parse_module


def test_ir_checking_is_on_in_the_suite() -> None:
    import pathloom.frontend.module as module

    assert module.CHECK_IR or CHECK_IR


def test_an_invalid_lowering_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = lower.lower_function

    def broken(*args: object) -> ir.Function:
        function = real(*args)  # type: ignore[arg-type]
        for block in function.blocks.values():
            block.terminator = None  # type: ignore[assignment]
        return function

    monkeypatch.setattr(lower, "lower_function", broken)
    module = parse_module("def f(x: int) -> int:\n    return x\n", "prog.py")
    with pytest.raises(AssertionError, match="invalid IR for f: f L0: no terminator"):
        module.function("f")
