"""Bytes literals (``frontend.lowering.expressions.expr_Constant``): a ``b"..."`` literal is an
opaque bytes value, as a bytes constant of the real module is (``domain.values.from_runtime``):
every operation on it runs in CPython, on pinned values when an operand is symbolic, and is
reported as a concretization. A function is no longer refused for holding one; every input
is replayed in CPython, in every engine."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = textwrap.dedent("""
    MAGIC = b"PK"


    def kind(name: str) -> int:
        data = name.encode()
        if data.startswith(b"PK"):
            return 1
        if data == MAGIC + b"!":
            return 2
        return len(data)


    def header(n: int) -> int:
        out = b"\\x00\\x01" * n
        return len(out) + out.count(b"\\x01")


    def unrelated(x: int) -> int:
        if x > 3:
            return len(b"abc") + x
        return x
""")


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["kind", "header", "unrelated"])
def test_bytes_literals_are_opaque_values_run_in_cpython(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "byt.py", target, engine, "--max-concretizations", "3")
    paths = [p for p in result["paths"] if not p.get("cut")]  # type: ignore[union-attr]
    assert paths
    for p in paths:
        assert p["returned"] == python_outcome(SOURCE, target, p["inputs"]), p
    if target == "unrelated":  # no operand symbolic: computed, nothing pinned, every branch
        assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
        assert {p["inputs"]["x"] > 3 for p in paths} == {True, False}
    else:
        assert result["stats"]["concretizations"]  # type: ignore[index]
