"""``is`` between a real object (a value CPython computed) and a builtin, a function or a
class of the analysis: CPython's answer, never a guessed False (``type(x) is int`` was False,
a replay mismatch)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .verified import explore_source
from pathloom.engines.registry import engine_names

SOURCE = textwrap.dedent("""
    class C:
        pass


    def kind(x: int) -> int:
        if type(x) is int:
            return 1
        return 0


    def same_class(x: int) -> bool:
        return type(C()) is C
""")


@pytest.mark.parametrize("engine", engine_names())
def test_type_of_a_value_is_the_builtin(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "identity.py", "kind", engine)
    assert {p["returned"] for p in result["paths"] if p["outcome"] == "return"} == {1}  # type: ignore[union-attr]
    same = explore_source(tmp_path, SOURCE, "identity.py", "same_class", engine)
    assert {p["returned"] for p in same["paths"]} == {True}  # type: ignore[union-attr]
