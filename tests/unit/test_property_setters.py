"""Property setters (``@name.setter`` over a plain ``def name``): an assignment ``obj.name = v``
to an instance of an analysed class calls the setter, analysed like any method (before, the
assignment ran in CPython on pinned values); the getter stays analysed. A subclass inherits
both; a property without a setter is still CPython's AttributeError. Every input replayed."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome

SOURCE = textwrap.dedent("""
    class Volume:
        def __init__(self) -> None:
            self._level = 5

        @property
        def level(self) -> int:
            return self._level

        @level.setter
        def level(self, value: int) -> None:
            if value < 0:
                raise ValueError("negative level")
            self._level = min(value, 10)


    class Loud(Volume):
        pass


    class Fixed:
        @property
        def size(self) -> int:
            return 3


    def turn(delta: int) -> int:
        v = Volume()
        v.level = v.level + delta
        if v.level == 10:
            return -1
        return v.level


    def turn_loud(delta: int) -> int:
        v = Loud()
        v.level += delta
        return v.level


    def fixed(n: int) -> int:
        f = Fixed()
        if n > 2:
            f.size = n
        return f.size
""")


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["turn", "turn_loud", "fixed"])
def test_property_setters_are_analysed(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "vol.py", target, engine)
    paths = result["paths"]
    assert result["complete"]  # type: ignore[index]
    for p in paths:  # type: ignore[union-attr]
        want = python_outcome(SOURCE, target, p["inputs"])
        assert (p["exception"] if p["outcome"] == "raise" else p["returned"]) == want, p
    outcomes = {p["exception"] or p["returned"] for p in paths}  # type: ignore[union-attr]
    if target == "turn":
        assert {"ValueError", -1} <= outcomes and not result["stats"]["concretizations"]  # type: ignore[index]
    if target == "fixed":
        assert "AttributeError" in outcomes
